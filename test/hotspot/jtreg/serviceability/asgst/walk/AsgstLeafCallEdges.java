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
 * @summary A C function that generated code calls without a state change (a
 *          leaf call, such as a GC barrier) has no frame of its own at its
 *          first instruction, after its push of the frame pointer, and at its
 *          return: the frame pointer still names the caller's caller. Every
 *          sample in Java code is walked as it is and again as if the thread
 *          stood at those three places of a C function it had just called,
 *          and as if it stood in a C function without any frame (a tail
 *          call, as G1's post-write barrier entry), where the frame pointer
 *          is whatever the interpreter or compiled code kept in it; all walks
 *          must report the same Java frames. Also as if such a function had
 *          been called from a barrier stub that saved registers below the
 *          frame: there a walk may refuse (an error), never report other
 *          frames. And, for compiled samples, as if the compiled frame had
 *          called an interpreted method through the c2i adapter and the
 *          interpreter ran its entry, before the callee's frame is built
 *          (the frame pointer still the older interpreted frame's). And, for
 *          compiled samples, as if the thread stood at the entry of C2's
 *          exception blob, with the compiled frame it unwinds to at sp and
 *          that frame's pc in a register: every such walk must be refused.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=exclude,AsgstLeafCallEdges::main
 *      AsgstLeafCallEdges
 */

/*
 * @test id=interpreted
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @run main/othervm/native -Xint AsgstLeafCallEdges
 */

/*
 * @test id=c2
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @run main/othervm/native -XX:-TieredCompilation -XX:CompileCommand=quiet
 *      -XX:CompileCommand=exclude,AsgstLeafCallEdges::main AsgstLeafCallEdges
 */

public class AsgstLeafCallEdges {
    static {
        System.loadLibrary("AsgstLeafCallEdges");
    }

    // Samples the calling thread every intervalMicros of wall-clock time.
    private static native void startSampling(int intervalMicros);
    // Stops sampling; returns per place (as named in main): the samples
    // compared, those whose walks differed and those whose made walk was
    // refused.
    private static native long[] stopSampling();
    // The first difference at each place, described (a line each), or null.
    private static native String firstDifference();

    static volatile long sink;

    // Runs interpreted (excluded from compilation): the frame whose frame
    // pointer compiled code above it keeps.
    public static void main(String[] args) {
        // An emulator (make test-aarch64) runs the VM many times slower and
        // sets asgst.time.factor: a signal's walks there take longer than
        // 100 us, and the thread would do nothing but run the handler. The
        // interval and the time grow alike: the samples' count stays.
        int factor = Integer.getInteger("asgst.time.factor", 1);
        startSampling(100 * factor);
        long end = System.nanoTime() + 3_000_000_000L * factor;
        while (System.nanoTime() < end) {
            sink += descend(12);
        }
        long[] r = stopSampling();
        String[] places = {"entry", "after push", "return", "frameless function", "frameless function after saved registers",
                           "frameless function, older fp", "frameless function after saved registers, older fp",
                           "interpreter entry called from compiled code", "exception blob's entry"};
        for (int i = 0; i < places.length; i++) {
            System.out.printf("at the %s: %d samples compared, %d walks differed, %d refused%n",
                              places[i], r[3 * i], r[3 * i + 1], r[3 * i + 2]);
        }
        String difference = firstDifference();
        if (difference != null) {
            System.out.println("first differences:\n" + difference);
        }
        for (int i = 0; i < places.length; i++) {
            // The older frame pointer, the interpreter entry and the exception
            // blob are made for compiled samples only.
            long least = i >= 5 && interpretedOnly() ? 0 : 1000;
            check(r[3 * i] >= least, "too few samples in Java code at the " + places[i] + ": " + r[3 * i]);
            check(r[3 * i + 1] == 0, r[3 * i + 1] + " walks at the " + places[i] + " differed");
            // With the older frame pointer the frame after saved registers is
            // confirmed by that frame, unless a frame between awaits deoptimization.
            check(i < 5 || i == 8 || r[3 * i + 2] * 100 <= r[3 * i],
                  r[3 * i + 2] + " walks at the " + places[i] + " refused");
        }
    }

    static boolean interpretedOnly() {
        return java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-Xint");
    }

    static long descend(int depth) {
        return depth == 0 ? hot(sink) : descend(depth - 1) + 1;
    }

    static long hot(long seed) {
        long r = seed;
        for (int i = 0; i < 20_000; i++) {
            r = r * 31 + step(i, r);
        }
        return r;
    }

    static long step(int i, long r) {
        return i ^ (r >>> 7);
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
