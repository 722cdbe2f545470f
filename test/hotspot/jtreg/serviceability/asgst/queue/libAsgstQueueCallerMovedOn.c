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
 * The first element is enqueued from a SIGPROF handler inside enqueueHere(),
 * and the end of each processing of the queue enqueues one more (raising
 * SIGPROF in itself) until a processing finds caller() on top. So elements
 * record callee() at its polls after enqueueHere() returned (the ireturn's
 * safepoint poll, then the return poll); the one that the return poll's
 * processing enqueues records callee() there, callee() returns without
 * another poll, and caller's return poll processes it. Every walk must end at
 * the bottom; the first must equal the JVMTI stack trace taken in
 * enqueueHere(), methods and bcis frame by frame; every walk that begins in
 * callee() must go on as that trace below callee(): caller() at its call of
 * callee(), and on. One such walk must have been processed with caller() on
 * top (a compiled caller(): main(), caller's frame popped at its return
 * poll), or the case was not made.
 */

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define MAX_FRAMES 64
#define NAME_LENGTH 64

typedef struct {
  char name[NAME_LENGTH];
  int bci;
} Frame;

typedef struct {
  Frame frames[MAX_FRAMES];
  int count;
  int state;                     /* the iterator's state at the end */
  int processed;
  char top_at_poll[NAME_LENGTH]; /* the top frame of the stack where it was processed */
} Walk;

/* Most elements: enqueueHere's return to Java and callee's return poll
   process a few each. */
#define MAX_ELEMENTS 16

static jvmtiEnv* jvmti;
static ASGST_Queue* queue;
static Frame reference[MAX_FRAMES];
static int reference_count;
static Walk walks[MAX_ELEMENTS];      /* by tag: the order of enqueuing */
static int enqueue_result[MAX_ELEMENTS];
static char processing_top[NAME_LENGTH];
static volatile int next_tag;         /* the tag of the element the signal enqueues */
static char failure[512];

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  int tag = next_tag;
  (void)signo; (void)info;
  enqueue_result[tag] = ASGST_Enqueue(queue, ucontext, (void*)(intptr_t)tag);
}

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  Walk* walk = &walks[(intptr_t)element_arg];
  ASGST_Frame frame;
  (void)queue_arg;
  walk->count = 0;
  while (ASGST_NextFrame(iterator, &frame) == 1 && walk->count < MAX_FRAMES) {
    asgst_test_method_name(frame.method, walk->frames[walk->count].name, NAME_LENGTH);
    walk->frames[walk->count].bci = frame.bci;
    walk->count++;
  }
  walk->state = ASGST_State(iterator);
  walk->processed++;
  memcpy(walk->top_at_poll, processing_top, NAME_LENGTH);
}

static void top_name(ASGST_Iterator* iterator, char* name) {
  ASGST_Frame frame;
  name[0] = '\0';
  if (iterator != NULL && ASGST_NextFrame(iterator, &frame) == 1) {
    asgst_test_method_name(frame.method, name, NAME_LENGTH);
  }
}

static void on_start(ASGST_Queue* q, ASGST_Iterator* iterator, void* arg) {
  (void)q; (void)arg;
  top_name(iterator, processing_top);
}

static void on_end(ASGST_Queue* q, ASGST_Iterator* iterator, void* arg) {
  char top[NAME_LENGTH];
  (void)q; (void)arg;
  top_name(iterator, top);
  if (next_tag + 1 < MAX_ELEMENTS && (strcmp(top, "enqueueHere") == 0 || strcmp(top, "callee") == 0)) {
    next_tag++;
    pthread_kill(pthread_self(), SIGPROF);
  }
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  return asgst_test_load_jvmti(vm, &jvmti);
}

JNIEXPORT void JNICALL Java_AsgstQueueCallerMovedOn_register(JNIEnv* env, jclass cls) {
  (void)cls;
  queue = ASGST_RegisterQueue(env, 16, 0, on_element, NULL);
  ASGST_SetOnQueueProcessingStart(queue, 0, true, on_start, NULL);
  ASGST_SetOnQueueProcessingEnd(queue, 0, true, on_end, NULL);
  asgst_test_install_handler(SIGPROF, on_sigprof);
}

JNIEXPORT void JNICALL Java_AsgstQueueCallerMovedOn_enqueueHere(JNIEnv* env, jclass cls) {
  jvmtiFrameInfo frames[MAX_FRAMES];
  jint count = 0;
  (void)env; (void)cls;
  if ((*jvmti)->GetStackTrace(jvmti, NULL, 0, MAX_FRAMES, frames, &count) != JVMTI_ERROR_NONE) {
    count = 0;
  }
  for (int i = 0; i < count; i++) {
    reference[i].bci = (int)frames[i].location;
    asgst_test_jvmti_method_name(jvmti, frames[i].method, reference[i].name, NAME_LENGTH);
  }
  reference_count = count;
  next_tag = 0;
  pthread_kill(pthread_self(), SIGPROF);  /* delivered before it returns */
}

/* Whether the walk of the element with tag ended at the bottom and shows,
   from its frame skip on, the reference's frames from its frame
   reference_skip on; else says how in failure. */
static int check_walk(int tag, int skip, int reference_skip) {
  Walk* walk = &walks[tag];
  if (enqueue_result[tag] <= 0) {
    snprintf(failure, sizeof(failure), "element %d: ASGST_Enqueue returned %d", tag, enqueue_result[tag]);
    return 0;
  }
  if (walk->processed != 1) {
    snprintf(failure, sizeof(failure), "element %d processed %d times", tag, walk->processed);
    return 0;
  }
  if (walk->state != ASGST_NO_FRAME) {
    snprintf(failure, sizeof(failure), "element %d: the walk ended with %d after %d frames", tag, walk->state,
             walk->count);
    return 0;
  }
  for (int i = skip, r = reference_skip; i < walk->count || r < reference_count; i++, r++) {
    const char* name = i < walk->count ? walk->frames[i].name : "(none)";
    int bci = i < walk->count ? walk->frames[i].bci : -2;
    const char* expected = r < reference_count ? reference[r].name : "(none)";
    int expected_bci = r < reference_count ? reference[r].bci : -2;
    if (strcmp(name, expected) != 0 || bci != expected_bci) {
      snprintf(failure, sizeof(failure), "element %d, frame %d: %s at bci %d, JVMTI: %s at bci %d", tag, i, name,
               bci, expected, expected_bci);
      return 0;
    }
  }
  return 1;
}

JNIEXPORT jstring JNICALL Java_AsgstQueueCallerMovedOn_result(JNIEnv* env, jclass cls, jstring expected_top) {
  int elements = next_tag + 1;
  int moved_on = -1;
  char top[NAME_LENGTH];
  const char* chars = (*env)->GetStringUTFChars(env, expected_top, NULL);
  (void)cls;
  if (chars == NULL) {
    return NULL;
  }
  snprintf(top, sizeof(top), "%s", chars);
  (*env)->ReleaseStringUTFChars(env, expected_top, chars);
  ASGST_DeregisterQueue(queue);
  for (int tag = 0; tag < elements; tag++) {
    printf("element %d, processed with %s on top:", tag, walks[tag].top_at_poll);
    for (int i = 0; i < walks[tag].count; i++) {
      printf(" %s@%d", walks[tag].frames[i].name, walks[tag].frames[i].bci);
    }
    printf(" (state %d)\n", walks[tag].state);
  }
  fflush(stdout);
  if (reference_count < 4 || strcmp(reference[0].name, "enqueueHere") != 0 ||
      strcmp(reference[1].name, "callee") != 0 || strcmp(reference[2].name, "caller") != 0) {
    snprintf(failure, sizeof(failure), "JVMTI's trace: %d frames, %s, %s, %s", reference_count, reference[0].name,
             reference[1].name, reference[2].name);
    return (*env)->NewStringUTF(env, failure);
  }
  if (!check_walk(0, 0, 0)) {
    return (*env)->NewStringUTF(env, failure);
  }
  for (int tag = 1; tag < elements; tag++) {
    Walk* walk = &walks[tag];
    int in_callee = walk->count > 0 && strcmp(walk->frames[0].name, "callee") == 0;
    if (in_callee && walk->frames[0].bci <= reference[1].bci) {
      snprintf(failure, sizeof(failure), "element %d: callee() at bci %d, not after its call at %d", tag,
               walk->frames[0].bci, reference[1].bci);
      return (*env)->NewStringUTF(env, failure);
    }
    if (!check_walk(tag, in_callee ? 1 : 0, in_callee ? 2 : 0)) {
      return (*env)->NewStringUTF(env, failure);
    }
    if (in_callee && strcmp(walk->top_at_poll, top) == 0) {
      moved_on = tag;
    }
  }
  if (moved_on < 0) {
    snprintf(failure, sizeof(failure), "no element of callee() was processed with %s() on top", top);
  } else {
    snprintf(failure, sizeof(failure), "ok");
  }
  return (*env)->NewStringUTF(env, failure);
}
