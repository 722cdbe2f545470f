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
 * @test id=enqueue
 * @summary A queue element recorded in a loop of compiled code that polls
 *          but makes no call is processed while the loop runs, within two
 *          samples: the first element arms the thread's poll word, which
 *          the loop's poll does not read; the next sample finds it armed
 *          and arms the polling page, which the loop's poll reads.
 * @requires os.family == "linux" & vm.compiler2.enabled & vm.flagless
 * @run main/othervm/native -Xbatch AsgstQueueLoopPoll enqueue
 */

/*
 * @test id=merge
 * @summary The same where the profiler merges every sample taken while an
 *          element waits into that element (ASGST_GetEnqueuableElement, then
 *          no enqueue): the sample that is merged arms the polling page.
 * @requires os.family == "linux" & vm.compiler2.enabled & vm.flagless
 * @run main/othervm/native -Xbatch AsgstQueueLoopPoll merge
 */
public class AsgstQueueLoopPoll {
    static {
        System.loadLibrary("AsgstQueueLoopPoll");
    }

    static native void startSampling(int intervalMicros, boolean merge);
    static native void stopSampling();
    static native int processedInLoop();
    static native void stopRecording();
    static native int[] results();

    static volatile boolean stop;
    static volatile long sink;

    // No call in the loop; C2 polls at its back edge (its exit reads a
    // volatile, so it is no counted loop). -Xbatch: the thread waits for its
    // OSR compilations and then runs C2's code.
    static long loop(long seed) {
        long r = seed;
        while (!stop) {
            r = r * 31 + (r >>> 7);
        }
        return r;
    }

    // Elements processed in C2's loop before the test stops looking.
    static final int WANTED = 200;

    public static void main(String[] args) throws Exception {
        boolean merge = args[0].equals("merge");
        // An emulator (make test-aarch64) runs the VM many times slower and
        // sets asgst.time.factor: the interval grows with it, so that the
        // loop's next poll still comes long before the next sample.
        int factor = Integer.getInteger("asgst.time.factor", 1);
        Thread worker = new Thread(() -> {
            startSampling(1000 * factor, merge);
            sink = loop(1);
            stopSampling();
        });
        worker.start();
        // The samples come with the thread's CPU time at the kernel's timer
        // ticks: WANTED of them take 0.2-2 s of it. An element that waits for
        // the loop's end (its page never armed) is not processed before the
        // deadline.
        long deadline = System.nanoTime() + 60_000_000_000L * factor;
        while (processedInLoop() < WANTED && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        // Elements processed from here on would be processed after the loop.
        stopRecording();
        stop = true;
        worker.join();

        int[] r = results();
        int samples = r[0], accepted = r[1], merged = r[2], processed = r[3], inLoop = r[4], soon = r[5];
        int maxWait = r[6];
        System.out.printf("%d samples, %d enqueued, %d merged, %d processed while the loop ran; %d of them in"
                          + " C2's loop, %d of these within 3 samples (longest wait %d samples)%n",
                          samples, accepted, merged, processed, inLoop, soon, maxWait);
        check(inLoop >= WANTED, "only " + inLoop + " elements processed in C2's loop within the deadline");
        check(!merge || merged > 0, "no sample was merged");
        // An element waits for the next sample, which arms the page, and then
        // for the loop's next poll (microseconds, where a sample comes every
        // millisecond of CPU time): it is processed before the sample after
        // next starts, so at most 2 samples later; 3 leaves one for a sample
        // that starts while the poll is being processed. 1% for a safepoint
        // or handshake that keeps the thread elsewhere.
        check(soon * 100L >= inLoop * 99L, "elements in C2's loop waited longer than 3 samples: only "
              + soon + " of " + inLoop + " within them");
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
