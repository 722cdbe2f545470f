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
 * Sampling threads of the VM from a plain pthread, as the stress and oracle
 * agents do: a registry of sampled threads, asking a thread by signal to do
 * something in its handler, and halting it (it waits in its handler) while the
 * sampler walks it. A library's per-thread record starts with an
 * AsgstSampledThread. Included by relative path.
 */

#ifndef ASGST_TEST_SAMPLING_H
#define ASGST_TEST_SAMPLING_H

#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "profile.h"

typedef struct {
  volatile pid_t tid;      /* 0: free; -1: being filled in */
  volatile int request;    /* what the thread is asked to do in its handler; 0: nothing */
  volatile int halt;       /* 1: asked to halt */
  volatile int phase;      /* halting: 0 asked, 1 halted, 2 released, 3 given up */
  void* volatile context;  /* the halted thread's ucontext */
} AsgstSampledThread;

static AsgstSampledThread* asgst_sampled_at(void* records, size_t record_size, int index) {
  return (AsgstSampledThread*)((char*)records + record_size * (size_t)index);
}

/* Claims a free record for the calling thread; null if all are taken. Publish it with asgst_sampled_publish. */
static AsgstSampledThread* asgst_sampled_claim(void* records, size_t record_size, int count) {
  int i;
  for (i = 0; i < count; i++) {
    AsgstSampledThread* t = asgst_sampled_at(records, record_size, i);
    pid_t free_slot = 0;
    if (__atomic_load_n(&t->tid, __ATOMIC_RELAXED) == 0 &&
        __atomic_compare_exchange_n(&t->tid, &free_slot, -1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      t->request = 0;
      t->halt = 0;
      return t;
    }
  }
  return NULL;
}

/* Makes a claimed record visible to the samplers. */
static void asgst_sampled_publish(AsgstSampledThread* t) {
  __atomic_store_n(&t->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
}

/* Frees a record (the thread ends). */
static void asgst_sampled_free(AsgstSampledThread* t) {
  __atomic_store_n(&t->tid, 0, __ATOMIC_RELEASE);
}

/* As the thread ends, once its signal handler no longer finds the record:
   removes the thread's queue, if it has one, and frees the record. */
static void asgst_sampled_end(AsgstSampledThread* t, ASGST_Queue* volatile* queue) {
  ASGST_Queue* q;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);  /* the handler's record pointer cleared before */
  q = *queue;
  *queue = NULL;
  if (q != NULL) {
    ASGST_DeregisterQueue(q);
  }
  asgst_sampled_free(t);
}

/* The next published record after *next, in turn; its tid, or 0 if there is none. */
static pid_t asgst_sampled_next(void* records, size_t record_size, int count, int* next,
                                AsgstSampledThread** found) {
  int i;
  for (i = 0; i < count; i++) {
    AsgstSampledThread* t = asgst_sampled_at(records, record_size, (*next + i) % count);
    pid_t tid = __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE);
    if (tid > 0) {
      *next = (*next + i + 1) % count;
      *found = t;
      return tid;
    }
  }
  return 0;
}

static void asgst_sampled_pause(long micros) {
  struct timespec pause = { micros / 1000000, (micros % 1000000) * 1000 };
  nanosleep(&pause, NULL);
}

static long asgst_sampled_now_nanos(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* Asks the thread to do request in its handler for signo. */
static void asgst_sampled_ask(AsgstSampledThread* t, pid_t tid, int request, int signo) {
  __atomic_store_n(&t->request, request, __ATOMIC_RELEASE);
  syscall(SYS_tgkill, getpid(), tid, signo);
}

/*
 * Halts the thread: 1 when it waits in its handler (walk it with t->context,
 * then call asgst_sampled_release), 0 when it is gone or another thread took
 * the record over, -1 when it did not answer within timeout_nanos (given up:
 * a sampler never waits forever).
 */
static int asgst_sampled_halt(AsgstSampledThread* t, pid_t tid, int signo, long timeout_nanos) {
  long deadline = asgst_sampled_now_nanos() + timeout_nanos;
  __atomic_store_n(&t->phase, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&t->halt, 1, __ATOMIC_RELEASE);
  if (syscall(SYS_tgkill, getpid(), tid, signo) != 0) {
    __atomic_store_n(&t->halt, 0, __ATOMIC_RELEASE);
    return 0;
  }
  while (__atomic_load_n(&t->phase, __ATOMIC_ACQUIRE) != 1) {
    int asked = 0;
    if (asgst_sampled_now_nanos() > deadline &&
        __atomic_compare_exchange_n(&t->phase, &asked, 3, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      return -1;
    }
    sched_yield();
  }
  if (__atomic_load_n(&t->tid, __ATOMIC_ACQUIRE) != tid) {
    __atomic_store_n(&t->phase, 2, __ATOMIC_RELEASE);  /* a thread that took the record over */
    return 0;
  }
  return 1;
}

static void asgst_sampled_release(AsgstSampledThread* t) {
  __atomic_store_n(&t->phase, 2, __ATOMIC_RELEASE);
}

/* In the handler: the request, now taken (0 if none). */
static int asgst_sampled_take_request(AsgstSampledThread* t) {
  return __atomic_exchange_n(&t->request, 0, __ATOMIC_ACQ_REL);
}

/* In the handler, after any request: waits while the sampler walks this thread, if asked to. */
static void asgst_sampled_answer_halt(AsgstSampledThread* t, void* ucontext) {
  int asked = 0;
  if (__atomic_exchange_n(&t->halt, 0, __ATOMIC_ACQ_REL)) {
    t->context = ucontext;
    if (__atomic_compare_exchange_n(&t->phase, &asked, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      while (__atomic_load_n(&t->phase, __ATOMIC_ACQUIRE) == 1) {
        sched_yield();
      }
    }
  }
}

#endif /* ASGST_TEST_SAMPLING_H */
