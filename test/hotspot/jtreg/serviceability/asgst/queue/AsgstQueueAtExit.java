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
 * @test
 * @summary A queue profiler written as the seeds' examples are: the main
 *          thread's queue is kept in a thread-local variable, never
 *          deregistered, and a SIGPROF handler enqueues into it every 100 us,
 *          through the launcher's detach of the main thread and the
 *          DestroyJavaVM thread that then runs on the same OS thread. Every
 *          enqueue after the queue's removal must answer
 *          ASGST_ENQUEUE_NO_QUEUE, and the VM must exit normally.
 * @requires os.family == "linux"
 * @library /test/lib
 * @run driver AsgstQueueAtExit
 */

import java.io.File;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

public class AsgstQueueAtExit {
    // Runs under the agent: work for a while, then return from main.
    public static class Workload {
        public static void main(String[] args) throws Exception {
            long end = System.nanoTime() + 300_000_000L;
            long sum = 0;
            while (System.nanoTime() < end) {
                sum += Long.toString(sum).hashCode();
            }
            System.out.println("workload done " + (sum == 42 ? "" : "."));
        }
    }

    // Several runs: each ends with stale enqueues at a different moment.
    static final int RUNS = 3;

    public static void main(String[] args) throws Exception {
        String agent = System.getProperty("test.nativepath") + File.separator + "libAsgstQueueAtExit.so";
        for (int run = 0; run < RUNS; run++) {
            OutputAnalyzer out = ProcessTools.executeTestJava("-agentpath:" + agent, "-Xmx64m",
                    Workload.class.getName());
            out.shouldHaveExitValue(0);
            out.shouldContain("workload done");
            // The agent's count, printed at unload. A removed queue never comes
            // back: "other" counts enqueues that answered anything but NO_QUEUE
            // after one had answered NO_QUEUE. No NO_QUEUE at all means the run
            // never reached the removal, and the check did not happen.
            String line = out.getStdout().lines().filter(l -> l.startsWith("asgst-at-exit:"))
                    .findFirst().orElseThrow(() -> new RuntimeException("no report from the agent"));
            System.out.println("run " + run + ": " + line);
            long accepted = field(line, "accepted"), noQueue = field(line, "no_queue"),
                 other = field(line, "other");
            if (accepted == 0) {
                throw new RuntimeException("no element was accepted while the queue lived: " + line);
            }
            if (noQueue == 0) {
                throw new RuntimeException("no enqueue reached the removed queue: " + line);
            }
            if (other != 0) {
                throw new RuntimeException("a removed queue answered other than NO_QUEUE: " + line);
            }
        }
    }

    static long field(String line, String name) {
        for (String part : line.split(" ")) {
            if (part.startsWith(name + "=")) {
                return Long.parseLong(part.substring(name.length() + 1));
            }
        }
        throw new RuntimeException("no " + name + " in " + line);
    }
}
