#!/usr/bin/env bash
# Whole-program overhead at equal achieved sample rates: the sample profiler
# with the perf_events engine (which samples at the interval asked for) in
# modes signal (the handler returns at once: the floor), cpu, cpu with frame
# marks (marks=true), queue and agct
# (AsyncGetCallTrace), and JFR's CPU-time sampler and execution sampler, each
# at 10 ms, 1 ms and 0.1 ms, against the same image without a profiler. The
# configurations take turns within each round of runs (in an order shuffled
# per round, the same at every run of the benchmark), so that drift of the
# machine, and whatever a run leaves to the next, falls on all of them. Per
# workload the table gives the median wall time with the lowest and highest
# run, the median and range of the per-round ratios to no profiler, the
# median per-round ratio to mode agct at the same interval, and the samples
# taken per CPU-second of the whole process (the same measure for every
# configuration), and, for a fixed amount of work, what a sample costs: the
# run's CPU time above that of the round's run without a profiler, over its
# samples (a goal line compares modes queue and cpu by it, round by round),
# and the part of the wall time outside the workload's own clock (the VM's
# and the profiler's start and exit). Its goal lines (doc/performance.md)
# count the rounds below each goal and give an interval that holds the
# median with 95% confidence or more (order statistics, from 6 rounds on);
# bench/rate/goals-table.awk collects them.
# bench/rate/measure.sh does the measuring.
# Usage: bench/run-rate-overhead-benchmark.sh   (from the repository root)
#   RUNS=5                        rounds
#   WORKLOADS="h2 xalan rhino"    real programs of the stress tier (bench/overhead/), or
#                                 the kernels streams, parallel-streams, forkjoin and tree
#                                 (bench/overhead/ParallelWork.java)
#   DURATION=4s                   the kernels run for a fixed time instead of a fixed
#                                 amount of work, and are measured by rounds per second,
#                                 warm-up included and (a table of its own) after
#   WARM_UP=2                     seconds; the real programs always do a fixed amount
#   INTERVALS="10ms 1ms 100us"    JFR's execution sampler: 1 ms and more
#   THREADS=2                     threads of each workload
#   BASELINE_IMAGE=DIR            another image of the VM (a build before a change, in
#                                 the workspace): modes cpu and queue on it join the rounds
#   BASELINE_PROFILER=REV         the sample profiler of another commit (before a change to
#                                 it), built against this image: its modes cpu and queue
#                                 join the rounds (it must build against this image's
#                                 profile.h, know engine=perf and mode=queue, and print its
#                                 "asgstprof: mode ..., N samples" line)
# Takes about 10 minutes per workload with the defaults on two cores. Writes its
# tables and every run (rate-runs.tsv) to bench/rate/WORKLOADS in the workspace.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/make/asgst/lib.sh"
load_config
image="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk"
# One directory per set of workloads: make bench's two runs keep their runs' tables apart.
workloads=${WORKLOADS:-h2 xalan rhino}
out="$ASGST_WORKSPACE/bench/rate/${workloads//[ ,]/-}"
mkdir -p "$out"
"$repo/make/asgst/build-sample-profiler.sh" "$image" "$out/profiler"
if [ -n "${BASELINE_PROFILER:-}" ]; then
  rm -rf "$out/baseline-profiler"
  mkdir -p "$out/baseline-profiler/src"
  git -C "$repo" archive "$BASELINE_PROFILER" sample-profiler | tar -x -C "$out/baseline-profiler/src"
  "$repo/make/asgst/in-env" bash -c 'cmake -S "$1" -B "$2" -DJAVA_HOME="$3" && cmake --build "$2" -- -j2' _ \
      "$out/baseline-profiler/src/sample-profiler" "$out/baseline-profiler/build" "$image" \
      > "$out/baseline-profiler/build.log" 2>&1 ||
    { echo "building the sample profiler of $BASELINE_PROFILER failed (log: $out/baseline-profiler/build.log)" >&2; exit 1; }
  export BASELINE_AGENT="$out/baseline-profiler/build/libasgstprof.so"
fi
"$repo/make/asgst/in-env" "$repo/bench/rate/measure.sh" "$image" "$out/profiler/build/libasgstprof.so" "$out"
