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
 * Samples one thread with a CPU-time timer and enqueues every sample into the
 * thread's safepoint queue, with the sample's index as arg; in merge mode, a
 * sample taken while an element waits is merged into it instead (counted,
 * after ASGST_GetEnqueuableElement, as a compressing profiler does). The
 * queue handler notes how many samples had started when it processed an
 * element (its wait) and whether the walk's top frame is C2's code of the
 * sampled loop.
 */

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define MAX_SAMPLES 100000
#define C2_LEVEL 4

static volatile int enqueue_result[MAX_SAMPLES];
static int wait_of[MAX_SAMPLES];             /* samples started since, -1 if not processed */
static unsigned char in_loop[MAX_SAMPLES];   /* processed with C2's loop on top */
static volatile int sample_count;
static volatile int merged_count;
static volatile int processed_in_loop;
static volatile int recording = 1;
static int merging;
static ASGST_Queue* queue;
static timer_t timer;

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  intptr_t index = (intptr_t)element_arg;
  ASGST_Frame frame;
  (void)queue_arg;
  if (!__atomic_load_n(&recording, __ATOMIC_ACQUIRE)) {
    return;
  }
  wait_of[index] = __atomic_load_n(&sample_count, __ATOMIC_RELAXED) - (int)index;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (frame.type != ASGST_FRAME_NON_JAVA) {
      in_loop[index] = frame.type == ASGST_FRAME_JAVA && frame.comp_level == C2_LEVEL &&
                       asgst_test_method_is(frame.method, "loop");
      if (in_loop[index]) {
        __atomic_fetch_add(&processed_in_loop, 1, __ATOMIC_RELAXED);
      }
      return;
    }
  }
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  int index = __atomic_fetch_add(&sample_count, 1, __ATOMIC_RELAXED);
  (void)signo; (void)info;
  if (index >= MAX_SAMPLES) {
    return;
  }
  wait_of[index] = -1;
  in_loop[index] = 0;
  enqueue_result[index] = 0;
  if (merging) {
    ASGST_QueueElement now = ASGST_GetEnqueuableElement(queue, ucontext);
    if (now.pc != NULL && ASGST_GetQueueElement(queue, -1) != NULL) {
      __atomic_fetch_add(&merged_count, 1, __ATOMIC_RELAXED);
      return;
    }
  }
  enqueue_result[index] = ASGST_Enqueue(queue, ucontext, (void*)(intptr_t)index);
}

/* Called by the sampled thread: registers its queue and starts its CPU timer. */
JNIEXPORT void JNICALL Java_AsgstQueueLoopPoll_startSampling(JNIEnv* env, jclass cls, jint interval_micros,
                                                            jboolean merge) {
  (void)cls;
  merging = merge;
  queue = ASGST_RegisterQueue(env, 1024, 0, on_element, NULL);
  asgst_test_start_cpu_sampling(on_sigprof, interval_micros, &timer);
}

JNIEXPORT void JNICALL Java_AsgstQueueLoopPoll_stopSampling(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  asgst_test_stop_sampling(timer);
}

JNIEXPORT jint JNICALL Java_AsgstQueueLoopPoll_processedInLoop(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return __atomic_load_n(&processed_in_loop, __ATOMIC_RELAXED);
}

/* From the main thread while the sampled one still loops. */
JNIEXPORT void JNICALL Java_AsgstQueueLoopPoll_stopRecording(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  __atomic_store_n(&recording, 0, __ATOMIC_RELEASE);
}

/*
 * {samples, accepted by the queue, merged, processed while recording, of
 * these with C2's loop on top, of these processed within 3 samples, the
 * longest wait of these}
 */
JNIEXPORT jintArray JNICALL Java_AsgstQueueLoopPoll_results(JNIEnv* env, jclass cls) {
  jint r[7] = {0, 0, 0, 0, 0, 0, 0};
  int n = sample_count < MAX_SAMPLES ? sample_count : MAX_SAMPLES;
  int i;
  (void)cls;
  r[0] = n;
  r[2] = merged_count;
  for (i = 0; i < n; i++) {
    if (enqueue_result[i] <= 0) {
      continue;
    }
    r[1]++;
    if (wait_of[i] < 0) {
      continue;
    }
    r[3]++;
    if (in_loop[i]) {
      r[4]++;
      if (wait_of[i] <= 3) r[5]++;
      if (wait_of[i] > r[6]) r[6] = wait_of[i];
    }
  }
  return asgst_test_int_array(env, r, 7);
}
