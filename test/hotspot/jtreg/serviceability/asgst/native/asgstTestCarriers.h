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
 * Sampling the carriers of virtual threads: each virtual thread calls
 * asgst_test_sample_carrier when it starts, and the OS thread it runs on
 * gets a wall-clock timer of its own unless it has one. Included by
 * relative path after asgstTestSupport.h, by one file of a library.
 */

#ifndef ASGST_TEST_CARRIERS_H
#define ASGST_TEST_CARRIERS_H

#include <pthread.h>

#define ASGST_TEST_MAX_CARRIERS 64

static pid_t asgst_test_carriers[ASGST_TEST_MAX_CARRIERS];
static timer_t asgst_test_carrier_timers[ASGST_TEST_MAX_CARRIERS];
static int asgst_test_carrier_count;
static pthread_mutex_t asgst_test_carriers_lock = PTHREAD_MUTEX_INITIALIZER;

/* Starts sampling the calling OS thread with handler every interval_micros
   of wall-clock time, unless it is sampled already. */
static void asgst_test_sample_carrier(void (*handler)(int, siginfo_t*, void*), long interval_micros) {
  pid_t tid = (pid_t)syscall(SYS_gettid);
  int i, known = 0;
  pthread_mutex_lock(&asgst_test_carriers_lock);
  for (i = 0; i < asgst_test_carrier_count; i++) {
    known |= asgst_test_carriers[i] == tid;
  }
  if (!known && asgst_test_carrier_count < ASGST_TEST_MAX_CARRIERS &&
      asgst_test_start_sampling(handler, CLOCK_MONOTONIC, interval_micros,
                                &asgst_test_carrier_timers[asgst_test_carrier_count]) == 0) {
    asgst_test_carriers[asgst_test_carrier_count++] = tid;
  }
  pthread_mutex_unlock(&asgst_test_carriers_lock);
}

/* Stops sampling every carrier. */
static void asgst_test_stop_carriers(void) {
  int i;
  pthread_mutex_lock(&asgst_test_carriers_lock);
  for (i = 0; i < asgst_test_carrier_count; i++) {
    timer_delete(asgst_test_carrier_timers[i]);
  }
  asgst_test_carrier_count = 0;
  pthread_mutex_unlock(&asgst_test_carriers_lock);
}

#endif /* ASGST_TEST_CARRIERS_H */
