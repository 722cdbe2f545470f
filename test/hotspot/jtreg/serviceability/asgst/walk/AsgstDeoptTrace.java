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
 * @summary ASGST_DEOPT_TRACE: a thread signalled while HotSpot deoptimizes one
 *          of its frames, in the C code that the deoptimization blob calls,
 *          is walked as a deoptimization trace (or, in the blob's last call,
 *          where HotSpot clears the thread's last Java frame while it fills
 *          the interpreted frames in, without a top frame), and a
 *          deoptimization trace starts at the deoptimized method. The
 *          test tells where the thread is by itself: JVMTI names the blob's
 *          code range, and the handler follows the frame-pointer chain of
 *          the interrupted C code, through libjvm's code only, to a return
 *          address in it.
 *          AsyncGetStackTrace's kind filter refuses those walks when it asks
 *          for Java traces only, and accepts them when it asks for
 *          deoptimization traces.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @requires vm.compiler1.enabled
 * @library /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native -Xbootclasspath/a:. -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI
 *      -XX:-BackgroundCompilation -XX:CompileCommand=dontinline,AsgstDeoptTrace::deoptee
 *      -XX:CompileCommand=quiet AsgstDeoptTrace
 */

import java.lang.reflect.Method;

import jdk.test.whitebox.WhiteBox;

public class AsgstDeoptTrace {
    static {
        System.loadLibrary("AsgstDeoptTrace");
    }

    // Deoptimization traces of samples taken in C code that the
    // deoptimization blob called: the run goes on until it has them, so a
    // walker that never says ASGST_DEOPT_TRACE fails (each sample is also
    // checked on its own).
    static final int GOAL = 50;
    // Only the limit of the run: the verdict depends on the samples taken.
    static final long TIMEOUT_MILLIS = 300_000;
    static final int COMP_LEVEL_SIMPLE = 1;  // C1 keeps a safepoint poll in the loop

    // Whether the library found the deoptimization blob's code (JVMTI) and libjvm's.
    private static native boolean blobFound();
    private static native void startSampling(int intervalMicros);
    private static native void stopSampling();
    // {samples, in C code called from the blob with DEOPT_TRACE, in C code
    //  called from the blob, with pc in the blob, DEOPT_TRACE walks, failures}
    private static native int[] counts();
    private static native String failures();
    // Prints the samples in C code called from the blob by call, and judges them.
    private static native void judgeCalls();

    static volatile boolean done;
    static volatile long sink;

    // Deoptimized while it runs: a loop long enough that the frame is active
    // whenever the main thread deoptimizes it.
    static long deoptee(long n) {
        long sum = 0;
        for (long i = 0; i < n; i++) {
            sum += (i * 31) ^ (i >>> 3);
        }
        return sum;
    }

    public static void main(String[] args) throws Exception {
        if (!blobFound()) {
            throw new RuntimeException("JVMTI reported no DeoptimizationBlob");
        }
        WhiteBox wb = WhiteBox.getWhiteBox();
        Method deoptee = AsgstDeoptTrace.class.getDeclaredMethod("deoptee", long.class);
        Thread worker = new Thread(() -> {
            // An emulator (make test-aarch64) runs the VM many times slower
            // and sets asgst.time.factor: a walk there takes longer than
            // 20 us, and the worker would do nothing but run the handler.
            startSampling(20 * Integer.getInteger("asgst.time.factor", 1));
            while (!done) {
                sink += deoptee(20_000);
            }
            stopSampling();
        }, "worker");
        worker.start();
        long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
        int rounds = 0;
        // A walker that never says ASGST_DEOPT_TRACE ends the run after ten
        // times the samples, not at the time limit.
        while (counts()[1] < GOAL && counts()[2] < 10 * GOAL && System.currentTimeMillis() < deadline) {
            wb.enqueueMethodForCompilation(deoptee, COMP_LEVEL_SIMPLE);  // waits: -BackgroundCompilation
            Thread.sleep(1);  // the worker's next call enters the compiled code
            wb.deoptimizeMethod(deoptee);
            rounds++;
        }
        done = true;
        worker.join();
        judgeCalls();

        int[] c = counts();
        System.out.printf("%d deoptimizations, %d samples: %d in C code called from the blob (%d DEOPT_TRACE),"
                          + " %d with pc in the blob, %d DEOPT_TRACE walks in all, %d failures%n",
                          rounds, c[0], c[2], c[1], c[3], c[4], c[5]);
        if (c[5] != 0) {
            throw new RuntimeException(c[5] + " samples failed:" + failures());
        }
        if (c[1] < GOAL) {
            throw new RuntimeException("only " + c[1] + " deoptimization traces in C code called from the"
                                       + " deoptimization blob in " + TIMEOUT_MILLIS + " ms; " + GOAL + " needed");
        }
    }
}
