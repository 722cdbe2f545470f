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

    static void recurse(int remaining, int depth) {
        if (remaining == 0) {
            if (depth > 0) {  // warm-up calls pass depth 0
                measure(depth, Math.max(20, 40_000 / depth));
            }
        } else {
            recurse(remaining - 1, depth);
        }
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
