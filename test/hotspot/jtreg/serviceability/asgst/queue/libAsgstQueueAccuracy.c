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
 * Samples one thread with a CPU-time timer. For each sample the SIGPROF
 * handler walks the stack itself (the reference), and enqueues the same
 * moment into the thread's safepoint queue (with the sample's index as arg);
 * the queue handler walks at the next poll. A JVMTI sampler thread takes
 * GetStackTrace samples of the same thread meanwhile (safepoint biased).
 */

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define MAX_SAMPLES 20000

static ASGST_Method signal_top[MAX_SAMPLES];  /* top Java frame in the signal handler */
static ASGST_Method queue_top[MAX_SAMPLES];   /* top frame of the queue walk */
static volatile int enqueue_result[MAX_SAMPLES];
static volatile int sample_count;
static volatile int processed_count;
static ASGST_Queue* queue;
static timer_t timer;
static jvmtiEnv* jvmti;

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  return asgst_test_load_jvmti(vm, &jvmti);
}

static void first_java_method(ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (frame.type != ASGST_FRAME_NON_JAVA) {
      *(ASGST_Method*)arg = frame.method;
      return;
    }
  }
}

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  intptr_t index = (intptr_t)element_arg;
  (void)queue_arg;
  first_java_method(iterator, &queue_top[index]);
  __atomic_fetch_add(&processed_count, 1, __ATOMIC_RELAXED);
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  int index = __atomic_fetch_add(&sample_count, 1, __ATOMIC_RELAXED);
  (void)signo; (void)info;
  if (index >= MAX_SAMPLES) {
    return;
  }
  signal_top[index] = NULL;
  queue_top[index] = NULL;
  ASGST_RunWithIterator(ucontext, 0, first_java_method, &signal_top[index]);
  enqueue_result[index] = ASGST_Enqueue(queue, ucontext, (void*)(intptr_t)index);
}

/* Called by the sampled thread: registers its queue and starts its CPU timer. */
JNIEXPORT void JNICALL Java_AsgstQueueAccuracy_startSampling(JNIEnv* env, jclass cls, jint interval_micros) {
  (void)cls;
  queue = ASGST_RegisterQueue(env, 1024, 0, on_element, NULL);
  asgst_test_start_cpu_sampling(on_sigprof, interval_micros, &timer);
}

/* Called by the sampled thread: stops the timer; returning to Java processes what is pending. */
JNIEXPORT void JNICALL Java_AsgstQueueAccuracy_stopSampling(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  asgst_test_stop_sampling(timer);
}

/*
 * {samples, accepted by the queue, processed, both walks have a top frame,
 * of these the same method, signal top is hot, queue top is hot}
 */
JNIEXPORT jintArray JNICALL Java_AsgstQueueAccuracy_results(JNIEnv* env, jclass cls, jstring hot_name) {
  const char* hot = (*env)->GetStringUTFChars(env, hot_name, NULL);
  jint r[7] = {0, 0, 0, 0, 0, 0, 0};
  int n = sample_count < MAX_SAMPLES ? sample_count : MAX_SAMPLES;
  int i;
  (void)cls;
  r[0] = n;
  r[2] = processed_count;
  for (i = 0; i < n; i++) {
    if (enqueue_result[i] <= 0) {
      continue;
    }
    r[1]++;
    if (signal_top[i] != NULL && queue_top[i] != NULL) {
      r[3]++;
      if (signal_top[i] == queue_top[i]) {
        r[4]++;
      }
      if (asgst_test_method_is(signal_top[i], hot)) r[5]++;
      if (asgst_test_method_is(queue_top[i], hot)) r[6]++;
    }
  }
  (*env)->ReleaseStringUTFChars(env, hot_name, hot);
  return asgst_test_int_array(env, r, 7);
}

/* One JVMTI GetStackTrace sample of thread: 1 if its top frame is the method named hot, 0 if not, -1 if none. */
JNIEXPORT jint JNICALL Java_AsgstQueueAccuracy_jvmtiSample(JNIEnv* env, jclass cls, jthread thread, jstring hot_name) {
  jvmtiFrameInfo frames[1];
  jint count = 0;
  char name[256];
  jint result = -1;
  (void)cls;
  if ((*jvmti)->GetStackTrace(jvmti, thread, 0, 1, frames, &count) == JVMTI_ERROR_NONE && count == 1 &&
      asgst_test_jvmti_method_name(jvmti, frames[0].method, name, sizeof(name))) {
    const char* hot = (*env)->GetStringUTFChars(env, hot_name, NULL);
    result = strcmp(name, hot) == 0;
    (*env)->ReleaseStringUTFChars(env, hot_name, hot);
  }
  return result;
}

/* "signal top / queue top" names of the first sample whose top frames differ, for diagnosis. */
JNIEXPORT jstring JNICALL Java_AsgstQueueAccuracy_firstDifference(JNIEnv* env, jclass cls) {
  char text[256] = "";
  int n = sample_count < MAX_SAMPLES ? sample_count : MAX_SAMPLES;
  int i;
  (void)cls;
  for (i = 0; i < n; i++) {
    if (enqueue_result[i] > 0 && signal_top[i] != queue_top[i]) {
      char a[64] = "(none)", b[64] = "(none)";
      if (signal_top[i] != NULL) asgst_test_method_name(signal_top[i], a, sizeof(a));
      if (queue_top[i] != NULL) asgst_test_method_name(queue_top[i], b, sizeof(b));
      snprintf(text, sizeof(text), "sample %d: signal handler %s, queue %s", i, a, b);
      break;
    }
  }
  return (*env)->NewStringUTF(env, text);
}
