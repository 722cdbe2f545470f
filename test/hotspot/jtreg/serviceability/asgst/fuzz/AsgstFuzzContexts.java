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
 * @summary Fuzzing: a SIGPROF handler calls every signal-safe function of profile.h
 *          with mutated contexts (random, near, code, metadata, stack, unmapped,
 *          kernel and misaligned values, mutated again and again) and garbage
 *          handles while the thread runs interpreted, compiled and allocating
 *          code. The VM must not crash or hang.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "x86_64" | os.arch == "aarch64")
 * @run main/othervm/native AsgstFuzzContexts 3
 */

/*
 * @test id=interpreted
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "x86_64" | os.arch == "aarch64")
 * @run main/othervm/native -Xint AsgstFuzzContexts 2
 */

/*
 * @test id=compiled
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "x86_64" | os.arch == "aarch64")
 * @run main/othervm/native -Xcomp -XX:CompileCommand=quiet -XX:+UseZGC AsgstFuzzContexts 2
 */
public class AsgstFuzzContexts {
    static {
        System.loadLibrary("AsgstFuzzContexts");
    }

    static native void start(int intervalMicros, long otherStack);
    static native long[] stop();
    static native long stackAddress();

    static volatile Object sink;

    static long recurse(int depth, long x) {
        if (depth == 0) {
            long r = x;
            for (int i = 0; i < 2000; i++) {
                r = r * 31 + i;
            }
            sink = new long[16];
            return r;
        }
        return recurse(depth - 1, x + depth) + 1;
    }

    public static void main(String[] args) throws Exception {
        // make test-stress sets the property to run longer than the fast tier's seconds.
        long seconds = Long.getLong("asgst.fuzz.seconds", Long.parseLong(args[0]));
        long otherStack = stackAddress();
        long[] result = new long[5];
        Thread worker = new Thread(() -> {
            start(200, otherStack);
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            long x = 0;
            while (System.nanoTime() < end) {
                x += recurse((int) (x & 63), x);
            }
            long[] r = stop();
            System.arraycopy(r, 0, result, 0, r.length);
        });
        worker.start();
        worker.join();
        System.out.println(result[0] + " fuzzed calls, " + result[1] + " walks with frames, " + result[2]
                           + " frame marks set, " + result[3] + " marks reached, no crash");
        if (result[0] < 20_000 * seconds) {
            throw new RuntimeException("too few fuzzed calls: " + result[0]);
        }
        // Where frame marks work they must have been set: each signal (about
        // 5,000 a second) walks the true context, at least the ten frames of
        // recurse, and tries a mark after each frame with odds of about 1 in
        // 25 (1/8, the registered owner 7/8, a valid slot 2/5) that succeed on
        // Java frames but the top; 100 a second leaves a loaded machine room.
        if (result[4] == 1 && result[2] < 100 * seconds) {
            throw new RuntimeException("too few frame marks set: " + result[2]);
        }
    }
}
