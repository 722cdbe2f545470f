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
 * The cost of one stack walk of the calling thread: ASGST's iterator,
 * AsyncGetStackTrace, AsyncGetCallTrace and JVMTI GetStackTrace, on the same
 * stack, in one run. Each figure is the median of several batches.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../../test/hotspot/jtreg/serviceability/asgst/native/asgstAsyncGetCallTrace.h"

#define MAX_FRAMES 4096
#define BATCHES 15

static jvmtiEnv* jvmti;
static AsyncGetCallTraceFunction async_get_call_trace;

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  jvmtiCapabilities capabilities;
  (void)reserved;
  if ((*vm)->GetEnv(vm, (void**)&jvmti, JVMTI_VERSION) != JNI_OK) {
    return JNI_ERR;
  }
  memset(&capabilities, 0, sizeof(capabilities));
  capabilities.can_get_line_numbers = 1;
  (*jvmti)->AddCapabilities(jvmti, &capabilities);
  async_get_call_trace = asgst_agct_prepare(jvmti);
  return JNI_VERSION_1_8;
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static volatile int frames_seen;

static void count_frames(ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame;
  int n = 0;
  (void)arg;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    n++;
  }
  frames_seen = n;
}

enum { ITERATOR, ITERATOR_C_FRAMES, ASYNC_GET_STACK_TRACE, ASYNC_GET_CALL_TRACE, GET_STACK_TRACE, ENQUEUE_TOP, WAYS };
static const char* names[WAYS] = {
  "ASGST iterator", "ASGST iterator +C", "AsyncGetStackTrace", "AsyncGetCallTrace", "JVMTI GetStackTrace",
  "enqueue: top frame"
};
static ASGST_Queue* queue;

/* One walk; returns the number of frames it produced. */
static int walk_once(JNIEnv* env, int way) {
  static ASGST_CallFrame asgst_frames[MAX_FRAMES];
  static AGCT_CallFrame agct_frames[MAX_FRAMES];
  static jvmtiFrameInfo jvmti_frames[MAX_FRAMES];
  switch (way) {
    case ITERATOR:
      ASGST_RunWithIterator(NULL, 0, count_frames, NULL);
      return frames_seen;
    case ITERATOR_C_FRAMES:
      ASGST_RunWithIterator(NULL, ASGST_INCLUDE_NON_JAVA_FRAMES, count_frames, NULL);
      return frames_seen;
    case ASYNC_GET_STACK_TRACE: {
      ASGST_CallTrace trace;
      memset(&trace, 0, sizeof(trace));
      trace.frames = asgst_frames;
      AsyncGetStackTrace(&trace, MAX_FRAMES, NULL, 0);
      return trace.num_frames;
    }
    case ASYNC_GET_CALL_TRACE:
      return asgst_agct_walk(async_get_call_trace, env, agct_frames, MAX_FRAMES, NULL);
    case GET_STACK_TRACE: {
      jint count = 0;
      (*jvmti)->GetStackTrace(jvmti, NULL, 0, MAX_FRAMES, jvmti_frames, &count);
      return count;
    }
    default: {
      /* What ASGST_Enqueue does in a signal handler, minus the store into the ring. */
      ASGST_QueueElement element = ASGST_GetEnqueuableElement(queue, NULL);
      return element.pc != NULL ? 1 : 0;
    }
  }
}

static int64_t processing_start, processing_end;
static volatile long processed_frames;

static void on_queue_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  ASGST_Frame frame;
  (void)queue_arg; (void)element_arg;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    processed_frames++;
  }
}

static void on_processing_start(ASGST_Queue* q, ASGST_Iterator* iterator, void* arg) {
  (void)q; (void)iterator; (void)arg;
  processing_start = now_ns();
}

static void on_processing_end(ASGST_Queue* q, ASGST_Iterator* iterator, void* arg) {
  (void)q; (void)iterator; (void)arg;
  processing_end = now_ns();
}

/*
 * Enqueues count elements from this native method into a fresh queue; they
 * are processed (each walked in full) when the method returns to Java.
 * Returns the median ns of one ASGST_Enqueue.
 */
JNIEXPORT jlong JNICALL Java_WalkBenchmark_enqueueBatch(JNIEnv* env, jclass cls, jint count) {
  static ASGST_Queue* q = NULL;
  if (q != NULL) {
    ASGST_DeregisterQueue(q);  /* the previous batch's, processed already */
  }
  q = ASGST_RegisterQueue(env, count, 0, on_queue_element, NULL);
  int64_t start;
  int i;
  (void)cls;
  ASGST_SetOnQueueProcessingStart(q, 0, false, on_processing_start, NULL);
  ASGST_SetOnQueueProcessingEnd(q, 0, false, on_processing_end, NULL);
  processed_frames = 0;
  start = now_ns();
  for (i = 0; i < count; i++) {
    ASGST_Enqueue(q, NULL, NULL);
  }
  return (now_ns() - start) / count;
}

/* {ns of processing the last batch, frames walked} */
JNIEXPORT jlongArray JNICALL Java_WalkBenchmark_lastProcessing(JNIEnv* env, jclass cls) {
  jlong r[2];
  jlongArray array = (*env)->NewLongArray(env, 2);
  (void)cls;
  r[0] = processing_end - processing_start;
  r[1] = processed_frames;
  (*env)->SetLongArrayRegion(env, array, 0, 2, r);
  return array;
}

/* Prints one line per way: median ns per walk and per frame, and the ratio to AsyncGetCallTrace. */
JNIEXPORT void JNICALL Java_WalkBenchmark_measure(JNIEnv* env, jclass cls, jint depth, jint walks_per_batch) {
  double median[WAYS];
  int frames[WAYS];
  int way, batch, i;
  (void)cls;
  if (async_get_call_trace == NULL) {
    fprintf(stderr, "AsyncGetCallTrace not found in libjvm\n");
    exit(1);
  }
  if (queue == NULL) {
    queue = ASGST_RegisterQueue(env, 1, 0, on_queue_element, NULL);
  }
  for (way = 0; way < WAYS; way++) {
    double per_walk[BATCHES];
    frames[way] = walk_once(env, way);  /* warms up, and creates the jmethodIDs AsyncGetCallTrace needs */
    for (batch = 0; batch < BATCHES; batch++) {
      int64_t start = now_ns();
      for (i = 0; i < walks_per_batch; i++) {
        walk_once(env, way);
      }
      per_walk[batch] = (double)(now_ns() - start) / walks_per_batch;
    }
    qsort(per_walk, BATCHES, sizeof(double), compare_doubles);
    median[way] = per_walk[BATCHES / 2];
  }
  for (way = 0; way < WAYS; way++) {
    printf("%-6d %-21s %6d %12.0f %10.1f %8.2f\n", depth, names[way], frames[way], median[way],
           frames[way] > 0 ? median[way] / frames[way] : 0.0, median[way] / median[ASYNC_GET_CALL_TRACE]);
  }
  fflush(stdout);
}
