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
 * @summary ASGST_GetMethodInfo, ASGST_GetClassInfo, the ids and line number tables
 *          equal what JVMTI reports, over every method of the loaded classes; the
 *          jmethodID and jclass conversions round-trip; strings truncate as
 *          documented; garbage handles are recognised.
 * @requires os.family == "linux"
 * @run main/othervm/native AsgstMethodInfo
 */
public class AsgstMethodInfo {
    static {
        System.loadLibrary("AsgstMethodInfo");
    }

    static native String compareAll(int[] counts);
    static native String checkTruncation(java.lang.reflect.Method hashCode);
    static native String checkGarbage();

    public static void main(String[] args) throws Exception {
        // Load and link a good part of java.base, and some generic, inner, hidden classes.
        java.util.List<Runnable> lambdas = java.util.List.of(() -> { }, () -> { });
        new java.util.concurrent.ConcurrentHashMap<String, Integer>().computeIfAbsent("a", String::length);
        java.util.stream.IntStream.range(0, 10).boxed().map(Object::toString).toList();
        java.time.LocalDate.now().plusDays(lambdas.size());

        int[] counts = new int[2];
        String result = compareAll(counts);
        check(result == null, result);
        System.out.println("compared " + counts[0] + " classes and " + counts[1] + " methods with JVMTI");
        check(counts[0] >= 500 && counts[1] >= 5000, "too few classes or methods compared");

        result = checkTruncation(String.class.getMethod("hashCode"));
        check(result == null, "truncation: " + result);
        result = checkGarbage();
        check(result == null, "garbage handles: " + result);
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
