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
 * Drives safepoint queues of the calling thread from native methods: the
 * thread is in native code, so each enqueue records the native method's
 * frame, and the queue is processed when the method returns to Java (the
 * transition polls). The handlers record what they see.
 */

#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define MAX_RECORDS 256

typedef struct {
  intptr_t queue_arg;
  intptr_t element_arg;
  char top[64];      /* method name of the first frame */
  char second[64];   /* method name of the second frame */
  int end;           /* ASGST_State after the walk */
} Record;

static Record records[MAX_RECORDS];
static int record_count;
static int start_calls, start_with_iterator, end_calls, end_with_iterator;
static ASGST_Queue* queues[2];
static ASGST_Queue* kept;  /* a handle kept past its queue's removal */
static int samples_in_handler;  /* samples that on_element takes, as if a signal came while it ran */

/*
 * A sample of the queue's thread, compressed as doc/safepoint-queue.md says:
 * counted in the youngest pending element's arg when that records the same
 * place, else enqueued with arg 1. Returns 1 if it was merged.
 */
static int sample(ASGST_Queue* queue) {
  ASGST_QueueElement now = ASGST_GetEnqueuableElement(queue, NULL);
  ASGST_QueueElement* last = ASGST_GetQueueElement(queue, -1);
  if (last != NULL && now.pc != NULL && now.pc == last->pc && now.sp == last->sp && now.fp == last->fp &&
      now.bcp == last->bcp) {
    last->arg = (void*)((intptr_t)last->arg + 1);
    return 1;
  }
  ASGST_Enqueue(queue, NULL, (void*)(intptr_t)1);
  return 0;
}

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  Record* r;
  ASGST_Frame frame;
  if (record_count >= MAX_RECORDS) {
    return;
  }
  r = &records[record_count++];
  memset(r, 0, sizeof(*r));
  r->queue_arg = (intptr_t)queue_arg;
  r->element_arg = (intptr_t)element_arg;
  if (ASGST_NextFrame(iterator, &frame) == 1) {
    asgst_test_method_name(frame.method, r->top, sizeof(r->top));
    if (ASGST_NextFrame(iterator, &frame) == 1) {
      asgst_test_method_name(frame.method, r->second, sizeof(r->second));
    }
  }
  while (ASGST_NextFrame(iterator, &frame) == 1) {
  }
  r->end = ASGST_State(iterator);
  if (samples_in_handler > 0) {
    samples_in_handler--;
    sample(queues[(intptr_t)queue_arg - 1]);
  }
}

static void on_start(ASGST_Queue* queue, ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame;
  (void)queue; (void)arg;
  start_calls++;
  if (iterator != NULL && ASGST_NextFrame(iterator, &frame) == 1) {
    start_with_iterator++;
  }
}

static void on_end(ASGST_Queue* queue, ASGST_Iterator* iterator, void* arg) {
  (void)queue; (void)arg;
  end_calls++;
  if (iterator != NULL) {
    end_with_iterator++;
  }
}

JNIEXPORT jboolean JNICALL Java_AsgstQueueBasics_register(JNIEnv* env, jclass cls, jint index, jint size) {
  (void)cls;
  queues[index] = ASGST_RegisterQueue(env, size, 0, on_element, (void*)(intptr_t)(index + 1));
  return queues[index] != NULL;
}

JNIEXPORT jboolean JNICALL Java_AsgstQueueBasics_deregister(JNIEnv* env, jclass cls, jint index) {
  (void)env; (void)cls;
  return ASGST_DeregisterQueue(queues[index]);
}

/* Enqueues count elements with args first, first + 1, ...; returns the results. */
JNIEXPORT jintArray JNICALL
Java_AsgstQueueBasics_enqueue(JNIEnv* env, jclass cls, jint index, jint count, jint first) {
  jint results[64];
  int i;
  (void)cls;
  for (i = 0; i < count && i < 64; i++) {
    results[i] = ASGST_Enqueue(queues[index], NULL, (void*)(intptr_t)(first + i));
  }
  return asgst_test_int_array(env, results, i);
}

/* {size, capacity, attempts} */
JNIEXPORT jintArray JNICALL Java_AsgstQueueBasics_sizeInfo(JNIEnv* env, jclass cls, jint index) {
  ASGST_QueueSizeInfo info = ASGST_GetQueueSizeInfo(queues[index]);
  jint values[3];
  (void)cls;
  values[0] = info.size;
  values[1] = info.capacity;
  values[2] = info.attempts;
  return asgst_test_int_array(env, values, 3);
}

/*
 * Enqueues 3 elements (args 1..3) into a queue of size 3 and inspects them:
 * returns {size, capacity, attempts, arg of 0, arg of -1, 0 and -4 out of
 * range (1 if null), enqueue result when full}, then sets the youngest arg to 99.
 */
JNIEXPORT jintArray JNICALL Java_AsgstQueueBasics_inspect(JNIEnv* env, jclass cls, jint index) {
  jint values[8];
  /* Made before the enqueues: a JNI call after them would process them, before the return to Java. */
  jintArray array = (*env)->NewIntArray(env, 8);
  ASGST_QueueSizeInfo info;
  int i;
  (void)cls;
  for (i = 1; i <= 3; i++) {
    ASGST_Enqueue(queues[index], NULL, (void*)(intptr_t)i);
  }
  values[7] = ASGST_Enqueue(queues[index], NULL, (void*)(intptr_t)4);
  info = ASGST_GetQueueSizeInfo(queues[index]);
  values[0] = info.size;
  values[1] = info.capacity;
  values[2] = info.attempts;
  values[3] = (jint)(intptr_t)ASGST_GetQueueElement(queues[index], 0)->arg;
  values[4] = (jint)(intptr_t)ASGST_GetQueueElement(queues[index], -1)->arg;
  values[5] = ASGST_GetQueueElement(queues[index], 3) == NULL;
  values[6] = ASGST_GetQueueElement(queues[index], -4) == NULL;
  ASGST_GetQueueElement(queues[index], -1)->arg = (void*)(intptr_t)99;
  (*env)->SetIntArrayRegion(env, array, 0, 8, values);
  return array;
}

/* Asks for a new size while elements are pending; returns the enqueue result after it. */
JNIEXPORT jint JNICALL Java_AsgstQueueBasics_resizeWhilePending(JNIEnv* env, jclass cls, jint index, jint size) {
  (void)env; (void)cls;
  ASGST_ResizeQueue(queues[index], size);
  return ASGST_Enqueue(queues[index], NULL, (void*)(intptr_t)1000);
}

/* Enqueues two elements, then deregisters: {deregister, second deregister, enqueue after}. */
JNIEXPORT jintArray JNICALL Java_AsgstQueueBasics_deregisterWhilePending(JNIEnv* env, jclass cls, jint index) {
  jint values[3];
  jintArray array = (*env)->NewIntArray(env, 3);  /* before the enqueues, as in inspect */
  (void)cls;
  ASGST_Enqueue(queues[index], NULL, (void*)(intptr_t)501);
  ASGST_Enqueue(queues[index], NULL, (void*)(intptr_t)502);
  values[0] = ASGST_DeregisterQueue(queues[index]);
  values[1] = ASGST_DeregisterQueue(queues[index]);
  values[2] = ASGST_Enqueue(NULL, NULL, NULL);
  queues[index] = NULL;
  (*env)->SetIntArrayRegion(env, array, 0, 3, values);
  return array;
}

/*
 * Compression: one element, then count samples of the same place merged into
 * it by counting in its arg. Returns the number of merged samples.
 */
JNIEXPORT jint JNICALL Java_AsgstQueueBasics_compress(JNIEnv* env, jclass cls, jint index, jint count) {
  int merged = 0, i;
  (void)env; (void)cls;
  ASGST_Enqueue(queues[index], NULL, (void*)(intptr_t)1);
  for (i = 0; i < count; i++) {
    merged += sample(queues[index]);
  }
  return merged;
}

/* The next count element handlers each take a sample of their own place while they run. */
JNIEXPORT void JNICALL Java_AsgstQueueBasics_sampleInHandlers(JNIEnv* env, jclass cls, jint count) {
  (void)env; (void)cls;
  samples_in_handler = count;
}

JNIEXPORT void JNICALL Java_AsgstQueueBasics_setCallbacks(JNIEnv* env, jclass cls, jint index) {
  (void)env; (void)cls;
  ASGST_SetOnQueueProcessingStart(queues[index], 0, true, on_start, NULL);
  ASGST_SetOnQueueProcessingEnd(queues[index], 0, false, on_end, NULL);
}

/* {start calls, of them with an iterator that had a frame, end calls, of them with an iterator} */
JNIEXPORT jintArray JNICALL Java_AsgstQueueBasics_callbackCounts(JNIEnv* env, jclass cls) {
  jint values[4];
  (void)cls;
  values[0] = start_calls;
  values[1] = start_with_iterator;
  values[2] = end_calls;
  values[3] = end_with_iterator;
  return asgst_test_int_array(env, values, 4);
}

/* The records so far as "queueArg:elementArg:top:second:end", then forgets them. */
JNIEXPORT jobjectArray JNICALL Java_AsgstQueueBasics_takeRecords(JNIEnv* env, jclass cls) {
  jobjectArray result = (*env)->NewObjectArray(env, record_count, (*env)->FindClass(env, "java/lang/String"), NULL);
  char text[200];
  int i;
  (void)cls;
  for (i = 0; i < record_count; i++) {
    jstring s;
    snprintf(text, sizeof(text), "%ld:%ld:%s:%s:%d", (long)records[i].queue_arg, (long)records[i].element_arg,
             records[i].top, records[i].second, records[i].end);
    s = (*env)->NewStringUTF(env, text);
    (*env)->SetObjectArrayElement(env, result, i, s);
    (*env)->DeleteLocalRef(env, s);
  }
  record_count = 0;
  return result;
}

JNIEXPORT void JNICALL Java_AsgstQueueBasics_keepHandle(JNIEnv* env, jclass cls, jint index) {
  (void)env; (void)cls;
  kept = queues[index];
}

/*
 * Every queue function with the kept handle, whose queue was removed since:
 * {deregister, enqueue, size, capacity, attempts, element 0 is null,
 * enqueuable element's pc is null}. Resize and the processing callbacks are
 * set through it too; they must not reach any other queue.
 */
JNIEXPORT jintArray JNICALL Java_AsgstQueueBasics_keptHandleChecks(JNIEnv* env, jclass cls) {
  jint values[7];
  ASGST_QueueSizeInfo info;
  (void)cls;
  ASGST_ResizeQueue(kept, 1);
  ASGST_SetOnQueueProcessingStart(kept, 0, true, on_start, NULL);
  ASGST_SetOnQueueProcessingEnd(kept, 0, false, on_end, NULL);
  values[0] = ASGST_DeregisterQueue(kept);
  values[1] = ASGST_Enqueue(kept, NULL, (void*)(intptr_t)777);
  info = ASGST_GetQueueSizeInfo(kept);
  values[2] = info.size;
  values[3] = info.capacity;
  values[4] = info.attempts;
  values[5] = ASGST_GetQueueElement(kept, 0) == NULL;
  values[6] = ASGST_GetEnqueuableElement(kept, NULL).pc == NULL;
  return asgst_test_int_array(env, values, 7);
}

/* The kept handle's capacity: 0 once its queue is removed. */
JNIEXPORT jint JNICALL Java_AsgstQueueBasics_keptCapacity(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return ASGST_GetQueueSizeInfo(kept).capacity;
}
