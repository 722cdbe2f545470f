#!/usr/bin/env bash
# The sample profiler's check, run by make test after the jtreg tests: builds
# sample-profiler/ with CMake against the image, as a profiler's vendor would,
# and profiles the demo workload (sample-profiler/demo/Workload.java) for a
# second in each mode, writing collapsed stacks and HTML flame graphs. A run
# passes when the VM exits normally, samples were taken, few walks failed, the
# workload's hot stacks carry their method names, the flame graph needs no
# other file, and nothing mentions a jmethodID (but for frames that
# AsyncGetCallTrace itself left without one, counted). Two more runs check that
# the one agent serves every JDK: on the stock JDK of the build environment,
# which has no ASGST API, it must say so and sample with AsyncGetCallTrace; and
# loaded with jcmd into a workload that already runs, it must sample it. One
# more run checks that the perf engine samples at the rate asked for; where
# perf_event_open is refused that check is skipped, saying so. One more walks
# with frame marks and checks the traces made of a walk to a mark and the
# frames kept below it.
# Prints PASS or FAIL per check, then "N passed, N failed"; exits non-zero unless
# all passed.
# Usage: make/asgst/check-demo.sh [IMAGE]   (default: the workspace's image)
# For an image of another CPU run under an emulator (make test-aarch64):
#   DEMO_CMAKE_ARGS  further arguments of CMake (a cross compiler)
#   DEMO_JAVAC       the javac that compiles the workload (default the image's)
#   DEMO_RUN_ENV     the environment of the runs on the image (default: the
#                    signal-safety library preloaded, when the image has tests)
#   DEMO_STOCK_JDK   the stock JDK of the fallback run; "none" skips it, saying so
#   DEMO_OUT         where the build and the runs go (default in the workspace)
#   DEMO_TIME_FACTOR how many times longer the workload runs (default 1): an
#                    emulator runs it many times slower
set -uo pipefail
. "$(dirname "$0")/lib.sh"
load_config
image=${1:-$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk}
out="${DEMO_OUT:-$ASGST_WORKSPACE/check-demo}"
agent="$out/build/libasgstprof.so"
# A JDK without the API: the boot JDK, a stock OpenJDK.
stock_jdk=${DEMO_STOCK_JDK:-${ASGST_BOOT_JDK:-$BOOT_JDK_DIR}}
in_env="$ASGST_REPO/make/asgst/in-env"
time_factor=${DEMO_TIME_FACTOR:-1}
passed=0 failed=0
# The runs on the image load the tests' signal-safety library
# (test/hotspot/jtreg/serviceability/asgst/signalsafety/) and have it check
# the profiler's own handler code too: an allocation, a lock or dlopen in a
# handler aborts the run with a line saying which, where it would otherwise
# deadlock now and then (as the first touch of a thread-local did once).
# Without the test image (make demo's image only) the runs go unchecked.
safety_lib="$(dirname "$image")/test/hotspot/jtreg/native/libAsgstSignalSafety.so"
safety=()
if [ -n "${DEMO_RUN_ENV:-}" ]; then
  read -ra safety <<<"env $DEMO_RUN_ENV"
elif [ -f "$safety_lib" ]; then
  safety=(env "LD_PRELOAD=$safety_lib" ASGST_SIGNAL_SAFETY_HANDLERS=1)
fi

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

# AsyncGetCallTrace fails more walks by itself (10-17% in make demo, 22% in
# make test; on a fastdebug build 78%), so agct gets a looser bound than the
# ASGST modes.
agct_max_share=30
if "$in_env" "$image/bin/java" -version 2>&1 | grep -q fastdebug; then
  agct_max_share=90
fi
# Profiles the workload once, the agent on the image's command line.
check() {  # name options file [extra]
  local options=$2 file="$out/runs/$3"
  "$in_env" "${safety[@]}" timeout 300 "$image/bin/java" -agentpath:"$agent=$options,file=$file" \
      -cp "$out/classes" Workload "$time_factor" > "$file.log" 2>&1
  verify "$1" $? "$(mode_of "$options")" "$file" "${4:-}"
}

# Checks the sampling rate a run's log reports ("N samples/s requested, N
# achieved per CPU-second") against a least share of the requested rate.
check_rate() {  # name log min_percent
  local name=$1 log=$2 min_percent=$3 requested= achieved= problems=()
  if grep -q '^asgstprof: engine=perf: perf_event_open failed' "$log"; then
    echo "SKIP sample profiler: $name: $(grep -o 'perf_event_open failed ([^)]*)' "$log") on this machine"
    return
  fi
  read -r requested achieved < <(sed -n \
      's/^asgstprof: engine [^,]*, interval [0-9]* us: \([0-9]*\) samples\/s requested, \([0-9]*\) achieved per CPU-second.*/\1 \2/p' \
      "$log")
  if [ -z "$achieved" ]; then
    problems+=("no sampling rate on stderr (see $log)")
  else
    name="$name ($achieved of $requested samples/s)"
    [ $((achieved * 100)) -ge $((min_percent * requested)) ] ||
      problems+=("below $min_percent% of the requested rate")
  fi
  report "$name" "${problems[@]}"
}

# A run with marks=verify: walks must have stopped at marks, and each trace
# made through a mark must equal the whole walk of the same context, which
# the profiler compares in the handler (the kept frames are what lies below
# the mark then; the trace ends where the walk ends). Independently of the
# walker, every trace with the nesting thread's loop on top (Workload.mix or
# Workload.words above Workload.nested) holds Workload.NESTING (40) frames of
# nested() between the loop and Workload.nesting, as only the loop's frames
# change while it runs: below the top frame that holds nested() (C2 inlines
# one level of the recursion, so that frame holds one or two of them) 38 or
# 39, and with the top frame's 39 or 40. 39 where the top frame is reported
# as the enclosing nested() alone: the interrupted pc has no debug
# information and the next one's belongs to the enclosing scope
# (doc/stack-walking.md), as seen once in 891 traces through marks on aarch64
# under qemu. A kept part a frame too many or too few shows in both checks.
check_marks() {  # name options file
  local name=$1 file="$out/runs/$3" log="$out/runs/$3.log" reached compared differed wrong problems=()
  check "$name" "$2" "$3"
  reached=$(sed -n 's/^asgstprof: marks: \([0-9]*\) of [0-9]* walks stopped at a mark.*/\1/p' "$log")
  read -r compared differed < <(sed -n \
    's/^asgstprof: marks: \([0-9]*\) traces through a mark compared with whole walks, \([0-9]*\) differed$/\1 \2/p' \
    "$log") || true
  wrong=$(grep -E 'Workload\.nested(_\[i\])?;Workload\.(mix|words)' "$file" 2>/dev/null |
          awk '{
                 n = split($0, f, ";"); last = 0
                 for (i = 1; i <= n; i++) if (f[i] ~ /^Workload\.nested(_\[i\])?$/) last = i
                 top = last; while (top > 1 && f[top] ~ /_\[i\]$/) top--   # the physical frame of the last nested()
                 below = 0; in_top = 0
                 for (i = 1; i <= last; i++) if (f[i] ~ /^Workload\.nested/) { if (i < top) below++; else in_top++ }
                 ok = $0 ~ /Workload\.nesting;Workload\.nested/ && (below == 38 || below == 39) &&
                      (below + in_top == 39 || below + in_top == 40)
                 if (!ok) bad += $NF
               } END { print bad + 0 }')
  [ -n "$reached" ] || problems+=("no marks line on stderr (see $log)")
  [ "${reached:-0}" -gt 0 ] || problems+=("no walk stopped at a mark")
  [ -n "$compared" ] || problems+=("no line of compared traces on stderr (see $log)")
  [ "${compared:-0}" -gt 0 ] || problems+=("no trace through a mark compared with the whole walk")
  [ "${differed:-0}" = 0 ] || problems+=("$differed of $compared traces through a mark differed from the whole walk")
  [ "$wrong" = 0 ] || problems+=("$wrong samples of the nesting loop without its 40 frames of nested()")
  report "$name: traces through marks (${reached:-no} walks stopped at a mark, ${compared:-no} compared)" "${problems[@]}"
}

# Profiles sample-profiler/demo/Waiting.java: more threads than the profile's
# ring holds (4096 samples, sample-profiler/src/samples.hpp), all parked. The
# wall sampler walks each thread once per round; a round must drain the ring
# as it goes, or samples are lost. The run passes when the VM exits normally,
# took more samples than the ring holds (so at least one round was longer
# than it), and lost none.
check_waiting() {  # name options file seconds threads
  local options=$2 file="$out/runs/$3" code samples lost problems=()
  "$in_env" "${safety[@]}" timeout 300 "$image/bin/java" -agentpath:"$agent=$options,file=$file" \
      -cp "$out/classes" Waiting $(($4 * time_factor)) "$5" > "$file.log" 2>&1
  code=$?
  read -r samples lost < <(sed -n 's/^asgstprof: mode [a-z]*, \([0-9]*\) samples, \([0-9]*\) lost,.*/\1 \2/p' "$file.log")
  [ "$code" = 0 ] || problems+=("exit $code (see $file.log)")
  if [ -z "$samples" ]; then
    problems+=("no asgstprof summary (see $file.log)")
  else
    [ "$samples" -gt 4096 ] || problems+=("$samples samples, not more than the ring's 4096")
    [ "$lost" = 0 ] || problems+=("$lost samples lost")
  fi
  report "$1 (${samples:-no} samples, ${lost:-no} lost)" "${problems[@]}"
}

mode_of() {  # options: the mode they ask for
  local mode=${1#*mode=}
  echo "${mode%%,*}"
}

# Checks a run: its name, exit code, the mode the profiler must report, its
# output file, an extended regular expression the output must also match (or
# ''), and one its log must match.
verify() {  # name code mode file extra [log_line]
  local name=$1 code=$2 expected_mode=$3 file=$4 extra=$5 log_line=${6:-} log="$4.log" problems=()
  local mode= samples= lost= walks_failed= max_share=5
  [ "$code" = 0 ] || problems+=("exit $code (see $log)")
  [ -z "$log_line" ] || grep -qE "$log_line" "$log" || problems+=("no line matching $log_line in $log")
  read -r mode samples lost walks_failed < <(sed -n \
      's/^asgstprof: mode \([a-z]*\), \([0-9]*\) samples, \([0-9]*\) lost, \([0-9]*\) failed walks.*/\1 \2 \3 \4/p' "$log")
  [ "$mode" = agct ] && max_share=$agct_max_share
  if [ -z "$samples" ]; then
    problems+=("no asgstprof summary on stderr")
  elif [ "$mode" != "$expected_mode" ]; then
    problems+=("sampled in mode $mode, not $expected_mode")
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
  if [ "$mode" = agct ]; then
    unknown_ids=$(cat "$file" "$log" 2>/dev/null | grep -o '\[unknown jmethodID\]' | wc -l)
    strip='s/\[unknown jmethodID\]//g'
  fi
  mention=$(cat "$file" "$log" 2>/dev/null | sed "$strip" | grep -io '[^;]*jmethodid[^;]*' | head -1)
  [ -z "$mention" ] || problems+=("$mention")
  [ -z "$samples" ] || name="$name ($samples samples, $lost lost, $walks_failed failed walks)"
  [ "$unknown_ids" -eq 0 ] || name="$name ($unknown_ids frames named [unknown jmethodID])"
  report "$name" "${problems[@]}"
}

# Starts the workload on the image for 4 seconds (times the factor), loads
# the agent into it with jcmd as soon as the VM answers, and waits for it to
# end. The VM is named by its pid (the child of timeout): jcmd also finds the
# VMs of other mount namespaces (through /proc/PID/root), so a main class
# could name a VM that some other test runs.
attach() {  # name options file
  local options=$2 file="$out/runs/$3"
  # jcmd reads name=value as an option of its own: the agent's options go in quotes.
  "$in_env" "${safety[@]}" bash -c '
    bin=$1 classes=$2 agent=$3 options=$4 vm=
    timeout 300 "$bin/java" -cp "$classes" Workload "$5" &
    for _ in $(seq 100); do
      read -r vm _ < "/proc/$!/task/$!/children"
      [ -n "$vm" ] && break
      sleep 0.1
    done
    for _ in $(seq 100); do
      timeout 60 "$bin/jcmd" "$vm" VM.uptime > /dev/null 2>&1 && break
      sleep 0.1
    done
    timeout 60 "$bin/jcmd" "$vm" JVMTI.agent_load "$agent" "\"$options\""
    wait $!' \
    attach "$image/bin" "$out/classes" "$agent" "$options,file=$file" $((4 * time_factor)) > "$file.log" 2>&1
  verify "$1" $? "$(mode_of "$options")" "$file" ''
}

rm -rf "$out/runs"
mkdir -p "$out/runs"
if ! build_error=$("$ASGST_REPO/make/asgst/build-sample-profiler.sh" "$image" "$out" 2>&1); then
  report "build" "$build_error"
else
  report "build"
  # The wall sampler's request step by step, in orders that real runs reach
  # only now and then. A program of the image's CPU: not run when cross-built.
  if [ -n "${DEMO_CMAKE_ARGS:-}" ]; then
    echo "SKIP sample profiler: wall request steps: cross-built"
  elif "$in_env" "$out/build/wall_test" > "$out/runs/wall_test.log" 2>&1; then
    report "wall request steps ($(tail -1 "$out/runs/wall_test.log"))"
  else
    report "wall request steps" "$(grep '^FAIL' "$out/runs/wall_test.log" | head -3 | tr '\n' ' ')(log: $out/runs/wall_test.log)"
  fi
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
  # The same agent on a JDK without the API: it says so and falls back to
  # AsyncGetCallTrace, whatever mode was asked.
  file="$out/runs/stock.collapsed"
  if [ "$stock_jdk" = none ]; then
    echo "SKIP sample profiler: cpu on a stock JDK: no stock JDK of the image's CPU"
  else
    "$in_env" timeout 300 "$stock_jdk/bin/java" -agentpath:"$agent=mode=cpu,interval=1ms,file=$file" \
        -cp "$out/classes" Workload 1 > "$file.log" 2>&1
    verify "cpu on a stock JDK, falls back to agct" $? agct "$file" '' \
        '^asgstprof: this JVM has no ASGST API \(.+\); using AsyncGetCallTrace$'
  fi
  # The perf engine samples at the interval asked for, where a thread's
  # CPU-time timer fires at most once per scheduler tick. Measured 0.93-0.94
  # of the 10000 samples/s asked for (six runs, cpu, queue and agct); the
  # timer engine achieves 0.025 (a 250 Hz tick), at most 0.1 with a 1000 Hz
  # one. Half the rate fails the timer engine by far and leaves room for a
  # loaded machine, whose stolen time counts in neither the samples nor the
  # threads' CPU time.
  check "cpu, engine=perf, interval=100us" "mode=cpu,engine=perf,interval=100us" perf.collapsed
  check_rate "cpu, engine=perf keeps a 100 us interval" "$out/runs/perf.collapsed.log" 50
  check_marks "cpu, marks=verify" "mode=cpu,interval=1ms,marks=verify" marks.collapsed
  # Before the wall sampler drained within a round, the upstream tests' wall
  # pass lost 22,114 of 39,108 samples of runtime/Thread/ThreadCountLimit
  # (doc/testing.md).
  check_waiting "wall, 5000 waiting threads, no sample lost" "mode=wall,interval=1ms" waiting.collapsed 3 5000
  # Loaded into a running VM, it samples the threads that run already
  # (the main thread and the carriers of the hot stacks) with ASGST.
  attach "cpu, loaded with jcmd into a running VM" "mode=cpu,interval=1ms" attach.collapsed
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
