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
 * @summary Fuzzing: a SIGPROF handler calls every signal-safe function of profile.h
 *          with mutated contexts (random, near, code, metadata, stack, unmapped,
 *          kernel and misaligned values, mutated again and again) and garbage
 *          handles while the thread runs interpreted, compiled and allocating
 *          code. The VM must not crash or hang.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "x86_64" | os.arch == "aarch64")
 * @run main/othervm/native AsgstFuzzContexts 3
 */

/*
 * @test id=interpreted
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "x86_64" | os.arch == "aarch64")
 * @run main/othervm/native -Xint AsgstFuzzContexts 2
 */

/*
 * @test id=compiled
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "x86_64" | os.arch == "aarch64")
 * @run main/othervm/native -Xcomp -XX:CompileCommand=quiet -XX:+UseZGC AsgstFuzzContexts 2
 */

/*
 * @test id=virtual
 * @summary The same while the sampled thread is the one carrier of four
 *          virtual threads that freeze and thaw their frames all the time
 *          (they yield at the bottom of their recursions): contexts land in
 *          the freeze and thaw stubs, the return barrier and the
 *          continuations' entries. The virtual threads also walk themselves
 *          from a native method with ASGST_NOT_IN_SIGNAL_HANDLER and mutated
 *          frames: walks that enter the VM and read the frames frozen in the
 *          heap, begun from garbage. Under G1, where signal handlers' walks
 *          may read frames in the heap too (doc/stack-walking.md, "Frames in
 *          the heap"), they must, and no walk may hold a frame twice. A
 *          platform thread allocates throughout, so that collections run
 *          meanwhile (at least 3).
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "x86_64" | os.arch == "aarch64")
 * @requires vm.gc.G1
 * @run main/othervm/native -XX:+UseG1GC -Djdk.virtualThreadScheduler.parallelism=1
 *      -Djdk.virtualThreadScheduler.maxPoolSize=1 AsgstFuzzContexts 3 virtual heap-readable
 */

/*
 * @test id=virtual-z
 * @summary The same under ZGC, which relocates objects while Java code runs:
 *          no signal handler's walk may read a frame in the heap.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "x86_64" | os.arch == "aarch64")
 * @requires vm.gc.Z
 * @run main/othervm/native -XX:+UseZGC -Djdk.virtualThreadScheduler.parallelism=1
 *      -Djdk.virtualThreadScheduler.maxPoolSize=1 AsgstFuzzContexts 3 virtual heap-refused
 */
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

public class AsgstFuzzContexts {
    static {
        System.loadLibrary("AsgstFuzzContexts");
    }

    static native void start(int intervalMicros, long otherStack);
    static native long[] stop();
    static native long stackAddress();
    // Walks the calling thread rounds times with ASGST_NOT_IN_SIGNAL_HANDLER,
    // from its true frame and from mutated ones.
    static native void fuzzFromNative(int rounds);

    static volatile Object sink;

    // Computes and allocates: the work at the bottom of a recursion.
    static long work(long x) {
        long r = x;
        for (int i = 0; i < 2000; i++) {
            r = r * 31 + i;
        }
        sink = new long[16];
        return r;
    }

    static long recurse(int depth, long x) {
        if (depth == 0) {
            return work(x);
        }
        return recurse(depth - 1, x + depth) + 1;
    }

    // As recurse(), with an unmount at the bottom now and then (the frames
    // below are frozen, and only the top ones thawed when it mounts again),
    // and walks from a native method after it.
    static long recurseVirtual(int depth, long x) {
        if (depth == 0) {
            long r = work(x);
            if ((x & 3) != 0) {
                Thread.yield();
                if ((x & 1) != 0) {
                    fuzzFromNative(4);
                }
            }
            return r;
        }
        return recurseVirtual(depth - 1, x + depth) + 1;
    }

    static void fuzz(long seconds) {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += recurse((int) (x & 63), x);
        }
    }

    static void fuzzVirtual(long seconds, int id) {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long x = id;
        while (System.nanoTime() < end) {
            x += recurseVirtual((int) (x & 63), x) | 1;
        }
    }

    static volatile boolean fuzzing = true;
    static volatile Object[] retained = new Object[4096];

    // Short-lived garbage and a few survivors that replace each other, so
    // that collections run and move objects.
    static void allocate() {
        for (int i = 0; fuzzing; i++) {
            byte[] b = new byte[512 + (i & 1023)];
            if ((i & 63) == 0) {
                retained[(i >>> 6) & (retained.length - 1)] = b;
            }
        }
    }

    // Collections of every collector of this VM so far.
    static long collections() {
        long count = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
        }
        return count;
    }

    public static void main(String[] args) throws Exception {
        // make test-stress sets the property to run longer than the fast tier's seconds.
        long seconds = Long.getLong("asgst.fuzz.seconds", Long.parseLong(args[0]));
        // The signals' interval. A handler that runs longer than it starves
        // the thread it samples, which then never reaches the end of its
        // seconds: an emulator (make test-aarch64) sets a longer one.
        int intervalMicros = Integer.getInteger("asgst.fuzz.interval.micros", 200);
        long signals = seconds * 1_000_000 / intervalMicros;
        boolean virtual = args.length > 1 && args[1].equals("virtual");
        long otherStack = stackAddress();
        // For the virtual threads' walks: whether the collector lets a signal
        // handler's walk read frames in the heap (doc/stack-walking.md).
        boolean heapReadable = args.length > 2 && args[2].equals("heap-readable");
        long[] result = new long[10];
        long collectionsBefore = collections();
        if (virtual) {
            // One carrier (the scheduler's parallelism is 1) runs every
            // virtual thread: the timer that start() makes for the calling
            // thread samples it, whichever virtual thread it runs.
            Thread.ofVirtual().start(() -> start(intervalMicros, otherStack)).join();
            // A platform thread allocates meanwhile: collections move the
            // stack chunks (G1) or relocate them concurrently (ZGC) while the
            // walks run.
            Thread allocator = Thread.ofPlatform().start(AsgstFuzzContexts::allocate);
            Thread[] threads = new Thread[4];
            for (int i = 0; i < threads.length; i++) {
                final int id = i;
                threads[i] = Thread.ofVirtual().start(() -> fuzzVirtual(seconds, id));
            }
            for (Thread t : threads) {
                t.join();
            }
            fuzzing = false;
            allocator.join();
            Thread.ofVirtual().start(() -> System.arraycopy(stop(), 0, result, 0, result.length)).join();
        } else {
            Thread worker = new Thread(() -> {
                start(intervalMicros, otherStack);
                fuzz(seconds);
                long[] r = stop();
                System.arraycopy(r, 0, result, 0, r.length);
            });
            worker.start();
            worker.join();
        }
        System.out.println(result[0] + " fuzzed calls, " + result[1] + " walks with frames, " + result[2]
                           + " frame marks set, " + result[3] + " marks reached, " + result[5]
                           + " frames from the heap in walks from native code, " + result[6]
                           + " in signal handlers' walks, " + result[7] + " in queue walks, no crash");
        System.out.println(result[8] + " walks with more frames of recurseVirtual() than it has, "
                           + (collections() - collectionsBefore) + " collections meanwhile, "
                           + result[9] + " enqueuable elements without an sp");
        // Its recursion is at most 64 frames deep: a walk with more holds a
        // frame twice (on the stack and again in the heap, read while a
        // freeze or thaw was under way) or made one up. (A walk begun from a
        // mutated context counts only frames above the true context's sp and
        // in the heap: the native library says why.)
        if (result[8] != 0) {
            throw new RuntimeException(result[8] + " walks with more frames of recurseVirtual() than its recursion has");
        }
        // An element records a frame on the stack: one without an sp came
        // from a frame in the heap, whose sp is no address.
        if (result[9] != 0) {
            throw new RuntimeException(result[9] + " enqueuable elements without an sp");
        }
        // The allocator makes collections run while the virtual threads are
        // fuzzed: measured 12-15 in 3 s (release, 2 cores, beside other
        // builds and tests); fewer than 3 would leave the walks of the run
        // almost without moved stack chunks.
        long collections = collections() - collectionsBefore;
        if (virtual && collections < 3) {
            throw new RuntimeException("only " + collections + " collections while fuzzing");
        }
        if (virtual && heapReadable && result[6] == 0) {
            // The collector lets handlers' walks of a thread in Java code
            // read the heap; the true contexts land there most of the time.
            throw new RuntimeException("no signal handler's walk read frames in the heap");
        }
        if (!heapReadable && result[6] != 0) {
            // Not a virtual thread (default ids: a frame with a null sp came
            // from nowhere), or a collector that moves objects concurrently.
            throw new RuntimeException(result[6] + " frames with a null sp in signal handlers' walks");
        }
        // The virtual threads walk themselves from fuzzFromNative() right
        // after some of their unmounts, with the recursion's frames below
        // frozen; a third of those walks begin at the true frame. If none
        // read the heap, the walks meant to fuzz that path never reached it.
        if (virtual && result[5] == 0) {
            throw new RuntimeException("no walk from native code reached frames in the heap");
        }
        // Each signal makes hundreds of calls (1 to 8 mutated walks of its
        // frames, and more): 4 a signal (20,000 a second at 200 us) leaves
        // a loaded machine room.
        if (result[0] < 4 * signals) {
            throw new RuntimeException("too few fuzzed calls: " + result[0] + " for " + signals + " signals");
        }
        // Where frame marks work they must have been set: each signal walks
        // the true context, at least the ten frames of recurse, and tries a
        // mark after each frame with odds of about 1 in 25 (1/8, the
        // registered owner 7/8, a valid slot 2/5) that succeed on Java frames
        // but the top; one in 50 signals (100 a second at 200 us) leaves a
        // loaded machine room.
        if (result[4] == 1 && result[2] < signals / 50) {
            throw new RuntimeException("too few frame marks set: " + result[2]);
        }
    }
}
