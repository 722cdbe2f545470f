#!/usr/bin/env bash
# Prints the passes of make/asgst/run-upstream-tests.sh side by side: one
# column per pass that has results (without, unused, cpu, queue, wall,
# marks), one row per test whose result differs between the passes, then
# each pass's counts. Fails if the passes without and unused differ: the same
# tests must pass on the JDK without ASGST and on the ASGST image. ASGST's own
# gtests (gtest:asgst*), which only a libjvm with ASGST has, are left out of
# the rows and of that comparison. Fails too if a sampled pass (cpu, queue,
# wall, marks) passes other jtreg tests than unused, but for those of
# upstream-tests-sampled-problems.txt, which it skips: a test that fails only
# under the profiler is a defect until its cause is shown. Sampled passes run
# no gtests (their launcher starts no JVM that takes the profiler), so a
# gtest missing there is no difference.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "comparing upstream passes"
load_config
dir="$ASGST_WORKSPACE/upstream-tests"
passes=()
for pass in without unused cpu queue wall marks; do
  [ -f "$dir/$pass/results.txt" ] && passes+=("$pass")
done
[ ${#passes[@]} -gt 0 ] || die "no pass has run: make test-upstream PASS=..."

files=()
for pass in "${passes[@]}"; do files+=("$dir/$pass/results.txt"); done
awk -v names="${passes[*]}" '
  BEGIN { n = split(names, pass, " "); for (i = 1; i <= n; i++) sampled[i] = pass[i] !~ /^(without|unused)$/ }
  FNR == 1 { f++ }
  { result[$1, f] = $2; count[f, $2]++ }
  $1 !~ /^gtest:asgst/ { tests[$1] = 1 }
  END {
    printf "%-70s", "test"; for (i = 1; i <= n; i++) printf " %-8s", pass[i]; print ""
    for (t in tests) {
      same = 1; first = ""
      for (i = 1; i <= n; i++) {
        if (!((t, i) in result) && sampled[i] && t ~ /^gtest:/) continue
        r = ((t, i) in result) ? result[t, i] : "-"
        if (first == "") first = r
        else if (r != first) same = 0
      }
      if (same) continue
      line = sprintf("%-70s", t)
      for (i = 1; i <= n; i++) line = line sprintf(" %-8s", ((t, i) in result) ? result[t, i] : "-")
      print line | "sort"
    }
    close("sort")
    for (i = 1; i <= n; i++)
      printf "%s: %d passed, %d failed, %d errors, %d skipped\n", pass[i], count[i, "Passed"], count[i, "Failed"],
        count[i, "Error"], count[i, "Skipped"]
  }' "${files[@]}"

status=0
if [ -f "$dir/without/results.txt" ] && [ -f "$dir/unused/results.txt" ]; then
  own_tests=$(grep -c '^gtest:asgst' "$dir/unused/results.txt" || true)
  echo "left out: ASGST's own gtests (gtest:asgst*), $own_tests in unused"
  if diff <(awk '$2 == "Passed" && $1 !~ /^gtest:asgst/ { print $1 }' "$dir/without/results.txt") \
          <(awk '$2 == "Passed" && $1 !~ /^gtest:asgst/ { print $1 }' "$dir/unused/results.txt") >/dev/null; then
    echo "without and unused: the same pass set"
  else
    echo "without and unused: the pass sets differ (rows above)"
    status=1
  fi
fi

problems="$(dirname "$0")/upstream-tests-sampled-problems.txt"
for pass in cpu queue wall marks; do
  [ -f "$dir/$pass/results.txt" ] || continue
  if [ ! -f "$dir/unused/results.txt" ]; then
    echo "$pass: not compared, the pass unused has not run"
    continue
  fi
  # A problem list names a test without its id (test.java#id): every id.
  if diff <(awk 'NR == FNR { if ($0 !~ /^#/ && NF) skip[$1] = 1; next }
                 { name = $1; sub(/#.*/, "", name) }
                 $2 == "Passed" && $1 !~ /^gtest:/ && !(name in skip) && !($1 in skip) { print $1 }' \
                 "$problems" "$dir/unused/results.txt") \
          <(awk '$2 == "Passed" && $1 !~ /^gtest:/ { print $1 }' "$dir/$pass/results.txt") >/dev/null; then
    echo "$pass and unused: the same jtreg pass set, but for the tests of $(basename "$problems")"
  else
    echo "$pass and unused: the jtreg pass sets differ (rows above)"
    status=1
  fi
done
exit $status
