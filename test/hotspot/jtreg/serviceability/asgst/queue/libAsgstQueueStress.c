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
 * Per-thread CPU-time sampling into each thread's safepoint queue, counting
 * what was accepted and what the handlers processed.
 */

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

static volatile int accepted, processed, walked_fully, walk_errors;
static volatile int errors_by_code[32];  /* failed walks by -ASGST_State (0: ended elsewhere than in run()) */
static __thread ASGST_Queue* thread_queue;
static __thread timer_t thread_timer;

/* The frames of the first failed walks, as name/type/comp_level/bci, for the report. */
#define FAILED_WALKS_SHOWN 4
#define FRAMES_SHOWN 8
static char failed_walks[FAILED_WALKS_SHOWN][512];
static volatile int failed_walks_shown;


/* Elements are enqueued only while a worker runs work(), which Thread.run
   called: a walk that ends without error reached the bottom only if its last
   frame is run() and work() came before it. */
static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  ASGST_Frame frame;
  ASGST_Frame last = { 0 };
  int frames = 0;
  int saw_work = 0;
  char walk[512];
  size_t used = 0;
  (void)queue_arg; (void)element_arg;
  walk[0] = '\0';
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (frames++ < FRAMES_SHOWN) {
      asgst_test_describe_frame(walk, sizeof(walk), &used, &frame);
    }
    saw_work = saw_work || asgst_test_method_is(frame.method, "work");
    last = frame;
  }
  __atomic_fetch_add(&processed, 1, __ATOMIC_RELAXED);
  if (ASGST_State(iterator) == ASGST_NO_FRAME && frames > 0 && saw_work && asgst_test_method_is(last.method, "run")) {
    __atomic_fetch_add(&walked_fully, 1, __ATOMIC_RELAXED);
  } else {
    int code = -ASGST_State(iterator);
    int shown = __atomic_fetch_add(&failed_walks_shown, 1, __ATOMIC_RELAXED);
    if (shown < FAILED_WALKS_SHOWN) {
      snprintf(failed_walks[shown], sizeof(failed_walks[shown]), "%d after %d frames: %s", -code, frames, walk);
    }
    __atomic_fetch_add(&walk_errors, 1, __ATOMIC_RELAXED);
    if (code >= 0 && code < 32) {
      __atomic_fetch_add(&errors_by_code[code], 1, __ATOMIC_RELAXED);
    }
  }
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  (void)signo; (void)info;
  if (thread_queue != NULL && ASGST_Enqueue(thread_queue, ucontext, NULL) > 0) {
    __atomic_fetch_add(&accepted, 1, __ATOMIC_RELAXED);
  }
}

JNIEXPORT void JNICALL Java_AsgstQueueStress_startSampling(JNIEnv* env, jclass cls, jint interval_micros) {
  (void)cls;
  thread_queue = ASGST_RegisterQueue(env, 256, 0, on_element, NULL);
  asgst_test_start_cpu_sampling(on_sigprof, interval_micros, &thread_timer);
}

/* Stops this thread's timer; the return to Java processes what is pending. */
JNIEXPORT void JNICALL Java_AsgstQueueStress_stopSampling(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  timer_delete(thread_timer);
}

/* Deregisters this thread's queue (processing what is pending). */
JNIEXPORT void JNICALL Java_AsgstQueueStress_deregister(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  ASGST_DeregisterQueue(thread_queue);
  thread_queue = NULL;
}

/* {accepted, processed, walked to the end, walks that failed} */
JNIEXPORT jintArray JNICALL Java_AsgstQueueStress_counts(JNIEnv* env, jclass cls) {
  jint r[4];
  (void)cls;
  r[0] = accepted;
  r[1] = processed;
  r[2] = walked_fully;
  r[3] = walk_errors;
  return asgst_test_int_array(env, r, 4);
}

/* Failed walks as "code:count ...", then the first failed walks frame by frame. */
JNIEXPORT jstring JNICALL Java_AsgstQueueStress_errors(JNIEnv* env, jclass cls) {
  char text[256 + FAILED_WALKS_SHOWN * 520];
  size_t used = 0;
  int i;
  (void)cls;
  text[0] = '\0';
  for (i = 0; i < 32; i++) {
    if (errors_by_code[i] > 0 && used + 16 < sizeof(text)) {
      used += (size_t)snprintf(text + used, sizeof(text) - used, "%d:%d ", -i, errors_by_code[i]);
    }
  }
  for (i = 0; i < failed_walks_shown && i < FAILED_WALKS_SHOWN; i++) {
    used += (size_t)snprintf(text + used, sizeof(text) - used, "\n  %s", failed_walks[i]);
  }
  return (*env)->NewStringUTF(env, text);
}
