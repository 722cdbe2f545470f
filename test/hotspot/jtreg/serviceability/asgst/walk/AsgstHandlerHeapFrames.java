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
 * @summary Signal-handler walks of virtual threads, whose older frames are
 *          frozen in the heap after every remount: under a collector that
 *          moves objects only at safepoints the walks read those frames and
 *          show whole stacks; under one that moves them while Java code runs
 *          they end at them with ASGST_FRAMES_IN_HEAP. Whole is judged by the
 *          test's own stack shape, not by the walker: exactly DEPTH + 1 frames
 *          of deep() below loop(), Continuation.enter at the bottom.
 * @requires os.family == "linux" & vm.gc.G1
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFrames::loop
 *                          -XX:+UseG1GC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFrames whole
 */

/*
 * @test id=parallel
 * @requires os.family == "linux" & vm.gc.Parallel
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFrames::loop
 *                          -XX:+UseParallelGC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFrames whole
 */

/*
 * @test id=serial
 * @requires os.family == "linux" & vm.gc.Serial
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFrames::loop
 *                          -XX:+UseSerialGC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFrames whole
 */

/*
 * @test id=interpreted
 * @requires os.family == "linux" & vm.gc.G1
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFrames::loop
 *                          -XX:+UseG1GC -Xint -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFrames whole
 */

/*
 * @test id=g1-collections
 * @summary The same while a platform thread allocates, so that collections
 *          move objects (the stack chunks among them) between the walks: no
 *          walk is wrong, and walks still read frames in the heap.
 * @requires os.family == "linux" & vm.gc.G1
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFrames::loop
 *                          -XX:+UseG1GC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFrames read collections
 */

/*
 * @test id=parallel-collections
 * @requires os.family == "linux" & vm.gc.Parallel
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFrames::loop
 *                          -XX:+UseParallelGC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFrames read collections
 */

/*
 * @test id=serial-collections
 * @requires os.family == "linux" & vm.gc.Serial
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFrames::loop
 *                          -XX:+UseSerialGC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFrames read collections
 */

/*
 * @test id=z
 * @summary Under ZGC and Shenandoah, which relocate objects while Java code
 *          runs, no signal-handler walk reads a frame in the heap, while
 *          collections run.
 * @requires os.family == "linux" & vm.gc.Z
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFrames::loop
 *                          -XX:+UseZGC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFrames refused collections
 */

/*
 * @test id=shenandoah
 * @requires os.family == "linux" & vm.gc.Shenandoah
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFrames::loop
 *                          -XX:+UseShenandoahGC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFrames refused collections
 */

import java.util.ArrayList;
import java.util.List;

public class AsgstHandlerHeapFrames {
    static {
        System.loadLibrary("AsgstHandlerHeapFrames");
    }

    // Frames of deep() below loop(): deep(DEPTH) down to deep(0).
    static final int DEPTH = 60;
    static final int VIRTUAL_THREADS = 8;
    // Enough walks in loop() for the 1% bound of "whole" to be several walks.
    static final int MIN_WALKS_IN_LOOP = 2000;
    // "read" and "refused" bound no share of loop()'s walks: they need only
    // show that loop() ran while sampled, its frames frozen below it.
    static final int MIN_WALKS_IN_LOOP_UNBOUNDED = 200;

    // Samples the calling OS thread (a carrier) every intervalMicros of
    // wall-clock time, once per carrier; the first call names the methods.
    private static native void sampleThisCarrier(int intervalMicros, int deepFrames);
    // The walks so far whose top frame is loop(), sampling on.
    private static native long walksInLoop();
    // Stops sampling; returns the counts named in COUNTS.
    private static native long[] stopSampling();
    // The first wrong walk, frame by frame, or null.
    private static native String firstWrongWalk();
    // The top frames' methods of the walks outside loop(), with their walks.
    private static native String topMethodsOutsideLoop();

    static final String[] COUNTS = {
        "walks", "walks in loop", "whole in loop", "ended in heap in loop", "other errors in loop",
        "wrong walks", "walks with heap frames", "walks ended in heap",
        "walks from a frame", "walks from a frame with heap frames",
        "walks refused", "walks refused in an unsafe state (a collection)"
    };

    static volatile boolean running = true;
    static volatile long sink;
    static volatile Object[] retained = new Object[4096];

    public static void main(String[] args) throws Exception {
        String expected = args[0];  // whole, read or refused
        boolean collections = args.length > 1 && args[1].equals("collections");
        // An emulator (make test-aarch64) runs the VM many times slower: the
        // interval and the time grow alike.
        int factor = Integer.getInteger("asgst.time.factor", 1);
        Thread allocator = Thread.ofPlatform().start(collections ? AsgstHandlerHeapFrames::allocate : () -> { });
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < VIRTUAL_THREADS; t++) {
            threads.add(Thread.ofVirtual().start(() -> {
                sampleThisCarrier(100 * factor, DEPTH + 1);
                sink += deep(DEPTH);
            }));
        }
        // Enough walks in loop() for a 1% share to be several walks. How much
        // of a carrier's time loop() takes beside its yields differs by
        // collector, CPU and emulator: under Parallel and Serial most walks
        // outside loop() stand in yield (x86_64, with 20,000 iterations of
        // compute() a yield: 70% of the walks, against 0.1% with G1; under
        // qemu's aarch64 up to 99% in some runs, 7% in others), or are
        // refused during a collection. compute() does 200,000 a yield, and
        // the sampling goes on, a second at a time (up to 16 more), until
        // loop() has its walks.
        int minWalksInLoop = expected.equals("whole") ? MIN_WALKS_IN_LOOP : MIN_WALKS_IN_LOOP_UNBOUNDED;
        Thread.sleep(4000L * factor);
        for (int extra = 0; walksInLoop() < minWalksInLoop && extra < 16; extra++) {
            Thread.sleep(1000L * factor);
        }
        running = false;
        for (Thread t : threads) {
            t.join();
        }
        allocator.join();
        long[] r = stopSampling();
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < COUNTS.length; i++) {
            line.append(i == 0 ? "" : ", ").append(r[i]).append(' ').append(COUNTS[i]);
        }
        System.out.println(line);
        System.out.println("top frames outside loop(): " + topMethodsOutsideLoop());
        String wrong = firstWrongWalk();
        if (wrong != null) {
            System.out.println("first wrong walk: " + wrong);
        }
        long inLoop = r[1];
        check(inLoop >= minWalksInLoop, "too few walks in loop(): " + inLoop);
        check(r[5] == 0, r[5] + " wrong walks: a walk that ended at the bottom without all of deep()'s frames");
        // One walk in four is by ASGST_RunWithIteratorFromFrame (x86_64 and
        // aarch64), held to the same rule.
        boolean fromFrame = r[8] > 0;
        switch (expected) {
            case "whole" -> {
                // The goal of whole stacks, with collections as rare as the
                // workload makes them: loop() and compute() run Java code
                // only, where the rule lets a walk read the heap. What may fall
                // short: walks while the thread stands at a safepoint (its
                // state is then not "in Java"), and walks whose pc is in a
                // stub that the loop called.
                check(r[2] * 100 >= inLoop * 99,
                      "fewer than 99% of the walks in loop() were whole: " + r[2] + " of " + inLoop);
                check(!fromFrame || r[9] > 0, "no walk from a frame read frames in the heap");
            }
            case "read" -> {
                // With frequent collections, walks while the thread stands
                // at a safepoint for one end at the heap frames, by the rule:
                // no share of whole walks is required, but walks in Java code
                // between the collections still read the heap.
                check(r[6] > 0, "no walk read frames in the heap");
                check(!fromFrame || r[9] > 0, "no walk from a frame read frames in the heap");
            }
            case "refused" -> {
                // The collector relocates objects while Java code runs: no
                // walk in a signal handler may read a stack chunk.
                check(r[6] == 0, r[6] + " walks read frames in the heap under a collector that moves them concurrently");
                check(r[7] > 0, "no walk ended at frames in the heap: the yields did not leave frames frozen");
            }
            default -> throw new IllegalArgumentException(expected);
        }
    }

    static long deep(int depth) {
        if (depth == 0) {
            return loop();
        }
        return deep(depth - 1) + 1;
    }

    // Every @run keeps loop() out of deep()'s compiled code. A walk interrupted
    // in compiled code names the top frame's inlined scopes from the next debug
    // information after the pc (doc/stack-walking.md). deep() inlines itself
    // once, so its code holds two copies of loop(), one per depth, and the
    // next debug information after loop()'s back-edge poll in the first copy
    // can belong to the second: the walk would show one frame of deep() more
    // than the thread has (C1 runs of AsgstHandlerHeapFramesJvmti met it).
    // With loop() compiled apart, a walk whose top is loop() or compute() has
    // every frame from deep() on from a return address (one whose top is
    // deep()'s own code, as the thread descends or returns, does not: the
    // native half allows it one deep() more).
    //
    // Yields after every piece of work: every remount leaves the frames below
    // the youngest ones frozen in the heap.
    static long loop() {
        long x = 0;
        while (running) {
            x += compute(x);
            Thread.yield();
        }
        return x;
    }

    static long compute(long x) {
        for (int i = 0; i < 200_000; i++) {
            x = x * 31 + i;
        }
        return x;
    }

    // Collections while the walks run: short-lived garbage and a few
    // survivors that replace each other, so that objects move.
    static void allocate() {
        int i = 0;
        while (running) {
            byte[] b = new byte[512 + (i & 1023)];
            if ((i & 63) == 0) {
                retained[(i >>> 6) & (retained.length - 1)] = b;
            }
            i++;
        }
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
