#!/usr/bin/env bash
# The measuring half of bench/run-unused-cost-benchmark.sh, run inside the
# build environment. Writes OUT/unused-runs.tsv (every run) and prints one
# Markdown table (also OUT/unused.md).
# Usage: measure.sh IMAGE IMAGE_WITHOUT_ASGST OUT
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
image=$1 without=$2 out=$3
runs=${RUNS:-10}
workloads=${WORKLOADS:-micro synthetic h2 xalan rhino}
classes="$out/classes"
. "$repo/bench/overhead/workloads.sh"

compile_workloads "$image" "$classes" "$repo/bench/unused/UnusedCost.java"
TIMEFORMAT='%R'
printf 'workload\tmeasure\trun\tjdk\tvalue\n' > "$out/unused-runs.tsv"

# One run of a workload on one JDK: appends "workload measure run jdk value"
# lines (the micro's parts in ns per operation, a program's wall seconds).
run_once() {  # workload run jdk-name java
  local workload=$1 run=$2 name=$3 java=$4 wall
  case $workload in
    micro)
      "$java" -cp "$classes" UnusedCost > "$out/last.out"
      awk -v r="$run" -v j="$name" '$1 == "part" { printf "micro\t%s ns/op\t%s\t%s\t%s\n", $2, r, j, $3 }' \
          "$out/last.out" >> "$out/unused-runs.tsv" ;;
    *)
      wall=$( { time "$java" -Djava.awt.headless=true -cp "$cp" $main > "$out/last.out" 2>&1; } 2>&1 )
      printf '%s\twall s\t%s\t%s\t%s\n' "$workload" "$run" "$name" "$wall" >> "$out/unused-runs.tsv" ;;
  esac
}

for workload in $workloads; do
  if [ "$workload" = synthetic ]; then
    cp=$classes main="Work $(default_rounds synthetic)"
  elif [ "$workload" != micro ]; then
    cp=$(workload_class_path "$image" "$classes" "$workload")
    main="RealWork $workload $(default_rounds "$workload") 2"
  fi
  for run in $(seq "$runs"); do
    # Alternate which JDK goes first, so neither always runs on a warmer machine.
    if [ $((run % 2)) = 1 ]; then
      run_once "$workload" "$run" asgst "$image/bin/java"
      run_once "$workload" "$run" without "$without/bin/java"
    else
      run_once "$workload" "$run" without "$without/bin/java"
      run_once "$workload" "$run" asgst "$image/bin/java"
    fi
  done
done
rm -f "$out/last.out"

# Per workload and measure: medians with lowest and highest run, and the
# ratios of the pairs (the same run number) ASGST / without.
{
  echo "Cost when unused: $runs runs per JDK, alternating; ratio = ASGST / without ASGST, per pair of runs."
  echo
  echo "| workload | measure | ASGST median (low-high) | without ASGST median (low-high) | ratio median (low-high) |"
  echo "| --- | --- | --- | --- | --- |"
  awk -F'\t' '
    function sorted(list, a,    n, i, j, t) {
      n = split(list, a, " ")
      for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
      return n
    }
    function summary(list,    a, n) { n = sorted(list, a); return sprintf("%s (%s-%s)", a[int((n + 1) / 2)], a[1], a[n]) }
    NR > 1 {
      key = $1 SUBSEP $2
      if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
      values[key, $4] = values[key, $4] " " $5
      v[key, $3, $4] = $5
      if (!((key, $3) in run)) { run[key, $3] = 1; runs_of[key] = runs_of[key] " " $3 }
    }
    END {
      for (k = 1; k <= keys; k++) {
        key = order[k]; split(key, parts, SUBSEP)
        list = ""; n = split(runs_of[key], rs, " ")
        for (i = 1; i <= n; i++)
          if ((key, rs[i], "asgst") in v && (key, rs[i], "without") in v && v[key, rs[i], "without"] > 0)
            list = list " " sprintf("%.3f", v[key, rs[i], "asgst"] / v[key, rs[i], "without"])
        printf "| %s | %s | %s | %s | %s |\n", parts[1], parts[2], summary(values[key, "asgst"]),
               summary(values[key, "without"]), summary(list)
      }
    }' "$out/unused-runs.tsv"
} | tee "$out/unused.md"
