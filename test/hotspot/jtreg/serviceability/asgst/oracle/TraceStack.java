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

/**
 * The oracle's ground truth: instrumented methods call enter(id) first and
 * exit() before they return or throw, which keeps a stack of method ids per
 * thread in native memory, where the samplers of libAsgstOracle read it: an
 * OS thread's own, or that of the virtual thread it carries. Instrumented classes name this class from any
 * package, so it lives in the unnamed package of the application class loader.
 */
public final class TraceStack {
    static {
        System.loadLibrary("AsgstOracle");
    }

    private TraceStack() {
    }

    public static native void enter(int id);

    public static native void exit();

    /**
     * Starts sampling every intervalMicros (signal-handler walks and queue
     * elements, and halted threads walked from a sampler thread), and a
     * synchronous check at every checkEvery-th enter of a thread.
     * heapReadable: whether the collector lets signal and halted-thread
     * walks read frames in the heap.
     */
    static native void start(int intervalMicros, int checkEvery, boolean heapReadable);

    /** The counters so far, while sampling goes on. */
    static native long[] counts();

    /** Stops sampling; returns the counters (see AsgstOracle.Layer). */
    static native long[] stop();

    /** The first recorded mismatches: per mismatch the layer, then the two stacks, as "id id ... | id ...". */
    static native String[] mismatches();
}
