#!/usr/bin/env bash
# Whole-program overhead: the same fixed work (bench/overhead/Work.java, four
# threads) without a profiler, under the sample profiler in each mode at
# several intervals, and under JFR's execution sampler, on this image; and
# without a profiler on the build environment's stock OpenJDK 25 (the cost
# when the API is unused). Prints median wall and CPU seconds of RUNS runs
# and the overhead against the image without a profiler.
# Usage: bench/run-overhead-benchmark.sh   (RUNS=3 ROUNDS=36000; after make demo)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/make/asgst/lib.sh"
load_config
image="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk"
out="$ASGST_WORKSPACE/bench/overhead"
agent="$ASGST_WORKSPACE/demo/build/libasgstprof.so"
[ -f "$agent" ] || die "build the sample profiler first: make demo"
mkdir -p "$out"
"$repo/make/asgst/in-env" bash -c "
  set -e
  '$image/bin/javac' -d '$out' '$repo/bench/overhead/Work.java' '$repo/sample-profiler/demo/Workload.java'
  stock=\$(ls -d /usr/lib/jvm/java-25-openjdk-* 2>/dev/null | head -1)
  runs=\${RUNS:-3}; rounds=\${ROUNDS:-36000}
  base=''
  measure() {  # name java options...
    local name=\$1 java=\$2; shift 2
    local walls=() cpus=()
    for i in \$(seq \$runs); do
      { time \"\$java\" \"\$@\" -cp '$out' Work \$rounds > '$out/last.txt' 2> '$out/last.err' ; } 2> '$out/time.txt'
      read -r real user sys < '$out/time.txt'
      walls+=(\$real)
      cpus+=(\$(awk -v u=\$user -v s=\$sys 'BEGIN { printf \"%.2f\", u + s }'))
    done
    local mid=\$(( (runs + 1) / 2 ))
    local wall=\$(printf '%s\\n' \"\${walls[@]}\" | sort -n | sed -n \"\${mid}p\")
    local cpu=\$(printf '%s\\n' \"\${cpus[@]}\" | sort -n | sed -n \"\${mid}p\")
    [ -n \"\$base\" ] || { base=\$wall; base_cpu=\$cpu; }
    local over=\$(awk -v a=\$wall -v b=\$base 'BEGIN { printf \"%.1f\", (a - b) * 100 / b }')
    local over_cpu=\$(awk -v a=\$cpu -v b=\$base_cpu 'BEGIN { printf \"%.1f\", (a - b) * 100 / b }')
    local samples=\$(grep -o '[0-9]* samples' '$out/last.err' | head -1 || true)
    printf '%-34s %7.2f %7s%% %7.2f %7s%%  %s\\n' \"\$name\" \"\$wall\" \"\$over\" \"\$cpu\" \"\$over_cpu\" \"\$samples\"
  }
  TIMEFORMAT='%R %U %S'
  printf '%-34s %7s %8s %7s %8s  %s\\n' configuration 'wall s' 'overhead' 'cpu s' 'overhead' 'samples (last run)'
  measure 'this image, no profiler' '$image/bin/java'
  [ -n \"\$stock\" ] && measure \"stock \$(basename \$stock), no profiler\" \"\$stock/bin/java\"
  for interval in 10ms 1ms 100us; do
    for mode in cpu queue wall agct; do
      measure \"asgstprof \$mode \$interval\" '$image/bin/java' \
          -agentpath:'$agent'=mode=\$mode,interval=\$interval,file='$out'/profile.collapsed
    done
  done
  for period in 10ms 1ms; do
    measure \"JFR ExecutionSample \$period\" '$image/bin/java' \
        -XX:StartFlightRecording:filename='$out'/x.jfr,jdk.ExecutionSample#period=\$period
  done
"
