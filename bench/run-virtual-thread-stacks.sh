#!/usr/bin/env bash
# Whole virtual-thread stacks in a sampling profiler's samples, per collector
# and mode: runs bench/vthreads/DeepVirtualThreads.java (8 virtual threads
# on 2 carriers, 61 frames of deep() below a loop that computes and yields)
# with the sample profiler, ROUNDS times per configuration (configurations
# rotate within a round), and prints per configuration the median and the
# range over the rounds of: samples of the virtual threads, the share of them
# that show the whole stack (bench/vthreads/whole-stacks.awk), the same for
# samples in the loop, and the share that ended at frames in the heap.
# Usage: bench/run-virtual-thread-stacks.sh   (from the repository root)
#   GCS="G1 Parallel Serial Z Shenandoah"   MODES="cpu wall queue"
#   ROUNDS=3   SECONDS_PER_RUN=6   INTERVAL=1ms
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/make/asgst/lib.sh"
load_config
image="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk"
out="$ASGST_WORKSPACE/bench/vthreads"
mkdir -p "$out"
"$repo/make/asgst/build-sample-profiler.sh" "$image" "$out/profiler" >&2
ASGST_ENV_RO_BIND=/sys GCS="${GCS:-G1 Parallel Serial Z Shenandoah}" MODES="${MODES:-cpu wall queue}" \
  ROUNDS="${ROUNDS:-3}" SECONDS_PER_RUN="${SECONDS_PER_RUN:-6}" INTERVAL="${INTERVAL:-1ms}" \
  "$repo/make/asgst/in-env" bash -c '
    set -euo pipefail
    repo=$1 image=$2 agent=$3 out=$4
    "$image/bin/javac" -d "$out/classes" "$repo/bench/vthreads/DeepVirtualThreads.java"
    rm -f "$out/results.txt"
    for round in $(seq "$ROUNDS"); do
      for gc in $GCS; do
        for mode in $MODES; do
          engine=
          [ "$mode" = wall ] || engine=engine=perf,
          "$image/bin/java" -XX:+Use${gc}GC -Djdk.virtualThreadScheduler.parallelism=2 \
            -agentpath:"$agent=mode=$mode,${engine}interval=$INTERVAL,file=$out/profile.collapsed,log=$out/profiler.log" \
            -cp "$out/classes" DeepVirtualThreads "$SECONDS_PER_RUN" > "$out/run.out" 2>&1
          echo "$gc $mode $(awk -f "$repo/bench/vthreads/whole-stacks.awk" "$out/profile.collapsed")" >> "$out/results.txt"
        done
      done
    done
    rm -f "$out/profile.collapsed"
    printf "| collector | mode | virtual-thread samples | whole | in loop() | whole in loop() | ended in the heap | more than 61 frames of deep() |\n"
    printf "| --- | --- | --- | --- | --- | --- | --- | --- |\n"
    for gc in $GCS; do
      for mode in $MODES; do
        awk -v gc="$gc" -v mode="$mode" "
          function sort(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
          function stat(a, n, pct) { sort(a, n); return sprintf(pct ? \"%.2f%% (%.2f-%.2f)\" : \"%d (%d-%d)\", a[int((n+1)/2)], a[1], a[n]) }
          \$1 == gc && \$2 == mode {
            n++; vt[n] = \$3; whole[n] = \$3 ? 100 * \$4 / \$3 : 0; heap[n] = \$3 ? 100 * \$5 / \$3 : 0
            loop[n] = \$6; loopwhole[n] = \$6 ? 100 * \$7 / \$6 : 0; wrong += \$9
          }
          END {
            if (n == 0) exit
            printf \"| %s | %s | %s | %s | %s | %s | %s | %d |\\n\", gc, mode, stat(vt, n, 0), stat(whole, n, 1),
                   stat(loop, n, 0), stat(loopwhole, n, 1), stat(heap, n, 1), wrong
          }" "$out/results.txt"
      done
    done
    printf "\n%s rounds of %s s per configuration, interval %s; median (min-max) over the rounds\n" \
      "$ROUNDS" "$SECONDS_PER_RUN" "$INTERVAL"
  ' _ "$repo" "$image" "$out/profiler/build/libasgstprof.so" "$out"
