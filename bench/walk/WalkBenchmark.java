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
 * Walk cost benchmark: recurses to each depth, then measures walks of the
 * calling thread from a native method. Run with bench/run-walk-benchmark.sh.
 */
public class WalkBenchmark {
    static {
        System.loadLibrary("WalkBenchmark");
    }

    static native void measure(int depth, int walksPerBatch);
    static native long enqueueBatch(int count);
    static native long[] lastProcessing();

    static void recurse(int remaining, int depth) {
        if (remaining == 0) {
            if (depth > 0) {  // warm-up calls pass depth 0
                measure(depth, Math.max(20, 40_000 / depth));
                measureQueue(depth);
            }
        } else {
            recurse(remaining - 1, depth);
        }
    }

    // Enqueue cost per call, and the cost of processing an element at the
    // poll (a full walk from the recorded frame), from the on-start/on-end
    // callbacks; medians of 15 batches of 200 elements.
    static void measureQueue(int depth) {
        int batches = 15, count = 200;
        long[] enqueue = new long[batches], perElement = new long[batches];
        long frames = 0;
        for (int b = 0; b < batches; b++) {
            enqueue[b] = enqueueBatch(count);  // processed on the way back to Java
            long[] p = lastProcessing();
            perElement[b] = p[0] / count;
            frames = p[1] / count;
        }
        java.util.Arrays.sort(enqueue);
        java.util.Arrays.sort(perElement);
        System.out.printf("%-6d %-21s %6d %12d %10s %8s%n", depth, "ASGST_Enqueue", 1, enqueue[batches / 2], "", "");
        System.out.printf("%-6d %-21s %6d %12d %10.1f %8s%n", depth, "queue: walk at poll", frames,
                          perElement[batches / 2], frames > 0 ? (double) perElement[batches / 2] / frames : 0.0, "");
    }

    public static void main(String[] args) {
        int[] depths = args.length == 0 ? new int[] {8, 64, 512, 2048}
                                        : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        // Compile recurse() first, so that the stacks are those of a warm program.
        for (int i = 0; i < 20_000; i++) {
            recurse(10, 0);
        }
        System.out.printf("%-6s %-21s %6s %12s %10s %8s%n", "depth", "walk", "frames", "ns/walk", "ns/frame", "vs AGCT");
        for (int depth : depths) {
            // The frames below recurse(): main and the measurement's native frame.
            recurse(depth - 2, depth);
        }
    }
}
