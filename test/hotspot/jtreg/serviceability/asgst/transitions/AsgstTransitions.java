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
 * @test id=upcall
 * @summary Walks that cross an FFM downcall and upcall (Java -> qsort -> Java), and
 *          walks of compiled frames that are marked for deoptimization, equal JVMTI
 *          GetStackTrace; with C frames, the stubs and C code in between are reported.
 * @requires os.family == "linux" & vm.compiler2.enabled
 * @library /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native --enable-native-access=ALL-UNNAMED -Xbootclasspath/a:.
 *      -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI AsgstTransitions
 */

/*
 * @test id=compiled
 * @requires os.family == "linux" & vm.compiler2.enabled
 * @library /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native --enable-native-access=ALL-UNNAMED -Xbootclasspath/a:.
 *      -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI -Xcomp -XX:-TieredCompilation
 *      -XX:CompileCommand=quiet AsgstTransitions
 */

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import jdk.test.whitebox.WhiteBox;

public class AsgstTransitions {
    static {
        System.loadLibrary("AsgstTransitions");
    }

    // Walks the calling thread: "between=N" (C frames between Java frames) or an error.
    static native String walk();

    static String upcallResult;

    static int compare(MemorySegment a, MemorySegment b) {
        if (upcallResult == null) {
            upcallResult = walk();
        }
        return Integer.compare(a.get(JAVA_INT, 0), b.get(JAVA_INT, 0));
    }

    public static void main(String[] args) throws Throwable {
        // No transitions: no C frames between Java frames.
        String plain = walk();
        check(plain.equals("between=0"), "plain stack: " + plain);

        // Java -> qsort (downcall) -> compare (upcall) -> walk.
        Linker linker = Linker.nativeLinker();
        MethodHandle qsort = linker.downcallHandle(linker.defaultLookup().find("qsort").orElseThrow(),
                FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
        MethodHandle comparator = MethodHandles.lookup().findStatic(AsgstTransitions.class, "compare",
                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stub = linker.upcallStub(comparator,
                    FunctionDescriptor.of(JAVA_INT, ADDRESS.withTargetLayout(JAVA_INT), ADDRESS.withTargetLayout(JAVA_INT)),
                    arena);
            MemorySegment array = arena.allocateFrom(JAVA_INT, 3, 1, 2);
            qsort.invokeExact(array, 3L, 4L, stub);
        }
        check(upcallResult != null && upcallResult.startsWith("between="), "across an upcall: " + upcallResult);
        int between = Integer.parseInt(upcallResult.substring("between=".length()));
        // At least the upcall stub and the downcall's stub lie between compare() and its caller.
        check(between >= 2, "expected C frames and stubs between the Java frames of an upcall: " + upcallResult);

        // Compiled frames whose code was invalidated while they are on the stack.
        for (int i = 0; i < 3; i++) {
            String result = deoptimizeThenWalk(3);
            check(result.equals("between=0"), "frames marked for deoptimization: " + result);
        }
        System.out.println("upcall: " + upcallResult + "; deoptimization: walks agree");
    }

    static String deoptimizeThenWalk(int depth) {
        if (depth > 0) {
            return deoptimizeThenWalk(depth - 1);
        }
        WhiteBox.getWhiteBox().deoptimizeAll();
        return walk();
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
