#!/usr/bin/env bash
# Whole-program overhead: the same fixed work without a profiler, under the
# sample profiler in each mode at several intervals, and under JFR's execution
# sampler and its CPU-time sampler, on this image; and without a profiler on the build environment's
# stock OpenJDK 25 (the cost when the API is unused). The work: the synthetic
# workload (bench/overhead/Work.java, four threads) and real programs of the
# stress tier (bench/overhead/RealWork.java, a fixed number of iterations on
# each thread). Prints per workload the median wall and CPU seconds of RUNS
# runs, the overhead against the image without a profiler, and the samples
# taken and lost; bench/overhead/measure.sh does the measuring, and
# bench/plot-overhead.sh draws the figures.
# Usage: bench/run-overhead-benchmark.sh   (after make demo)
#   RUNS=3                               runs per configuration
#   WORKLOADS="synthetic h2 xalan rhino" each NAME or NAME:ROUNDS; also jython,
#                                        batik, fop, clojure (measure.sh has the
#                                        default rounds: about 5 s per run)
#   ROUNDS=36000                         the synthetic workload's rounds
#   THREADS=2                            threads of the real workloads
#   INTERVALS="10ms 1ms 100us"           sampling intervals (JFR's execution
#                                        sampler: 1 ms and more)
# Takes about 20-25 minutes with the defaults on two cores.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/make/asgst/lib.sh"
load_config
image="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk"
out="$ASGST_WORKSPACE/bench/overhead"
agent="$ASGST_WORKSPACE/demo/build/libasgstprof.so"
[ -f "$agent" ] || die "build the sample profiler first: make demo"
mkdir -p "$out"
status=0
"$repo/make/asgst/in-env" "$repo/bench/overhead/measure.sh" "$image" "$agent" "$out" || status=$?
"$repo/bench/plot-overhead.sh" "$out/overhead.tsv" "$out/overhead.svg"  # also what a failed run measured
info "figures in $out: overhead.tsv, overhead-runs.tsv, overhead-*.md, overhead.svg"
exit $status
