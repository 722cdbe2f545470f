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
 * @summary Frame marks set and reached in signal handlers, in queue
 *          processing and by another thread while the worker is halted
 *          (profile.h, doc/frame-marks.md): a timer signals a worker every
 *          200 us; each walk watches the mark, goes on past it
 *          to compare the callers with those kept when it was set, or marks
 *          the marker method's frame. In six phases the worker runs the same
 *          recursion again from the same place; a mark of an earlier phase
 *          must never be reached.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstFrameMarksSampled::marker
 *      AsgstFrameMarksSampled
 */

/*
 * @test id=interpreted
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @run main/othervm/native -Xint AsgstFrameMarksSampled
 */

/*
 * @test id=c2
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @requires vm.compiler2.enabled
 * @run main/othervm/native -Xcomp -XX:-TieredCompilation -XX:CompileCommand=quiet
 *      -XX:CompileCommand=dontinline,AsgstFrameMarksSampled::marker AsgstFrameMarksSampled
 */

/*
 * @test id=zgc
 * @summary The same under ZGC, whose stack watermark shares the poll word
 *          with the marks' return barrier, with a collection every 50 ms.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @requires vm.gc.Z
 * @run main/othervm/native -XX:+UseZGC -XX:CompileCommand=quiet
 *      -XX:CompileCommand=dontinline,AsgstFrameMarksSampled::marker AsgstFrameMarksSampled
 */

import java.lang.reflect.Method;

public class AsgstFrameMarksSampled {
    static {
        System.loadLibrary("AsgstFrameMarksSampled");
    }

    static native int start(Method marker);
    static native void setPhase(int phase);
    // {signals, reached in handlers, reached at polls, callers that differed,
    //  marks of an earlier phase reached, marks refused, reached by the
    //  sampler thread while the worker was halted, marks set in handlers,
    //  at polls, by the sampler thread}; each way of walking has its own owner
    static native int[] stop();
    // The first walk whose callers differed from those kept, described; null for none.
    static native String firstMismatch();

    static final int PHASES = 6;
    // An emulator (make test-aarch64) runs the VM many times slower and sets
    // asgst.time.factor: there, with -Xcomp, 300 ms phases set only 5 marks
    // at polls in 6 phases (a floor below).
    static final long PHASE_MILLIS = 300 * Integer.getInteger("asgst.time.factor", 1);
    static volatile long sink;
    static volatile Object keep;

    // The marked frame: marker(0), whose callee work() calls and returns all the time.
    static void marker(int n, long deadline) {
        if (n == 0) {
            work(deadline);
        } else {
            marker(n - 1, deadline);
        }
    }

    static long leaf(int n) {
        keep = new long[16];
        return n == 0 ? 1 : 1 + leaf(n - 1);
    }

    static void work(long deadline) {
        for (int i = 0; System.nanoTime() < deadline; i++) {
            sink += leaf(i % 12);
        }
    }

    public static void main(String[] args) throws Exception {
        Method markerMethod = AsgstFrameMarksSampled.class.getDeclaredMethod("marker", int.class, long.class);
        int[][] result = new int[1][];
        Thread collector = new Thread(() -> {
            for (int i = 0; i < PHASES * PHASE_MILLIS / 50; i++) {
                System.gc();
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        Thread worker = new Thread(() -> {
            if (start(markerMethod) != 0) {
                throw new RuntimeException("setting up the owner, queue or timer failed");
            }
            for (int phase = 1; phase <= PHASES; phase++) {
                // The frames of the earlier phase are gone: the marker recursion returned.
                setPhase(phase);
                marker(20, System.nanoTime() + PHASE_MILLIS * 1_000_000);
            }
            result[0] = stop();
        });
        collector.setDaemon(true);
        collector.start();
        worker.start();
        worker.join();
        int[] r = result[0];
        System.out.println("signals " + r[0] + ", mark reached in handlers " + r[1] + ", at polls " + r[2]
                           + " and from the sampler thread " + r[6]
                           + ", callers that differed " + r[3] + ", marks of an earlier phase reached " + r[4]
                           + ", marks set " + r[7] + ", " + r[8] + " and " + r[9] + ", refused " + r[5]);
        check(r[3] == 0, r[3] + " walks past a mark found other callers than those kept; the first: " + firstMismatch());
        check(r[4] == 0, r[4] + " walks reached a mark of an earlier phase, whose frame had been left");
        // The mechanism must have worked at all: every phase sets a mark, and
        // most of the signals of a phase come after its mark was confirmed
        // (a poll within microseconds), so the counts are in the hundreds;
        // these floors are far below, only to fail a VM that never reports one.
        for (int way = 0; way < 3; way++) {
            check(r[7 + way] >= PHASES, "only " + r[7 + way] + " marks set by way " + way + " in " + PHASES + " phases");
        }
        check(r[1] >= 50, "only " + r[1] + " walks in signal handlers reached a mark");
        check(r[2] >= 10, "only " + r[2] + " queue walks reached a mark");
        check(r[6] >= 10, "only " + r[6] + " walks of the halted worker reached a mark");
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
