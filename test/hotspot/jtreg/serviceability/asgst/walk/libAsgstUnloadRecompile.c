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
 * Samples AsgstUnloadRecompile.java's thread while it runs RecompiledWork of
 * one round's class loader. A walk is judged while a round runs (the class
 * set by setExpected): where its top frame is one of RecompiledWork's
 * methods, it must begin, by name, with a suffix of "inner middle outer run"
 * (whole, or cut by an error); every frame named so must be a method of the
 * round's class; and every frame's method must be readable (the walk reports
 * Java frames only, all of them live methods).
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

static const char* const truth[] = {"inner", "middle", "outer", "run"};
#define TRUTH_FRAMES 4

static timer_t timer;
static ASGST_Class volatile expected;  /* the round's class, null between rounds */
static volatile long judged, refused, wrong, with_round;  /* with_round: walks with the round's methods */
#define REFUSAL_KINDS 32
static volatile long refused_by_kind[REFUSAL_KINDS];  /* [-kind] for kinds <= 0; [0] also for a kind but no frame */
static char first_wrong[2048];
static volatile int wrong_recorded;

static int in_truth(const char* name) {
  int k;
  for (k = 0; k < TRUTH_FRAMES; k++) {
    if (strcmp(name, truth[k]) == 0) {
      return 1;
    }
  }
  return 0;
}

/* Whether one of trace's frames is a method of klass. Signal safe. */
static int has_class(const AsgstTestTrace* trace, ASGST_Class klass) {
  char name[64];
  ASGST_MethodInfo info;
  int i;
  for (i = 0; i < trace->count; i++) {
    if (asgst_test_method_info(trace->frames[i].method, name, sizeof(name), &info) && info.klass == klass) {
      return 1;
    }
  }
  return 0;
}

/* Why trace is wrong for a round of klass, or NULL. Signal safe. */
static const char* judge(const AsgstTestTrace* trace, ASGST_Class klass) {
  char name[64];
  char class_name[64];
  ASGST_MethodInfo info;
  int i;
  for (i = 0; i < trace->count; i++) {
    if (!asgst_test_method_info(trace->frames[i].method, name, sizeof(name), &info) ||
        !asgst_test_class_name(info.klass, class_name, sizeof(class_name))) {
      return "a frame's method or class cannot be read";
    }
    /* Every round's class has this name: only the class itself tells them apart. */
    if (strcmp(class_name, "LRecompiledWork;") == 0 && (!in_truth(name) || info.klass != klass)) {
      return "a method of another round's class";
    }
  }
  if (asgst_test_method_info(trace->frames[0].method, name, sizeof(name), &info) && info.klass == klass &&
      !asgst_test_begins_with_suffix(trace, truth, NULL, TRUTH_FRAMES)) {
    return "not a suffix of inner middle outer run";
  }
  return NULL;
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  /* One sampled thread; SIGPROF is blocked while its handler runs. */
  static AsgstTestTrace trace;
  ASGST_Class klass = __atomic_load_n(&expected, __ATOMIC_ACQUIRE);
  int saved_errno = errno;
  (void)signo; (void)info;
  if (klass == NULL) {
    return;  /* between rounds: the walks would show the loading, compiling and GC */
  }
  asgst_test_walk(ucontext, 0, &trace);
  if (trace.count == 0) {
    refused++;
    refused_by_kind[trace.kind < 0 && -trace.kind < REFUSAL_KINDS ? -trace.kind : 0]++;
  } else {
    const char* why = judge(&trace, klass);
    judged++;
    if (has_class(&trace, klass)) {
      with_round++;
    }
    if (why != NULL) {
      wrong++;
      if (!wrong_recorded) {
        size_t used = (size_t)snprintf(first_wrong, sizeof(first_wrong), "%s; kind %d state %d: ", why, trace.kind,
                                       trace.state);
        int i;
        for (i = 0; i < trace.count && i < 6 && used + 96 < sizeof(first_wrong); i++) {
          asgst_test_describe_frame(first_wrong, sizeof(first_wrong), &used, &trace.frames[i]);
        }
        __atomic_store_n(&wrong_recorded, 1, __ATOMIC_RELEASE);
      }
    }
  }
  errno = saved_errno;
}

JNIEXPORT void JNICALL Java_AsgstUnloadRecompile_startSampling(JNIEnv* env, jclass cls, jint interval_micros) {
  (void)cls;
  if (asgst_test_start_sampling(on_sigprof, CLOCK_MONOTONIC, interval_micros, &timer) != 0) {
    (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/RuntimeException"), "cannot start the timer");
  }
}

JNIEXPORT void JNICALL Java_AsgstUnloadRecompile_setExpected(JNIEnv* env, jclass cls, jclass klass) {
  (void)env; (void)cls;
  __atomic_store_n(&expected, klass == NULL ? NULL : ASGST_JClassToClass(klass), __ATOMIC_RELEASE);
}

/* {walks judged, refused, wrong, walks with the round's methods} */
JNIEXPORT jlongArray JNICALL Java_AsgstUnloadRecompile_stopSampling(JNIEnv* env, jclass cls) {
  jlong values[4];
  (void)cls;
  asgst_test_stop_sampling(timer);
  values[0] = judged;
  values[1] = refused;
  values[2] = wrong;
  values[3] = with_round;
  return asgst_test_long_array(env, values, 4);
}

/* The refused walks by what the walk returned: [-kind] for kinds <= 0, [0] also for a kind but no frame. */
JNIEXPORT jlongArray JNICALL Java_AsgstUnloadRecompile_refusals(JNIEnv* env, jclass cls) {
  jlong values[REFUSAL_KINDS];
  int i;
  (void)cls;
  for (i = 0; i < REFUSAL_KINDS; i++) {
    values[i] = refused_by_kind[i];
  }
  return asgst_test_long_array(env, values, REFUSAL_KINDS);
}

JNIEXPORT jstring JNICALL Java_AsgstUnloadRecompile_firstWrong(JNIEnv* env, jclass cls) {
  (void)cls;
  return asgst_test_recorded_text(env, &wrong_recorded, first_wrong);
}
