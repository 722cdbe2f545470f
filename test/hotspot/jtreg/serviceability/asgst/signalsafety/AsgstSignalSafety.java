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
 * @test id=active
 * @summary make test preloads libAsgstSignalSafety into the test VMs
 *          (make/asgst/run-tests.sh), which aborts a VM whose signal-safe
 *          ASGST calls made in signal handlers allocate, lock or load: this
 *          VM has it, it saw such calls, and glibc's malloc checks are on.
 *          Run by OpenJDK's own make test, which preloads nothing, it checks
 *          the same in a child VM that has the library preloaded.
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/native AsgstSignalSafety active
 */

/*
 * @test id=catches
 * @summary The check works: a child VM whose SIGPROF handler allocates while
 *          the library counts it as inside an ASGST function aborts with the
 *          library's message.
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/native AsgstSignalSafety catches
 */

/*
 * @test id=crash-report
 * @summary A fault inside ASGST code (here: where the library counts the
 *          thread as inside one) runs the VM's error report unchecked: the
 *          hs_err file is written to its end, not cut short by the library's
 *          abort when the report calls dladdr or malloc.
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/native AsgstSignalSafety crash-report
 */

import java.nio.file.Files;
import java.nio.file.Path;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

public class AsgstSignalSafety {
    static {
        System.loadLibrary("AsgstSignalSafetyCheck");
    }

    // SIGPROF samples of this thread's CPU time for about the given CPU
    // milliseconds, each walking the stack, naming every frame's method and
    // enqueueing; returns the checked ASGST calls the library counted, or -1
    // if the library is not loaded.
    static native long sampleAndCount(int cpuMillis);

    // In a SIGPROF handler: enters the library's test hook, then allocates.
    static native void violate();

    // In a SIGPROF handler: enters the library's test hook, then writes to address 16.
    static native void crash();

    static volatile long sink;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "active" -> active();
            case "catches" -> catches();
            case "violate" -> violate();
            case "crash-report" -> crashReport();
            case "crash" -> crash();
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static void active() throws Exception {
        long checked = sampleAndCount(1000);
        if (checked < 0 && System.getenv("MALLOC_CHECK_") != null) {
            // The project's make test sets MALLOC_CHECK_ with the preload.
            throw new RuntimeException("libAsgstSignalSafety is not preloaded (LD_PRELOAD=" +
                                       System.getenv("LD_PRELOAD") + ") where make test sets MALLOC_CHECK_");
        }
        if (checked < 0) {
            activeInChildVM();
            return;
        }
        System.out.println(checked + " checked ASGST calls in signal handlers");
        // 1 s of CPU sampled every 1 ms gives hundreds of samples, each with
        // several ASGST calls; one would do to show the library at work.
        if (checked == 0) {
            throw new RuntimeException("the library saw no ASGST call in a signal handler");
        }
        if (!"3".equals(System.getenv("MALLOC_CHECK_"))) {
            throw new RuntimeException("MALLOC_CHECK_ is " + System.getenv("MALLOC_CHECK_") + ", not 3");
        }
    }

    // What make test gives every test VM: the library preloaded first, then
    // glibc's malloc checks and freed memory overwritten.
    static void activeInChildVM() throws Exception {
        String library = Path.of(System.getProperty("test.nativepath"), "libAsgstSignalSafety.so").toString();
        ProcessBuilder pb = ProcessTools.createTestJavaProcessBuilder(
            "-Djava.library.path=" + System.getProperty("test.nativepath"), "AsgstSignalSafety", "active");
        pb.environment().put("LD_PRELOAD", library + ":libc_malloc_debug.so.0");
        pb.environment().put("MALLOC_CHECK_", "3");
        pb.environment().put("MALLOC_PERTURB_", "165");
        OutputAnalyzer output = ProcessTools.executeProcess(pb);
        output.shouldHaveExitValue(0);
        output.shouldMatch("[1-9][0-9]* checked ASGST calls in signal handlers");
    }

    static void catches() throws Exception {
        String library = Path.of(System.getProperty("test.nativepath"), "libAsgstSignalSafety.so").toString();
        ProcessBuilder pb = ProcessTools.createTestJavaProcessBuilder(
            "-Djava.library.path=" + System.getProperty("test.nativepath"), "AsgstSignalSafety", "violate");
        pb.environment().put("LD_PRELOAD", library);
        OutputAnalyzer output = ProcessTools.executeProcess(pb);
        output.shouldNotHaveExitValue(0);
        output.shouldContain("asgst signal safety: malloc called inside asgst_signal_safety_test_enter " +
                             "in a signal handler");
    }

    static void crashReport() throws Exception {
        String library = Path.of(System.getProperty("test.nativepath"), "libAsgstSignalSafety.so").toString();
        Path errorFile = Path.of("hs_err_crash_inside_asgst.log").toAbsolutePath();
        Files.deleteIfExists(errorFile);
        ProcessBuilder pb = ProcessTools.createTestJavaProcessBuilder(
            "-Djava.library.path=" + System.getProperty("test.nativepath"), "-XX:-CreateCoredumpOnCrash",
            "-XX:ErrorFile=" + errorFile, "AsgstSignalSafety", "crash");
        pb.environment().put("LD_PRELOAD", library);
        OutputAnalyzer output = ProcessTools.executeProcess(pb);
        output.shouldNotHaveExitValue(0);
        output.shouldContain("A fatal error has been detected by the Java Runtime Environment");
        output.shouldNotContain("asgst signal safety:");
        if (!Files.exists(errorFile)) {
            throw new RuntimeException("no error report at " + errorFile);
        }
        // VMError writes "END." as the report's last line.
        String report = Files.readString(errorFile);
        if (!report.contains("Problematic frame") || !report.strip().endsWith("END.")) {
            throw new RuntimeException("the error report at " + errorFile + " is cut short");
        }
    }
}
