#!/usr/bin/env bash
# How many page faults the sample profiler's modes add to a program: each
# run of a kernel of bench/overhead/ParallelWork.java under
# `perf stat -e page-faults` (every fault of the process: the heap's and
# code's first touches, and each load that a compiled loop's safepoint poll
# makes from an armed polling page), without a profiler and with the
# profiler's perf engine in modes signal, cpu and queue. A mode's faults
# above no profiler's, per sample it took, tell how many of its samples cost
# a fault of their own (doc/safepoint-queue.md, "The poll").
# bench/faults/measure.sh does the measuring.
# Usage: bench/run-poll-fault-count.sh   (from the repository root)
#   RUNS=3               rounds (the configurations take turns within each)
#   WORKLOAD=forkjoin    streams, parallel-streams, forkjoin or tree
#   INTERVAL=100us       the profiler's interval
#   THREADS=2            threads of the kernel
#   BASELINE_IMAGE=DIR   another image of the VM (a build before a change, in
#                        the workspace): its modes cpu and queue join the rounds
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/make/asgst/lib.sh"
load_config
image="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk"
out="$ASGST_WORKSPACE/bench/faults"
mkdir -p "$out"
"$repo/make/asgst/build-sample-profiler.sh" "$image" "$out/profiler"
ASGST_ENV_RO_BIND=/sys "$repo/make/asgst/in-env" "$repo/bench/faults/measure.sh" "$image" \
  "$out/profiler/build/libasgstprof.so" "$out"
