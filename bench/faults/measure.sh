#!/usr/bin/env bash
# The measuring half of bench/run-poll-fault-count.sh, run inside the build
# environment. Writes OUT/fault-runs.tsv (every run) and prints a Markdown
# table.
# Usage: measure.sh IMAGE AGENT OUT
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
image=$1 agent=$2 out=$3
runs=${RUNS:-3}
workload=${WORKLOAD:-forkjoin}
interval=${INTERVAL:-100us}
threads=${THREADS:-2}
. "$repo/bench/overhead/workloads.sh"
rounds=$(default_rounds "$workload")
classes="$out/classes"
mkdir -p "$classes"
"$image/bin/javac" -d "$classes" "$repo/bench/overhead/ParallelWork.java"

configs=("no profiler|$image|" "asgstprof signal|$image|signal" "asgstprof cpu|$image|cpu"
         "asgstprof queue|$image|queue")
[ -z "${BASELINE_IMAGE:-}" ] ||
  configs+=("asgstprof cpu, baseline VM|$BASELINE_IMAGE|cpu" "asgstprof queue, baseline VM|$BASELINE_IMAGE|queue")

printf 'configuration\trun\texit\tfaults\tsamples\n' > "$out/fault-runs.tsv"
run_once() {  # run config
  local run=$1 name vm mode code=0 faults samples=-
  IFS='|' read -r name vm mode <<< "$2"
  local args=()
  [ -z "$mode" ] ||
    args=(-agentpath:"$agent=mode=$mode,engine=perf,interval=$interval,file=$out/profile.collapsed")
  perf stat -x, -e page-faults -o "$out/stat.csv" \
    "$vm/bin/java" "${args[@]}" -cp "$classes" ParallelWork "$workload" "$rounds" "$threads" \
    > "$out/last.out" 2> "$out/last.err" || code=$?
  faults=$(awk -F, '$3 == "page-faults" { print $1 }' "$out/stat.csv")
  if [ -n "$mode" ]; then
    samples=$(sed -n 's/^asgstprof: mode [a-z]*, \([0-9]*\) samples.*/\1/p' "$out/last.err")
    # mode=signal keeps no samples: the signals it took.
    [ "$mode" != signal ] || samples=$(sed -n 's/^asgstprof: engine .*(\([0-9]*\) samples in .*/\1/p' "$out/last.err")
    ! grep -q 'perf_event_open failed' "$out/last.err" || code=no-perf-engine
    [ -n "$samples" ] || { samples=-; [ "$code" != 0 ] || code=no-report; }
  fi
  [[ "$faults" =~ ^[0-9]+$ ]] || { faults=-; [ "$code" != 0 ] || code=no-count; }
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$run" "$code" "$faults" "$samples" >> "$out/fault-runs.tsv"
  if [ "$code" != 0 ]; then
    echo "failed: $name, run $run: $code" >&2
    tail -5 "$out/last.err" | sed 's/^/    /' >&2
  fi
}

count=${#configs[@]}
for run in $(seq "$runs"); do
  for i in $(seq 0 $((count - 1))); do
    run_once "$run" "${configs[$(( (i + run - 1) % count ))]}"
  done
done

awk -F'\t' -v w="$workload" -v rounds="$rounds" -v threads="$threads" -v interval="$interval" -v runs="$runs" '
  function med(list,    a, n, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n ? a[int((n + 1) / 2)] : ""
  }
  function range(list,    a, n, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n ? sprintf("%s (%s-%s)", a[int((n + 1) / 2)], a[1], a[n]) : "n/a"
  }
  NR > 1 && $3 == 0 {
    if (!($1 in seen)) { seen[$1] = 1; order[++keys] = $1 }
    faults[$1] = faults[$1] " " $4
    if ($5 != "-") { samples[$1] = samples[$1] " " $5; run_faults[$1, $2] = $4; run_samples[$1, $2] = $5 }
    if ($1 == "no profiler") base[$2] = $4
    rounds_of[$1] = rounds_of[$1] " " $2
  }
  END {
    printf "%s (%d iterations on each of %d threads), profiler at %s, %d rounds:\n\n", w, rounds, threads, interval, runs
    print "| configuration | page faults, median (low-high) | samples, median | faults above no profiler per sample, per round |"
    print "| --- | --- | --- | --- |"
    for (k = 1; k <= keys; k++) {
      c = order[k]; n = split(rounds_of[c], rs, " "); per = ""
      for (i = 1; i <= n; i++)
        if ((rs[i] in base) && run_samples[c, rs[i]] > 0)
          per = per " " sprintf("%.3f", (run_faults[c, rs[i]] - base[rs[i]]) / run_samples[c, rs[i]])
      printf "| %s | %s | %s | %s |\n", c, range(faults[c]), (samples[c] == "" ? "-" : med(samples[c])),
             (per == "" ? "-" : range(per))
    }
  }' "$out/fault-runs.tsv"
if awk -F'\t' 'NR > 1 && $3 != 0 { bad = 1 } END { exit !bad }' "$out/fault-runs.tsv"; then
  echo "some runs failed (above)" >&2
  exit 1
fi
