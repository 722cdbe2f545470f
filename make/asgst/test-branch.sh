#!/usr/bin/env bash
# Builds and tests the review branch whole, as a reviewer would (make
# test-branch): makes the branch and checks it as make test does
# (check-review-branch.sh), then, in its checkout, runs OpenJDK's configure
# with the options of make/asgst/branch-configure-args (and --enable-ccache,
# which changes no output), `make images`, and OpenJDK's `make test` of the
# asgst gtests and of test/hotspot/jtreg/serviceability/asgst.
# Then it cross-builds the branch's HotSpot for the CPUs of BRANCH_PORTS
# (default aarch64) with make/asgst/build-ports.sh, as make ports builds the
# workspace's, in the checkout (CONF port-TARGET; BRANCH_PORTS= for none).
# With EVERY_COMMIT=1 it also builds HotSpot's libjvm at every commit of the
# series, in a worktree of its own, configured as the workspace is (so that
# ccache serves what did not change), and says which commit does not build.
# Prints PASS or FAIL per step, then "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "testing the review branch"
load_config

ws="$ASGST_WORKSPACE/branch"
checkout="$ws/jdk"
in_env="$ASGST_REPO/make/asgst/in-env"
step() { check_step "review branch" "$@"; }

step "made, checked, its HotSpot built (check-review-branch.sh)" "$ws/check.log" \
  "$ASGST_REPO/make/asgst/check-review-branch.sh" || check_finish

read -ra plain_args <<< "$(sed 's/#.*//' "$ASGST_REPO/make/asgst/branch-configure-args" | xargs)"
plain_conf=plain
in_checkout() { (cd "$checkout" && MAKEFLAGS= MFLAGS= "$in_env" "$@"); }
step "bash configure" "$ws/plain-configure.log" \
  in_checkout bash configure "${plain_args[@]}" --enable-ccache --with-conf-name="$plain_conf" || check_finish
step "make images" "$ws/plain-images.log" in_checkout make CONF="$plain_conf" images || check_finish
make_test() {  # make_test TEST: OpenJDK's make test, which must pass and run tests
  local summary="$checkout/build/$plain_conf/test-results/test-summary.txt"
  rm -f "$summary"
  # Through the environment: OpenJDK's make reads a 'p' and a 'q' in
  # MAKEFLAGS as "make -qp" (run-tests.sh).
  (cd "$checkout" && MAKEFLAGS= MFLAGS= TEST="$1" CONF="$plain_conf" "$in_env" make test) &&
    test_summary_passed "$summary"
}
step "make test TEST=gtest:asgst" "$ws/plain-gtest.log" make_test gtest:asgst
step "make test TEST=test/hotspot/jtreg/serviceability/asgst" "$ws/plain-jtreg.log" \
  make_test test/hotspot/jtreg/serviceability/asgst

for port in ${BRANCH_PORTS-aarch64}; do
  step "make hotspot for $port (build-ports.sh)" "$ws/port-$port.log" \
    env PORTS_TREE="$checkout" "$ASGST_REPO/make/asgst/build-ports.sh" "$port"
done

if [ "${EVERY_COMMIT:-}" = 1 ]; then
  every="$ws/every"
  [ -d "$every/.git" ] || [ -f "$every/.git" ] || git -C "$checkout" worktree add -q --detach "$every" HEAD
  read -ra args <<< "$(cat "$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/asgst-configure-args")"
  unset 'args[${#args[@]}-1]'   # the m4 hash that prepare.sh appends
  for c in $(git -C "$checkout" rev-list --reverse "$UPSTREAM_TAG..HEAD"); do
    title=$(git -C "$checkout" log -1 --format=%s "$c")
    log="$ws/every-$(git -C "$checkout" rev-parse --short "$c").log"
    step "libjvm at $title" "$log" bash -c '
      set -e
      git -C "$1" checkout -q --detach "$2"
      cd "$1"
      m4=$(cat make/autoconf/*.m4 | sha256sum)
      if [ "$(cat build/'"$ASGST_CONF"'/m4 2>/dev/null)" != "$m4" ]; then
        "$3" bash configure "${@:4}"
        echo "$m4" > build/'"$ASGST_CONF"'/m4
      fi
      MAKEFLAGS= MFLAGS= "$3" make CONF='"$ASGST_CONF"' hotspot-server-libs' \
      _ "$every" "$c" "$in_env" "${args[@]}"
  done
fi
check_finish
