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
 * @summary A marked C2 frame deoptimized while its callees run: the mark and
 *          the callers it kept hold until control returns into the frame;
 *          after that no walk reports the mark (doc/frame-marks.md).
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @requires vm.compiler2.enabled
 * @library /test/lib
 * @build jdk.test.whitebox.WhiteBox AsgstFrameMarks
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native -Xbootclasspath/a:. -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI
 *      -XX:-TieredCompilation -Xbatch -XX:CompileCommand=quiet
 *      -XX:CompileCommand=dontinline,AsgstFrameMarks::recurse AsgstFrameMarksDeoptimized
 */

import java.lang.reflect.Method;

import jdk.test.whitebox.WhiteBox;

public class AsgstFrameMarksDeoptimized {
    static final WhiteBox WB = WhiteBox.getWhiteBox();
    static final int ROUNDS = 20;

    // The frames of AsgstFrameMarks.recurse, C2-compiled before each round.
    static void compileRecurse(Method recurse) {
        WB.enqueueMethodForCompilation(recurse, 4);  // -Xbatch: returns compiled
        AsgstFrameMarks.check(WB.isMethodCompiled(recurse), "recurse was not compiled");
    }

    // HotSpot keeps a deoptimized frame until control returns into it (its
    // return address leads to the deoptimization blob), so the mark and the
    // callers it kept (method, bci, level, sp) hold until then. The return
    // replaces the frame by interpreted ones: then no walk may report the
    // mark, also where a new frame of the method stands at the marked place.
    public static void main(String[] args) throws Exception {
        Method recurse = AsgstFrameMarks.class.getDeclaredMethod("recurse", int.class, Runnable.class);
        AsgstFrameMarks.owner = AsgstFrameMarks.registerOwner(1);
        AsgstFrameMarks.check(AsgstFrameMarks.owner > 0, "ASGST_RegisterMarkOwner(1): " + AsgstFrameMarks.owner);
        int samePlace = 0;
        for (int round = 0; round < ROUNDS; round++) {
            final String name = "round " + round;
            long[] sp = new long[2];
            compileRecurse(recurse);
            AsgstFrameMarks.recurse(AsgstFrameMarks.DEPTH, () -> {
                int level = AsgstFrameMarks.frameLevel(AsgstFrameMarks.MARKED);
                AsgstFrameMarks.check(level == 4, name + ": the frame to mark is at level " + level + ", not C2's");
                AsgstFrameMarks.mark(7);
                AsgstFrameMarks.expectMarked(7, name + ", before deoptimization");
                WB.deoptimizeMethod(recurse);
                AsgstFrameMarks.expectMarked(7, name + ", deoptimized, not yet returned into");
                sp[0] = AsgstFrameMarks.markedSp;
            });
            compileRecurse(recurse);  // so that the new frames stand where the marked ones stood
            AsgstFrameMarks.recurse(AsgstFrameMarks.DEPTH, () -> {
                sp[1] = AsgstFrameMarks.spOfMarkedDepth();
                int at = AsgstFrameMarks.walkToMark(AsgstFrameMarks.owner);
                AsgstFrameMarks.check(at == -1, name + ", deoptimized and returned into: the mark was reached after "
                                      + at + " frames");
            });
            if (sp[0] == sp[1]) {
                samePlace++;
            }
        }
        // As in AsgstFrameMarks: the check after the return can fail only
        // where a new frame stands at the marked place.
        AsgstFrameMarks.check(samePlace >= ROUNDS / 2, "only " + samePlace + " of " + ROUNDS
                              + " rounds had a frame at the marked place");
        System.out.println("deoptimized: " + samePlace + " of " + ROUNDS + " rounds at the marked place");
    }
}
