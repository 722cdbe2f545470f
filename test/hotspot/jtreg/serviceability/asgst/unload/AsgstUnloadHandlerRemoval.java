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
 * @summary ASGST_DeregisterClassUnloadHandler returns only once no call of
 *          the handler runs any more, and no call comes after it returned: a
 *          handler that takes 200 ms per class is in a call (made during a
 *          collection that unloads hidden classes) when another thread removes
 *          it; the removal returns after that call ended, later unloads do not
 *          reach the handler, and a second removal returns false.
 * @requires os.family == "linux" & vm.gc.G1
 * @run main/othervm/native -XX:+UseG1GC AsgstUnloadHandlerRemoval
 */

/*
 * @test id=z
 * @comment ZGC unloads concurrently with the application: the call runs on a
 *          GC thread while Java code runs.
 * @requires os.family == "linux" & vm.gc.Z
 * @run main/othervm/native -XX:+UseZGC AsgstUnloadHandlerRemoval
 */

import java.lang.invoke.MethodHandles;

public class AsgstUnloadHandlerRemoval {
    static {
        System.loadLibrary("AsgstUnloadHandlerRemoval");
    }

    static native void register();
    // Waits (in C) until a call of the handler is running, then removes the
    // handler; returns {whether the removal answered true, calls running
    // when it returned, calls ended by then}.
    static native int[] removeDuringCall();
    static native boolean removeAgain();
    static native int calls();

    static class Payload {
        @Override
        public String toString() {
            return "payload";
        }
    }

    static volatile Object sink;
    static volatile boolean stop;

    // Hidden classes, each unloadable as soon as it is unreachable.
    static void defineAndDrop(byte[] bytes, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            Class<?> c = MethodHandles.lookup().defineHiddenClass(bytes, false).lookupClass();
            sink = c.getDeclaredConstructor().newInstance().toString();
        }
        sink = null;
    }

    public static void main(String[] args) throws Exception {
        byte[] bytes;
        try (var in = AsgstUnloadHandlerRemoval.class.getResourceAsStream("AsgstUnloadHandlerRemoval$Payload.class")) {
            bytes = in.readAllBytes();
        }
        register();
        // Unload until the handler runs; the removal happens during a call.
        Thread unloader = Thread.ofPlatform().start(() -> {
            try {
                while (!stop) {
                    defineAndDrop(bytes, 20);
                    System.gc();
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        int[] r = removeDuringCall();
        int callsAtRemoval = calls();
        System.out.printf("removal: %d, %d calls running when it returned, %d ended%n", r[0], r[1], r[2]);
        check(r[0] == 1, "the removal answered false");
        check(r[1] == 0, r[1] + " calls of the handler were still running when the removal returned");
        check(r[2] >= 1, "no call had ended when the removal returned: it did not wait");
        // More unloading: the removed handler must not be called again.
        for (int round = 0; round < 5; round++) {
            defineAndDrop(bytes, 20);
            System.gc();
        }
        stop = true;
        unloader.join();
        check(calls() == callsAtRemoval, (calls() - callsAtRemoval) + " calls began after the removal returned");
        check(!removeAgain(), "a second removal answered true");
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
