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
 * The cases of AsgstBadArguments: every function of profile.h called with
 * bad arguments. Each case is a C function that stores what the calls
 * answered in a small int array; AsgstBadArguments.java holds the expected
 * answers, and where they come from. Cases are found by name (runCase), or,
 * for two tables of handles, by function and handle index (handleCase,
 * queueCase).
 *
 * The 30 functions and the cases that exercise them (names as in
 * AsgstBadArguments.java; "handle table" means handleCase with the six bad
 * method or class handles, "queue table" queueCase with the nine bad queue
 * handles):
 *
 *  ASGST_Capabilities                "Capabilities()", "Capabilities() on an unattached thread"
 *  ASGST_Version                     "Version()", "Version() on an unattached thread"
 *  ASGST_RunWithIterator             "RunWithIterator(fun=NULL)", "... on an unattached thread",
 *                                    "RunWithIterator() on an unattached thread",
 *                                    "RunWithIterator(options=0x40000000)", "(options=INT32_MIN)",
 *                                    "(ucontext=zeroed ucontext_t)"; the iterator cases below
 *  ASGST_RunWithIteratorFromFrame    "RunWithIteratorFromFrame(fun=NULL)", "(sp=fp=pc=NULL)",
 *                                    "(sp=0x8, fp=0x10, pc=0x12345, C frames)",
 *                                    "(sp=own stack, fp=0x10, pc=0x12345, C frames)",
 *                                    "RunWithIteratorFromFrame() on an unattached thread"
 *  ASGST_RunWithIteratorOfThread     "RunWithIteratorOfThread(fun=NULL, os_thread_id=own)",
 *                                    "(fun=NULL, os_thread_id=no thread)", "(os_thread_id=0)", "=1",
 *                                    "=-1", "=0x7ffffff0", "=INT64_MIN", "=ended Java thread",
 *                                    "(os_thread_id=own) on an unattached thread" (with and
 *                                    without INCLUDE_NON_JAVA_THREADS), "=VM Thread" and
 *                                    "=compiler thread" (with and without the option),
 *                                    "=running Java thread, not halted" (isolated)
 *  ASGST_NextFrame                   "NextFrame(iterator=NULL)", "(iterator=NULL, frame=NULL)",
 *                                    "(frame=NULL)", "(iterator=zeroed stack buffer)",
 *                                    "NextFrame() after the end"
 *  ASGST_RewindIterator              "RewindIterator(iterator=NULL)", "(iterator=zeroed stack buffer)",
 *                                    "RewindIterator() after the end"
 *  ASGST_State                       "State(iterator=NULL)", "(iterator=zeroed stack buffer)",
 *                                    "NextFrame() after the end", "RewindIterator(...)"
 *  ASGST_ThreadState                 "ThreadState() on an unattached thread",
 *                                    "AsyncGetStackTrace(state=0x40000000)"
 *  AsyncGetStackTrace                "AsyncGetStackTrace(trace=NULL)" (also unattached),
 *                                    "(depth=-1)", "(depth=INT_MIN)", "(depth=8, frames=NULL)",
 *                                    "(depth=0, frames=NULL)", "(env_id=0x12345)",
 *                                    "(env_id=zeroed buffer)", "(env_id=ended Java thread's)",
 *                                    "(env_id=0x12345, WALK_SAME_THREAD)",
 *                                    "(env_id=NULL) on an unattached thread",
 *                                    "(options=0x40000000)", "(kind=0x40)", "(state=0x40000000)",
 *                                    "(env_id=running Java thread, not halted)" (isolated)
 *  ASGST_GetMethodInfo               handle table; "GetMethodInfo(info=NULL)",
 *                                    "(method=0x12345, info=NULL)", "(method_name_length=0)",
 *                                    "=-1", "=INT_MIN", "=1", "(method_name=NULL)",
 *                                    "(method without generic signature)"
 *  ASGST_GetMethodIdNum              handle table
 *  ASGST_GetClassInfo                handle table; "GetClassInfo(info=NULL)",
 *                                    "(klass=0x8, info=NULL)", "(class_name_length=0)", "=-1",
 *                                    "(class_name=NULL)"
 *  ASGST_GetClassIdNum               handle table
 *  ASGST_GetMethodLineNumberTable    handle table; "(method=0x12345, entries=NULL, length=0)",
 *                                    "(entries=NULL)", "(length=0)", "(length=-1)",
 *                                    "(length=INT_MIN)", "(length=1)", "(native method)"
 *  ASGST_MethodToJMethodID           handle table; "MethodToJMethodID() on an unattached thread"
 *  ASGST_JMethodIDToMethod           "JMethodIDToMethod(method_id=NULL)",
 *                                    "(method_id=pointer to a zeroed word)",
 *                                    "JMethodIDToMethod() on an unattached thread",
 *                                    "(method_id=0x12345)" (isolated)
 *  ASGST_ClassToJClass               handle table; "ClassToJClass() on an unattached thread"
 *  ASGST_JClassToClass               "JClassToClass(klass=NULL)", "(klass=int.class)",
 *                                    "(klass=int[].class)", "(klass=String[].class)",
 *                                    "JClassToClass() on an unattached thread",
 *                                    "(klass=a long[], no Class)" (isolated)
 *  ASGST_RegisterClassUnloadHandler  "RegisterClassUnloadHandler(handler=NULL)",
 *                                    "... 65th registration", "... same handler and arg twice"
 *  ASGST_DeregisterClassUnloadHandler "DeregisterClassUnloadHandler() never registered",
 *                                    "(handler=NULL, arg=NULL)", "(arg=another)", and the three above
 *  ASGST_RegisterQueue               "RegisterQueue(size=0)", "=-1", "=INT_MIN", "(fun=NULL)",
 *                                    "(env=0x12345)", "(env=zeroed buffer)",
 *                                    "(env=ended Java thread's)", "(env=NULL) on an unattached
 *                                    thread", "(options=0x40000000)", "(size=INT_MAX)" (isolated)
 *  ASGST_DeregisterQueue             queue table; "DeregisterQueue() twice"
 *  ASGST_Enqueue                     queue table; "Enqueue() into a full queue"
 *  ASGST_GetQueueElement             queue table; "GetQueueElement(n out of range)",
 *                                    "GetQueueElement(n=0, -1) of an empty queue"
 *  ASGST_GetEnqueuableElement        queue table; "GetEnqueuableElement(ucontext=NULL)"
 *  ASGST_ResizeQueue                 queue table; "ResizeQueue(size=0, -1, INT_MIN)",
 *                                    "ResizeQueue(size=INT_MAX)" (isolated)
 *  ASGST_GetQueueSizeInfo            queue table; the two ResizeQueue cases
 *  ASGST_SetOnQueueProcessingStart   queue table; "(handler=NULL) after a handler",
 *                                    "(options=0x40000000)"
 *  ASGST_SetOnQueueProcessingEnd     queue table; "(handler=NULL) after a handler",
 *                                    "(offer_iterator=false)"
 *  and, across the queue functions: "queue handles: a removed handle does not reach the new
 *  queue in its slot".
 *
 * Not covered: ASGST_ENQUEUE_OTHER_ERROR. ASGST_Enqueue answers it only while
 * the queue's own thread runs AsgstQueues::apply_resize (asgstQueue.cpp), between
 * the two stores of the queue's busy flag, with no call in between that a test
 * could stop in: only a signal that lands exactly there sees it, which no test
 * can arrange deterministically.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "jni.h"
#include "profile.h"

/* The lowest error this VM returns (profile.h). */
#define LOWEST_ERROR ASGST_FRAMES_IN_HEAP

#define MAX_OUT 16
#define MAX_FRAMES 1024
#define MAX_QUEUE_ARGS 16
/* Words of a fake iterator: 64 KiB, more than an AsgstStackWalker takes. */
#define ITERATOR_WORDS 8192
#define UNKNOWN_OPTION 0x40000000
#define RUNNER_CALLS 20000

#define GARBAGE_LOW ((uintptr_t)0x8)
#define GARBAGE_ODD ((uintptr_t)0x12345)
#define GARBAGE_HIGH (~(uintptr_t)7)   /* aligned, at the top of the address space */

typedef int (*CaseFunction)(JNIEnv* env, jclass cls, int* out);

/* Fixtures -------------------------------------------------------------------- */

static jmethodID hash_code_id;          /* java.lang.Object.hashCode()I, a native method */
static ASGST_Method hash_code;
static ASGST_Method line_table_target;  /* AsgstBadArguments.lineTableTarget()I, with a line table */
static ASGST_Class object_class;
static jclass object_class_ref;         /* a global reference to java.lang.Object */

static ASGST_Queue* removed_queue;            /* deregistered on its own thread, then its slot */
static ASGST_Queue* successor_queue;          /* ... went to this queue of the same thread */
static ASGST_Queue* ended_thread_queue;       /* of a thread that ended without deregistering it */
static ASGST_Queue* deregistered_elsewhere;   /* the blocked thread's, deregistered by another thread */
static ASGST_Queue* stepped_queue;            /* kept between the steps of a case */

static pthread_mutex_t helper_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t helper_cond = PTHREAD_COND_INITIALIZER;
static int helper_blocked;
static int helper_released;
static JNIEnv* blocked_env;             /* of a Java thread that waits in a native method */
static JNIEnv* ended_env;               /* of a Java thread that has ended */
static jlong ended_tid = -1;
static jlong vm_thread_tid = -1;
static jlong compiler_thread_tid = -1;
static JNIEnv* volatile runner_env;     /* of a Java thread that runs (isolated cases) */
static volatile jlong runner_tid = -1;
static volatile int runner_ready;

/* What the queue handlers saw. */
static volatile int element_calls[MAX_QUEUE_ARGS];
static volatile int start_calls, start_with_iterator, start_first_frame;
static volatile int end_calls, end_with_iterator;

static jlong own_tid(void) {
  return (jlong)syscall(SYS_gettid);
}

static void sleep_millis(long millis) {
  struct timespec time;
  time.tv_sec = millis / 1000;
  time.tv_nsec = (millis % 1000) * 1000000L;
  nanosleep(&time, NULL);
}

static int os_thread_gone(jlong tid) {
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/task/%ld", (long)tid);
  return access(path, F_OK) != 0;
}

static int clamp_id(jlong id) {
  return id < INT_MIN ? INT_MIN : id > INT_MAX ? INT_MAX : (int)id;
}

static void reset_queue_counters(void) {
  int i;
  for (i = 0; i < MAX_QUEUE_ARGS; i++) {
    element_calls[i] = 0;
  }
  start_calls = start_with_iterator = end_calls = end_with_iterator = 0;
  start_first_frame = -1000;
}

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  intptr_t index = (intptr_t)queue_arg;
  (void)iterator; (void)element_arg;
  if (index >= 0 && index < MAX_QUEUE_ARGS) {
    element_calls[index]++;
  }
}

static void on_start(ASGST_Queue* queue, ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame;
  (void)queue; (void)arg;
  start_calls++;
  if (iterator != NULL) {
    start_with_iterator++;
    start_first_frame = ASGST_NextFrame(iterator, &frame);
  }
}

static void on_end(ASGST_Queue* queue, ASGST_Iterator* iterator, void* arg) {
  (void)queue; (void)arg;
  end_calls++;
  if (iterator != NULL) {
    end_with_iterator++;
  }
}

static void unload_handler(ASGST_Class klass, ASGST_Method* methods, int count, bool redefined, void* arg) {
  (void)klass; (void)methods; (void)count; (void)redefined; (void)arg;
}

static void other_unload_handler(ASGST_Class klass, ASGST_Method* methods, int count, bool redefined,
                                 void* arg) {
  (void)klass; (void)methods; (void)count; (void)redefined; (void)arg;
}

/* Walks ------------------------------------------------------------------------ */

typedef struct {
  int calls;   /* calls of the handler */
  int count;   /* frames stored */
  int end;     /* ASGST_State after the last frame */
  ASGST_Frame frames[MAX_FRAMES];
} Walk;

static Walk walk_a, walk_b;

static void reset_walk(Walk* walk) {
  walk->calls = 0;
  walk->count = 0;
  walk->end = -1000;
}

static void collect(ASGST_Iterator* iterator, void* arg) {
  Walk* walk = (Walk*)arg;
  walk->calls++;
  while (walk->count < MAX_FRAMES && ASGST_NextFrame(iterator, &walk->frames[walk->count]) == 1) {
    walk->count++;
  }
  walk->end = ASGST_State(iterator);
}

/* Whether two walks of one place found the same frames (methods, bcis, types). */
static int same_frames(const Walk* a, const Walk* b) {
  int i;
  if (a->count == 0 || a->count != b->count) {
    return 0;
  }
  for (i = 0; i < a->count; i++) {
    if (a->frames[i].type != b->frames[i].type || a->frames[i].method != b->frames[i].method ||
        a->frames[i].bci != b->frames[i].bci) {
      return 0;
    }
  }
  return 1;
}

static int drain(ASGST_Iterator* iterator, int* last) {
  ASGST_Frame frame;
  int count = 0;
  int result;
  while ((result = ASGST_NextFrame(iterator, &frame)) == 1 && count < 100000) {
    count++;
  }
  *last = result;
  return count;
}

/* In a walk handler: NextFrame(iterator, NULL), then a real NextFrame and State. */
static void null_frame_handler(ASGST_Iterator* iterator, void* arg) {
  int* results = (int*)arg;
  ASGST_Frame frame;
  results[0] = ASGST_NextFrame(iterator, NULL);
  results[1] = ASGST_NextFrame(iterator, &frame);
  results[2] = ASGST_State(iterator);
}

/* In a walk handler: the end of the walk, then NextFrame twice more and State. */
static void after_end_handler(ASGST_Iterator* iterator, void* arg) {
  int* results = (int*)arg;
  ASGST_Frame frame;
  drain(iterator, &results[0]);
  results[1] = ASGST_NextFrame(iterator, &frame);
  results[2] = ASGST_NextFrame(iterator, &frame);
  results[3] = ASGST_State(iterator);
}

/* In a walk handler: the whole walk, a rewind, State, and the whole walk again. */
static void rewind_handler(ASGST_Iterator* iterator, void* arg) {
  int* results = (int*)arg;
  int last;
  int first = drain(iterator, &last);
  ASGST_RewindIterator(iterator);
  results[0] = ASGST_State(iterator);
  results[1] = first > 0 && drain(iterator, &last) == first;
}

static void count_frames(ASGST_Iterator* iterator, void* arg) {
  int last;
  (*(int*)arg)++;
  drain(iterator, &last);
}

/* Unattached threads ----------------------------------------------------------- */

typedef int (*UnattachedFunction)(int* out);

typedef struct {
  UnattachedFunction function;
  int out[MAX_OUT];
  int count;
} UnattachedCall;

static void* unattached_main(void* arg) {
  UnattachedCall* call = (UnattachedCall*)arg;
  call->count = call->function(call->out);
  return NULL;
}

/* Runs function on a new pthread that never attaches to the VM. */
static int on_unattached_thread(UnattachedFunction function, int* out) {
  UnattachedCall call;
  pthread_t thread;
  int i;
  memset(&call, 0, sizeof(call));
  call.function = function;
  if (pthread_create(&thread, NULL, unattached_main, &call) != 0 || pthread_join(thread, NULL) != 0) {
    out[0] = -1000;
    return 1;
  }
  for (i = 0; i < call.count; i++) {
    out[i] = call.out[i];
  }
  return call.count;
}

/* Fixtures case ------------------------------------------------------------------- */

static int fixtures(JNIEnv* env, jclass cls, int* out) {
  jclass object = (*env)->FindClass(env, "java/lang/Object");
  jmethodID target;
  int removed, deregistered;
  if (object == NULL) {
    out[0] = -1000;
    return 1;
  }
  hash_code_id = (*env)->GetMethodID(env, object, "hashCode", "()I");
  hash_code = hash_code_id == NULL ? NULL : ASGST_JMethodIDToMethod(hash_code_id);
  object_class = ASGST_JClassToClass(object);
  object_class_ref = (jclass)(*env)->NewGlobalRef(env, object);
  target = (*env)->GetStaticMethodID(env, cls, "lineTableTarget", "()I");
  line_table_target = target == NULL ? NULL : ASGST_JMethodIDToMethod(target);

  reset_queue_counters();
  removed_queue = ASGST_RegisterQueue(NULL, 4, 0, on_element, (void*)(intptr_t)1);
  removed = removed_queue != NULL && ASGST_DeregisterQueue(removed_queue);
  successor_queue = ASGST_RegisterQueue(NULL, 4, 0, on_element, (void*)(intptr_t)2);
  deregistered_elsewhere = blocked_env == NULL ? NULL
                         : ASGST_RegisterQueue(blocked_env, 4, 0, on_element, (void*)(intptr_t)3);
  deregistered = deregistered_elsewhere != NULL && ASGST_DeregisterQueue(deregistered_elsewhere);

  out[0] = hash_code != NULL;
  out[1] = object_class != NULL;
  out[2] = line_table_target != NULL;
  out[3] = removed;
  out[4] = successor_queue != NULL && successor_queue != removed_queue;
  out[5] = deregistered;
  out[6] = ended_thread_queue != NULL;
  out[7] = ended_tid > 1 && os_thread_gone(ended_tid);
  out[8] = vm_thread_tid > 1;
  return 9;
}

/* ASGST_Capabilities ----------------------------------------------------------------- */

static int capabilities(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_Capabilities() & ASGST_REGISTER_QUEUE;
  return 1;
}

static int unattached_capabilities(int* out) {
  out[0] = ASGST_Capabilities();
  return 1;
}

static int capabilities_unattached(JNIEnv* env, jclass cls, int* out) {
  int own = ASGST_Capabilities();
  (void)env; (void)cls;
  on_unattached_thread(unattached_capabilities, out);
  out[0] = out[0] == own;
  return 1;
}

/* ASGST_Version ---------------------------------------------------------------------- */

static int version(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_Version() == ASGST_VERSION;
  return 1;
}

static int unattached_version(int* out) {
  out[0] = ASGST_Version();
  return 1;
}

static int version_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  on_unattached_thread(unattached_version, out);
  out[0] = out[0] == ASGST_VERSION;
  return 1;
}

/* ASGST_RunWithIterator ---------------------------------------------------------------- */

static int run_null_fun(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_RunWithIterator(NULL, 0, NULL, NULL);
  return 1;
}

static int unattached_run_null_fun(int* out) {
  out[0] = ASGST_RunWithIterator(NULL, 0, NULL, NULL);
  return 1;
}

static int run_null_fun_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_run_null_fun, out);
}

static int unattached_run(int* out) {
  reset_walk(&walk_a);
  out[0] = ASGST_RunWithIterator(NULL, 0, collect, &walk_a);
  out[1] = walk_a.calls;
  return 2;
}

static int run_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_run, out);
}

/* The kind of a walk with options, and whether it found the frames a walk without them finds. */
static int run_with_options(int32_t options, int* out) {
  int plain, odd;
  reset_walk(&walk_a);
  reset_walk(&walk_b);
  plain = ASGST_RunWithIterator(NULL, 0, collect, &walk_a);
  odd = ASGST_RunWithIterator(NULL, options, collect, &walk_b);
  out[0] = odd;
  out[1] = plain == odd && same_frames(&walk_a, &walk_b);
  return 2;
}

static int run_unknown_option(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return run_with_options(UNKNOWN_OPTION, out);
}

static int run_sign_bit(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return run_with_options(INT32_MIN, out);
}

static int run_zeroed_context(JNIEnv* env, jclass cls, int* out) {
  ucontext_t context;
  int plain, zeroed;
  (void)env; (void)cls;
  memset(&context, 0, sizeof(context));
  reset_walk(&walk_a);
  reset_walk(&walk_b);
  plain = ASGST_RunWithIterator(NULL, 0, collect, &walk_a);
  zeroed = ASGST_RunWithIterator(&context, 0, collect, &walk_b);
  out[0] = zeroed;
  out[1] = plain == zeroed && same_frames(&walk_a, &walk_b);
  return 2;
}

/* ASGST_RunWithIteratorFromFrame ----------------------------------------------------------- */

static int from_frame_null_fun(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_RunWithIteratorFromFrame(NULL, NULL, NULL, 0, NULL, NULL);
  return 1;
}

static int from_frame_nulls(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  reset_walk(&walk_a);
  out[0] = ASGST_RunWithIteratorFromFrame(NULL, NULL, NULL, 0, collect, &walk_a);
  out[1] = walk_a.count > 0 ? walk_a.frames[0].type : -1000;
  return 2;
}

static int from_frame_garbage(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  reset_walk(&walk_a);
  out[0] = ASGST_RunWithIteratorFromFrame((void*)GARBAGE_LOW, (void*)(uintptr_t)0x10, (void*)GARBAGE_ODD,
                                          ASGST_INCLUDE_NON_JAVA_FRAMES, collect, &walk_a);
  out[1] = walk_a.count > 0 ? walk_a.frames[0].type : -1000;
  return 2;
}

static int from_frame_own_sp(JNIEnv* env, jclass cls, int* out) {
  volatile intptr_t marker = 0;  /* its address: an sp in this thread's stack, below the native method */
  (void)env; (void)cls;
  reset_walk(&walk_a);
  out[0] = ASGST_RunWithIteratorFromFrame((void*)&marker, (void*)(uintptr_t)0x10, (void*)GARBAGE_ODD,
                                          ASGST_INCLUDE_NON_JAVA_FRAMES, collect, &walk_a);
  out[1] = walk_a.count > 0 ? walk_a.frames[0].type : -1000;
  out[2] = walk_a.count > 1 ? walk_a.frames[1].type : -1000;
  out[3] = walk_a.count > 0 && walk_a.frames[0].pc == (void*)GARBAGE_ODD;
  return 4;
}

static int unattached_from_frame(int* out) {
  int marker = 0;
  reset_walk(&walk_a);
  out[0] = ASGST_RunWithIteratorFromFrame((void*)&marker, __builtin_frame_address(0), NULL, 0, collect, &walk_a);
  out[1] = walk_a.calls;
  return 2;
}

static int from_frame_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_from_frame, out);
}

/* ASGST_RunWithIteratorOfThread -------------------------------------------------------------- */

static int of_thread(jlong tid, int32_t options, int* out) {
  reset_walk(&walk_a);
  out[0] = ASGST_RunWithIteratorOfThread(tid, NULL, options, collect, &walk_a);
  out[1] = walk_a.calls;
  return 2;
}

static int of_thread_null_fun_own(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_RunWithIteratorOfThread(own_tid(), NULL, 0, NULL, NULL);
  return 1;
}

static int of_thread_null_fun_none(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_RunWithIteratorOfThread((jlong)0x7ffffff0, NULL, 0, NULL, NULL);
  return 1;
}

static int of_thread_0(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return of_thread(0, 0, out);
}

static int of_thread_1(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return of_thread(1, 0, out);
}

static int of_thread_minus_1(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return of_thread(-1, 0, out);
}

static int of_thread_huge(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return of_thread((jlong)0x7ffffff0, 0, out);  /* above any pid_max */
}

static int of_thread_min(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return of_thread(INT64_MIN, 0, out);
}

static int of_thread_ended(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  if (ended_tid <= 1) {
    out[0] = -1000;
    return 1;
  }
  return of_thread(ended_tid, 0, out);
}

static int unattached_of_own_thread(int* out) {
  return of_thread(own_tid(), 0, out);
}

static int unattached_of_own_thread_non_java(int* out) {
  return of_thread(own_tid(), ASGST_INCLUDE_NON_JAVA_THREADS, out);
}

static int of_thread_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_of_own_thread, out);
}

static int of_thread_unattached_non_java(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_of_own_thread_non_java, out);
}

static int of_vm_thread(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  if (vm_thread_tid <= 1) {
    out[0] = -1000;
    return 1;
  }
  return of_thread(vm_thread_tid, 0, out);
}

static int of_vm_thread_non_java(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  if (vm_thread_tid <= 1) {
    out[0] = -1000;
    return 1;
  }
  return of_thread(vm_thread_tid, ASGST_INCLUDE_NON_JAVA_THREADS, out);
}

static int of_compiler_thread(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  if (compiler_thread_tid <= 1) {
    out[0] = -1000;
    return 1;
  }
  return of_thread(compiler_thread_tid, 0, out);
}

static int of_compiler_thread_non_java(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  if (compiler_thread_tid <= 1) {
    out[0] = -1000;
    return 1;
  }
  return of_thread(compiler_thread_tid, ASGST_INCLUDE_NON_JAVA_THREADS, out);
}

/* ASGST_NextFrame, ASGST_RewindIterator, ASGST_State ------------------------------------------ */

static int next_null(JNIEnv* env, jclass cls, int* out) {
  ASGST_Frame frame;
  (void)env; (void)cls;
  out[0] = ASGST_NextFrame(NULL, &frame);
  return 1;
}

static int next_null_null(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_NextFrame(NULL, NULL);
  return 1;
}

static int next_frame_null(JNIEnv* env, jclass cls, int* out) {
  int kind;
  (void)env; (void)cls;
  out[0] = out[1] = out[2] = -1000;
  kind = ASGST_RunWithIterator(NULL, 0, null_frame_handler, out);
  if (kind <= 0) {
    out[0] = kind;
    return 1;
  }
  return 3;
}

static int next_zeroed(JNIEnv* env, jclass cls, int* out) {
  intptr_t fake[ITERATOR_WORDS];  /* zeroed stack memory posing as an iterator */
  ASGST_Frame frame;
  (void)env; (void)cls;
  memset(fake, 0, sizeof(fake));
  out[0] = ASGST_NextFrame((ASGST_Iterator*)fake, &frame);
  return 1;
}

static int next_after_end(JNIEnv* env, jclass cls, int* out) {
  int kind;
  (void)env; (void)cls;
  out[0] = out[1] = out[2] = out[3] = -1000;
  kind = ASGST_RunWithIterator(NULL, 0, after_end_handler, out);
  if (kind <= 0) {
    out[0] = kind;
    return 1;
  }
  return 4;
}

static int rewind_null(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  ASGST_RewindIterator(NULL);
  out[0] = 0;  /* it returned */
  return 1;
}

static int rewind_zeroed(JNIEnv* env, jclass cls, int* out) {
  intptr_t fake[ITERATOR_WORDS];
  (void)env; (void)cls;
  memset(fake, 0, sizeof(fake));
  ASGST_RewindIterator((ASGST_Iterator*)fake);
  out[0] = ASGST_State((ASGST_Iterator*)fake);
  return 1;
}

static int rewind_after_end(JNIEnv* env, jclass cls, int* out) {
  int kind;
  (void)env; (void)cls;
  out[0] = out[1] = -1000;
  kind = ASGST_RunWithIterator(NULL, 0, rewind_handler, out);
  if (kind <= 0) {
    out[0] = kind;
    return 1;
  }
  return 2;
}

static int state_null(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_State(NULL);
  return 1;
}

static int state_zeroed(JNIEnv* env, jclass cls, int* out) {
  intptr_t fake[ITERATOR_WORDS];
  (void)env; (void)cls;
  memset(fake, 0, sizeof(fake));
  out[0] = ASGST_State((ASGST_Iterator*)fake);
  return 1;
}

/* ASGST_ThreadState ---------------------------------------------------------------------------- */

static int unattached_thread_state(int* out) {
  out[0] = ASGST_ThreadState();
  return 1;
}

static int thread_state_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_thread_state, out);
}

/* AsyncGetStackTrace --------------------------------------------------------------------------- */

static ASGST_CallFrame call_frames_a[MAX_FRAMES];
static ASGST_CallFrame call_frames_b[MAX_FRAMES];

static void init_trace(ASGST_CallTrace* trace, JNIEnv* env_id, ASGST_CallFrame* frames) {
  memset(trace, 0, sizeof(*trace));
  trace->env_id = env_id;
  trace->frames = frames;
  trace->num_frames = 12345;  /* neither a count nor an error: shows that it was written */
}

static int agst_null_trace(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  AsyncGetStackTrace(NULL, 8, NULL, 0);
  out[0] = 0;  /* it returned */
  return 1;
}

static int unattached_agst_null_trace(int* out) {
  AsyncGetStackTrace(NULL, 8, NULL, 0);
  out[0] = 0;
  return 1;
}

static int agst_null_trace_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_agst_null_trace, out);
}

static int agst_num_frames(JNIEnv* env_id, ASGST_CallFrame* frames, jint depth, uint32_t options) {
  ASGST_CallTrace trace;
  init_trace(&trace, env_id, frames);
  AsyncGetStackTrace(&trace, depth, NULL, options);
  return trace.num_frames;
}

static int agst_depth_minus_1(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = agst_num_frames(NULL, call_frames_a, -1, 0);
  return 1;
}

static int agst_depth_min(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = agst_num_frames(NULL, call_frames_a, INT_MIN, 0);
  return 1;
}

static int agst_frames_null(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = agst_num_frames(NULL, NULL, 8, 0);
  return 1;
}

static int agst_depth_0_frames_null(JNIEnv* env, jclass cls, int* out) {
  ASGST_CallTrace trace;
  (void)env; (void)cls;
  init_trace(&trace, NULL, NULL);
  AsyncGetStackTrace(&trace, 0, NULL, 0);
  out[0] = trace.num_frames;
  out[1] = trace.kind;
  return 2;
}

static int agst_env_garbage(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = agst_num_frames((JNIEnv*)GARBAGE_ODD, call_frames_a, 64, 0);
  return 1;
}

static int agst_env_zeroed(JNIEnv* env, jclass cls, int* out) {
  intptr_t fake[512];
  (void)env; (void)cls;
  memset(fake, 0, sizeof(fake));
  out[0] = agst_num_frames((JNIEnv*)&fake[256], call_frames_a, 64, 0);
  return 1;
}

static int agst_env_ended(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  if (ended_env == NULL) {
    out[0] = -1000;
    return 1;
  }
  out[0] = agst_num_frames(ended_env, call_frames_a, 64, 0);
  return 1;
}

static int agst_env_garbage_same_thread(JNIEnv* env, jclass cls, int* out) {
  ASGST_CallTrace trace;
  (void)cls;
  init_trace(&trace, (JNIEnv*)GARBAGE_ODD, call_frames_a);
  AsyncGetStackTrace(&trace, 64, NULL, ASGST_WALK_SAME_THREAD);
  out[0] = trace.num_frames > 0 ? 1 : trace.num_frames;
  out[1] = trace.env_id == env;
  return 2;
}

static int unattached_agst(int* out) {
  out[0] = agst_num_frames(NULL, call_frames_a, 64, 0);
  return 1;
}

static int agst_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_agst, out);
}

static int agst_unknown_option(JNIEnv* env, jclass cls, int* out) {
  ASGST_CallTrace plain, odd;
  int i, same;
  (void)env; (void)cls;
  init_trace(&plain, NULL, call_frames_a);
  init_trace(&odd, NULL, call_frames_b);
  AsyncGetStackTrace(&plain, MAX_FRAMES, NULL, 0);
  AsyncGetStackTrace(&odd, MAX_FRAMES, NULL, UNKNOWN_OPTION);
  same = plain.num_frames > 0 && plain.num_frames == odd.num_frames;
  for (i = 0; same && i < plain.num_frames; i++) {
    same = call_frames_a[i].type == call_frames_b[i].type &&
           call_frames_a[i].java_frame.method == call_frames_b[i].java_frame.method &&
           call_frames_a[i].java_frame.bci == call_frames_b[i].java_frame.bci;
  }
  out[0] = odd.kind;
  out[1] = same;
  return 2;
}

static int agst_unknown_kind(JNIEnv* env, jclass cls, int* out) {
  ASGST_CallTrace trace;
  (void)env; (void)cls;
  init_trace(&trace, NULL, call_frames_a);
  trace.kind = 0x40;  /* no trace kind has this bit */
  AsyncGetStackTrace(&trace, 64, NULL, 0);
  out[0] = trace.num_frames;
  out[1] = trace.kind;
  return 2;
}

static int agst_unknown_state(JNIEnv* env, jclass cls, int* out) {
  ASGST_CallTrace trace;
  (void)env; (void)cls;
  init_trace(&trace, NULL, call_frames_a);
  trace.state = 0x40000000;  /* JVMTI_THREAD_STATE_VENDOR_3, which ASGST never reports */
  AsyncGetStackTrace(&trace, 64, NULL, 0);
  out[0] = trace.num_frames;
  out[1] = trace.state == ASGST_ThreadState();
  return 2;
}

/* ASGST_GetMethodInfo, ASGST_GetClassInfo and the handle table --------------------------------- */

/* What GetMethodInfo stores for method, with 64-byte buffers and every field preset. */
static int method_info_summary(ASGST_Method method, int* out) {
  char name[64], signature[64], generic[64];
  ASGST_MethodInfo info;
  memset(name, 'x', sizeof(name));
  memset(signature, 'x', sizeof(signature));
  memset(generic, 'x', sizeof(generic));
  info.klass = (ASGST_Class)(uintptr_t)0x10;
  info.method_name = name;
  info.method_name_length = (jint)sizeof(name);
  info.signature = signature;
  info.signature_length = (jint)sizeof(signature);
  info.generic_signature = generic;
  info.generic_signature_length = (jint)sizeof(generic);
  info.modifiers = 0x7777;
  info.idnum = 777;
  info.class_idnum = 777;
  ASGST_GetMethodInfo(method, &info);
  out[0] = info.klass != NULL;
  out[1] = info.method_name != NULL;
  out[2] = info.method_name_length;
  out[3] = info.signature != NULL;
  out[4] = info.signature_length;
  out[5] = info.generic_signature != NULL;
  out[6] = info.generic_signature_length;
  out[7] = info.modifiers;
  out[8] = info.idnum;
  out[9] = clamp_id(info.class_idnum);
  return 10;
}

static int class_info_summary(ASGST_Class klass, int* out) {
  char name[64], generic[64];
  ASGST_ClassInfo info;
  memset(name, 'x', sizeof(name));
  memset(generic, 'x', sizeof(generic));
  info.class_name = name;
  info.class_name_length = (jint)sizeof(name);
  info.generic_class_name = generic;
  info.generic_class_name_length = (jint)sizeof(generic);
  info.modifiers = 0x7777;
  info.idnum = 777;
  ASGST_GetClassInfo(klass, &info);
  out[0] = info.class_name != NULL;
  out[1] = info.class_name_length;
  out[2] = info.generic_class_name != NULL;
  out[3] = info.generic_class_name_length;
  out[4] = info.modifiers;
  out[5] = clamp_id(info.idnum);
  return 6;
}

/* The bad handles of the handle table; the last is a handle of the other kind. */
static uintptr_t bad_handle(int handle, void* zeroed, uintptr_t other_kind) {
  switch (handle) {
    case 0: return 0;
    case 1: return GARBAGE_LOW;
    case 2: return GARBAGE_ODD;
    case 3: return GARBAGE_HIGH;
    case 4: return (uintptr_t)zeroed;
    default: return other_kind;
  }
}

static jintArray to_array(JNIEnv* env, const int* values, int count) {
  jint copy[MAX_OUT];
  jintArray array;
  int i;
  for (i = 0; i < count && i < MAX_OUT; i++) {
    copy[i] = (jint)values[i];
  }
  array = (*env)->NewIntArray(env, count);
  if (array != NULL) {
    (*env)->SetIntArrayRegion(env, array, 0, count, copy);
  }
  return array;
}

/*
 * function: 0 GetMethodInfo, 1 GetMethodIdNum, 2 GetMethodLineNumberTable,
 * 3 MethodToJMethodID (with method handles); 4 GetClassInfo, 5 GetClassIdNum,
 * 6 ClassToJClass (with class handles). handle: 0 NULL, 1 0x8, 2 0x12345,
 * 3 -8, 4 a zeroed buffer, 5 a valid handle of the other kind.
 */
JNIEXPORT jintArray JNICALL
Java_AsgstBadArguments_handleCase(JNIEnv* env, jclass cls, jint function, jint handle) {
  intptr_t zeroed[64];
  ASGST_MethodLineNumberEntry entries[4];
  int out[MAX_OUT];
  int count = 1;
  (void)cls;
  memset(zeroed, 0, sizeof(zeroed));
  memset(out, 0, sizeof(out));
  if (function <= 3) {
    ASGST_Method method = (ASGST_Method)bad_handle(handle, zeroed, (uintptr_t)object_class);
    switch (function) {
      case 0: count = method_info_summary(method, out); break;
      case 1: out[0] = ASGST_GetMethodIdNum(method); break;
      case 2: out[0] = ASGST_GetMethodLineNumberTable(method, entries, 4); break;
      default: out[0] = ASGST_MethodToJMethodID(method) != NULL; break;
    }
  } else {
    ASGST_Class klass = (ASGST_Class)bad_handle(handle, zeroed, (uintptr_t)hash_code);
    switch (function) {
      case 4: count = class_info_summary(klass, out); break;
      case 5: out[0] = clamp_id(ASGST_GetClassIdNum(klass)); break;
      default: out[0] = ASGST_ClassToJClass(klass) != NULL; break;
    }
  }
  return to_array(env, out, count);
}

static int method_info_null_info(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  ASGST_GetMethodInfo(hash_code, NULL);
  out[0] = 0;  /* it returned */
  return 1;
}

static int method_info_null_info_garbage(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  ASGST_GetMethodInfo((ASGST_Method)GARBAGE_ODD, NULL);
  out[0] = 0;
  return 1;
}

/* {buffer untouched, method_name still non-null, method_name_length} for a buffer of size bytes. */
static int method_name_with_size(jint size, int* out) {
  char buffer[16];
  ASGST_MethodInfo info;
  size_t i;
  int untouched = 1;
  memset(buffer, 'x', sizeof(buffer));
  memset(&info, 0, sizeof(info));
  info.method_name = buffer;
  info.method_name_length = size;
  ASGST_GetMethodInfo(hash_code, &info);
  for (i = 0; i < sizeof(buffer); i++) {
    if (buffer[i] != 'x') {
      untouched = 0;
    }
  }
  out[0] = untouched;
  out[1] = info.method_name != NULL;
  out[2] = info.method_name_length;
  return 3;
}

static int method_name_size_0(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return method_name_with_size(0, out);
}

static int method_name_size_minus_1(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return method_name_with_size(-1, out);
}

static int method_name_size_min(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return method_name_with_size(INT_MIN, out);
}

static int method_name_size_1(JNIEnv* env, jclass cls, int* out) {
  char buffer[16];
  ASGST_MethodInfo info;
  (void)env; (void)cls;
  memset(buffer, 'x', sizeof(buffer));
  memset(&info, 0, sizeof(info));
  info.method_name = buffer;
  info.method_name_length = 1;
  ASGST_GetMethodInfo(hash_code, &info);
  out[0] = buffer[0] == '\0' && buffer[1] == 'x';
  out[1] = info.method_name_length;
  return 2;
}

static int method_name_null(JNIEnv* env, jclass cls, int* out) {
  ASGST_MethodInfo info;
  (void)env; (void)cls;
  memset(&info, 0, sizeof(info));
  info.method_name = NULL;
  info.method_name_length = 64;
  ASGST_GetMethodInfo(hash_code, &info);
  out[0] = info.method_name == NULL;
  out[1] = info.method_name_length;
  return 2;
}

static int method_no_generic(JNIEnv* env, jclass cls, int* out) {
  char generic[16];
  ASGST_MethodInfo info;
  (void)env; (void)cls;
  memset(generic, 'x', sizeof(generic));
  memset(&info, 0, sizeof(info));
  info.generic_signature = generic;
  info.generic_signature_length = (jint)sizeof(generic);
  ASGST_GetMethodInfo(hash_code, &info);
  out[0] = info.generic_signature == NULL;
  out[1] = info.generic_signature_length;
  return 2;
}

static int class_info_null_info(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  ASGST_GetClassInfo(object_class, NULL);
  out[0] = 0;
  return 1;
}

static int class_info_null_info_garbage(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  ASGST_GetClassInfo((ASGST_Class)GARBAGE_LOW, NULL);
  out[0] = 0;
  return 1;
}

static int class_name_with_size(jint size, int* out) {
  char buffer[32];
  ASGST_ClassInfo info;
  size_t i;
  int untouched = 1;
  memset(buffer, 'x', sizeof(buffer));
  memset(&info, 0, sizeof(info));
  info.class_name = buffer;
  info.class_name_length = size;
  ASGST_GetClassInfo(object_class, &info);
  for (i = 0; i < sizeof(buffer); i++) {
    if (buffer[i] != 'x') {
      untouched = 0;
    }
  }
  out[0] = untouched;
  out[1] = info.class_name != NULL;
  out[2] = info.class_name_length;
  return 3;
}

static int class_name_size_0(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return class_name_with_size(0, out);
}

static int class_name_size_minus_1(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return class_name_with_size(-1, out);
}

static int class_name_null(JNIEnv* env, jclass cls, int* out) {
  ASGST_ClassInfo info;
  (void)env; (void)cls;
  memset(&info, 0, sizeof(info));
  info.class_name = NULL;
  info.class_name_length = 64;
  ASGST_GetClassInfo(object_class, &info);
  out[0] = info.class_name == NULL;
  out[1] = info.class_name_length;
  return 2;
}

/* ASGST_GetMethodLineNumberTable ---------------------------------------------------------------- */

static int lines_garbage_no_entries(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_GetMethodLineNumberTable((ASGST_Method)GARBAGE_ODD, NULL, 0);
  return 1;
}

static int lines_null_entries(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_GetMethodLineNumberTable(line_table_target, NULL, 4);
  return 1;
}

static int lines_with_length(int length, int* out) {
  ASGST_MethodLineNumberEntry entries[4];
  memset(entries, 0, sizeof(entries));
  out[0] = ASGST_GetMethodLineNumberTable(line_table_target, entries, length);
  return 1;
}

static int lines_length_0(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return lines_with_length(0, out);
}

static int lines_length_minus_1(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return lines_with_length(-1, out);
}

static int lines_length_min(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return lines_with_length(INT_MIN, out);
}

static int lines_length_1(JNIEnv* env, jclass cls, int* out) {
  ASGST_MethodLineNumberEntry entries[4];
  (void)env; (void)cls;
  memset(entries, 0, sizeof(entries));
  entries[1].start_bci = -77;
  entries[1].line_number = -77;
  out[0] = ASGST_GetMethodLineNumberTable(line_table_target, entries, 1);
  out[1] = entries[1].start_bci == -77 && entries[1].line_number == -77;
  return 2;
}

static int lines_native_method(JNIEnv* env, jclass cls, int* out) {
  ASGST_MethodLineNumberEntry entries[4];
  (void)env; (void)cls;
  out[0] = ASGST_GetMethodLineNumberTable(hash_code, entries, 4);
  return 1;
}

/* The conversions ------------------------------------------------------------------------------- */

static int unattached_method_to_id(int* out) {
  out[0] = ASGST_MethodToJMethodID(hash_code) != NULL;
  return 1;
}

static int method_to_id_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_method_to_id, out);
}

static int id_to_method_null(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_JMethodIDToMethod(NULL) != NULL;
  return 1;
}

static int id_to_method_zeroed_word(JNIEnv* env, jclass cls, int* out) {
  void* volatile word = NULL;  /* as a jmethodID slot whose method is gone */
  (void)env; (void)cls;
  out[0] = ASGST_JMethodIDToMethod((jmethodID)&word) != NULL;
  return 1;
}

static int unattached_id_to_method(int* out) {
  out[0] = ASGST_JMethodIDToMethod(hash_code_id) != NULL;
  return 1;
}

static int id_to_method_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_id_to_method, out);
}

/* Isolated: a VM that crashes here crashes only its own child VM. */
static int id_to_method_garbage(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_JMethodIDToMethod((jmethodID)GARBAGE_ODD) != NULL;
  return 1;
}

static int unattached_class_to_jclass(int* out) {
  out[0] = ASGST_ClassToJClass(object_class) != NULL;
  return 1;
}

static int class_to_jclass_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_class_to_jclass, out);
}

static int jclass_to_class_null(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_JClassToClass(NULL) != NULL;
  return 1;
}

static int jclass_to_class_int(JNIEnv* env, jclass cls, int* out) {
  jclass integer = (*env)->FindClass(env, "java/lang/Integer");
  jfieldID type = NULL;
  jobject int_class = NULL;  /* Integer.TYPE, the mirror of int */
  (void)cls;
  if (integer != NULL) {
    type = (*env)->GetStaticFieldID(env, integer, "TYPE", "Ljava/lang/Class;");
  }
  if (type != NULL) {
    int_class = (*env)->GetStaticObjectField(env, integer, type);
  }
  if (int_class == NULL) {
    out[0] = -1000;
    return 1;
  }
  out[0] = ASGST_JClassToClass((jclass)int_class) != NULL;
  return 1;
}

static int jclass_to_class_named(JNIEnv* env, const char* name, int* out) {
  jclass klass = (*env)->FindClass(env, name);
  if (klass == NULL) {
    out[0] = -1000;
    return 1;
  }
  out[0] = ASGST_JClassToClass(klass) != NULL;
  return 1;
}

static int jclass_to_class_int_array(JNIEnv* env, jclass cls, int* out) {
  (void)cls;
  return jclass_to_class_named(env, "[I", out);
}

static int jclass_to_class_object_array(JNIEnv* env, jclass cls, int* out) {
  (void)cls;
  return jclass_to_class_named(env, "[Ljava/lang/String;", out);
}

static int unattached_jclass_to_class(int* out) {
  out[0] = ASGST_JClassToClass(object_class_ref) != NULL;
  return 1;
}

static int jclass_to_class_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  if (object_class_ref == NULL) {
    out[0] = -1000;
    return 1;
  }
  return on_unattached_thread(unattached_jclass_to_class, out);
}

/*
 * Isolated. A jobject that is no java.lang.Class, passed as a jclass (in C the
 * two are one type): a long[] whose words are all a pointer-sized value that
 * maps nothing, so that a read of the mirror's klass field from it finds a
 * garbage Klass* rather than null, whatever that field's offset.
 */
static int jclass_to_class_long_array(JNIEnv* env, jclass cls, int* out) {
  jlong words[64];
  jlongArray array = (*env)->NewLongArray(env, 64);
  int i;
  (void)cls;
  if (array == NULL) {
    out[0] = -1000;
    return 1;
  }
  for (i = 0; i < 64; i++) {
    words[i] = (jlong)0x0000dead0000bee8LL;
  }
  (*env)->SetLongArrayRegion(env, array, 0, 64, words);
  out[0] = ASGST_JClassToClass((jclass)array) != NULL;
  return 1;
}

/* Class-unload handlers --------------------------------------------------------------------------- */

static int unload_null_handler(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  ASGST_RegisterClassUnloadHandler(NULL, (void*)(intptr_t)7);
  out[0] = ASGST_DeregisterClassUnloadHandler(NULL, (void*)(intptr_t)7);
  return 1;
}

static int unload_65th(JNIEnv* env, jclass cls, int* out) {
  int i, found = 0;
  (void)env; (void)cls;
  for (i = 0; i < 64; i++) {
    ASGST_RegisterClassUnloadHandler(unload_handler, (void*)(intptr_t)(1000 + i));
  }
  ASGST_RegisterClassUnloadHandler(unload_handler, (void*)(intptr_t)2000);  /* the 65th */
  for (i = 0; i < 64; i++) {
    found += ASGST_DeregisterClassUnloadHandler(unload_handler, (void*)(intptr_t)(1000 + i)) ? 1 : 0;
  }
  out[0] = found;
  out[1] = ASGST_DeregisterClassUnloadHandler(unload_handler, (void*)(intptr_t)2000);
  /* With the 64 gone there is room again. */
  ASGST_RegisterClassUnloadHandler(unload_handler, (void*)(intptr_t)3000);
  out[2] = ASGST_DeregisterClassUnloadHandler(unload_handler, (void*)(intptr_t)3000);
  return 3;
}

static int unload_twice(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  ASGST_RegisterClassUnloadHandler(unload_handler, (void*)(intptr_t)42);
  ASGST_RegisterClassUnloadHandler(unload_handler, (void*)(intptr_t)42);
  out[0] = ASGST_DeregisterClassUnloadHandler(unload_handler, (void*)(intptr_t)42);
  out[1] = ASGST_DeregisterClassUnloadHandler(unload_handler, (void*)(intptr_t)42);
  out[2] = ASGST_DeregisterClassUnloadHandler(unload_handler, (void*)(intptr_t)42);
  return 3;
}

static int deregister_unload_never(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_DeregisterClassUnloadHandler(other_unload_handler, (void*)(intptr_t)43);
  return 1;
}

static int deregister_unload_null(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = ASGST_DeregisterClassUnloadHandler(NULL, NULL);
  return 1;
}

static int deregister_unload_wrong_arg(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  ASGST_RegisterClassUnloadHandler(unload_handler, (void*)(intptr_t)44);
  out[0] = ASGST_DeregisterClassUnloadHandler(unload_handler, (void*)(intptr_t)45);
  out[1] = ASGST_DeregisterClassUnloadHandler(unload_handler, (void*)(intptr_t)44);
  return 2;
}

/* ASGST_RegisterQueue --------------------------------------------------------------------------------- */

/* Whether a queue was registered; one that was is removed again. */
static int registered(ASGST_Queue* queue, int* out) {
  out[0] = queue != NULL;
  if (queue != NULL) {
    ASGST_DeregisterQueue(queue);
  }
  return 1;
}

static int register_size_0(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return registered(ASGST_RegisterQueue(NULL, 0, 0, on_element, (void*)(intptr_t)15), out);
}

static int register_size_minus_1(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return registered(ASGST_RegisterQueue(NULL, -1, 0, on_element, (void*)(intptr_t)15), out);
}

static int register_size_min(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return registered(ASGST_RegisterQueue(NULL, INT_MIN, 0, on_element, (void*)(intptr_t)15), out);
}

static int register_null_fun(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return registered(ASGST_RegisterQueue(NULL, 4, 0, NULL, (void*)(intptr_t)15), out);
}

static int register_env_garbage(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return registered(ASGST_RegisterQueue((JNIEnv*)GARBAGE_ODD, 4, 0, on_element, (void*)(intptr_t)15), out);
}

static int register_env_zeroed(JNIEnv* env, jclass cls, int* out) {
  intptr_t fake[512];
  (void)env; (void)cls;
  memset(fake, 0, sizeof(fake));
  return registered(ASGST_RegisterQueue((JNIEnv*)&fake[256], 4, 0, on_element, (void*)(intptr_t)15), out);
}

static int register_env_ended(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  if (ended_env == NULL) {
    out[0] = -1000;
    return 1;
  }
  return registered(ASGST_RegisterQueue(ended_env, 4, 0, on_element, (void*)(intptr_t)15), out);
}

static int unattached_register(int* out) {
  ASGST_Queue* queue = ASGST_RegisterQueue(NULL, 4, 0, on_element, (void*)(intptr_t)15);
  out[0] = queue != NULL;  /* not deregistered here: a queue is a bug, and whose it is unclear */
  return 1;
}

static int register_unattached(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  return on_unattached_thread(unattached_register, out);
}

static int register_unknown_option(JNIEnv* env, jclass cls, int* out) {
  ASGST_Queue* queue;
  (void)env; (void)cls;
  reset_queue_counters();
  queue = ASGST_RegisterQueue(NULL, 4, UNKNOWN_OPTION, on_element, (void*)(intptr_t)5);
  if (queue == NULL) {
    out[0] = 0;
    return 1;
  }
  out[0] = 1;
  out[1] = ASGST_Enqueue(queue, NULL, (void*)(intptr_t)1);
  ASGST_DeregisterQueue(queue);  /* on its own thread: processes the element now */
  out[2] = element_calls[5];
  return 3;
}

/* Isolated. */
static int register_size_max(JNIEnv* env, jclass cls, int* out) {
  ASGST_Queue* queue;
  int enqueued;
  (void)env; (void)cls;
  queue = ASGST_RegisterQueue(NULL, INT_MAX, 0, on_element, (void*)(intptr_t)15);
  if (queue == NULL) {
    out[0] = 1;  /* refused */
    return 1;
  }
  enqueued = ASGST_Enqueue(queue, NULL, (void*)(intptr_t)1);
  out[0] = ASGST_DeregisterQueue(queue) && enqueued == ASGST_JAVA_TRACE;  /* or a queue that works */
  return 1;
}

/* The other queue functions on live queues ---------------------------------------------------------- */

static int deregister_twice(JNIEnv* env, jclass cls, int* out) {
  ASGST_Queue* queue = ASGST_RegisterQueue(NULL, 4, 0, on_element, (void*)(intptr_t)15);
  (void)env; (void)cls;
  out[0] = ASGST_DeregisterQueue(queue);
  out[1] = ASGST_DeregisterQueue(queue);
  return 2;
}

static int enqueue_full(JNIEnv* env, jclass cls, int* out) {
  ASGST_Queue* queue = ASGST_RegisterQueue(NULL, 1, 0, on_element, (void*)(intptr_t)6);
  (void)env; (void)cls;
  if (queue == NULL) {
    out[0] = -1000;
    return 1;
  }
  out[0] = ASGST_Enqueue(queue, NULL, (void*)(intptr_t)1);
  out[1] = ASGST_Enqueue(queue, NULL, (void*)(intptr_t)2);
  ASGST_DeregisterQueue(queue);
  return 2;
}

static int element_out_of_range(JNIEnv* env, jclass cls, int* out) {
  ASGST_Queue* queue = ASGST_RegisterQueue(NULL, 4, 0, on_element, (void*)(intptr_t)7);
  ASGST_QueueElement* oldest;
  ASGST_QueueElement* youngest;
  (void)env; (void)cls;
  if (queue == NULL) {
    out[0] = -1000;
    return 1;
  }
  ASGST_Enqueue(queue, NULL, (void*)(intptr_t)1);
  ASGST_Enqueue(queue, NULL, (void*)(intptr_t)2);
  oldest = ASGST_GetQueueElement(queue, 0);
  youngest = ASGST_GetQueueElement(queue, 1);
  out[0] = ASGST_GetQueueElement(queue, 2) != NULL;
  out[1] = ASGST_GetQueueElement(queue, -3) != NULL;
  out[2] = ASGST_GetQueueElement(queue, INT_MAX) != NULL;
  out[3] = ASGST_GetQueueElement(queue, INT_MIN) != NULL;
  out[4] = oldest != NULL && ASGST_GetQueueElement(queue, -2) == oldest;
  out[5] = youngest != NULL && ASGST_GetQueueElement(queue, -1) == youngest;
  ASGST_DeregisterQueue(queue);
  return 6;
}

static int element_empty(JNIEnv* env, jclass cls, int* out) {
  ASGST_Queue* queue = ASGST_RegisterQueue(NULL, 4, 0, on_element, (void*)(intptr_t)8);
  (void)env; (void)cls;
  if (queue == NULL) {
    out[0] = -1000;
    return 1;
  }
  out[0] = ASGST_GetQueueElement(queue, 0) != NULL;
  out[1] = ASGST_GetQueueElement(queue, -1) != NULL;
  ASGST_DeregisterQueue(queue);
  return 2;
}

static int enqueuable_null_context(JNIEnv* env, jclass cls, int* out) {
  ASGST_Queue* queue = ASGST_RegisterQueue(NULL, 4, 0, on_element, (void*)(intptr_t)15);
  ASGST_QueueElement element;
  (void)env; (void)cls;
  if (queue == NULL) {
    out[0] = -1000;
    return 1;
  }
  element = ASGST_GetEnqueuableElement(queue, NULL);
  out[0] = element.pc != NULL;
  out[1] = element.arg == NULL;
  ASGST_DeregisterQueue(queue);
  return 2;
}

/* Step 1: a queue of 4 with one element, and resize requests of 0, -1 and INT_MIN. */
static int resize_bad_step_1(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  reset_queue_counters();
  stepped_queue = ASGST_RegisterQueue(NULL, 4, 0, on_element, (void*)(intptr_t)13);
  if (stepped_queue == NULL) {
    out[0] = -1000;
    return 1;
  }
  out[0] = ASGST_Enqueue(stepped_queue, NULL, (void*)(intptr_t)1);
  ASGST_ResizeQueue(stepped_queue, 0);
  ASGST_ResizeQueue(stepped_queue, -1);
  ASGST_ResizeQueue(stepped_queue, INT_MIN);
  return 1;
}

/* Step 2, after the return to Java processed the queue: its size info and element count. */
static int resize_bad_step_2(JNIEnv* env, jclass cls, int* out) {
  ASGST_QueueSizeInfo info;
  (void)env; (void)cls;
  info = ASGST_GetQueueSizeInfo(stepped_queue);
  out[0] = info.size;
  out[1] = info.capacity;
  out[2] = element_calls[13];
  ASGST_DeregisterQueue(stepped_queue);
  stepped_queue = NULL;
  return 3;
}

/* Isolated. Step 1: a queue of 4 with one element, and a resize request of INT_MAX. */
static int resize_max_step_1(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  stepped_queue = ASGST_RegisterQueue(NULL, 4, 0, on_element, (void*)(intptr_t)14);
  if (stepped_queue == NULL) {
    out[0] = -1000;
    return 1;
  }
  out[0] = ASGST_Enqueue(stepped_queue, NULL, (void*)(intptr_t)1);
  ASGST_ResizeQueue(stepped_queue, INT_MAX);
  return 1;
}

/* Step 2, after the processing that applies the resize: the queue still works. */
static int resize_max_step_2(JNIEnv* env, jclass cls, int* out) {
  ASGST_QueueSizeInfo info;
  int enqueued, removed;
  (void)env; (void)cls;
  info = ASGST_GetQueueSizeInfo(stepped_queue);
  enqueued = ASGST_Enqueue(stepped_queue, NULL, (void*)(intptr_t)2);
  removed = ASGST_DeregisterQueue(stepped_queue);
  out[0] = (info.capacity == 4 || info.capacity == INT_MAX) && enqueued == ASGST_JAVA_TRACE && removed;
  stepped_queue = NULL;
  return 1;
}

/* One element processed by DeregisterQueue (on the queue's own thread: at once). */
static ASGST_Queue* queue_with_element(intptr_t arg) {
  ASGST_Queue* queue = ASGST_RegisterQueue(NULL, 4, 0, on_element, (void*)arg);
  if (queue != NULL) {
    ASGST_Enqueue(queue, NULL, (void*)(intptr_t)1);
  }
  return queue;
}

static int start_null_handler(JNIEnv* env, jclass cls, int* out) {
  ASGST_Queue* queue;
  (void)env; (void)cls;
  reset_queue_counters();
  queue = queue_with_element(9);
  if (queue == NULL) {
    out[0] = -1000;
    return 1;
  }
  ASGST_SetOnQueueProcessingStart(queue, 0, true, on_start, NULL);
  ASGST_SetOnQueueProcessingStart(queue, 0, true, NULL, NULL);
  ASGST_DeregisterQueue(queue);
  out[0] = start_calls;
  out[1] = element_calls[9];
  return 2;
}

static int start_unknown_option(JNIEnv* env, jclass cls, int* out) {
  ASGST_Queue* queue;
  (void)env; (void)cls;
  reset_queue_counters();
  queue = queue_with_element(10);
  if (queue == NULL) {
    out[0] = -1000;
    return 1;
  }
  ASGST_SetOnQueueProcessingStart(queue, UNKNOWN_OPTION, true, on_start, NULL);
  ASGST_DeregisterQueue(queue);
  out[0] = start_calls;
  out[1] = start_with_iterator;
  out[2] = start_first_frame;
  out[3] = element_calls[10];
  return 4;
}

static int end_null_handler(JNIEnv* env, jclass cls, int* out) {
  ASGST_Queue* queue;
  (void)env; (void)cls;
  reset_queue_counters();
  queue = queue_with_element(11);
  if (queue == NULL) {
    out[0] = -1000;
    return 1;
  }
  ASGST_SetOnQueueProcessingEnd(queue, 0, true, on_end, NULL);
  ASGST_SetOnQueueProcessingEnd(queue, 0, true, NULL, NULL);
  ASGST_DeregisterQueue(queue);
  out[0] = end_calls;
  out[1] = element_calls[11];
  return 2;
}

static int end_no_iterator(JNIEnv* env, jclass cls, int* out) {
  ASGST_Queue* queue;
  (void)env; (void)cls;
  reset_queue_counters();
  queue = queue_with_element(12);
  if (queue == NULL) {
    out[0] = -1000;
    return 1;
  }
  ASGST_SetOnQueueProcessingEnd(queue, 0, false, on_end, NULL);
  ASGST_DeregisterQueue(queue);
  out[0] = end_calls;
  out[1] = end_with_iterator;
  return 2;
}

/*
 * The queue table. handle: 0 NULL; 1 0x12345 (odd, generation 0); 2 odd,
 * slot 3, a generation that was never issued; 3 odd, a slot in a chunk of the
 * queue table that was never allocated; 4 all bits set; 5 even, a zeroed
 * buffer; 6 removed by DeregisterQueue, its slot since taken by
 * successor_queue; 7 removed with the thread that ended; 8 deregistered from
 * another thread, its own thread not yet at a poll. Handles 2 and 3 follow
 * the encoding in asgstQueue.cpp (AsgstQueueTable: bit 0 set, 20 bits of
 * slot index, the slot's generation above).
 * function: 0 DeregisterQueue, 1 Enqueue, 2 GetQueueElement(0),
 * 3 GetQueueElement(-1), 4 GetEnqueuableElement (fields that are not null),
 * 5 ResizeQueue(8), 6 GetQueueSizeInfo, 7 SetOnQueueProcessingStart,
 * 8 SetOnQueueProcessingEnd.
 */
static ASGST_Queue* bad_queue(int handle, void* zeroed) {
  switch (handle) {
    case 0: return NULL;
    case 1: return (ASGST_Queue*)GARBAGE_ODD;
    case 2: return (ASGST_Queue*)(((uintptr_t)0x3ffff << 21) | ((uintptr_t)3 << 1) | 1);
    case 3: return (ASGST_Queue*)(((uintptr_t)1 << 21) | ((uintptr_t)0xfffff << 1) | 1);
    case 4: return (ASGST_Queue*)UINTPTR_MAX;
    case 5: return (ASGST_Queue*)zeroed;
    case 6: return removed_queue;
    case 7: return ended_thread_queue;
    default: return deregistered_elsewhere;
  }
}

JNIEXPORT jintArray JNICALL
Java_AsgstBadArguments_queueCase(JNIEnv* env, jclass cls, jint handle, jint function) {
  intptr_t zeroed[64];
  int out[MAX_OUT];
  int count = 1;
  ASGST_Queue* queue;
  (void)cls;
  memset(zeroed, 0, sizeof(zeroed));
  memset(out, 0, sizeof(out));
  if (handle >= 6 && bad_queue(handle, zeroed) == NULL) {
    out[0] = -1000;  /* the fixture is missing */
    return to_array(env, out, 1);
  }
  queue = bad_queue(handle, zeroed);
  switch (function) {
    case 0:
      out[0] = ASGST_DeregisterQueue(queue);
      break;
    case 1:
      out[0] = ASGST_Enqueue(queue, NULL, (void*)(intptr_t)77);
      break;
    case 2:
      out[0] = ASGST_GetQueueElement(queue, 0) != NULL;
      break;
    case 3:
      out[0] = ASGST_GetQueueElement(queue, -1) != NULL;
      break;
    case 4: {
      ASGST_QueueElement element = ASGST_GetEnqueuableElement(queue, NULL);
      out[0] = (element.pc != NULL) + (element.sp != NULL) + (element.fp != NULL) + (element.bcp != NULL) +
               (element.arg != NULL);
      break;
    }
    case 5:
      ASGST_ResizeQueue(queue, 8);
      out[0] = 0;  /* it returned */
      break;
    case 6: {
      ASGST_QueueSizeInfo info = ASGST_GetQueueSizeInfo(queue);
      out[0] = info.size;
      out[1] = info.capacity;
      out[2] = info.attempts;
      count = 3;
      break;
    }
    case 7:
      ASGST_SetOnQueueProcessingStart(queue, 0, true, on_start, (void*)(intptr_t)5);
      out[0] = 0;
      break;
    default:
      ASGST_SetOnQueueProcessingEnd(queue, 0, true, on_end, (void*)(intptr_t)6);
      out[0] = 0;
      break;
  }
  return to_array(env, out, count);
}

/*
 * After the queue table (which, through removed_queue, asked for a resize to 8
 * and set both processing handlers): enqueues through the removed handle must
 * not count as attempts of successor_queue, which took its slot.
 */
static int successor_step_1(JNIEnv* env, jclass cls, int* out) {
  int i;
  (void)env; (void)cls;
  reset_queue_counters();
  for (i = 0; i < 3; i++) {
    ASGST_Enqueue(removed_queue, NULL, (void*)(intptr_t)1);
  }
  out[0] = ASGST_GetQueueSizeInfo(successor_queue).attempts;
  out[1] = ASGST_Enqueue(successor_queue, NULL, (void*)(intptr_t)1);
  return 2;
}

/* Step 2, after the return to Java processed successor_queue's element. */
static int successor_step_2(JNIEnv* env, jclass cls, int* out) {
  (void)env; (void)cls;
  out[0] = start_calls;
  out[1] = end_calls;
  out[2] = element_calls[2];
  out[3] = ASGST_GetQueueSizeInfo(successor_queue).capacity;
  ASGST_DeregisterQueue(successor_queue);
  return 4;
}

/* A Java thread that is not halted (isolated cases) --------------------------------------------------- */

static int await_runner(void) {
  int i;
  for (i = 0; i < 1000; i++) {
    if (__atomic_load_n(&runner_ready, __ATOMIC_ACQUIRE)) {
      return 1;
    }
    sleep_millis(10);
  }
  return 0;
}

static int runner_async_get_stack_trace(JNIEnv* env, jclass cls, int* out) {
  int i, in_range = 1;
  (void)env; (void)cls;
  if (!await_runner()) {
    out[0] = -1000;
    return 1;
  }
  for (i = 0; i < RUNNER_CALLS; i++) {
    int frames = agst_num_frames(runner_env, call_frames_a, 64, ASGST_INCLUDE_NON_JAVA_FRAMES);
    if (frames < LOWEST_ERROR || frames > 64) {
      in_range = 0;
    }
  }
  out[0] = in_range;
  return 1;
}

static int runner_of_thread(JNIEnv* env, jclass cls, int* out) {
  int i, calls = 0, walks = 0, in_range = 1;
  (void)env; (void)cls;
  if (!await_runner()) {
    out[0] = -1000;
    return 1;
  }
  for (i = 0; i < RUNNER_CALLS; i++) {
    int result = ASGST_RunWithIteratorOfThread(runner_tid, NULL, ASGST_INCLUDE_NON_JAVA_FRAMES, count_frames, &calls);
    if (result > 0) {
      walks++;
      if (result != ASGST_JAVA_TRACE && result != ASGST_CPP_TRACE && result != ASGST_DEOPT_TRACE) {
        in_range = 0;
      }
    } else if (result < LOWEST_ERROR) {
      in_range = 0;
    }
  }
  out[0] = in_range && calls == walks;
  return 1;
}

/* The cases by name ------------------------------------------------------------------------------------ */

typedef struct {
  const char* name;
  CaseFunction function;
} NamedCase;

static const NamedCase named_cases[] = {
  { "fixtures: handles, queues and threads that the cases use", fixtures },

  { "Capabilities()", capabilities },
  { "Capabilities() on an unattached thread", capabilities_unattached },

  { "Version()", version },
  { "Version() on an unattached thread", version_unattached },

  { "RunWithIterator(fun=NULL)", run_null_fun },
  { "RunWithIterator(fun=NULL) on an unattached thread", run_null_fun_unattached },
  { "RunWithIterator() on an unattached thread", run_unattached },
  { "RunWithIterator(options=0x40000000)", run_unknown_option },
  { "RunWithIterator(options=INT32_MIN)", run_sign_bit },
  { "RunWithIterator(ucontext=zeroed ucontext_t)", run_zeroed_context },

  { "RunWithIteratorFromFrame(fun=NULL)", from_frame_null_fun },
  { "RunWithIteratorFromFrame(sp=fp=pc=NULL)", from_frame_nulls },
  { "RunWithIteratorFromFrame(sp=0x8, fp=0x10, pc=0x12345, C frames)", from_frame_garbage },
  { "RunWithIteratorFromFrame(sp=own stack, fp=0x10, pc=0x12345, C frames)", from_frame_own_sp },
  { "RunWithIteratorFromFrame() on an unattached thread", from_frame_unattached },

  { "RunWithIteratorOfThread(fun=NULL, os_thread_id=own)", of_thread_null_fun_own },
  { "RunWithIteratorOfThread(fun=NULL, os_thread_id=no thread)", of_thread_null_fun_none },
  { "RunWithIteratorOfThread(os_thread_id=0)", of_thread_0 },
  { "RunWithIteratorOfThread(os_thread_id=1)", of_thread_1 },
  { "RunWithIteratorOfThread(os_thread_id=-1)", of_thread_minus_1 },
  { "RunWithIteratorOfThread(os_thread_id=0x7ffffff0)", of_thread_huge },
  { "RunWithIteratorOfThread(os_thread_id=INT64_MIN)", of_thread_min },
  { "RunWithIteratorOfThread(os_thread_id=ended Java thread)", of_thread_ended },
  { "RunWithIteratorOfThread(os_thread_id=own) on an unattached thread", of_thread_unattached },
  { "RunWithIteratorOfThread(os_thread_id=own, INCLUDE_NON_JAVA_THREADS) on an unattached thread",
    of_thread_unattached_non_java },
  { "RunWithIteratorOfThread(os_thread_id=VM Thread)", of_vm_thread },
  { "RunWithIteratorOfThread(os_thread_id=VM Thread, INCLUDE_NON_JAVA_THREADS, ucontext=NULL)",
    of_vm_thread_non_java },
  { "RunWithIteratorOfThread(os_thread_id=compiler thread)", of_compiler_thread },
  { "RunWithIteratorOfThread(os_thread_id=compiler thread, INCLUDE_NON_JAVA_THREADS, ucontext=NULL)",
    of_compiler_thread_non_java },
  { "RunWithIteratorOfThread(os_thread_id=running Java thread, not halted)", runner_of_thread },

  { "NextFrame(iterator=NULL)", next_null },
  { "NextFrame(iterator=NULL, frame=NULL)", next_null_null },
  { "NextFrame(frame=NULL)", next_frame_null },
  { "NextFrame(iterator=zeroed stack buffer)", next_zeroed },
  { "NextFrame() after the end", next_after_end },
  { "RewindIterator(iterator=NULL)", rewind_null },
  { "RewindIterator(iterator=zeroed stack buffer)", rewind_zeroed },
  { "RewindIterator() after the end", rewind_after_end },
  { "State(iterator=NULL)", state_null },
  { "State(iterator=zeroed stack buffer)", state_zeroed },

  { "ThreadState() on an unattached thread", thread_state_unattached },

  { "AsyncGetStackTrace(trace=NULL)", agst_null_trace },
  { "AsyncGetStackTrace(trace=NULL) on an unattached thread", agst_null_trace_unattached },
  { "AsyncGetStackTrace(depth=-1)", agst_depth_minus_1 },
  { "AsyncGetStackTrace(depth=INT_MIN)", agst_depth_min },
  { "AsyncGetStackTrace(depth=8, frames=NULL)", agst_frames_null },
  { "AsyncGetStackTrace(depth=0, frames=NULL)", agst_depth_0_frames_null },
  { "AsyncGetStackTrace(env_id=0x12345)", agst_env_garbage },
  { "AsyncGetStackTrace(env_id=zeroed buffer)", agst_env_zeroed },
  { "AsyncGetStackTrace(env_id=ended Java thread's)", agst_env_ended },
  { "AsyncGetStackTrace(env_id=0x12345, WALK_SAME_THREAD)", agst_env_garbage_same_thread },
  { "AsyncGetStackTrace(env_id=NULL) on an unattached thread", agst_unattached },
  { "AsyncGetStackTrace(options=0x40000000)", agst_unknown_option },
  { "AsyncGetStackTrace(kind=0x40)", agst_unknown_kind },
  { "AsyncGetStackTrace(state=0x40000000)", agst_unknown_state },
  { "AsyncGetStackTrace(env_id=running Java thread, not halted)", runner_async_get_stack_trace },

  { "GetMethodInfo(info=NULL)", method_info_null_info },
  { "GetMethodInfo(method=0x12345, info=NULL)", method_info_null_info_garbage },
  { "GetMethodInfo(method_name_length=0)", method_name_size_0 },
  { "GetMethodInfo(method_name_length=-1)", method_name_size_minus_1 },
  { "GetMethodInfo(method_name_length=INT_MIN)", method_name_size_min },
  { "GetMethodInfo(method_name_length=1)", method_name_size_1 },
  { "GetMethodInfo(method_name=NULL)", method_name_null },
  { "GetMethodInfo(method without generic signature)", method_no_generic },

  { "GetClassInfo(info=NULL)", class_info_null_info },
  { "GetClassInfo(klass=0x8, info=NULL)", class_info_null_info_garbage },
  { "GetClassInfo(class_name_length=0)", class_name_size_0 },
  { "GetClassInfo(class_name_length=-1)", class_name_size_minus_1 },
  { "GetClassInfo(class_name=NULL)", class_name_null },

  { "GetMethodLineNumberTable(method=0x12345, entries=NULL, length=0)", lines_garbage_no_entries },
  { "GetMethodLineNumberTable(entries=NULL)", lines_null_entries },
  { "GetMethodLineNumberTable(length=0)", lines_length_0 },
  { "GetMethodLineNumberTable(length=-1)", lines_length_minus_1 },
  { "GetMethodLineNumberTable(length=INT_MIN)", lines_length_min },
  { "GetMethodLineNumberTable(length=1)", lines_length_1 },
  { "GetMethodLineNumberTable(native method)", lines_native_method },

  { "MethodToJMethodID() on an unattached thread", method_to_id_unattached },
  { "JMethodIDToMethod(method_id=NULL)", id_to_method_null },
  { "JMethodIDToMethod(method_id=pointer to a zeroed word)", id_to_method_zeroed_word },
  { "JMethodIDToMethod() on an unattached thread", id_to_method_unattached },
  { "JMethodIDToMethod(method_id=0x12345)", id_to_method_garbage },
  { "ClassToJClass() on an unattached thread", class_to_jclass_unattached },
  { "JClassToClass(klass=NULL)", jclass_to_class_null },
  { "JClassToClass(klass=int.class)", jclass_to_class_int },
  { "JClassToClass(klass=int[].class)", jclass_to_class_int_array },
  { "JClassToClass(klass=String[].class)", jclass_to_class_object_array },
  { "JClassToClass() on an unattached thread", jclass_to_class_unattached },
  { "JClassToClass(klass=a long[], no Class)", jclass_to_class_long_array },

  { "RegisterClassUnloadHandler(handler=NULL)", unload_null_handler },
  { "RegisterClassUnloadHandler() 65th registration", unload_65th },
  { "RegisterClassUnloadHandler() same handler and arg twice", unload_twice },
  { "DeregisterClassUnloadHandler() never registered", deregister_unload_never },
  { "DeregisterClassUnloadHandler(handler=NULL, arg=NULL)", deregister_unload_null },
  { "DeregisterClassUnloadHandler(arg=another)", deregister_unload_wrong_arg },

  { "RegisterQueue(size=0)", register_size_0 },
  { "RegisterQueue(size=-1)", register_size_minus_1 },
  { "RegisterQueue(size=INT_MIN)", register_size_min },
  { "RegisterQueue(fun=NULL)", register_null_fun },
  { "RegisterQueue(env=0x12345)", register_env_garbage },
  { "RegisterQueue(env=zeroed buffer)", register_env_zeroed },
  { "RegisterQueue(env=ended Java thread's)", register_env_ended },
  { "RegisterQueue(env=NULL) on an unattached thread", register_unattached },
  { "RegisterQueue(options=0x40000000)", register_unknown_option },
  { "RegisterQueue(size=INT_MAX)", register_size_max },

  { "DeregisterQueue() twice", deregister_twice },
  { "Enqueue() into a full queue", enqueue_full },
  { "GetQueueElement(n out of range)", element_out_of_range },
  { "GetQueueElement(n=0, -1) of an empty queue", element_empty },
  { "GetEnqueuableElement(ucontext=NULL)", enqueuable_null_context },
  { "step 1 of ResizeQueue(size=0, -1, INT_MIN)", resize_bad_step_1 },
  { "step 2 of ResizeQueue(size=0, -1, INT_MIN)", resize_bad_step_2 },
  { "step 1 of ResizeQueue(size=INT_MAX)", resize_max_step_1 },
  { "step 2 of ResizeQueue(size=INT_MAX)", resize_max_step_2 },
  { "SetOnQueueProcessingStart(handler=NULL) after a handler", start_null_handler },
  { "SetOnQueueProcessingStart(options=0x40000000)", start_unknown_option },
  { "SetOnQueueProcessingEnd(handler=NULL) after a handler", end_null_handler },
  { "SetOnQueueProcessingEnd(offer_iterator=false)", end_no_iterator },
  { "step 1 of queue handles: a removed handle does not reach the new queue in its slot", successor_step_1 },
  { "step 2 of queue handles: a removed handle does not reach the new queue in its slot", successor_step_2 },
};

/* The answers of the case called name, or null if there is none. */
JNIEXPORT jintArray JNICALL
Java_AsgstBadArguments_runCase(JNIEnv* env, jclass cls, jstring name) {
  char copy[256];
  const char* chars = (*env)->GetStringUTFChars(env, name, NULL);
  int out[MAX_OUT];
  size_t i;
  if (chars == NULL) {
    return NULL;
  }
  snprintf(copy, sizeof(copy), "%s", chars);
  (*env)->ReleaseStringUTFChars(env, name, chars);
  for (i = 0; i < sizeof(named_cases) / sizeof(named_cases[0]); i++) {
    if (strcmp(copy, named_cases[i].name) == 0) {
      int count;
      memset(out, 0, sizeof(out));
      count = named_cases[i].function(env, cls, out);
      return to_array(env, out, count);
    }
  }
  return NULL;
}

/* Threads for the fixtures ------------------------------------------------------------------------------ */

/* On a Java thread: waits in this native method until releaseBlocked(). */
JNIEXPORT void JNICALL
Java_AsgstBadArguments_blockInNative(JNIEnv* env, jclass cls) {
  (void)cls;
  pthread_mutex_lock(&helper_lock);
  blocked_env = env;
  helper_blocked = 1;
  pthread_cond_broadcast(&helper_cond);
  while (!helper_released) {
    pthread_cond_wait(&helper_cond, &helper_lock);
  }
  pthread_mutex_unlock(&helper_lock);
}

JNIEXPORT void JNICALL
Java_AsgstBadArguments_awaitBlocked(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  pthread_mutex_lock(&helper_lock);
  while (!helper_blocked) {
    pthread_cond_wait(&helper_cond, &helper_lock);
  }
  pthread_mutex_unlock(&helper_lock);
}

JNIEXPORT void JNICALL
Java_AsgstBadArguments_releaseBlocked(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  pthread_mutex_lock(&helper_lock);
  helper_released = 1;
  pthread_cond_broadcast(&helper_cond);
  pthread_mutex_unlock(&helper_lock);
}

/* On a Java thread that ends right after: its id, JNIEnv, and a queue it never deregisters. */
JNIEXPORT void JNICALL
Java_AsgstBadArguments_recordAndEnd(JNIEnv* env, jclass cls) {
  (void)cls;
  ended_env = env;
  ended_tid = own_tid();
  ended_thread_queue = ASGST_RegisterQueue(NULL, 4, 0, on_element, (void*)(intptr_t)4);
}

/* Waits (at most 30 s) until the OS thread of recordAndEnd's thread is gone, and with
   it the VM's thread object (HotSpot deletes it on that thread before it exits). */
JNIEXPORT jboolean JNICALL
Java_AsgstBadArguments_awaitEndedThreadGone(JNIEnv* env, jclass cls) {
  int i;
  (void)env; (void)cls;
  for (i = 0; i < 3000 && ended_tid > 1; i++) {
    if (os_thread_gone(ended_tid)) {
      return JNI_TRUE;
    }
    sleep_millis(10);
  }
  return JNI_FALSE;
}

JNIEXPORT void JNICALL
Java_AsgstBadArguments_setOsThreadIds(JNIEnv* env, jclass cls, jlong vm_thread, jlong compiler_thread) {
  (void)env; (void)cls;
  vm_thread_tid = vm_thread;
  compiler_thread_tid = compiler_thread;
}

JNIEXPORT void JNICALL
Java_AsgstBadArguments_recordRunner(JNIEnv* env, jclass cls) {
  (void)cls;
  runner_tid = own_tid();
  runner_env = env;
  __atomic_store_n(&runner_ready, 1, __ATOMIC_RELEASE);
}

/* Called all the time by the running thread: state changes from Java to native and back. */
JNIEXPORT jint JNICALL
Java_AsgstBadArguments_runnerWork(JNIEnv* env, jclass cls, jint i) {
  (void)env; (void)cls;
  return i ^ 0x5a;
}
