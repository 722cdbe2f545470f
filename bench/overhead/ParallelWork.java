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
 * Prints the elapsed milliseconds and a checksum that depends on all the work.
 * Usage: ParallelWork KERNEL ROUNDS THREADS
 */
public class ParallelWork {
    public static void main(String[] args) throws Exception {
        String kernel = args[0];
        int rounds = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        long start = System.nanoTime();
        long checksum = switch (kernel) {
            case "streams" -> streams(rounds, threads);
            case "parallel-streams" -> parallelStreams(rounds, threads);
            case "forkjoin" -> forkJoin(rounds, threads);
            default -> throw new IllegalArgumentException("unknown kernel " + kernel);
        };
        System.out.println((System.nanoTime() - start) / 1_000_000);
        System.err.println("checksum " + checksum);
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

    static long streams(int rounds, int threads) throws InterruptedException {
        long[] sums = new long[threads];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            workers[t] = new Thread(() -> {
                String[] text = words(new SplittableRandom(id), 20_000);
                for (int round = 0; round < rounds; round++) {
                    int shift = round;
                    Map<Integer, List<String>> byLength = Arrays.stream(text)
                        .filter(w -> w.charAt(0) != (char) ('a' + shift % 26))
                        .distinct()
                        .collect(Collectors.groupingBy(String::length));
                    sums[id] += byLength.values().stream()
                        .map(list -> list.stream().sorted(Comparator.comparingInt(ParallelWork::score).reversed())
                                         .limit(10).mapToInt(ParallelWork::score).sum())
                        .mapToLong(Integer::longValue).sum();
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

    static long parallelStreams(int rounds, int threads) throws Exception {
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
            for (int round = 0; round < rounds; round++) {
                sum += pool.submit(() -> Arrays.stream(numbers).parallel()
                    .mapToLong(n -> encodings(n, dictionary).stream().mapToLong(List::size).sum())
                    .sum()).get();
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

    static long forkJoin(int rounds, int threads) {
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
            for (int round = 0; round < rounds; round++) {
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
            }
        } finally {
            pool.shutdown();
        }
        return checksum;
    }
}
