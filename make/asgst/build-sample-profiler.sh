#!/usr/bin/env bash
# Builds the sample profiler (sample-profiler/) with CMake against an image's
# include/profile.h, as a profiler's vendor would, and compiles its demo
# workload for Java 21 (so that a stock JDK older than the image runs it too).
# Usage: build-sample-profiler.sh IMAGE OUT
#   leaves OUT/build/libasgstprof.so, OUT/classes and OUT/build.log
#   DEMO_CMAKE_ARGS: further arguments of CMake (a cross compiler); DEMO_JAVAC:
#   the javac to use (default the image's)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
load_config
image=$1 out=$2
[ -f "$image/include/profile.h" ] || die "no JDK image with include/profile.h at $image: run make images first"
# A fresh build each time: a CMake cache made from another checkout refuses this one.
rm -rf "$out/build" "$out/classes"
mkdir -p "$out"
"$ASGST_REPO/make/asgst/in-env" bash -c "
  set -e
  cmake -S '$ASGST_REPO/sample-profiler' -B '$out/build' -DJAVA_HOME='$image' ${DEMO_CMAKE_ARGS:-}
  cmake --build '$out/build' -- -j2
  '${DEMO_JAVAC:-$image/bin/javac}' --release 21 -d '$out/classes' '$ASGST_REPO/sample-profiler/demo/Workload.java' '$ASGST_REPO/sample-profiler/demo/Waiting.java'
" > "$out/build.log" 2>&1 || die "building the sample profiler failed: $(tail -3 "$out/build.log" | tr '\n' ' ')(log: $out/build.log)"
