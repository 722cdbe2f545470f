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

/*
 * What several ASGST test libraries share: starting a CPU-time sampler on the
 * calling thread, and recognizing a method by name. Included by relative path.
 */

#ifndef ASGST_TEST_SUPPORT_H
#define ASGST_TEST_SUPPORT_H

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "profile.h"

/*
 * Installs handler for SIGPROF and starts a timer that sends SIGPROF to the
 * calling thread every interval_micros of clock (CLOCK_THREAD_CPUTIME_ID: its
 * CPU time, which the kernel checks only at scheduler ticks; CLOCK_MONOTONIC:
 * wall-clock time). Returns 0, or -1.
 */
static int asgst_test_start_sampling(void (*handler)(int, siginfo_t*, void*), clockid_t clock,
                                     long interval_micros, timer_t* timer) {
  struct sigaction action;
  struct sigevent event;
  struct itimerspec spec;
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = handler;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  memset(&event, 0, sizeof(event));
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGPROF;
  event._sigev_un._tid = (pid_t)syscall(SYS_gettid);
  memset(&spec, 0, sizeof(spec));
  spec.it_interval.tv_sec = interval_micros / 1000000;
  spec.it_interval.tv_nsec = (interval_micros % 1000000) * 1000;
  spec.it_value = spec.it_interval;
  if (sigaction(SIGPROF, &action, NULL) != 0 ||
      timer_create(clock, &event, timer) != 0 ||
      timer_settime(*timer, 0, &spec, NULL) != 0) {
    return -1;
  }
  return 0;
}

/* The same for the calling thread's CPU time. */
static int asgst_test_start_cpu_sampling(void (*handler)(int, siginfo_t*, void*), long interval_micros,
                                         timer_t* timer) {
  return asgst_test_start_sampling(handler, CLOCK_THREAD_CPUTIME_ID, interval_micros, timer);
}

/* Whether method is named name. Signal safe. */
static int asgst_test_method_is(ASGST_Method method, const char* name) {
  char buffer[64];
  ASGST_MethodInfo info;
  memset(&info, 0, sizeof(info));
  info.method_name = buffer;
  info.method_name_length = sizeof(buffer);
  ASGST_GetMethodInfo(method, &info);
  return info.method_name != NULL && strcmp(buffer, name) == 0;
}

/* Appends "name/type/comp_level/bci " of frame to text (size bytes, used so far)
   while it fits, for reports of failed or mismatching walks. */
static void asgst_test_describe_frame(char* text, size_t size, size_t* used, const ASGST_Frame* frame) {
  char name[48] = "-";
  if (frame->method != NULL) {
    ASGST_MethodInfo info;
    memset(&info, 0, sizeof(info));
    info.method_name = name;
    info.method_name_length = (jint)sizeof(name);
    ASGST_GetMethodInfo(frame->method, &info);
  }
  if (*used + 80 < size) {
    *used += (size_t)snprintf(text + *used, size - *used, "%s/%d/%d/%d ", name, frame->type, frame->comp_level,
                              frame->bci);
  }
}

#endif /* ASGST_TEST_SUPPORT_H */
