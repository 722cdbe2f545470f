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
 * @summary Accuracy of the safepoint queue: for each SIGPROF sample of a thread
 *          whose hot loop has no safepoint poll, the top frame the queue handler
 *          sees at the next poll agrees with the top frame of a walk in the
 *          signal handler for at least 95% of samples, every accepted element is
 *          processed, and JVMTI GetStackTrace taken meanwhile (at safepoints)
 *          shows the safepoint bias that the queue avoids.
 * @requires os.family == "linux" & vm.compiler2.enabled
 * @run main/othervm/native -XX:-UseCountedLoopSafepoints -XX:LoopStripMiningIter=0
 *      -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,AsgstQueueAccuracy::hot
 *      AsgstQueueAccuracy
 */
public class AsgstQueueAccuracy {
    static {
        System.loadLibrary("AsgstQueueAccuracy");
    }

    static native void startSampling(int intervalMicros);
    static native void stopSampling();
    static native int[] results(String hot);
    static native int jvmtiSample(Thread thread, String hot);
    static native String firstDifference();

    static volatile boolean stop;
    static volatile long sink;

    // A counted loop without a safepoint poll (see the flags above).
    static long hot(long seed) {
        long r = seed;
        for (int i = 0; i < 200_000; i++) {
            r = r * 31 + (i ^ (r >>> 7));
        }
        return r;
    }

    static void spin() {
        while (!stop) {
            sink += hot(sink);
        }
    }

    public static void main(String[] args) throws Exception {
        Thread worker = new Thread(() -> {
            for (int i = 0; i < 200; i++) {
                sink += hot(i);  // compile hot() before sampling
            }
            startSampling(1000);
            spin();
            stopSampling();
        });
        worker.start();
        int jvmtiSamples = 0, jvmtiHot = 0;
        // An emulator (make test-aarch64) runs the VM many times slower and
        // sets asgst.time.factor: 4 s gave 408 samples there (a floor below).
        long end = System.nanoTime() + 4_000_000_000L * Integer.getInteger("asgst.time.factor", 1);
        while (System.nanoTime() < end) {
            int r = jvmtiSample(worker, "hot");
            if (r >= 0) {
                jvmtiSamples++;
                jvmtiHot += r;
            }
            Thread.sleep(2);
        }
        stop = true;
        worker.join();

        int[] r = results("hot");
        int samples = r[0], accepted = r[1], processed = r[2], walked = r[3], same = r[4];
        int signalHot = r[5], queueHot = r[6];
        System.out.printf("%d samples, %d enqueued, %d processed; top frames agree in %d of %d (%.1f%%)%n",
                          samples, accepted, processed, same, walked, 100.0 * same / walked);
        System.out.printf("hot() on top: signal handler %.1f%%, queue %.1f%%, JVMTI GetStackTrace %.1f%% (%d samples)%n",
                          100.0 * signalHot / walked, 100.0 * queueHot / walked,
                          100.0 * jvmtiHot / Math.max(1, jvmtiSamples), jvmtiSamples);
        System.out.println("first difference: " + firstDifference());
        check(samples >= 500, "too few samples: " + samples);
        check(accepted * 100L >= samples * 99L, "the queue accepted only " + accepted + " of " + samples);
        check(processed == accepted, "accepted " + accepted + " but processed " + processed);
        check(same * 100L >= walked * 95L, "queue and signal-handler top frames agree in fewer than 95%");
        check(signalHot * 2L > walked, "hot() is not the top frame of most signal-handler walks");
        check(jvmtiSamples >= 100, "too few JVMTI samples: " + jvmtiSamples);
        check(jvmtiHot * 100L < jvmtiSamples * 50L,
              "JVMTI samples at safepoints should show the bias (hot() on top in fewer than half)");
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
