/*
 * Copyright (c) 2026, the ASGST authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 */

/*
 * Walk cost from real signal contexts: a target thread at the bottom of a Java
 * chain of the given depth runs a hot loop while a sampler thread signals it;
 * its SIGPROF handler walks the context it received, with AsyncGetCallTrace,
 * ASGST's iterator (Java frames, and with C frames), AsyncGetStackTrace and
 * ASGST_Enqueue in turn, and times each. Enqueued elements are walked at the
 * target's next poll, timed there. Where frame marks work, one more way walks
 * to a frame mark set below the top and appends the callers kept (the chain
 * under the loop never changes). Once with the chain compiled, once
 * interpreted (the class InterpretedChain is excluded from compilation by
 * bench/run-signal-walk-benchmark.sh). Prints one table.
 */
public class SignalWalkBenchmark {
    static {
        System.loadLibrary("SignalWalkBenchmark");
    }

    // On the target thread, at the bottom of its chain: creates the jmethodIDs
    // that AsyncGetCallTrace needs, registers its queue, records its thread id.
    static native void prepare();
    // Signals the target every intervalMicros until each way has samplesPerWay samples.
    static native void startSampling(int intervalMicros, int samplesPerWay);
    static native boolean done();
    // Prints the table's lines for the finished run and resets the counters.
    static native void report(String chain, int depth);

    static volatile boolean stop;

    static final class CompiledChain {
        static long recurse(int remaining) {
            if (remaining == 0) {
                if (!stop) {
                    prepare();
                }
                return spin();
            }
            return recurse(remaining - 1) + 1;
        }

        static long spin() {
            long x = 1;
            while (!stop) {
                x = x * 31 + (x >>> 7);
            }
            return x;
        }
    }

    // The same code in a class that the runner keeps interpreted.
    static final class InterpretedChain {
        static long recurse(int remaining) {
            if (remaining == 0) {
                if (!stop) {
                    prepare();
                }
                return spin();
            }
            return recurse(remaining - 1) + 1;
        }

        static long spin() {
            long x = 1;
            while (!stop) {
                x = x * 31 + (x >>> 7);
            }
            return x;
        }
    }

    static volatile long sink;

    static void run(boolean compiled, int depth, int samplesPerWay) throws InterruptedException {
        stop = false;
        // Frames below the chain: Thread.run, the lambda and run's caller; the
        // chain makes up the rest of the depth.
        int chain = Math.max(1, depth - 3);
        Thread target = new Thread(null, () -> sink = compiled ? CompiledChain.recurse(chain)
                                                                : InterpretedChain.recurse(chain),
                                   "target", 256L << 20);
        target.start();
        Thread.sleep(200);  // the target reaches its loop and prepare() ran
        startSampling(100, samplesPerWay);
        while (!done()) {
            Thread.sleep(20);
        }
        stop = true;
        target.join();
        report(compiled ? "compiled" : "interpreted", depth);
    }

    public static void main(String[] args) throws Exception {
        int[] depths = args.length == 0 ? new int[] {8, 64, 512, 2048}
                                        : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        int samplesPerWay = Integer.getInteger("samplesPerWay", 2000);
        // Warm up: compile the chain and its loop (stop set: spin returns at once).
        stop = true;
        for (int i = 0; i < 30_000; i++) {
            sink += CompiledChain.recurse(10);
        }
        System.out.printf("%-12s %6s %-21s %7s %10s %17s %7s %9s %8s%n", "chain", "depth", "walk", "frames",
                          "ns/walk", "p25-p75", "failed", "ns/frame", "vs AGCT");
        for (boolean compiled : new boolean[] {true, false}) {
            for (int depth : depths) {
                run(compiled, depth, samplesPerWay);
            }
        }
    }
}
