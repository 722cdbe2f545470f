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
 */

// Many platform threads that only wait: "Waiting SECONDS THREADS" starts
// THREADS threads, each parked until SECONDS after the last one started.

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

public class Waiting {
    static volatile long end;

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        int count = Integer.parseInt(args[1]);
        CountDownLatch started = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            threads.add(Thread.ofPlatform().name("waiting-" + i).start(() -> {
                try {
                    started.await();
                } catch (InterruptedException e) {
                    return;
                }
                long left;
                while ((left = end - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(left);
                }
            }));
        }
        end = System.nanoTime() + seconds * 1_000_000_000L;
        started.countDown();
        for (Thread t : threads) {
            t.join();
        }
    }
}
