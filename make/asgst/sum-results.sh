#!/usr/bin/env bash
# Sums the machine-readable results that the oracle and the stress tests print,
# lines of the form
#   asgst-result KIND name=value name=value ...
# in jtreg's .jtr files and in the stress cells' reports. Lines are grouped by
# KIND and by their fields with non-numeric values (such as layer=signal or
# mode=queue), except the fields that only name the run (workload, cell, id,
# collector, compilation, threads); numeric fields are summed over the group.
# Prints one line per group with its number of runs, groups in sorted order.
# Usage: sum-results.sh [DIR|FILE]...
#   default: the test results of this checkout's configuration (every .jtr under
#   test-support, and the stress reports of the long tier)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "summing test results"

if [ $# -eq 0 ]; then
  load_config
  build="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF"
  set -- "$build/test-support" "$build/test-results/asgst-stress"
fi
files=()
for place in "$@"; do
  if [ -d "$place" ]; then
    while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$place" -type f \( -name '*.jtr' -o -name '*.txt' \) -print0)
  elif [ -f "$place" ]; then
    files+=("$place")
  fi
done
[ ${#files[@]} -gt 0 ] || die "no result files in: $*"

# grep prints nothing (status 1) when no file holds a result line.
{ grep -h '^asgst-result ' "${files[@]}" || true; } | awk '
  BEGIN { split("workload cell id collector compilation threads", r, " "); for (i in r) run_field[r[i]] = 1 }
  {
    key = $2
    for (i = 3; i <= NF; i++) {
      split($i, kv, "=")
      if (kv[2] !~ /^-?[0-9]+$/ && !(kv[1] in run_field)) key = key " " $i
    }
    if (!(key in runs)) groups++
    runs[key]++
    for (i = 3; i <= NF; i++) {
      split($i, kv, "=")
      if (kv[2] ~ /^-?[0-9]+$/) {
        if (!((key, kv[1]) in sum)) { names[key] = names[key] " " kv[1] }
        sum[key, kv[1]] += kv[2]
      }
    }
  }
  END {
    if (groups == 0) { print "no asgst-result lines found"; exit 1 }
    for (key in runs) {
      line = key " runs=" runs[key]
      n = split(names[key], f, " ")
      for (i = 1; i <= n; i++) line = line " " f[i] "=" sum[key, f[i]]
      print line
    }
  }' | sort
