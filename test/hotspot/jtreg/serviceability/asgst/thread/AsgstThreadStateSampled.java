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
 * @test
 * @summary ASGST_ThreadState called in SIGPROF handlers: while the thread runs
 *          Java code every sample says alive and runnable, not in native;
 *          while it runs a native method's C loop, alive, runnable and in
 *          native, the same bits as JVMTI GetThreadState of that thread taken
 *          meanwhile (without the bits ASGST leaves out); on a thread that never
 *          attached to the VM, -1.
 * @requires os.family == "linux"
 * @run main/othervm/native AsgstThreadStateSampled
 */
public class AsgstThreadStateSampled {
    static {
        System.loadLibrary("AsgstThreadStateSampled");
    }

    // On the sampled thread: records its thread id and CPU clock.
    static native void register();
    // From another thread: samples the registered thread's CPU time every
    // millisecond (each sample records ASGST_ThreadState() in the handler),
    // and stops; the sampled thread itself never leaves what it is doing.
    static native void startSampling();
    // Returns {samples, samples whose state differs from expected, the first such state}.
    static native int[] stopSampling(int expected);
    // On the sampled thread: spins in C until release().
    static native void spinInNative();
    // JVMTI GetThreadState of another thread, with the bits ASGST leaves out cleared.
    static native int stateOf(Thread thread);
    static native boolean spinning();
    static native void release();
    // Samples an unattached pthread's CPU time; returns {samples, samples not -1}.
    static native int[] sampleUnattachedThread();

    static final int ALIVE = 0x1, RUNNABLE = 0x4, IN_NATIVE = 0x400000;
    // A second of CPU sampled every millisecond gives hundreds of samples even
    // when the timer fires only at scheduler ticks (100-250 per second).
    static final int MIN_SAMPLES = 50;

    static volatile boolean stop;
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        Thread java = Thread.ofPlatform().start(() -> {
            register();
            long x = 1;
            while (!stop) {
                x = x * 31 + (x >>> 3);
            }
            sink = x;
        });
        check("in Java", sample(ALIVE | RUNNABLE, () -> stop = true));
        java.join();

        Thread inNative = Thread.ofPlatform().start(() -> {
            register();
            spinInNative();
        });
        while (!spinning()) {
            Thread.sleep(10);
        }
        int jvmtiState = stateOf(inNative);
        check("in native", sample(ALIVE | RUNNABLE | IN_NATIVE, AsgstThreadStateSampled::release));
        inNative.join();
        if (jvmtiState != (ALIVE | RUNNABLE | IN_NATIVE)) {
            throw new RuntimeException("JVMTI GetThreadState in the native method: 0x" + Integer.toHexString(jvmtiState));
        }

        int[] unattached = sampleUnattachedThread();
        System.out.printf("unattached thread: %d samples, %d not -1%n", unattached[0], unattached[1]);
        if (unattached[0] < MIN_SAMPLES || unattached[1] != 0) {
            throw new RuntimeException("unattached thread: " + unattached[1] + " of " + unattached[0]
                                       + " samples were not -1");
        }
    }

    static int[] sample(int expected, Runnable thenLetGo) throws InterruptedException {
        Thread.sleep(100);  // the thread has registered and is at work
        startSampling();
        Thread.sleep(1500);
        int[] result = stopSampling(expected);
        thenLetGo.run();
        return result;
    }

    static void check(String where, int[] r) {
        System.out.printf("%s: %d samples, %d with another state (first 0x%x)%n", where, r[0], r[1], r[2]);
        if (r[0] < MIN_SAMPLES || r[1] != 0) {
            throw new RuntimeException(where + ": " + r[1] + " of " + r[0] + " samples had another state, first 0x"
                                       + Integer.toHexString(r[2]));
        }
    }
}
