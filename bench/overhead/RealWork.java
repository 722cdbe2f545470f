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
 * A fixed amount of real work for overhead measurements: ROUNDS iterations
 * of one of the stress tier's workloads (test/hotspot/jtreg/serviceability/
 * asgst/stress/StressWorkloads.java) on each of THREADS platform threads;
 * prints the elapsed milliseconds. With --class-path it prints the class path
 * entries the workload needs (its jars), for the script that starts it.
 * Usage: RealWork WORKLOAD ROUNDS THREADS | RealWork --class-path WORKLOAD
 */
public class RealWork {
    static final String JARS = "/usr/share/java/";

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--class-path")) {
            StringBuilder path = new StringBuilder();
            for (String jar : StressWorkloads.jars(args[1])) {
                path.append(path.length() == 0 ? "" : ":").append(JARS).append(jar);
            }
            System.out.println(path);
            return;
        }
        String workload = args[0];
        int rounds = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        long start = System.nanoTime();
        long iterations = StressWorkloads.runRounds(workload, rounds, threads, false);
        if (iterations != (long) rounds * threads) {
            throw new IllegalStateException(workload + ": " + iterations + " iterations");
        }
        System.out.println((System.nanoTime() - start) / 1_000_000);
    }
}
