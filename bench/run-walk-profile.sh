#!/usr/bin/env bash
# Where the walks of the signal walk benchmark spend their time: runs
# bench/run-signal-walk-benchmark.sh for one chain and depth under
# `perf record -g` (frame-pointer call chains) and prints, for each way of
# walking, the share of its samples by innermost function (self) and by
# function anywhere in the chain (total, 5% and more), with the benchmark's
# own table. perf samples user space only, which needs no privileges with
# kernel.perf_event_paranoid at 2 or below.
# Usage: bench/run-walk-profile.sh CHAIN DEPTH   (from the repository root)
#   CHAIN: compiled, interpreted, compiled/16 or interpreted/16 (SignalWalkBenchmark.java)
#   BENCH_SAMPLES: samples per way (default 20000)
#   PROFILE_LINES: functions printed per way (default 25)
#   PROFILE_FREQUENCY: perf samples per second (default 4999; more for the short ways)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
chain=${1:?usage: run-walk-profile.sh CHAIN DEPTH}
depth=${2:?usage: run-walk-profile.sh CHAIN DEPTH}
case $chain in compiled|interpreted|compiled/16|interpreted/16) ;; *) echo "unknown chain: $chain" >&2; exit 2 ;; esac
. "$repo/make/asgst/lib.sh"
load_config
out="$ASGST_WORKSPACE/bench/walk-profile"
mkdir -p "$out"
data="$out/perf-${chain/\//-}-$depth.data"
ASGST_ENV_RO_BIND=/sys BENCH_SAMPLES=${BENCH_SAMPLES:-20000} BENCH_JAVA_OPTIONS="-Dchains=$chain" \
  BENCH_RUN_UNDER="perf record -q -e cpu-clock:u -F ${PROFILE_FREQUENCY:-4999} -g -o $data --" \
  "$repo/bench/run-signal-walk-benchmark.sh" "$depth" | grep -v '^WARNING'
echo
ASGST_ENV_RO_BIND=/sys "$repo/make/asgst/in-env" bash -c "perf script -i '$data' -F ip,sym 2>/dev/null" |
  awk -v limit="${PROFILE_LINES:-25}" -f "$repo/bench/profile/walk-profile.awk"
