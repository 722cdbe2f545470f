#!/usr/bin/env bash
# Runs tests with OpenJDK's make in the workspace (which first brings the JDK image
# and the test image up to date), then prints one line: "N passed, N failed".
# Failed counts jtreg failures and errors, gtest failures, skipped tests, and test
# selections that ran nothing. Exits non-zero unless everything passed.
# ASGST_CHECKS names further check scripts of this repository, run after the
# tests, that end with their own "N passed, N failed" (make test: check-demo.sh).
# Usage: run-tests.sh "TEST..."
set -uo pipefail
. "$(dirname "$0")/lib.sh"
load_config

tests=${1:?usage: run-tests.sh TEST...}
summary="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/test-results/test-summary.txt"
rm -f "$summary"   # never read a previous run's results

# A selection of ASGST tests alone needs only their native libraries of the test
# image (make/patches/asgst-native-tests-only.patch), not all of HotSpot's.
native_only=true
for t in $tests; do
  case "$t" in
    hotspot_asgst|gtest:*|*serviceability/asgst|*serviceability/asgst/*) ;;
    *) native_only=false ;;
  esac
done
# ASGST_JTREG, if set, becomes OpenJDK's JTREG variable (extra jtreg options).
# The ASGST tests run with glibc's MALLOC_PERTURB_, which overwrites freed
# memory, so that a read of freed memory shows instead of passing unseen, and
# MALLOC_CHECK_=3 (glibc's checks of the heap's own bookkeeping, active with
# its libc_malloc_debug preloaded), under the test library that enforces
# signal safety (serviceability/asgst/signalsafety/libAsgstSignalSafety.c):
# preloaded first, it sees every allocation and passes it on to the checks.
jtreg=${ASGST_JTREG:-}
native="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/test/hotspot/jtreg/native"
preload="$native/libAsgstSignalSafety.so:libc_malloc_debug.so.0"
[ "$native_only" = false ] ||
  jtreg="${jtreg:+$jtreg;}OPTIONS=-e:MALLOC_PERTURB_=165,MALLOC_CHECK_=3,LD_PRELOAD=$preload"

# TEST goes through the environment, and our own make's MAKEFLAGS (which holds
# "make test TEST=...") is not passed on: OpenJDK's PreInit.gmk takes a 'p' and
# a 'q' anywhere in MAKEFLAGS (as in ".../hotspot/.../queue") for "make -qp"
# and then does nothing.
MAKEFLAGS= MFLAGS= TEST="$tests" CONF="$ASGST_CONF" JTREG="$jtreg" \
  ASGST_NATIVE_TESTS_ONLY=$native_only \
  "$ASGST_REPO/make/asgst/in-env" make -C "$ASGST_WORKSPACE/jdk" test
status=$?

if [ ! -f "$summary" ]; then
  echo "asgst: no test results: the build or the test run failed before reporting (exit $status)"
  echo "0 passed, 0 failed"
  exit 1
fi
# Rows: [>>] NAME TOTAL PASS FAIL ERROR SKIP [<<]; long names stand on a line of their own.
read -r passed failed empty <<<"$(awk '
  NF >= 5 && $(NF) ~ /^[0-9]+$|^<<$/ {
    n = ($NF == "<<") ? NF - 1 : NF
    if ($(n-4) !~ /^[0-9]+$/) next
    pass += $(n-3); fail += $(n-2) + $(n-1) + $n
    if ($(n-4) == 0) empty++
  }
  END { printf "%d %d %d\n", pass, fail, empty }' "$summary")"
if [ "$empty" -gt 0 ]; then
  echo "asgst: $empty test selection(s) ran no test at all; counted as failed"
  failed=$((failed + empty))
fi
for check in ${ASGST_CHECKS:-}; do
  log=$(mktemp)
  "$ASGST_REPO/$check" | tee "$log" | grep --line-buffered -vE '^[0-9]+ passed, [0-9]+ failed$'
  check_status=${PIPESTATUS[0]}
  read -r check_passed check_failed <<<"$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$log" | tail -1)"
  rm -f "$log"
  if [ -z "$check_passed" ] || { [ "$check_status" != 0 ] && [ "$check_failed" = 0 ]; }; then
    echo "asgst: $check failed without reporting a failed check (exit $check_status); counted as failed"
    check_passed=${check_passed:-0} check_failed=1
  fi
  passed=$((passed + check_passed)) failed=$((failed + check_failed))
done
echo "$passed passed, $failed failed"
[ "$status" = 0 ] && [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
