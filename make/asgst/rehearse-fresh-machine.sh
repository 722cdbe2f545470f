#!/usr/bin/env bash
# Rehearses a fresh machine: a fresh clone of this checkout's HEAD, with a new,
# empty cache root (downloads, build environment, workspace and ccache), runs
# what a new user runs (./configure with the defaults, make images, make test)
# and what CI adds (make ports PORTS=aarch64), and prints how long each step
# took. Run it before you stop whenever the build glue changed (configure,
# make/asgst/, the Makefile, the package list).
# Usage: make rehearse [REHEARSAL_DIR=DIR] [REHEARSAL_KEEP=1] [REHEARSAL_PORTS=TARGETS]
#   TARGETS: those of the ports step (default aarch64, as CI); "none" leaves
#   the step out, where no file that it runs changed since it last passed.
#   DIR must be new or empty (default: a new directory under $TMPDIR or /var/tmp).
#   The clone and cache root (15-20 GB) are removed at the end unless
#   REHEARSAL_KEEP=1; the logs and times stay in DIR.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "rehearsing a fresh machine"

root=${REHEARSAL_DIR:-}
if [ -n "$root" ]; then
  [ ! -e "$root" ] || [ -z "$(ls -A "$root")" ] || die "REHEARSAL_DIR must be new or empty: $root"
  mkdir -p "$root"
  root=$(cd "$root" && pwd)
else
  root=$(mktemp -d "${TMPDIR:-/var/tmp}/asgst-rehearsal.XXXXXX")
fi
[ -z "$(git -C "$ASGST_REPO" status --porcelain --untracked-files=no)" ] ||
  info "uncommitted changes are not rehearsed: a fresh clone holds HEAD only"

clone="$root/clone" times="$root/times.txt"
export ASGST_CACHE_DIR="$root/cache"
git clone -q --no-local "$ASGST_REPO" "$clone"
info "rehearsing $(git -C "$clone" rev-parse --short HEAD) in $root (cache root $ASGST_CACHE_DIR)"
printf 'commit %s, %s, %s cores\n' "$(git -C "$clone" rev-parse --short HEAD)" "$(date -u +%F)" "$(nproc)" > "$times"

total=0
run_step() {  # run_step NAME LOG COMMAND...
  local name=$1 log="$root/$2" start status elapsed
  shift 2
  info "$name (log: $log)"
  start=$(date +%s)
  (cd "$clone" && "$@") > "$log" 2>&1 && status=0 || status=$?
  elapsed=$(($(date +%s) - start))
  total=$((total + elapsed))
  printf '%-14s %3d:%02d  %s\n' "$name" $((elapsed / 60)) $((elapsed % 60)) \
    "$([ "$status" = 0 ] && echo ok || echo "FAILED (exit $status)")" | tee -a "$times" >&2
  if [ "$status" != 0 ]; then
    tail -n 30 "$log" >&2
    die "$name failed on the fresh machine; everything is kept in $root"
  fi
}
run_step "./configure" configure.log ./configure
run_step "make images" images.log make images
run_step "make test" test.log make test
# CI also cross-builds HotSpot for aarch64 (.ci/run): sysroot, cross compiler and all.
ports=${REHEARSAL_PORTS:-aarch64}
if [ "$ports" = none ]; then
  printf '%-14s %6s  %s\n' "make ports" - "left out (REHEARSAL_PORTS=none)" | tee -a "$times" >&2
else
  run_step "make ports" ports.log make ports PORTS="$ports"
fi
printf '%-14s %3d:%02d\n' total $((total / 60)) $((total % 60)) | tee -a "$times" >&2
grep -E '^[0-9]+ passed, [0-9]+ failed$' "$root/test.log" | tail -n 1 | tee -a "$times" >&2

if [ "${REHEARSAL_KEEP:-}" != 1 ]; then
  rm -rf "$clone" "$ASGST_CACHE_DIR"
fi
info "rehearsal passed; times in $times"
