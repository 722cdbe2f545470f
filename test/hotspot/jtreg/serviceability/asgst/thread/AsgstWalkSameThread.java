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
 * @summary ASGST_WALK_SAME_THREAD: AsyncGetStackTrace walks the calling
 *          thread whatever trace->env_id names; without the option, a
 *          trace->env_id of another, halted thread walks that thread. A
 *          signal handler on a spinning thread makes the calls with another
 *          thread's JNIEnv (that thread waits in a native method), with its
 *          own and with none; the other thread's walk must equal JVMTI's
 *          GetStackTrace of it.
 * @requires os.family == "linux"
 * @run main/othervm/native AsgstWalkSameThread
 */
public class AsgstWalkSameThread {
    static {
        System.loadLibrary("AsgstWalkSameThread");
    }

    // Signals sent to the spinning thread; each is checked on its own.
    static final int SIGNALS = 200;

    // Called by the thread that waits: records its JNIEnv and JVMTI's trace of
    // it, then blocks until release().
    private static native void waitHere();
    private static native void release();
    private static native boolean waiting();
    // Called by the spinning thread: records its pthread and JNIEnv.
    private static native void registerSpinner();
    // Signals the spinner once and waits for its handler; returns null or what failed.
    private static native String signalSpinner();
    // Signals whose own walk of the spinner gave an error.
    private static native int ownWalksFailed();

    static volatile boolean stop;
    static volatile long sink;

    static void waiter() {
        waitHere();
    }

    static void spinner() {
        registerSpinner();
        while (!stop) {
            sink += spin(1000);
        }
    }

    static long spin(long n) {
        long sum = 0;
        for (long i = 0; i < n; i++) {
            sum += i ^ (sum >>> 7);
        }
        return sum;
    }

    public static void main(String[] args) throws Exception {
        Thread waiter = new Thread(AsgstWalkSameThread::waiter, "waiter");
        Thread spinner = new Thread(AsgstWalkSameThread::spinner, "spinner");
        waiter.start();
        while (!waiting()) {
            Thread.sleep(1);
        }
        spinner.start();
        StringBuilder failures = new StringBuilder();
        int failed = 0;
        for (int i = 0; i < SIGNALS; i++) {
            String failure = signalSpinner();
            if (failure != null && failed++ < 8) {
                failures.append("\n  ").append(failure);
            }
        }
        stop = true;
        release();
        spinner.join();
        waiter.join();
        System.out.println(SIGNALS + " signals, " + failed + " failed, " + ownWalksFailed()
                           + " own walks gave an error");
        if (failed > 0) {
            throw new RuntimeException(failed + " of " + SIGNALS + " signals failed:" + failures);
        }
        // A walk of Java code fails only at a few places (stubs and blobs,
        // doc/stack-walking.md); most signals must have compared whole walks.
        if (ownWalksFailed() > SIGNALS / 2) {
            throw new RuntimeException(ownWalksFailed() + " of " + SIGNALS + " walks of the spinner failed");
        }
    }
}
