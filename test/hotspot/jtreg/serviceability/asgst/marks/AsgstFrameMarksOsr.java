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
 * @summary A marked interpreted frame that OSR replaces by a compiled one
 *          mid-loop: the mark is reached before, and never after
 *          (doc/frame-marks.md).
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @requires vm.compiler2.enabled
 * @build AsgstFrameMarks
 * @run main/othervm/native -XX:-TieredCompilation -Xbatch -XX:CompileCommand=quiet
 *      -XX:CompileCommand=dontinline,AsgstFrameMarksOsr::at* AsgstFrameMarksOsr
 */

public class AsgstFrameMarksOsr {
    static int owner;

    // Each calls into the native method from a frame of its own, so that
    // loop's frame is the third from the top (0: the native method).
    static int atMark() {
        return AsgstFrameMarks.markFrame(owner, 0, 2, 7);
    }

    static int atWalk() {
        return AsgstFrameMarks.walkToMark(owner);
    }

    static int atLevel() {
        return AsgstFrameMarks.frameLevel(2);
    }

    // Marks its own frame while interpreted, then loops until OSR has
    // replaced the frame by a compiled one; returns the iterations that took.
    static long loop() {
        AsgstFrameMarks.check(atLevel() == 0, "the loop did not begin interpreted");
        AsgstFrameMarks.check(atMark() == 0, "ASGST_MarkFrame of the interpreted loop");
        int at = atWalk();
        AsgstFrameMarks.check(at == 3, "before OSR the mark was reached after " + at
                              + " frames, expected 3");
        long x = 0;
        for (long i = 1; i < 1_000_000_000L; i++) {
            x += i * 31;
            if ((i & 1023) == 0 && atLevel() > 0) {
                at = atWalk();
                AsgstFrameMarks.check(at == -1, "after OSR the mark was reached after " + at
                                      + " frames");
                return i;
            }
        }
        throw new RuntimeException("no OSR in 10^9 iterations");
    }

    public static void main(String[] args) {
        owner = AsgstFrameMarks.registerOwner(1);
        AsgstFrameMarks.check(owner > 0, "ASGST_RegisterMarkOwner(1): " + owner);
        // Once: after it, the loop's OSR code exists and a new call would
        // enter it compiled at once.
        long iterations = loop();
        System.out.println("OSR after " + iterations + " iterations; the mark was reached before and not after");
    }
}
