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
 * @test id=default
 * @summary Frame marks (profile.h, doc/frame-marks.md) on the calling thread:
 *          a walk that watches an owner's marks returns ASGST_MARKED_FRAME
 *          after the marked frame while it lives, and the callers after it
 *          are those the marking walk saw; once the marked frame was left
 *          (returned, or unwound by an exception) no walk reports the mark,
 *          also where a new frame of the same method stands at the same
 *          place; returns into frames above the mark keep it; owners own
 *          their slots; bad arguments get their errors.
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @run main/othervm/native -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstFrameMarks::recurse
 *      AsgstFrameMarks
 */

/*
 * @test id=interpreted
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @run main/othervm/native -Xint AsgstFrameMarks
 */

/*
 * @test id=c1
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @requires vm.compiler1.enabled
 * @run main/othervm/native -Xcomp -XX:TieredStopAtLevel=1 -XX:CompileCommand=quiet
 *      -XX:CompileCommand=dontinline,AsgstFrameMarks::recurse AsgstFrameMarks
 */

/*
 * @test id=c2
 * @requires os.family == "linux" & (os.arch == "amd64" | os.arch == "aarch64")
 * @requires vm.compiler2.enabled
 * @run main/othervm/native -Xcomp -XX:-TieredCompilation -XX:CompileCommand=quiet
 *      -XX:CompileCommand=dontinline,AsgstFrameMarks::recurse AsgstFrameMarks
 */

public class AsgstFrameMarks {
    static {
        System.loadLibrary("AsgstFrameMarks");
    }

    // profile.h
    static final int INVALID_ARGUMENT = -18, MARK_REFUSED = -20, NO_MARK_SLOT = -21, MARK_SLOTS = 4;

    static native int registerOwner(int slots);
    static native boolean deregisterOwner(int owner);
    // Marks the depth-th frame from the top of this thread's walk (0: the
    // native method itself); cookies 0-7 keep the callers seen then.
    static native int markFrame(int owner, int slot, int depth, long cookie);
    // Frames before ASGST_MARKED_FRAME in a walk watching owner, -1 for none.
    static native int walkToMark(int owner);
    static native long lastCookie();
    static native int lastSlot();
    // The first caller after the mark that differs from the kept ones, -1 for none.
    static native int lastSuffixMismatch();
    static native long frameSp(int depth);
    // The index from the top of the frame at sp (its outermost scope), -1 for none.
    static native int frameIndexOfSp(long sp);
    static native int clearMark(int owner, int slot);
    static native int nullIteratorAnswers(int owner);

    // The frames from the top in the callbacks below: the native method, the
    // lambda, then recurse(0), recurse(1), ... The marked frame:
    static final int DEPTH = 20, MARKED = 10;
    // Rounds of the cases that need a new frame at the marked frame's place.
    static final int ROUNDS = 100;

    static int owner;
    static long markedSp;

    static void recurse(int n, Runnable atTop) {
        if (n == 0) {
            atTop.run();
        } else {
            recurse(n - 1, atTop);
        }
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }

    // frameSp(MARKED) from one frame above the caller, as in mark().
    static long spOfMarkedDepth() {
        return frameSp(MARKED);
    }

    static void mark(int cookie) {
        int result = markFrame(owner, 0, MARKED, cookie);
        check(result == 0, "ASGST_MarkFrame of frame " + MARKED + ": " + result);
        markedSp = frameSp(MARKED);
    }

    // The mark reached right after the marked frame (found by its sp), with
    // its cookie, and the callers after it equal to those kept.
    static void expectMarked(int cookie, String when) {
        int expected = frameIndexOfSp(markedSp) + 1;
        int at = walkToMark(owner);
        check(expected > 0, when + ": no frame at the marked frame's sp");
        check(at == expected, when + ": ASGST_MARKED_FRAME after " + at + " frames, expected " + expected);
        check(lastCookie() == cookie, when + ": cookie " + lastCookie() + ", expected " + cookie);
        check(lastSuffixMismatch() == -1, when + ": caller " + lastSuffixMismatch() + " after the mark differs");
    }

    static class Unwind extends RuntimeException {
        Unwind() {
            super(null, null, false, false);
        }
    }

    // The compilation level of the depth-th frame from the top, -2 for none.
    static native int frameLevel(int depth);

    public static void main(String[] args) {
        check(nullIteratorAnswers(1) == 0, "bad arguments: case " + nullIteratorAnswers(1));
        owner = registerOwner(1);
        check(owner > 0, "ASGST_RegisterMarkOwner(1): " + owner);

        // A mark lives while its frame does, also across returns into frames above it.
        recurse(DEPTH, () -> {
            mark(1);
            expectMarked(1, "right after the mark");
            recurse(5, () -> expectMarked(1, "five frames deeper"));
            expectMarked(1, "after returns into frames above the mark");
        });

        // The marked frame returns, or an exception unwinds it; then a frame of
        // the same method stands at the same place: no walk may report the
        // mark. (Counted only where the place is the same, as the walk reports it.)
        int samePlace = 0;
        for (int round = 0; round < ROUNDS; round++) {
            final int thisRound = round;
            boolean byException = round % 2 == 1;
            long[] sp = new long[2];
            try {
                recurse(DEPTH, () -> {
                    mark(2);
                    sp[0] = markedSp;
                    if (byException) {
                        throw new Unwind();
                    }
                });
            } catch (Unwind expected) {
            }
            recurse(DEPTH, () -> {
                sp[1] = spOfMarkedDepth();
                int at = walkToMark(owner);
                check(at == -1, (byException ? "unwound by an exception" : "returned")
                      + ", round " + thisRound + ": the mark was reached after " + at + " frames");
            });
            if (sp[0] == sp[1]) {
                samePlace++;
            }
        }
        // The check above can fail only where a new frame stands where the
        // marked one stood; at least half the rounds must have had one, so
        // that the check had a chance (every round does, in practice: the
        // two recursions run the same code from the same caller).
        check(samePlace >= ROUNDS / 2, "only " + samePlace + " of " + ROUNDS + " rounds had a frame at the marked place");

        // Cleared marks are not reached; two owners do not see each other's marks.
        int second = registerOwner(2);
        check(second > 0, "ASGST_RegisterMarkOwner(2): " + second);
        int third = registerOwner(1);
        check(third > 0, "ASGST_RegisterMarkOwner(1), the last slot: " + third);
        check(registerOwner(1) == NO_MARK_SLOT, "a fifth slot");
        recurse(DEPTH, () -> {
            mark(3);
            check(markFrame(second, 1, MARKED + 4, 4) == 0, "the second owner's mark");
            expectMarked(3, "the first owner, beside the second's");
            long markedBySecond = frameSp(MARKED + 4);
            int at = walkToMark(second);
            check(at == frameIndexOfSp(markedBySecond) + 1 && lastCookie() == 4 && lastSlot() == 1,
                  "the second owner: after " + at + " frames, cookie " + lastCookie() + ", slot " + lastSlot());
            check(walkToMark(third) == -1, "the third owner has no mark");
            check(clearMark(owner, 0) == 0, "ASGST_ClearMark");
            check(walkToMark(owner) == -1, "a cleared mark was reached");
            mark(5);
            check(deregisterOwner(owner), "ASGST_DeregisterMarkOwner");
            check(walkToMark(owner) == -1, "a deregistered owner's mark was reached");
            check(walkToMark(second) == frameIndexOfSp(markedBySecond) + 1,
                  "the second owner's mark after the first deregistered");
            check(markFrame(owner, 0, MARKED, 6) == INVALID_ARGUMENT, "a mark of a deregistered owner");
            check(markFrame(second, 2, MARKED, 6) == INVALID_ARGUMENT, "a slot beyond the owner's");
            check(markFrame(second, -1, MARKED, 6) == INVALID_ARGUMENT, "slot -1");
            check(markFrame(second, 0, 0, 6) == MARK_REFUSED, "the top frame (the native method)");
            check(clearMark(owner, 0) == INVALID_ARGUMENT, "ASGST_ClearMark of a deregistered owner");
            check(!deregisterOwner(owner), "a second ASGST_DeregisterMarkOwner");
        });
        check(deregisterOwner(second) && deregisterOwner(third), "deregistering the other owners");
        System.out.println("frame marks: " + samePlace + " of " + ROUNDS + " rounds at the marked place");
    }
}
