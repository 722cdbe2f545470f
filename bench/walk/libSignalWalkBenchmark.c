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
 * The signal path of SignalWalkBenchmark.java: a sampler thread sends SIGPROF
 * to the target thread; the handler walks the context it received, one way
 * at 16 signals in a row (the first untimed), then the next way, and times
 * the walk. A walk fails when it produces no frame or ends with an error.
 * Each figure: the median (and quartiles) of the samples of one way,
 * successful walks only.
 *
 * The way "marks" walks with frame marks (doc/frame-marks.md) as a profiler
 * that keeps whole traces would: a walk that reaches its mark stops there
 * and appends the callers kept by the walk that set it ("to mark +kept");
 * a walk that reaches no mark walks the whole stack, marks the first frame
 * below the top that takes a mark and keeps its trace ("full +mark"). The
 * chain under the loop stays put, so after the first walk and the thread's
 * next poll every walk reaches the mark.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../../test/hotspot/jtreg/serviceability/asgst/native/asgstAsyncGetCallTrace.h"

#define MAX_FRAMES 4096
#define MAX_SAMPLES 20000

/* TOP_FRAME_WARM times a walk right after the same walk (untimed): what is
   left of the top frame's cost once what it reads is in the caches. TIMER
   walks nothing: what timing a walk adds to every way's figure. CALL_REFUSED
   makes the iterator call that the walker refuses at once: what a top frame
   costs that no search, check or cache can save. CHAINED_READS follows a
   chain of pointers through lines that every signal's handler reads (after
   its timed way), as every walk reads the thread and the VM's tables: what
   reads cost, one waiting for the other, of memory that the previous
   signal's handler read 0.1 ms before (the machine's, not the VM's cost).
   CALL_REFUSED_WARM and CHAINED_READS_WARM time the same right after it,
   untimed: what the first call after a signal's delivery pays that a second
   does not, for the VM's code and for memory alone. */
enum { AGCT, ITERATOR, ITERATOR_C_FRAMES, ASYNC_GET_STACK_TRACE, TOP_FRAME, TOP_FRAME_WARM, ENQUEUE, TIMER,
       CALL_REFUSED, CALL_REFUSED_WARM, CHAINED_READS, CHAINED_READS_WARM, MARKS, WAYS };
static const char* names[WAYS] = {
  "AsyncGetCallTrace", "ASGST iterator", "ASGST iterator +C", "AsyncGetStackTrace", "ASGST top frame",
  "ASGST top frame, warm", "ASGST_Enqueue", "timer alone", "ASGST call, refused", "ASGST call, refused, warm",
  "4 chained reads", "4 chained reads, warm", "marks: to mark +kept"
};

/* The lines of CHAINED_READS, one per page (as the thread, the code cache and
   the VM's tables lie apart); each holds the address of the next. */
#define CHAINED_LINES 4
#define PAGE_WORDS (4096 / sizeof(void*))
static void* chained[CHAINED_LINES * PAGE_WORDS] __attribute__((aligned(4096)));

static void link_chained_lines(void) {
  int i;
  for (i = 0; i < CHAINED_LINES; i++) {
    chained[i * PAGE_WORDS] = i + 1 < CHAINED_LINES ? (void*)&chained[(i + 1) * PAGE_WORDS] : NULL;
  }
}

/* Returns 1 (one "frame") when the chain ended where it should. */
__attribute__((noinline)) static int read_chained_lines(void) {
  void* volatile* p = (void* volatile*)&chained[0];
  int n = 1;
  while (*p != NULL) {
    p = (void* volatile*)*p;
    n++;
  }
  return n == CHAINED_LINES ? 1 : 0;
}

typedef struct {
  int64_t ns[MAX_SAMPLES];
  int frames[MAX_SAMPLES];
  int count;
  int failed;
} Samples;

static jvmtiEnv* jvmti;
static AsyncGetCallTraceFunction async_get_call_trace;
static JNIEnv* target_env;
static pid_t target_tid;
static ASGST_Queue* target_queue;
static Samples samples[WAYS];
static Samples processing;          /* per element walked at the poll: ns, frames */
static Samples marking;             /* way MARKS, walks that reached no mark: ns, frames */
static volatile int samples_per_way;
static volatile int sampling;
static unsigned signals_taken;
static int interval_micros;
static pthread_t sampler;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  if ((*vm)->GetEnv(vm, (void**)&jvmti, JVMTI_VERSION) != JNI_OK) {
    return JNI_ERR;
  }
  async_get_call_trace = asgst_agct_prepare(jvmti);
  return async_get_call_trace != NULL ? JNI_VERSION_1_8 : JNI_ERR;
}

static void add_sample(Samples* s, int64_t ns, int frames) {
  if (s->count < MAX_SAMPLES) {
    s->ns[s->count] = ns;
    s->frames[s->count] = frames;
    s->count++;
  }
}

/* What a profiler keeps of a frame. */
typedef struct {
  ASGST_Method method;
  int32_t bci;
  int32_t comp_level;
} TraceFrame;

static ASGST_MarkOwner mark_owner;     /* 0: marks not available */
static TraceFrame trace[MAX_FRAMES];   /* the trace of the current walk */
static TraceFrame kept[MAX_FRAMES];    /* the trace of the walk that set the mark */
static int kept_count;
static uint32_t kept_generation;       /* a cookie's upper half; a stale one is not trusted */

typedef struct {
  int frames;   /* of the whole trace; 0: the walk failed */
  int reached;  /* whether it stopped at the mark */
} MarkedWalk;

/* The way MARKS. The cookie holds the generation of the kept trace and the
   index of the marked frame's caller in it. Only the outermost scope of a
   frame is marked, so that the mark is reported right after that frame. */
static void walk_to_mark(ASGST_Iterator* iterator, void* arg) {
  MarkedWalk* result = (MarkedWalk*)arg;
  ASGST_Frame frame;
  ASGST_Mark mark;
  int n = 0, marked = 0, step;
  ASGST_WatchMarks(iterator, mark_owner);
  while ((step = ASGST_NextFrame(iterator, &frame)) > 0) {
    if (step == ASGST_MARKED_FRAME) {
      if (ASGST_GetMark(iterator, &mark) && (uint32_t)(mark.cookie >> 32) == kept_generation) {
        int from = (int)(uint32_t)mark.cookie;
        int count = kept_count - from < MAX_FRAMES - n ? kept_count - from : MAX_FRAMES - n;
        memcpy(&trace[n], &kept[from], (size_t)count * sizeof(TraceFrame));
        result->frames = n + count;
        result->reached = 1;
        return;
      }
      continue;  /* a mark of a trace no longer kept: walk on */
    }
    if (n == MAX_FRAMES) {
      break;
    }
    trace[n].method = frame.method;
    trace[n].bci = frame.bci;
    trace[n].comp_level = frame.comp_level;
    n++;
    if (!marked && frame.type == ASGST_FRAME_JAVA &&
        ASGST_MarkFrame(iterator, mark_owner, 0, (uint64_t)(kept_generation + 1) << 32 | (uint32_t)n) == 0) {
      marked = 1;
    }
  }
  result->reached = 0;
  result->frames = ASGST_State(iterator) == ASGST_NO_FRAME ? n : 0;
  if (marked && result->frames > 0) {
    memcpy(kept, trace, (size_t)n * sizeof(TraceFrame));
    kept_count = n;
    kept_generation++;
  } else if (marked) {
    ASGST_ClearMark(iterator, mark_owner, 0);  /* its trace is not kept */
  }
}

static void count_frames(ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame;
  int n = 0;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    n++;
  }
  *(int*)arg = ASGST_State(iterator) == ASGST_NO_FRAME ? n : 0;
}

/* The way TOP_FRAME: the first frame only, as a profiler that keeps the
   top method and nothing else would ask for it. Not inlined, so that a
   profile of the benchmark finds the way by its name (walk-profile.awk). */
static void first_frame(ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame;
  *(int*)arg = ASGST_NextFrame(iterator, &frame) == 1 ? 1 : 0;
}

__attribute__((noinline)) static int walk_top_frame(void* ucontext) {
  int frames = 0;
  return ASGST_RunWithIterator(ucontext, 0, first_frame, &frames) > 0 ? frames : 0;
}

/* The same for the way TOP_FRAME_WARM, by a name of its own (walk-profile.awk). */
__attribute__((noinline)) static int walk_top_frame_warm(void* ucontext) {
  int frames = 0;
  return ASGST_RunWithIterator(ucontext, 0, first_frame, &frames) > 0 ? frames : 0;
}

/* The way CALL_REFUSED: the interrupted frame's sp and fp without its pc, so
   that the walker, once it has found the thread and checked its state,
   refuses at once (ASGST_NO_TOP_JAVA_FRAME, counted as a sample): the cost of
   the call, the thread and the walker's making, without any frame. A thread
   that has an anchor (in a call into the VM) is walked from the anchor
   instead: such a sample counts as failed. */
static inline __attribute__((always_inline)) int refused_call(void* ucontext) {
  int frames = 0;
  const mcontext_t* m = &((const ucontext_t*)ucontext)->uc_mcontext;
#if defined(__x86_64__)
  void* sp = (void*)m->gregs[REG_RSP];
  void* fp = (void*)m->gregs[REG_RBP];
#elif defined(__aarch64__)
  void* sp = (void*)m->sp;
  void* fp = (void*)m->regs[29];
#else
#error "the benchmark reads sp and fp of x86_64 and aarch64 contexts only"
#endif
  return ASGST_RunWithIteratorFromFrame(sp, fp, NULL, 0, first_frame, &frames) == ASGST_NO_TOP_JAVA_FRAME ? 1 : 0;
}

__attribute__((noinline)) static int call_refused(void* ucontext) {
  return refused_call(ucontext);
}

/* The same for the way CALL_REFUSED_WARM, by a name of its own (walk-profile.awk). */
__attribute__((noinline)) static int call_refused_warm(void* ucontext) {
  return refused_call(ucontext);
}

/* One walk of the context; returns its frames, 0 if it failed. */
static int walk(int way, void* ucontext) {
  static AGCT_CallFrame agct_frames[MAX_FRAMES];
  static ASGST_CallFrame asgst_frames[MAX_FRAMES];
  int frames = 0;
  switch (way) {
    case AGCT:
      frames = asgst_agct_walk(async_get_call_trace, target_env, agct_frames, MAX_FRAMES, ucontext);
      return frames > 0 ? frames : 0;
    case ITERATOR:
      return ASGST_RunWithIterator(ucontext, 0, count_frames, &frames) > 0 ? frames : 0;
    case TOP_FRAME:
      return walk_top_frame(ucontext);
    case TOP_FRAME_WARM:
      return walk_top_frame_warm(ucontext);
    case ITERATOR_C_FRAMES:
      return ASGST_RunWithIterator(ucontext, ASGST_INCLUDE_NON_JAVA_FRAMES, count_frames, &frames) > 0 ? frames : 0;
    case ASYNC_GET_STACK_TRACE: {
      ASGST_CallTrace trace;
      memset(&trace, 0, sizeof(trace));
      trace.frames = asgst_frames;
      AsyncGetStackTrace(&trace, MAX_FRAMES, ucontext, 0);
      return trace.num_frames > 0 ? trace.num_frames : 0;
    }
    case TIMER:
      return 1;
    case CALL_REFUSED:
      return call_refused(ucontext);
    case CALL_REFUSED_WARM:
      return call_refused_warm(ucontext);
    case CHAINED_READS:
    case CHAINED_READS_WARM:
      return read_chained_lines();
    default:  /* ENQUEUE; MARKS goes to walk_marked */
      return ASGST_Enqueue(target_queue, ucontext, NULL) > 0 ? 1 : 0;
  }
}

/* With at_stack_offsets, the ways TOP_FRAME and CALL_REFUSED are made below
   16 amounts of unused stack in turn (STACK_OFFSET_STEP bytes apart, a page
   in all) and timed apart: each walk lies deeper or higher in the stack
   than the one before, as when samples interrupt a thread at varying
   depths, and finds stack that the signal before did not write. A way's
   own row then holds the samples of all 16. */
#define STACK_OFFSETS 16
#define STACK_OFFSET_STEP 256
static int at_stack_offsets;
static Samples by_offset[2][STACK_OFFSETS];  /* TOP_FRAME, CALL_REFUSED */
static unsigned next_offset[2];

__attribute__((noinline)) static void walk_below(int way, void* ucontext) {
  int row = way == TOP_FRAME ? 0 : 1;
  int offset = (int)(next_offset[row]++ % STACK_OFFSETS);
  volatile char* unused = __builtin_alloca((size_t)(offset * STACK_OFFSET_STEP + 16));
  int64_t start, ns;
  int frames;
  unused[0] = 0;  /* the allocation stays */
  start = now_ns();
  frames = walk(way, ucontext);
  ns = now_ns() - start;
  if (frames > 0) {
    add_sample(&by_offset[row][offset], ns, frames);
    add_sample(&samples[way], ns, frames);
  } else {
    by_offset[row][offset].failed++;
    samples[way].failed++;
  }
}

/* With stack_use, the untimed first signal of a turn of the ways up to
   ENQUEUE fills STACK_PAINT bytes of the stack below the handler with a
   pattern, walks, and finds how far down the walk wrote: the stack a way
   uses below the handler's frame, the most over the run's turns. */
#define STACK_PAINT 32768
#define STACK_PAINT_GAP 256  /* between this function's frame and the paint: memset's frame */
static int stack_use;
static int stack_bytes[ENQUEUE + 1];

__attribute__((noinline)) static void walk_on_painted_stack(int way, void* ucontext) {
  unsigned char* top = (unsigned char*)__builtin_frame_address(0) - STACK_PAINT_GAP;
  unsigned char* bottom = top - STACK_PAINT;
  unsigned char* p = bottom;
  memset(bottom, 0xa5, STACK_PAINT);  /* unused stack below this frame: the walk's callees will write it */
  __asm__ volatile("" ::: "memory");
  walk(way, ucontext);
  __asm__ volatile("" ::: "memory");
  while (p < top && *(volatile unsigned char*)p == 0xa5) {
    p++;
  }
  if (top - p + STACK_PAINT_GAP > stack_bytes[way]) {
    stack_bytes[way] = (int)(top - p) + STACK_PAINT_GAP;
  }
}

/* The way MARKS: the sample goes to its row by whether the walk reached the mark. */
__attribute__((noinline)) static void walk_marked(void* ucontext, int timed) {
  MarkedWalk result = { 0, 0 };
  int64_t start = now_ns();
  int64_t ns;
  ASGST_RunWithIterator(ucontext, 0, walk_to_mark, &result);
  ns = now_ns() - start;
  if (!timed) {
    return;
  }
  if (result.frames == 0) {
    samples[MARKS].failed++;
  } else {
    add_sample(result.reached ? &samples[MARKS] : &marking, ns, result.frames);
  }
}

/* Each way is made at WAY_TURN signals in a row, the first untimed, as a
   profiler makes its one way at every signal: a way finds the caches, the
   TLB and the stack below the handler as it left them at the signal before,
   not as the other ways left them (a way that goes deeper into the stack
   than the others would find those pages cold). */
#define WAY_TURN 16

/* Makes the way (timed: and times it) for one signal. */
static void make_way(int way, int timed, void* ucontext) {
  int frames;
  int64_t start;
  if (way == MARKS) {
    walk_marked(ucontext, timed);
  } else if (!timed) {
    if (stack_use && way <= ENQUEUE) {
      walk_on_painted_stack(way, ucontext);
    } else {
      walk(way, ucontext);
    }
  } else if (at_stack_offsets && (way == TOP_FRAME || way == CALL_REFUSED)) {
    walk_below(way, ucontext);
  } else {
    if (way == TOP_FRAME_WARM || way == CALL_REFUSED_WARM || way == CHAINED_READS_WARM) {
      walk(way, ucontext);  /* untimed: the timed one finds what it reads and runs in the caches */
    }
    start = now_ns();
    frames = walk(way, ucontext);
    if (frames > 0) {
      add_sample(&samples[way], now_ns() - start, frames);
    } else {
      samples[way].failed++;
    }
  }
}

static void on_signal(int signo, siginfo_t* info, void* ucontext) {
  unsigned taken;
  int way;
  (void)signo; (void)info;
  if (!sampling || syscall(SYS_gettid) != target_tid) {
    return;
  }
  taken = signals_taken++;
  way = (int)(taken / WAY_TURN % WAYS);
  if ((way == MARKS && mark_owner == 0) || samples[way].count + samples[way].failed >= samples_per_way) {
    return;
  }
  make_way(way, taken % WAY_TURN != 0, ucontext);
  read_chained_lines();  /* read by every signal, as the walker's memory is */
}

static int64_t processing_start;
static int processed_elements;
static int element_frames;  /* of the last element; 0: a walk of the processing failed */

static void on_processing_start(ASGST_Queue* queue, ASGST_Iterator* iterator, void* arg) {
  (void)queue; (void)iterator; (void)arg;
  processed_elements = 0;
  element_frames = 1;
  processing_start = now_ns();
}

/* A processing is timed from its start to its end, which includes finding
   each recorded frame, and its time is shared among its elements. A loop of
   compiled code polls the polling page, which a queue arms only at the
   thread's next sample while an element waits (doc/safepoint-queue.md, "The
   poll"): when ASGST_Enqueue comes at consecutive signals, each processing
   there walks two elements. */
static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  ASGST_Frame frame;
  int n = 0;
  (void)queue_arg; (void)element_arg;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    n++;
  }
  processed_elements++;
  element_frames = element_frames > 0 && ASGST_State(iterator) == ASGST_NO_FRAME ? n : 0;
}

static void on_processing_end(ASGST_Queue* queue, ASGST_Iterator* iterator, void* arg) {
  int64_t ns = now_ns() - processing_start;
  (void)queue; (void)iterator; (void)arg;
  if (processed_elements > 0 && element_frames > 0) {
    add_sample(&processing, ns / processed_elements, element_frames);
  } else if (processed_elements > 0) {
    processing.failed++;
  }
}

JNIEXPORT void JNICALL Java_SignalWalkBenchmark_prepare(JNIEnv* env, jclass cls) {
  static jvmtiFrameInfo frames[MAX_FRAMES];
  jint count = 0;
  struct sigaction action;
  (void)cls;
  (*jvmti)->GetStackTrace(jvmti, NULL, 0, MAX_FRAMES, frames, &count);  /* makes the jmethodIDs */
  target_env = env;
  target_queue = ASGST_RegisterQueue(env, 16, 0, on_element, NULL);
  if (mark_owner == 0 && (ASGST_Capabilities() & ASGST_MARK_FRAME) != 0) {
    mark_owner = ASGST_RegisterMarkOwner(1);
    mark_owner = mark_owner > 0 ? mark_owner : 0;
  }
  kept_count = 0;
  link_chained_lines();
  ASGST_SetOnQueueProcessingStart(target_queue, 0, false, on_processing_start, NULL);
  ASGST_SetOnQueueProcessingEnd(target_queue, 0, false, on_processing_end, NULL);
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPROF, &action, NULL);
  __atomic_store_n(&target_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
}

static int all_done(void) {
  int way;
  for (way = 0; way < WAYS; way++) {
    if (way == MARKS && mark_owner == 0) {
      continue;
    }
    if (samples[way].count + samples[way].failed < samples_per_way) {
      return 0;
    }
  }
  return 1;
}

static void* sample(void* arg) {
  struct timespec pause = { 0, interval_micros * 1000L };
  (void)arg;
  while (__atomic_load_n(&sampling, __ATOMIC_ACQUIRE) && !all_done()) {
    syscall(SYS_tgkill, getpid(), target_tid, SIGPROF);
    nanosleep(&pause, NULL);
  }
  __atomic_store_n(&sampling, 0, __ATOMIC_RELEASE);
  return NULL;
}

JNIEXPORT void JNICALL Java_SignalWalkBenchmark_timeAtStackOffsets(JNIEnv* env, jclass cls, jboolean on) {
  (void)env; (void)cls;
  at_stack_offsets = on;
}

JNIEXPORT void JNICALL Java_SignalWalkBenchmark_measureStackUse(JNIEnv* env, jclass cls, jboolean on) {
  (void)env; (void)cls;
  stack_use = on;
}

JNIEXPORT void JNICALL Java_SignalWalkBenchmark_startSampling(JNIEnv* env, jclass cls, jint interval, jint per_way) {
  (void)env; (void)cls;
  memset(samples, 0, sizeof(samples));
  memset(&processing, 0, sizeof(processing));
  memset(&marking, 0, sizeof(marking));
  memset(by_offset, 0, sizeof(by_offset));
  memset(stack_bytes, 0, sizeof(stack_bytes));
  samples_per_way = per_way < MAX_SAMPLES ? per_way : MAX_SAMPLES;
  interval_micros = interval;
  __atomic_store_n(&sampling, 1, __ATOMIC_RELEASE);
  pthread_create(&sampler, NULL, sample, NULL);
}

JNIEXPORT jboolean JNICALL Java_SignalWalkBenchmark_done(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  if (__atomic_load_n(&sampling, __ATOMIC_ACQUIRE)) {
    return JNI_FALSE;
  }
  pthread_join(sampler, NULL);
  return JNI_TRUE;
}

static int compare_longs(const void* a, const void* b) {
  int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return x < y ? -1 : x > y;
}

static int compare_ints(const void* a, const void* b) {
  int x = *(const int*)a, y = *(const int*)b;
  return x < y ? -1 : x > y;
}

/* Sorts s; its median ns, quartiles and median frames. */
static void summarize(Samples* s, int64_t* median, int64_t* p25, int64_t* p75, int* frames) {
  qsort(s->ns, (size_t)s->count, sizeof(int64_t), compare_longs);
  qsort(s->frames, (size_t)s->count, sizeof(int), compare_ints);
  *median = s->count > 0 ? s->ns[s->count / 2] : 0;
  *p25 = s->count > 0 ? s->ns[s->count / 4] : 0;
  *p75 = s->count > 0 ? s->ns[s->count * 3 / 4] : 0;
  *frames = s->count > 0 ? s->frames[s->count / 2] : 0;
}

static void print_row(const char* chain, int depth, const char* name, Samples* s, int64_t agct_median) {
  int64_t median, p25, p75;
  int frames;
  char spread[40];
  summarize(s, &median, &p25, &p75, &frames);
  snprintf(spread, sizeof(spread), "%lld-%lld", (long long)p25, (long long)p75);
  printf("%-14s %6d %-25s %7d %10lld %17s %7d %9.1f %8.2f\n", chain, depth, name, frames, (long long)median, spread,
         s->failed, frames > 0 ? (double)median / frames : 0.0,
         agct_median > 0 ? (double)median / (double)agct_median : 0.0);
}

JNIEXPORT void JNICALL Java_SignalWalkBenchmark_report(JNIEnv* env, jclass cls, jstring chain_name, jint depth) {
  const char* chain = (*env)->GetStringUTFChars(env, chain_name, NULL);
  int64_t agct_median, p25, p75;
  int frames, way;
  (void)cls;
  summarize(&samples[AGCT], &agct_median, &p25, &p75, &frames);
  for (way = 0; way < MARKS; way++) {
    print_row(chain, depth, names[way], &samples[way], agct_median);
  }
  print_row(chain, depth, "queue: walk at poll", &processing, agct_median);
  for (way = 0; at_stack_offsets && way < 2 * STACK_OFFSETS; way++) {
    char name[32];
    snprintf(name, sizeof(name), "%s, sp-%d", way < STACK_OFFSETS ? "top frame" : "refused",
             way % STACK_OFFSETS * STACK_OFFSET_STEP);
    print_row(chain, depth, name, &by_offset[way / STACK_OFFSETS][way % STACK_OFFSETS], agct_median);
  }
  for (way = 0; stack_use && way <= ENQUEUE; way++) {
    printf("# %s %d %s: %d bytes of stack below the handler's frame\n", chain, depth, names[way], stack_bytes[way]);
  }
  if (mark_owner != 0) {
    print_row(chain, depth, names[MARKS], &samples[MARKS], agct_median);
    print_row(chain, depth, "marks: full +mark", &marking, agct_median);
  }
  fflush(stdout);
  (*env)->ReleaseStringUTFChars(env, chain_name, chain);
  ASGST_DeregisterQueue(target_queue);  /* on another thread: freed at the target's end */
  target_queue = NULL;
  __atomic_store_n(&target_tid, 0, __ATOMIC_RELEASE);
}
