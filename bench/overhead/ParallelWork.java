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
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/*
 * Kernels of the kind that stream and fork-join programs run, for the
 * overhead benchmarks (bench/rate/measure.sh): work that ForkJoin workers
 * take, split, steal and park between, warm-up included (each run starts a
 * fresh VM and times all its rounds).
 *   streams           word scoring with sequential streams on THREADS threads
 *   parallel-streams  phone numbers encoded as words, one parallel stream per
 *                     round on a ForkJoinPool of THREADS workers
 *   forkjoin          k-means, each step a RecursiveTask tree on a
 *                     ForkJoinPool of THREADS workers
 *   tree              a recursive task tree: an unbalanced random tree summed
 *                     by a RecursiveTask per subtree on a ForkJoinPool of
 *                     THREADS workers, deep recursion included
 * A fixed amount of work (ROUNDS rounds; of each thread for streams) prints
 * the elapsed milliseconds. A fixed time (SECONDS, as "4s") prints the rounds
 * done and the rounds per second, warm-up included and after WARMUP seconds
 * (Budget): "rounds N per-second R after-warm-up A". Both print a checksum
 * of the work to stderr.
 * Usage: ParallelWork KERNEL ROUNDS|SECONDSs THREADS [WARMUP]
 */
public class ParallelWork {
    public static void main(String[] args) throws Exception {
        String kernel = args[0];
        int threads = Integer.parseInt(args[2]);
        Budget budget = args[1].endsWith("s")
            ? Budget.ofTime(Double.parseDouble(args[1].substring(0, args[1].length() - 1)),
                            args.length > 3 ? Double.parseDouble(args[3]) : 0)
            : Budget.ofRounds(Integer.parseInt(args[1]));
        long checksum = switch (kernel) {
            case "streams" -> streams(budget, threads);
            case "parallel-streams" -> parallelStreams(budget, threads);
            case "forkjoin" -> forkJoin(budget, threads);
            case "tree" -> tree(budget, threads);
            default -> throw new IllegalArgumentException("unknown kernel " + kernel);
        };
        System.out.println(budget.report());
        System.err.println("checksum " + checksum);
    }

    // How long a kernel runs: a number of rounds per loop, or rounds until a
    // time is up. The clock starts with the VM's first kernel code, warm-up
    // included. A run of fixed time reports the rounds per second of each
    // loop from the clock's start to the end of its last round (the round under way
    // when the time is up is finished: a round cut off would count for
    // nothing or for a whole one), summed over the loops; and the same from
    // the first round that ends after the warm-up.
    static final class Budget {
        final long start = System.nanoTime();
        final int rounds;        // per loop; 0 in a run of fixed time
        final long end, warmEnd; // nanoTime of the time's end, of the warm-up's end
        final List<Loop> loops = new ArrayList<>();

        private Budget(int rounds, double seconds, double warmUp) {
            if (rounds < 0 || warmUp < 0 || (rounds == 0 && warmUp >= seconds)) {
                throw new IllegalArgumentException(rounds + " rounds, warm-up " + warmUp + " s in " + seconds + " s");
            }
            this.rounds = rounds;
            this.end = start + (long) (seconds * 1e9);
            this.warmEnd = start + (long) (warmUp * 1e9);
        }

        static Budget ofRounds(int rounds) {
            return new Budget(rounds, 0, 0);
        }

        static Budget ofTime(double seconds, double warmUp) {
            return new Budget(0, seconds, warmUp);
        }

        // One loop of rounds, used by one thread.
        synchronized Loop loop() {
            Loop loop = new Loop();
            loops.add(loop);
            return loop;
        }

        final class Loop {
            int done;                 // rounds
            long lastEnd = start;     // when the last round ended
            boolean warm;             // whether a round ended after the warm-up
            long warmStart;           // when the first such round ended
            int doneAfterWarmStart;

            boolean more() {
                return rounds > 0 ? done < rounds : System.nanoTime() - end < 0;
            }

            void roundDone() {
                long now = System.nanoTime();
                done++;
                lastEnd = now;
                if (warm) {
                    doneAfterWarmStart++;
                } else if (now - warmEnd >= 0) {
                    warm = true;
                    warmStart = now;
                }
            }
        }

        // The threads of the loops have ended (joined, or the pool's task
        // returned). A rate that no round measured is "-": a loop without
        // rounds after the warm-up makes the sum unknown.
        synchronized String report() {
            if (rounds > 0) {
                return Long.toString((System.nanoTime() - start) / 1_000_000);
            }
            int done = 0;
            double perSecond = 0, afterWarmUp = 0;
            boolean afterWarmUpKnown = true;
            for (Loop loop : loops) {
                done += loop.done;
                if (loop.done > 0) {
                    perSecond += loop.done / ((loop.lastEnd - start) / 1e9);
                }
                if (loop.doneAfterWarmStart > 0) {
                    afterWarmUp += loop.doneAfterWarmStart / ((loop.lastEnd - loop.warmStart) / 1e9);
                } else {
                    afterWarmUpKnown = false;
                }
            }
            return String.format(Locale.ROOT, "rounds %d per-second %s after-warm-up %s", done,
                                 done > 0 ? String.format(Locale.ROOT, "%.3f", perSecond) : "-",
                                 afterWarmUpKnown && !loops.isEmpty() ? String.format(Locale.ROOT, "%.3f", afterWarmUp) : "-");
        }
    }

    // ---- streams: score the words of a text, keep the best ---------------------------------

    static String[] words(SplittableRandom random, int count) {
        String[] words = new String[count];
        for (int i = 0; i < count; i++) {
            char[] w = new char[3 + random.nextInt(8)];
            for (int j = 0; j < w.length; j++) {
                w[j] = (char) ('a' + Math.min(25, (int) Math.abs(random.nextGaussian() * 6)));
            }
            words[i] = new String(w);
        }
        return words;
    }

    static int score(String word) {
        int score = 0;
        for (int i = 0; i < word.length(); i++) {
            score += "eaiotnrslcudpmhgbfywkvxzjq".indexOf(word.charAt(i)) + 1;
        }
        return score * (word.chars().distinct().count() == word.length() ? 2 : 1);
    }

    static long streams(Budget budget, int threads) throws InterruptedException {
        long[] sums = new long[threads];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            workers[t] = new Thread(() -> {
                String[] text = words(new SplittableRandom(id), 20_000);
                Budget.Loop loop = budget.loop();
                for (int round = 0; loop.more(); round++) {
                    int shift = round;
                    Map<Integer, List<String>> byLength = Arrays.stream(text)
                        .filter(w -> w.charAt(0) != (char) ('a' + shift % 26))
                        .distinct()
                        .collect(Collectors.groupingBy(String::length));
                    sums[id] += byLength.values().stream()
                        .map(list -> list.stream().sorted(Comparator.comparingInt(ParallelWork::score).reversed())
                                         .limit(10).mapToInt(ParallelWork::score).sum())
                        .mapToLong(Integer::longValue).sum();
                    loop.roundDone();
                }
            });
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        return Arrays.stream(sums).sum();
    }

    // ---- parallel streams: phone numbers as words ------------------------------------------

    static final String[] KEYS = {"", "", "abc", "def", "ghi", "jkl", "mno", "pqrs", "tuv", "wxyz"};

    static String digitsOf(String word) {
        StringBuilder digits = new StringBuilder(word.length());
        for (int i = 0; i < word.length(); i++) {
            for (int k = 2; k < KEYS.length; k++) {
                if (KEYS[k].indexOf(word.charAt(i)) >= 0) {
                    digits.append((char) ('0' + k));
                    break;
                }
            }
        }
        return digits.toString();
    }

    // Every way to write number as a sequence of dictionary words.
    static List<List<String>> encodings(String number, Map<String, List<String>> dictionary) {
        List<List<String>> result = new ArrayList<>();
        if (number.isEmpty()) {
            result.add(List.of());
            return result;
        }
        for (int end = 1; end <= number.length(); end++) {
            List<String> firsts = dictionary.get(number.substring(0, end));
            if (firsts == null) {
                continue;
            }
            for (List<String> rest : encodings(number.substring(end), dictionary)) {
                for (String first : firsts) {
                    List<String> encoding = new ArrayList<>(rest.size() + 1);
                    encoding.add(first);
                    encoding.addAll(rest);
                    result.add(encoding);
                }
            }
        }
        return result;
    }

    static long parallelStreams(Budget budget, int threads) throws Exception {
        SplittableRandom random = new SplittableRandom(42);
        Map<String, List<String>> dictionary = Arrays.stream(words(random, 5_000)).distinct()
            .collect(Collectors.groupingBy(ParallelWork::digitsOf));
        String[] numbers = new String[2_000];
        for (int i = 0; i < numbers.length; i++) {
            StringBuilder n = new StringBuilder();
            for (int j = 0; j < 9 + random.nextInt(6); j++) {
                n.append((char) ('2' + random.nextInt(8)));
            }
            numbers[i] = n.toString();
        }
        ForkJoinPool pool = new ForkJoinPool(threads);
        long sum = 0;
        try {
            Budget.Loop loop = budget.loop();
            for (int round = 0; loop.more(); round++) {
                sum += pool.submit(() -> Arrays.stream(numbers).parallel()
                    .mapToLong(n -> encodings(n, dictionary).stream().mapToLong(List::size).sum())
                    .sum()).get();
                loop.roundDone();
            }
        } finally {
            pool.shutdown();
        }
        return sum;
    }

    // ---- fork-join: k-means -----------------------------------------------------------------

    static final int DIMENSIONS = 4, CLUSTERS = 8, LEAF = 512;

    // Per cluster: the coordinate sums and the count of the points nearest to it.
    static final class Assign extends RecursiveTask<double[][]> {
        final double[][] points, centers;
        final int from, to;

        Assign(double[][] points, double[][] centers, int from, int to) {
            this.points = points; this.centers = centers; this.from = from; this.to = to;
        }

        @Override
        protected double[][] compute() {
            if (to - from > LEAF) {
                int middle = (from + to) >>> 1;
                Assign left = new Assign(points, centers, from, middle);
                left.fork();
                double[][] right = new Assign(points, centers, middle, to).compute();
                double[][] sums = left.join();
                for (int c = 0; c < CLUSTERS; c++) {
                    for (int d = 0; d <= DIMENSIONS; d++) {
                        sums[c][d] += right[c][d];
                    }
                }
                return sums;
            }
            double[][] sums = new double[CLUSTERS][DIMENSIONS + 1];
            for (int i = from; i < to; i++) {
                int best = 0;
                double bestDistance = Double.MAX_VALUE;
                for (int c = 0; c < CLUSTERS; c++) {
                    double distance = 0;
                    for (int d = 0; d < DIMENSIONS; d++) {
                        double delta = points[i][d] - centers[c][d];
                        distance += delta * delta;
                    }
                    if (distance < bestDistance) {
                        bestDistance = distance;
                        best = c;
                    }
                }
                for (int d = 0; d < DIMENSIONS; d++) {
                    sums[best][d] += points[i][d];
                }
                sums[best][DIMENSIONS]++;
            }
            return sums;
        }
    }

    static long forkJoin(Budget budget, int threads) {
        SplittableRandom random = new SplittableRandom(7);
        double[][] points = new double[100_000][DIMENSIONS];
        for (double[] p : points) {
            int cluster = random.nextInt(CLUSTERS);
            for (int d = 0; d < DIMENSIONS; d++) {
                p[d] = cluster * 10 + random.nextGaussian() * 4;
            }
        }
        ForkJoinPool pool = new ForkJoinPool(threads);
        long checksum = 0;
        try {
            Budget.Loop loop = budget.loop();
            for (int round = 0; loop.more(); round++) {
                double[][] centers = IntStream.range(0, CLUSTERS).mapToObj(c -> points[c * 997].clone())
                    .toArray(double[][]::new);
                for (int step = 0; step < 10; step++) {
                    double[][] sums = pool.invoke(new Assign(points, centers, 0, points.length));
                    for (int c = 0; c < CLUSTERS; c++) {
                        for (int d = 0; d < DIMENSIONS && sums[c][DIMENSIONS] > 0; d++) {
                            centers[c][d] = sums[c][d] / sums[c][DIMENSIONS];
                        }
                    }
                }
                checksum += Arrays.stream(centers).map(Function.identity())
                    .mapToLong(c -> Math.round(Arrays.stream(c).sum())).sum();
                loop.roundDone();
            }
        } finally {
            pool.shutdown();
        }
        return checksum;
    }

    // ---- tree: a recursive task tree ---------------------------------------------------------

    static final int TREE_NODES = 300_000, TREE_LEAF = 2_000, NODE_WORK = 16;

    static final class Node {
        final long value;
        final int size;
        final Node left, right;

        Node(long value, Node left, Node right) {
            this.value = value; this.left = left; this.right = right;
            this.size = 1 + size(left) + size(right);
        }
    }

    static int size(Node node) {
        return node == null ? 0 : node.size;
    }

    // A tree of count nodes whose every split is uneven at random (5-95%):
    // deeper than a balanced tree, and its subtrees' tasks of any size.
    static Node randomTree(SplittableRandom random, int count) {
        if (count == 0) {
            return null;
        }
        int left = (int) ((count - 1) * (0.05 + 0.9 * random.nextDouble()));
        return new Node(random.nextLong(), randomTree(random, left), randomTree(random, count - 1 - left));
    }

    static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        return x ^ (x >>> 33);
    }

    // A node's hash from its subtrees' (the same however the tree is split into tasks).
    static long combine(Node node, int round, long left, long right) {
        long h = node.value ^ round;
        for (int i = 0; i < NODE_WORK; i++) {
            h = mix(h + left);
        }
        return h ^ (right * 31);
    }

    static long hash(Node node, int round) {
        return node == null ? round : combine(node, round, hash(node.left, round), hash(node.right, round));
    }

    static final class HashTree extends RecursiveTask<Long> {
        final Node node;
        final int round;

        HashTree(Node node, int round) {
            this.node = node; this.round = round;
        }

        @Override
        protected Long compute() {
            if (size(node) <= TREE_LEAF) {
                return hash(node, round);
            }
            HashTree left = new HashTree(node.left, round);
            left.fork();
            long right = new HashTree(node.right, round).compute();
            return combine(node, round, left.join(), right);
        }
    }

    static long tree(Budget budget, int threads) {
        Node root = randomTree(new SplittableRandom(11), TREE_NODES);
        ForkJoinPool pool = new ForkJoinPool(threads);
        long checksum = 0;
        try {
            Budget.Loop loop = budget.loop();
            for (int round = 0; loop.more(); round++) {
                checksum += pool.invoke(new HashTree(root, round));
                loop.roundDone();
            }
        } finally {
            pool.shutdown();
        }
        return checksum;
    }
}
