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
 * @test id=g1
 * @summary The safepoint queue loses nothing it accepted while the sampled
 *          threads allocate hard (frequent collections), their compiled code is
 *          deoptimized over and over, and classes are loaded and unloaded.
 *          Every walk must reach the worker's Thread.run through work().
 *          Regression test for two causes of walks that ended with
 *          ASGST_BROKEN_FRAME after the recorded frame: an element whose
 *          arming of the poll was lost waited for a later poll (1-2% of the
 *          walks under ZGC), and a signal after the recorded frame's last
 *          poll (an interpreted method after its return poll, any frame while
 *          the poll finished processing) lost the frame's callers once its
 *          caller moved on (0.5-1.5%); now that caller is reported at the
 *          call site it had.
 * @requires os.family == "linux"
 * @library /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native -Xbootclasspath/a:. -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI
 *      -Xmx128m AsgstQueueStress
 */

/*
 * @test id=z
 * @requires os.family == "linux" & vm.gc.Z
 * @library /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native -Xbootclasspath/a:. -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI
 *      -XX:+UseZGC -Xmx128m AsgstQueueStress
 */

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;

import jdk.test.whitebox.WhiteBox;

public class AsgstQueueStress {
    static {
        System.loadLibrary("AsgstQueueStress");
    }

    static native void startSampling(int intervalMicros);
    static native void stopSampling();
    static native void deregister();
    static native int[] counts();
    static native String errors();

    // Enough samples that one failed walk is 0.1%: 6-8 s of sampling on an idle
    // machine, where 481-646 were accepted in 4 s.
    static final int ACCEPTED_GOAL = 1000;
    // About 4 s of deoptimization rounds, one each 50 ms.
    static final int DEOPT_GOAL = 70;

    static volatile boolean stop;
    static volatile Object sink;

    static Object allocate(int round) {
        List<int[]> list = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            list.add(new int[256 + (round & 1023)]);
        }
        return list;
    }

    // A fresh hidden class per call: loaded, used once, and unloadable at once.
    static Object useThrowAwayClass() throws Exception {
        byte[] bytes;
        try (var in = AsgstQueueStress.class.getResourceAsStream("AsgstQueueStress$Payload.class")) {
            bytes = in.readAllBytes();
        }
        Class<?> c = MethodHandles.lookup().defineHiddenClass(bytes, false).lookupClass();
        return c.getDeclaredConstructor().newInstance().toString();
    }

    static class Payload {
        @Override
        public String toString() {
            return "payload" + System.nanoTime();
        }
    }

    static void work() {
        try {
            startSampling(500);
            for (int round = 0; !stop; round++) {
                sink = allocate(round);
                if (round % 50 == 0) {
                    sink = useThrowAwayClass();
                }
            }
            stopSampling();
            deregister();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    public static void main(String[] args) throws Exception {
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread t = new Thread(AsgstQueueStress::work);
            t.start();
            workers.add(t);
        }
        WhiteBox wb = WhiteBox.getWhiteBox();
        // The run lasts until its work is done, however busy the machine: at
        // least 4 seconds, ACCEPTED_GOAL accepted samples and DEOPT_GOAL rounds
        // of deoptimization. The deadline only keeps a broken VM from hanging.
        long start = System.nanoTime();
        long minimumEnd = start + 4_000_000_000L, deadline = start + 300_000_000_000L;
        int deoptimizations = 0;
        while (System.nanoTime() < deadline &&
               (System.nanoTime() < minimumEnd || counts()[0] < ACCEPTED_GOAL || deoptimizations < DEOPT_GOAL)) {
            Thread.sleep(50);
            wb.deoptimizeAll();
            deoptimizations++;
            if (deoptimizations % 10 == 0) {
                System.gc();  // also unloads the hidden classes
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        stop = true;
        for (Thread t : workers) {
            t.join();
        }
        int[] c = counts();
        System.out.printf("%d accepted, %d processed (%d walked to the end, %d failed walks), %d deoptimizations" +
                          " in %.1f s%n", c[0], c[1], c[2], c[3], deoptimizations, seconds);
        System.out.println("failed walks by error: " + errors());
        check(c[0] >= ACCEPTED_GOAL && deoptimizations >= DEOPT_GOAL,
              "the work was not done in " + seconds + " s: " + c[0] + " accepted, " + deoptimizations + " deoptimizations");
        check(c[1] == c[0], "accepted " + c[0] + " but processed " + c[1]);
        // At most 0.1%: one failed walk in the least accepted (ACCEPTED_GOAL).
        // The one cause left that is known: an interpreted method that the VM
        // called (through a call stub), interrupted after its return poll;
        // by the next poll the call stub has returned into the VM, so the
        // frames between it and the Java frame below are gone (1 walk in
        // 16,000 over 8 runs of both ids, 2026-11-24).
        check(c[3] * 1000L <= c[1], "more than 0.1% of the element walks failed: " + errors());
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
