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
 * @summary Signal-handler walks of virtual threads, judged frame by frame by
 *          JVMTI. A walk taken while a virtual thread runs compute() is kept
 *          for its carrier until the thread calls judge(), a native method
 *          that it calls as soon as compute() returns, before it can unmount;
 *          there JVMTI GetStackTrace of the current (virtual) thread must show
 *          the walk's frames below loop(): the same methods at the same bcis,
 *          down to Continuation.enter for a complete walk, as far as it went
 *          for one that ended with ASGST_FRAMES_IN_HEAP. Every remount leaves
 *          the frames below the youngest ones frozen in the heap, and a
 *          platform thread allocates so that collections move them.
 * @requires os.family == "linux" & vm.gc.G1
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFramesJvmti::loop
 *                          -XX:+UseG1GC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFramesJvmti read
 */

/*
 * @test id=parallel
 * @requires os.family == "linux" & vm.gc.Parallel
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFramesJvmti::loop
 *                          -XX:+UseParallelGC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFramesJvmti read
 */

/*
 * @test id=serial
 * @requires os.family == "linux" & vm.gc.Serial
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFramesJvmti::loop
 *                          -XX:+UseSerialGC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFramesJvmti read
 */

/*
 * @test id=interpreted
 * @requires os.family == "linux" & vm.gc.G1
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFramesJvmti::loop
 *                          -XX:+UseG1GC -Xint -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFramesJvmti read
 */

/*
 * @test id=c1
 * @requires os.family == "linux" & vm.gc.G1 & vm.compiler1.enabled
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFramesJvmti::loop
 *                          -XX:+UseG1GC -XX:TieredStopAtLevel=1 -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFramesJvmti read
 */

/*
 * @test id=z
 * @summary Under ZGC and Shenandoah, which relocate objects while Java code
 *          runs, the walks end at the first frame in the heap: what they did
 *          show is judged by JVMTI the same way.
 * @requires os.family == "linux" & vm.gc.Z
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFramesJvmti::loop
 *                          -XX:+UseZGC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFramesJvmti refused
 */

/*
 * @test id=shenandoah
 * @requires os.family == "linux" & vm.gc.Shenandoah
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstHandlerHeapFramesJvmti::loop
 *                          -XX:+UseShenandoahGC -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2
 *                          AsgstHandlerHeapFramesJvmti refused
 */

import java.util.ArrayList;
import java.util.List;

public class AsgstHandlerHeapFramesJvmti {
    static {
        System.loadLibrary("AsgstHandlerHeapFramesJvmti");
    }

    // Frames of deep() below loop(), as in AsgstHandlerHeapFrames.
    static final int DEPTH = 60;
    static final int VIRTUAL_THREADS = 8;

    // Samples the calling OS thread (a carrier) every intervalMicros of
    // wall-clock time, once per carrier; the first call names the methods.
    private static native void sampleThisCarrier(int intervalMicros);
    // Judges the walk kept for this carrier, if there is one, by JVMTI's
    // stack trace of the current thread. Returns 1 if it judged one.
    private static native int judge();
    // Stops sampling; returns the counts named in COUNTS.
    private static native long[] stopSampling();
    // The first walk that JVMTI contradicted, frame by frame, or null.
    private static native String firstMismatch();

    static final String[] COUNTS = {
        "signals", "walks kept in compute()", "judged", "judged complete", "judged with frames from the heap",
        "judged ended in heap", "judged with another end", "mismatches"
    };

    static volatile boolean running = true;
    static volatile long sink;
    static volatile Object[] retained = new Object[4096];

    public static void main(String[] args) throws Exception {
        boolean read = args[0].equals("read");  // read or refused
        // An emulator (make test-aarch64) runs the VM many times slower: the
        // interval and the time grow alike.
        int factor = Integer.getInteger("asgst.time.factor", 1);
        Thread allocator = Thread.ofPlatform().start(AsgstHandlerHeapFramesJvmti::allocate);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < VIRTUAL_THREADS; t++) {
            threads.add(Thread.ofVirtual().start(() -> {
                sampleThisCarrier(100 * factor);
                sink += deep(DEPTH);
            }));
        }
        Thread.sleep(4000L * factor);
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
        String mismatch = firstMismatch();
        if (mismatch != null) {
            System.out.println("first mismatch: " + mismatch);
        }
        check(r[7] == 0, r[7] + " walks differ from JVMTI's stack trace of the same thread");
        // Two carriers sampled every 100 us for 4 s take about 80,000
        // signals, most of them in compute(), and a loop iteration (about
        // 30 us) judges at most one walk per carrier: fewer than 1,000 judged
        // walks would mean that the comparison hardly ran.
        check(r[2] >= 1000, "too few walks judged: " + r[2]);
        if (read) {
            // The collector moves objects only at safepoints: walks in
            // compute() read the frames in the heap, except the few taken
            // while the thread stood at a safepoint (collections, the
            // allocator's). A tenth of the judged walks is far below what
            // AsgstHandlerHeapFrames finds (over 96% with collections) and
            // far above none.
            check(r[4] * 10 >= r[2], "fewer than a tenth of the judged walks read frames in the heap: " + r[4]);
        } else {
            check(r[4] == 0, r[4] + " walks read frames in the heap under a collector that moves them concurrently");
            check(r[5] > 0, "no walk ended at frames in the heap: the yields did not leave frames frozen");
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
    // than the thread has (C1 runs met it). With loop() compiled apart, a walk
    // kept in compute() has every frame from deep() on from a return address.
    //
    // judge() comes right after compute(): a walk kept in compute() is judged
    // by the same virtual thread, on the same carrier, before the yield.
    static long loop() {
        long x = 0;
        while (running) {
            x += compute(x);
            x += judge();
            Thread.yield();
        }
        return x;
    }

    static long compute(long x) {
        for (int i = 0; i < 20_000; i++) {
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
