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
 * A sampler on a thread of its own (a plain pthread, not attached to the VM)
 * halts a target thread with a signal, walks it while it waits in the signal
 * handler, once with ASGST_RunWithIteratorOfThread and once with
 * AsyncGetStackTrace, then lets it go. Names are resolved afterwards on the
 * Java thread that asked for the samples.
 */

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"

#define MAX_SAMPLES 1000
#define MAX_FRAMES 256
#define SIGNAL SIGPROF

#define ASGST_TEST_MAX_FRAMES MAX_FRAMES
#include "../native/asgstTestSupport.h"

typedef struct {
  int result;               /* kind (> 0) or error of the walk */
  int state;                /* thread state (AsyncGetStackTrace only) */
  AsgstTestTrace trace;     /* trace.state: ASGST_State after the last frame (iterator only) */
} Walk;

typedef struct {
  Walk iterator;
  Walk call_trace;
} Sample;

static Sample samples[MAX_SAMPLES];
static jvmtiEnv* jvmti;

/* The handshake with the halted thread: 1 halted, 2 released, 3 gone. */
static volatile int phase;
static volatile pid_t target_tid;
static void* volatile captured_context;

static pid_t gettid_now(void) {
  return (pid_t)syscall(SYS_gettid);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  return asgst_test_load_jvmti(vm, &jvmti);
}

static void on_signal(int signo, siginfo_t* info, void* ucontext) {
  (void)signo; (void)info;
  if (gettid_now() != target_tid || __atomic_load_n(&phase, __ATOMIC_ACQUIRE) != 0) {
    return;
  }
  captured_context = ucontext;
  __atomic_store_n(&phase, 1, __ATOMIC_RELEASE);
  while (__atomic_load_n(&phase, __ATOMIC_ACQUIRE) != 2) {
    /* halted: the sampler walks this thread now */
  }
  __atomic_store_n(&phase, 3, __ATOMIC_RELEASE);
}

static int wait_for_phase(int wanted) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (__atomic_load_n(&phase, __ATOMIC_ACQUIRE) != wanted) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > 2) {
      return 0;
    }
  }
  return 1;
}

typedef struct {
  pid_t tid;
  JNIEnv* env;
  int options;
  int call_trace_options;   /* AsyncGetStackTrace's options */
  int accepted_states;
  int count;
  int interval_micros;
  int taken;
} Request;

static void walk_both(Request* request, void* context, Sample* sample) {
  ASGST_CallFrame frames[MAX_FRAMES];
  ASGST_CallTrace trace;
  int i, kind;
  memset(sample, 0, sizeof(*sample));
  kind = ASGST_RunWithIteratorOfThread(request->tid, context, request->options, asgst_test_record,
                                       &sample->iterator.trace);
  /* A walk that failed on the way counts as its error. */
  sample->iterator.result = kind > 0 && sample->iterator.trace.state < 0 ? sample->iterator.trace.state : kind;
  memset(&trace, 0, sizeof(trace));
  trace.env_id = request->env;
  trace.state = request->accepted_states;
  trace.frames = frames;
  AsyncGetStackTrace(&trace, MAX_FRAMES, context, (uint32_t)request->call_trace_options);
  sample->call_trace.result = trace.num_frames < 0 ? trace.num_frames : trace.kind;
  sample->call_trace.state = trace.state;
  for (i = 0; trace.num_frames > 0 && i < trace.num_frames; i++) {
    ASGST_Frame* f = &sample->call_trace.trace.frames[i];
    f->type = frames[i].type;
    if (f->type == ASGST_FRAME_NON_JAVA) {
      f->pc = frames[i].non_java_frame.pc;
      f->method = NULL;
      f->bci = -1;
      f->comp_level = -1;
    } else {
      f->method = frames[i].java_frame.method;
      f->bci = frames[i].java_frame.bci == 65535 ? -1 : frames[i].java_frame.bci;
      f->comp_level = frames[i].java_frame.comp_level;
    }
  }
  sample->call_trace.trace.count = trace.num_frames > 0 ? trace.num_frames : 0;
}

static void* sampler(void* arg) {
  Request* request = (Request*)arg;
  struct timespec pause = { 0, request->interval_micros * 1000L };
  int i;
  for (i = 0; i < request->count; i++) {
    __atomic_store_n(&phase, 0, __ATOMIC_RELEASE);
    if (syscall(SYS_tgkill, getpid(), request->tid, SIGNAL) != 0 || !wait_for_phase(1)) {
      break;  /* the thread is gone or does not answer */
    }
    walk_both(request, captured_context, &samples[request->taken++]);
    __atomic_store_n(&phase, 2, __ATOMIC_RELEASE);
    wait_for_phase(3);
    nanosleep(&pause, NULL);
  }
  return NULL;
}

/* "Lpkg/Class;.name:bci:level" for Java frames, "@" for others, top first, "|" between. */
static void describe(JNIEnv* env, Walk* walk, char* out, size_t size) {
  size_t used = 0;
  int i;
  used += snprintf(out, size, "%d %d ", walk->result, walk->state);
  for (i = 0; i < walk->trace.count && used + 1 < size; i++) {
    ASGST_Frame* f = &walk->trace.frames[i];
    const char* separator = i == 0 ? "" : "|";
    char name[1024];
    if (f->type == ASGST_FRAME_NON_JAVA) {
      used += snprintf(out + used, size - used, "%s@", separator);
    } else if (asgst_test_jvmti_qualified_name(env, jvmti, ASGST_MethodToJMethodID(f->method), name, sizeof(name))) {
      used += snprintf(out + used, size - used, "%s%s:%d:%d", separator, name, f->bci, f->comp_level);
    } else {
      used += snprintf(out + used, size - used, "%s?", separator);
    }
  }
}

JNIEXPORT jint JNICALL Java_AsgstOtherThreadWalk_currentTid(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return (jint)gettid_now();
}

JNIEXPORT jlong JNICALL Java_AsgstOtherThreadWalk_currentEnv(JNIEnv* env, jclass cls) {
  (void)cls;
  return (jlong)(intptr_t)env;
}

/*
 * Takes up to count samples of thread tid (JNIEnv env, may be 0) from a
 * sampler pthread. Returns two strings per sample, the iterator's walk (with
 * options) and AsyncGetStackTrace's (with call_trace_options): "result state
 * frames".
 */
JNIEXPORT jobjectArray JNICALL
Java_AsgstOtherThreadWalk_sample(JNIEnv* env, jclass cls, jint tid, jlong thread_env, jint options,
                                 jint call_trace_options, jint accepted_states, jint count,
                                 jint interval_micros) {
  static char text[MAX_FRAMES * 96];
  Request request;
  pthread_t thread;
  jobjectArray result;
  int i;
  (void)cls;
  asgst_test_install_handler(SIGNAL, on_signal);

  request.tid = (pid_t)tid;
  request.env = (JNIEnv*)(intptr_t)thread_env;
  request.options = options;
  request.call_trace_options = call_trace_options;
  request.accepted_states = accepted_states;
  request.count = count > MAX_SAMPLES ? MAX_SAMPLES : count;
  request.interval_micros = interval_micros;
  request.taken = 0;
  target_tid = (pid_t)tid;
  pthread_create(&thread, NULL, sampler, &request);
  pthread_join(thread, NULL);

  result = (*env)->NewObjectArray(env, 2 * request.taken, (*env)->FindClass(env, "java/lang/String"), NULL);
  for (i = 0; i < request.taken; i++) {
    jstring s;
    describe(env, &samples[i].iterator, text, sizeof(text));
    s = (*env)->NewStringUTF(env, text);
    (*env)->SetObjectArrayElement(env, result, 2 * i, s);
    (*env)->DeleteLocalRef(env, s);
    describe(env, &samples[i].call_trace, text, sizeof(text));
    s = (*env)->NewStringUTF(env, text);
    (*env)->SetObjectArrayElement(env, result, 2 * i + 1, s);
    (*env)->DeleteLocalRef(env, s);
  }
  return result;
}

static void ignore_walk(ASGST_Iterator* iterator, void* arg) {
  (void)iterator;
  *(int*)arg = 1;
}

/* Walks tid and env without halting anything (for threads that no longer exist). */
JNIEXPORT jintArray JNICALL
Java_AsgstOtherThreadWalk_walkWithoutSignal(JNIEnv* env, jclass cls, jint tid, jlong thread_env) {
  ASGST_CallFrame frames[8];
  ASGST_CallTrace trace;
  int called = 0;
  jint results[3];
  (void)cls;
  results[0] = ASGST_RunWithIteratorOfThread((jlong)tid, NULL, 0, ignore_walk, &called);
  memset(&trace, 0, sizeof(trace));
  trace.env_id = (JNIEnv*)(intptr_t)thread_env;
  trace.frames = frames;
  AsyncGetStackTrace(&trace, 8, NULL, 0);
  results[1] = trace.num_frames;
  results[2] = called;
  return asgst_test_int_array(env, results, 3);
}
