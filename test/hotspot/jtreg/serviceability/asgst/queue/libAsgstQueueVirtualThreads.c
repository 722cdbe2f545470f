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
 * An agent that gives every thread started after it a safepoint queue (in
 * JVMTI ThreadStart) and samples the process's CPU time with SIGPROF: the
 * handler enqueues the interrupted thread's top frame into its queue.
 */

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

/* SIGPROF of the process timer reaches any thread, also one that never got a
   queue: initial-exec keeps the handler's first touch of this thread-local
   from allocating (the default model's lazy allocation may call malloc, which
   deadlocks in a signal handler that interrupted malloc). */
static __thread ASGST_Queue* thread_queue __attribute__((tls_model("initial-exec")));
/* The first trace that is not as expected, for diagnosis (racy, diagnostic only). */
static char first_odd[4096];
static volatile int accepted, processed, with_virtual_frames, with_carrier_frames, mixed, ending_at_enter,
    ending_in_heap;

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  ASGST_Frame frame;
  ASGST_Method last = NULL;
  int virtual_frames = 0, carrier_frames = 0;
  (void)queue_arg; (void)element_arg;
  char trace[4096];
  size_t used = 0;
  trace[0] = '\0';
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    char name[64];
    int named = asgst_test_method_name(frame.method, name, sizeof(name));
    if (used + 80 < sizeof(trace)) {
      used += (size_t)snprintf(trace + used, sizeof(trace) - used, "%s(%d,%d) ", named ? name : "?", frame.type,
                               frame.comp_level);
    }
    if (asgst_test_method_is(frame.method, "virtualWork")) virtual_frames = 1;
    if (asgst_test_method_is(frame.method, "runWorker")) carrier_frames = 1;
    last = frame.method;
  }
  __atomic_fetch_add(&processed, 1, __ATOMIC_RELAXED);
  if (virtual_frames) {
    __atomic_fetch_add(&with_virtual_frames, 1, __ATOMIC_RELAXED);
    if (last != NULL && asgst_test_method_is(last, "enter") && ASGST_State(iterator) == ASGST_NO_FRAME) {
      __atomic_fetch_add(&ending_at_enter, 1, __ATOMIC_RELAXED);
    } else if (ASGST_State(iterator) == ASGST_FRAMES_IN_HEAP) {
      __atomic_fetch_add(&ending_in_heap, 1, __ATOMIC_RELAXED);
    } else if (first_odd[0] == '\0') {
      snprintf(first_odd, sizeof(first_odd), "end state %d: %s", ASGST_State(iterator), trace);
    }
  }
  if (carrier_frames) __atomic_fetch_add(&with_carrier_frames, 1, __ATOMIC_RELAXED);
  if (virtual_frames && carrier_frames) {
    if (__atomic_fetch_add(&mixed, 1, __ATOMIC_RELAXED) == 0) {
      memcpy(first_odd, trace, sizeof(first_odd));
    }
  }
}

static void JNICALL on_thread_start(jvmtiEnv* jvmti, JNIEnv* env, jthread thread) {
  (void)jvmti; (void)thread;
  thread_queue = ASGST_RegisterQueue(env, 64, 0, on_element, NULL);
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  (void)signo; (void)info;
  if (thread_queue != NULL && ASGST_Enqueue(thread_queue, ucontext, NULL) > 0) {
    __atomic_fetch_add(&accepted, 1, __ATOMIC_RELAXED);
  }
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void* reserved) {
  jvmtiEnv* jvmti;
  jvmtiEventCallbacks callbacks;
  (void)options; (void)reserved;
  if ((*vm)->GetEnv(vm, (void**)&jvmti, JVMTI_VERSION) != JNI_OK) {
    return JNI_ERR;
  }
  memset(&callbacks, 0, sizeof(callbacks));
  callbacks.ThreadStart = on_thread_start;
  (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof(callbacks));
  (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
  return JNI_OK;
}

JNIEXPORT void JNICALL Java_AsgstQueueVirtualThreads_startSampling(JNIEnv* env, jclass cls, jint interval_micros) {
  struct itimerval timer;
  (void)env; (void)cls;
  asgst_test_install_handler(SIGPROF, on_sigprof);
  memset(&timer, 0, sizeof(timer));
  timer.it_interval.tv_usec = interval_micros;
  timer.it_value = timer.it_interval;
  setitimer(ITIMER_PROF, &timer, NULL);
}

/*
 * {accepted, processed, with virtual-thread frames, with carrier frames, mixed,
 * virtual ending at enter, virtual ending with ASGST_FRAMES_IN_HEAP}
 */
JNIEXPORT jintArray JNICALL Java_AsgstQueueVirtualThreads_stopSampling(JNIEnv* env, jclass cls) {
  struct itimerval off;
  jint r[7];
  /* Made first: the JNI call processes what this thread has pending before the counts are read. */
  jintArray array = (*env)->NewIntArray(env, 7);
  (void)cls;
  memset(&off, 0, sizeof(off));
  setitimer(ITIMER_PROF, &off, NULL);
  r[0] = accepted;
  r[1] = processed;
  r[2] = with_virtual_frames;
  r[3] = with_carrier_frames;
  r[4] = mixed;
  r[5] = ending_at_enter;
  r[6] = ending_in_heap;
  (*env)->SetIntArrayRegion(env, array, 0, 7, r);
  return array;
}

JNIEXPORT jstring JNICALL Java_AsgstQueueVirtualThreads_firstOddTrace(JNIEnv* env, jclass cls) {
  (void)cls;
  return (*env)->NewStringUTF(env, first_odd);
}
