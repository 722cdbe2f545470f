#!/usr/bin/env bash
# The cost of ASGST when no profiler uses it: this image against the same tree
# built with ASGST compiled out (make jdk-without-asgst), on a microbenchmark of
# the hooked paths (bench/unused/UnusedCost.java: calls and returns, exceptions,
# safepoints, thread start and end, virtual-thread yields) and on whole
# programs (the overhead benchmark's workloads, bench/overhead/). The runs of
# the two JDKs alternate, so that drift of the machine falls on both; per
# workload the table gives each JDK's median with its lowest and highest run,
# and the median, lowest and highest of the per-pair ratios (ASGST / without).
# Usage: bench/run-unused-cost-benchmark.sh   (after make jdk-without-asgst)
#   RUNS=10                           runs per JDK and workload
#   WORKLOADS="micro synthetic h2 xalan rhino"
# Takes about 15 minutes with the defaults on two cores.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/make/asgst/lib.sh"
load_config
build="$ASGST_WORKSPACE/jdk/build"
image="$build/$ASGST_CONF/images/jdk"
without="$build/$ASGST_CONF-without-asgst/images/jdk"
[ -x "$without/bin/java" ] || die "no JDK without ASGST at $without: run make jdk-without-asgst"
out="$ASGST_WORKSPACE/bench/unused"
mkdir -p "$out"
"$repo/make/asgst/in-env" "$repo/bench/unused/measure.sh" "$image" "$without" "$out"
