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
 * Queue walks, and walks from a native method, into a virtual thread's
 * frames frozen in the heap, judged by JVMTI GetStackTrace and by a proof of
 * which frames were frozen that does not ask the walker.
 *
 * check() runs in a remounted virtual thread, on its carrier: it takes JVMTI's
 * stack trace of the current (virtual) thread, walks its own stack with
 * ASGST_NOT_IN_SIGNAL_HANDLER (the direct walk: in the VM, as JVMTI's), then
 * enqueues an element into the carrier's queue. Nothing runs in Java between
 * the three: the element is
 * processed at check()'s return to Java (the poll of the native-to-Java
 * transition, which the enqueue armed), where the stack is still JVMTI's. The
 * processing-start handler records the top frame there to show it (check()).
 * JVMTI calls are not allowed in the queue's handlers themselves
 * (doc/safepoint-queue.md), so JVMTI's trace is taken before, at the same
 * Java position. jmethodIDs of the walk's methods are made after the run
 * (ASGST_MethodToJMethodID is no handler's business either).
 *
 * The proof. Before its first unmount a thread marks how much of its carrier's
 * stack is in use at each depth d of its recursion (used[d], at a native call
 * of recurse(d)). Each carrier marks how much of its stack is in use right
 * before it runs a task (carrier_floor, from its loop's frame, which then
 * calls the task: the carrier's own frames lie below). At check() (called
 * from bottom(), called from recurse(DEPTH)) the thread records how much is
 * in use now (used_now); above = used_now - carrier_floor is the stack that
 * this mount uses: the frames from the task's run() up to the continuation's
 * entry, and the thawed frames of the virtual thread. Frozen or thawed, a
 * frame has the same size (HotSpot copies compiled frames as they are and
 * rebuilds interpreted ones with the same layout, up to alignment), and the
 * frames on the stack are always the youngest, contiguous up to the
 * continuation's entry. So if recurse(d) were on the stack now, so would be
 * descend(d) and all frames above it, and above would be at least the space
 * they took before, used[DEPTH] - used[d]. Hence, if above + slack <
 * used[DEPTH] - used[d], recurse(d) and every older frame, down to
 * Continuation.enter, are in the heap; JVMTI shows that they exist, as they
 * must, since the thread never returned from them. The walker must report
 * all of them, with null sp and fp.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_getattr_np */
#endif
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

/* A walk has 2 * DEPTH (150) recursion frames and about 10 more. */
#define MAX_FRAMES 1024

/* Slack of the proof: HotSpot may re-align a rebuilt interpreted frame (one
   word per frame, at most); the carrier's interpreted loop frame has one word
   more of expression stack at its call of markCarrier(int, int) than at its
   call of the task's run(); the thawed bottom frame may be aligned (one
   word). The native wrappers of markCarrier(), mark() and check() are the
   same (the same signature), so they cancel, as does an interpreted frame's
   deeper expression stack at a call of descend() than at one of mark(): it
   belongs to a frame that the supposition puts on the stack. */
#define SLACK_FIXED 64
#define SLACK_PER_FRAME 8

typedef struct {
  ASGST_Method method;
  int bci;
  int type;
  int comp_level;
  int sp_null;
  int fp_null;
} WalkFrame;

/* One walk's frames, as an iterator gave them. */
typedef struct {
  int state;                /* the iterator's state after the last frame */
  int count;
  int overflow;
  int rewind_mismatch;      /* the first frame that differed after ASGST_RewindIterator, or -1 */
  WalkFrame frames[MAX_FRAMES];
} Trace;

typedef struct {
  long used_now;            /* bytes of the carrier's stack in use at check() */
  long carrier_floor;       /* ... when the carrier began to run this mount */
  int enqueue_result;
  int processed;
  ASGST_Method top_at_poll; /* the top frame where the element was processed */
  Trace queued;             /* the queue element's walk, at check()'s return */
  int direct_result;        /* ASGST_RunWithIterator's in check() */
  Trace direct;             /* ... its walk, from check() itself with ASGST_NOT_IN_SIGNAL_HANDLER */
  int jvmti_error;
  jint jvmti_count;
  jvmtiFrameInfo jvmti[MAX_FRAMES];
} Walk;

static jvmtiEnv* jvmti;
static int threads, depth, rounds;
static Walk* walks;        /* threads * rounds */
static long* used;         /* threads * (depth + 1): used[d] of each thread, before its first unmount */
static uintptr_t* used_on; /* the carrier (its stack's top) each mark was taken on */
static char failure[1024];
/* The counters of counts() (AsgstQueueHeapFrames.java); those of one kind
   of walk begin at QUEUED or DIRECT. */
#define COUNTERS 22
enum { PROVEN_WALKS, PROVEN_FRAMES, HEAP_FRAMES, HEAP_INTERPRETED, HEAP_COMPILED, HEAP_INLINED, IN_HEAP_ENDINGS };
#define QUEUED 1
#define DIRECT 15
static jlong counters[COUNTERS];
static int refused_in_collections; /* enqueues refused with ASGST_UNSAFE_STATE, tried again */

/* Per carrier (OS thread). initial-exec: the SIGPROF handler's first touch of
   these must not allocate (the default model's lazy allocation may). */
static __thread ASGST_Queue* carrier_queue __attribute__((tls_model("initial-exec")));
static __thread uintptr_t stack_top __attribute__((tls_model("initial-exec")));
static __thread long carrier_floor __attribute__((tls_model("initial-exec")));
/* volatile: the handler reads it inside pthread_kill, which the compiler may
   not know of (the store before the call would be dead). */
static __thread Walk* volatile pending __attribute__((tls_model("initial-exec")));
static __thread ASGST_Method poll_top __attribute__((tls_model("initial-exec")));

/* Bytes of this carrier's stack in use down to frame. */
static long stack_used(void* frame) {
  if (stack_top == 0) {
    pthread_attr_t attr;
    void* low;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      if (pthread_attr_getstack(&attr, &low, &size) == 0) {
        stack_top = (uintptr_t)low + size;
      }
      pthread_attr_destroy(&attr);
    }
  }
  return (long)(stack_top - (uintptr_t)frame);
}

static void on_start(ASGST_Queue* queue, ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame;
  (void)queue; (void)arg;
  poll_top = iterator != NULL && ASGST_NextFrame(iterator, &frame) == 1 ? frame.method : NULL;
}

/* Records the iterator's frames into walk, then checks that the iterator,
   rewound, gives the same again. */
static void record(ASGST_Iterator* iterator, Trace* walk) {
  ASGST_Frame frame;
  walk->count = 0;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (walk->count == MAX_FRAMES) {
      walk->overflow = 1;
      break;
    }
    WalkFrame* f = &walk->frames[walk->count++];
    f->method = frame.method;
    f->bci = frame.bci;
    f->type = frame.type;
    f->comp_level = frame.comp_level;
    f->sp_null = frame.sp == NULL;
    f->fp_null = frame.fp == NULL;
  }
  walk->state = ASGST_State(iterator);
  /* Rewound, the iterator must give the same frames again, those from the
     heap included, and end the same way. */
  ASGST_RewindIterator(iterator);
  walk->rewind_mismatch = -1;
  for (int i = 0; i <= walk->count && walk->rewind_mismatch < 0; i++) {
    int more = ASGST_NextFrame(iterator, &frame) == 1;
    if (i == walk->count) {
      if ((more && !walk->overflow) || (!more && ASGST_State(iterator) != walk->state)) {
        walk->rewind_mismatch = i;
      }
    } else if (!more || frame.method != walk->frames[i].method || frame.bci != walk->frames[i].bci ||
               frame.type != walk->frames[i].type || (frame.sp == NULL) != walk->frames[i].sp_null) {
      walk->rewind_mismatch = i;
    }
  }
}

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  Walk* walk = (Walk*)element_arg;
  (void)queue_arg;
  record(iterator, &walk->queued);
  walk->top_at_poll = poll_top;
  walk->processed++;
}

static void on_direct(ASGST_Iterator* iterator, void* arg) {
  record(iterator, (Trace*)arg);
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  Walk* walk = pending;
  (void)signo; (void)info;
  if (walk != NULL) {
    walk->enqueue_result = ASGST_Enqueue(carrier_queue, ucontext, walk);
  }
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  return asgst_test_load_jvmti(vm, &jvmti);
}

JNIEXPORT void JNICALL Java_AsgstQueueHeapFrames_setUp(JNIEnv* env, jclass cls, jint thread_count, jint max_depth,
                                                       jint round_count) {
  (void)env; (void)cls;
  threads = thread_count;
  depth = max_depth;
  rounds = round_count;
  walks = (Walk*)calloc((size_t)threads * rounds, sizeof(Walk));
  used = (long*)calloc((size_t)threads * (depth + 1), sizeof(long));
  used_on = (uintptr_t*)calloc((size_t)threads * (depth + 1), sizeof(uintptr_t));
  asgst_test_install_handler(SIGPROF, on_sigprof);
}

JNIEXPORT void JNICALL Java_AsgstQueueHeapFrames_mark(JNIEnv* env, jclass cls, jint thread, jint d) {
  long now = stack_used(__builtin_frame_address(0));
  (void)env; (void)cls;
  used[thread * (depth + 1) + d] = now;
  used_on[thread * (depth + 1) + d] = stack_top;
}

JNIEXPORT void JNICALL Java_AsgstQueueHeapFrames_markCarrier(JNIEnv* env, jclass cls, jint unused1, jint unused2) {
  (void)env; (void)cls; (void)unused1; (void)unused2;
  carrier_floor = stack_used(__builtin_frame_address(0));
}

JNIEXPORT void JNICALL Java_AsgstQueueHeapFrames_check(JNIEnv* env, jclass cls, jint thread, jint round) {
  Walk* walk = &walks[thread * rounds + round];
  (void)cls;
  walk->used_now = stack_used(__builtin_frame_address(0));
  walk->carrier_floor = carrier_floor;
  if (carrier_queue == NULL) {
    /* The carrier's queue: a virtual thread's env is its carrier's. One
       element is pending at a time (check()'s, until its return). */
    carrier_queue = ASGST_RegisterQueue(env, 4, 0, on_element, NULL);
    ASGST_SetOnQueueProcessingStart(carrier_queue, 0, true, on_start, NULL);
  }
  walk->jvmti_error = (*jvmti)->GetStackTrace(jvmti, NULL, 0, MAX_FRAMES, walk->jvmti, &walk->jvmti_count);
  /* The same stack, walked from here: the walk enters the VM to read the
     frames in the heap. */
  walk->direct_result = ASGST_RunWithIterator(NULL, ASGST_NOT_IN_SIGNAL_HANDLER, on_direct, &walk->direct);
  /* ASGST_Enqueue refuses while a collection runs (ASGST_UNSAFE_STATE: a
     thread in native code goes on during one, and the collector thread of
     the test runs them all the time): then again, 1 ms later, for at most
     10 s. */
  for (int attempt = 0; attempt < 10000; attempt++) {
    if (round % 2 == 0) {
      pending = walk;
      pthread_kill(pthread_self(), SIGPROF); /* delivered before it returns */
      pending = NULL;
    } else {
      walk->enqueue_result = ASGST_Enqueue(carrier_queue, NULL, walk);
    }
    if (walk->enqueue_result != ASGST_UNSAFE_STATE) {
      break;
    }
    __atomic_fetch_add(&refused_in_collections, 1, __ATOMIC_RELAXED);
    struct timespec millisecond = { 0, 1000000 };
    nanosleep(&millisecond, NULL);
  }
}

static void name_of(JNIEnv* env, jmethodID method, char* out, size_t size) {
  if (!asgst_test_jvmti_qualified_name(env, jvmti, method, out, size)) {
    snprintf(out, size, "?");
  }
}

/* Whether thread's marks tell where its descent stood: all on one carrier
   (it did not unmount before its first unmount in bottom()) and deeper with
   depth. */
static int marks_usable(int thread) {
  const long* u = &used[thread * (depth + 1)];
  const uintptr_t* on = &used_on[thread * (depth + 1)];
  for (int d = 1; d <= depth; d++) {
    if (on[d] == 0 || on[d] != on[1] || (d > 1 && u[d] < u[d - 1])) {
      return 0;
    }
  }
  return 1;
}

/* The stack this mount uses above the carrier's loop frame, or -1 if unknown. */
static long above_carrier(const Walk* walk) {
  return walk->carrier_floor > 0 && walk->used_now > walk->carrier_floor ? walk->used_now - walk->carrier_floor : -1;
}

/* The deepest d whose recurse(d) the marks prove frozen at this walk, or 0.
   Between recurse(d) and recurse(DEPTH) lie 2 * (DEPTH - d) frames. */
static int proven_frozen_depth(int thread, const Walk* walk) {
  const long* u = &used[thread * (depth + 1)];
  long above = above_carrier(walk);
  if (above < 0) {
    return 0;
  }
  for (int d = depth; d >= 1; d--) {
    long before = u[depth] - u[d];
    if (above + SLACK_FIXED + (long)SLACK_PER_FRAME * 2 * (depth - d) < before) {
      return d;
    }
  }
  return 0;
}

/* Checks one walk (kind: "queue" or "direct") against JVMTI's trace and the
   proof, and counts it from counters[base]; 1, or 0 with failure set. */
static int check_trace(JNIEnv* env, int thread, int round, const Walk* walk, const Trace* trace, const char* kind,
                       int base, jmethodID recurse_id, int usable_marks) {
  char ours[256], theirs[256];
  if (trace->overflow) {
    snprintf(failure, sizeof(failure), "thread %d round %d, %s walk: more than %d frames", thread, round, kind,
             MAX_FRAMES);
    return 0;
  }
  /* Frame by frame: the same method at the same bci. A walk that ended with
     ASGST_FRAMES_IN_HEAP is compared as far as it went (Java counts those). */
  for (int i = 0; i < trace->count || (trace->state != ASGST_FRAMES_IN_HEAP && i < walk->jvmti_count); i++) {
    jmethodID id = i < trace->count ? ASGST_MethodToJMethodID(trace->frames[i].method) : NULL;
    int bci = i < trace->count ? trace->frames[i].bci : -2;
    jmethodID expected = i < walk->jvmti_count ? walk->jvmti[i].method : NULL;
    int expected_bci = i < walk->jvmti_count ? (int)walk->jvmti[i].location : -2;
    if (id != expected || bci != expected_bci) {
      name_of(env, id, ours, sizeof(ours));
      name_of(env, expected, theirs, sizeof(theirs));
      snprintf(failure, sizeof(failure),
               "thread %d round %d, %s walk, frame %d of %d (JVMTI %d): ASGST %s at bci %d (type %d, level %d, %s),"
               " JVMTI %s at bci %d; the walk ended with %d",
               thread, round, kind, i, trace->count, (int)walk->jvmti_count,
               id == NULL && i >= trace->count ? "(none)" : ours, bci,
               i < trace->count ? trace->frames[i].type : -1, i < trace->count ? trace->frames[i].comp_level : -1,
               i < trace->count && trace->frames[i].sp_null ? "from the heap" : "on the stack",
               expected == NULL ? "(none)" : theirs, expected_bci, trace->state);
      return 0;
    }
  }
  if (trace->state != ASGST_NO_FRAME && trace->state != ASGST_FRAMES_IN_HEAP) {
    snprintf(failure, sizeof(failure), "thread %d round %d, %s walk: ended with %d after %d frames", thread, round,
             kind, trace->state, trace->count);
    return 0;
  }
  if (trace->rewind_mismatch >= 0) {
    snprintf(failure, sizeof(failure),
             "thread %d round %d, %s walk: after ASGST_RewindIterator, frame %d (or the end) differed", thread, round,
             kind, trace->rewind_mismatch);
    return 0;
  }
  /* The top frame, check()'s, is on the stack. */
  if (trace->count == 0 || trace->frames[0].sp_null) {
    snprintf(failure, sizeof(failure), "thread %d round %d, %s walk: no top frame, or it (check) came from the heap",
             thread, round, kind);
    return 0;
  }
  /* Frames from the heap are the oldest: once one is, all below are. */
  int first_heap = trace->count;
  for (int i = 0; i < trace->count; i++) {
    /* A frame from the heap has neither sp nor fp (a frame on the stack may
       lack fp: compiled code keeps no frame pointer). */
    if (trace->frames[i].sp_null && !trace->frames[i].fp_null) {
      snprintf(failure, sizeof(failure), "thread %d round %d, %s walk, frame %d: null sp, but an fp", thread, round,
               kind, i);
      return 0;
    }
    if (trace->frames[i].sp_null && first_heap == trace->count) {
      first_heap = i;
    } else if (!trace->frames[i].sp_null && first_heap < trace->count) {
      snprintf(failure, sizeof(failure), "thread %d round %d, %s walk: frame %d on the stack below frame %d from the heap",
               thread, round, kind, i, first_heap);
      return 0;
    }
  }
  /* The proof: recurse(proven) and all frames below it are frozen. The k-th
     frame of recurse() from the top is recurse(depth - k + 1). */
  int proven = usable_marks ? proven_frozen_depth(thread, walk) : 0;
  int proven_index = walk->jvmti_count;
  if (proven > 0) {
    for (int i = 0, k = 0; i < walk->jvmti_count; i++) {
      if (walk->jvmti[i].method == recurse_id && ++k == depth - proven + 1) {
        proven_index = i;
        break;
      }
    }
    if (trace->state == ASGST_NO_FRAME && first_heap > proven_index) {
      snprintf(failure, sizeof(failure),
               "thread %d round %d, %s walk: recurse(%d) (frame %d) and below were in the heap (%ld bytes of stack"
               " in use by this mount, %ld before the unmount from recurse(%d) up), yet the walker reported frame %d"
               " on the stack",
               thread, round, kind, proven, proven_index, above_carrier(walk),
               used[thread * (depth + 1) + depth] - used[thread * (depth + 1) + proven], proven, first_heap - 1);
      return 0;
    }
    counters[base + PROVEN_WALKS]++;
    counters[base + PROVEN_FRAMES] += walk->jvmti_count - proven_index;
  }
  for (int i = first_heap; i < trace->count; i++) {
    counters[base + HEAP_FRAMES]++;
    if (trace->frames[i].type == ASGST_FRAME_JAVA_INLINED) {
      counters[base + HEAP_INLINED]++;
    } else if (trace->frames[i].comp_level == 0) {
      counters[base + HEAP_INTERPRETED]++;
    } else {
      counters[base + HEAP_COMPILED]++;
    }
  }
  if (trace->state == ASGST_FRAMES_IN_HEAP) {
    counters[base + IN_HEAP_ENDINGS]++;
  }
  return 1;
}

/* Checks one round of a thread: JVMTI's trace, the queue element's walk and
   the direct walk; 1, or 0 with failure set. */
static int check_walk(JNIEnv* env, int thread, int round, jmethodID check_id, jmethodID recurse_id,
                      int usable_marks) {
  Walk* walk = &walks[thread * rounds + round];
  char ours[256], theirs[256];
  int recurse_frames = 0;
  if (walk->enqueue_result != ASGST_JAVA_TRACE) {
    snprintf(failure, sizeof(failure), "thread %d round %d: ASGST_Enqueue returned %d", thread, round,
             walk->enqueue_result);
    return 0;
  }
  if (walk->processed != 1) {
    snprintf(failure, sizeof(failure), "thread %d round %d: processed %d times", thread, round, walk->processed);
    return 0;
  }
  if (ASGST_MethodToJMethodID(walk->top_at_poll) != check_id) {
    name_of(env, ASGST_MethodToJMethodID(walk->top_at_poll), ours, sizeof(ours));
    snprintf(failure, sizeof(failure), "thread %d round %d: processed with %s on top, not at check()'s return",
             thread, round, ours);
    return 0;
  }
  if (walk->direct_result != ASGST_JAVA_TRACE) {
    snprintf(failure, sizeof(failure), "thread %d round %d: ASGST_RunWithIterator in check() returned %d", thread,
             round, walk->direct_result);
    return 0;
  }
  /* JVMTI's trace is the reference: check() on top, exactly depth frames of
     recurse(), Continuation.enter at the bottom. */
  if (walk->jvmti_error != JVMTI_ERROR_NONE || walk->jvmti_count < 1 || walk->jvmti_count == MAX_FRAMES ||
      walk->jvmti[0].method != check_id) {
    snprintf(failure, sizeof(failure), "thread %d round %d: JVMTI GetStackTrace error %d, %d frames", thread,
             round, walk->jvmti_error, (int)walk->jvmti_count);
    return 0;
  }
  for (int i = 0; i < walk->jvmti_count; i++) {
    recurse_frames += walk->jvmti[i].method == recurse_id;
  }
  name_of(env, walk->jvmti[walk->jvmti_count - 1].method, theirs, sizeof(theirs));
  if (recurse_frames != depth || strcmp(theirs, "Ljdk/internal/vm/Continuation;.enter") != 0) {
    snprintf(failure, sizeof(failure), "thread %d round %d: JVMTI's trace has %d frames of recurse() and ends at %s",
             thread, round, recurse_frames, theirs);
    return 0;
  }
  if (!check_trace(env, thread, round, walk, &walk->queued, "queue", QUEUED, recurse_id, usable_marks) ||
      !check_trace(env, thread, round, walk, &walk->direct, "direct", DIRECT, recurse_id, usable_marks)) {
    return 0;
  }
  int proven = usable_marks ? proven_frozen_depth(thread, walk) : 0;
  if (counters[9] < 0 || proven < counters[9]) counters[9] = proven;
  if (proven > counters[10]) counters[10] = proven;
  if (counters[11] < 0 || above_carrier(walk) < counters[11]) counters[11] = above_carrier(walk);
  if (above_carrier(walk) > counters[12]) counters[12] = above_carrier(walk);
  return 1;
}

/* Prints a walk beside JVMTI's trace. */
static void print_trace(JNIEnv* env, const Walk* walk, const Trace* trace, const char* kind) {
  printf("  %s walk | JVMTI\n", kind);
  for (int i = 0; i < trace->count || i < walk->jvmti_count; i++) {
    char ours[128] = "", theirs[128] = "";
    if (i < trace->count) name_of(env, ASGST_MethodToJMethodID(trace->frames[i].method), ours, sizeof(ours));
    if (i < walk->jvmti_count) name_of(env, walk->jvmti[i].method, theirs, sizeof(theirs));
    printf("  %3d ASGST %-60s bci %4d type %d level %2d %s | JVMTI %s bci %d\n", i, ours,
           i < trace->count ? trace->frames[i].bci : -2, i < trace->count ? trace->frames[i].type : -1,
           i < trace->count ? trace->frames[i].comp_level : -1,
           i < trace->count ? (trace->frames[i].sp_null ? "heap " : "stack") : "     ", theirs,
           i < walk->jvmti_count ? (int)walk->jvmti[i].location : -2);
  }
}

JNIEXPORT jstring JNICALL Java_AsgstQueueHeapFrames_compare(JNIEnv* env, jclass cls) {
  jmethodID check_id = (*env)->GetStaticMethodID(env, cls, "check", "(II)V");
  jmethodID recurse_id = (*env)->GetStaticMethodID(env, cls, "recurse", "(IIJ)J");
  int printed = 0;
  memset(counters, 0, sizeof(counters));
  counters[9] = counters[11] = counters[13] = -1;
  snprintf(failure, sizeof(failure), "ok");
  for (int t = 0; t < threads; t++) {
    int usable = marks_usable(t);
    long recursion = used[t * (depth + 1) + depth] - used[t * (depth + 1) + 1];
    if (!usable) {
      counters[8]++;
    } else if (counters[13] < 0 || recursion < counters[13]) {
      counters[13] = recursion;
    }
    for (int r = 0; r < rounds; r++) {
      counters[0] += walks[t * rounds + r].processed > 0 || walks[t * rounds + r].enqueue_result != 0;
      if (!check_walk(env, t, r, check_id, recurse_id, usable)) {
        Walk* walk = &walks[t * rounds + r];
        /* The failing walks and JVMTI's trace, side by side. */
        print_trace(env, walk, &walk->queued, "queue");
        print_trace(env, walk, &walk->direct, "direct");
        fflush(stdout);
        return (*env)->NewStringUTF(env, failure);
      }
      if (printed == 0 && t == threads / 2) {
        /* One walk in full, for the record. */
        Walk* walk = &walks[t * rounds + r];
        const Trace* trace = &walk->queued;
        printed = 1;
        printf("thread %d round %d, queue walk: %d frames, stack in use by the mount %ld bytes (%ld with the"
               " carrier's), recurse(%d) and below proven frozen:\n", t, r, trace->count, above_carrier(walk),
               walk->used_now, usable ? proven_frozen_depth(t, walk) : 0);
        for (int i = 0; i < trace->count; i++) {
          char ours[128];
          if (i > 6 && i < trace->count - 10) {
            if (i == 7) printf("  ...\n");
            continue;
          }
          name_of(env, ASGST_MethodToJMethodID(trace->frames[i].method), ours, sizeof(ours));
          printf("  %3d %-60s bci %4d type %d level %2d %s\n", i, ours, trace->frames[i].bci, trace->frames[i].type,
                 trace->frames[i].comp_level, trace->frames[i].sp_null ? "heap" : "stack");
        }
        fflush(stdout);
      }
    }
  }
  return (*env)->NewStringUTF(env, failure);
}

JNIEXPORT jlongArray JNICALL Java_AsgstQueueHeapFrames_counts(JNIEnv* env, jclass cls) {
  (void)cls;
  counters[14] = refused_in_collections;
  return asgst_test_long_array(env, counters, COUNTERS);
}
