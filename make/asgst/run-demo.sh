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
"$ASGST_REPO/make/asgst/build-sample-profiler.sh" "$image" "$out"
"$ASGST_REPO/make/asgst/in-env" bash -c "
  set -e
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
