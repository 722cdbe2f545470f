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
 * @summary Safepoint queues on one thread: ordering, a full queue, element
 *          access and arg changes, resizing and deregistering with elements
 *          pending, two queues side by side, the processing callbacks, and
 *          compression through ASGST_GetEnqueuableElement (also of samples
 *          taken while a handler runs), and the handles
 *          of removed queues (deregistered, or of a thread that ended).
 * @requires os.family == "linux"
 * @run main/othervm/native AsgstQueueBasics
 */

/*
 * @test id=interpreted
 * @requires os.family == "linux"
 * @run main/othervm/native -Xint AsgstQueueBasics
 */

import java.util.Arrays;
import java.util.List;

public class AsgstQueueBasics {
    static {
        System.loadLibrary("AsgstQueueBasics");
    }

    static native boolean register(int index, int size);
    static native boolean deregister(int index);
    static native int[] enqueue(int index, int count, int first);
    static native int[] sizeInfo(int index);
    static native int[] inspect(int index);
    static native int resizeWhilePending(int index, int size);
    static native int[] deregisterWhilePending(int index);
    static native int compress(int index, int count);
    static native void sampleInHandlers(int count);
    static native void setCallbacks(int index);
    static native int[] callbackCounts();
    static native String[] takeRecords();
    static native void keepHandle(int index);
    static native int[] keptHandleChecks();
    static native int keptCapacity();

    static final int JAVA_TRACE = 1, NO_QUEUE = -5, FULL_QUEUE = -6;

    record Processed(long queueArg, long elementArg, String top, String second, int end) {
        static Processed parse(String text) {
            String[] p = text.split(":", -1);
            return new Processed(Long.parseLong(p[0]), Long.parseLong(p[1]), p[2], p[3], Integer.parseInt(p[4]));
        }
    }

    static List<Processed> processed() {
        return Arrays.stream(takeRecords()).map(Processed::parse).toList();
    }

    public static void main(String[] args) throws InterruptedException {
        ordering();
        fullQueueAndElements();
        resizing();
        twoQueues();
        callbacks();
        compression();
        samplesWhileProcessing();
        deregistering();
        removedQueues();
        System.out.println("all queue checks passed");
    }

    // The enqueuing native method's frame is on top, its Java caller below.
    static void checkFrames(Processed p, String caller) {
        check(p.top.equals("enqueue") || p.top.equals("inspect") || p.top.equals("resizeWhilePending") ||
              p.top.equals("compress") || p.top.equals("deregisterWhilePending"), "top frame: " + p);
        check(p.second.equals(caller), "second frame should be " + caller + ": " + p);
        check(p.end == 0, "the walk did not end cleanly: " + p);
    }

    static void ordering() {
        check(register(0, 16), "register");
        int[] results = enqueue(0, 5, 1);
        for (int r : results) {
            check(r == JAVA_TRACE, "enqueue: " + Arrays.toString(results));
        }
        // The queue was processed when enqueue() returned to Java.
        List<Processed> done = processed();
        check(done.size() == 5, "processed " + done);
        for (int i = 0; i < 5; i++) {
            check(done.get(i).elementArg == i + 1 && done.get(i).queueArg == 1, "order: " + done);
            checkFrames(done.get(i), "ordering");
        }
        int[] info = sizeInfo(0);
        check(info[0] == 0 && info[1] == 16 && info[2] == 0, "after processing: " + Arrays.toString(info));
        check(deregister(0), "deregister");
    }

    static void fullQueueAndElements() {
        check(register(0, 3), "register");
        int[] v = inspect(0);
        check(v[0] == 3 && v[1] == 3 && v[2] == 4, "size info while full: " + Arrays.toString(v));
        check(v[3] == 1 && v[4] == 3 && v[5] == 1 && v[6] == 1, "element access: " + Arrays.toString(v));
        check(v[7] == FULL_QUEUE, "enqueue into a full queue: " + v[7]);
        List<Processed> done = processed();
        check(done.size() == 3 && done.get(0).elementArg == 1 && done.get(1).elementArg == 2 &&
              done.get(2).elementArg == 99, "full queue, changed arg: " + done);
        done.forEach(p -> checkFrames(p, "fullQueueAndElements"));
        check(deregister(0), "deregister");
    }

    static void resizing() {
        check(register(0, 2), "register");
        int[] results = enqueue(0, 2, 1);  // processed on return
        check(processed().size() == 2, "before resizing");
        // Full, then a resize request: applied after the next processing.
        check(enqueue(0, 3, 10)[2] == FULL_QUEUE, "third element of a queue of 2");
        processed();
        check(sizeInfo(0)[1] == 2, "capacity before resizing");
        results = new int[] {resizeWhilePending(0, 8)};
        List<Processed> done = processed();
        check(done.size() == 1 && done.get(0).elementArg == 1000, "element enqueued with the resize pending: " + done);
        check(sizeInfo(0)[1] == 8, "capacity after resizing: " + Arrays.toString(sizeInfo(0)));
        results = enqueue(0, 8, 20);
        check(Arrays.stream(results).allMatch(r -> r == JAVA_TRACE), "8 elements after resizing: " + Arrays.toString(results));
        check(processed().size() == 8, "8 processed after resizing");
        check(deregister(0), "deregister");
    }

    static void twoQueues() {
        check(register(0, 8) && register(1, 8), "register two");
        enqueue(0, 2, 1);
        List<Processed> first = processed();
        enqueue(1, 3, 7);
        List<Processed> second = processed();
        check(first.size() == 2 && first.stream().allMatch(p -> p.queueArg == 1), "first queue: " + first);
        check(second.size() == 3 && second.stream().allMatch(p -> p.queueArg == 2) &&
              second.get(0).elementArg == 7 && second.get(2).elementArg == 9, "second queue: " + second);
        check(deregister(0) && deregister(1), "deregister two");
    }

    static void callbacks() {
        check(register(0, 8), "register");
        setCallbacks(0);
        enqueue(0, 3, 1);
        check(processed().size() == 3, "processed");
        int[] counts = callbackCounts();
        check(counts[0] == 1 && counts[1] == 1 && counts[2] == 1 && counts[3] == 0,
              "start with iterator once, end without once: " + Arrays.toString(counts));
        check(deregister(0), "deregister");
    }

    static void compression() {
        check(register(0, 4), "register");
        int merged = compress(0, 50);
        List<Processed> done = processed();
        check(merged == 50, "merged " + merged + " of 50 samples of one place");
        check(done.size() == 1 && done.get(0).elementArg == 51, "one element counting 51 samples: " + done);
        check(deregister(0), "deregister");
    }

    // A sample taken while an element's handler runs (a signal at the poll)
    // and compressed as doc/safepoint-queue.md says must count in a later
    // element: the one being handled is no longer pending, and its arg was
    // read already. Each handler takes one sample of the same place, twice.
    static void samplesWhileProcessing() {
        check(register(0, 4), "register");
        sampleInHandlers(2);
        compress(0, 0);  // one element counting one sample
        List<Processed> done = processed();
        long counted = done.stream().mapToLong(Processed::elementArg).sum();
        check(counted == 3, "3 samples (1 before processing, 2 during it) counted as " + counted + ": " + done);
        check(done.size() == 3, "each sample during processing in an element of its own: " + done);
        check(deregister(0), "deregister");
    }

    static void deregistering() {
        check(register(0, 8), "register");
        int[] v = deregisterWhilePending(0);
        check(v[0] == 1 && v[1] == 0 && v[2] == NO_QUEUE, "deregister results: " + Arrays.toString(v));
        List<Processed> done = processed();
        check(done.size() == 2 && done.get(0).elementArg == 501 && done.get(1).elementArg == 502,
              "pending elements of a deregistered queue: " + done);
    }

    // profile.h: a removed queue answers as removed for the VM's life. The
    // handle is kept past the removal, and a new queue may take the removed
    // one's memory: calls through the old handle must not reach it.
    static void removedQueues() throws InterruptedException {
        check(register(0, 8), "register");
        keepHandle(0);
        check(deregister(0), "deregister");
        check(register(1, 8), "register after the removal");
        int[] counts = callbackCounts();
        checkKeptHandle("deregistered queue");
        check(sizeInfo(1)[1] == 8, "a resize through the removed handle reached the new queue: " +
              Arrays.toString(sizeInfo(1)));
        enqueue(1, 2, 1);
        List<Processed> done = processed();
        check(done.size() == 2 && done.stream().allMatch(p -> p.queueArg == 2), "the new queue: " + done);
        check(Arrays.equals(counts, callbackCounts()), "callbacks set through the removed handle ran: " +
              Arrays.toString(counts) + " then " + Arrays.toString(callbackCounts()));
        check(deregister(1), "deregister the new queue");

        // A queue that its thread never deregistered goes away with the thread.
        Thread thread = new Thread(() -> {
            check(register(0, 8), "register on another thread");
            keepHandle(0);
        });
        thread.start();
        thread.join();
        // The thread's queues are freed after join() returns, when HotSpot
        // destroys the thread: wait for it (a stuck thread fails by timeout).
        while (keptCapacity() != 0) {
            Thread.sleep(10);
        }
        checkKeptHandle("queue of a thread that ended");
    }

    static void checkKeptHandle(String what) {
        int[] v = keptHandleChecks();
        check(v[0] == 0 && v[1] == NO_QUEUE && v[2] == 0 && v[3] == 0 && v[4] == 0 && v[5] == 1 && v[6] == 1,
              what + ": {deregister, enqueue, size, capacity, attempts, no element, no enqueuable pc} = " +
              Arrays.toString(v));
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
