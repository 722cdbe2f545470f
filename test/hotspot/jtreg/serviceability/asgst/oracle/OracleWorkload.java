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

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * A program whose stacks change shape all the time, for the oracle: deep and
 * mutual recursion, exceptions thrown through several frames and caught at
 * various depths, interface and virtual calls, lambdas, small methods that the
 * JIT inlines and loops without calls. Loaded and instrumented by the
 * TracingClassLoader; run(nanos, threads, virtual) works on platform or
 * virtual threads. A virtual thread yields at the bottom of its deep
 * recursion, so it unmounts with a deep stack and remounts, perhaps on
 * another carrier, with only its top frames thawed.
 */
public class OracleWorkload {
    interface Shape {
        long area(int scale);
    }

    record Square(int side) implements Shape {
        public long area(int scale) {
            return (long) side * side * scale;
        }
    }

    record Circle(int radius) implements Shape {
        public long area(int scale) {
            return 3L * radius * radius * scale;
        }
    }

    static final class Failure extends RuntimeException {
        final int depth;

        Failure(int depth) {
            super(null, null, false, false);
            this.depth = depth;
        }
    }

    static volatile long sink;

    static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static boolean isEven(int n) {
        return n == 0 || isOdd(n - 1);
    }

    static boolean isOdd(int n) {
        return n != 0 && isEven(n - 1);
    }

    static long throwAt(int depth, int at) {
        if (depth == at) {
            throw new Failure(depth);
        }
        return throwAt(depth + 1, at) + 1;
    }

    static long catchAt(int depth, int throwDepth, int catchDepth) {
        if (depth < catchDepth) {
            return catchAt(depth + 1, throwDepth, catchDepth) + 1;
        }
        try {
            return throwAt(depth, throwDepth);
        } catch (Failure f) {
            return f.depth;
        } finally {
            sink++;
        }
    }

    static long loop(int n) {
        long x = 0;
        for (int i = 0; i < n; i++) {
            x = x * 31 + i;  // no calls, no allocation
        }
        return x;
    }

    static long shapes(List<Shape> list, int scale) {
        long total = 0;
        for (Shape s : list) {
            total += s.area(scale);
        }
        return total;
    }

    static long lambdas(int n) {
        IntUnaryOperator twice = x -> x * 2;
        IntUnaryOperator plus = x -> x + (int) loop(x & 63);
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += twice.andThen(plus).applyAsInt(i);
        }
        return total;
    }

    static long deep(int depth) {
        if (depth == 0) {
            if (Thread.currentThread().isVirtual()) {
                Thread.yield();
            }
            return loop(500) + fib(10);
        }
        return deep(depth - 1) + 1;
    }

    static void iteration(int round) {
        List<Shape> list = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            list.add(i % 2 == 0 ? new Square(i) : new Circle(i));
        }
        long x = fib(16 + round % 4);
        x += isEven(100 + round % 50) ? 1 : 0;
        x += catchAt(0, 5 + round % 20, round % 5);
        x += shapes(list, round);
        x += lambdas(200);
        x += deep(50 + round % 200);
        sink += x;
    }

    public static void run(long nanos, int threads, boolean virtual) throws Exception {
        long deadline = System.nanoTime() + nanos;
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
            started.add(builder.name("oracle-" + t).start(() -> {
                for (int round = 0; System.nanoTime() < deadline; round++) {
                    iteration(round);
                }
            }));
        }
        for (Thread t : started) {
            t.join();
        }
    }
}
