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
 * @summary JNI code switches to a stack made with Boost.Context (as fiber and
 *          coroutine libraries do) while a CPU timer samples it: walks from the
 *          signal handler, with and without C frames, never crash and still
 *          recover the Java frames below the native transition.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "x86_64" | os.arch == "aarch64")
 * @run main/othervm/native AsgstForeignStack
 */
public class AsgstForeignStack {
    static {
        System.loadLibrary("AsgstForeignStack");
    }

    static native long[] runOnForeignStack(int millis);

    static long[] callChain(int depth, int millis) {
        return depth == 0 ? runOnForeignStack(millis) : callChain(depth - 1, millis);
    }

    public static void main(String[] args) {
        long[] r = callChain(5, 2000);
        long onForeign = r[0], complete = r[1], withC = r[2];
        System.out.printf("%d samples (%d on the foreign stack): %d complete Java walks, %d with C frames%n",
                          r[3], onForeign, complete, withC);
        if (onForeign < 200) {  // CPU timers fire at most once per scheduler tick
            throw new RuntimeException("too few samples on the foreign stack: " + onForeign);
        }
        if (complete * 100 < onForeign * 99 || withC * 100 < onForeign * 99) {
            throw new RuntimeException("Java frames below the foreign stack were lost");
        }
    }
}
