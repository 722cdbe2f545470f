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
 * @test id=interpreted
 * @summary A native method walks its own thread with ASGST_RunWithIterator: the
 *          Java frames, methods and bcis equal JVMTI GetStackTrace, also across
 *          a Java -> C -> Java -> C chain.
 * @requires os.family == "linux"
 * @run main/othervm/native -Xint AsgstOwnThreadWalk 0
 */

/*
 * @test id=c1
 * @requires os.family == "linux" & vm.compiler1.enabled
 * @run main/othervm/native -Xcomp -XX:TieredStopAtLevel=1
 *      -XX:CompileCommand=quiet AsgstOwnThreadWalk 1
 */

/*
 * @test id=c2
 * @requires os.family == "linux" & vm.compiler2.enabled
 * @run main/othervm/native -Xcomp -XX:-TieredCompilation
 *      -XX:CompileCommand=quiet AsgstOwnThreadWalk 4
 */
public class AsgstOwnThreadWalk {
    static {
        System.loadLibrary("AsgstOwnThreadWalk");
    }

    // Walks the calling thread and compares with JVMTI. Returns null when they
    // agree, else a description of the first difference. Sets the counters below.
    private static native String walkAndCompare();
    // Calls back callBackIntoJava() from C, so that a C frame lies between Java frames.
    private static native String callFromC();

    static int expectedLevel;     // comp level of this class's methods in this run
    static int javaFrames;        // frames of this class's methods seen by the last walk
    static int framesAtExpectedLevel;

    public static void main(String[] args) {
        expectedLevel = Integer.parseInt(args[0]);
        String result = outer(5);
        check(result == null, "direct chain: " + result);
        check(javaFrames >= 6, "expected at least 6 frames of this class, saw " + javaFrames);
        check(framesAtExpectedLevel == javaFrames,
              framesAtExpectedLevel + " of " + javaFrames + " frames at comp level " + expectedLevel);

        result = callFromC();
        check(result == null, "Java -> C -> Java -> C chain: " + result);
        System.out.println("walks agree with GetStackTrace at comp level " + expectedLevel);
    }

    static String outer(int depth) {
        return depth == 0 ? inner() : outer(depth - 1);
    }

    static String inner() {
        return walkAndCompare();
    }

    static String callBackIntoJava() {
        return inner();
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
