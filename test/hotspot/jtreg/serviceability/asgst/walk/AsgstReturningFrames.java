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
 * @summary A compiled method or native wrapper pops its frame before its
 *          last instructions (the return poll, a native wrapper's pending
 *          exception check, the ret). A thread sampled there must be walked
 *          from the caller, never from a frame read at the popped frame's
 *          size above sp, which skips frames. The sampled thread calls a
 *          JNI function and a small compiled method in a loop, twelve frames
 *          deep; while it is in that loop, every walk must hold all of them.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstReturningFrames::leaf
 *      AsgstReturningFrames
 */

/*
 * @test id=c1
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @run main/othervm/native -XX:TieredStopAtLevel=1 -XX:CompileCommand=quiet
 *      -XX:CompileCommand=dontinline,AsgstReturningFrames::leaf AsgstReturningFrames
 */

/*
 * @test id=c2
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @run main/othervm/native -XX:-TieredCompilation -XX:CompileCommand=quiet
 *      -XX:CompileCommand=dontinline,AsgstReturningFrames::leaf AsgstReturningFrames
 */

public class AsgstReturningFrames {
    static {
        System.loadLibrary("AsgstReturningFrames");
    }

    static final int DEPTH = 12;

    // Samples the calling thread every intervalMicros of wall-clock time.
    private static native void startSampling(int intervalMicros, int depth);
    // Stops sampling; returns the walks taken in the loop, those that were
    // refused, those that held other frames than the loop's, those that
    // began at a return address (the interrupted frame was gone), those
    // that began at loop()'s caller while loop()'s compiled code ran before
    // its frame was built (JVMTI tells where that code lies); then of the
    // same instants walked by ASGST_RunWithIteratorFromFrame from sp, fp and
    // pc: those that came to their end, and those that held other frames.
    private static native long[] stopSampling();
    // The first walk with other frames, described, or null.
    private static native String firstWrongWalk();
    private static native String firstWrongWalkFromFrame();
    // Mark the loop for the signal handler.
    private static native void enterLoop();
    private static native void exitLoop();
    // Return at once: their native wrappers' epilogues are sampled. More
    // arguments make larger frames: a frame made from sp after the epilogue
    // reads its caller at another place for each.
    private static native int nop(int a);
    private static native int nop6(int a, int b, int c, int d, int e, int f);
    private static native int nop8(int a, int b, int c, int d, int e, int f, int g, int h);
    private static native int nop10(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j);

    static volatile long sink;

    public static void main(String[] args) {
        // Link the native methods first: linking runs Java code above them.
        exitLoop();
        enterLoop();
        exitLoop();
        sink += nop(1) + nop6(1, 2, 3, 4, 5, 6) + nop8(1, 2, 3, 4, 5, 6, 7, 8) + nop10(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        // An emulator (make test-aarch64) runs the VM many times slower and
        // sets asgst.time.factor: the interval and the time grow alike, so
        // that the handler leaves the thread time to run (the samples' count
        // stays).
        int factor = Integer.getInteger("asgst.time.factor", 1);
        startSampling(50 * factor, DEPTH);
        long end = System.nanoTime() + 3_000_000_000L * factor;
        while (System.nanoTime() < end) {
            sink += descend(DEPTH);
        }
        long[] r = stopSampling();
        System.out.printf("%d walks in the loop: %d refused, %d with other frames, %d began at a return address, " +
                          "%d at loop()'s caller before loop()'s frame was built%n", r[0], r[1], r[2], r[3], r[4]);
        System.out.printf("walked from the frame's registers: %d came to their end, %d with other frames%n",
                          r[5], r[6]);
        String wrong = firstWrongWalk();
        if (wrong != null) {
            System.out.println("first walk with other frames: " + wrong);
        }
        String wrongFromFrame = firstWrongWalkFromFrame();
        if (wrongFromFrame != null) {
            System.out.println("first walk from the frame's registers with other frames: " + wrongFromFrame);
        }
        check(r[0] >= 10_000, "too few walks in the loop: " + r[0]);
        check(r[2] == 0, r[2] + " walks held other frames than the loop's");
        check(r[6] == 0, r[6] + " walks from the frame's registers held other frames than the loop's");
        // Without a link register such a walk refuses in leaves and epilogues
        // of aarch64, yet the loop's and its callees' bodies, where the thread
        // spends most of its time, have whole frames: a tenth of the required
        // walks shows that it walks, not only refuses.
        check(r[5] >= 1_000, "too few walks from the frame's registers came to their end: " + r[5]);
        // A refusal is no wrong answer, but the walker knows these places.
        check(r[1] * 100 <= r[0], r[1] + " walks refused");
        check(r[3] >= 100, "too few walks began at a return address: " + r[3]);
        // loop()'s prologues (a call's, and C1's OSR entry, once) are a few
        // instructions per call of a loop of 20,000 iterations: walks there
        // are rare (emulated, signals pile up at the first instruction after
        // the entry barrier's call while the new code is translated: 4 of
        // 58,000). A walker that lost loop()'s frame in its body, where the
        // thread spends its time, would exceed 0.1%.
        check(r[4] * 1000 <= r[0], r[4] + " walks began at loop()'s caller in loop()'s code");
    }

    static long descend(int depth) {
        return depth == 1 ? loop() : descend(depth - 1) + 1;
    }

    static long loop() {
        enterLoop();
        long r = 0;
        for (int i = 0; i < 20_000; i++) {
            r += nop(i) + leaf(i) + nop6(i, 1, 2, 3, 4, 5) + nop8(i, 1, 2, 3, 4, 5, 6, 7) +
                 nop10(i, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        }
        exitLoop();
        return r;
    }

    static int leaf(int i) {
        return i * 3 ^ 7;
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
