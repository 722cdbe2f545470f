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
 * @test id=jython
 * @summary Samples a real program with every way of walking at 0.1 ms intervals
 *          (signal handler, separate thread, safepoint queue, AsyncGetStackTrace),
 *          reading every walked method and every unloaded class: no crash, no
 *          hang, and few failed walks. Incremental walks with frame marks are
 *          checked against full walks of the same context: no difference, no
 *          stale cookie. The fast tier runs one cell of the matrix
 *          per workload; -Dasgst.stress.seconds=N runs the whole matrix
 *          (5 collectors x 3 compilation modes x platform/virtual threads) with
 *          N seconds per cell.
 * @requires os.family == "linux"
 * @library /test/lib
 * @run driver/timeout=7200 AsgstStress jython G1 default platform
 */

/*
 * @test id=h2
 * @requires os.family == "linux"
 * @library /test/lib
 * @run driver/timeout=7200 AsgstStress h2 Parallel default virtual
 */

/*
 * @test id=xalan
 * @requires os.family == "linux"
 * @library /test/lib
 * @run driver/timeout=7200 AsgstStress xalan Serial int platform
 */

/*
 * @test id=batik
 * @requires os.family == "linux" & vm.gc.Z
 * @library /test/lib
 * @run driver/timeout=7200 AsgstStress batik Z default platform
 */

/*
 * @test id=fop
 * @requires os.family == "linux" & vm.gc.Shenandoah
 * @library /test/lib
 * @run driver/timeout=7200 AsgstStress fop Shenandoah default virtual
 */

/*
 * @test id=rhino
 * @requires os.family == "linux"
 * @library /test/lib
 * @run driver/timeout=7200 AsgstStress rhino G1 comp platform
 */

/*
 * @test id=clojure
 * @requires os.family == "linux" & vm.gc.Z
 * @library /test/lib
 * @run driver/timeout=7200 AsgstStress clojure Z default virtual
 */

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;
import jtreg.SkippedException;

public class AsgstStress {
    static final String JARS = "/usr/share/java";
    static final List<String> COLLECTORS = List.of("G1", "Parallel", "Serial", "Z", "Shenandoah");
    static final List<String> COMPILATION = List.of("default", "int", "comp");
    static final List<String> THREADS = List.of("platform", "virtual");

    static final String RENAISSANCE_BENCHMARKS = "scrabble,page-rank,future-genetic,fj-kmeans,philosophers,dotty";

    // Bounds, set from measurement (doc/testing.md): the share of started walks
    // that end with an error, per mode, and the least work a cell must show.
    static final double MAX_FAILED_SHARE = 0.01;
    // Walks refused at the start (the thread outside Java code, or in a
    // collection) and halts given up (the thread did not answer in time):
    // measured 6-18% and 13% in the jython and h2 cells (2026-11-24); 35%,
    // about twice the highest, fails a walker that starts refusing where it
    // walked before (refusals do not count as failed walks).
    static final double MAX_REFUSED_SHARE = 0.35;
    static final double MAX_HALTS_GIVEN_UP_SHARE = 0.35;
    static final long MIN_SIGNAL_WALKS_PER_SECOND = 100;
    static final double MIN_QUEUE_PROCESSED_SHARE = 0.5;
    // The marks way (libAsgstStress.c: an incremental walk with frame marks
    // against a full walk of the same context) must have been exercised: at
    // least this many walks a second that reached a mark. Derived, not
    // measured: the sampler asks one thread every 0.1 ms, 10,000 signals a
    // second; the signal bound above accepts a sampler that gets 2% of that
    // through (100 walks a second from half the signals: 200 signals a
    // second). At that floor the marks way, every 7th signal of each thread,
    // walks 28 times a second. The signals go to the sampled threads in
    // turn, and only the workload's two threads (or their carriers) run Java
    // all the time; the others, at most about ten (main, the JDK's service
    // threads, the collecting thread, a virtual thread's idle carriers),
    // mostly block and reach no poll that would confirm a mark: 1 in 6 of
    // the walks, 4.7 a second, walk a running thread. A third of the marks
    // set are deep (in the bottom eighth of the Java frames, at or below the
    // workload's round loop) and live until the thread ends, and a thread
    // keeps a reached mark 7 times in 8: at least half of those walks reach
    // a mark, 2.3 a second, so 2.
    static final long MIN_MARKS_REACHED_PER_SECOND = 2;

    public static void main(String[] args) throws Exception {
        String workload = args[0];
        if (workload.equals("renaissance") && System.getProperty("asgst.stress.renaissance") == null) {
            // Not in the fast tier; a run of the whole directory skips it.
            throw new SkippedException("no Renaissance jar: make test-stress RENAISSANCE_JAR=...");
        }
        String seconds = System.getProperty("asgst.stress.seconds");
        List<String[]> cells = new ArrayList<>();
        if (seconds == null) {
            cells.add(new String[] {args[1], args[2], args[3]});
        } else {
            for (String gc : COLLECTORS) {
                for (String compilation : COMPILATION) {
                    // Renaissance starts its own threads.
                    for (String threads : workload.equals("renaissance") ? List.of("platform") : THREADS) {
                        cells.add(new String[] {gc, compilation, threads});
                    }
                }
            }
        }
        int duration = seconds == null ? 3 : Integer.parseInt(seconds);
        List<String> failures = new ArrayList<>();
        for (String[] cell : cells) {
            String failure = runCell(workload, cell[0], cell[1], cell[2], duration);
            if (failure != null) {
                failures.add(String.join("/", cell) + ": " + failure);
            }
        }
        if (!failures.isEmpty()) {
            throw new RuntimeException(failures.size() + " of " + cells.size() + " cells failed:\n"
                                       + String.join("\n", failures));
        }
    }

    static boolean collectorAvailable(String gc) {
        // jtreg's @requires covers the fast tier's cell; the matrix checks for itself.
        try {
            OutputAnalyzer out = ProcessTools.executeTestJava("-XX:+Use" + gc + "GC", "-version");
            return out.getExitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    /** Runs one cell; returns why it failed, or null. */
    static String runCell(String workload, String gc, String compilation, String threads, int seconds)
            throws Exception {
        String cell = workload + " " + gc + " " + compilation + " " + threads;
        if (!collectorAvailable(gc)) {
            // A cell that cannot run proves nothing: it fails (the fast tier's
            // @requires keeps jtreg from choosing a collector the VM lacks).
            return gc + " is not in this VM";
        }
        List<String> command = new ArrayList<>();
        // Emulated (make test-aarch64 sets asgst.time.factor), a walk takes tens
        // of times longer: at 0.1 ms the threads would run their handlers
        // almost all the time (Jython's start-up, 69 s unsampled, was still
        // not done after 20 minutes; at 1 ms it ran 97 s). The interval grows
        // by the factor, as the other tests' signals do (doc/building.md).
        int factor = Integer.getInteger("asgst.time.factor", 1);
        command.add("-agentpath:" + System.getProperty("test.nativepath") + File.separator + "libAsgstStress.so"
                    + (factor > 1 ? "=interval=" + 100 * factor : ""));
        command.add("-XX:+Use" + gc + "GC");
        command.add("-Xmx512m");
        if (!compilation.equals("default")) {
            command.add("-X" + compilation);
        }
        command.add("-Djava.awt.headless=true");
        if (workload.equals("renaissance")) {
            // The reference suite, when given: its benchmarks for the cell's duration.
            String jar = System.getProperty("asgst.stress.renaissance");   // given: main checked
            command.addAll(List.of("-jar", jar, "--run-seconds", Integer.toString(seconds),
                                   System.getProperty("asgst.stress.renaissance.benchmarks", RENAISSANCE_BENCHMARKS)));
        } else {
            command.add("-cp");
            command.add(classPath(workload));
            command.add("StressWorkloads");
            command.add(workload);
            command.add(Integer.toString(seconds));
            command.add("2");
            command.add(threads);
        }
        ProcessBuilder pb = ProcessTools.createTestJavaProcessBuilder(command);
        long start = System.nanoTime();
        Process process = pb.start();
        long limitSeconds = seconds + 600;  // start-up under -Xcomp is slow; a hang is not
        Thread watchdog = Thread.ofPlatform().daemon().start(() -> {
            try {
                if (!process.waitFor(limitSeconds, java.util.concurrent.TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                // the cell ended
            }
        });
        OutputAnalyzer out = new OutputAnalyzer(process);
        out.getExitValue();  // waits for the end
        watchdog.interrupt();
        double elapsed = (System.nanoTime() - start) / 1e9;
        String header = String.format("cell %s: exit %d in %.1f s", cell, out.getExitValue(), elapsed);
        String report = report(out.getStdout());
        String failure;
        if (elapsed >= limitSeconds) {
            failure = "hung (killed after " + limitSeconds + " s)";
        } else if (out.getExitValue() != 0) {
            failure = "exit value " + out.getExitValue();
            report += fatalErrorSummary(out.getStdout()) + out.getStderr();
        } else {
            failure = check(out.getStdout(), seconds, workload.equals("renaissance"), threads.equals("platform"),
                            StressWorkloads.UNLOADS_CLASSES.contains(workload));
        }
        String results = results(out.getStdout(), String.join("-", workload, gc, compilation, threads));
        saveReport(workload, gc, compilation, threads, header + "\n" + report + results);
        // jtreg keeps only the beginning and the end of a long output: a
        // passed cell prints one line and its results, a failed one its whole report.
        if (failure == null) {
            System.out.print(header + "; " + failedWalks(out.getStdout()) + marksSummary(out.getStdout()) + "\n"
                             + results);
        } else {
            System.out.print(header + "; FAILED: " + failure + "\n" + report + results);
        }
        return failure;
    }

    /** The lines of a VM's fatal error report on standard output ("# ..."): what failed, where. */
    static String fatalErrorSummary(String stdout) {
        StringBuilder b = new StringBuilder();
        for (String line : stdout.split("\n")) {
            if (line.startsWith("#")) {
                b.append("  ").append(line).append('\n');
            }
        }
        return b.toString();
    }

    /** Writes a cell's whole report into the directory -Dasgst.stress.reports names, if any. */
    static void saveReport(String workload, String gc, String compilation, String threads, String report)
            throws IOException {
        String dir = System.getProperty("asgst.stress.reports");
        if (dir == null || dir.isEmpty()) {
            return;
        }
        Path file = Path.of(dir, workload + "-" + gc + "-" + compilation + "-" + threads + ".txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, report);
    }

    /**
     * The cell's counts as lines that make/asgst/sum-results.sh sums: one per
     * mode ("asgst-result stress cell=... mode=... walks=..."), and one of the
     * cell's totals (enqueues, halts, unloads).
     */
    static String results(String stdout, String cell) {
        StringBuilder b = new StringBuilder();
        Map<String, String> totals = new TreeMap<>();
        for (String line : stdout.split("\n")) {
            if (!line.startsWith("asgst-stress ")) {
                continue;
            }
            Map<String, String> f = fields(line);
            if (!f.containsKey("mode")) {
                totals.putAll(f);
                continue;
            }
            b.append(resultLine(cell, f.get("mode"), f));
        }
        if (!totals.isEmpty()) {
            b.append(resultLine(cell, "totals", totals));
        }
        return b.toString();
    }

    static String resultLine(String cell, String mode, Map<String, String> fields) {
        StringBuilder b = new StringBuilder("asgst-result stress cell=" + cell + " mode=" + mode);
        for (var field : fields.entrySet()) {
            if (field.getValue().matches("-?[0-9]+")) {
                b.append(' ').append(field.getKey()).append('=').append(field.getValue());
            }
        }
        return b.append('\n').toString();
    }

    /** "failed/started walks" per mode, from a cell's report. */
    static String failedWalks(String stdout) {
        StringBuilder b = new StringBuilder("failed/started walks:");
        for (String line : stdout.split("\n")) {
            Matcher m = MODE.matcher(line);
            if (m.matches()) {
                Map<String, String> f = fields(m.group(2));
                long started = Long.parseLong(f.get("walks")) - Long.parseLong(f.get("refused"));
                b.append(' ').append(m.group(1)).append(' ').append(f.get("failed")).append('/').append(started);
            }
        }
        return b.toString();
    }

    static String classPath(String workload) {
        StringBuilder path = new StringBuilder(System.getProperty("test.classes"));
        for (String jar : StressWorkloads.jars(workload)) {
            path.append(File.pathSeparator).append(JARS).append(File.separator).append(jar);
        }
        return path.toString();
    }

    static final Pattern MODE = Pattern.compile("asgst-stress mode=(\\S+) (.*)");
    static final Pattern FIELD = Pattern.compile("(\\w+)=(\\S+)");

    static String report(String stdout) {
        StringBuilder b = new StringBuilder();
        for (String line : stdout.split("\n")) {
            if (line.startsWith("asgst-stress") || line.startsWith("workload") || line.startsWith("failed walk")
                || line.startsWith("  type") || line.startsWith("marks ") || line.startsWith("  marks ")) {
                b.append("  ").append(line).append('\n');
            }
        }
        return b.toString();
    }

    static Map<String, String> fields(String line) {
        Map<String, String> map = new TreeMap<>();
        Matcher m = FIELD.matcher(line);
        while (m.find()) {
            map.put(m.group(1), m.group(2));
        }
        return map;
    }

    static String check(String stdout, int seconds, boolean renaissance, boolean platform, boolean unloads) {
        Map<String, Map<String, String>> modes = new TreeMap<>();
        Map<String, String> totals = new TreeMap<>();
        boolean worked = false;
        for (String line : stdout.split("\n")) {
            Matcher m = MODE.matcher(line);
            if (m.matches()) {
                modes.put(m.group(1), fields(m.group(2)));
            } else if (line.startsWith("asgst-stress ")) {
                totals.putAll(fields(line));
            } else if (line.startsWith("workload ")) {
                worked = true;
            } else if (renaissance && line.startsWith("====== ") && line.contains(" completed")) {
                worked = true;  // Renaissance (and its stand-in) report each finished iteration so
            }
        }
        if (!worked || modes.size() != 5 || !modes.containsKey("marks") || !totals.containsKey("enqueued")
            || !totals.containsKey("unloaded_classes")) {
            return "incomplete report";
        }
        String marksFailure = checkMarks(modes.get("marks"), seconds);
        if (marksFailure != null) {
            return marksFailure;
        }
        for (var entry : modes.entrySet()) {
            Map<String, String> m = entry.getValue();
            if (entry.getKey().equals("marks") && !marksAvailable(m)) {
                continue;  // skipped: no walks to check
            }
            long walks = Long.parseLong(m.get("walks"));
            long refused = Long.parseLong(m.get("refused"));
            long failed = Long.parseLong(m.get("failed"));
            if (walks - refused <= 0) {
                return entry.getKey() + ": no walk started";
            }
            double share = (double) failed / (walks - refused);
            if (share > MAX_FAILED_SHARE) {
                // bad_bottom: walks that ended without an error but not in a thread's entry method.
                return String.format("%s: %.2f%% of the walks failed (bad_bottom=%s, errors %s)", entry.getKey(),
                                     share * 100, m.get("bad_bottom"), m.get("errors"));
            }
            if ((double) refused / walks > MAX_REFUSED_SHARE) {
                return String.format("%s: %d of %d walks refused (%s)", entry.getKey(), refused, walks,
                                     m.get("errors"));
            }
            // Only virtual threads keep frames in the heap.
            if (platform && !m.get("in_heap").equals("0")) {
                return entry.getKey() + ": " + m.get("in_heap") + " walks of platform threads ended at frames in the heap";
            }
            if (!m.get("info_failures").equals("0")) {
                return entry.getKey() + ": " + m.get("info_failures") + " walked methods without information";
            }
        }
        long signalWalks = Long.parseLong(modes.get("signal").get("walks"));
        if (signalWalks < MIN_SIGNAL_WALKS_PER_SECOND * seconds) {
            return "only " + signalWalks + " walks in signal handlers";
        }
        long enqueued = Long.parseLong(totals.get("enqueued"));
        long processed = Long.parseLong(modes.get("queue").get("walks"));
        if (enqueued == 0 || processed < MIN_QUEUE_PROCESSED_SHARE * enqueued || processed > enqueued) {
            return "queue: " + enqueued + " enqueued, " + processed + " processed";
        }
        long halts = Long.parseLong(totals.get("halts"));
        long givenUp = Long.parseLong(totals.get("halts_given_up"));
        if (halts == 0 || givenUp > MAX_HALTS_GIVEN_UP_SHARE * halts) {
            return "thread: " + givenUp + " of " + halts + " halts given up";
        }
        if (!totals.get("unload_info_failures").equals("0") || !totals.get("deregistered").equals("1")) {
            return "class unloading: " + totals;
        }
        if (unloads && totals.get("unloaded_classes").equals("0")) {
            return "class unloading: no class unloaded, although the workload leaves classes unreachable every round";
        }
        return null;
    }

    /** Whether the VM has frame marks (ASGST_MARK_FRAME); without, the marks way reports itself skipped. */
    static boolean marksAvailable(Map<String, String> marks) {
        return "1".equals(marks.get("available"));
    }

    /** The marks way's checks: every incremental trace equal to the full walk, no stale cookie, exercised. */
    static String checkMarks(Map<String, String> m, int seconds) {
        if (!marksAvailable(m)) {
            return null;
        }
        long differences = Long.parseLong(m.get("differences"));
        long stale = Long.parseLong(m.get("stale"));
        if (differences != 0 || stale != 0) {
            return "marks: " + differences + " of " + m.get("compared") + " incremental traces differed from the full"
                   + " walk, " + stale + " walks reached a stale cookie (the walks: \"marks\" lines of the report)";
        }
        if (!m.get("mark_errors").equals("0")) {
            return "marks: " + m.get("mark_errors") + " marks failed with an error other than ASGST_MARK_REFUSED";
        }
        long reached = Long.parseLong(m.get("reached"));
        if (reached < MIN_MARKS_REACHED_PER_SECOND * seconds) {
            return "marks: only " + reached + " of " + m.get("walks") + " walks reached a mark (" + m.get("marks_set")
                   + " marks set), fewer than " + MIN_MARKS_REACHED_PER_SECOND * seconds;
        }
        return null;
    }

    /** The marks way's figures for a cell's line. */
    static String marksSummary(String stdout) {
        for (String line : stdout.split("\n")) {
            Matcher m = MODE.matcher(line);
            if (m.matches() && m.group(1).equals("marks")) {
                Map<String, String> f = fields(m.group(2));
                if (!marksAvailable(f)) {
                    return "; marks skipped (no ASGST_MARK_FRAME)";
                }
                return "; marks: " + f.get("reached") + " of " + f.get("walks") + " walks reached a mark, "
                       + f.get("compared") + " compared, " + f.get("differences") + " differed, " + f.get("stale")
                       + " stale, " + f.get("marks_set") + " marks set";
            }
        }
        return "";
    }
}
