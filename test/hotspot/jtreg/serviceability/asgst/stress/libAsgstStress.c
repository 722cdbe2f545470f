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
 * The stress agent: samples every Java thread of a running program with all
 * three ways of walking, resolving every method on the way, and counts how the
 * walks end. A sampler pthread (not attached to the VM) picks one thread every
 * interval (default 100 microseconds), in turn, and asks it by signal to
 *   - walk itself in the signal handler (the iterator, or AsyncGetStackTrace),
 *   - enqueue its top frame into its safepoint queue (walked at its next poll);
 * a second one halts a thread every interval, in turn, and walks it with
 * ASGST_RunWithIteratorOfThread while it waits in the signal handler (this
 * takes as long as the halted thread needs to be scheduled).
 * A class-unload handler reads every unloaded class and its methods. At VM
 * death it prints one "asgst-stress" line per mode, which the test checks,
 * and the first failed walks frame by frame.
 *
 * Options (-agentpath:libAsgstStress.so=interval=MICROS): the sampling interval.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSampling.h"
#include "../native/asgstTestSupport.h"

#define MAX_THREADS 1024
#define MAX_CODES 32
#define SIGNAL SIGPROF
#define HALT_TIMEOUT_NANOS (20 * 1000 * 1000)

typedef struct {
  const char* name;
  volatile long walks;         /* walks started (the function accepted its arguments) */
  volatile long complete;      /* walks that reached the bottom of the stack */
  volatile long refused;       /* refused before the first frame (state, kind, GC) */
  volatile long failed;        /* walks that ended with an error after the start */
  volatile long in_heap;       /* ended at frames frozen in the heap (a known limit) */
  volatile long bad_bottom;    /* ended without error, but not in a thread's entry method (also failed) */
  volatile long frames;
  volatile long java_frames;
  volatile long info_failures; /* a walked method whose information could not be read */
  volatile long codes[MAX_CODES];  /* refusals and failures by -error */
} Stats;

static Stats signal_stats = { .name = "signal" };
static Stats call_trace_stats = { .name = "call-trace" };
static Stats thread_stats = { .name = "thread" };
static Stats queue_stats = { .name = "queue" };

static volatile long enqueued, enqueue_refused, halts, halts_given_up;
static volatile long unloaded_classes, unloaded_methods, unload_info_failures;

enum Request { NONE, WALK, CALL_TRACE, ENQUEUE };

/* A sampled thread. */
typedef struct {
  AsgstSampledThread sampled;
  ASGST_Queue* volatile queue;
} Entry;

static Entry entries[MAX_THREADS];
static __thread Entry* own_entry;
static jvmtiEnv* jvmti;
static long interval_micros = 100;
static volatile int stopping;
static pthread_t samplers[2];
static int samplers_started;

static void add(volatile long* counter, long value) {
  __atomic_fetch_add(counter, value, __ATOMIC_RELAXED);
}

static void count_code(Stats* stats, int error) {
  if (error < 0 && -error < MAX_CODES) {
    add(&stats->codes[-error], 1);
  }
}

/* Reads everything the information functions offer about method; 0 if something is missing. */
static int method_info_readable(ASGST_Method method) {
  char name[128], signature[256], class_name[256];
  ASGST_MethodInfo info;
  ASGST_ClassInfo class_info;
  ASGST_MethodLineNumberEntry lines[64];
  memset(&info, 0, sizeof(info));
  info.method_name = name;
  info.method_name_length = sizeof(name);
  info.signature = signature;
  info.signature_length = sizeof(signature);
  ASGST_GetMethodInfo(method, &info);
  if (info.method_name == NULL || info.method_name_length <= 0 || info.signature == NULL ||
      signature[0] != '(' || info.klass == NULL || ASGST_GetMethodIdNum(method) != info.idnum) {
    return 0;
  }
  memset(&class_info, 0, sizeof(class_info));
  class_info.class_name = class_name;
  class_info.class_name_length = sizeof(class_name);
  ASGST_GetClassInfo(info.klass, &class_info);
  if (class_info.class_name == NULL || class_name[0] != 'L' || class_info.idnum != info.class_idnum ||
      ASGST_GetClassIdNum(info.klass) != info.class_idnum) {
    return 0;
  }
  return ASGST_GetMethodLineNumberTable(method, lines, 64) >= 0;
}

/* The first failed walks, with their last frames, for the report. */
#define MAX_RECORDS 12
#define RECORDED_FRAMES 4
typedef struct {
  const char* mode;
  int options, state;
  long frames;
  ASGST_Frame last[RECORDED_FRAMES];  /* the last frames before the failure, newest last */
  char names[RECORDED_FRAMES][96];
} FailureRecord;

static FailureRecord records[MAX_RECORDS];
static volatile int record_count;
static __thread int current_options;

static void record_failure(Stats* stats, int state, long frames, ASGST_Frame* last) {
  int i, index = __atomic_fetch_add(&record_count, 1, __ATOMIC_RELAXED);
  FailureRecord* r;
  if (index >= MAX_RECORDS) {
    return;
  }
  r = &records[index];
  r->mode = stats->name;
  r->options = current_options;
  r->state = state;
  r->frames = frames;
  for (i = 0; i < RECORDED_FRAMES; i++) {
    ASGST_Frame* f = &last[(frames + i) % RECORDED_FRAMES];  /* oldest first */
    char name[64], class_name[64];
    ASGST_MethodInfo info;
    r->last[i] = *f;
    r->names[i][0] = '\0';
    if (f->method != NULL) {
      int named = asgst_test_method_info(f->method, name, sizeof(name), &info);
      int class_named = info.klass != NULL && asgst_test_class_name(info.klass, class_name, sizeof(class_name));
      snprintf(r->names[i], sizeof(r->names[i]), "%s.%s", class_named ? class_name : "?", named ? name : "?");
    }
  }
}

/* The methods in which a walk of a sampled thread may end: the Java methods
   that the VM calls first on a thread it started (its run; Thread.exit
   and the uncaught exception dispatch as the thread ends) or on a thread that
   attaches (the Thread constructor), the entry of a
   virtual thread's continuation (its walk stops there), and what the java
   launcher calls through JNI on the main thread (LauncherHelper's methods,
   the main class's initializer and main method, Shutdown.shutdown as the VM
   is destroyed). A walk that ends elsewhere without an error lost its bottom
   frames. A null class matches any class, "*" any method. */
static int is_entry_method(ASGST_Method method) {
  static const char* const entries[][2] = {
    { NULL, "run" },  /* Thread.run, or a Thread subclass's that overrides it */
    { "Ljava/lang/Thread;", "exit" },
    { "Ljava/lang/Thread;", "dispatchUncaughtException" },
    { "Ljava/lang/Thread;", "<init>" },  /* a thread attaching through JNI: the VM makes its Thread there */
    { "Ljdk/internal/vm/Continuation;", "enter" },
    { "Lsun/launcher/LauncherHelper;", "*" },
    { NULL, "main" },
    { NULL, "<clinit>" },
    { "Ljava/lang/Shutdown;", "shutdown" },
  };
  char name[64], class_name[128];
  ASGST_MethodInfo info;
  size_t i;
  if (!asgst_test_method_info(method, name, sizeof(name), &info) || info.klass == NULL ||
      !asgst_test_class_name(info.klass, class_name, sizeof(class_name))) {
    return 0;
  }
  for (i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
    if ((entries[i][0] == NULL || strcmp(class_name, entries[i][0]) == 0) &&
        (strcmp(entries[i][1], "*") == 0 || strcmp(name, entries[i][1]) == 0)) {
      return 1;
    }
  }
  return 0;
}

/* The iterator handler of all walks: arg is the mode's Stats. */
static void walk_frames(ASGST_Iterator* iterator, void* arg) {
  Stats* stats = (Stats*)arg;
  ASGST_Frame frame, last[RECORDED_FRAMES], last_java[RECORDED_FRAMES];
  ASGST_Method bottom = NULL;
  long frames = 0, java_frames = 0, info_failures = 0;
  int state;
  memset(last, 0, sizeof(last));
  memset(last_java, 0, sizeof(last_java));
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    last[frames++ % RECORDED_FRAMES] = frame;
    if (frame.method != NULL) {
      last_java[java_frames % RECORDED_FRAMES] = frame;
      java_frames++;
      info_failures += !method_info_readable(frame.method);
      bottom = frame.method;
    }
  }
  state = ASGST_State(iterator);
  add(&stats->frames, frames);
  add(&stats->java_frames, java_frames);
  add(&stats->info_failures, info_failures);
  if (state == ASGST_NO_FRAME && bottom != NULL && !is_entry_method(bottom)) {
    add(&stats->failed, 1);
    add(&stats->bad_bottom, 1);
    record_failure(stats, state, java_frames, last_java);  /* the Java frames at the bottom */
  } else if (state == ASGST_NO_FRAME) {
    add(&stats->complete, 1);
  } else if (state == ASGST_FRAMES_IN_HEAP) {
    add(&stats->in_heap, 1);
  } else {
    add(&stats->failed, 1);
    count_code(stats, state);
    record_failure(stats, state, frames, last);
  }
}

/* Counts a walk function's result: the kind (> 0) or a refusal. */
static void count_start(Stats* stats, int result) {
  add(&stats->walks, 1);
  if (result < 0) {
    add(&stats->refused, 1);
    count_code(stats, result);
  }
}

static void walk_with_call_trace(void* ucontext) {
  ASGST_CallFrame frames[256];
  ASGST_CallTrace trace;
  int i;
  memset(&trace, 0, sizeof(trace));
  trace.frames = frames;
  AsyncGetStackTrace(&trace, 256, ucontext, ASGST_INCLUDE_C_FRAMES);
  add(&call_trace_stats.walks, 1);
  if (trace.num_frames == ASGST_FRAMES_IN_HEAP) {
    add(&call_trace_stats.in_heap, 1);  /* the frames are not returned: count the walk alone */
    return;
  }
  if (trace.num_frames < 0) {
    /* An error after the start is a failed walk; the others are refusals. */
    add(trace.num_frames == ASGST_BROKEN_FRAME ? &call_trace_stats.failed : &call_trace_stats.refused, 1);
    count_code(&call_trace_stats, trace.num_frames);
    return;
  }
  add(&call_trace_stats.complete, 1);
  add(&call_trace_stats.frames, trace.num_frames);
  for (i = 0; i < trace.num_frames; i++) {
    if (frames[i].type != ASGST_FRAME_NON_JAVA) {
      add(&call_trace_stats.java_frames, 1);
      add(&call_trace_stats.info_failures, !method_info_readable(frames[i].java_frame.method));
    }
  }
}

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  (void)queue_arg; (void)element_arg;
  add(&queue_stats.walks, 1);
  walk_frames(iterator, &queue_stats);
}

static void on_signal(int signo, siginfo_t* siginfo, void* ucontext) {
  Entry* entry = own_entry;
  int saved_errno = errno;
  (void)signo; (void)siginfo;
  if (entry == NULL) {
    return;  /* not a sampled thread, or one that is ending */
  }
  switch (asgst_sampled_take_request(&entry->sampled)) {
    case WALK: {
      static volatile long walks;
      int options = (__atomic_fetch_add(&walks, 1, __ATOMIC_RELAXED) & 1) ? ASGST_INCLUDE_C_FRAMES : 0;
      current_options = options;
      count_start(&signal_stats, ASGST_RunWithIterator(ucontext, options, walk_frames, &signal_stats));
      break;
    }
    case CALL_TRACE:
      walk_with_call_trace(ucontext);
      break;
    case ENQUEUE: {
      ASGST_Queue* queue = entry->queue;
      if (queue != NULL) {
        add(ASGST_Enqueue(queue, ucontext, NULL) > 0 ? &enqueued : &enqueue_refused, 1);
      }
      break;
    }
  }
  asgst_sampled_answer_halt(&entry->sampled, ucontext);
  errno = saved_errno;
}

/* Halts the thread of entry, walks it from here and lets it go. */
static void walk_halted(Entry* entry, pid_t tid, int options) {
  int halted;
  add(&halts, 1);
  halted = asgst_sampled_halt(&entry->sampled, tid, SIGNAL, HALT_TIMEOUT_NANOS);
  if (halted < 0) {
    add(&halts_given_up, 1);  /* no answer (blocked signal, busy handler) */
  }
  if (halted <= 0) {
    return;
  }
  current_options = options;
  count_start(&thread_stats, ASGST_RunWithIteratorOfThread(tid, entry->sampled.context, options, walk_frames,
                                                          &thread_stats));
  asgst_sampled_release(&entry->sampled);
}

/* The next sampled thread after *next, in turn; 0 if there is none. */
static pid_t next_thread(int* next, Entry** found) {
  return asgst_sampled_next(entries, sizeof(Entry), MAX_THREADS, next, (AsgstSampledThread**)found);
}

/* Asks a thread every interval to walk itself or to enqueue. */
static void* signal_sampler(void* arg) {
  static const int requests[] = { WALK, WALK, ENQUEUE, WALK, ENQUEUE, CALL_TRACE };
  int next = 0;
  unsigned long step = 0;
  (void)arg;
  while (!__atomic_load_n(&stopping, __ATOMIC_ACQUIRE)) {
    Entry* entry;
    pid_t tid;
    asgst_sampled_pause(interval_micros);
    if ((tid = next_thread(&next, &entry)) != 0) {
      asgst_sampled_ask(&entry->sampled, tid, requests[step++ % 6], SIGNAL);
    }
  }
  return NULL;
}

/* Halts a thread every interval and walks it from here. */
static void* halting_sampler(void* arg) {
  int next = 0;
  unsigned long step = 0;
  (void)arg;
  while (!__atomic_load_n(&stopping, __ATOMIC_ACQUIRE)) {
    Entry* entry;
    pid_t tid;
    asgst_sampled_pause(interval_micros);
    if ((tid = next_thread(&next, &entry)) != 0) {
      walk_halted(entry, tid, (step++ & 1) ? ASGST_INCLUDE_C_FRAMES : 0);
    }
  }
  return NULL;
}

static void start_sampling_thread(JNIEnv* jni) {
  Entry* entry = (Entry*)asgst_sampled_claim(entries, sizeof(Entry), MAX_THREADS);
  if (entry != NULL) {
    entry->queue = ASGST_RegisterQueue(jni, 64, 0, on_element, NULL);
    own_entry = entry;
    asgst_sampled_publish(&entry->sampled);
  }
}

static void JNICALL on_thread_start(jvmtiEnv* env, JNIEnv* jni, jthread thread) {
  (void)env; (void)thread;
  start_sampling_thread(jni);
}

static void JNICALL on_thread_end(jvmtiEnv* env, JNIEnv* jni, jthread thread) {
  Entry* entry = own_entry;
  (void)env; (void)jni; (void)thread;
  if (entry != NULL) {
    own_entry = NULL;  /* from here on the signal handler leaves this thread alone */
    asgst_sampled_end(&entry->sampled, &entry->queue);
  }
}

static void on_class_unload(ASGST_Class klass, ASGST_Method* methods, int count, bool redefined, void* arg) {
  char name[256];
  int i;
  (void)redefined; (void)arg;
  add(&unloaded_classes, 1);
  add(&unloaded_methods, count);
  if (!asgst_test_class_name(klass, name, sizeof(name)) || name[0] != 'L') {
    add(&unload_info_failures, 1);
  }
  for (i = 0; i < count; i++) {
    add(&unload_info_failures, !method_info_readable(methods[i]));
  }
}

static void JNICALL on_vm_init(jvmtiEnv* env, JNIEnv* jni, jthread thread) {
  (void)env; (void)thread;
  asgst_test_install_handler(SIGNAL, on_signal);
  ASGST_RegisterClassUnloadHandler(on_class_unload, NULL);
  start_sampling_thread(jni);
  if (pthread_create(&samplers[0], NULL, signal_sampler, NULL) == 0) {
    samplers_started = 1;
    if (pthread_create(&samplers[1], NULL, halting_sampler, NULL) == 0) {
      samplers_started = 2;
    }
  }
}

static void print_stats(Stats* s) {
  char codes[256];
  size_t used = 0;
  int i;
  codes[0] = '\0';
  for (i = 0; i < MAX_CODES; i++) {
    if (s->codes[i] > 0 && used + 24 < sizeof(codes)) {
      used += (size_t)snprintf(codes + used, sizeof(codes) - used, "%s%d:%ld", used ? "," : "", -i, s->codes[i]);
    }
  }
  printf("asgst-stress mode=%s walks=%ld complete=%ld refused=%ld failed=%ld bad_bottom=%ld in_heap=%ld "
         "frames=%ld java_frames=%ld info_failures=%ld errors=%s\n", s->name, s->walks, s->complete, s->refused,
         s->failed, s->bad_bottom, s->in_heap, s->frames, s->java_frames, s->info_failures, used ? codes : "none");
}

static void JNICALL on_vm_death(jvmtiEnv* env, JNIEnv* jni) {
  int i;
  (void)env; (void)jni;
  __atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
  while (samplers_started > 0) {
    pthread_join(samplers[--samplers_started], NULL);
  }
  print_stats(&signal_stats);
  print_stats(&call_trace_stats);
  print_stats(&thread_stats);
  print_stats(&queue_stats);
  for (i = 0; i < record_count && i < MAX_RECORDS; i++) {
    FailureRecord* r = &records[i];
    int j;
    printf("failed walk: mode %s options %d error %d after %ld frames; the last ones:\n", r->mode, r->options,
           r->state, r->frames);
    for (j = 0; j < RECORDED_FRAMES; j++) {
      ASGST_Frame* f = &r->last[j];
      if (f->type != 0) {
        printf("  type %d level %d bci %d pc %p sp %p fp %p %s\n", f->type, f->comp_level, f->bci, f->pc, f->sp,
               f->fp, r->names[j]);
      }
    }
  }
  printf("asgst-stress enqueued=%ld enqueue_refused=%ld halts=%ld halts_given_up=%ld\n",
         enqueued, enqueue_refused, halts, halts_given_up);
  printf("asgst-stress unloaded_classes=%ld unloaded_methods=%ld unload_info_failures=%ld deregistered=%d\n",
         unloaded_classes, unloaded_methods, unload_info_failures,
         ASGST_DeregisterClassUnloadHandler(on_class_unload, NULL) ? 1 : 0);
  fflush(stdout);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void* reserved) {
  jvmtiEventCallbacks callbacks;
  (void)reserved;
  if (options != NULL && strncmp(options, "interval=", 9) == 0) {
    interval_micros = atol(options + 9);
  }
  if (interval_micros <= 0 || asgst_test_load_jvmti(vm, &jvmti) == JNI_ERR) {
    return JNI_ERR;
  }
  memset(&callbacks, 0, sizeof(callbacks));
  callbacks.VMInit = on_vm_init;
  callbacks.VMDeath = on_vm_death;
  callbacks.ThreadStart = on_thread_start;
  callbacks.ThreadEnd = on_thread_end;
  (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof(callbacks));
  (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
  (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
  (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
  (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_THREAD_END, NULL);
  return JNI_OK;
}
