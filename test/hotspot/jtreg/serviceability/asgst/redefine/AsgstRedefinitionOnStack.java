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
 * @summary A method redefined while it runs: a walk from inside it after the
 *          redefinition shows its old version (the jmethodID that JVMTI
 *          GetStackTrace gives for the frame, which JVMTI calls obsolete),
 *          at JVMTI's bci, with the new version's method and class ids; the
 *          old version is not handed to the class-unload handlers while it
 *          runs, and is handed over once (redefined == true) after it
 *          returned and a collection ran.
 * @requires os.family == "linux" & vm.jvmti
 * @library /test/lib
 * @modules java.compiler java.instrument
 * @run main RedefineClassHelper
 * @run main/othervm/native -javaagent:redefineagent.jar AsgstRedefinitionOnStack
 */
public class AsgstRedefinitionOnStack {
    static {
        System.loadLibrary("AsgstRedefinitionOnStack");
    }

    // Walks this thread from a native method: records the frame of
    // OnStack.run, JVMTI's view of it, and whether the unload handlers have
    // seen its method by then.
    static native void sampleRun();
    // Null if all is as the summary says, else what is not.
    static native String check(boolean afterCollection);

    static void redefineNow() throws Exception {
        RedefineClassHelper.redefineClass(OnStack.class,
            "class OnStack {" +
            "  static int run() throws Exception { return 2; }" +
            "}");
    }

    public static void main(String[] args) throws Exception {
        check(OnStack.run() == 1, "the first version did not run to its end");
        check(OnStack.run() == 2, "the second version did not run");
        String early = check(false);
        check(early == null, early);
        // The old version is freed, and handed to the handlers, at a
        // collection after it stopped running: collect until it is (the work
        // decides; a VM that never hands it over fails by the test's timeout).
        String result;
        do {
            System.gc();
            Thread.sleep(50);
            result = check(true);
        } while (result != null && result.startsWith("waiting"));
        check(result == null, result);
        System.out.println("old version on the stack: walked, then handed over");
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}

class OnStack {
    static int run() throws Exception {
        AsgstRedefinitionOnStack.redefineNow();
        AsgstRedefinitionOnStack.sampleRun();
        return 1;
    }
}
