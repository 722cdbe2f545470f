#!/usr/bin/env bash
# Runs the upstream tests of make/asgst/upstream-tests.txt in one pass, with
# OpenJDK's own "make test-prebuilt", and prints "N passed, N failed".
#
#   run-upstream-tests.sh PASS
#     without  on the JDK without ASGST (make jdk-without-asgst), the comparison
#     unused   on the ASGST image, no profiler
#     cpu      on the ASGST image, the sample profiler (sample-profiler/) in every
#              JVM the tests start: mode=cpu, the perf engine, 1 ms
#     queue    the same in mode=queue
#     wall     the same in mode=wall
#     marks    the same in mode=cpu with marks=true
#   UPSTREAM_TESTS="SELECTION..." runs those selections instead of the file's
#   (a part of it, while looking into one group), with its results in
#   PASS-part.
#
# Every pass runs the same jtreg selections with the same test image; the
# passes without and unused also run the whole gtest suite (on the gtest libjvm
# of their own build). The sampled passes exclude the tests of
# make/asgst/upstream-tests-sampled-problems.txt and fail if the profiler took
# fewer samples than it must have (see min_samples below).
#
# Leaves, in $ASGST_WORKSPACE/upstream-tests/PASS: the copies of the image and
# the test image that it ran on (jdk, test), results.txt (one line per
# test: its name and Passed, Failed, Error or Skipped, sorted), jtreg's and
# gtest's results under test-results, and for the sampled passes the
# profiler's log of each JVM (asgstprof-PID.log) and samples.txt.
# make/asgst/compare-upstream-passes.sh prints the passes side by side.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
pass=${1:?usage: run-upstream-tests.sh without|unused|cpu|queue|wall|marks}
asgst_step "upstream tests ($pass)"
load_config

case "$pass" in
  without|unused) profiler= ;;
  cpu) profiler=mode=cpu,engine=perf,interval=1ms ;;
  queue) profiler=mode=queue,engine=perf,interval=1ms ;;
  wall) profiler=mode=wall,interval=1ms ;;
  marks) profiler=mode=cpu,engine=perf,interval=1ms,marks=true ;;
  *) die "unknown pass '$pass': without, unused, cpu, queue, wall or marks" ;;
esac

repo=$ASGST_REPO
jdk="$ASGST_WORKSPACE/jdk"
build="$jdk/build/$ASGST_CONF"
# A part of the selection leaves its results apart (PASS-part), so that
# compare-upstream-passes.sh compares whole passes only.
out="$ASGST_WORKSPACE/upstream-tests/$pass${UPSTREAM_TESTS:+-part}"
if [ -n "${UPSTREAM_TESTS:-}" ]; then
  selection=$(tr ' ' '\n' <<<"$UPSTREAM_TESTS" | sed '/^$/d')
else
  selection=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$repo/make/asgst/upstream-tests.txt")
fi
jtreg_tests=$(grep -v '^gtest:' <<<"$selection")
gtest_tests=$(grep '^gtest:' <<<"$selection" || true)
[ -z "$profiler" ] || gtest_tests=   # the gtest launcher takes no -javaoption
# testlibrary and vmTestbase/vm/share: the native libraries of HotSpot's test
# libraries (JvmtiUtils, ProcessUtils), which tests of other directories load.
hotspot_dirs="testlibrary vmTestbase/vm/share $(sed -n 's|^test/hotspot/jtreg/||p' <<<"$jtreg_tests" | tr '\n' ' ')"
jdk_dirs=$(sed -n 's|^test/jdk/||p' <<<"$jtreg_tests" | tr '\n' ' ')

# The ASGST image and a test image with the selection's native libraries only.
info "building the image and the test image (native libraries of the selection only)"
MAKEFLAGS= MFLAGS= ASGST_HOTSPOT_NATIVE_TEST_DIRS="$hotspot_dirs" ASGST_JDK_NATIVE_TEST_DIRS="$jdk_dirs" \
  "$repo/make/asgst/in-env" make -C "$jdk" CONF="$ASGST_CONF" images test-image >&2 ||
  die "building the image or the test image failed"
image="$build/images/jdk"
test_image="$build/images/test"

rm -rf "$out"
mkdir -p "$out"
if [ "$pass" = without ]; then
  image=$("$repo/make/asgst/build-without-asgst.sh" | tail -1)
  conf="$ASGST_CONF-without-asgst"
  if [ -n "$gtest_tests" ]; then
    # Its own gtest libjvm, in a test image that is the ASGST one otherwise.
    MAKEFLAGS= MFLAGS= "$repo/make/asgst/in-env" make -C "$jdk" CONF="$conf" test-image-hotspot-gtest >&2 ||
      die "building the gtests without ASGST failed"
    test_image="$out/test-image"
    mkdir -p "$test_image/hotspot"
    for entry in "$build/images/test"/*; do
      [ "$(basename "$entry")" = hotspot ] || ln -s "$entry" "$test_image/"
    done
    ln -s "$build/images/test/hotspot/jtreg" "$test_image/hotspot/jtreg"
    ln -s "$jdk/build/$conf/images/test/hotspot/gtest" "$test_image/hotspot/gtest"
  fi
fi

# The pass runs on copies of both images, so that builds and other tests can
# go on in the workspace for as long as it runs.
cp -a "$image" "$out/jdk"
cp -aL "$test_image" "$out/test"
rm -rf "$out/test-image"
image="$out/jdk"
test_image="$out/test"

jtreg_options="EXTRA_PROBLEM_LISTS=$repo/make/asgst/upstream-tests-sampled-problems.txt"
if [ -n "$profiler" ]; then
  agent_dir="$out/sample-profiler"
  "$repo/make/asgst/build-sample-profiler.sh" "$image" "$agent_dir"
  # file=/dev/null: the profile is still made (every method named) but not kept.
  jtreg_options+=";JAVA_OPTIONS=-agentpath:$agent_dir/build/libasgstprof.so=$profiler,file=/dev/null,log=$out/asgstprof-%p.log"
else
  jtreg_options=   # the exclusions are the sampled passes' only
fi

boot_jdk=$ASGST_BOOT_JDK
jt_home=$(sed -n 's/^JT_HOME *:= *//p' "$build/spec.gmk" | head -1)
info "pass $pass: $(wc -l <<<"$selection") selections on $image"
start=$(date +%s)
make_status=0
# The variables go through the environment (see run-tests.sh: a 'p' and a 'q'
# in MAKEFLAGS, as in a command line's "upstream-tests/queue", turn OpenJDK's
# make into make -qp).
MAKEFLAGS= MFLAGS= TEST="$(echo $jtreg_tests $gtest_tests)" JTREG="$jtreg_options" \
  OUTPUTDIR="$out/run" JDK_IMAGE_DIR="$image" TEST_IMAGE_DIR="$test_image" \
  BOOT_JDK="$boot_jdk" JT_HOME="$jt_home" \
  "$repo/make/asgst/in-env" make -C "$jdk" test-prebuilt > "$out/make.log" 2>&1 || make_status=$?
seconds=$(( $(date +%s) - start ))

# One line per test: jtreg's text summaries ("NAME  Passed. ...") and gtest's
# "[       OK ] Suite.Test" / "[  FAILED  ] Suite.Test (N ms)".
{
  for summary in "$out"/run/test-results/*/text/summary.txt; do
    [ -f "$summary" ] || continue
    # "Not run." is a test that jtreg did not select (its @requires).
    awk '{ status = ($2 == "Not") ? "Skipped" : $2; sub(/\.$/, "", status); print $1, status }' "$summary"
  done
  for log in "$out"/run/test-results/*/gtest.txt; do
    [ -f "$log" ] || continue
    sed -nE 's/^\[       OK \] ([^ ]+).*/gtest:\1 Passed/p; s/^\[  FAILED  \] ([^ ,]+) \(.*/gtest:\1 Failed/p' "$log"
  done
} | sort -u > "$out/results.txt"

passed=$(awk '$2 == "Passed"' "$out/results.txt" | wc -l)
failed=$(awk '$2 == "Failed" || $2 == "Error"' "$out/results.txt" | wc -l)
skipped=$(awk '$2 == "Skipped"' "$out/results.txt" | wc -l)
info "pass $pass: $passed passed, $failed failed, $skipped skipped by jtreg (requires or problem lists) in $seconds s"
if [ "$(wc -l < "$out/results.txt")" = 0 ]; then
  info "no test ran: see $out/make.log"
  failed=$((failed + 1))
elif [ "$make_status" != 0 ] && [ "$failed" = 0 ]; then
  # jtreg writes a selection's summary when the selection ends: one that was
  # stopped (a hung test, an interrupted pass) left its results out.
  info "make test-prebuilt ended with $make_status, yet no summary holds a failure: a selection did not finish (see $out/make.log)"
  failed=$((failed + 1))
fi
awk '$2 == "Failed" || $2 == "Error" { print "asgst: " $2 ": " $1 }' "$out/results.txt" >&2

if [ -n "$profiler" ]; then
  # The profiler's summaries, summed: a pass in which it sampled almost
  # nothing proves nothing. At 1 ms it takes about 950 samples per CPU-second
  # of the sampled threads, and a JVM that starts, runs a test and exits
  # spends well over 0.1 CPU-seconds in them; 100 samples per test that
  # passed is therefore a floor that a profiler missing from most JVMs fails.
  "$repo/make/asgst/sum-profiler-logs.sh" "$out"/asgstprof-*.log | tee "$out/samples.txt" >&2
  samples=$(sed -nE 's/^samples: ([0-9]+) .*/\1/p' "$out/samples.txt")
  min_samples=$((100 * passed))
  if [ "${samples:-0}" -lt "$min_samples" ]; then
    info "the profiler took ${samples:-0} samples, fewer than $min_samples (100 per passed test): the pass proves nothing"
    failed=$((failed + 1))
  fi
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
