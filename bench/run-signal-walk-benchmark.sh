#!/usr/bin/env bash
# Builds and runs the walk cost benchmark from real signal contexts against the
# workspace's JDK image: a thread deep in a hot Java chain (one method, compiled
# and interpreted; sixteen methods in turn, compiled and interpreted) is
# signalled every 0.1 ms; its handler times, each at 16 signals in a row as
# a profiler makes one way at every signal, AsyncGetCallTrace,
# ASGST's iterator, AsyncGetStackTrace and ASGST_Enqueue on the contexts it
# receives, and a walk to a frame mark that appends the callers kept; the
# thread times the walk of each enqueued element at its poll (a processing
# of two elements counts half its time for each). "ASGST top frame, warm"
# times the top frame right after the same walk, untimed: its cost once
# what it reads is in the caches. "timer alone" times no walk: the
# clock's share of every other row. "ASGST call, refused" times the iterator
# call given the frame's sp and fp without a pc, which the walker refuses
# once it has found the thread and checked its state: the part of every
# walk that no search can save (samples where the thread has an anchor,
# from which the walker walks instead, count as failed). "4 chained reads"
# follows four pointers, one waiting for the other, through lines that every
# signal's handler reads: what reading memory costs that the previous
# signal's handler read too, as every walk reads the thread and the VM's
# tables. The two ", warm" rows time the refused call and the reads right
# after the same, untimed: what the first call after a signal pays that the
# second does not, with the VM's code and with memory alone.
# Usage: bench/run-signal-walk-benchmark.sh [DEPTH...]   (from the repository root)
#   BENCH_SAMPLES: samples per way and depth (default 2000)
#   BENCH_JAVA_OPTIONS: more options of the JVM (-Dchains=compiled: that chain only;
#     -DatStackOffsets=true: the top frame and the refused call below 0-3840 bytes
#     of unused stack in turn, a row per amount; BENCH_SAMPLES=16000: 1000 each)
#     -DstackUse=true: also how much stack below the handler's frame each way
#     writes, a line beginning with "#" per way)
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
