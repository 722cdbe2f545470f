#!/usr/bin/env bash
# Builds and runs the walk cost benchmark against the workspace's JDK image:
# median ns per walk and per frame for ASGST's iterator, AsyncGetStackTrace,
# AsyncGetCallTrace and JVMTI GetStackTrace, on the same stacks.
# Usage: bench/run-walk-benchmark.sh [DEPTH...]   (from the repository root)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/make/asgst/lib.sh"
load_config
image="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk"
out="$ASGST_WORKSPACE/bench/walk"
mkdir -p "$out"
"$repo/make/asgst/in-env" bash -c "
  set -e
  gcc -O2 -fPIC -shared -Wall -Werror -I'$image/include' -I'$image/include/linux' \
      -o '$out/libWalkBenchmark.so' '$repo/bench/walk/libWalkBenchmark.c'
  '$image/bin/javac' -d '$out' '$repo/bench/walk/WalkBenchmark.java'
  '$image/bin/java' ${BENCH_JAVA_OPTIONS:-} -Xss16m -Djava.library.path='$out' -cp '$out' \
      --enable-native-access=ALL-UNNAMED WalkBenchmark $*
"
