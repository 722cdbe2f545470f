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
 * @test id=c1
 * @summary C1's code pushes the two arguments of the slow subtype check
 *          stub below its frame before it calls the stub (for a type check
 *          against an interface that the object's class does not hold in
 *          its cache) and pops them after the call: interrupted there, the
 *          frame begins above the context's sp. A thread runs main, which
 *          calls loop, which calls cast (C1, never inlined), which checks
 *          objects against five interfaces in turn. Every walk of it must
 *          report those frames by name ("cast loop main", "loop main" or
 *          "main"), or refuse, or end with an error after some of them.
 *          Each sample in cast's frame where nothing is pushed is walked
 *          again as if the thread stood at each place of each call of the
 *          stub, with the words pushed: the same frames at the same sps
 *          (libAsgstPushedWords.c).
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @requires vm.compiler1.enabled
 * @run main/othervm/native -XX:TieredStopAtLevel=1 -XX:CompileCommand=quiet
 *      -XX:CompileCommand=dontinline,AsgstPushedWords::cast
 *      -XX:CompileCommand=exclude,AsgstPushedWords::main AsgstPushedWords
 */

public class AsgstPushedWords {
    static {
        System.loadLibrary("AsgstPushedWords");
    }

    // Samples the calling thread every intervalMicros of wall-clock time.
    private static native void startSampling(int intervalMicros);
    // Stops sampling; returns {calls of the stub found in cast's code, walks
    // that reported frames, those with cast on top, walks refused, wrong
    // walks, walks made at the stub's calls, made walks that differed, refused
    // walks whose pc was in the stub}.
    private static native long[] stopSampling();
    // The first wrong walk, and the first made walk that differed, described; or null.
    private static native String firstWrong();
    private static native String firstDifference();

    interface I0 {}
    interface I1 {}
    interface I2 {}
    interface I3 {}
    interface I4 {}
    static final class A implements I0, I1, I2, I3, I4 {}
    static final class B implements I4, I3, I2, I1 {}

    static volatile boolean stop;
    static volatile int sink;

    // Runs interpreted (excluded from compilation), and calls nothing but
    // loop while it is sampled: its only callee on the stack.
    public static void main(String[] args) throws Exception {
        Object[] objects = {new A(), new B(), new A(), new Object()};
        for (int i = 0; i < 50; i++) {
            sink += loop(objects);  // compiled by C1 before sampling starts
        }
        // An emulator (make test-aarch64) sets asgst.time.factor: the walks
        // there take longer, and the interval and the time grow alike.
        int factor = Integer.getInteger("asgst.time.factor", 1);
        Thread timer = Thread.ofPlatform().daemon().start(() -> {
            try {
                Thread.sleep(5_000L * factor);
            } catch (InterruptedException e) {
                // stops at once
            }
            stop = true;
        });
        startSampling(50 * factor);
        while (!stop) {
            sink += loop(objects);
        }
        long[] r = stopSampling();
        timer.join();
        System.out.printf("%d calls of the stub in cast's code; %d walks reported frames, %d of them with cast on top;"
                          + " %d refused (%d with pc in the stub), %d wrong; %d walks made at the stub's calls,"
                          + " %d differed%n", r[0], r[1], r[2], r[3], r[7], r[4], r[5], r[6]);
        String wrong = firstWrong();
        if (wrong != null) {
            System.out.println("first wrong walk: " + wrong);
        }
        String difference = firstDifference();
        if (difference != null) {
            System.out.println("first made walk that differed: " + difference);
        }
        // cast makes five type checks against interfaces, each a call of the stub.
        check(r[0] >= 5, "found " + r[0] + " calls of the stub in cast's code, expected at least 5");
        check(r[4] == 0, r[4] + " walks reported other frames");
        // 5 s at 50 us is about 100,000 signals and cast runs most of the
        // time: fewer made walks than this means the sampling broke.
        check(r[5] >= 100, "only " + r[5] + " walks made at the stub's calls");
        check(r[6] == 0, r[6] + " walks made at the stub's calls differed from the walks as they were");
    }

    static int loop(Object[] objects) {
        int n = 0;
        for (int i = 0; i < 10_000; i++) {
            n += cast(objects[i & 3], i);
        }
        return n;
    }

    // Each check is against another interface than the one before: the
    // class's cache of its last secondary super misses, and C1's code calls
    // the slow subtype check.
    static int cast(Object o, int i) {
        return switch (i % 5) {
            case 0 -> o instanceof I0 ? 1 : 0;
            case 1 -> o instanceof I1 ? 2 : 0;
            case 2 -> o instanceof I2 ? 3 : 0;
            case 3 -> o instanceof I3 ? 4 : 0;
            default -> o instanceof I4 ? 5 : 0;
        };
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
