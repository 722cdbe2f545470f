#!/usr/bin/env bash
# What this machine charges for the steps a sample pays for, apart from any
# JVM (bench/floor/primitives.c): a signal delivered and returned from, a
# fault on a protected page resumed past the load (a safepoint poll of
# compiled code that finds its page armed), HotSpot's cross-modify fence
# (cpuid on x86_64 without SERIALIZE, isb on aarch64), a full fence and a
# system call. Prints the median and the spread of 11 rounds, and whether
# the CPU has SERIALIZE, which HotSpot's fence uses instead of cpuid. Then
# what signals from timers of the threads' CPU time every 0.1 ms and 1 ms
# cost two threads of a C loop (bench/floor/timer-signals.c): the floor of a
# sampling profiler on this machine.
# Usage: bench/run-floor-benchmark.sh   (from the repository root)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/make/asgst/lib.sh"
load_config
out="$ASGST_WORKSPACE/bench/floor"
mkdir -p "$out"
"$repo/make/asgst/in-env" gcc -O2 -Wall -Werror -o "$out/primitives" "$repo/bench/floor/primitives.c"
echo "$(date -u '+%Y-%m-%d %H:%M') UTC, $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
if grep -qw serialize /proc/cpuinfo; then echo "SERIALIZE: yes"; else echo "SERIALIZE: no"; fi
"$repo/make/asgst/in-env" "$out/primitives"
echo
"$repo/make/asgst/in-env" gcc -O2 -Wall -Werror -pthread -o "$out/timer-signals" "$repo/bench/floor/timer-signals.c"
ASGST_ENV_RO_BIND=/sys "$repo/make/asgst/in-env" "$out/timer-signals" 100 1000
