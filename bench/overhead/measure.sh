#!/usr/bin/env bash
# The measuring half of bench/run-overhead-benchmark.sh, run inside the build
# environment: compiles the work, runs each workload RUNS times in every
# configuration, prints one Markdown table per workload (medians) and writes
# the figures to OUT: overhead.tsv (medians, for bench/plot-overhead.sh),
# overhead-runs.tsv (every run) and overhead-WORKLOAD.md (the tables).
# Usage: measure.sh IMAGE AGENT OUT   (variables: see run-overhead-benchmark.sh)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
image=$1 agent=$2 out=$3
runs=${RUNS:-3}
workloads=${WORKLOADS:-synthetic h2 xalan rhino}
threads=${THREADS:-2}
intervals=${INTERVALS:-10ms 1ms 100us}
classes="$out/classes"

. "$repo/bench/overhead/workloads.sh"

median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "n/a" }'; }
percent() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (a - b) * 100 / b }'; }
# 10ms -> 10 ms, 100us -> 0.1 ms, for the tables.
shown() { case $1 in *us) awk -v u="${1%us}" 'BEGIN { print u / 1000 " ms" }' ;; *) echo "${1%ms} ms" ;; esac; }

compile_workloads "$image" "$classes"
stock=$(ls -d /usr/lib/jvm/java-25-openjdk-* 2>/dev/null | head -1 || true)
printf 'workload\tconfiguration\tmode\tinterval\truns\twall_s\twall_pct\tcpu_s\tcpu_pct\tsamples\tlost\tfailed_walks\n' \
    > "$out/overhead.tsv"
printf 'workload\tconfiguration\trun\texit\twall_s\tcpu_s\tsamples\tlost\tfailed_walks\n' > "$out/overhead-runs.tsv"
TIMEFORMAT='%R %U %S'

# Runs the workload RUNS times with java and options; prints the table row and
# appends the medians to overhead.tsv. Mode none is the base of the overheads.
# A run that hangs is stopped after 15 minutes and counts as failed.
measure() {  # configuration mode interval java option...
  local name=$1 mode=$2 interval=$3 java=$4 run code wall user sys cpu samples lost failed
  shift 4
  local walls=() cpus=() counts=() losts=() fails=()
  for run in $(seq "$runs"); do
    rm -f "$out/x.jfr"
    code=0
    { time timeout 900 "$java" "$@" -Djava.awt.headless=true -cp "$cp" $main \
        > "$out/last.out" 2> "$out/last.err"; } 2> "$out/time.txt" || code=$?
    read -r wall user sys < <(tail -1 "$out/time.txt")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    samples=- lost=n/a failed=n/a
    case $mode in
      cpu|queue|wall|agct)
        read -r samples lost failed < <(sed -n \
            's/^asgstprof: mode [a-z]*, \([0-9]*\) samples, \([0-9]*\) lost, \([0-9]*\) failed walks.*/\1 \2 \3/p' \
            "$out/last.err") || { samples=? lost=? failed=?; [ "$code" != 0 ] || code=no-report; } ;;
      jfr)
        samples=$("$image/bin/jfr" summary "$out/x.jfr" 2>/dev/null |
                  awk '$1 == "jdk.ExecutionSample" { print $2 }') || true
        [ -n "$samples" ] || { samples=?; [ "$code" != 0 ] || code=no-recording; } ;;
      jfrcpu)
        samples=$("$image/bin/jfr" summary "$out/x.jfr" 2>/dev/null |
                  awk '$1 == "jdk.CPUTimeSample" { print $2 }') || true
        lost=$("$image/bin/jfr" print --events jdk.CPUTimeSamplesLost "$out/x.jfr" 2>/dev/null |
               awk '$1 == "lostSamples" { n += $3 } END { print n + 0 }') || true
        [ -n "$samples" ] || { samples=?; [ "$code" != 0 ] || code=no-recording; } ;;
    esac
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$name" "$run" "$code" "$wall" "$cpu" \
        "$samples" "$lost" "$failed" >> "$out/overhead-runs.tsv"
    if [ "$code" != 0 ]; then
      echo "| $name | failed: exit $code |"
      tail -5 "$out/last.err" | sed 's/^/    /' >&2
      return
    fi
    walls+=("$wall") cpus+=("$cpu") counts+=("$samples") losts+=("$lost") fails+=("$failed")
  done
  wall=$(printf '%s\n' "${walls[@]}" | median)
  cpu=$(printf '%s\n' "${cpus[@]}" | median)
  case $mode in
    none|stock) samples=- lost=n/a failed=n/a ;;
    jfr) samples=$(printf '%s\n' "${counts[@]}" | median) lost=n/a failed=n/a ;;
    jfrcpu) samples=$(printf '%s\n' "${counts[@]}" | median) lost=$(printf '%s\n' "${losts[@]}" | median)
            failed=n/a ;;
    *) samples=$(printf '%s\n' "${counts[@]}" | median) lost=$(printf '%s\n' "${losts[@]}" | median)
       failed=$(printf '%s\n' "${fails[@]}" | median) ;;
  esac
  [ "$mode" != none ] || { base_wall=$wall; base_cpu=$cpu; }
  local wall_pct=n/a cpu_pct=n/a
  if [ -n "$base_wall" ]; then
    wall_pct=$(percent "$wall" "$base_wall")
    cpu_pct=$(percent "$cpu" "$base_cpu")
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$name" "$mode" "$interval" "$runs" \
      "$wall" "$wall_pct" "$cpu" "$cpu_pct" "$samples" "$lost" "$failed" >> "$out/overhead.tsv"
  echo "| $name | $wall | $wall_pct% | $cpu | $cpu_pct% | $samples | $lost |"
}

for entry in $workloads; do
  workload=${entry%%:*}
  rounds=${entry#*:}
  [ "$rounds" != "$entry" ] || rounds=$(default_rounds "$workload")
  # For measure: the class path, and the main class with its arguments (split there).
  if [ "$workload" = synthetic ]; then
    cp=$classes main="Work $rounds" what="$rounds rounds on 4 threads"
  else
    cp=$(workload_class_path "$image" "$classes" "$workload")
    main="RealWork $workload $rounds $threads" what="$rounds iterations on each of $threads threads"
  fi
  base_wall=
  {
    echo "$workload ($what), median of $runs runs:"
    echo
    echo "| configuration | wall s | overhead | CPU s | overhead | samples | lost |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    measure "this image, no profiler" none - "$image/bin/java"
    if [ -n "$stock" ]; then
      version=$("$stock/bin/java" -version 2>&1 | sed -n 's/.*(build \([^)-]*\).*/\1/p' | head -1)
      measure "stock OpenJDK $version, no profiler" stock - "$stock/bin/java"
    fi
    for interval in $intervals; do
      for mode in cpu queue wall agct; do
        measure "asgstprof $mode, $(shown "$interval")" "$mode" "$interval" "$image/bin/java" \
            -agentpath:"$agent"=mode=$mode,interval=$interval,file="$out"/profile.collapsed
      done
    done
    for interval in $intervals; do
      case $interval in *us) continue ;; esac  # JFR samples at most every millisecond
      measure "JFR jdk.ExecutionSample, $(shown "$interval")" jfr "$interval" "$image/bin/java" \
          -XX:StartFlightRecording:filename="$out"/x.jfr,jdk.ExecutionSample#period=$interval
    done
    # JFR's CPU-time sampler (experimental in JDK 25): per-thread CPU timers, as the cpu mode.
    for interval in $intervals; do
      measure "JFR jdk.CPUTimeSample, $(shown "$interval")" jfrcpu "$interval" "$image/bin/java" \
          -XX:StartFlightRecording:filename="$out"/x.jfr,jdk.ExecutionSample#enabled=false,jdk.CPUTimeSample#enabled=true,jdk.CPUTimeSample#throttle=$interval
    done
    echo
  } | tee "$out/overhead-$workload.md"
done
rm -f "$out/x.jfr" "$out/profile.collapsed" "$out/last.out" "$out/last.err" "$out/time.txt"
# A run that failed has its exit code in overhead-runs.tsv.
if awk -F'\t' 'NR > 1 && $4 != 0 { print "failed: " $1 ", " $2 ", run " $3 ": exit " $4; bad = 1 }
                END { exit !bad }' "$out/overhead-runs.tsv"; then
  exit 1
fi
