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

// Defined anew in every round of AsgstUnloadRecompile by a throw-away class
// loader, compiled, sampled and then unloaded.
public class RecompiledWork {
    static volatile long sink;

    // Calls outer until nanos have passed; every call is compiled and never
    // inlined (the test's CompileCommand), so each call leaves a return
    // address in the caller's compiled code.
    public static long run(long nanos) {
        long end = System.nanoTime() + nanos;
        long n = 0;
        while (System.nanoTime() < end) {
            n += outer(n);
        }
        sink = n;
        return n;
    }

    static long outer(long n) {
        return middle(n) + 1;
    }

    static long middle(long n) {
        return inner(n) * 3;
    }

    static long inner(long n) {
        long x = n;
        for (int i = 0; i < 2000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }
}
