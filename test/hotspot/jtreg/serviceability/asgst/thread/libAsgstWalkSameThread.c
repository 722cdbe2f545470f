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
 * AsyncGetStackTrace in a signal handler with ASGST_WALK_SAME_THREAD and
 * another thread's JNIEnv, and without the option.
 */

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define DEPTH 64

static jvmtiEnv* jvmti;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int waiter_waiting, waiter_released;
static JNIEnv* waiter_env;
static jvmtiFrameInfo waiter_jvmti[DEPTH];
static jint waiter_jvmti_count;
static ASGST_Method waiter_methods[DEPTH];  /* JVMTI's frames as ASGST methods */

static pthread_t spinner;
static JNIEnv* spinner_env;
static volatile int handled;
static volatile int own_walks_failed;  /* the spinner's own walk gave an error (a stub's pc, say) */
static char failure[256];

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  if ((*vm)->GetEnv(vm, (void**)&jvmti, JVMTI_VERSION_1_2) != JNI_OK) {
    return JNI_ERR;
  }
  return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL Java_AsgstWalkSameThread_waitHere(JNIEnv* env, jclass cls) {
  jint i;
  (void)cls;
  (*jvmti)->GetStackTrace(jvmti, NULL, 0, DEPTH, waiter_jvmti, &waiter_jvmti_count);
  for (i = 0; i < waiter_jvmti_count; i++) {
    waiter_methods[i] = ASGST_JMethodIDToMethod(waiter_jvmti[i].method);
  }
  pthread_mutex_lock(&lock);
  waiter_env = env;
  waiter_waiting = 1;
  pthread_cond_broadcast(&changed);
  while (!waiter_released) {
    pthread_cond_wait(&changed, &lock);
  }
  pthread_mutex_unlock(&lock);
}

JNIEXPORT void JNICALL Java_AsgstWalkSameThread_release(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  pthread_mutex_lock(&lock);
  waiter_released = 1;
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&lock);
}

JNIEXPORT jboolean JNICALL Java_AsgstWalkSameThread_waiting(JNIEnv* env, jclass cls) {
  int w;
  (void)env; (void)cls;
  pthread_mutex_lock(&lock);
  w = waiter_waiting;
  pthread_mutex_unlock(&lock);
  return w ? JNI_TRUE : JNI_FALSE;
}

static int contains(const ASGST_CallTrace* trace, const char* name) {
  jint i;
  for (i = 0; i < trace->num_frames; i++) {
    if (trace->frames[i].type != ASGST_FRAME_NON_JAVA && asgst_test_method_is(trace->frames[i].java_frame.method, name)) {
      return 1;
    }
  }
  return 0;
}

static int same_frames(const ASGST_CallTrace* a, const ASGST_CallTrace* b) {
  jint i;
  if (a->num_frames != b->num_frames) {
    return 0;
  }
  for (i = 0; i < a->num_frames; i++) {
    if (a->frames[i].java_frame.type != b->frames[i].java_frame.type ||
        a->frames[i].java_frame.bci != b->frames[i].java_frame.bci ||
        a->frames[i].java_frame.method != b->frames[i].java_frame.method) {
      return 0;
    }
  }
  return 1;
}

static void walk(ASGST_CallTrace* trace, ASGST_CallFrame* frames, JNIEnv* env, void* ucontext, uint32_t options) {
  memset(trace, 0, sizeof(*trace));
  trace->env_id = env;
  trace->frames = frames;
  AsyncGetStackTrace(trace, DEPTH, ucontext, options);
}

/* The waiter's walk against JVMTI's: the same methods, bottom to top. */
static int matches_jvmti(const ASGST_CallTrace* trace) {
  jint i;
  if (trace->num_frames != waiter_jvmti_count) {
    return 0;
  }
  for (i = 0; i < trace->num_frames; i++) {
    if (trace->frames[i].java_frame.method != waiter_methods[i]) {
      return 0;
    }
  }
  return 1;
}

static void on_signal(int signo, siginfo_t* info, void* ucontext) {
  ASGST_CallFrame own_frames[DEPTH], same_frames_[DEPTH], none_frames[DEPTH], other_frames[DEPTH];
  ASGST_CallTrace own, same, none, other;
  (void)signo; (void)info;
  failure[0] = '\0';
  walk(&own, own_frames, spinner_env, ucontext, 0);                         /* own env: the caller */
  walk(&same, same_frames_, waiter_env, ucontext, ASGST_WALK_SAME_THREAD);  /* another's env, ignored */
  walk(&none, none_frames, NULL, ucontext, ASGST_WALK_SAME_THREAD);         /* no env */
  walk(&other, other_frames, waiter_env, NULL, 0);                         /* the halted waiter */
  if (own.num_frames <= 0) {
    own_walks_failed++;
  }
  /* An error of the own walk must be the same with the option. */
  if (own.num_frames > 0 && !contains(&own, "spinner")) {
    snprintf(failure, sizeof(failure), "own env: %d frames without spinner", own.num_frames);
  } else if (!same_frames(&same, &own)) {
    snprintf(failure, sizeof(failure), "WALK_SAME_THREAD with the waiter's env: %d frames%s, not the spinner's %d",
             same.num_frames, contains(&same, "waiter") ? " of the waiter" : "", own.num_frames);
  } else if (!same_frames(&none, &own)) {
    snprintf(failure, sizeof(failure), "WALK_SAME_THREAD without env: %d frames, not the spinner's %d",
             none.num_frames, own.num_frames);
  } else if (!matches_jvmti(&other)) {
    snprintf(failure, sizeof(failure), "the waiter's env: %d frames%s, JVMTI has %d", other.num_frames,
             contains(&other, "spinner") ? " of the spinner" : "", waiter_jvmti_count);
  }
  __atomic_store_n(&handled, 1, __ATOMIC_RELEASE);
}

JNIEXPORT void JNICALL Java_AsgstWalkSameThread_registerSpinner(JNIEnv* env, jclass cls) {
  struct sigaction action;
  (void)cls;
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPROF, &action, NULL);
  spinner = pthread_self();
  __atomic_store_n(&spinner_env, env, __ATOMIC_RELEASE);
}

JNIEXPORT jint JNICALL Java_AsgstWalkSameThread_ownWalksFailed(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return own_walks_failed;
}

JNIEXPORT jstring JNICALL Java_AsgstWalkSameThread_signalSpinner(JNIEnv* env, jclass cls) {
  struct timespec pause = { 0, 200000 };
  (void)cls;
  while (__atomic_load_n(&spinner_env, __ATOMIC_ACQUIRE) == NULL) {
    nanosleep(&pause, NULL);
  }
  __atomic_store_n(&handled, 0, __ATOMIC_RELEASE);
  pthread_kill(spinner, SIGPROF);
  while (!__atomic_load_n(&handled, __ATOMIC_ACQUIRE)) {
    nanosleep(&pause, NULL);
  }
  nanosleep(&pause, NULL);  /* the spinner runs a little between signals */
  return failure[0] == '\0' ? NULL : (*env)->NewStringUTF(env, failure);
}
