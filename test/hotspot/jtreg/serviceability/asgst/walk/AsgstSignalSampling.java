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
 * @test id=default
 * @summary Signal-driven sampling of a CPU-bound thread: walks from the SIGPROF
 *          handler with the signal's context complete (to the thread's first
 *          frame) for at least 99% of samples, and the hot method dominates.
 * @requires os.family == "linux"
 * @run main/othervm/native AsgstSignalSampling
 */

/*
 * @test id=interpreted
 * @requires os.family == "linux"
 * @run main/othervm/native -Xint AsgstSignalSampling
 */

/*
 * @test id=c2
 * @requires os.family == "linux" & vm.compiler2.enabled
 * @run main/othervm/native -XX:-TieredCompilation AsgstSignalSampling
 */

/*
 * @test id=c-frames
 * @summary The same with ASGST_INCLUDE_NON_JAVA_FRAMES: the walks also reach the C
 *          frames below the first Java frame (the launcher's, down to thread start).
 * @requires os.family == "linux"
 * @run main/othervm/native AsgstSignalSampling c-frames
 */
public class AsgstSignalSampling {
    static {
        System.loadLibrary("AsgstSignalSampling");
    }

    // Samples the calling thread's CPU time every intervalMicros with SIGPROF.
    private static native void startSampling(int intervalMicros, int options);
    // Stops sampling; returns {samples, complete Java walks, samples whose top
    // Java frame is hot(), the most frequent error or 0, complete walks whose
    // last frame is a C frame}.
    private static native int[] stopSampling();

    static volatile long sink;

    public static void main(String[] args) {
        boolean cFrames = args.length > 0 && args[0].equals("c-frames");
        startSampling(1000, cFrames ? 1 /* ASGST_INCLUDE_NON_JAVA_FRAMES */ : 0);
        long end = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < end) {
            sink += hot(sink);
        }
        int[] result = stopSampling();
        int samples = result[0], complete = result[1], topIsHot = result[2];
        System.out.printf("%d samples, %d complete Java walks (%.2f%%), top frame hot() in %d (%.1f%%), most frequent error %d%n",
                          samples, complete, 100.0 * complete / samples,
                          topIsHot, 100.0 * topIsHot / samples, result[3]);
        check(samples >= 100, "too few samples: " + samples);
        check(complete * 100L >= samples * 99L, "fewer than 99% of the walks are complete Java traces");
        check(topIsHot * 2L > samples, "hot() is the top frame in fewer than half of the samples");
        int endInC = result[4];
        if (cFrames) {
            System.out.printf("%d complete walks end with a C frame%n", endInC);
            check(endInC * 100L >= complete * 99L, "fewer than 99% of the complete walks end in C frames");
        } else {
            check(endInC == 0, endInC + " walks without C frames end with a C frame");
        }
    }

    static long hot(long seed) {
        long r = seed;
        for (int i = 0; i < 20_000; i++) {
            r = r * 31 + (i ^ (r >>> 7));
        }
        return r;
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
