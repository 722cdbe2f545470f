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
 * Samples carrier threads from a SIGPROF handler (ASGST_RunWithIterator,
 * Java frames only) and judges each walk by the stack that the test knows
 * its virtual threads have: loop() (maybe with compute() above it) on top of
 * exactly deep_frames frames of deep(), and Continuation.enter at the bottom.
 */

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"
#include "../native/asgstTestCarriers.h"

#define SEEN_FRAMES 8

enum {
  WALKS, IN_LOOP, WHOLE_IN_LOOP, IN_HEAP_IN_LOOP, OTHER_ERRORS_IN_LOOP, WRONG, WITH_HEAP_FRAMES, IN_HEAP,
  FROM_FRAME_WALKS, FROM_FRAME_WITH_HEAP_FRAMES, REFUSED, REFUSED_UNSAFE_STATE, COUNTS
};
static volatile long counts[COUNTS];

static ASGST_Method deep_method, loop_method, compute_method, continuation_enter;
static int deep_frames;  /* the frames of deep() below loop() */
static pthread_mutex_t methods_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int sampling;
static volatile int wrong_recorded;
static char wrong_walk[4096];

static void add(int counter) {
  __atomic_fetch_add(&counts[counter], 1, __ATOMIC_RELAXED);
}

/* The top frames' methods of the walks outside loop() (the first ones met;
   null for a walk without frames): where the carriers' time went. */
#define TOP_METHODS 64
#define TOP_METHODS_SHOWN 8
static ASGST_Method top_methods[TOP_METHODS];
static volatile int top_methods_used[TOP_METHODS];
static volatile long top_method_walks[TOP_METHODS + 1];  /* the last: other methods */

static void count_top_method(ASGST_Method method) {
  int i;
  for (i = 0; i < TOP_METHODS; i++) {
    int used = __atomic_load_n(&top_methods_used[i], __ATOMIC_ACQUIRE);
    if (used == 0) {
      int expected = 0;
      if (__atomic_compare_exchange_n(&top_methods_used[i], &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        top_methods[i] = method;
        __atomic_store_n(&top_methods_used[i], 2, __ATOMIC_RELEASE);
        break;
      }
      used = expected;
    }
    while (used == 1) {  /* another handler is writing the slot's method */
      used = __atomic_load_n(&top_methods_used[i], __ATOMIC_ACQUIRE);
    }
    if (top_methods[i] == method) {
      break;
    }
  }
  __atomic_fetch_add(&top_method_walks[i], 1, __ATOMIC_RELAXED);
}

static void check_walk(ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame, first = { 0 }, last = { 0 };
  ASGST_Frame seen[SEEN_FRAMES];
  int count = 0, deep = 0, has_loop = 0, heap_frames = 0, state, in_loop, wrong;
  int from_frame = *(const int*)arg;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (count < SEEN_FRAMES) {
      seen[count] = frame;
    }
    if (count++ == 0) {
      first = frame;
    }
    last = frame;
    deep += frame.method == deep_method;
    has_loop |= frame.method == loop_method;
    heap_frames |= frame.method != NULL && frame.sp == NULL;  /* a frame in the heap has no sp (profile.h) */
  }
  state = ASGST_State(iterator);
  in_loop = count > 0 && (first.method == loop_method || first.method == compute_method);
  if (!in_loop) {
    count_top_method(count > 0 ? first.method : NULL);
  }
  /* Complete (the walk came to its end) below loop() means every frame of
     deep() and Continuation.enter last; more frames of deep() are never right,
     except where deep()'s own code is on top (as the thread descends or
     returns): its inlined scopes come from the next debug information after
     the pc, which may lie in its inlined copy of itself, one deep() deeper
     (AsgstHandlerHeapFrames.java, at loop()): one more is allowed there. */
  wrong = deep > deep_frames + (first.method == deep_method ? 1 : 0) ||
          (state == ASGST_NO_FRAME && has_loop && (deep != deep_frames || last.method != continuation_enter));
  if (from_frame) {
    /* ASGST_RunWithIteratorFromFrame goes by the same rule; counted apart
       too, to show that it reads the heap where the rule allows it. */
    add(FROM_FRAME_WALKS);
    if (heap_frames) {
      add(FROM_FRAME_WITH_HEAP_FRAMES);
    }
  }
  add(WALKS);
  if (heap_frames) {
    add(WITH_HEAP_FRAMES);
  }
  if (state == ASGST_FRAMES_IN_HEAP) {
    add(IN_HEAP);
  }
  if (in_loop) {
    add(IN_LOOP);
    if (state == ASGST_NO_FRAME && !wrong) {
      add(WHOLE_IN_LOOP);
    } else if (state == ASGST_FRAMES_IN_HEAP) {
      add(IN_HEAP_IN_LOOP);
    } else if (state != ASGST_NO_FRAME) {
      add(OTHER_ERRORS_IN_LOOP);
    }
  }
  if (wrong) {
    add(WRONG);
    if (!__atomic_exchange_n(&wrong_recorded, 1, __ATOMIC_ACQ_REL)) {
      size_t used = (size_t)snprintf(wrong_walk, sizeof(wrong_walk), "state %d, %d frames, %d of deep(), last: ",
                                     state, count, deep);
      int i;
      asgst_test_describe_frame(wrong_walk, sizeof(wrong_walk), &used, &last);
      used += (size_t)snprintf(wrong_walk + used, sizeof(wrong_walk) - used, "; first frames: ");
      for (i = 0; i < count && i < SEEN_FRAMES; i++) {
        asgst_test_describe_frame(wrong_walk, sizeof(wrong_walk), &used, &seen[i]);
      }
    }
  }
}

/* A walk refused before its first frame; ASGST_UNSAFE_STATE among them is
   one taken during a stop-the-world collection (profile.h). */
static void count_refusal(int kind) {
  if (kind < 0) {
    add(REFUSED);
  }
  if (kind == ASGST_UNSAFE_STATE) {
    add(REFUSED_UNSAFE_STATE);
  }
}

static void on_signal(int signo, siginfo_t* siginfo, void* ucontext) {
  /* A counter of all carriers: a dlopen'ed library's thread-local variable
     may call malloc at its first access. */
  static unsigned long n;
  int from_frame = 0;
  unsigned long k;
  mcontext_t* m = &((ucontext_t*)ucontext)->uc_mcontext;
  (void)signo; (void)siginfo; (void)m;
  if (!__atomic_load_n(&sampling, __ATOMIC_ACQUIRE)) {
    return;
  }
  /* Of every four walks: two by ASGST_RunWithIterator, one by
     ASGST_RunWithIteratorOfThread of the own id, and one (on x86_64 and
     aarch64) by ASGST_RunWithIteratorFromFrame from the interrupted frame's
     registers. */
  k = __atomic_fetch_add(&n, 1, __ATOMIC_RELAXED);
  from_frame = (k & 3) == 3;
#if defined(__x86_64__)
  if (from_frame) {
    count_refusal(ASGST_RunWithIteratorFromFrame((void*)m->gregs[REG_RSP], (void*)m->gregs[REG_RBP],
                                                 (void*)m->gregs[REG_RIP], 0, check_walk, &from_frame));
    return;
  }
#elif defined(__aarch64__)
  if (from_frame) {
    count_refusal(ASGST_RunWithIteratorFromFrame((void*)m->sp, (void*)m->regs[29], (void*)m->pc, 0, check_walk,
                                                 &from_frame));
    return;
  }
#endif
  from_frame = 0;
  if ((k & 3) == 2) {
    /* The walk of a thread by its id, here the calling one, goes by the same rule. */
    count_refusal(ASGST_RunWithIteratorOfThread((jlong)syscall(SYS_gettid), ucontext, 0, check_walk, &from_frame));
  } else {
    count_refusal(ASGST_RunWithIterator(ucontext, 0, check_walk, &from_frame));
  }
}

static ASGST_Method static_method(JNIEnv* env, jclass cls, const char* name, const char* signature) {
  jmethodID id = cls == NULL ? NULL : (*env)->GetStaticMethodID(env, cls, name, signature);
  return id == NULL ? NULL : ASGST_JMethodIDToMethod(id);
}

JNIEXPORT void JNICALL Java_AsgstHandlerHeapFrames_sampleThisCarrier(JNIEnv* env, jclass cls, jint interval,
                                                                     jint frames_of_deep) {
  pthread_mutex_lock(&methods_lock);
  if (deep_method == NULL) {
    deep_frames = frames_of_deep;
    deep_method = static_method(env, cls, "deep", "(I)J");
    loop_method = static_method(env, cls, "loop", "()J");
    compute_method = static_method(env, cls, "compute", "(J)J");
    continuation_enter = static_method(env, (*env)->FindClass(env, "jdk/internal/vm/Continuation"), "enter",
                                       "(Ljdk/internal/vm/Continuation;Z)V");
    if (deep_method == NULL || loop_method == NULL || compute_method == NULL || continuation_enter == NULL) {
      deep_method = NULL;
      pthread_mutex_unlock(&methods_lock);
      (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/RuntimeException"), "methods not found");
      return;
    }
    __atomic_store_n(&sampling, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&methods_lock);
  asgst_test_sample_carrier(on_signal, interval);
}

JNIEXPORT jlongArray JNICALL Java_AsgstHandlerHeapFrames_stopSampling(JNIEnv* env, jclass cls) {
  (void)cls;
  __atomic_store_n(&sampling, 0, __ATOMIC_RELEASE);
  asgst_test_stop_carriers();
  return asgst_test_long_array(env, (const jlong*)counts, COUNTS);
}

JNIEXPORT jlong JNICALL Java_AsgstHandlerHeapFrames_walksInLoop(JNIEnv* env, jclass cls) {
  (void)env;
  (void)cls;
  return __atomic_load_n(&counts[IN_LOOP], __ATOMIC_RELAXED);
}

JNIEXPORT jstring JNICALL Java_AsgstHandlerHeapFrames_topMethodsOutsideLoop(JNIEnv* env, jclass cls) {
  char text[1024], name[64];
  size_t used = 0;
  long shown_walks[TOP_METHODS + 1], others;
  int i, n;
  (void)cls;
  text[0] = 0;
  for (i = 0; i <= TOP_METHODS; i++) {
    shown_walks[i] = top_method_walks[i];
  }
  /* The methods with the most walks first; the rest summed. */
  for (n = 0; n < TOP_METHODS_SHOWN && used < sizeof(text); n++) {
    int best = -1;
    for (i = 0; i < TOP_METHODS; i++) {
      if (shown_walks[i] > 0 && (best < 0 || shown_walks[i] > shown_walks[best])) {
        best = i;
      }
    }
    if (best < 0) {
      break;
    }
    used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s %ld", n == 0 ? "" : ", ",
                             top_methods[best] == NULL ? "no frame"
                             : asgst_test_method_name(top_methods[best], name, sizeof(name)) ? name : "?",
                             shown_walks[best]);
    shown_walks[best] = 0;
  }
  others = 0;
  for (i = 0; i <= TOP_METHODS; i++) {
    others += shown_walks[i];
  }
  if (others > 0 && used < sizeof(text)) {
    snprintf(text + used, sizeof(text) - used, "%sother methods %ld", used == 0 ? "" : ", ", others);
  }
  return (*env)->NewStringUTF(env, text);
}

JNIEXPORT jstring JNICALL Java_AsgstHandlerHeapFrames_firstWrongWalk(JNIEnv* env, jclass cls) {
  (void)cls;
  return __atomic_load_n(&wrong_recorded, __ATOMIC_ACQUIRE) ? (*env)->NewStringUTF(env, wrong_walk) : NULL;
}
