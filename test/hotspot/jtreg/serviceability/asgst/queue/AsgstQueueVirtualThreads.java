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
 * @summary Thousands of virtual threads sampled through the safepoint queues of
 *          their carriers: elements enqueued while a virtual thread is mounted
 *          are processed before it unmounts and show its frames, down to its
 *          continuation's entry, those still frozen in the heap after a
 *          remount included (at most 1% of the walks may end at them with
 *          ASGST_FRAMES_IN_HEAP), and never its carrier's.
 * @requires os.family == "linux"
 * @run main/othervm/native -agentlib:AsgstQueueVirtualThreads AsgstQueueVirtualThreads
 */
import java.util.ArrayList;
import java.util.List;

public class AsgstQueueVirtualThreads {
    static {
        System.loadLibrary("AsgstQueueVirtualThreads");
    }

    static native void startSampling(int intervalMicros);
    static native int[] stopSampling();
    static native String firstOddTrace();

    static volatile long sink;
    // Each virtual thread's work between yields. An emulator (make
    // test-aarch64) runs the VM many times slower and sets asgst.time.factor:
    // it slows the scheduling around the work too, which then took 25% of
    // the samples there (a bound below).
    static final long WORK_NANOS = 300_000L * Integer.getInteger("asgst.time.factor", 1);

    static void virtualWork(long nanos) {
        long end = System.nanoTime() + nanos;
        long r = sink;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) {
                r = r * 31 + i;
            }
        }
        sink = r;
    }

    public static void main(String[] args) throws Exception {
        startSampling(500);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            threads.add(Thread.ofVirtual().start(() -> {
                for (int k = 0; k < 3; k++) {
                    virtualWork(WORK_NANOS);
                    Thread.yield();  // unmount and mount again, maybe elsewhere
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        Thread.sleep(100 * Integer.getInteger("asgst.time.factor", 1));  // let carriers reach a poll
        int[] r = stopSampling();
        int accepted = r[0], processed = r[1], virtualFrames = r[2], carrierFrames = r[3], mixed = r[4];
        int atEnter = r[5], inHeap = r[6];
        System.out.printf("%d enqueued, %d processed: %d with virtual thread frames (%d ending at" +
                          " Continuation.enter, %d at frames frozen in the heap), %d with carrier frames, %d mixed%n",
                          accepted, processed, virtualFrames, atEnter, inHeap, carrierFrames, mixed);
        System.out.println("first odd trace: " + firstOddTrace());
        check(processed == accepted, "accepted " + accepted + " but processed " + processed);
        check(virtualFrames >= 300, "too few traces with virtual thread frames: " + virtualFrames);
        check(mixed == 0, mixed + " traces mix virtual thread and carrier frames");
        check(atEnter + inHeap == virtualFrames,
              "virtual thread traces must end at Continuation.enter or at frames frozen in the heap");
        check(atEnter > 0, "no complete virtual thread trace");
        // Frames frozen in the heap are walked at the poll; a walk ends at
        // them only while a collector has not begun to process the stack or
        // the continuation is being frozen or thawed: rare (0 of 524 measured).
        check(inHeap * 100L <= virtualFrames, inHeap + " of " + virtualFrames
              + " virtual thread traces end at frames frozen in the heap (at most 1%)");
        check(virtualFrames * 10L >= processed * 9L, "fewer than 90% of the processed traces show the virtual thread");
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
