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
 */

/*
 * The paths that ASGST hooks, with no profiler attached: for the cost of the
 * API when nobody uses it (bench/run-unused-cost-benchmark.sh). Each part runs
 * a fixed amount of work after a warm-up and prints "part NAME NS_PER_OP":
 *
 *   calls      deep recursion: calls and returns, each return passing a poll
 *   exceptions an exception thrown through 16 frames and caught
 *   polls      a thread asks for all stack traces (a safepoint each time)
 *              while two threads run loops: every thread passes the
 *              safepoint's slow path, where the queue hook sits
 *   threads    platform threads started and joined (the thread table hooks)
 *   yields     virtual threads yielding (continuation freeze and thaw)
 */
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

public class UnusedCost {
    static volatile long sink;

    static int depth(int n) {
        return n == 0 ? 0 : 1 + depth(n - 1);
    }

    static long calls(int ops) {
        long s = 0;
        for (int i = 0; i < ops; i++) {
            s += depth(200);
        }
        return s;
    }

    static void thrower(int n) {
        if (n == 0) {
            throw new IllegalStateException();
        }
        thrower(n - 1);
    }

    static long exceptions(int ops) {
        long s = 0;
        for (int i = 0; i < ops; i++) {
            try {
                thrower(16);
            } catch (IllegalStateException e) {
                s++;
            }
        }
        return s;
    }

    static long polls(int ops) throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        Thread[] loops = new Thread[2];
        for (int t = 0; t < loops.length; t++) {
            loops[t] = new Thread(() -> {
                while (!done.get()) {
                    sink += depth(50);
                }
            });
            loops[t].start();
        }
        long s = 0;
        for (int i = 0; i < ops; i++) {
            s += Thread.getAllStackTraces().size();
        }
        done.set(true);
        for (Thread t : loops) {
            t.join();
        }
        return s;
    }

    static long threads(int ops) throws Exception {
        for (int i = 0; i < ops; i++) {
            Thread t = new Thread(() -> sink++);
            t.start();
            t.join();
        }
        return ops;
    }

    static long yields(int ops) throws Exception {
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < 4; t++) {
                executor.submit(() -> {
                    for (int i = 0; i < ops / 4; i++) {
                        depth(20);
                        Thread.yield();
                    }
                });
            }
        }
        return ops;
    }

    interface Part {
        long run(int ops) throws Exception;
    }

    static void part(String name, Part part, int ops) throws Exception {
        sink += part.run(ops / 10);  // warm-up: compiled code for the timed run
        long start = System.nanoTime();
        sink += part.run(ops);
        long elapsed = System.nanoTime() - start;
        System.out.printf("part %s %.1f%n", name, (double) elapsed / ops);
    }

    public static void main(String[] args) throws Exception {
        part("calls", UnusedCost::calls, 400_000);
        part("exceptions", UnusedCost::exceptions, 400_000);
        part("polls", UnusedCost::polls, 4_000);
        part("threads", UnusedCost::threads, 4_000);
        part("yields", UnusedCost::yields, 400_000);
    }
}
