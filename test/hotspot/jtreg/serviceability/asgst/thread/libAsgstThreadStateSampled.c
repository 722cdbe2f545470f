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

/* The native side of AsgstThreadStateSampled.java. */

#include <pthread.h>
#include <string.h>
#include <time.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define MAX_SAMPLES 100000

static jvmtiEnv* jvmti;
static volatile int states[MAX_SAMPLES];
static volatile int sample_count;
static timer_t timer;
static pid_t sampled_tid;
static clockid_t sampled_clock;
static volatile int spinning, released;

static void on_sample(int signo, siginfo_t* info, void* ucontext) {
  int n = __atomic_fetch_add(&sample_count, 1, __ATOMIC_RELAXED);
  (void)signo; (void)info; (void)ucontext;
  if (n < MAX_SAMPLES) {
    states[n] = ASGST_ThreadState();
  }
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  return asgst_test_load_jvmti(vm, &jvmti);
}

JNIEXPORT void JNICALL Java_AsgstThreadStateSampled_register(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  pthread_getcpuclockid(pthread_self(), &sampled_clock);
  sampled_tid = (pid_t)syscall(SYS_gettid);
}

/* A timer on the CPU clock of thread tid that signals that thread every millisecond. */
static void start_timer_for(pid_t tid, clockid_t clock) {
  sample_count = 0;
  asgst_test_start_sampling_of(on_sample, tid, clock, 1000, &timer);
}

JNIEXPORT void JNICALL Java_AsgstThreadStateSampled_startSampling(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  start_timer_for(sampled_tid, sampled_clock);
}

static jintArray counts(JNIEnv* env, int expected) {
  jint r[3] = { 0, 0, 0 };
  int i, n = sample_count < MAX_SAMPLES ? sample_count : MAX_SAMPLES;
  r[0] = n;
  for (i = 0; i < n; i++) {
    if (states[i] != expected && r[1]++ == 0) {
      r[2] = states[i];
    }
  }
  return asgst_test_int_array(env, r, 3);
}

JNIEXPORT jintArray JNICALL Java_AsgstThreadStateSampled_stopSampling(JNIEnv* env, jclass cls, jint expected) {
  (void)cls;
  timer_delete(timer);
  return counts(env, expected);
}

JNIEXPORT void JNICALL Java_AsgstThreadStateSampled_spinInNative(JNIEnv* env, jclass cls) {
  volatile unsigned long spin = 0;
  (void)env; (void)cls;
  __atomic_store_n(&spinning, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&released, __ATOMIC_ACQUIRE)) {
    spin++;
  }
}

JNIEXPORT jint JNICALL Java_AsgstThreadStateSampled_stateOf(JNIEnv* env, jclass cls, jthread thread) {
  /* The bits that ASGST_ThreadState leaves out (profile.h). */
  const jint left_out = JVMTI_THREAD_STATE_INTERRUPTED | JVMTI_THREAD_STATE_WAITING_INDEFINITELY |
                        JVMTI_THREAD_STATE_WAITING_WITH_TIMEOUT;
  jint state = 0;
  (void)env; (void)cls;
  return (*jvmti)->GetThreadState(jvmti, thread, &state) == JVMTI_ERROR_NONE ? state & ~left_out : -2;
}

JNIEXPORT jboolean JNICALL Java_AsgstThreadStateSampled_spinning(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return __atomic_load_n(&spinning, __ATOMIC_ACQUIRE) ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT void JNICALL Java_AsgstThreadStateSampled_release(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
}

static void* unattached_spin(void* arg) {
  clockid_t clock;
  (void)arg;
  pthread_getcpuclockid(pthread_self(), &clock);
  start_timer_for((pid_t)syscall(SYS_gettid), clock);
  asgst_test_spin_cpu(1000);
  timer_delete(timer);
  return NULL;
}

JNIEXPORT jintArray JNICALL Java_AsgstThreadStateSampled_sampleUnattachedThread(JNIEnv* env, jclass cls) {
  pthread_t thread;
  jint r[2] = { 0, 0 };
  int i, n;
  (void)cls;
  if (pthread_create(&thread, NULL, unattached_spin, NULL) == 0) {
    pthread_join(thread, NULL);
  }
  n = sample_count < MAX_SAMPLES ? sample_count : MAX_SAMPLES;
  r[0] = n;
  for (i = 0; i < n; i++) {
    r[1] += states[i] != -1;
  }
  return asgst_test_int_array(env, r, 2);
}
