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
 * @summary A redefined class keeps its class and method ids; its old version,
 *          with the methods sampled before, goes to the class-unload handlers
 *          with redefined == true; frames after it show the new methods.
 * @requires os.family == "linux" & vm.jvmti
 * @library /test/lib
 * @modules java.compiler java.instrument
 * @run main RedefineClassHelper
 * @run main/othervm/native -javaagent:redefineagent.jar AsgstRedefinition
 */
public class AsgstRedefinition {
    static {
        System.loadLibrary("AsgstRedefinition");
    }

    public static native void sample();
    static native String check();

    public static void main(String[] args) throws Exception {
        check(Redefined.work() == 1, "the first version");
        RedefineClassHelper.redefineClass(Redefined.class,
            "class Redefined {" +
            "  public static int work() { AsgstRedefinition.sample(); return 2; }" +
            "  static int other() { return 3; }" +
            "}");
        check(Redefined.work() == 2, "the second version");
        String result = check();
        check(result == null, result);
        System.out.println("redefinition: ids kept, old version reported");
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}

class Redefined {
    public static int work() {
        AsgstRedefinition.sample();
        return 1;
    }

    static int other() {
        return 4;
    }
}
