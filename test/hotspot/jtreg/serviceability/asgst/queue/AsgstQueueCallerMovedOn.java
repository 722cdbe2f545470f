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
 * @summary A queue element recorded after its frame's last poll: the frame
 *          returns without another poll, and its caller has moved on to
 *          another bytecode by the poll that processes the element. The walk
 *          must still show the stack as it was when the element was
 *          recorded: the caller at the call site it had then. JVMTI
 *          GetStackTrace, taken in a native method that callee() calls, is
 *          the reference. The element is enqueued by the processing-end
 *          handler of callee's return poll, so its recorded frame is callee()
 *          at that poll; callee() returns without another poll, and caller's
 *          return poll processes the element.
 * @requires os.family == "linux"
 * @library /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native -Xint AsgstQueueCallerMovedOn interpreted
 */

/*
 * @test id=c2
 * @summary The same with caller() compiled by C2 (callee() stays
 *          interpreted): caller's return poll comes after its epilogue has
 *          popped its frame, so at the poll that processes the element
 *          caller() has returned too. The walk must still show it, at its
 *          call of callee(), between callee() and main().
 * @requires os.family == "linux" & vm.compiler2.enabled & vm.flagless
 * @library /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native -Xbootclasspath/a:. -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI
 *      -XX:-BackgroundCompilation -XX:CompileCommand=quiet -XX:CompileCommand=exclude,AsgstQueueCallerMovedOn::callee
 *      -XX:CompileCommand=dontinline,AsgstQueueCallerMovedOn::callee
 *      AsgstQueueCallerMovedOn 4
 */

/*
 * @test id=c2-large-frame
 * @summary The same with a compiled caller() whose frame is larger than the
 *          return poll handler blob's (which saves every register there,
 *          the vector registers included): the blob's frame lies within the
 *          popped caller's, and the walk must still find the caller.
 * @requires os.family == "linux" & vm.compiler2.enabled & vm.flagless
 * @library /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native -Xbootclasspath/a:. -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI
 *      -XX:-BackgroundCompilation -XX:CompileCommand=quiet -XX:CompileCommand=exclude,AsgstQueueCallerMovedOn::callee
 *      -XX:CompileCommand=dontinline,AsgstQueueCallerMovedOn::callee
 *      AsgstQueueCallerMovedOn 4 large
 */

/*
 * @test id=c1
 * @summary The same with caller() compiled by C1.
 * @requires os.family == "linux" & vm.compiler1.enabled & vm.flagless
 * @library /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/native -Xbootclasspath/a:. -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI
 *      -XX:-BackgroundCompilation -XX:CompileCommand=quiet -XX:CompileCommand=exclude,AsgstQueueCallerMovedOn::callee
 *      -XX:CompileCommand=dontinline,AsgstQueueCallerMovedOn::callee
 *      AsgstQueueCallerMovedOn 1
 */

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;

import jdk.test.whitebox.WhiteBox;

import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;

public class AsgstQueueCallerMovedOn {
    static {
        System.loadLibrary("AsgstQueueCallerMovedOn");
    }

    // Registers a queue for this thread with its handlers.
    static native void register();

    // Takes the JVMTI stack trace, then enqueues an element from a signal
    // handler. Each processing of the queue enqueues one more at its end,
    // until the processing at callee's return poll enqueues the last.
    static native void enqueueHere();

    // "ok", or what went wrong: one element of callee() must have been
    // processed with expectedTop on top.
    static native String result(String expectedTop);

    static int sink;

    // Neither a branch nor a call into the VM (such as resolving a field)
    // between the call and the return (interpreted, -Xint): the return poll
    // is the first poll after enqueueHere() returned to it.
    static int callee(int n) {
        enqueueHere();
        int x = n * 3;
        x = x + n;
        return x;
    }

    // Moves on from its call of callee() to its return, with no poll between.
    static int caller(int n) {
        return callee(n) + 1;
    }

    // Longs that the large caller() loads before its call of callee() and
    // adds after it: compiled code keeps each in its frame across the call
    // (loads from memory cannot move past a call). 512 words are more than
    // the return poll handler blob's frame: on x86_64 its register save area
    // alone is 2,688 bytes (FPUStateSizeInWords), 336 words; aarch64's is
    // smaller.
    static final int LARGE_FRAME_LONGS = 512;
    static final long[] VALUES = new long[LARGE_FRAME_LONGS];

    // A class AsgstQueueLargeCaller with caller(int), as above with
    // LARGE_FRAME_LONGS longs live across its call of callee(), and run(int),
    // which calls it. Made with the ClassFile API: as Java source it would
    // be a thousand lines.
    static Class<?> largeCaller() throws Exception {
        ClassDesc self = ClassDesc.of("AsgstQueueCallerMovedOn");
        ClassDesc large = ClassDesc.of("AsgstQueueLargeCaller");
        MethodTypeDesc intToInt = MethodTypeDesc.of(CD_int, CD_int);
        byte[] bytes = ClassFile.of().build(large, type -> type
            .withMethodBody("caller", intToInt, ClassFile.ACC_STATIC, code -> {
                for (int i = 0; i < LARGE_FRAME_LONGS; i++) {
                    code.getstatic(self, "VALUES", CD_long.arrayType()).loadConstant(i).laload().lstore(1 + 2 * i);
                }
                code.iload(0).invokestatic(self, "callee", intToInt).i2l();
                for (int i = 0; i < LARGE_FRAME_LONGS; i++) {
                    code.lload(1 + 2 * i).ladd();
                }
                code.l2i().ireturn();
            })
            .withMethodBody("run", intToInt, ClassFile.ACC_STATIC, code ->
                code.iload(0).invokestatic(large, "caller", intToInt).ireturn()));
        return MethodHandles.lookup().defineClass(bytes);
    }

    public static void main(String[] args) throws Exception {
        // Interpreted, caller's return poll processes the element with
        // caller() on top; compiled, it has popped caller's frame, and
        // main() is on top.
        // The large caller() is called by run(), which is then on top.
        String expectedTop = "caller";
        boolean largeFrame = args.length > 1 && args[1].equals("large");
        Class<?> callerClass = largeFrame ? largeCaller() : AsgstQueueCallerMovedOn.class;
        if (!args[0].equals("interpreted")) {
            int level = Integer.parseInt(args[0]);
            WhiteBox wb = WhiteBox.getWhiteBox();
            Method caller = callerClass.getDeclaredMethod("caller", int.class);
            if (!wb.enqueueMethodForCompilation(caller, level) || wb.getMethodCompilationLevel(caller) != level) {
                throw new RuntimeException("caller() not compiled at level " + level);
            }
            expectedTop = largeFrame ? "run" : "main";
        }
        register();
        if (largeFrame) {
            sink = (int) callerClass.getDeclaredMethod("run", int.class).invoke(null, 5);
        } else {
            sink = caller(5);
        }
        String result = result(expectedTop);
        System.out.println(result);
        if (!result.equals("ok")) {
            throw new RuntimeException(result);
        }
    }
}
