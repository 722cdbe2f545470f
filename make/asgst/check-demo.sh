#!/usr/bin/env bash
# The sample profiler's check, run by make test after the jtreg tests: builds
# sample-profiler/ with CMake against the image, as a profiler's vendor would,
# and profiles the demo workload (sample-profiler/demo/Workload.java) for a
# second in each mode, writing collapsed stacks and HTML flame graphs. A run
# passes when the VM exits normally, samples were taken, few walks failed, the
# workload's hot stacks carry their method names, the flame graph needs no
# other file, and nothing mentions a jmethodID (but for frames that
# AsyncGetCallTrace itself left without one, counted). Prints PASS or FAIL per run,
# then "N passed, N failed"; exits non-zero unless all passed.
# Usage: make/asgst/check-demo.sh [IMAGE]   (default: the workspace's image)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
load_config
image=${1:-$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk}
out="$ASGST_WORKSPACE/check-demo"
agent="$out/build/libasgstprof.so"
in_env="$ASGST_REPO/make/asgst/in-env"
passed=0 failed=0

report() {  # name problem...: PASS without problems, else FAIL with them
  local name=$1
  shift
  if [ $# -eq 0 ]; then
    echo "PASS sample profiler: $name"
    passed=$((passed + 1))
  else
    local problems
    problems=$(printf '%s; ' "$@")
    echo "FAIL sample profiler: $name: ${problems%; }"
    failed=$((failed + 1))
  fi
}

# The main thread's loop and the virtual threads' loop, caller before callee
# (callees may be inlined: "_[i]"). Single methods such as fib can get no
# sample in a second on a loaded machine; these stacks always get several.
HOT_STACKS=('Workload\.main;Workload\.(fib|mix|words|boxes)' 'Workload\.lambda\$main\$1;Workload\.mix')
HOT_NAMES=('Workload.main' 'Workload.mix' 'Workload.lambda$main$1')

# Profiles the workload once; extra is an extended regular expression the
# output must also match. AsyncGetCallTrace fails more walks by itself (10-17%
# in make demo, 22% in make test; on a fastdebug build 78%), so agct gets a
# looser bound than the ASGST modes.
agct_max_share=30
if "$in_env" "$image/bin/java" -version 2>&1 | grep -q fastdebug; then
  agct_max_share=90
fi
check() {  # name options file extra
  local name=$1 options=$2 file="$out/runs/$3" extra=${4:-} log="$out/runs/$3.log" problems=()
  "$in_env" timeout 300 "$image/bin/java" -agentpath:"$agent=$options,file=$file" -cp "$out/classes" \
      Workload 1 > "$log" 2>&1
  local code=$? samples= lost= walks_failed= max_share=5
  [ "$code" = 0 ] || problems+=("exit $code (see $log)")
  read -r samples lost walks_failed < <(sed -n \
      's/^asgstprof: mode [a-z]*, \([0-9]*\) samples, \([0-9]*\) lost, \([0-9]*\) failed walks.*/\1 \2 \3/p' "$log")
  case $options in *mode=agct*) max_share=$agct_max_share ;; esac
  if [ -z "$samples" ]; then
    problems+=("no asgstprof summary on stderr")
  elif [ "$samples" -eq 0 ]; then
    problems+=("no samples")
  elif [ $((walks_failed * 100)) -ge $((max_share * (samples + walks_failed))) ]; then
    problems+=("$walks_failed failed walks for $samples samples (bound: $max_share%)")
  fi
  if [ ! -s "$file" ]; then
    problems+=("no output $file")
  elif [ "${file%.html}" != "$file" ]; then
    head -1 "$file" | grep -q '^<!DOCTYPE html>' && tail -1 "$file" | grep -q '</html>' ||
      problems+=("not a whole HTML page")
    if grep -qiE '<script[^>]* src=|<link|<img|@import|url\(|https?://' "$file"; then
      problems+=("the flame graph refers to other files")
    fi
    for method in "${HOT_NAMES[@]}"; do
      grep -qF "\"n\":\"$method" "$file" || problems+=("no frame $method in the flame graph")
    done
  else
    for stack in "${HOT_STACKS[@]}"; do
      grep -qE "$stack" "$file" || problems+=("no stack matching $stack")
    done
  fi
  [ -z "$extra" ] || grep -qsE "$extra" "$file" || problems+=("no stack matching $extra")
  # AsyncGetCallTrace gives a null jmethodID for a method that has none yet
  # (its class prepared before the agent made its ids): the profiler shows
  # [unknown jmethodID], AsyncGetCallTrace's own limit. Counted for agct;
  # any other mention of a jmethodID fails.
  local unknown_ids=0 strip='' mention
  case $options in
    *mode=agct*)
      unknown_ids=$(cat "$file" "$log" 2>/dev/null | grep -o '\[unknown jmethodID\]' | wc -l)
      strip='s/\[unknown jmethodID\]//g' ;;
  esac
  mention=$(cat "$file" "$log" 2>/dev/null | sed "$strip" | grep -io '[^;]*jmethodid[^;]*' | head -1)
  [ -z "$mention" ] || problems+=("$mention")
  [ -z "$samples" ] || name="$name ($samples samples, $lost lost, $walks_failed failed walks)"
  [ "$unknown_ids" -eq 0 ] || name="$name ($unknown_ids frames named [unknown jmethodID])"
  report "$name" "${problems[@]}"
}

rm -rf "$out/runs" "$out/classes"
# A fresh build each time: a CMake cache made from another checkout refuses this one.
rm -rf "$out/build"
mkdir -p "$out/runs"
if [ ! -f "$image/include/profile.h" ]; then
  report "build" "no JDK image with include/profile.h at $image"
elif ! "$in_env" bash -c "cmake -S '$ASGST_REPO/sample-profiler' -B '$out/build' -DJAVA_HOME='$image' &&
                         cmake --build '$out/build' -- -j2 &&
                         '$image/bin/javac' -d '$out/classes' '$ASGST_REPO/sample-profiler/demo/Workload.java'" \
     > "$out/build.log" 2>&1; then
  report "build" "cmake or javac failed: $(tail -3 "$out/build.log" | tr '\n' ' ')"
else
  report "build"
  for mode in cpu wall queue agct; do
    check "$mode, collapsed stacks" "mode=$mode,interval=1ms" "$mode.collapsed"
    check "$mode, flame graph" "mode=$mode,interval=1ms" "$mode.html"
  done
  # C frames, named by dladdr, around the Java frames.
  check "cpu, native=true" "mode=cpu,interval=1ms,native=true" native.collapsed '\[native\] lib'
  # The virtual threads' walks go below their own frames into the carrier's,
  # or, once a yield has left frames frozen in the heap, end there, named so.
  check "cpu, virtual threads, carrier=true" "mode=cpu,interval=1ms,carrier=true" carrier.collapsed \
      'Continuation\.run(_\[i\])?;jdk\.internal\.vm\.Continuation\.enter|\[frames frozen in the heap\];Workload\.lambda\$main\$1'
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
