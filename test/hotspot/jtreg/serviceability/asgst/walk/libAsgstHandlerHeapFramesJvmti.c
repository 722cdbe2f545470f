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
 * Signal-handler walks of virtual threads judged by JVMTI. A SIGPROF handler
 * on each carrier walks (Java frames only) and keeps a walk whose top frame
 * is compute() for its carrier. The virtual thread that ran compute() calls
 * judge() next, on the same carrier and before it can unmount (a virtual
 * thread leaves its carrier only when it blocks or yields); there JVMTI
 * GetStackTrace of the current thread, the virtual one, is the judge: below
 * loop(), where the two stand at different calls, the same methods at the
 * same bcis. A complete walk must have all of JVMTI's frames; one that ended
 * otherwise (ASGST_FRAMES_IN_HEAP) must agree as far as it went.
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
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"
#include "../native/asgstTestCarriers.h"

/* The stacks have DEPTH + 1 frames of deep() and about ten more. */
#define MAX_FRAMES 256

typedef struct {
  ASGST_Method method;
  int bci;
  int from_heap;  /* a frame in the heap has no sp (profile.h) */
  int type;       /* the rest only for the report of a mismatch */
  int comp_level;
  void* pc;
  void* sp;
} KeptFrame;

/* One per carrier: filled by its signal handler when empty, judged and
   emptied by judge() on the same OS thread. */
typedef struct {
  int full;
  int count;
  int overflow;
  int state;
  int function;  /* which walk function took it, for the report */
  KeptFrame frames[MAX_FRAMES];
} KeptWalk;

enum {
  SIGNALS, KEPT, JUDGED, JUDGED_COMPLETE, JUDGED_WITH_HEAP_FRAMES, JUDGED_ENDED_IN_HEAP, JUDGED_OTHER_END,
  MISMATCHES, COUNTS
};
static volatile long counts[COUNTS];

static const char* const function_names[] = {
  "ASGST_RunWithIterator", "ASGST_RunWithIteratorOfThread", "ASGST_RunWithIteratorFromFrame"
};

static KeptWalk kept[ASGST_TEST_MAX_CARRIERS];
static jvmtiEnv* jvmti;
static ASGST_Method compute_method;
static jmethodID loop_id, judge_id;
static pthread_mutex_t methods_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int sampling;
static int mismatch_recorded;
static char mismatch[16384];

static void add(int counter) {
  __atomic_fetch_add(&counts[counter], 1, __ATOMIC_RELAXED);
}

/* The calling OS thread's place among the sampled carriers, or -1. */
static int carrier_index(void) {
  pid_t tid = (pid_t)syscall(SYS_gettid);
  int count = __atomic_load_n(&asgst_test_carrier_count, __ATOMIC_ACQUIRE);
  for (int i = 0; i < count; i++) {
    if (__atomic_load_n(&asgst_test_carriers[i], __ATOMIC_RELAXED) == tid) {
      return i;
    }
  }
  return -1;
}

static void keep_walk(ASGST_Iterator* iterator, void* arg) {
  KeptWalk* walk = (KeptWalk*)arg;
  ASGST_Frame frame;
  walk->count = 0;
  walk->overflow = 0;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (walk->count == MAX_FRAMES) {
      walk->overflow = 1;
      break;
    }
    walk->frames[walk->count].method = frame.method;
    walk->frames[walk->count].bci = frame.bci;
    walk->frames[walk->count].from_heap = frame.method != NULL && frame.sp == NULL;
    walk->frames[walk->count].type = frame.type;
    walk->frames[walk->count].comp_level = frame.comp_level;
    walk->frames[walk->count].pc = frame.pc;
    walk->frames[walk->count].sp = frame.sp;
    walk->count++;
  }
  walk->state = ASGST_State(iterator);
}

static void on_signal(int signo, siginfo_t* siginfo, void* ucontext) {
  /* A counter of all carriers: a dlopen'ed library's thread-local variable
     may call malloc at its first access. */
  static unsigned long n;
  mcontext_t* m = &((ucontext_t*)ucontext)->uc_mcontext;
  unsigned long k;
  int carrier;
  KeptWalk* walk;
  (void)signo; (void)siginfo; (void)m;
  if (!__atomic_load_n(&sampling, __ATOMIC_ACQUIRE) || (carrier = carrier_index()) < 0) {
    return;
  }
  add(SIGNALS);
  walk = &kept[carrier];
  if (__atomic_load_n(&walk->full, __ATOMIC_ACQUIRE)) {
    return;  /* the last one is still to be judged */
  }
  /* Of every four walks: two by ASGST_RunWithIterator, one by
     ASGST_RunWithIteratorOfThread of the own id, and one (on x86_64 and
     aarch64) by ASGST_RunWithIteratorFromFrame from the interrupted frame's
     registers: all of them go by the same rule. */
  k = __atomic_fetch_add(&n, 1, __ATOMIC_RELAXED) & 3;
  walk->count = 0;
  walk->function = k == 2 ? 1 : 0;
#if defined(__x86_64__)
  if (k == 3) {
    walk->function = 2;
    ASGST_RunWithIteratorFromFrame((void*)m->gregs[REG_RSP], (void*)m->gregs[REG_RBP], (void*)m->gregs[REG_RIP], 0,
                                   keep_walk, walk);
  }
#elif defined(__aarch64__)
  if (k == 3) {
    walk->function = 2;
    ASGST_RunWithIteratorFromFrame((void*)m->sp, (void*)m->regs[29], (void*)m->pc, 0, keep_walk, walk);
  }
#endif
  if (walk->function == 1) {
    ASGST_RunWithIteratorOfThread((jlong)syscall(SYS_gettid), ucontext, 0, keep_walk, walk);
  } else if (walk->function == 0) {
    ASGST_RunWithIterator(ucontext, 0, keep_walk, walk);
  }
  if (walk->count > 0 && walk->frames[0].method == compute_method) {
    add(KEPT);
    __atomic_store_n(&walk->full, 1, __ATOMIC_RELEASE);
  }
}

static void name_of(JNIEnv* env, jmethodID method, char* out, size_t size) {
  if (!asgst_test_jvmti_qualified_name(env, jvmti, method, out, size)) {
    snprintf(out, size, "%s", method == NULL ? "(none)" : "?");
  }
}

/* Both stacks frame by frame, for the report of the first mismatch. */
static void record_mismatch(JNIEnv* env, const KeptWalk* walk, const jvmtiFrameInfo* trace, jint trace_count,
                            const char* what) {
  char ours[256], theirs[256];
  size_t used;
  if (__atomic_exchange_n(&mismatch_recorded, 1, __ATOMIC_ACQ_REL)) {
    return;  /* the first one is reported */
  }
  used = (size_t)snprintf(mismatch, sizeof(mismatch), "%s; %s walk ended with %d after %d frames, JVMTI %d frames:",
                          what, function_names[walk->function], walk->state, walk->count, (int)trace_count);
  for (int i = 0; (i < walk->count || i < trace_count) && used < sizeof(mismatch); i++) {
    name_of(env, i < walk->count ? ASGST_MethodToJMethodID(walk->frames[i].method) : NULL, ours, sizeof(ours));
    name_of(env, i < trace_count ? trace[i].method : NULL, theirs, sizeof(theirs));
    const KeptFrame* f = i < walk->count ? &walk->frames[i] : NULL;
    used += (size_t)snprintf(mismatch + used, sizeof(mismatch) - used,
                             "\n  %3d ASGST %s bci %d%s type %d level %d pc %p sp %p | JVMTI %s bci %d",
                             i, ours, f != NULL ? f->bci : -2, f != NULL && f->from_heap ? " (heap)" : "",
                             f != NULL ? f->type : -1, f != NULL ? f->comp_level : -2, f != NULL ? f->pc : NULL,
                             f != NULL ? f->sp : NULL, theirs, i < trace_count ? (int)trace[i].location : -2);
  }
}

/* 1 if trace (JVMTI's, taken in judge()) confirms walk (taken in compute()). */
static int agrees(JNIEnv* env, const KeptWalk* walk, const jvmtiFrameInfo* trace, jint trace_count) {
  char what[128];
  if (walk->overflow) {
    record_mismatch(env, walk, trace, trace_count, "the walk had more frames than the test keeps");
    return 0;
  }
  if (trace_count < 2 || trace[0].method != judge_id || trace[1].method != loop_id) {
    record_mismatch(env, walk, trace, trace_count, "JVMTI's trace does not begin with judge() and loop()");
    return 0;
  }
  /* Frame 0: compute() in the walk, judge() in JVMTI's trace. Frame 1: loop(),
     at the call of compute() and of judge(). From frame 2 on, the frames that
     neither thread's progress nor a remount can have changed. */
  for (int i = 1; i < walk->count || (walk->state == ASGST_NO_FRAME && i < trace_count); i++) {
    if (i >= walk->count || i >= trace_count ||
        ASGST_MethodToJMethodID(walk->frames[i].method) != trace[i].method ||
        (i >= 2 && walk->frames[i].bci != (int)trace[i].location)) {
      snprintf(what, sizeof(what), "frame %d differs", i);
      record_mismatch(env, walk, trace, trace_count, what);
      return 0;
    }
  }
  return 1;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  return asgst_test_load_jvmti(vm, &jvmti);
}

JNIEXPORT void JNICALL Java_AsgstHandlerHeapFramesJvmti_sampleThisCarrier(JNIEnv* env, jclass cls, jint interval) {
  pthread_mutex_lock(&methods_lock);
  if (compute_method == NULL) {
    jmethodID compute = (*env)->GetStaticMethodID(env, cls, "compute", "(J)J");
    loop_id = (*env)->GetStaticMethodID(env, cls, "loop", "()J");
    judge_id = (*env)->GetStaticMethodID(env, cls, "judge", "()I");
    if (compute == NULL || loop_id == NULL || judge_id == NULL) {
      pthread_mutex_unlock(&methods_lock);
      (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/RuntimeException"), "methods not found");
      return;
    }
    compute_method = ASGST_JMethodIDToMethod(compute);
    __atomic_store_n(&sampling, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&methods_lock);
  asgst_test_sample_carrier(on_signal, interval);
}

JNIEXPORT jint JNICALL Java_AsgstHandlerHeapFramesJvmti_judge(JNIEnv* env, jclass cls) {
  jvmtiFrameInfo trace[MAX_FRAMES];
  jint trace_count = 0;
  int carrier = carrier_index(), heap_frames = 0;
  KeptWalk* walk;
  (void)cls;
  if (carrier < 0 || !__atomic_load_n(&kept[carrier].full, __ATOMIC_ACQUIRE)) {
    return 0;
  }
  walk = &kept[carrier];
  add(JUDGED);
  if ((*jvmti)->GetStackTrace(jvmti, NULL, 0, MAX_FRAMES, trace, &trace_count) != JVMTI_ERROR_NONE ||
      trace_count == MAX_FRAMES) {
    trace_count = 0;  /* reported as a mismatch: JVMTI's trace does not begin with judge() */
  }
  for (int i = 0; i < walk->count; i++) {
    heap_frames |= walk->frames[i].from_heap;
  }
  if (heap_frames) add(JUDGED_WITH_HEAP_FRAMES);
  if (walk->state == ASGST_NO_FRAME) {
    add(JUDGED_COMPLETE);
  } else if (walk->state == ASGST_FRAMES_IN_HEAP) {
    add(JUDGED_ENDED_IN_HEAP);
  } else {
    add(JUDGED_OTHER_END);
  }
  if (!agrees(env, walk, trace, trace_count)) {
    add(MISMATCHES);
  }
  __atomic_store_n(&walk->full, 0, __ATOMIC_RELEASE);
  return 1;
}

JNIEXPORT jlongArray JNICALL Java_AsgstHandlerHeapFramesJvmti_stopSampling(JNIEnv* env, jclass cls) {
  (void)cls;
  __atomic_store_n(&sampling, 0, __ATOMIC_RELEASE);
  asgst_test_stop_carriers();
  return asgst_test_long_array(env, (const jlong*)counts, COUNTS);
}

JNIEXPORT jstring JNICALL Java_AsgstHandlerHeapFramesJvmti_firstMismatch(JNIEnv* env, jclass cls) {
  (void)cls;
  return __atomic_load_n(&mismatch_recorded, __ATOMIC_ACQUIRE) ? (*env)->NewStringUTF(env, mismatch) : NULL;
}
