#!/usr/bin/env bash
# Builds the sample profiler (sample-profiler/, plain CMake against the image's
# include/profile.h) and runs the demo workload under it in each mode. The
# flame graphs and collapsed stacks go to $ASGST_WORKSPACE/demo/.
# Usage: make demo [DEMO_SECONDS=3]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
load_config
image="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk"
out="$ASGST_WORKSPACE/demo"
seconds="${DEMO_SECONDS:-3}"
# A fresh build each time: a CMake cache made from another checkout refuses this one.
rm -rf "$out/build"
mkdir -p "$out/classes"
[ -f "$image/include/profile.h" ] || die "no JDK image with include/profile.h: run make images first"
"$ASGST_REPO/make/asgst/in-env" bash -c "
  set -e
  cmake -S '$ASGST_REPO/sample-profiler' -B '$out/build' -DJAVA_HOME='$image' > '$out/cmake.log'
  cmake --build '$out/build' -- -j2 > '$out/build.log' || { cat '$out/build.log'; exit 1; }
  '$image/bin/javac' -d '$out/classes' '$ASGST_REPO/sample-profiler/demo/Workload.java'
  for mode in cpu wall queue agct; do
    echo \"== mode=\$mode\"
    '$image/bin/java' -agentpath:'$out/build/libasgstprof.so'=mode=\$mode,interval=1ms,file='$out'/profile-\$mode.html \
        -cp '$out/classes' Workload $seconds
  done
  '$image/bin/java' -agentpath:'$out/build/libasgstprof.so'=mode=cpu,native=true,file='$out'/profile-cpu-native.collapsed \
      -cp '$out/classes' Workload 1 2> '$out/native.log'
  echo \"== mode=cpu,native=true: \$(wc -l < '$out'/profile-cpu-native.collapsed) distinct stacks\"
"
echo "asgst: flame graphs and collapsed stacks in $out"
