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
 * under the loop never changes). Four chains: one method that calls itself,
 * compiled and interpreted, and sixteen methods that call each other in turn,
 * compiled without inlining and interpreted (bench/run-signal-walk-benchmark.sh
 * keeps the interpreted classes from compilation and the sixteen methods from
 * inlining). Prints one table.
 */

import java.util.List;

public class SignalWalkBenchmark {
    static {
        System.loadLibrary("SignalWalkBenchmark");
    }

    // On the target thread, at the bottom of its chain: creates the jmethodIDs
    // that AsyncGetCallTrace needs, registers its queue, records its thread id.
    static native void prepare();
    // Signals the target every intervalMicros until each way has samplesPerWay samples.
    static native void startSampling(int intervalMicros, int samplesPerWay);
    // Whether the top frame and the refused call are timed at 16 depths of
    // the handler's stack in turn instead of one (a row per depth): what a
    // walk costs on stack that the signal before did not write.
    static native void timeAtStackOffsets(boolean on);
    // Whether the untimed first walk of each turn also finds how much stack
    // below the handler's frame the way writes (a line per way).
    static native void measureStackUse(boolean on);
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

    // Sixteen methods that call each other in turn, none inlined (the runner
    // says so): no frame shares its code and pc with the frames next to it, so
    // nothing a walker remembers from the frame before helps.
    static final class CompiledDistinctChain {
        static long recurse(int remaining) {
            return m0(remaining);
        }

        static long m0(int r) { return r == 0 ? bottom() : m1(r - 1) + 1; }
        static long m1(int r) { return r == 0 ? bottom() : m2(r - 1) + 1; }
        static long m2(int r) { return r == 0 ? bottom() : m3(r - 1) + 1; }
        static long m3(int r) { return r == 0 ? bottom() : m4(r - 1) + 1; }
        static long m4(int r) { return r == 0 ? bottom() : m5(r - 1) + 1; }
        static long m5(int r) { return r == 0 ? bottom() : m6(r - 1) + 1; }
        static long m6(int r) { return r == 0 ? bottom() : m7(r - 1) + 1; }
        static long m7(int r) { return r == 0 ? bottom() : m8(r - 1) + 1; }
        static long m8(int r) { return r == 0 ? bottom() : m9(r - 1) + 1; }
        static long m9(int r) { return r == 0 ? bottom() : m10(r - 1) + 1; }
        static long m10(int r) { return r == 0 ? bottom() : m11(r - 1) + 1; }
        static long m11(int r) { return r == 0 ? bottom() : m12(r - 1) + 1; }
        static long m12(int r) { return r == 0 ? bottom() : m13(r - 1) + 1; }
        static long m13(int r) { return r == 0 ? bottom() : m14(r - 1) + 1; }
        static long m14(int r) { return r == 0 ? bottom() : m15(r - 1) + 1; }
        static long m15(int r) { return r == 0 ? bottom() : m0(r - 1) + 1; }

        static long bottom() {
            if (!stop) {
                prepare();
            }
            long x = 1;
            while (!stop) {
                x = x * 31 + (x >>> 7);
            }
            return x;
        }
    }

    // The same code in a class that the runner keeps interpreted.
    static final class InterpretedDistinctChain {
        static long recurse(int remaining) {
            return m0(remaining);
        }

        static long m0(int r) { return r == 0 ? bottom() : m1(r - 1) + 1; }
        static long m1(int r) { return r == 0 ? bottom() : m2(r - 1) + 1; }
        static long m2(int r) { return r == 0 ? bottom() : m3(r - 1) + 1; }
        static long m3(int r) { return r == 0 ? bottom() : m4(r - 1) + 1; }
        static long m4(int r) { return r == 0 ? bottom() : m5(r - 1) + 1; }
        static long m5(int r) { return r == 0 ? bottom() : m6(r - 1) + 1; }
        static long m6(int r) { return r == 0 ? bottom() : m7(r - 1) + 1; }
        static long m7(int r) { return r == 0 ? bottom() : m8(r - 1) + 1; }
        static long m8(int r) { return r == 0 ? bottom() : m9(r - 1) + 1; }
        static long m9(int r) { return r == 0 ? bottom() : m10(r - 1) + 1; }
        static long m10(int r) { return r == 0 ? bottom() : m11(r - 1) + 1; }
        static long m11(int r) { return r == 0 ? bottom() : m12(r - 1) + 1; }
        static long m12(int r) { return r == 0 ? bottom() : m13(r - 1) + 1; }
        static long m13(int r) { return r == 0 ? bottom() : m14(r - 1) + 1; }
        static long m14(int r) { return r == 0 ? bottom() : m15(r - 1) + 1; }
        static long m15(int r) { return r == 0 ? bottom() : m0(r - 1) + 1; }

        static long bottom() {
            if (!stop) {
                prepare();
            }
            long x = 1;
            while (!stop) {
                x = x * 31 + (x >>> 7);
            }
            return x;
        }
    }

    static volatile long sink;

    // The chains by the names the table gives them.
    static final String[] CHAINS = {"compiled", "interpreted", "compiled/16", "interpreted/16"};

    static long recurse(String chain, int remaining) {
        return switch (chain) {
            case "compiled" -> CompiledChain.recurse(remaining);
            case "interpreted" -> InterpretedChain.recurse(remaining);
            // One frame more than the others below the chain (recurse): one call less.
            case "compiled/16" -> CompiledDistinctChain.recurse(remaining - 1);
            default -> InterpretedDistinctChain.recurse(remaining - 1);
        };
    }

    static void run(String chain, int depth, int samplesPerWay) throws InterruptedException {
        stop = false;
        // Frames below the chain: Thread.run, the lambda, recurse(String, int)
        // and run's caller; the chain makes up the rest of the depth.
        int length = Math.max(1, depth - 4);
        Thread target = new Thread(null, () -> sink = recurse(chain, length), "target", 256L << 20);
        target.start();
        Thread.sleep(200);  // the target reaches its loop and prepare() ran
        startSampling(100, samplesPerWay);
        while (!done()) {
            Thread.sleep(20);
        }
        stop = true;
        target.join();
        report(chain, depth);
    }

    public static void main(String[] args) throws Exception {
        int[] depths = args.length == 0 ? new int[] {8, 64, 512, 2048}
                                        : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        int samplesPerWay = Integer.getInteger("samplesPerWay", 2000);
        List<String> chains = List.of(System.getProperty("chains", String.join(",", CHAINS)).split(","));
        timeAtStackOffsets(Boolean.getBoolean("atStackOffsets"));
        measureStackUse(Boolean.getBoolean("stackUse"));
        // Warm up: compile the compiled chains and their loops (stop set: the loops end at once).
        stop = true;
        for (int i = 0; i < 30_000; i++) {
            sink += CompiledChain.recurse(10) + CompiledDistinctChain.recurse(20);
        }
        System.out.printf("%-14s %6s %-25s %7s %10s %17s %7s %9s %8s%n", "chain", "depth", "walk", "frames",
                          "ns/walk", "p25-p75", "failed", "ns/frame", "vs AGCT");
        for (String chain : CHAINS) {
            if (chains.contains(chain)) {
                for (int depth : depths) {
                    run(chain, depth, samplesPerWay);
                }
            }
        }
    }
}
