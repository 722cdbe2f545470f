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
 * @test id=g1
 * @summary Classes of throw-away class loaders whose frames were sampled are
 *          reported to every class-unload handler exactly once, with all their
 *          methods, which the handler can still read; deregistration works.
 * @requires os.family == "linux" & vm.gc.G1
 * @compile Unloadable.java
 * @run main/othervm/native -XX:+UseG1GC AsgstClassUnload
 */

/*
 * @test id=parallel
 * @requires os.family == "linux" & vm.gc.Parallel
 * @compile Unloadable.java
 * @run main/othervm/native -XX:+UseParallelGC AsgstClassUnload
 */

/*
 * @test id=serial
 * @requires os.family == "linux" & vm.gc.Serial
 * @compile Unloadable.java
 * @run main/othervm/native -XX:+UseSerialGC AsgstClassUnload
 */

/*
 * @test id=z
 * @requires os.family == "linux" & vm.gc.Z
 * @compile Unloadable.java
 * @run main/othervm/native -XX:+UseZGC AsgstClassUnload
 */

/*
 * @test id=shenandoah
 * @requires os.family == "linux" & vm.gc.Shenandoah
 * @compile Unloadable.java
 * @run main/othervm/native -XX:+UseShenandoahGC AsgstClassUnload
 */

import java.lang.reflect.Method;

public class AsgstClassUnload {
    static {
        System.loadLibrary("AsgstClassUnload");
    }

    public static native void sample();  // public: Unloadable lives in another runtime package
    static native int sampledClasses();
    static native int[] unloadEvents();
    static native boolean[] deregister();

    static final int LOADERS = 5;

    public static void main(String[] args) throws Exception {
        useThrowAwayClasses();
        check(sampledClasses() == LOADERS, "sampled " + sampledClasses() + " classes");
        long deadline = System.nanoTime() + 60_000_000_000L;
        int[] events = unloadEvents();
        while (!allSeen(events) && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(50);
            events = unloadEvents();
        }
        for (int k = 0; k < LOADERS; k++) {
            int first = events[3 * k], second = events[3 * k + 1], consistent = events[3 * k + 2];
            check(first == 1 && second == 1, "class " + k + " was reported " + first + " and " + second + " times");
            check(consistent == 1, "class " + k + ": a handler saw the wrong methods, name or flag");
        }
        boolean[] results = deregister();
        check(results[0] && !results[1], "deregistering: " + results[0] + ", then " + results[1]);
        System.out.println(LOADERS + " unloaded classes reported once to each handler");
    }

    static boolean allSeen(int[] events) {
        for (int k = 0; k < LOADERS; k++) {
            if (events[3 * k] == 0 || events[3 * k + 1] == 0) {
                return false;
            }
        }
        return true;
    }

    // Kept out of main's frame so that nothing there keeps a loader alive.
    static void useThrowAwayClasses() throws Exception {
        for (int i = 0; i < LOADERS; i++) {
            ClassLoader loader = new ThrowAwayLoader(AsgstClassUnload.class.getClassLoader(), "Unloadable");
            Class<?> c = loader.loadClass("Unloadable");
            check(c.getClassLoader() != AsgstClassUnload.class.getClassLoader(), "Unloadable came from the wrong loader");
            Method work = c.getMethod("work", int.class);
            check((int) work.invoke(null, 20) == 41, "work() failed");
        }
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
