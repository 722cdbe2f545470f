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
 * @test id=c2
 * @summary Walks stay right while code goes away and comes back: a thread
 *          runs RecompiledWork's run, outer, middle and inner (compiled,
 *          never inlined), defined by a throw-away class loader, while
 *          signals sample it; then the class is unloaded and its code freed
 *          (a full GC), and the same class file is defined by a new loader
 *          and compiled again, round after round. The new code often lands
 *          where the old code lay, with the same return addresses. Every
 *          frame of a class named RecompiledWork must be one of the four and
 *          a method of the current round's class (ASGST_GetMethodInfo's class
 *          against ASGST_JClassToClass of the class the round defined); a walk
 *          whose top is such a frame must begin, by name, with a suffix of
 *          "inner middle outer run"; any frame whose method or class cannot
 *          be read is wrong too. A walker that keeps what
 *          it learnt at a return address beyond the life of the code reports
 *          a freed class's methods there.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @requires vm.compiler2.enabled
 * @library /test/lib ../unload
 * @compile RecompiledWork.java
 * @build ThrowAwayLoader
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native -Xbootclasspath/a:. -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI
 *      -XX:-BackgroundCompilation -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,RecompiledWork::*
 *      AsgstUnloadRecompile 4
 */

/*
 * @test id=c1
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @requires vm.compiler1.enabled
 * @library /test/lib ../unload
 * @compile RecompiledWork.java
 * @build ThrowAwayLoader
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native -Xbootclasspath/a:. -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI
 *      -XX:-BackgroundCompilation -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,RecompiledWork::*
 *      AsgstUnloadRecompile 1
 */

import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.Set;

import jdk.test.whitebox.WhiteBox;
import jdk.test.whitebox.code.NMethod;

public class AsgstUnloadRecompile {
    static {
        System.loadLibrary("AsgstUnloadRecompile");
    }

    // Samples the calling thread every intervalMicros of wall-clock time.
    private static native void startSampling(int intervalMicros);
    // The class whose methods the walks must report, or null between rounds
    // (walks then go unjudged).
    private static native void setExpected(Class<?> c);
    // Stops sampling; returns {walks judged, refused, wrong, walks with the
    // round's methods}.
    private static native long[] stopSampling();
    // The refused walks by what the walk returned: [-kind] for kinds up to
    // 0 ([0] also for a walk that returned a kind but no frame).
    private static native long[] refusals();
    // The first wrong walk, described, or null.
    private static native String firstWrong();

    static final WhiteBox WB = WhiteBox.getWhiteBox();
    static final int ROUNDS = 20;
    static final String[] METHODS = {"inner", "middle", "outer", "run"};

    public static void main(String[] args) throws Exception {
        int level = Integer.parseInt(args[0]);
        // An emulator (make test-aarch64) sets asgst.time.factor: the walks
        // there take longer, and the interval and the time grow alike.
        int factor = Integer.getInteger("asgst.time.factor", 1);
        Set<Long> codeSeen = new HashSet<>();
        int reused = 0;
        startSampling(100 * factor);
        for (int round = 0; round < ROUNDS; round++) {
            long[] code = runRound(level, 200_000_000L * factor);
            for (long address : code) {
                if (!codeSeen.add(address)) {
                    reused++;
                }
            }
            WB.fullGC();  // unloads the round's class and frees its code
        }
        long[] r = stopSampling();
        System.out.printf("%d walks judged (%d with the round's methods), %d refused, %d wrong; "
                          + "%d of %d compiled methods where an earlier round's lay%n",
                          r[0], r[3], r[1], r[2], reused, ROUNDS * METHODS.length);
        long[] byKind = refusals();
        for (int k = 0; k < byKind.length; k++) {
            if (byKind[k] != 0) {
                System.out.printf("refused with kind %d: %d%n", -k, byKind[k]);
            }
        }
        String wrong = firstWrong();
        if (wrong != null) {
            System.out.println("first wrong walk: " + wrong);
        }
        check(r[2] == 0, r[2] + " walks reported other frames or methods of another class");
        // Only code where an earlier round's lay has return addresses that a
        // walk may have met before: without any, nothing here was tested.
        check(reused > 0, "no round's code lay where an earlier round's had lain");
        // 20 rounds of 200 ms at 100 us are about 40,000 signals while
        // run runs: fewer than a tenth of them means the sampling or the
        // rounds broke, and the judge saw too little.
        check(r[3] >= 4000, "only " + r[3] + " walks with the round's methods");
    }

    // One round: defines and compiles the class, runs it sampled for nanos;
    // returns the addresses of its four methods' code. Kept out of main's
    // frame so that nothing there keeps the loader alive.
    static long[] runRound(int level, long nanos) throws Exception {
        ClassLoader loader = new ThrowAwayLoader(AsgstUnloadRecompile.class.getClassLoader(), "RecompiledWork");
        Class<?> c = loader.loadClass("RecompiledWork");
        check(c.getClassLoader() == loader, "RecompiledWork came from the wrong loader");
        long[] code = new long[METHODS.length];
        for (int i = 0; i < METHODS.length; i++) {
            Method m = c.getDeclaredMethod(METHODS[i], long.class);
            WB.enqueueMethodForCompilation(m, level);  // done on return: -XX:-BackgroundCompilation
            NMethod nm = NMethod.get(m, false);
            check(nm != null && nm.comp_level == level, METHODS[i] + " is not compiled at level " + level);
            code[i] = nm.address;
        }
        Method run = c.getMethod("run", long.class);
        setExpected(c);
        run.invoke(null, nanos);
        setExpected(null);
        return code;
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
