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
 * The stress agent: samples every Java thread of a running program with all
 * three ways of walking, resolving every method on the way, and counts how the
 * walks end. A sampler pthread (not attached to the VM) picks one thread every
 * interval (default 100 microseconds), in turn, and asks it by signal to
 *   - walk itself in the signal handler (the iterator, or AsyncGetStackTrace),
 *   - enqueue its top frame into its safepoint queue (walked at its next poll),
 *   - or (every MARKS_EVERY-th signal of each thread) walk itself with frame
 *     marks, checked against a full walk (below);
 * a second one halts a thread every interval, in turn, and walks it with
 * ASGST_RunWithIteratorOfThread while it waits in the signal handler (this
 * takes as long as the halted thread needs to be scheduled).
 * A class-unload handler reads every unloaded class and its methods. At VM
 * death it prints one "asgst-stress" line per mode, which the test checks,
 * and the first failed walks frame by frame.
 *
 * The marks way is an oracle of incremental walks (doc/frame-marks.md). The
 * handler walks its context watching the agent's mark owner; where a mark is
 * reached, the trace is the frames walked so far followed by the callers kept
 * when the mark was set (the incremental trace). It walks the same context
 * again without watching (the reference) and compares the two frame by frame.
 * Then, if no mark was reached (now and then also if one was), it marks a
 * frame of the reference walk, at a varying depth and in either of the
 * owner's slots, and keeps the reference's callers of that frame for the
 * slot, under a cookie that names the slot and a generation of its kept
 * callers: a cookie of callers kept earlier is stale, and counted, never
 * trusted. Each thread's storage is allocated when it is registered; the
 * handler allocates nothing.
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
#define MARKS_EVERY 7          /* every 7th signal of a thread walks with marks */
#define MARK_SLOTS 2           /* the agent's mark owner's slots */
#define TRACE_FRAMES 2048      /* frames a marks walk keeps: a deeper stack is not compared */
#define SUFFIX_FRAMES 1024     /* callers kept per mark: a frame with more is not marked */
#define COOKIE_TAG ((uint64_t)0xa5a5 << 48)  /* cookie: tag, slot (bits 32-47), generation (bits 0-31) */
#define COOKIE_TAG_MASK ((uint64_t)0xffff << 48)

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
static Stats marks_stats = { .name = "marks" };  /* the reference walks of the marks way */

static volatile long enqueued, enqueue_refused, halts, halts_given_up;
static volatile long unloaded_classes, unloaded_methods, unload_info_failures;

/* The marks way's counts: marks requests without a walk (no capability, no
   storage), walks compared, walks that reached a mark, marks set, refused
   (the walk then tries the next frame) and failed otherwise, walks whose
   incremental trace differed from the reference, stale cookies reached,
   walks too deep to keep, and frames not marked because their callers
   would not fit the kept suffix. */
static volatile long marks_skipped, marks_compared, marks_reached, marks_set, marks_refused, mark_errors;
static volatile long marks_differences, marks_stale, marks_too_deep, marks_too_long;
static ASGST_MarkOwner mark_owner;  /* > 0 once registered: the marks way runs */

enum Request { NONE, WALK, CALL_TRACE, ENQUEUE, MARKS };

/* A frame as the marks way compares it (sp: the physical frame's, which
   its inlined scopes share); pc and fp only for the report. */
typedef struct {
  ASGST_Method method;
  void* sp;
  void* pc;
  void* fp;
  int32_t bci;
  int8_t type, level;
} MarkedWalkFrame;

/* A trace of the marks way, top first. */
typedef struct {
  int count;
  int end;        /* what the walk ended with: ASGST_NO_FRAME, an error, 1 when cut at TRACE_FRAMES */
  MarkedWalkFrame frames[TRACE_FRAMES];
} MarksTrace;

/* The callers of the frame marked in a slot, as the marking walk saw them. */
typedef struct {
  uint32_t generation;  /* changes with each mark set in the slot: older cookies are stale */
  int count, end;
  MarkedWalkFrame frames[SUFFIX_FRAMES];
} KeptSuffix;

/* A thread's marks way: only its own signal handler uses it. */
typedef struct {
  int options;             /* the same for every walk of the thread, so kept callers fit later walks */
  uint64_t random;
  int reached, stale, prefix;  /* the incremental walk: whether (and after how many frames) it reached a mark */
  ASGST_Mark mark;
  MarksTrace incremental, reference;
  KeptSuffix kept[MARK_SLOTS];
} Marks;

/* A sampled thread. */
typedef struct {
  AsgstSampledThread sampled;
  ASGST_Queue* volatile queue;
  Marks* marks;            /* allocated once per entry, kept for the threads that reuse it */
  unsigned long asked;     /* signals the signal sampler sent this entry's thread */
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

static void to_marked_walk_frame(const ASGST_Frame* frame, MarkedWalkFrame* out) {
  out->method = frame->method;
  out->sp = frame->sp;
  out->pc = frame->pc;
  out->fp = frame->fp;
  out->bci = frame->bci;
  out->type = (int8_t)frame->type;
  out->level = (int8_t)frame->comp_level;
}

/* Method, bci, type and level equal; sp too where both walks report one. */
static int same_marked_walk_frame(const MarkedWalkFrame* a, const MarkedWalkFrame* b) {
  return a->method == b->method && a->bci == b->bci && a->type == b->type && a->level == b->level &&
         (a->sp == NULL || b->sp == NULL || a->sp == b->sp);
}

/* The frame of the first difference of an incremental trace from its
   reference (at the shorter trace's end if only the lengths or the ends
   differ); -1 if the traces are the same. A reference that ended at frames
   in the heap (it may not read them now: doc/stack-walking.md, "Frames in
   the heap") shows only the top of the stack; an incremental trace that
   stopped at a mark above them and took the rest from the walk that set the
   mark (which read them then) must match that top. */
static int first_difference(const MarksTrace* incremental, const MarksTrace* reference) {
  int i, n = incremental->count < reference->count ? incremental->count : reference->count;
  for (i = 0; i < n; i++) {
    if (!same_marked_walk_frame(&incremental->frames[i], &reference->frames[i])) {
      return i;
    }
  }
  if (reference->end == ASGST_FRAMES_IN_HEAP && incremental->count >= reference->count) {
    return -1;
  }
  return incremental->count != reference->count || incremental->end != reference->end ? n : -1;
}

/* xorshift: the marks way's choices, without libc's state. */
static uint32_t next_random(Marks* m) {
  uint64_t x = m->random;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  m->random = x;
  return (uint32_t)(x >> 32);
}

static uint64_t cookie_of(int slot, uint32_t generation) {
  return COOKIE_TAG | (uint64_t)slot << 32 | generation;
}

/* The callers kept under a reached mark's cookie; null if the cookie names
   none, another slot, or callers no longer kept (stale). */
static KeptSuffix* kept_suffix(Marks* m, const ASGST_Mark* mark) {
  uint64_t cookie = mark->cookie;
  int slot = (int)((cookie >> 32) & 0xffff);
  if ((cookie & COOKIE_TAG_MASK) != COOKIE_TAG || slot != mark->slot || slot >= MARK_SLOTS ||
      (uint32_t)cookie != m->kept[slot].generation) {
    return NULL;
  }
  return &m->kept[slot];
}

/* The first walks of the marks way whose traces differed or that reached a
   stale cookie, both traces whole, named when recorded (the classes may be
   unloaded before VM death). */
#define MARKS_RECORDS 4
#define NAME_SIZE 96
typedef struct {
  volatile int ready;
  int stale, options, at, reached, prefix;
  ASGST_Mark mark;
  uint32_t generation;          /* of the callers kept in the mark's slot when it was reached */
  MarksTrace traces[2];         /* incremental, reference */
  char names[2][TRACE_FRAMES][NAME_SIZE];
} MarksRecord;

static MarksRecord marks_records[MARKS_RECORDS];
static volatile int marks_record_count;

static void append_text(char* text, size_t size, size_t* used, const char* s) {
  while (*s != '\0' && *used + 1 < size) {
    text[(*used)++] = *s++;
  }
  text[*used] = '\0';
}

/* "Lpkg/Class;.method" in text, without snprintf (in the handler). */
static void name_frame(ASGST_Method method, char* text, size_t size) {
  char name[64], class_name[128];
  ASGST_MethodInfo info;
  size_t used = 0;
  int named;
  text[0] = '\0';
  if (method == NULL) {
    append_text(text, size, &used, "-");
    return;
  }
  named = asgst_test_method_info(method, name, sizeof(name), &info);
  append_text(text, size, &used, info.klass != NULL && asgst_test_class_name(info.klass, class_name,
                                                                              sizeof(class_name)) ? class_name : "?");
  append_text(text, size, &used, ".");
  append_text(text, size, &used, named ? name : "?");
}

static void record_marks(Marks* m, int stale, int at) {
  int index = __atomic_fetch_add(&marks_record_count, 1, __ATOMIC_RELAXED), k, i;
  MarksRecord* r;
  if (index >= MARKS_RECORDS) {
    return;
  }
  r = &marks_records[index];
  r->stale = stale;
  r->options = m->options;
  r->at = at;
  r->reached = m->reached;
  r->prefix = m->prefix;
  r->mark = m->mark;
  r->generation = m->mark.slot >= 0 && m->mark.slot < MARK_SLOTS ? m->kept[m->mark.slot].generation : 0;
  memcpy(&r->traces[0], &m->incremental, sizeof(MarksTrace));
  memcpy(&r->traces[1], &m->reference, sizeof(MarksTrace));
  for (k = 0; k < 2; k++) {
    for (i = 0; i < r->traces[k].count; i++) {
      name_frame(r->traces[k].frames[i].method, r->names[k][i], NAME_SIZE);
    }
  }
  __atomic_store_n(&r->ready, 1, __ATOMIC_RELEASE);
}

/* Iterator handler of the incremental walk: watches the owner's marks and,
   at a reached mark, appends the callers kept under its cookie. */
static void walk_incrementally(ASGST_Iterator* iterator, void* arg) {
  Marks* m = (Marks*)arg;
  MarksTrace* t = &m->incremental;
  ASGST_Frame frame;
  KeptSuffix* kept;
  int result = ASGST_WatchMarks(iterator, mark_owner);
  t->count = 0;
  if (result != 0) {
    t->end = result;
    return;
  }
  while ((result = ASGST_NextFrame(iterator, &frame)) == 1 && t->count < TRACE_FRAMES) {
    to_marked_walk_frame(&frame, &t->frames[t->count++]);
  }
  t->end = result;  /* 1: cut at TRACE_FRAMES */
  if (result != ASGST_MARKED_FRAME) {
    return;
  }
  m->reached = 1;
  m->prefix = t->count;
  if (!ASGST_GetMark(iterator, &m->mark)) {
    m->mark.slot = -1;  /* no mark to read after ASGST_MARKED_FRAME: counted as stale, nothing to trust */
    m->mark.cookie = 0;
  }
  if ((kept = kept_suffix(m, &m->mark)) == NULL) {
    m->stale = 1;
    return;
  }
  if (t->count + kept->count > TRACE_FRAMES) {
    t->end = 1;
    return;
  }
  memcpy(&t->frames[t->count], kept->frames, (size_t)kept->count * sizeof(MarkedWalkFrame));
  t->count += kept->count;
  t->end = kept->end;
}

/* Marks a frame of the reference walk, rewound: from a varying depth on, the
   first frame that takes a mark and whose callers fit the kept suffix; keeps
   those callers (the reference's frames after the marked physical frame) in
   the slot's suffix, under a new generation. */
static void mark_frame(ASGST_Iterator* iterator, Marks* m) {
  MarksTrace* t = &m->reference;
  int n = t->count, slot = next_random(m) % 4 == 0 ? 1 : 0, start, i, too_long = 0, java = n - 1;
  uint32_t generation = m->kept[slot].generation + 1;
  ASGST_Frame frame;
  while (java > 0 && t->frames[java].method == NULL) {
    java--;  /* depths count down to the bottom Java frame, above the C frames a thread starts with */
  }
  switch (next_random(m) % 3) {
    case 0: start = 1; break;                                                          /* just below the top */
    case 1: start = java / 4 + (int)(next_random(m) % (uint32_t)(java / 4 + 1)); break;  /* some way down */
    default: start = java - (int)(next_random(m) % (uint32_t)(java / 8 + 1)); break;     /* deep */
  }
  if (start < 1) {
    start = 1;  /* the top frame refuses a mark */
  }
  ASGST_RewindIterator(iterator);
  for (i = 0; i < n && ASGST_NextFrame(iterator, &frame) == 1; i++) {
    MarkedWalkFrame again;
    int last = i, result;
    to_marked_walk_frame(&frame, &again);
    if (!same_marked_walk_frame(&again, &t->frames[i])) {
      add(&mark_errors, 1);  /* the kept callers would not be those of the marked frame */
      return;
    }
    if (i < start) {
      continue;
    }
    /* The mark is reached after the physical frame's outermost scope. */
    while (last < n - 1 && t->frames[last].type == ASGST_FRAME_JAVA_INLINED) {
      last++;
    }
    if (n - 1 - last > SUFFIX_FRAMES) {
      too_long = 1;
      continue;
    }
    result = ASGST_MarkFrame(iterator, mark_owner, slot, cookie_of(slot, generation));
    if (result == ASGST_MARK_REFUSED) {
      add(&marks_refused, 1);  /* the top, a frame whose callee is no Java frame, a native one: the next */
      continue;
    }
    if (result != 0) {
      add(&mark_errors, 1);
      break;
    }
    /* The mark counts from the thread's next poll, after this handler: the
       callers are kept before any walk can reach it (only this handler reads them). */
    m->kept[slot].generation = generation;
    m->kept[slot].count = n - 1 - last;
    m->kept[slot].end = t->end;
    memcpy(m->kept[slot].frames, &t->frames[last + 1], (size_t)(n - 1 - last) * sizeof(MarkedWalkFrame));
    add(&marks_set, 1);
    break;
  }
  add(&marks_too_long, too_long);
}

/* Iterator handler of the reference walk: all frames, then a new mark if no
   mark was reached (and now and then if one was). */
static void walk_reference(ASGST_Iterator* iterator, void* arg) {
  Marks* m = (Marks*)arg;
  MarksTrace* t = &m->reference;
  ASGST_Frame frame;
  int result;
  t->count = 0;
  while ((result = ASGST_NextFrame(iterator, &frame)) == 1 && t->count < TRACE_FRAMES) {
    to_marked_walk_frame(&frame, &t->frames[t->count++]);
  }
  t->end = result;
  /* Only a whole walk keeps a whole suffix: one that ended at frames in the
     heap (the thread was not in Java code) would give later walks that reach
     its marks the truncated callers, where they may read the heap. */
  if (result == ASGST_NO_FRAME && (!m->reached || m->stale || next_random(m) % 8 == 0)) {
    mark_frame(iterator, m);
  }
}

/* Counts the reference walk as the other modes count theirs. */
static void count_reference_walk(Marks* m) {
  MarksTrace* t = &m->reference;
  ASGST_Frame ring[RECORDED_FRAMES];
  ASGST_Method bottom = NULL;
  long java_frames = 0, info_failures = 0, kept = 0;
  int i, bad_bottom;
  for (i = 0; i < t->count; i++) {
    if (t->frames[i].method != NULL) {
      java_frames++;
      info_failures += !method_info_readable(t->frames[i].method);
      bottom = t->frames[i].method;
    }
  }
  add(&marks_stats.frames, t->count);
  add(&marks_stats.java_frames, java_frames);
  add(&marks_stats.info_failures, info_failures);
  bad_bottom = t->end == ASGST_NO_FRAME && bottom != NULL && !is_entry_method(bottom);
  if (t->end == ASGST_NO_FRAME && !bad_bottom) {
    add(&marks_stats.complete, 1);
    return;
  }
  if (t->end == ASGST_FRAMES_IN_HEAP) {
    add(&marks_stats.in_heap, 1);
    return;
  }
  if (t->end == 1) {
    return;  /* cut at TRACE_FRAMES: the caller counts it as too deep */
  }
  /* Failed: its last frames (the Java ones at a bad bottom) as record_failure reads them. */
  memset(ring, 0, sizeof(ring));
  for (i = 0; i < t->count; i++) {
    MarkedWalkFrame* f = &t->frames[i];
    if (!bad_bottom || f->method != NULL) {
      ASGST_Frame* r = &ring[kept++ % RECORDED_FRAMES];
      r->type = (uint8_t)f->type;
      r->comp_level = f->level;
      r->bci = f->bci;
      r->method = f->method;
      r->sp = f->sp;
      r->pc = f->pc;
      r->fp = f->fp;
    }
  }
  add(&marks_stats.failed, 1);
  add(&marks_stats.bad_bottom, bad_bottom);
  if (!bad_bottom) {
    count_code(&marks_stats, t->end);
  }
  record_failure(&marks_stats, t->end, kept, ring);
}

/* The marks way, in the handler of the sampled thread. */
static void walk_with_marks(Entry* entry, void* ucontext) {
  Marks* m = entry->marks;
  int kind, at;
  if (mark_owner <= 0 || m == NULL) {
    add(&marks_skipped, 1);
    return;
  }
  current_options = m->options;
  m->reached = 0;
  m->stale = 0;
  m->prefix = 0;
  m->mark.slot = -1;
  m->mark.cookie = 0;
  kind = ASGST_RunWithIterator(ucontext, m->options, walk_incrementally, m);
  if (kind > 0) {
    /* The same context: nothing ran on this thread in between. */
    kind = ASGST_RunWithIterator(ucontext, m->options, walk_reference, m);
  }
  count_start(&marks_stats, kind);
  if (kind < 0) {
    return;
  }
  count_reference_walk(m);
  add(&marks_reached, m->reached);
  if (m->stale) {
    add(&marks_stale, 1);
    record_marks(m, 1, -1);
    return;
  }
  if (m->incremental.end == 1 || m->reference.end == 1) {
    add(&marks_too_deep, 1);
    return;
  }
  if (m->reference.end != ASGST_NO_FRAME && m->reference.end != ASGST_FRAMES_IN_HEAP) {
    return;  /* a failed reference walk (counted as failed) is no reference */
  }
  add(&marks_compared, 1);
  if ((at = first_difference(&m->incremental, &m->reference)) >= 0) {
    add(&marks_differences, 1);
    record_marks(m, 0, at);
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
    case MARKS:
      walk_with_marks(entry, ucontext);
      break;
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

/* Asks a thread every interval to walk itself (also with marks) or to enqueue. */
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
      /* Every MARKS_EVERY-th signal of each thread walks with marks: counted
         per thread, as the rotation below gives a thread the same request
         each time when the threads are a multiple of its length. The other
         signals take the rotation as before. */
      int request = ++entry->asked % MARKS_EVERY == 0 ? MARKS : requests[step++ % 6];
      asgst_sampled_ask(&entry->sampled, tid, request, SIGNAL);
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

/* The marks way's storage for the thread that claimed entry: allocated for
   the entry's first thread (here, never in the handler) and kept for the
   threads that reuse the entry, whose suffixes kept earlier become stale. */
static void prepare_marks(Entry* entry) {
  long index = (long)(entry - entries);
  Marks* m = entry->marks;
  int slot;
  entry->asked = 0;
  if (m == NULL) {
    m = entry->marks = (Marks*)calloc(1, sizeof(Marks));
    if (m == NULL) {
      return;  /* the marks way skips this thread */
    }
  }
  m->options = (index & 1) ? ASGST_INCLUDE_C_FRAMES : 0;  /* both kinds of walk, each thread one */
  m->random = ((uint64_t)syscall(SYS_gettid) << 20 ^ (uint64_t)index) * 0x9e3779b97f4a7c15ULL | 1;
  for (slot = 0; slot < MARK_SLOTS; slot++) {
    m->kept[slot].generation++;
    m->kept[slot].count = 0;
  }
}

static void start_sampling_thread(JNIEnv* jni) {
  Entry* entry = (Entry*)asgst_sampled_claim(entries, sizeof(Entry), MAX_THREADS);
  if (entry != NULL) {
    entry->queue = ASGST_RegisterQueue(jni, 64, 0, on_element, NULL);
    prepare_marks(entry);
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
  if ((ASGST_Capabilities() & ASGST_MARK_FRAME) != 0) {
    mark_owner = ASGST_RegisterMarkOwner(MARK_SLOTS);  /* <= 0: the marks way reports itself skipped */
  }
  start_sampling_thread(jni);
  if (pthread_create(&samplers[0], NULL, signal_sampler, NULL) == 0) {
    samplers_started = 1;
    if (pthread_create(&samplers[1], NULL, halting_sampler, NULL) == 0) {
      samplers_started = 2;
    }
  }
}

static void print_stats(Stats* s, const char* more) {
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
         "frames=%ld java_frames=%ld info_failures=%ld errors=%s%s\n", s->name, s->walks, s->complete, s->refused,
         s->failed, s->bad_bottom, s->in_heap, s->frames, s->java_frames, s->info_failures, used ? codes : "none",
         more);
}

static void print_marked_walk_frame(const MarksRecord* r, int k, int i) {
  const MarkedWalkFrame* f = &r->traces[k].frames[i];
  if (i >= r->traces[k].count) {
    printf(" %-10s -", k == 0 ? "incremental" : "reference");
    return;
  }
  printf(" %s %d/%d/%d sp %p pc %p %s%s", k == 0 ? "incremental" : "reference", f->type, f->level, f->bci, f->sp,
         f->pc, r->names[k][i], k == 0 && r->reached && i >= r->prefix ? " (kept)" : "");
}

/* The recorded walks of the marks way, both traces frame by frame (type/level/bci). */
static void print_marks_records(void) {
  int i, j;
  for (i = 0; i < marks_record_count && i < MARKS_RECORDS; i++) {
    const MarksRecord* r = &marks_records[i];
    int n;
    if (!__atomic_load_n(&r->ready, __ATOMIC_ACQUIRE)) {
      continue;  /* still being written when the samplers stopped */
    }
    printf("marks %s: options %d; incremental %d frames, end %d%s; mark after %d frames, slot %d, cookie %#llx, "
           "the slot's kept generation %u; reference %d frames, end %d; first difference at frame %d\n",
           r->stale ? "stale cookie" : "difference", r->options, r->traces[0].count, r->traces[0].end,
           r->reached ? "" : " (no mark reached)", r->prefix, r->mark.slot, (unsigned long long)r->mark.cookie,
           r->generation, r->traces[1].count, r->traces[1].end, r->at);
    n = r->traces[0].count > r->traces[1].count ? r->traces[0].count : r->traces[1].count;
    for (j = 0; j < n; j++) {
      int differs = j >= r->traces[0].count || j >= r->traces[1].count ||
                    !same_marked_walk_frame(&r->traces[0].frames[j], &r->traces[1].frames[j]);
      printf("  marks frame %d %s", j, differs ? "*" : " ");
      print_marked_walk_frame(r, 0, j);
      printf(" |");
      print_marked_walk_frame(r, 1, j);
      printf("\n");
    }
  }
}

static void JNICALL on_vm_death(jvmtiEnv* env, JNIEnv* jni) {
  char marks_fields[512];
  int i;
  (void)env; (void)jni;
  __atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
  while (samplers_started > 0) {
    pthread_join(samplers[--samplers_started], NULL);
  }
  print_stats(&signal_stats, "");
  print_stats(&call_trace_stats, "");
  print_stats(&thread_stats, "");
  print_stats(&queue_stats, "");
  snprintf(marks_fields, sizeof(marks_fields), " available=%d skipped=%ld compared=%ld reached=%ld marks_set=%ld "
           "marks_refused=%ld mark_errors=%ld differences=%ld stale=%ld too_deep=%ld suffix_too_long=%ld",
           mark_owner > 0 ? 1 : 0, marks_skipped, marks_compared, marks_reached, marks_set, marks_refused,
           mark_errors, marks_differences, marks_stale, marks_too_deep, marks_too_long);
  print_stats(&marks_stats, marks_fields);
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
  print_marks_records();
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
