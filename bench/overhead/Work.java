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
 * A fixed amount of mixed work on four threads, made of the demo workload's
 * pieces (sample-profiler/demo/Workload.java: recursion, a hot loop, string
 * building, boxing and streams), for overhead measurements: prints the
 * elapsed milliseconds.
 */
import java.util.ArrayList;
import java.util.List;

public class Work {
    static volatile long sink;

    static void unit(int rounds) {
        for (int i = 0; i < rounds; i++) {
            sink += Workload.fib(20) + Workload.mix(sink) + Workload.words(500).length() + Workload.boxes(1_000);
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 36_000;
        unit(rounds / 10);  // warm up
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> unit(rounds));
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        System.out.println((System.nanoTime() - start) / 1_000_000);
    }
}
