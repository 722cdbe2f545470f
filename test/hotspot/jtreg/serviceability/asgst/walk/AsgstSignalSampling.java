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
 *
 * Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
 * or visit www.oracle.com if you need additional information or have any
 * questions.
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

/*
 * @test id=leaf-calls
 * @summary Walks of a thread that stores young objects into an old array, so
 *          that G1's post-write barrier often calls C without a state change,
 *          sampled every 0.1 ms of wall-clock time: every walk that finds a
 *          Java frame begins at the storing method (or a native method it
 *          calls), also when the signal lands in the C function's first or
 *          last instructions (doc/testing.md, class 6).
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64") & vm.gc.G1
 * @run main/othervm/native -XX:+UseG1GC -Xmx256m -Xmn4m AsgstSignalSampling leaf-calls
 */

/*
 * @test id=leaf-calls-interpreted
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64") & vm.gc.G1
 * @run main/othervm/native -Xint -XX:+UseG1GC -Xmx256m -Xmn4m AsgstSignalSampling leaf-calls
 */

/*
 * @test id=leaf-calls-c2
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64") & vm.gc.G1 & vm.compiler2.enabled
 * @run main/othervm/native -XX:-TieredCompilation -XX:+UseG1GC -Xmx256m -Xmn4m AsgstSignalSampling leaf-calls
 */
public class AsgstSignalSampling {
    static {
        System.loadLibrary("AsgstSignalSampling");
    }

    // Samples the calling thread every intervalMicros of its CPU time (or of
    // wall-clock time) with SIGPROF.
    private static native void startSampling(int intervalMicros, int options, boolean wallClock);
    // Stops sampling; returns {samples, complete Java walks, samples whose top
    // Java frame is the static method hotName, the most frequent error or 0,
    // complete walks whose last frame is a C frame, walks with a Java frame,
    // those whose top Java frame is a native method, and the other walks with
    // a Java frame taken in hotName's compiled code (JVMTI tells where)}.
    private static native int[] stopSampling(String hotName, String hotSignature);

    static volatile long sink;

    public static void main(String[] args) {
        String mode = args.length > 0 ? args[0] : "";
        if (mode.equals("leaf-calls")) {
            leafCalls();
            return;
        }
        boolean cFrames = mode.equals("c-frames");
        startSampling(1000, cFrames ? 1 /* ASGST_INCLUDE_NON_JAVA_FRAMES */ : 0, false);
        long end = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < end) {
            sink += hot(sink);
        }
        int[] result = stopSampling("hot", "(J)J");
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

    // More than half a G1 region: a humongous array, in an old region from the start.
    static final Object[] OLD = new Object[1 << 21];

    static void leafCalls() {
        int[] result = storeIntoOld(3_000_000_000L);
        int samples = result[0], topIsHot = result[2], withJava = result[5], topIsNative = result[6];
        // Interrupted in storeIntoOld's compiled code (JVMTI tells where it
        // lies) before its frame is built, the top is its caller: in its
        // prologues, and at C1's and C2's OSR entries, where the interpreter
        // jumps after popping its own frame.
        int inOwnCode = result[7];
        int elsewhere = withJava - topIsHot - topIsNative - inOwnCode;
        System.out.printf("%d samples, %d with a Java frame: top frame storeIntoOld() in %d, a native method in %d, " +
                          "its caller in its compiled code in %d, elsewhere in %d; most frequent error %d%n",
                          samples, withJava, topIsHot, topIsNative, inOwnCode, elsewhere, result[3]);
        // Those places are a few dozen instructions, the OSR entries run once
        // per compilation: few walks (emulated, where signals pile up at new
        // code while it is translated, 2-6 in one burst). A walker that lost
        // storeIntoOld's frame in its loop, where almost all these walks are,
        // would exceed 1%.
        check(inOwnCode * 100L <= withJava, inOwnCode + " walks began at storeIntoOld's caller in its code");
        check(withJava >= 1000, "too few walks found a Java frame: " + withJava);
        check(elsewhere == 0, elsewhere + " walks began elsewhere than storeIntoOld() or a native method it called");
    }

    // Samples itself every 0.1 ms of wall-clock time, and calls nothing but
    // native methods: every walk with a Java frame must begin here or there.
    static int[] storeIntoOld(long nanos) {
        startSampling(100, 0, true);
        long end = System.nanoTime() + nanos;
        Object[] old = OLD;
        do {
            // One store per 512-byte card: a young object into a clean card of
            // an old region takes G1's post-write barrier into C. Young
            // collections (every few passes here) clean the cards again.
            for (int i = 0; i < old.length; i += 128) {
                old[i] = new int[4];
            }
        } while (System.nanoTime() < end);
        return stopSampling("storeIntoOld", "(J)[I");
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
