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
 * Samples the thread of AsgstReturningFrames.java and checks every walk taken
 * while it runs its loop (between enterLoop and exitLoop): the frames must be
 * the loop's, whatever instruction the signal interrupted.
 */

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#include "jni.h"
#include "profile.h"

#define MAX_FRAMES 64
#define ASGST_TEST_MAX_FRAMES MAX_FRAMES
#include "../native/asgstTestSupport.h"

enum Tag { OTHER, CALLEE, LOOP, DESCEND, MAIN };

static volatile int in_loop;
static int depth;
static volatile long walks, refused, wrong, at_return_address;
static volatile int wrong_recorded;
static char wrong_walk[2048];
static timer_t timer;

static enum Tag tag_of(ASGST_Method method) {
  if (asgst_test_method_is(method, "nop") || asgst_test_method_is(method, "nop6") ||
      asgst_test_method_is(method, "nop8") || asgst_test_method_is(method, "nop10") ||
      asgst_test_method_is(method, "leaf") ||
      asgst_test_method_is(method, "enterLoop") || asgst_test_method_is(method, "exitLoop")) {
    return CALLEE;
  }
  if (asgst_test_method_is(method, "loop")) {
    return LOOP;
  }
  if (asgst_test_method_is(method, "descend")) {
    return DESCEND;
  }
  return asgst_test_method_is(method, "main") ? MAIN : OTHER;
}

/* Whether the frames are [callee] loop descend x depth main (and the test
   harness's frames below main), or a prefix of that when the walk ended early. */
static int holds_loop_frames(const AsgstTestTrace* walk, int complete) {
  int expected[MAX_FRAMES];
  int n = 0, i, start = 0;
  if (walk->count > 0 && tag_of(walk->frames[0].method) == CALLEE) {
    start = 1;
  }
  expected[n++] = LOOP;
  for (i = 0; i < depth && n < MAX_FRAMES - 1; i++) {
    expected[n++] = DESCEND;
  }
  expected[n++] = MAIN;
  if (complete && walk->count - start < n) {
    return 0;
  }
  for (i = start; i < walk->count && i - start < n; i++) {
    if ((int)tag_of(walk->frames[i].method) != expected[i - start]) {
      return 0;
    }
  }
  return 1;
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  /* Not thread-local: the first access of a dlopen'ed library's thread-local
     variable may call malloc, which deadlocks in a signal handler that
     interrupted malloc (seen once). Only the sampled thread gets this signal,
     and SIGPROF is blocked while its handler runs. */
  static AsgstTestTrace walk;
  greg_t pc = ((ucontext_t*)ucontext)->uc_mcontext.gregs[REG_RIP];
  (void)signo; (void)info;
  if (!__atomic_load_n(&in_loop, __ATOMIC_ACQUIRE)) {
    return;
  }
  asgst_test_walk(ucontext, 0, &walk);
  __atomic_fetch_add(&walks, 1, __ATOMIC_RELAXED);
  int complete = walk.kind >= 0 && walk.state == ASGST_NO_FRAME;
  if (!holds_loop_frames(&walk, complete)) {
    __atomic_fetch_add(&wrong, 1, __ATOMIC_RELAXED);
    if (!__atomic_exchange_n(&wrong_recorded, 1, __ATOMIC_ACQ_REL)) {
      size_t used = (size_t)snprintf(wrong_walk, sizeof(wrong_walk), "pc %p kind %d end %d: ", (void*)pc,
                                     walk.kind, walk.state);
      int i;
      for (i = 0; i < walk.count && used < sizeof(wrong_walk); i++) {
        asgst_test_describe_frame(wrong_walk, sizeof(wrong_walk), &used, &walk.frames[i]);
      }
    }
  } else if (!complete) {
    __atomic_fetch_add(&refused, 1, __ATOMIC_RELAXED);
  } else if (tag_of(walk.frames[0].method) == LOOP && (greg_t)walk.frames[0].pc != pc) {
    /* The interrupted code was not the loop's, nor a callee's frame: a callee that returns. */
    __atomic_fetch_add(&at_return_address, 1, __ATOMIC_RELAXED);
  }
}

JNIEXPORT void JNICALL Java_AsgstReturningFrames_startSampling(JNIEnv* env, jclass cls, jint interval_micros,
                                                               jint loop_depth) {
  (void)cls;
  depth = loop_depth;
  if (asgst_test_start_sampling(on_sigprof, CLOCK_MONOTONIC, interval_micros, &timer) != 0) {
    (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/RuntimeException"), "cannot start the timer");
  }
}

JNIEXPORT jlongArray JNICALL Java_AsgstReturningFrames_stopSampling(JNIEnv* env, jclass cls) {
  jlong values[4];
  (void)cls;
  timer_delete(timer);
  values[0] = walks;
  values[1] = refused;
  values[2] = wrong;
  values[3] = at_return_address;
  return asgst_test_long_array(env, values, 4);
}

JNIEXPORT jstring JNICALL Java_AsgstReturningFrames_firstWrongWalk(JNIEnv* env, jclass cls) {
  (void)cls;
  return __atomic_load_n(&wrong_recorded, __ATOMIC_ACQUIRE) ? (*env)->NewStringUTF(env, wrong_walk) : NULL;
}

JNIEXPORT void JNICALL Java_AsgstReturningFrames_enterLoop(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  __atomic_store_n(&in_loop, 1, __ATOMIC_RELEASE);
}

JNIEXPORT void JNICALL Java_AsgstReturningFrames_exitLoop(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  __atomic_store_n(&in_loop, 0, __ATOMIC_RELEASE);
}

JNIEXPORT jint JNICALL Java_AsgstReturningFrames_nop(JNIEnv* env, jclass cls, jint value) {
  (void)env; (void)cls;
  return value;
}

JNIEXPORT jint JNICALL Java_AsgstReturningFrames_nop6(JNIEnv* env, jclass cls, jint a, jint b, jint c, jint d, jint e,
                                                      jint f) {
  (void)env; (void)cls;
  return a + b + c + d + e + f;
}

JNIEXPORT jint JNICALL Java_AsgstReturningFrames_nop8(JNIEnv* env, jclass cls, jint a, jint b, jint c, jint d, jint e,
                                                      jint f, jint g, jint h) {
  (void)env; (void)cls;
  return a + b + c + d + e + f + g + h;
}

JNIEXPORT jint JNICALL Java_AsgstReturningFrames_nop10(JNIEnv* env, jclass cls, jint a, jint b, jint c, jint d,
                                                       jint e, jint f, jint g, jint h, jint i, jint j) {
  (void)env; (void)cls;
  return a + b + c + d + e + f + g + h + i + j;
}
