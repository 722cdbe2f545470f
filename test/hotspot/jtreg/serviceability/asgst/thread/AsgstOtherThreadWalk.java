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
 * @summary A sampler thread halts other threads with a signal and walks them with
 *          ASGST_RunWithIteratorOfThread and AsyncGetStackTrace: platform threads
 *          (Java frames only, and with C frames), a waiting thread and its state,
 *          a virtual thread with and without its carrier's frames, GC, VM and
 *          compiler threads, and threads that have exited.
 * @requires os.family == "linux" & vm.compiler2.enabled
 * @run main/othervm/native -Djdk.virtualThreadScheduler.parallelism=1
 *      -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstOtherThreadWalk::hot
 *      AsgstOtherThreadWalk all
 */

/*
 * @test id=gc
 * @requires os.family == "linux"
 * @run main/othervm/native -XX:+UseSerialGC -Xmx1g AsgstOtherThreadWalk gc
 */

/*
 * @test id=c1-stub
 * @summary A thread blocked in a runtime stub of compiled code (C1's or C2's
 *          monitor-enter stub, which called into the VM) walks completely.
 * @requires os.family == "linux" & vm.compiler1.enabled
 * @run main/othervm/native -XX:TieredStopAtLevel=1 -Xbatch AsgstOtherThreadWalk stub
 */

/*
 * @test id=c2-stub
 * @requires os.family == "linux" & vm.compiler2.enabled
 * @run main/othervm/native -XX:-TieredCompilation -Xbatch AsgstOtherThreadWalk stub
 */

/*
 * @test id=interpreted
 * @requires os.family == "linux"
 * @run main/othervm/native -Xint AsgstOtherThreadWalk platform
 */

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

public class AsgstOtherThreadWalk {
    static {
        System.loadLibrary("AsgstOtherThreadWalk");
    }

    static native int currentTid();
    static native long currentEnv();
    // Two strings per sample, iterator walk then AsyncGetStackTrace: "result state frames".
    static native String[] sample(int tid, long env, int options, int callTraceOptions, int acceptedStates,
                                  int count, int intervalMicros);

    // The same options for both walks.
    static String[] sample(int tid, long env, int options, int acceptedStates, int count, int intervalMicros) {
        return sample(tid, env, options, options, acceptedStates, count, intervalMicros);
    }
    // {RunWithIteratorOfThread result, AsyncGetStackTrace num_frames, handler called}
    static native int[] walkWithoutSignal(int tid, long env);

    // profile.h and jvmti.h values.
    static final int C_FRAMES = 1, NON_JAVA_THREADS = 2, UNSAFE_STATES = 4, CARRIER_FRAMES = 32;
    static final int JAVA_TRACE = 1, CPP_TRACE = 2, GC_TRACE = 4, DEOPT_TRACE = 8;
    static final int NO_THREAD = -1, THREAD_EXIT = -2, UNSAFE_STATE = -3, WRONG_STATE = -8;
    static final int STATE_RUNNABLE = 0x4, STATE_WAITING = 0x80, STATE_IN_OBJECT_WAIT = 0x100;

    static final String SELF = "LAsgstOtherThreadWalk;";
    static final String HOT = SELF + ".hot";

    static volatile boolean stop;
    static volatile long sink;

    static void hot() {
        long x = sink;
        for (int i = 0; i < 1000; i++) {
            x = x * 31 + i;
        }
        sink = x;
    }

    static void spin() {
        while (!stop) {
            hot();
        }
    }

    record Walk(int result, int state, List<String> frames) {
        static Walk parse(String text) {
            String[] parts = text.split(" ", 3);
            List<String> frames = parts[2].isEmpty() ? List.of() : List.of(parts[2].split("\\|"));
            return new Walk(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), frames);
        }
        List<String> javaFrames() {
            return frames.stream().filter(f -> !f.equals("@")).toList();
        }
        String top() {
            List<String> java = javaFrames();
            return java.isEmpty() ? "" : java.get(0);
        }
        String bottom() {
            List<String> java = javaFrames();
            return java.isEmpty() ? "" : java.get(java.size() - 1);
        }
    }

    record Samples(List<Walk> iterator, List<Walk> callTrace) {
        static Samples of(String[] texts) {
            List<Walk> iterator = new ArrayList<>();
            List<Walk> callTrace = new ArrayList<>();
            for (int i = 0; i < texts.length; i += 2) {
                iterator.add(Walk.parse(texts[i]));
                callTrace.add(Walk.parse(texts[i + 1]));
            }
            return new Samples(iterator, callTrace);
        }
        int size() {
            return iterator.size();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("gc")) {
            duringCollections();
            System.out.println("all checks passed");
            return;
        }
        if (args[0].equals("stub")) {
            blockedInStub();
            System.out.println("all checks passed");
            return;
        }
        boolean all = args[0].equals("all");
        platformThread();
        waitingThread();
        if (all) {
            virtualThread();
            nonJavaThreads();
        }
        System.out.println("all checks passed");
    }

    static Thread startWorker(Runnable body, int[] tid, long[] env) throws Exception {
        Thread worker = new Thread(() -> {
            tid[0] = currentTid();
            env[0] = currentEnv();
            body.run();
        }, "worker");
        worker.start();
        while (tid[0] == 0) {
            Thread.sleep(1);
        }
        return worker;
    }

    static void platformThread() throws Exception {
        stop = false;
        int[] tid = new int[1];
        long[] env = new long[1];
        Thread worker = startWorker(AsgstOtherThreadWalk::spin, tid, env);
        Thread.sleep(300);  // let spin() and hot() compile

        Samples plain = Samples.of(sample(tid[0], env[0], 0, 0, 300, 300));
        checkJavaSamples("platform thread", plain, "Ljava/lang/Thread;.run");
        for (Walk w : plain.iterator) {
            check(!w.frames.contains("@"), "C frame without ASGST_INCLUDE_NON_JAVA_FRAMES: " + w);
        }

        Samples mixed = Samples.of(sample(tid[0], env[0], C_FRAMES, 0, 300, 300));
        checkJavaSamples("platform thread with C frames", mixed, "Ljava/lang/Thread;.run");
        for (Walk w : mixed.iterator) {
            if (w.result > 0) {
                // Below Thread.run: the call stub and the VM's thread start, down to the chain's end.
                check(w.frames.get(w.frames.size() - 1).equals("@") && w.frames.size() >= w.javaFrames().size() + 3,
                      "expected C frames below the Java frames: " + w);
            }
        }

        Samples wrongState = Samples.of(sample(tid[0], env[0], 0, STATE_WAITING, 50, 300));
        check(wrongState.size() >= 45, "too few samples: " + wrongState.size());
        for (Walk w : wrongState.callTrace) {
            check(w.result == WRONG_STATE && (w.state & STATE_RUNNABLE) != 0,
                  "a running thread and accepted state WAITING must give WRONG_STATE: " + w);
        }

        stop = true;
        worker.join();
        // join() returns while the thread still runs the VM's exit code: it is exiting.
        int[] gone = walkWithoutSignal(tid[0], env[0]);
        for (long deadline = System.nanoTime() + 10_000_000_000L;
             (gone[0] == THREAD_EXIT || gone[1] == THREAD_EXIT) && System.nanoTime() < deadline; ) {
            check(gone[2] == 0, "the handler was called for an exiting thread");
            Thread.sleep(1);
            gone = walkWithoutSignal(tid[0], env[0]);
        }
        check(gone[0] == NO_THREAD && gone[1] == NO_THREAD && gone[2] == 0,
              "an exited thread must give ASGST_NO_THREAD: " + gone[0] + " " + gone[1] + " " + gone[2]);
        System.out.println("platform thread: checked " + plain.size() + " + " + mixed.size() + " samples");
    }

    static void waitingThread() throws Exception {
        Object lock = new Object();
        int[] tid = new int[1];
        long[] env = new long[1];
        Thread waiter = startWorker(() -> {
            synchronized (lock) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    // the end of the test
                }
            }
        }, tid, env);
        Thread.sleep(200);
        Samples s = Samples.of(sample(tid[0], env[0], 0, 0, 20, 1000));
        check(s.size() == 20, "expected 20 samples, got " + s.size());
        for (int i = 0; i < s.size(); i++) {
            Walk it = s.iterator.get(i);
            Walk ct = s.callTrace.get(i);
            check(it.result == JAVA_TRACE && ct.result == JAVA_TRACE, "walks of a waiting thread: " + it + " / " + ct);
            check(it.frames.equals(ct.frames), "iterator and AsyncGetStackTrace differ: " + it + " / " + ct);
            check(it.top().startsWith("Ljava/lang/Object;.wait"), "top frame of a waiting thread: " + it);
            check((ct.state & (STATE_WAITING | STATE_IN_OBJECT_WAIT)) == (STATE_WAITING | STATE_IN_OBJECT_WAIT),
                  "state of a thread in Object.wait: 0x" + Integer.toHexString(ct.state));
        }
        waiter.interrupt();
        waiter.join();
        System.out.println("waiting thread: checked " + s.size() + " samples");
    }

    static final Object LOCK = new Object();
    static long lockedCalls;

    static void lockedCall() {
        synchronized (LOCK) {
            lockedCalls++;
        }
    }

    static void lockLoop() {
        while (!stop) {
            lockedCall();
        }
    }

    // Compiled code enters a contended monitor through a runtime stub that calls
    // into the VM, where the thread blocks; frame::safe_for_sender never takes
    // such a stub's frame for complete (the stress tier found walks of these
    // threads failing with ASGST_BROKEN_FRAME).
    static void blockedInStub() throws Exception {
        stop = false;
        int[] tid = new int[1];
        long[] env = new long[1];
        Thread worker = startWorker(AsgstOtherThreadWalk::lockLoop, tid, env);
        Thread.sleep(500);  // lockLoop and lockedCall compile (-Xbatch)
        Samples s;
        synchronized (LOCK) {
            Thread.sleep(100);  // the worker blocks on LOCK
            s = Samples.of(sample(tid[0], env[0], 0, 0, 50, 1000));
        }
        Samples mixed;
        synchronized (LOCK) {
            Thread.sleep(100);
            mixed = Samples.of(sample(tid[0], env[0], C_FRAMES, 0, 50, 1000));
        }
        stop = true;
        worker.join();
        check(s.size() == 50 && mixed.size() == 50, "expected 50 samples each, got " + s.size() + ", " + mixed.size());
        for (Samples samples : List.of(s, mixed)) {
            for (int i = 0; i < samples.size(); i++) {
                Walk it = samples.iterator.get(i);
                Walk ct = samples.callTrace.get(i);
                check(it.result == JAVA_TRACE && ct.result == JAVA_TRACE, "walks of a blocked thread: " + it + " / " + ct);
                check(it.frames.equals(ct.frames), "iterator and AsyncGetStackTrace differ: " + it + " / " + ct);
                check(it.top().startsWith(SELF + ".lockedCall:") && it.top().endsWith(":" + (compiledLevel())),
                      "top frame is not the compiled lockedCall: " + it);
                check(it.bottom().startsWith("Ljava/lang/Thread;.run:"), "bottom frame is not Thread.run: " + it);
            }
        }
        System.out.println("thread blocked in a stub: " + s.iterator.get(0));
    }

    // The level at which -XX:TieredStopAtLevel=1 or -XX:-TieredCompilation compile.
    static int compiledLevel() {
        return java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
                   .contains("-XX:-TieredCompilation") ? 4 : 1;
    }

    static void virtualThread() throws Exception {
        stop = false;
        int[] tid = new int[1];
        long[] env = new long[1];
        Thread vthread = Thread.ofVirtual().start(() -> {
            tid[0] = currentTid();  // the carrier's
            env[0] = currentEnv();
            spin();
        });
        while (tid[0] == 0) {
            Thread.sleep(1);
        }
        Thread.sleep(300);
        Samples own = Samples.of(sample(tid[0], env[0], 0, 0, 200, 300));
        // A virtual thread's own frames end with its continuation's entry.
        checkJavaSamples("virtual thread", own, "Ljdk/internal/vm/Continuation;.enter");
        for (Walk w : own.iterator) {
            check(w.frames.stream().noneMatch(f -> f.contains("ForkJoin")),
                  "carrier frames without ASGST_INCLUDE_CARRIER_FRAMES: " + w);
        }
        Samples carrier = Samples.of(sample(tid[0], env[0], CARRIER_FRAMES, 0, 200, 300));
        checkJavaSamples("virtual thread with its carrier", carrier, "Ljava/util/concurrent/ForkJoinWorkerThread;.run");
        for (Walk w : carrier.iterator) {
            if (w.result > 0) {
                check(w.frames.stream().anyMatch(f -> f.startsWith("Ljava/util/concurrent/ForkJoinWorkerThread;.run")) &&
                      w.frames.stream().anyMatch(f -> f.startsWith("Ljava/lang/VirtualThread;.run")),
                      "expected the virtual thread's and the carrier's frames: " + w);
            }
        }
        stop = true;
        vthread.join();
        System.out.println("virtual thread: checked " + own.size() + " + " + carrier.size() + " samples");
    }

    static volatile Object[] live;

    // A thread stopped for a stop-the-world collection is in an unsafe state:
    // the walk refuses unless ASGST_WALK_DURING_UNSAFE_STATES asks for it.
    // Each sample walks the same halted moment both ways.
    static void duringCollections() throws Exception {
        Object[] data = new Object[300_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = new byte[1024];
        }
        live = data;
        stop = false;
        int[] tid = new int[1];
        long[] env = new long[1];
        Thread worker = startWorker(AsgstOtherThreadWalk::spin, tid, env);
        Thread collector = new Thread(() -> {
            while (!stop) {
                System.gc();
            }
        }, "collector");
        collector.start();
        Thread.sleep(300);
        Samples s = Samples.of(sample(tid[0], env[0], 0, UNSAFE_STATES, 0, 400, 2000));
        stop = true;
        worker.join();
        collector.join();
        check(s.size() >= 380, "too few samples: " + s.size());
        int refused = 0;
        int complete = 0;
        for (int i = 0; i < s.size(); i++) {
            Walk safe = s.iterator.get(i);
            Walk anyway = s.callTrace.get(i);
            if (safe.result == UNSAFE_STATE) {
                refused++;
            } else if (safe.result == JAVA_TRACE) {
                check(safe.frames.equals(anyway.frames), "the two walks differ:\n  " + safe + "\n  " + anyway);
            }
            check(anyway.result != UNSAFE_STATE, "refused despite ASGST_WALK_DURING_UNSAFE_STATES: " + anyway);
            if (anyway.result == JAVA_TRACE && anyway.bottom().startsWith("Ljava/lang/Thread;.run:")) {
                complete++;
            } else {
                System.out.println("incomplete walk: " + anyway);
            }
        }
        System.out.println("during collections: " + refused + " of " + s.size() + " samples refused as unsafe, " +
                           complete + " complete with ASGST_WALK_DURING_UNSAFE_STATES");
        check(refused > 0, "no sample fell into a collection");
        check(complete * 100 >= s.size() * 99, "only " + complete + " of " + s.size() + " complete walks");
    }

    static int tidOf(String name) throws Exception {
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                if (Files.readString(task.resolve("comm")).strip().equals(name)) {
                    return Integer.parseInt(task.getFileName().toString());
                }
            }
        }
        throw new RuntimeException("no thread named " + name);
    }

    static void nonJavaThreads() throws Exception {
        checkNonJavaThread("GC Thread#0", GC_TRACE);
        checkNonJavaThread("VM Thread", CPP_TRACE);
        checkNonJavaThread("C2 CompilerThre", CPP_TRACE);  // the OS keeps 15 characters
    }

    static void checkNonJavaThread(String name, int expectedKind) throws Exception {
        int tid = tidOf(name);
        Samples without = Samples.of(sample(tid, 0, C_FRAMES, 0, 10, 500));
        check(without.size() == 10, name + ": expected 10 samples, got " + without.size());
        for (Walk w : without.iterator) {
            check(w.result == NO_THREAD, name + " without ASGST_INCLUDE_NON_JAVA_THREADS: " + w);
        }
        Samples with = Samples.of(sample(tid, 0, NON_JAVA_THREADS, 0, 50, 500));
        check(with.size() == 50, name + ": expected 50 samples, got " + with.size());
        int expected = 0;
        for (int i = 0; i < with.size(); i++) {
            Walk w = with.iterator.get(i);
            check(w.result == CPP_TRACE || w.result == GC_TRACE, name + ": " + w);
            // An idle thread waits in a libc without frame pointers: the chain may end at once.
            check(w.frames.size() >= 1 && w.javaFrames().isEmpty(), name + ": expected C frames only: " + w);
            if (w.result == expectedKind) {
                expected++;
            }
            // AsyncGetStackTrace names other threads by JNIEnv, which non-Java threads lack.
            check(with.callTrace.get(i).result == NO_THREAD, name + ", AsyncGetStackTrace: " + with.callTrace.get(i));
        }
        check(expected * 10 >= with.size() * 9, name + ": only " + expected + " of " + with.size() +
              " traces of kind " + expectedKind);
        System.out.println(name + ": " + expected + " of " + with.size() + " traces of kind " + expectedKind);
    }

    // Walks of a thread running spin(): complete, equal between the two APIs,
    // hot() on top in most samples, and the expected bottom frame.
    static void checkJavaSamples(String what, Samples s, String bottom) {
        check(s.size() >= 100, what + ": too few samples: " + s.size());
        int complete = 0;
        int hotOnTop = 0;
        for (int i = 0; i < s.size(); i++) {
            Walk it = s.iterator.get(i);
            Walk ct = s.callTrace.get(i);
            check(it.result == ct.result, what + ": results differ: " + it + " / " + ct);
            if (it.result != JAVA_TRACE && it.result != DEOPT_TRACE) {
                System.out.println(what + ": incomplete walk: " + it);
                continue;
            }
            complete++;
            check(it.frames.equals(ct.frames), what + ": iterator and AsyncGetStackTrace differ:\n  " + it + "\n  " + ct);
            check(it.bottom().startsWith(bottom + ":"), what + ": bottom frame is not " + bottom + ": " + it);
            check(it.javaFrames().stream().anyMatch(f -> f.startsWith(SELF + ".spin:")), what + ": no spin(): " + it);
            if (it.top().startsWith(HOT + ":")) {
                hotOnTop++;
            }
        }
        System.out.println(what + ": " + complete + " of " + s.size() + " complete, hot() on top in " + hotOnTop);
        check(complete * 100 >= s.size() * 99, what + ": only " + complete + " of " + s.size() + " walks complete");
        check(hotOnTop * 2 > complete, what + ": hot() on top in only " + hotOnTop + " of " + complete +
              ", for example " + s.iterator.get(0));
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
