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

// The demo workload: a few seconds of CPU work in several shapes (deep
// recursion, a hot loop, string building, boxing), a thread that works at
// the top of a deep stack that stays put for milliseconds, a thread that
// sleeps, and virtual threads that compute and yield.

import java.util.ArrayList;
import java.util.List;

public class Workload {
    static volatile long sink;

    static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static long mix(long seed) {
        long r = seed;
        for (int i = 0; i < 100_000; i++) {
            r = r * 6364136223846793005L + 1442695040888963407L;
        }
        return r;
    }

    static String words(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(Integer.toHexString(i * 31)).append(' ');
        }
        return sb.toString();
    }

    static long boxes(int n) {
        List<Long> list = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            list.add(i);
        }
        return list.stream().mapToLong(Long::longValue).sum();
    }

    // NESTING frames of nested(), then work whose frames come and go above
    // them: 7-10 ms per call here, many sampling intervals.
    static final int NESTING = 40;

    static long nested(int depth) {
        if (depth > 1) {
            return nested(depth - 1) + 1;
        }
        long r = 0;
        for (int i = 0; i < 1000; i++) {
            r += mix(r) + words(200).length();
        }
        return r;
    }

    static void nesting(long end) {
        while (System.nanoTime() < end) {
            sink += nested(NESTING);
        }
    }

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread sleeper = new Thread(() -> {
            while (System.nanoTime() < end) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "sleeper");
        sleeper.start();
        List<Thread> virtualThreads = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            virtualThreads.add(Thread.ofVirtual().start(() -> {
                while (System.nanoTime() < end) {
                    sink += mix(sink);
                    Thread.yield();
                }
            }));
        }
        Thread nester = new Thread(() -> nesting(end), "nesting");
        nester.start();
        while (System.nanoTime() < end) {
            sink += fib(22) + mix(sink) + words(2_000).length() + boxes(5_000);
        }
        sleeper.join();
        nester.join();
        for (Thread t : virtualThreads) {
            t.join();
        }
    }
}
