#!/usr/bin/env bash
# Builds and runs the walk cost benchmark from real signal contexts against the
# workspace's JDK image: a thread deep in a hot Java chain (one method, compiled
# and interpreted; sixteen methods in turn, compiled and interpreted) is
# signalled every 0.1 ms; its handler times AsyncGetCallTrace,
# ASGST's iterator, AsyncGetStackTrace and ASGST_Enqueue on the contexts it
# receives, and a walk to a frame mark that appends the callers kept; the
# thread times the walk of each enqueued element at its poll. "ASGST top
# frame, warm" times the top frame right after the same walk, untimed: its
# cost once what it reads is in the caches. "timer alone" times no walk: the
# clock's share of every other row. "ASGST call, refused" times the iterator
# call given the frame's sp and fp without a pc, which the walker refuses
# once it has found the thread and checked its state: the part of every
# walk that no search can save (samples where the thread has an anchor,
# from which the walker walks instead, count as failed).
# Usage: bench/run-signal-walk-benchmark.sh [DEPTH...]   (from the repository root)
#   BENCH_SAMPLES: samples per way and depth (default 2000)
#   BENCH_JAVA_OPTIONS: more options of the JVM (-Dchains=compiled: that chain only)
#   BENCH_RUN_UNDER: a command that runs the JVM (bench/run-walk-profile.sh: perf record)
#   BENCH_JDK: the JDK image to measure (default: the workspace's)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/make/asgst/lib.sh"
load_config
image=${BENCH_JDK:-$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk}
out="$ASGST_WORKSPACE/bench/signal-walk"
mkdir -p "$out"
"$repo/make/asgst/in-env" bash -c "
  set -e
  # -fno-ipa-icf: the two top-frame ways have the same code; folded into one
  # function, their samples in the walk profile would carry one name.
  gcc -O2 -fno-omit-frame-pointer -fno-ipa-icf -fPIC -shared -Wall -Werror -I'$image/include' -I'$image/include/linux' \
      -o '$out/libSignalWalkBenchmark.so' '$repo/bench/walk/libSignalWalkBenchmark.c' -lpthread
  '$image/bin/javac' -d '$out' '$repo/bench/walk/SignalWalkBenchmark.java'
  ${BENCH_RUN_UNDER:-} '$image/bin/java' ${BENCH_JAVA_OPTIONS:-} -DsamplesPerWay=${BENCH_SAMPLES:-2000} \
      -XX:CompileCommand=quiet -XX:CompileCommand=exclude,SignalWalkBenchmark\\\$InterpretedChain::* \
      -XX:CompileCommand=exclude,SignalWalkBenchmark\\\$InterpretedDistinctChain::* \
      -XX:CompileCommand=dontinline,SignalWalkBenchmark\\\$CompiledDistinctChain::m* \
      -Djava.library.path='$out' -cp '$out' SignalWalkBenchmark $*
"
