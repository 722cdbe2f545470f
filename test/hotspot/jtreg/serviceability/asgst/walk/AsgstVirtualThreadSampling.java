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
 * @test id=c1
 * @summary Signal-handler walks of carrier threads while virtual threads
 *          yield with deep stacks and return through frames that are thawed
 *          lazily (the return barrier): while a continuation is entered
 *          (Continuation.run waits in a call of enterSpecial), a walk without
 *          ASGST_INCLUDE_CARRIER_FRAMES never shows a carrier frame, and a walk
 *          with it never reaches the carrier without the continuation's entry.
 *          Regression test for walks from the thaw stubs, which move sp to the
 *          continuation's entry. Not entered: Continuation.run while its call
 *          of enterSpecial is being resolved (the static call resolve stub
 *          above it), where the thread is its carrier.
 * @comment C1 only: a compiled Continuation.run made not entrant by a later
 *          tier is deoptimized when enterSpecial returns to it, after the
 *          continuation's entry is unlinked; walks then begin in the
 *          deoptimization's C++ frames and show Continuation.run rightly.
 * @requires os.family == "linux"
 * @run main/othervm/native -Djdk.virtualThreadScheduler.parallelism=2 -XX:TieredStopAtLevel=1
 *                          AsgstVirtualThreadSampling
 */

/*
 * @test id=interpreted
 * @requires os.family == "linux"
 * @run main/othervm/native -Djdk.virtualThreadScheduler.parallelism=2 -Xint AsgstVirtualThreadSampling
 */

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.Instruction;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;

public class AsgstVirtualThreadSampling {
    static {
        System.loadLibrary("AsgstVirtualThreadSampling");
    }

    // The bcis of Continuation.run's calls of enterSpecial (a frame of run at
    // one of them has entered its continuation), and enterSpecial's code.
    private static native void setEnterSpecial(int[] bcis, long codeBegin, long codeEnd);
    // Samples the calling OS thread (the carrier) every intervalMicros of
    // wall-clock time, once per carrier.
    private static native void sampleThisCarrier(int intervalMicros);
    // Stops sampling; returns {walks, complete walks, walks ended at frames in
    // the heap, other errors, walks with a frame of deep(), walks without
    // carrier frames that showed one, walks with carrier frames that reached
    // the carrier without the continuation's entry}.
    private static native long[] stopSampling();
    // The first wrong walk, frame by frame, or null.
    private static native String firstWrongWalk();

    static volatile long sink;

    public static void main(String[] args) throws Exception {
        int[] calls = enterSpecialCalls();
        check(calls.length > 0, "Continuation.run calls no enterSpecial");
        long[] code = enterSpecialCode();
        setEnterSpecial(calls, code[0], code[1]);
        // An emulator (make test-aarch64) runs the VM many times slower and
        // sets asgst.time.factor: the interval and the time grow alike, so
        // that the handler leaves the carriers time to run.
        int factor = Integer.getInteger("asgst.time.factor", 1);
        long end = System.nanoTime() + 3_000_000_000L * factor;
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofVirtual().start(() -> {
                sampleThisCarrier(50 * factor);
                for (int round = 0; System.nanoTime() < end; round++) {
                    sink += deep(100 + round % 200);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        long[] r = stopSampling();
        System.out.printf("%d walks: %d complete, %d ended at frames in the heap, %d other errors; " +
                          "%d with deep(); %d showed carrier frames unasked, %d reached the carrier past the entry;" +
                          " %d in Continuation.run resolving its call of enterSpecial%n",
                          r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
        String wrong = firstWrongWalk();
        if (wrong != null) {
            System.out.println("first wrong walk: " + wrong);
        }
        check(r[4] >= 1000, "too few walks saw the virtual threads' frames: " + r[4]);
        check(r[2] > 0, "no walk ended at frames in the heap: the yields did not leave frames frozen");
        check(r[5] == 0, r[5] + " walks without ASGST_INCLUDE_CARRIER_FRAMES showed carrier frames");
        check(r[6] == 0, r[6] + " walks with ASGST_INCLUDE_CARRIER_FRAMES reached the carrier past the entry");
    }

    static int[] enterSpecialCalls() throws Exception {
        byte[] bytes;
        try (var in = Object.class.getResourceAsStream("/jdk/internal/vm/Continuation.class")) {
            bytes = in.readAllBytes();
        }
        ClassModel model = ClassFile.of().parse(bytes);
        List<Integer> bcis = new ArrayList<>();
        for (MethodModel method : model.methods()) {
            if (!method.methodName().equalsString("run") || !method.methodType().equalsString("()V")) {
                continue;
            }
            int bci = 0;
            for (CodeElement element : method.code().orElseThrow()) {
                if (element instanceof Instruction instruction) {
                    if (instruction instanceof InvokeInstruction invoke && invoke.name().equalsString("enterSpecial")) {
                        bcis.add(bci);
                    }
                    bci += instruction.sizeInBytes();
                }
            }
        }
        System.out.println("Continuation.run calls enterSpecial at bcis " + bcis);
        return bcis.stream().mapToInt(Integer::intValue).toArray();
    }

    // enterSpecial's code from Compiler.codelist: "... Continuation.enterSpecial(...)V
    // [header, begin - end]" (generated when the first virtual thread starts).
    static long[] enterSpecialCode() throws Exception {
        Thread.ofVirtual().start(() -> { }).join();
        String list = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerCodelist",
                new Object[] {null}, new String[] {String[].class.getName()});
        Matcher m = Pattern.compile("Continuation\\.enterSpecial\\(.*\\[0x\\p{XDigit}+, 0x(\\p{XDigit}+) - 0x(\\p{XDigit}+)\\]")
                           .matcher(list);
        check(m.find(), "enterSpecial is not in the code cache:\n" + list);
        long[] code = {Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(m.group(2), 16)};
        System.out.printf("enterSpecial's code: 0x%x - 0x%x%n", code[0], code[1]);
        return code;
    }

    // Yields at the bottom, so the frames above freeze; the returns thaw them
    // a few at a time.
    static long deep(int depth) {
        if (depth == 0) {
            Thread.yield();
            long x = 0;
            for (int i = 0; i < 2_000; i++) {
                x = x * 31 + i;
            }
            return x;
        }
        return deep(depth - 1) + 1;
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
