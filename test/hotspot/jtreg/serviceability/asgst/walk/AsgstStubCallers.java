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
 * @summary A thread runs main, which calls loop, which calls copy (never
 *          inlined), which copies long and object arrays with
 *          System.arraycopy: most of the time runs in StubRoutines'
 *          arraycopy stubs, which compiled code calls without a state
 *          change. Every walk of it must report those frames by name
 *          ("copy loop main", "loop main" or "main", after
 *          arraycopy, the native method, where copy runs interpreted; a stub
 *          is not reported), or be refused, or end with an error after some of
 *          them; no sample whose pc lies in an arraycopy stub may be refused.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstStubCallers::copy
 *      -XX:CompileCommand=exclude,AsgstStubCallers::main AsgstStubCallers
 */

/*
 * @test id=c1
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @requires vm.compiler1.enabled
 * @run main/othervm/native -XX:TieredStopAtLevel=1 -XX:CompileCommand=quiet
 *      -XX:CompileCommand=dontinline,AsgstStubCallers::copy
 *      -XX:CompileCommand=exclude,AsgstStubCallers::main AsgstStubCallers
 */

public class AsgstStubCallers {
    static {
        System.loadLibrary("AsgstStubCallers");
    }

    // Samples the calling thread every intervalMicros of wall-clock time.
    private static native void startSampling(int intervalMicros);
    // Stops sampling; returns {walks that reported frames, walks refused,
    // wrong walks, samples with pc in a stub, those refused}.
    private static native long[] stopSampling();
    // The first wrong walk, described, or null; the stubs that samples hit.
    private static native String firstWrong();
    private static native String stubsHit();
    // The first refused sample in a stub, described, or null.
    private static native String firstRefusal();

    static volatile boolean stop;
    static volatile long sink;

    // Runs interpreted (excluded from compilation), and calls nothing but
    // loop while it is sampled: its only callee on the stack.
    public static void main(String[] args) throws Exception {
        long[] longs = new long[8192];
        long[] longCopy = new long[8192];
        Object[] objects = new Object[8192];
        Object[] objectCopy = new Object[8192];
        java.util.Arrays.fill(objects, "o");
        for (int i = 0; i < 20; i++) {
            sink += loop(longs, longCopy, objects, objectCopy);  // compiled before sampling starts
        }
        // An emulator (make test-aarch64) sets asgst.time.factor: the walks
        // there take longer, and the interval and the time grow alike.
        int factor = Integer.getInteger("asgst.time.factor", 1);
        Thread timer = Thread.ofPlatform().daemon().start(() -> {
            try {
                Thread.sleep(3_000L * factor);
            } catch (InterruptedException e) {
                // stops at once
            }
            stop = true;
        });
        startSampling(50 * factor);
        while (!stop) {
            sink += loop(longs, longCopy, objects, objectCopy);
        }
        long[] r = stopSampling();
        timer.join();
        System.out.printf("%d walks reported frames, %d refused, %d wrong; %d samples in stubs, %d of them refused%n",
                          r[0], r[1], r[2], r[3], r[4]);
        System.out.println("stubs hit: " + stubsHit());
        String refusal = firstRefusal();
        if (refusal != null) {
            System.out.println("first refused sample in a stub: " + refusal);
        }
        String wrong = firstWrong();
        if (wrong != null) {
            System.out.println("first wrong walk: " + wrong);
        }
        check(r[2] == 0, r[2] + " walks reported other frames");
        // 3 s at 50 us is about 60,000 signals, most of them in the copies:
        // fewer means the sampling or the stubs' lookup broke.
        check(r[3] >= 1000, "only " + r[3] + " samples in stubs");
        // The walker knows every instruction of these stubs (libAsgstStubCallers.c).
        check(r[4] == 0, r[4] + " of " + r[3] + " samples in stubs were refused");
    }

    static long loop(long[] longs, long[] longCopy, Object[] objects, Object[] objectCopy) {
        long n = 0;
        for (int i = 0; i < 100; i++) {
            n += copy(longs, longCopy, objects, objectCopy);
        }
        return n;
    }

    static long copy(long[] longs, long[] longCopy, Object[] objects, Object[] objectCopy) {
        System.arraycopy(longs, 0, longCopy, 0, longs.length);
        System.arraycopy(objects, 0, objectCopy, 0, objects.length);
        return longCopy[7] + (objectCopy[3] == null ? 0 : 1);
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
