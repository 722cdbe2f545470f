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

import java.util.ArrayList;
import java.util.List;

// Virtual threads with deep stacks that yield all the time: each recurses
// DEPTH + 1 frames of deep() into loop(), which computes a piece of work and
// yields after each. Every remount leaves all but the youngest frames frozen
// in the heap, which a sampling profiler must read to show the whole stack.
// Usage: DeepVirtualThreads SECONDS [THREADS]
public class DeepVirtualThreads {
    static final int DEPTH = 60;
    static volatile boolean running = true;
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            started.add(Thread.ofVirtual().start(() -> sink += deep(DEPTH)));
        }
        Thread.sleep(seconds * 1000);
        running = false;
        for (Thread t : started) {
            t.join();
        }
    }

    static long deep(int depth) {
        if (depth == 0) {
            return loop();
        }
        return deep(depth - 1) + 1;
    }

    static long loop() {
        long x = 0;
        while (running) {
            x += compute(x);
            Thread.yield();
        }
        return x;
    }

    static long compute(long x) {
        for (int i = 0; i < 100_000; i++) {
            x = x * 31 + i;
        }
        return x;
    }
}
