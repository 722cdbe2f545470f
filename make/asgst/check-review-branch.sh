#!/usr/bin/env bash
# The review branch's check, run by make test after the jtreg tests: makes the
# branch (make/asgst/make-branch.sh), applies the content checks to every
# commit (make/asgst/check-branch.sh), builds the branch's HotSpot with
# OpenJDK's make in a checkout of the branch, builds the ASGST tests' native
# libraries there with warnings as errors, and runs the asgst gtests of
# that HotSpot with OpenJDK's `make test-prebuilt` (on the workspace's image,
# whose class library is the same). The checkout ($WS/branch/jdk) is kept and
# moved to each new branch with git, which rewrites only the files that
# changed, and it is configured as the workspace is, so that its build is
# incremental and takes the workspace's objects from ccache.
# `make test-branch` builds and tests the branch whole, as a reviewer would.
# Prints PASS or FAIL per check, then "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "checking the review branch"
load_config

ws="$ASGST_WORKSPACE/branch"
checkout="$ws/jdk"
new="$ws/new"
in_env="$ASGST_REPO/make/asgst/in-env"
image="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk"
step() { check_step "review branch" "$@"; }
mkdir -p "$ws"

make_branch() {
  rm -rf "$new" "$new-patches"
  "$ASGST_REPO/make/asgst/make-branch.sh" "$new" "$new-patches"
}
step "made ($new-patches)" "$ws/make-branch.log" make_branch || check_finish

step "content checks" "$ws/check-branch.log" "$ASGST_REPO/make/asgst/check-branch.sh" "$new"
tail -n 1 "$ws/check-branch.log"

check_out() {
  # The first time a clone (which links the upstream tree's objects); then a
  # fetch, which brings only the series, since the import commit stays the same.
  [ -d "$checkout/.git" ] || git clone -q --no-checkout "$new" "$checkout" || return
  git -C "$checkout" fetch -q -f "$new" "+asgst:refs/remotes/new/asgst" &&
    git -C "$checkout" reset -q --hard refs/remotes/new/asgst && git -C "$checkout" clean -q -d -f
}
step "checked out" "$ws/checkout.log" check_out || check_finish

# The workspace's configuration (prepare.sh) in the branch, under the same
# name, so that the compile commands and therefore ccache's keys are the same.
conf_dir="$checkout/build/$ASGST_CONF"
build() {
  # prepare.sh keeps its arguments, then a hash of OpenJDK's m4 files.
  local workspace_args wanted args
  workspace_args=$(cat "$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/asgst-configure-args") || return
  wanted="$workspace_args $(cat "$checkout"/make/autoconf/*.m4 | sha256sum | cut -c1-16)"
  if [ "$(cat "$conf_dir/asgst-configure-args" 2>/dev/null)" != "$wanted" ]; then
    read -ra args <<< "${workspace_args% *}"
    (cd "$checkout" && "$in_env" bash configure "${args[@]}") || return
    echo "$wanted" > "$conf_dir/asgst-configure-args"
  fi
  (cd "$checkout" && MAKEFLAGS= MFLAGS= "$in_env" make CONF="$ASGST_CONF" hotspot test-image-hotspot-gtest)
}
step "HotSpot built" "$ws/build.log" build || check_finish

# OpenJDK's make test builds every native test library before any test runs,
# with warnings as errors unless configure turned them off (the workspace's
# configuration does): the ASGST tests' libraries must build so. Only theirs
# are built here (the variable, given on make's command line, replaces the
# directory that upstream's makefile searches), with the -only target:
# its dependencies, libjvm among them, would be rebuilt with the flag too.
test_libraries() {
  (cd "$checkout" && MAKEFLAGS= MFLAGS= "$in_env" make CONF="$ASGST_CONF" WARNINGS_AS_ERRORS=true \
     HOTSPOT_JTREG_NATIVE_SRC="$checkout/test/hotspot/jtreg/serviceability/asgst" build-test-hotspot-jtreg-native-only)
}
step "ASGST test libraries built with warnings as errors" "$ws/test-libraries.log" test_libraries

gtests() {
  local summary="$checkout/build/run-test-prebuilt/test-results/test-summary.txt"
  rm -f "$summary"
  # The variables go through the environment (see run-tests.sh on MAKEFLAGS).
  (cd "$checkout" && MAKEFLAGS= MFLAGS= TEST=gtest:asgst JDK_IMAGE_DIR="$image" \
     TEST_IMAGE_DIR="$conf_dir/images/test" BOOT_JDK="$ASGST_BOOT_JDK" JT_HOME=/usr/share/jtreg \
     "$in_env" make test-prebuilt) &&
    test_summary_passed "$summary"
}
step "gtest:asgst of its HotSpot" "$ws/gtest.log" gtests
check_finish
