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

/* The native side of AsgstQueueOtherThread.java. */

#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

static JNIEnv* sampled_env;
static pid_t sampled_tid;
static timer_t timer;
static ASGST_Queue* volatile queue;
static volatile int removed;
static volatile int accepted, processed, processed_elsewhere, accepted_after_removal, no_queue_after_removal;

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  ASGST_Frame frame;
  (void)queue_arg; (void)element_arg;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
  }
  if ((pid_t)syscall(SYS_gettid) != sampled_tid) {
    __atomic_fetch_add(&processed_elsewhere, 1, __ATOMIC_RELAXED);
  }
  __atomic_fetch_add(&processed, 1, __ATOMIC_RELAXED);
}

static void on_sample(int signo, siginfo_t* info, void* ucontext) {
  ASGST_Queue* q = __atomic_load_n(&queue, __ATOMIC_ACQUIRE);
  /* Read before the enqueue: if set, the removal had returned before it. */
  int after_removal = __atomic_load_n(&removed, __ATOMIC_ACQUIRE);
  int result;
  (void)signo; (void)info;
  if (q == NULL) {
    return;
  }
  result = ASGST_Enqueue(q, ucontext, NULL);
  if (result > 0) {
    __atomic_fetch_add(&accepted, 1, __ATOMIC_RELAXED);
    if (after_removal) {
      __atomic_fetch_add(&accepted_after_removal, 1, __ATOMIC_RELAXED);
    }
  } else if (after_removal && result == ASGST_ENQUEUE_NO_QUEUE) {
    __atomic_fetch_add(&no_queue_after_removal, 1, __ATOMIC_RELAXED);
  }
}

JNIEXPORT void JNICALL Java_AsgstQueueOtherThread_startSampled(JNIEnv* env, jclass cls) {
  (void)cls;
  sampled_env = env;
  sampled_tid = (pid_t)syscall(SYS_gettid);
  asgst_test_start_cpu_sampling(on_sample, 1000, &timer);
}

JNIEXPORT void JNICALL Java_AsgstQueueOtherThread_stopSampled(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  timer_delete(timer);
}

JNIEXPORT jboolean JNICALL Java_AsgstQueueOtherThread_registerForSampled(JNIEnv* env, jclass cls) {
  ASGST_Queue* q;
  (void)env; (void)cls;
  q = ASGST_RegisterQueue(sampled_env, 64, 0, on_element, NULL);
  __atomic_store_n(&queue, q, __ATOMIC_RELEASE);
  return q != NULL ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jboolean JNICALL Java_AsgstQueueOtherThread_deregister(JNIEnv* env, jclass cls) {
  bool result;
  (void)env; (void)cls;
  result = ASGST_DeregisterQueue(__atomic_load_n(&queue, __ATOMIC_ACQUIRE));
  __atomic_store_n(&removed, 1, __ATOMIC_RELEASE);
  return result ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jintArray JNICALL Java_AsgstQueueOtherThread_counts(JNIEnv* env, jclass cls) {
  jint r[5];
  (void)cls;
  r[0] = accepted;
  r[1] = processed;
  r[2] = processed_elsewhere;
  r[3] = accepted_after_removal;
  r[4] = no_queue_after_removal;
  return asgst_test_int_array(env, r, 5);
}
