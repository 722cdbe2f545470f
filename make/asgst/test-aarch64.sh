#!/usr/bin/env bash
# make test-aarch64: the ASGST tests on aarch64, under user-mode emulation.
# Cross-builds the JDK image with the project's patches for aarch64 (CONF
# aarch64-LEVEL, against the Debian arm64 sysroot of make/asgst/sysroot.sh, with
# the x86_64 image as its Build JDK), makes a copy of it whose executables start
# the aarch64 ones under qemu-user (this machine has no binfmt_misc), and runs
# on it: the asgst gtests, then the jtreg group hotspot_asgst (fuzz/ in rounds
# of its own until the walk goal), then the sample profiler's check. jtreg
# itself runs on the boot JDK and compiles with the x86_64 image. Tests that
# cannot run under emulation are in
# test/hotspot/jtreg/ProblemList-asgst-qemu.txt, each with its reason.
# Prints one line per step, then "N passed, N failed"; exits non-zero unless
# all passed. doc/building.md, "Other CPUs", says how long it takes.
#
# Knobs (environment):
#   AARCH64_STEPS        "build gtest jtreg fuzz demo"   the steps to run
#   AARCH64_TESTS        jtreg tests instead of the group (no fuzz rounds)
#   AARCH64_JOBS         2        emulated test VMs at once
#   AARCH64_FUZZ_CALLS   10000000 fuzzed calls the fuzz rounds must reach
#   AARCH64_FUZZ_SECONDS 120      seconds of fuzzing per test id and round
#   AARCH64_FUZZ_INTERVAL_MICROS 20000  the fuzzing signals' interval
#   AARCH64_QEMU_CPU     max      qemu's CPU model (max: with pointer authentication)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "the aarch64 tests"
load_config

steps=" ${AARCH64_STEPS:-build gtest jtreg fuzz demo} "
tests=${AARCH64_TESTS:-}
jobs=${AARCH64_JOBS:-2}
fuzz_goal=${AARCH64_FUZZ_CALLS:-10000000}
fuzz_seconds=${AARCH64_FUZZ_SECONDS:-120}
# A fuzzing signal makes hundreds of calls, each tens of times slower
# emulated: at x86_64's 200 us the handler would run all the time and the
# sampled thread never (doc/building.md).
fuzz_interval=${AARCH64_FUZZ_INTERVAL_MICROS:-20000}
qemu_cpu=${AARCH64_QEMU_CPU:-max}
# Emulation runs generated code 10-30 times slower; a test's own time bounds
# get the same factor: jtreg's timeouts, and the windows of the tests whose
# floors count what happens in a fixed time (the property asgst.time.factor).
timeout_factor=10

start=$(date +%s)
conf="aarch64-$ASGST_DEBUG_LEVEL"
jdk="$ASGST_WORKSPACE/jdk"
out="$jdk/build/$conf"
sysroot="$(asgst_cache_dir)/sysroot-arm64"
in_env="$ASGST_REPO/make/asgst/in-env"
x86_image="$jdk/build/$ASGST_CONF/images/jdk"
qjdk="$out/images/jdk-qemu"
test_image="$out/images/test"
qemu=/usr/bin/qemu-aarch64
guest_root="$out/qemu-root"
# The checks of make test (run-tests.sh), preloaded into every emulated VM
# through ASGST_QEMU_PRELOAD (write_wrapper): the tests' signal-safety
# library and glibc's malloc debugging.
checks="$test_image/hotspot/jtreg/native/libAsgstSignalSafety.so:libc_malloc_debug.so.0"
results="$out/test-results/aarch64"
# The sysroot holds the guest's libraries: visible inside the build environment.
export ASGST_ENV_BIND="${ASGST_ENV_BIND:-} $sysroot"
# The guest runs on the sysroot's C library, which must be of the release the
# cross compiler's is of (sysroot.sh may fall back to an older one); checked
# before every step, and again once build() has made the sysroot.
sysroot_of_release() {
  local release
  release=$(cat "$sysroot/.asgst-sysroot-release" 2>/dev/null || echo "$DEBIAN_SUITE")
  [ "$release" = "$DEBIAN_SUITE" ] ||
    die "the arm64 sysroot is of Debian $release, not $DEBIAN_SUITE (the archive lacked some packages): the aarch64 image would not run on it; delete $sysroot to try again"
}
sysroot_of_release

passed=0 failed=0
has_step() { case "$steps" in *" $1 "*) return 0 ;; esac; return 1; }
elapsed() { local s=$(( $(date +%s) - $1 )); printf '%d:%02d' $((s / 60)) $((s % 60)); }
count() {  # what passed failed [note]
  passed=$((passed + $2)) failed=$((failed + $3))
  echo "aarch64 $1: $2 passed, $3 failed${4:+ ($4)}"
}
first_error() { grep -m1 -E 'error:|Error [0-9]+|\*\*\* ' "$1" || tail -1 "$1"; }

# 1. The images: x86_64 first (the Build JDK and the compile JDK must be of
#    this tree), then aarch64 with the ASGST tests' native libraries and gtests.
build() {
  local t0 log args wanted
  t0=$(date +%s)
  if [ "$ASGST_ENV" = debian13 ]; then
    "$ASGST_REPO/make/asgst/build-env.sh" "$ASGST_ENV_DIR" env-packages-ports.txt || exit 1
  fi
  "$ASGST_REPO/make/asgst/sysroot.sh" arm64 "$sysroot" > /dev/null || exit 1
  sysroot_of_release
  "$ASGST_REPO/make/asgst/sync-workspace.sh" || exit 1
  log="$ASGST_WORKSPACE/build-$ASGST_CONF-images.log"
  MAKEFLAGS= MFLAGS= "$in_env" make -C "$jdk" CONF="$ASGST_CONF" images > "$log" 2>&1 ||
    die "make images ($ASGST_CONF): $(first_error "$log") (log: $log)"
  args=(
    --with-conf-name="$conf"
    --openjdk-target=aarch64-linux-gnu --with-sysroot="$sysroot"
    --with-boot-jdk="$ASGST_BOOT_JDK" --with-build-jdk="$x86_image"
    --with-debug-level="$ASGST_DEBUG_LEVEL" --with-jvm-variants=server
    --with-native-debug-symbols=none --disable-warnings-as-errors --enable-ccache
    --with-gtest=/usr/src/googletest --with-jtreg=/usr/share/jtreg
    --with-version-build="$UPSTREAM_BUILD" --with-version-pre= --with-version-opt=asgst
    --with-zlib=system --with-giflib=system --with-libpng=system --with-libjpeg=system
    --with-extra-cflags="-I$sysroot/usr/include/PCSC"
  )
  wanted="${args[*]} $(cat "$jdk"/make/autoconf/*.m4 | sha256sum | cut -c1-16)"
  if [ ! -f "$out/spec.gmk" ] || [ "$(cat "$out/asgst-configure-args" 2>/dev/null)" != "$wanted" ]; then
    log="$ASGST_WORKSPACE/configure-$conf.log"
    info "running OpenJDK's configure for $conf"
    (cd "$jdk" && "$in_env" bash configure "${args[@]}") > "$log" 2>&1 ||
      die "configure for $conf: $(grep -m1 'configure: error' "$log" || tail -1 "$log") (log: $log)"
    echo "$wanted" > "$out/asgst-configure-args"
  fi
  log="$ASGST_WORKSPACE/build-$conf.log"
  MAKEFLAGS= MFLAGS= ASGST_NATIVE_TESTS_ONLY=true "$in_env" make -C "$jdk" CONF="$conf" \
      images test-image-hotspot-jtreg-native test-image-hotspot-gtest > "$log" 2>&1 ||
    die "make images for $conf: $(first_error "$log") (log: $log)"
  info "built $out/images ($(elapsed "$t0"))"
}

# 2. The emulated image: a copy (hard links) whose ELF executables are
#    scripts that start them under qemu, so that test.jdk/bin/java, the
#    processes a test starts and lib/jspawnhelper all run emulated. The
#    guest's root holds only the sysroot's libraries; every other path
#    (/tmp, /proc, the workspace) is the host's. ASGST_QEMU_PRELOAD, an
#    environment variable that host programs ignore, becomes the guest's
#    LD_PRELOAD (qemu's -E), which the signal-safety library removes from
#    the guest's environment once loaded: an LD_PRELOAD of aarch64 libraries
#    would reach the host programs that a VM starts (these scripts, a
#    compiler). The root cannot hold an /etc/ld.so.preload instead: qemu's
#    faccessat does not look in the root, so the guest's ld.so never reads it.
write_wrapper() {  # file target
  cat > "$1" <<EOF
#!/bin/sh
# Runs the aarch64 program $2 under qemu-user (make/asgst/test-aarch64.sh).
if [ -n "\${ASGST_QEMU_PRELOAD:-}" ]; then
  exec $qemu -L "$guest_root" -cpu $qemu_cpu -E LD_PRELOAD="\$ASGST_QEMU_PRELOAD" \\
      -E ASGST_SIGNAL_SAFETY_UNSET_PRELOAD=1 -0 "\$0" "$2" "\$@"
fi
exec $qemu -L "$guest_root" -cpu $qemu_cpu -0 "\$0" "$2" "\$@"
EOF
  chmod 755 "$1"
}

make_root() {  # dir
  rm -rf "$1"
  mkdir -p "$1/usr"
  ln -s "$sysroot/usr/lib" "$1/usr/lib"
  ln -s usr/lib "$1/lib"
}

wrap() {
  local f
  [ -x "$out/images/jdk/bin/java" ] || die "no aarch64 image in $out/images/jdk (AARCH64_STEPS without build)"
  make_root "$guest_root"
  rm -rf "$qjdk"
  cp -al "$out/images/jdk" "$qjdk"
  for f in "$qjdk"/bin/* "$qjdk"/lib/jspawnhelper "$qjdk"/lib/jexec; do
    [ -f "$f" ] && [ "$(head -c 4 "$f" | tail -c 3)" = ELF ] || continue
    mv "$f" "$f.aarch64"
    write_wrapper "$f" "$f.aarch64"
  done
  # A cross build makes no CDS archive: without one every emulated VM start
  # would load its classes from lib/modules. The same dump as make images'.
  "$in_env" "$qjdk/bin/java" -Xshare:dump -Xmx128M -Xms128M -Xlog:cds=off > "$out/qemu-cds.log" 2>&1 ||
    info "no CDS archive (log: $out/qemu-cds.log)"
  "$in_env" "$qjdk/bin/java" -XshowSettings:properties -version 2>&1 | grep -q 'os.arch = aarch64' ||
    die "$qjdk/bin/java does not run as aarch64"
}

# 3. The asgst gtests, as OpenJDK's RunTests.gmk runs gtestLauncher.
run_gtest() {
  local t0 log run pass fail
  t0=$(date +%s)
  mkdir -p "$results"
  log="$results/gtest.txt"
  (cd "$results" && "$in_env" timeout 3600 "$qemu" -L "$guest_root" -cpu "$qemu_cpu" \
      "$test_image/hotspot/gtest/server/gtestLauncher" -jdk "$qjdk" "--gtest_filter=asgst*") > "$log" 2>&1
  run=$(sed -nE 's/^\[==========\] ([0-9]+) tests? from .* ran.*/\1/p' "$log")
  pass=$(sed -nE 's/^\[  PASSED  \] ([0-9]+) tests?\./\1/p' "$log")
  fail=$(sed -nE 's/^\[  FAILED  \] ([0-9]+) tests?, listed below.*/\1/p' "$log")
  run=${run:-0} pass=${pass:-0} fail=${fail:-0}
  # A crash or a hang leaves tests neither passed nor failed.
  [ "$run" -gt 0 ] && [ $((pass + fail)) = "$run" ] || fail=$((fail + 1))
  count "gtest:asgst ($(elapsed "$t0"))" "$pass" "$fail" "log: $log"
}

# 4. jtreg on the boot JDK; the emulated image is the test JDK.
run_jtreg() {  # name jtreg-args... tests...
  local name=$1 work="$out/test-support/aarch64-$1" report="$results/$1"
  shift
  rm -rf "$work" "$report"
  mkdir -p "$work/tmp" "$report"
  (cd "$work" && "$in_env" "$ASGST_BOOT_JDK/bin/java" -jar /usr/share/jtreg/lib/jtreg.jar \
      -agentvm -concurrency:"$jobs" -timeoutFactor:"$timeout_factor" -verbose:summary \
      -retain:fail,error -automatic -ignore:quiet \
      -testjdk:"$qjdk" -compilejdk:"$x86_image" -nativepath:"$test_image/hotspot/jtreg/native" \
      -vmoption:-Djava.io.tmpdir="$work/tmp" -e:TEST_IMAGE_DIR="$test_image" \
      -e:ASGST_QEMU_PRELOAD="$checks",MALLOC_PERTURB_=165,MALLOC_CHECK_=3 \
      -javaoption:-Dasgst.time.factor="$timeout_factor" \
      -e:CC=aarch64-linux-gnu-gcc,CXX=aarch64-linux-gnu-g++ \
      -exclude:"$jdk/test/hotspot/jtreg/ProblemList.txt" \
      -exclude:"$jdk/test/hotspot/jtreg/ProblemList-asgst-qemu.txt" \
      -dir:"$jdk" -workDir:"$work" -reportDir:"$report" "$@") > "$report/jtreg.log" 2>&1
}

# A pass's counts, "passed failed": tests excluded by a problem list or
# whose @requires does not hold on aarch64 do not count; a pass that ran
# nothing, or left no report, fails.
jtreg_counts() {  # report dir
  local stats="$1/text/stats.txt" p f
  [ -f "$stats" ] || { echo "0 1"; return; }
  p=$(grep -o 'passed: [0-9]*' "$stats" | grep -o '[0-9]*$' || echo 0)
  f=$(grep -oE '(failed|error): [0-9]*' "$stats" | awk '{ s += $2 } END { print s + 0 }')
  [ $((p + f)) -gt 0 ] || f=1
  echo "$p $f"
}

run_group() {
  local t0 p f
  t0=$(date +%s)
  if [ -n "$tests" ]; then
    # shellcheck disable=SC2086
    run_jtreg selection $tests
    read -r p f <<<"$(jtreg_counts "$results/selection")"
    count "jtreg $tests ($(elapsed "$t0"))" "$p" "$f" "report: $results/selection"
    return
  fi
  # fuzz/ has rounds of its own.
  mkdir -p "$out/test-support"
  # jtreg excludes a test of several ids only by each id.
  sed -nE 's/^ \* @test id=([a-z0-9_-]+).*/serviceability\/asgst\/fuzz\/AsgstFuzzContexts.java#\1 0000000 generic-all/p' \
      "$jdk/test/hotspot/jtreg/serviceability/asgst/fuzz/AsgstFuzzContexts.java" > "$out/test-support/aarch64-own-rounds.txt"
  run_jtreg group -exclude:"$out/test-support/aarch64-own-rounds.txt" test/hotspot/jtreg:hotspot_asgst
  read -r p f <<<"$(jtreg_counts "$results/group")"
  count "jtreg hotspot_asgst without fuzz/ ($(elapsed "$t0"))" "$p" "$f" "report: $results/group"
}

# 5. fuzz/ in rounds until its fuzzed calls (each id prints "N fuzzed calls,
#    ..."; each a walk or another call of profile.h on a true or garbage
#    context or handle) reach the goal.
run_fuzz() {
  local t0 round=0 walks=0 p f rp=0 rf=0 w
  t0=$(date +%s)
  while [ "$walks" -lt "$fuzz_goal" ] && [ "$round" -lt 20 ]; do
    round=$((round + 1))
    run_jtreg "fuzz-$round" -javaoption:-Dasgst.fuzz.seconds="$fuzz_seconds" \
        -javaoption:-Dasgst.fuzz.interval.micros="$fuzz_interval" \
        test/hotspot/jtreg/serviceability/asgst/fuzz
    read -r p f <<<"$(jtreg_counts "$results/fuzz-$round")"
    rp=$((rp + p)) rf=$((rf + f))
    w=$(cat "$out/test-support/aarch64-fuzz-$round"/serviceability/asgst/fuzz/*.jtr 2>/dev/null |
        sed -nE 's/^([0-9]+) fuzzed calls, .*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
    walks=$((walks + ${w:-0}))
    echo "aarch64 fuzz round $round: ${w:-0} fuzzed calls, $p passed, $f failed"
    [ "${w:-0}" -gt 0 ] || break
  done
  count "fuzz/ ($round rounds, $(elapsed "$t0"))" "$rp" "$rf"
  if [ "$walks" -ge "$fuzz_goal" ]; then
    count "fuzz goal" 1 0 "$walks fuzzed calls of $fuzz_goal"
  else
    count "fuzz goal" 0 1 "$walks fuzzed calls of $fuzz_goal"
  fi
}

# 6. The sample profiler's check (check-demo.sh): the agent cross-compiled,
#    the workload compiled by the x86_64 image and run ten times longer (as
#    the timeout factor), with the signal-safety library preloaded. No stock
#    JDK of aarch64 is at hand for the fallback run.
run_demo() {
  local t0 log p f
  t0=$(date +%s)
  log="$results/demo.txt"
  mkdir -p "$results"
  DEMO_OUT="$out/check-demo" DEMO_JAVAC="$x86_image/bin/javac" DEMO_STOCK_JDK=none \
  DEMO_TIME_FACTOR="$timeout_factor" \
  DEMO_CMAKE_ARGS="-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++" \
  DEMO_RUN_ENV="ASGST_QEMU_PRELOAD=$test_image/hotspot/jtreg/native/libAsgstSignalSafety.so ASGST_SIGNAL_SAFETY_HANDLERS=1" \
      "$ASGST_REPO/make/asgst/check-demo.sh" "$qjdk" > "$log" 2>&1
  read -r p f <<<"$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$log" | tail -1)"
  [ -n "$p" ] || { p=0 f=1; }
  count "sample profiler ($(elapsed "$t0"))" "$p" "$f" "log: $log"
}

has_step build && build
wrap
has_step gtest && run_gtest
has_step jtreg && run_group
[ -n "$tests" ] || ! has_step fuzz || run_fuzz
[ -n "$tests" ] || ! has_step demo || run_demo
echo "aarch64 tests: $(elapsed "$start")"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
