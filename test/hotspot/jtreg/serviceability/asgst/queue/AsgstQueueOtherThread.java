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
 * @summary A queue registered for a thread by another thread (with the
 *          sampled thread's JNIEnv) and deregistered by that other thread
 *          while the sampled thread runs: its elements are walked on the
 *          sampled thread only; every element it accepted is processed
 *          (including any still pending at the removal); from the removal
 *          on, every enqueue answers ASGST_ENQUEUE_NO_QUEUE and a second
 *          removal false.
 * @requires os.family == "linux"
 * @run main/othervm/native AsgstQueueOtherThread
 */
public class AsgstQueueOtherThread {
    static {
        System.loadLibrary("AsgstQueueOtherThread");
    }

    // On the sampled thread: keeps its JNIEnv and thread id, and starts a
    // SIGPROF timer on its CPU time whose handler enqueues into the queue.
    static native void startSampled();
    static native void stopSampled();
    // On the main thread, for the sampled thread.
    static native boolean registerForSampled();
    static native boolean deregister();
    // {accepted, processed, processed on another thread, accepted after the
    //  removal, NO_QUEUE answers after the removal}
    static native int[] counts();

    static volatile boolean stop;
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        Thread sampled = Thread.ofPlatform().start(() -> {
            startSampled();
            long x = 1;
            while (!stop) {
                x = x * 31 + (x >>> 3);
            }
            sink = x;
            stopSampled();
        });
        Thread.sleep(100);  // started and sampling (into no queue yet)
        check(registerForSampled(), "ASGST_RegisterQueue with the sampled thread's JNIEnv returned null");
        // The work decides, not the time: 100 processed elements (the
        // deadline only keeps a broken VM from hanging the test).
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (counts()[1] < 100 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        check(deregister(), "the first ASGST_DeregisterQueue from another thread returned false");
        check(!deregister(), "the second ASGST_DeregisterQueue returned true");
        int[] atRemoval = counts();
        // Answers after the removal: wait for some, so that the check checks something.
        while (counts()[4] < 20 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        stop = true;
        sampled.join();
        int[] c = counts();
        System.out.printf("at the removal: %d accepted, %d processed; at the end: %d accepted, %d processed, " +
                          "%d on another thread, %d accepted after the removal, %d NO_QUEUE answers%n",
                          atRemoval[0], atRemoval[1], c[0], c[1], c[2], c[3], c[4]);
        check(atRemoval[1] >= 100, "only " + atRemoval[1] + " elements processed before the removal");
        check(c[2] == 0, c[2] + " elements were walked on a thread other than the sampled one");
        check(c[3] == 0, c[3] + " elements were accepted after the removal");
        check(c[4] >= 20, "only " + c[4] + " enqueues after the removal");
        check(c[1] == c[0], c[0] + " elements accepted, but " + c[1] + " processed");
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
