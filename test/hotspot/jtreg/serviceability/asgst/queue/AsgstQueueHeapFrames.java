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
 * @summary Queue walks of a remounted virtual thread go on into its frames
 *          frozen in the heap: each walk must equal JVMTI GetStackTrace of the
 *          same virtual thread at the same place, method by method and bci by
 *          bci, down to Continuation.enter. Virtual threads recurse to a known
 *          depth, unmount (Thread.yield, LockSupport.parkNanos) and, once
 *          mounted again, enqueue an element in a native method, whose return
 *          to Java processes it; the recursion's frames stay frozen behind the
 *          return barrier (and, in one round of each, moved by a collection).
 *          Which frames were in the heap is proven without the walker, from
 *          the stack that the frames took before the unmount and the stack
 *          that the thread's mount uses at the walk (above its carrier's
 *          frames: the threads run on two carriers of the test's own
 *          scheduler, which mark their stack depth before each task).
 *          The native method also walks its own stack with
 *          ASGST_NOT_IN_SIGNAL_HANDLER, which must read the same frames in
 *          the heap and is held to the same.
 * @requires os.family == "linux" & vm.gc.G1
 * @library /test/lib
 * @modules java.base/java.lang:+open
 * @run main/othervm/native -XX:+UseG1GC AsgstQueueHeapFrames any
 */

/*
 * @test id=z
 * @summary The same under ZGC: frames in the heap are read only once the
 *          collector has begun to process the thread's stack in its cycle.
 * @requires os.family == "linux" & vm.gc.Z
 * @library /test/lib
 * @modules java.base/java.lang:+open
 * @run main/othervm/native -XX:+UseZGC AsgstQueueHeapFrames any
 */

/*
 * @test id=int
 * @summary The same with interpreted frames only: HotSpot thaws interpreted
 *          frames on its slow path, one or two per thaw.
 * @requires os.family == "linux"
 * @library /test/lib
 * @modules java.base/java.lang:+open
 * @run main/othervm/native -Xint AsgstQueueHeapFrames interpreted
 */

/*
 * @test id=c2
 * @summary The same with C2-compiled frames from the first call: frozen
 *          compiled frames with inlined scopes (descend() inlined into
 *          recurse()).
 * @requires os.family == "linux" & vm.compiler2.enabled
 * @library /test/lib
 * @modules java.base/java.lang:+open
 * @run main/othervm/native -Xcomp -XX:-TieredCompilation -XX:CompileCommand=quiet AsgstQueueHeapFrames compiled
 */

/*
 * @test id=c1
 * @summary The same with C1-compiled frames from the first call.
 * @requires os.family == "linux" & vm.compiler1.enabled
 * @library /test/lib
 * @modules java.base/java.lang:+open
 * @run main/othervm/native -Xcomp -XX:TieredStopAtLevel=1 -XX:CompileCommand=quiet AsgstQueueHeapFrames compiled
 */
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

import jdk.test.lib.thread.VThreadScheduler;

public class AsgstQueueHeapFrames {
    static {
        System.loadLibrary("AsgstQueueHeapFrames");
    }

    // Enough virtual threads that the two carriers switch between them all
    // the time and that many walks overlap the collector thread's
    // collections; the library keeps every walk (DEPTH * 2 + 8 frames) and
    // JVMTI's trace beside it until the end, about 12 MB.
    static final int THREADS = 64;
    // The recursion's depth. Deep enough that HotSpot's fast thaw path does
    // not thaw the whole chunk (it does below 500 words, 4,000 bytes; a
    // compiled recurse() keeps the five longs below live across its call:
    // its frame, descend() inlined, took 8 words here, 150 of them 9,472
    // bytes), and that the frozen frames stand out clearly against the stack
    // that a mount uses above its carrier (under 1 KB here), which the proof
    // of frozen frames cannot tell from the recursion's.
    static final int DEPTH = 150;
    // Unmounts per thread: Thread.yield() and LockSupport.parkNanos() alternate;
    // in the third, the thread also runs a collection before the walk.
    static final int ROUNDS = 4;

    // Allocates the library's records for threads * rounds walks of virtual
    // threads that recurse to depth.
    static native void setUp(int threads, int depth, int rounds);

    // Records where on the carrier's stack recurse(thread, depth) stands
    // before the first unmount.
    static native void mark(int thread, int depth);

    // Records, for the calling carrier, where on its stack it stands when it
    // runs a virtual thread's task next: the carrier's own frames, which the
    // proof of frozen frames subtracts. Same signature as mark() and check().
    static native void markCarrier(int unused1, int unused2);

    // Records where on the carrier's stack the thread stands now, JVMTI's
    // stack trace of the (virtual) current thread and a walk of its own stack
    // with ASGST_NOT_IN_SIGNAL_HANDLER (the direct walk), then enqueues an element
    // (from a SIGPROF handler with its context in even rounds, with a null
    // context in odd ones); the return to Java processes it. Same signature as
    // mark(): the same native wrapper, so the same frame size below it.
    static native void check(int thread, int round);

    // Compares every walk with JVMTI's trace and the proof of frozen frames:
    // "ok", or the first difference.
    static native String compare();

    // {walks, walks with a frame proven frozen, frames proven frozen, frames the
    //  walker reported from the heap (null sp and fp), of those interpreted,
    //  compiled (outermost scope), inlined scopes; walks that ended with
    //  ASGST_FRAMES_IN_HEAP; threads whose marks are unusable; the smallest
    //  number of recursion frames proven frozen in a walk; the largest; the
    //  stack in use by the mount at check() above the carrier's loop,
    //  smallest and largest (bytes); the recursion's size on the stack before
    //  the unmount, smallest (bytes); enqueues refused during a collection
    //  (ASGST_UNSAFE_STATE) and tried again; then for the direct walks: walks
    //  with a frame proven frozen, frames proven frozen, frames reported from
    //  the heap, of those interpreted, compiled, inlined scopes; walks that
    //  ended with ASGST_FRAMES_IN_HEAP}
    static native long[] counts();

    static volatile long sink;
    static volatile boolean done;

    // Five longs live across the call of descend(): a compiled frame cannot
    // keep them in registers (no callee-saved registers across Java calls).
    static long recurse(int thread, int depth, long a) {
        mark(thread, depth);
        if (depth == DEPTH) {
            return bottom(thread, a);
        }
        long b = a * 31 + depth;
        long c = a ^ (b >>> 3);
        long d = b * 17 - c;
        long e = c + d * 5;
        long f = e ^ a;
        long r = descend(thread, depth, b);
        return r + b + c + d + e + f;
    }

    // Tiny (well below the 35 bytes up to which C1 and C2 inline any
    // method): compiled, it is an inlined scope of recurse().
    static long descend(int thread, int depth, long b) {
        return recurse(thread, depth + 1, b);
    }

    static long bottom(int thread, long a) {
        for (int round = 0; round < ROUNDS; round++) {
            if (round % 2 == 0) {
                Thread.yield();                // unmount, mount again
            } else {
                LockSupport.parkNanos(100_000);
            }
            // Mounted again: HotSpot thawed the frames that returned (the
            // unmount's own, up to bottom()) and at most one or two more; the
            // rest of the recursion and its callers stay behind the return
            // barrier until check().
            if (round == 2) {
                // A full collection (G1 compacts) or a major one (ZGC
                // relocates) may move the stack chunks that hold them before
                // the walk reads them.
                System.gc();
            }
            check(thread, round);
        }
        return a;
    }

    // The virtual threads' scheduler: two carriers (as many as this
    // machine's cores, the default scheduler's parallelism) that each mark
    // where they stand right before they run a task, from the same frame at
    // the same call depth. A carrier's frames below the continuation's entry
    // (thread start, the VM's call stub, the scheduler: about 6 KB here, the
    // greater part of what a mounted virtual thread's carrier has in use) are
    // then known; the default scheduler's are not.
    static final class Carriers implements Executor {
        final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();

        Carriers(int count) {
            for (int i = 0; i < count; i++) {
                Thread.ofPlatform().daemon().name("carrier-" + i).start(this::loop);
            }
        }

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void loop() {
            while (true) {
                Runnable task;
                try {
                    task = tasks.take();
                } catch (InterruptedException e) {
                    continue;
                }
                markCarrier(0, 0);
                task.run();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        setUp(THREADS, DEPTH, ROUNDS);
        Thread.Builder.OfVirtual builder = VThreadScheduler.virtualThreadBuilder(new Carriers(2));
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            final int id = t;
            threads[t] = builder.start(() -> sink += recurse(id, 1, id));
        }
        // Collections at any time while the threads run: they may move stack
        // chunks between a freeze and a walk, and make check() wait for its
        // enqueue (refused during a collection) while the thread is in native.
        Thread collector = Thread.ofPlatform().start(() -> {
            while (!done) {
                System.gc();
                LockSupport.parkNanos(20_000_000);
            }
        });
        for (Thread t : threads) {
            t.join();
        }
        done = true;
        collector.join();

        String result = compare();
        long[] c = counts();
        long walks = c[0], provenWalks = c[1], provenFrames = c[2], heapFrames = c[3];
        long heapInterpreted = c[4], heapCompiled = c[5], heapInlined = c[6], inHeapEndings = c[7];
        long badMarks = c[8], minProven = c[9], maxProven = c[10];
        System.out.printf("%d walks: %d ended with ASGST_FRAMES_IN_HEAP; %d with frames proven frozen" +
                          " (%d frames; recursion frames proven frozen per walk %d-%d of %d)%n",
                          walks, inHeapEndings, provenWalks, provenFrames, minProven, maxProven, DEPTH);
        System.out.printf("the walker reported %d frames from the heap: %d interpreted, %d compiled," +
                          " %d inlined scopes%n", heapFrames, heapInterpreted, heapCompiled, heapInlined);
        System.out.printf("stack in use by the mount at check(): %d-%d bytes; the recursion before the unmount:" +
                          " at least %d bytes; threads whose marks were unusable: %d; enqueues refused" +
                          " during a collection and tried again: %d%n",
                          c[11], c[12], c[13], badMarks, c[14]);
        long directProvenWalks = c[15], directProvenFrames = c[16], directHeapFrames = c[17];
        long directInterpreted = c[18], directCompiled = c[19], directInlined = c[20], directInHeapEndings = c[21];
        System.out.printf("direct walks: %d ended with ASGST_FRAMES_IN_HEAP; %d with frames proven frozen (%d frames);" +
                          " %d frames from the heap: %d interpreted, %d compiled, %d inlined scopes%n",
                          directInHeapEndings, directProvenWalks, directProvenFrames, directHeapFrames,
                          directInterpreted, directCompiled, directInlined);
        System.out.println(result);
        check(result.equals("ok"), result);
        // The direct walk neither: it enters the VM (ThreadInVMfromNative, as
        // a JNI function), whose transition starts the processing of the
        // thread's stack if a collection asked for it, and the continuation is
        // mounted.
        check(directInHeapEndings == 0, directInHeapEndings + " direct walks ended with ASGST_FRAMES_IN_HEAP");
        check(directProvenWalks == walks, (walks - directProvenWalks) + " of " + walks
              + " direct walks had no frame proven frozen");
        check(directHeapFrames >= directProvenFrames, "direct walks: fewer frames from the heap than proven frozen");
        // No walk may end with ASGST_FRAMES_IN_HEAP: doc/safepoint-queue.md
        // leaves it only to ZGC or Shenandoah before the collector began to
        // process the thread's stack, and to a continuation being frozen or
        // thawed. Here the element is processed in SafepointMechanism::process
        // (the return from check()), right after StackWatermarkSet::on_safepoint
        // started that processing, and the continuation is mounted, neither
        // being frozen nor thawed.
        check(inHeapEndings == 0, inHeapEndings + " walks ended with ASGST_FRAMES_IN_HEAP");
        // Every round of every thread enqueued exactly one element.
        check(walks == (long) THREADS * ROUNDS, walks + " walks, expected " + THREADS * ROUNDS);
        // A thread marks its descent before it first unmounts; it could only
        // unmount during the descent by blocking (class loading under a
        // contended monitor), which this test's descent never does.
        check(badMarks == 0, badMarks + " threads unmounted during their descent: their marks prove nothing");
        // The case must have been made: after a remount HotSpot thaws only the
        // top one or two frames (its slow path for interpreted frames, or its
        // fast path for a chunk of 500 words or more: the recursion alone is
        // bigger), and bottom() returns into none of the recursion, so every
        // walk has nearly the whole recursion in the heap. The proof gives up
        // only the recursion frames that fit into the stack the mount uses
        // (256-944 bytes measured in the five ids) and the slack (64 bytes,
        // and 16 per depth): at 63 bytes per depth or more (C2's frames, the
        // smallest measured), about 20 depths (132 of 150 proven at least,
        // measured). Half of the depths proven in every walk holds while a
        // mount uses less than 3.3 KB.
        check(provenWalks == walks, (walks - provenWalks) + " of " + walks + " walks had no frame proven frozen");
        check(minProven >= DEPTH / 2, "a walk had only " + minProven + " of " + DEPTH
              + " recursion frames proven frozen (expected at least half)");
        // The walker reports frames from the heap with null sp and fp; those
        // proven frozen are a subset (checked per walk by compare()).
        check(heapFrames >= provenFrames, "fewer frames from the heap than proven frozen");
        switch (mode) {
            case "interpreted":
                // -Xint: nothing is compiled.
                check(heapCompiled == 0 && heapInlined == 0 && heapInterpreted > 0 &&
                      directCompiled == 0 && directInlined == 0 && directInterpreted > 0,
                      "-Xint: expected interpreted frames in the heap only");
                break;
            case "compiled":
                // -Xcomp (C2 alone, or C1 alone): recurse() is compiled at its
                // first call, with descend() inlined into it.
                check(heapCompiled > 0 && heapInlined > 0 && directCompiled > 0 && directInlined > 0,
                      "-Xcomp: expected compiled frames with inlined scopes in the heap");
                break;
            default:
                break;
        }
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
