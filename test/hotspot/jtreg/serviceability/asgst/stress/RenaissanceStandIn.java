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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A stand-in for the Renaissance suite's jar, with its command-line shape
 * (java -jar renaissance.jar [--run-seconds N] [-r N] benchmark,benchmark...),
 * so that the stress harness's Renaissance path runs where the suite is not
 * available. Each benchmark name does a little real work in the spirit of the
 * suite's benchmark of that name (streams, iterations over a graph, futures,
 * fork/join, threads contending for locks, a small tokenizer and evaluator),
 * in turn, until the time is up or the repetitions are done. It is not the
 * suite: it proves the plumbing, not the workload.
 */
public class RenaissanceStandIn {
    static final Map<String, IntSupplier> BENCHMARKS = Map.of(
        "scrabble", RenaissanceStandIn::scrabble,
        "page-rank", RenaissanceStandIn::pageRank,
        "future-genetic", RenaissanceStandIn::futureGenetic,
        "fj-kmeans", RenaissanceStandIn::forkJoinSum,
        "philosophers", RenaissanceStandIn::philosophers,
        "dotty", RenaissanceStandIn::dotty);

    static volatile long sink;

    public static void main(String[] args) {
        long runSeconds = -1;
        int repetitions = -1;
        List<String> names = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--run-seconds", "-t" -> runSeconds = Long.parseLong(args[++i]);
                case "--repetitions", "-r" -> repetitions = Integer.parseInt(args[++i]);
                default -> {
                    if (args[i].startsWith("-")) {
                        System.err.println("unknown option " + args[i]);
                        System.exit(1);
                    }
                    names.addAll(List.of(args[i].split(",")));
                }
            }
        }
        for (String name : names) {
            if (!BENCHMARKS.containsKey(name)) {
                System.err.println("unknown benchmark " + name);
                System.exit(1);
            }
        }
        if (names.isEmpty()) {
            System.err.println("no benchmark given");
            System.exit(1);
        }
        long end = runSeconds < 0 ? Long.MAX_VALUE : System.nanoTime() + runSeconds * 1_000_000_000L;
        int rounds = repetitions < 0 ? (runSeconds < 0 ? 1 : Integer.MAX_VALUE) : repetitions;
        for (int round = 0; round < rounds && System.nanoTime() < end; round++) {
            for (String name : names) {
                long start = System.nanoTime();
                sink += BENCHMARKS.get(name).getAsInt();
                System.out.printf("====== %s (stand-in), iteration %d completed (%.3f ms) ======%n", name, round,
                                  (System.nanoTime() - start) / 1e6);
            }
        }
    }

    static int scrabble() {
        Random random = new Random(42);
        List<String> words = IntStream.range(0, 20_000)
            .mapToObj(i -> random.ints(3 + random.nextInt(6), 'a', 'z' + 1)
                                 .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                                 .toString())
            .collect(Collectors.toList());
        Map<Integer, List<String>> byScore = words.stream()
            .collect(Collectors.groupingBy(w -> w.chars().map(c -> c % 7 + 1).sum()));
        return byScore.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    static int pageRank() {
        int n = 2_000;
        Random random = new Random(7);
        int[][] links = new int[n][];
        for (int i = 0; i < n; i++) {
            links[i] = random.ints(1 + random.nextInt(8), 0, n).toArray();
        }
        double[] rank = new double[n];
        java.util.Arrays.fill(rank, 1.0 / n);
        for (int iteration = 0; iteration < 20; iteration++) {
            double[] next = new double[n];
            for (int i = 0; i < n; i++) {
                for (int target : links[i]) {
                    next[target] += 0.85 * rank[i] / links[i].length;
                }
            }
            for (int i = 0; i < n; i++) {
                rank[i] = next[i] + 0.15 / n;
            }
        }
        return (int) (rank[0] * 1e6);
    }

    static int futureGenetic() {
        List<CompletableFuture<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            int seed = i;
            futures.add(CompletableFuture.supplyAsync(() -> {
                Random random = new Random(seed);
                int best = 0;
                for (int generation = 0; generation < 2_000; generation++) {
                    best = Math.max(best, Integer.bitCount(random.nextInt()) + Integer.bitCount(best ^ seed));
                }
                return best;
            }));
        }
        return futures.stream().mapToInt(CompletableFuture::join).sum();
    }

    static final class Sum extends RecursiveTask<Long> {
        final int from;
        final int to;

        Sum(int from, int to) {
            this.from = from;
            this.to = to;
        }

        @Override
        protected Long compute() {
            if (to - from < 10_000) {
                long s = 0;
                for (int i = from; i < to; i++) {
                    s += (long) i * i % 7;
                }
                return s;
            }
            int middle = (from + to) >>> 1;
            Sum left = new Sum(from, middle);
            left.fork();
            return new Sum(middle, to).compute() + left.join();
        }
    }

    static int forkJoinSum() {
        return (int) (ForkJoinPool.commonPool().invoke(new Sum(0, 4_000_000)) & 0xffff);
    }

    static int philosophers() {
        int n = 5;
        ReentrantLock[] forks = new ReentrantLock[n];
        for (int i = 0; i < n; i++) {
            forks[i] = new ReentrantLock();
        }
        int[] meals = new int[n];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int p = i;
            threads.add(Thread.ofPlatform().start(() -> {
                ReentrantLock first = forks[Math.min(p, (p + 1) % n)];
                ReentrantLock second = forks[Math.max(p, (p + 1) % n)];
                for (int meal = 0; meal < 2_000; meal++) {
                    first.lock();
                    second.lock();
                    meals[p]++;
                    second.unlock();
                    first.unlock();
                }
            }));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return IntStream.of(meals).sum();
    }

    // A tokenizer and evaluator of arithmetic expressions over variables: a
    // compiler's front end in miniature.
    static int dotty() {
        Random random = new Random(3);
        Map<String, Integer> variables = new HashMap<>();
        int result = 0;
        for (int i = 0; i < 5_000; i++) {
            StringBuilder source = new StringBuilder("v" + (i % 50) + " = ");
            for (int term = 0; term < 10; term++) {
                source.append(term == 0 ? "" : random.nextBoolean() ? " + " : " * ")
                      .append(random.nextBoolean() ? "v" + random.nextInt(50) : Integer.toString(random.nextInt(9)));
            }
            String[] tokens = source.toString().split(" ");
            int value = 0, product = 1;
            for (int t = 2; t < tokens.length; t++) {
                String token = tokens[t];
                if (token.equals("+")) {
                    value += product;
                    product = 1;
                } else if (!token.equals("*")) {
                    product *= token.startsWith("v") ? variables.getOrDefault(token, 1) % 13 : Integer.parseInt(token);
                }
            }
            value += product;
            variables.put(tokens[0], value);
            result ^= value;
        }
        return result;
    }
}
