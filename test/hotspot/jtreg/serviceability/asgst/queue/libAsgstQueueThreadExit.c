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
 * A chain of queue elements on each thread: the processing-end handler
 * enqueues the next element, so one is pending until the thread ends.
 */

#include <sys/syscall.h>
#include <unistd.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define SLOTS 16

typedef struct {
  pid_t tid;
  ASGST_Queue* queue;
  volatile int accepted;
  volatile int processed;
  volatile int other_thread;
  volatile int failed_enqueues;
} Slot;

static Slot slots[SLOTS];

static pid_t current_tid(void) {
  return (pid_t)syscall(SYS_gettid);
}

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  Slot* slot = (Slot*)queue_arg;
  ASGST_Frame frame;
  (void)element_arg;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
  }
  if (current_tid() != slot->tid) {
    __atomic_fetch_add(&slot->other_thread, 1, __ATOMIC_RELAXED);
  }
  __atomic_fetch_add(&slot->processed, 1, __ATOMIC_RELAXED);
}

static void on_end(ASGST_Queue* queue, ASGST_Iterator* iterator, void* arg) {
  Slot* slot = (Slot*)arg;
  (void)iterator;
  if (ASGST_Enqueue(queue, NULL, NULL) > 0) {
    __atomic_fetch_add(&slot->accepted, 1, __ATOMIC_RELAXED);
  } else {
    __atomic_fetch_add(&slot->failed_enqueues, 1, __ATOMIC_RELAXED);
  }
}

JNIEXPORT jint JNICALL Java_AsgstQueueThreadExit_start(JNIEnv* env, jclass cls, jint index) {
  Slot* slot = &slots[index];
  int result;
  (void)cls;
  slot->tid = current_tid();
  slot->queue = ASGST_RegisterQueue(env, 4, 0, on_element, slot);
  if (slot->queue == NULL) {
    return -100;
  }
  ASGST_SetOnQueueProcessingEnd(slot->queue, 0, false, on_end, slot);
  result = ASGST_Enqueue(slot->queue, NULL, NULL);
  if (result > 0) {
    __atomic_fetch_add(&slot->accepted, 1, __ATOMIC_RELAXED);
  }
  return result;
}

JNIEXPORT jintArray JNICALL Java_AsgstQueueThreadExit_counts(JNIEnv* env, jclass cls, jint index) {
  Slot* slot = &slots[index];
  jint r[5];
  (void)cls;
  r[0] = __atomic_load_n(&slot->accepted, __ATOMIC_ACQUIRE);
  r[1] = __atomic_load_n(&slot->processed, __ATOMIC_ACQUIRE);
  r[2] = slot->other_thread;
  r[3] = slot->failed_enqueues;
  /* A removed queue's size info is all zeros (profile.h); a live one has a capacity. */
  r[4] = slot->queue != NULL && ASGST_GetQueueSizeInfo(slot->queue).capacity == 0;
  return asgst_test_int_array(env, r, 5);
}

JNIEXPORT jboolean JNICALL Java_AsgstQueueThreadExit_answersAsRemoved(JNIEnv* env, jclass cls, jint index) {
  Slot* slot = &slots[index];
  (void)env; (void)cls;
  return ASGST_Enqueue(slot->queue, NULL, NULL) == ASGST_ENQUEUE_NO_QUEUE &&
         ASGST_GetQueueElement(slot->queue, 0) == NULL && !ASGST_DeregisterQueue(slot->queue);
}
