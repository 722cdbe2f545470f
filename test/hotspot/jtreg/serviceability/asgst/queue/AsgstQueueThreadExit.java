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
 * @summary Threads that end with a queue element pending. Each thread's
 *          processing-end handler enqueues one more element, so one element
 *          is pending whenever the thread is between polls, also when it ends.
 *          Every accepted element is processed once, on the queue's own
 *          thread, or dropped with the queue when the thread ends (at most the
 *          one then pending); afterwards the handle answers as removed and no
 *          handler runs any more.
 * @requires os.family == "linux"
 * @run main/othervm/native AsgstQueueThreadExit
 */
public class AsgstQueueThreadExit {
    static {
        System.loadLibrary("AsgstQueueThreadExit");
    }

    static final int THREADS = 16;
    // How long each thread works with its queue: long enough for thousands of
    // polls (each processes the pending element and enqueues the next).
    static final long WORK_NANOS = 20_000_000L;
    // The VM removes a thread's queues when it destroys the thread, shortly
    // after Thread.join returns; this is only the limit of the wait.
    static final long REMOVAL_TIMEOUT_MILLIS = 60_000;

    // Registers a queue for the calling thread in slot index and enqueues the
    // first element; returns ASGST_Enqueue's result.
    private static native int start(int index);
    // {accepted, processed, processed on another thread, failed enqueues at
    // processing ends, removed (1: the handle answers as removed)}
    private static native int[] counts(int index);
    // Whether ASGST_Enqueue gives ASGST_ENQUEUE_NO_QUEUE and ASGST_DeregisterQueue
    // false for the removed queue of slot index (called from main).
    private static native boolean answersAsRemoved(int index);

    static volatile long sink;

    static long work(long n) {
        long sum = 0;
        for (long i = 0; i < n; i++) {
            sum += step(i);
        }
        return sum;
    }

    static long step(long i) {
        return (i * 31) ^ (i >>> 3);
    }

    public static void main(String[] args) throws Exception {
        Thread[] threads = new Thread[THREADS];
        int[] started = new int[THREADS];
        for (int i = 0; i < THREADS; i++) {
            final int index = i;
            threads[i] = new Thread(() -> {
                started[index] = start(index);
                long end = System.nanoTime() + WORK_NANOS;
                while (System.nanoTime() < end) {
                    sink += work(1000);
                }
            }, "worker-" + i);
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long deadline = System.currentTimeMillis() + REMOVAL_TIMEOUT_MILLIS;
        for (int i = 0; i < THREADS; i++) {
            while (counts(i)[4] == 0 && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
        }
        Thread.sleep(100);  // a handler that still ran would show in the counts below

        int droppedTotal = 0;
        StringBuilder problems = new StringBuilder();
        for (int i = 0; i < THREADS; i++) {
            int[] c = counts(i);
            int dropped = c[0] - c[1];
            droppedTotal += Math.max(dropped, 0);
            System.out.printf("worker-%d: start %d, %d accepted, %d processed, %d dropped, %d failed enqueues%n",
                              i, started[i], c[0], c[1], dropped, c[3]);
            if (started[i] <= 0) {
                problems.append("\n  worker-" + i + ": the first ASGST_Enqueue gave " + started[i]);
            }
            if (c[4] == 0) {
                problems.append("\n  worker-" + i + ": its queue is not removed " + REMOVAL_TIMEOUT_MILLIS
                                + " ms after the thread ended");
                continue;
            }
            if (c[1] < 2) {
                problems.append("\n  worker-" + i + ": only " + c[1] + " elements processed; the chain of"
                                + " elements did not run");
            }
            // One element is pending at a time: dropped is 0 or 1, never less
            // (an element processed twice) and never more (elements lost).
            if (dropped < 0 || dropped > 1) {
                problems.append("\n  worker-" + i + ": " + c[0] + " accepted but " + c[1] + " processed");
            }
            if (c[2] != 0) {
                problems.append("\n  worker-" + i + ": " + c[2] + " elements processed on another thread");
            }
            if (!answersAsRemoved(i)) {
                problems.append("\n  worker-" + i + ": the removed queue does not answer as removed");
            }
        }
        // A thread that polls after its last Java frame returned processes the
        // last element there (its walk has no frame) and enqueues no other; a
        // thread that does not, ends with it pending. Without any thread of the
        // second kind this test would not have tested what it is for.
        if (droppedTotal == 0) {
            problems.append("\n  no thread ended with an element pending");
        }
        System.out.println(droppedTotal + " of " + THREADS + " threads ended with an element pending");
        if (problems.length() > 0) {
            throw new RuntimeException("queues of ended threads:" + problems);
        }
    }
}
