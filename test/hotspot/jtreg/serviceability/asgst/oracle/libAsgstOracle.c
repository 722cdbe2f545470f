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
 * The layered oracle's native side. Instrumented methods call TraceStack.enter
 * and exit, which keep a stack of method ids per OS thread here (the ground
 * truth). Three layers are checked against it:
 *   jvmti:       at every checkEvery-th enter of a thread, JVMTI GetStackTrace
 *                of the thread itself, reduced to traced methods, must equal
 *                the trace stack;
 *   safepoint:   at the same moment, an ASGST walk of the thread must equal
 *                GetStackTrace in every Java frame, method and bci (with
 *                ASGST_NOT_IN_SIGNAL_HANDLER, so a virtual thread's walk goes
 *                on into its frames frozen in the heap, as GetStackTrace's);
 *   signal, thread, queue: asynchronous ASGST walks, reduced to traced
 *                methods, against the trace stack of that moment: walked in
 *                the signal handler, walked from a sampler thread while the
 *                thread is halted, and walked at the next safepoint poll from
 *                an element enqueued in the signal handler (against the trace
 *                stack copied when it was enqueued).
 * An asynchronous walk may hold one traced frame more on top than the trace
 * stack: a method between its entry and its call of enter, or between its
 * call of exit and its return. Such walks count as matches "at the edge".
 * A walk interrupted in compiled code names the inlined scopes of its top
 * frame from the debug information of the next call or poll after the pc, an
 * approximation that the VM has no better information for: walks that differ
 * from the trace stack only there count as "top scopes", apart from other
 * mismatches; so do walks whose whole top compiled frame is at the edge (its
 * method has called exit but not returned, and the debug information after
 * the pc names inlined scopes of a later call, such as a cold path placed
 * after the method's return).
 * A method maps to its id at its first enter (JVMTI GetFrameLocation of the
 * caller), so walks identify traced frames by ASGST_Method alone.
 * Virtual threads: each has its own trace stack (JVMTI thread-local storage);
 * an OS thread's current trace stack is its own, or that of the virtual
 * thread it carries, switched in JVMTI's VirtualThreadMount and
 * VirtualThreadUnmount events. Between an unmount and the next mount (while
 * frames freeze or thaw) the carrier has no trace stack and walks are not
 * compared. A walk that ends at frames frozen in the heap (ASGST_FRAMES_IN_HEAP,
 * lazily thawed older frames of a remounted virtual thread) is compared with
 * the top of the trace stack ("partial"), and counted apart ("ended in
 * heap"): the signal and thread layers may not read the heap, but a queue
 * walk and a safepoint-layer walk read those frames (null sp and fp, below
 * the frames on the stack) down to Continuation.enter, and AsgstOracle
 * bounds how many of their walks end there. The traced frames from the heap
 * in walks found equal are counted too ("heap frames"), and the walks that
 * had them.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* dladdr */
#endif
#include <dlfcn.h>
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
#include <ucontext.h>
#include <unistd.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstAsyncGetCallTrace.h"
#include "../native/asgstTestSampling.h"
#include "../native/asgstTestSupport.h"

#define MAX_DEPTH 1024           /* deeper trace stacks are not compared */
#define MAX_WALK 1200
#define MAX_THREADS 256
#define MAX_IDS (1 << 18)
#define MAP_BITS 19
#define MAP_SIZE (1 << MAP_BITS)
#define QUEUE_SIZE 32
#define MAX_MISMATCHES 16
/* AsyncGetCallTrace's mismatches (a few hundred a run) may take only these
   of the slots: the rest are kept for ASGST's, which fail the test. */
#define MAX_AGCT_MISMATCHES 4
#define DETAIL_FRAMES 16
#define HALT_TIMEOUT_NANOS (20 * 1000 * 1000)
#define SIGNAL SIGPROF

typedef struct {
  volatile int depth;            /* may exceed MAX_DEPTH; only the first MAX_DEPTH ids are kept */
  volatile int last_exited;      /* the id that the last exit popped, -1 after an enter */
  int ids[MAX_DEPTH];            /* outermost first */
} Trace;

typedef struct {
  unsigned long sequence;        /* the enqueue that wrote it (its element's argument) */
  int depth;
  int last_exited;
  int ids[MAX_DEPTH];
  ASGST_QueueElement element;    /* what the signal handler recorded, for mismatch reports */
} Snapshot;

enum Request { NONE, WALK, ENQUEUE };

typedef struct {
  AsgstSampledThread sampled;
  JNIEnv* env;                        /* the thread's, for AsyncGetCallTrace */
  Trace* volatile* current;           /* the OS thread's current_trace */
  ASGST_Queue* volatile queue;
  Snapshot snapshots[QUEUE_SIZE];     /* the trace stacks of the queued elements */
  unsigned long next_snapshot;
  long enters;
} Entry;

/* The layers and their counters, in the order TraceStack.stop returns them. */
/* AGCT_WALK: AsyncGetCallTrace in the same signal handler as SIGNAL_WALK,
   on the same context, judged by the same rules: the baseline. */
enum Layer { JVMTI, SAFEPOINT, SIGNAL_WALK, THREAD_WALK, QUEUE_WALK, AGCT_WALK, LAYERS };
/* BAD_CALLER_BCI counts the mismatches (also in MISMATCH) whose methods were
   right but a traced caller of a traced frame stood at a bci that holds no
   invoke instruction. INCOMPLETE: walks that began and ended with an error;
   REFUSED: walks refused at the start (a thread in a collection, or outside
   Java without a walkable anchor). IN_HEAP_END: walks that ended with
   ASGST_FRAMES_IN_HEAP, compared (PARTIAL) or not (INCOMPLETE, no traced
   frame). HEAP_FRAMES: traced frames from the heap (null sp and fp) that
   were found equal to the trace stack; HEAP_WALKS: the walks that had them. */
enum Counter { COMPARED, EQUAL, AT_EDGE, MISMATCH, EMPTY, INCOMPLETE, TOO_DEEP, LOST, TOP_SCOPES, PARTIAL,
               UNMOUNTED, BAD_CALLER_BCI, REFUSED, IN_HEAP_END, HEAP_FRAMES, HEAP_WALKS, COUNTERS };

static AsyncGetCallTraceFunction async_get_call_trace;
static volatile long counters[LAYERS][COUNTERS];

static jvmtiEnv* jvmti;
static Entry entries[MAX_THREADS];
static __thread Entry* own_entry;
static __thread Trace own_trace;
/* &own_trace, the trace stack of the mounted virtual thread, or null between
   an unmount and a mount; set to &own_trace at a platform thread's first enter. */
static __thread Trace* volatile current_trace;

/* ASGST_Method -> id (open addressing; written by enter, read anywhere) and id -> method.
   The map also holds each traced method's jmethodID as a key (jmethodIDs and
   ASGST_Methods never coincide): the AsyncGetCallTrace layer names frames by
   jmethodID in signal handlers, where ASGST_JMethodIDToMethod may not be called. */
static ASGST_Method volatile map_keys[MAP_SIZE];
static volatile int map_ids[MAP_SIZE];
static ASGST_Method volatile id_methods[MAX_IDS];
/* Per traced method, by id: a byte per bci, 1 where an invoke instruction
   starts (from JVMTI GetBytecodes at the method's first enter), and the
   code's length. A traced method called by a traced method is called by an
   invoke: its caller's bci must be one. */
static const unsigned char* volatile invoke_maps[MAX_IDS];
static int code_lengths[MAX_IDS];
static int enter_bcis[MAX_IDS];  /* its first invoke: the call of TraceStack.enter */

static volatile int sampling, check_every;
/* Whether the collector lets signal and halted-thread walks read a virtual
   thread's frames in the heap (Serial, Parallel, G1, Epsilon: it moves
   objects only at safepoints; doc/stack-walking.md), as the test knows it
   from the collector's name. */
static volatile int heap_readable;
static long interval_micros = 100;
static pthread_t samplers[2];
static int samplers_started;

static char mismatch_text[MAX_MISMATCHES][4096];
static volatile int mismatch_count;
static volatile int agct_mismatch_count;
static __thread int own_last_mismatch;  /* the index record_mismatch gave this thread's last one */
static uintptr_t jvm_base;              /* where libjvm is mapped: C frames' pcs are shown relative to it */
static uintptr_t oracle_base;           /* and where this library is */

/* Generated code other than Java methods (the interpreter, stubs, adapters),
   from JVMTI's DynamicCodeGenerated events: names for pcs in mismatch
   reports. Written under code_blob_lock, read without it up to the count. */
#define MAX_CODE_BLOBS 8192
typedef struct {
  uintptr_t begin;
  uintptr_t end;
  char name[48];
} CodeBlobName;
static CodeBlobName code_blobs[MAX_CODE_BLOBS];
static volatile int code_blob_count;
static volatile int code_blob_lock;

static void add(volatile long* counter, long value) {
  __atomic_fetch_add(counter, value, __ATOMIC_RELAXED);
}

static unsigned slot_of(ASGST_Method method) {
  return (unsigned)((((uintptr_t)method >> 3) * 0x9E3779B97F4A7C15ULL) >> (64 - MAP_BITS));
}

static int id_of(ASGST_Method method) {
  unsigned i, slot = slot_of(method);
  for (i = 0; i < MAP_SIZE; i++, slot = (slot + 1) & (MAP_SIZE - 1)) {
    ASGST_Method key = __atomic_load_n(&map_keys[slot], __ATOMIC_ACQUIRE);
    if (key == method) {
      return map_ids[slot];
    }
    if (key == NULL) {
      return -1;
    }
  }
  return -1;
}

/* One writer at a time (each method is inserted once), so a slot's id is
   written before its key publishes it; readers take no lock. */
static volatile int map_lock;

static void map_insert(ASGST_Method method, int id) {
  unsigned i, slot = slot_of(method);
  while (__atomic_exchange_n(&map_lock, 1, __ATOMIC_ACQUIRE)) {
    sched_yield();
  }
  for (i = 0; i < MAP_SIZE; i++, slot = (slot + 1) & (MAP_SIZE - 1)) {
    if (map_keys[slot] == method) {
      break;
    }
    if (map_keys[slot] == NULL) {
      map_ids[slot] = id;
      __atomic_store_n(&map_keys[slot], method, __ATOMIC_RELEASE);
      break;
    }
  }
  __atomic_store_n(&map_lock, 0, __ATOMIC_RELEASE);
}

/* The length of the instruction at code[bci], 0 if malformed (JVMS 6.5). */
static int instruction_length(const unsigned char* code, int length, int bci) {
  static const signed char lengths[202] = {
    /*   0 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 2, 3,
    /*  20 */ 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /*  40 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 1,
    /*  60 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /*  80 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 100 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 120 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1,
    /* 140 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3,
    /* 160 */ 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 0, 0, 1, 1, 1, 1, 1, 1, 3, 3,
    /* 180 */ 3, 3, 3, 3, 3, 5, 5, 3, 2, 3, 1, 1, 3, 3, 1, 1, 0, 4, 3, 3,
    /* 200 */ 5, 5
  };
  int op = code[bci];
  if (op == 170 || op == 171) {  /* tableswitch, lookupswitch: padded to 4 bytes */
    int base = (bci + 4) & ~3;
    if (base + 12 > length) {
      return 0;
    }
    #define S32(at) ((int)((unsigned)code[at] << 24 | (unsigned)code[(at) + 1] << 16 | \
                           (unsigned)code[(at) + 2] << 8 | (unsigned)code[(at) + 3]))
    if (op == 170) {
      long entries = (long)S32(base + 8) - S32(base + 4) + 1;
      return entries < 0 || entries > length ? 0 : (int)(base + 12 + 4 * entries - bci);
    } else {
      long pairs = S32(base + 4);
      return pairs < 0 || pairs > length ? 0 : (int)(base + 8 + 8 * pairs - bci);
    }
    #undef S32
  }
  if (op == 196) {  /* wide */
    return bci + 1 < length && code[bci + 1] == 132 ? 6 : 4;
  }
  return op < 202 ? lengths[op] : 0;
}

/* Builds the invoke map of a traced method (see invoke_maps). */
static void map_invokes(int id, jmethodID method) {
  jint length = 0;
  unsigned char* code = NULL;
  unsigned char* map;
  int bci, size;
  if ((*jvmti)->GetBytecodes(jvmti, method, &length, &code) != JVMTI_ERROR_NONE) {
    return;
  }
  map = (unsigned char*)calloc((size_t)length + 1, 1);
  for (bci = 0; map != NULL && bci < length; bci += size) {
    size = instruction_length(code, length, bci);
    if (size <= 0) {
      free(map);  /* not understood: this method's callers go unchecked */
      map = NULL;
      break;
    }
    map[bci] = code[bci] >= 182 && code[bci] <= 186;  /* invokevirtual .. invokedynamic */
  }
  (*jvmti)->Deallocate(jvmti, code);
  if (map != NULL) {
    code_lengths[id] = length;
    for (bci = 0; bci < length && !map[bci]; bci++) {
    }
    enter_bcis[id] = bci;
    __atomic_store_n(&invoke_maps[id], map, __ATOMIC_RELEASE);
  }
}

/* Maps the caller of TraceStack.enter, the traced method, to id. */
static void register_method(int id) {
  jmethodID caller;
  jlocation location;
  ASGST_Method method;
  if ((*jvmti)->GetFrameLocation(jvmti, NULL, 1, &caller, &location) != JVMTI_ERROR_NONE) {
    return;
  }
  method = ASGST_JMethodIDToMethod(caller);
  if (method != NULL) {
    map_invokes(id, caller);
    map_insert(method, id);
    map_insert((ASGST_Method)(void*)caller, id);
    __atomic_store_n(&id_methods[id], method, __ATOMIC_RELEASE);
  }
}

/* Whether a walk's extra traced frame on top, of method id at bci, is at the
   edge of the trace stack: it is the method whose exit the trace stack
   popped last (and nothing entered since), or it stands before or at its
   call of enter. */
static int at_edge(int id, int bci, int last_exited) {
  const unsigned char* map = __atomic_load_n(&invoke_maps[id], __ATOMIC_ACQUIRE);
  return id == last_exited || (map != NULL && bci <= enter_bcis[id]);
}

/* Whether a traced caller with this id at bci stands at an invoke; true where
   its invokes are not known. */
static int at_invoke(int id, int bci) {
  const unsigned char* map = __atomic_load_n(&invoke_maps[id], __ATOMIC_ACQUIRE);
  return map == NULL || (bci >= 0 && bci < code_lengths[id] && map[bci]);
}

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg);

static Entry* register_thread(JNIEnv* env) {
  Entry* entry = (Entry*)asgst_sampled_claim(entries, sizeof(Entry), MAX_THREADS);
  if (entry != NULL) {
    entry->env = env;
    entry->current = &current_trace;
    entry->next_snapshot = 0;
    entry->enters = 0;
    entry->queue = ASGST_RegisterQueue(env, QUEUE_SIZE, 0, on_element, entry);
    own_entry = entry;
    asgst_sampled_publish(&entry->sampled);
  }
  return entry;
}

/* Records a mismatch: the walk's traced ids (innermost first), the trace stack,
   and what the walk said of its top frames, if known. */
static void record_mismatch(int layer, const int* walk, int walk_count, const int* trace, int depth,
                            const char* detail) {
  int i, index;
  size_t used = 0, size = sizeof(mismatch_text[0]);
  char* text;
  if (layer == AGCT_WALK && __atomic_fetch_add(&agct_mismatch_count, 1, __ATOMIC_RELAXED) >= MAX_AGCT_MISMATCHES) {
    return;
  }
  index = __atomic_fetch_add(&mismatch_count, 1, __ATOMIC_RELAXED);
  if (index >= MAX_MISMATCHES) {
    return;
  }
  own_last_mismatch = index;
  text = mismatch_text[index];
  used += (size_t)snprintf(text, size, "%d", layer);
  for (i = 0; i < walk_count && used + 16 < size; i++) {
    used += (size_t)snprintf(text + used, size - used, " %d", walk[i]);
  }
  used += (size_t)snprintf(text + used, size - used, " |");
  for (i = depth - 1; i >= 0 && used + 16 < size; i--) {
    used += (size_t)snprintf(text + used, size - used, " %d", trace[i]);
  }
  if (detail != NULL && used < size) {
    snprintf(text + used, size - used, " || %s", detail);
  }
}

/* Whether walk[0..count) (innermost first) is trace[from..from + count) (outermost first). */
static int same_frames(const int* walk, int count, const int* trace, int from) {
  int i;
  for (i = 0; i < count; i++) {
    if (walk[i] != trace[from + count - 1 - i]) {
      return 0;
    }
  }
  return 1;
}

/*
 * Compares traced ids of a walk (innermost first) with a trace stack
 * (outermost first) and counts the outcome for layer. top_at_edge: the walk's
 * top traced frame is at the edge of the trace stack (at_edge), so the walk
 * may have one more frame on top. partial: the walk ended at frames in the
 * heap, so it shows only the top of the stack. misplaced_heap_frame: why a
 * frame from the heap is where none may be (see walk_traced), or null.
 * Returns how many of the walk's top ids were not held to the trace stack
 * (0 equal, 1 at the edge, the top frame's scopes), or -1 if the walk was not
 * found equal.
 */
static int compare(int layer, const int* walk, int walk_count, int top_compiled, int top_scopes, int top_outer_traced,
                   const int* trace, int depth, int edge_allowed, int top_at_edge, int partial, int bad_caller_bci,
                   const char* misplaced_heap_frame, const char* detail) {
  int bottom, last_bottom;
  if (depth > MAX_DEPTH || walk_count >= MAX_WALK) {
    add(&counters[layer][TOO_DEEP], 1);
    return -1;
  }
  add(&counters[layer][COMPARED], 1);
  if (partial) {
    add(&counters[layer][PARTIAL], 1);
  }
  if (depth == 0 && walk_count == 0) {
    add(&counters[layer][EMPTY], 1);
    return -1;
  }
  if (bad_caller_bci >= 0 || misplaced_heap_frame != NULL) {
    char text[1200];
    if (bad_caller_bci >= 0) {
      snprintf(text, sizeof(text), "caller of traced frame %d at a bci without invoke; %s", bad_caller_bci,
               detail != NULL ? detail : "");
      add(&counters[layer][BAD_CALLER_BCI], 1);
    } else {
      snprintf(text, sizeof(text), "%s; %s", misplaced_heap_frame, detail != NULL ? detail : "");
    }
    add(&counters[layer][MISMATCH], 1);
    record_mismatch(layer, walk, walk_count, trace, depth, text);
    return -1;
  }
  /* The walk's lowest traced frame stands for trace[0], or, if partial, for any
     trace[bottom] that leaves the walk's frames on top of the trace stack. */
  bottom = partial ? depth - walk_count : 0;
  if (bottom >= 0 && walk_count == depth - bottom && same_frames(walk, walk_count, trace, bottom)) {
    add(&counters[layer][EQUAL], 1);
    return 0;
  }
  bottom = partial ? depth - (walk_count - 1) : 0;
  if (edge_allowed && top_at_edge && walk_count >= 1 && bottom >= 0 && walk_count - 1 == depth - bottom &&
      same_frames(walk + 1, walk_count - 1, trace, bottom)) {
    add(&counters[layer][AT_EDGE], 1);
    return 1;
  }
  if (top_compiled) {
    /* Below the top compiled frame's scopes the walk must equal the trace stack,
       and the top frame's own method (its outermost scope) must come next. If
       that method is not traced (generated script classes), the traced frames
       above the rest may all be its inlined scopes; the walk must then show
       at least one traced inlined scope (the evidence that its scopes came
       from a record of inlined code). A partial walk's rest may begin at any
       depth, as the number of scopes it stands for is not known. */
    int rest = walk_count - top_scopes;
    last_bottom = partial ? depth - rest : 0;
    for (bottom = 0; rest >= 0 && bottom <= last_bottom; bottom++) {
      int above = bottom + rest;  /* trace[above] is the top frame's own method */
      int equal = (top_outer_traced ? depth >= above + 1 && trace[above] == walk[top_scopes - 1]
                                    : depth >= above && top_scopes > 0) &&
                  same_frames(walk + top_scopes, rest, trace, bottom);
      /* At the edge as well: the whole top frame is a method between its exit
         and its return, whose scopes came from the next debug information. */
      if (equal || (edge_allowed && above == depth && same_frames(walk + top_scopes, rest, trace, bottom))) {
        add(&counters[layer][TOP_SCOPES], 1);
        return top_scopes;
      }
    }
  }
  add(&counters[layer][MISMATCH], 1);
  record_mismatch(layer, walk, walk_count, trace, depth, detail);
  return -1;
}

typedef struct {
  int layer;
  int count;
  int top_compiled; /* whether the top Java frame is compiled */
  int top_scopes;   /* traced ids from the top physical frame, if compiled (else 0) */
  int top_outer_traced;  /* whether that frame's own method is traced */
  int in_heap;      /* whether the walk ended at frames in the heap */
  int read_heap;    /* whether it reported frames from the heap (null sp) */
  int frames;       /* frames described in detail */
  int ids[MAX_WALK];
  const int* trace;
  int depth;
  int last_exited;
  char detail[1024];  /* the top frames as name/type/comp_level/bci, for mismatch reports */
  void* frame_sp[DETAIL_FRAMES];  /* and where they stand */
  void* frame_fp[DETAIL_FRAMES];
} Walk;


/* Iterator handler: the traced frames of a walk, then the comparison.
   Frames from the heap (null sp) are held to the trace stack as frames on
   the stack are, method and caller bci alike, and must be where the contract
   puts them: in queue walks, and in signal and halted-thread walks where the
   collector allows it (heap_readable); below the first frame and every frame
   on the stack, with a null fp too (a frame on the stack may lack fp:
   compiled code keeps no frame pointer). */
static void walk_traced(ASGST_Iterator* iterator, void* arg) {
  Walk* walk = (Walk*)arg;
  ASGST_Frame frame;
  int in_top_frame = 1, top_compiled = 0, top_scopes = 0, top_outer_traced = 0, frames = 0, end, matched;
  int younger_traced = 0, bad_caller_bci = -1;  /* whether the younger Java frame is traced */
  int top_traced_bci = -1;
  int in_heap = 0, first_heap_id = -1;  /* first_heap_id: index in ids */
  const char* misplaced_heap_frame = NULL;
  size_t used = 0;
  walk->count = 0;
  walk->frames = 0;
  walk->detail[0] = '\0';
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (frames < DETAIL_FRAMES) {
      asgst_test_describe_frame(walk->detail, sizeof(walk->detail), &used, &frame);
      walk->frame_sp[frames] = frame.sp;
      walk->frame_fp[frames] = frame.fp;
    }
    frames++;
    int id = frame.method == NULL ? -1 : id_of(frame.method);
    if (id >= 0 && walk->count < MAX_WALK) {
      if (walk->count == 0) {
        top_traced_bci = frame.bci;
      }
      walk->ids[walk->count++] = id;
    }
    if (frame.method != NULL) {
      if (younger_traced && id >= 0 && bad_caller_bci < 0 && !at_invoke(id, frame.bci)) {
        bad_caller_bci = walk->count - 1;
      }
      younger_traced = id >= 0;
      if (frame.sp == NULL) {
        if (misplaced_heap_frame == NULL) {
          misplaced_heap_frame = walk->layer != QUEUE_WALK && !heap_readable
                                     ? "a frame from the heap (null sp) in a walk that may not read it"
                                 : frames == 1 ? "the top frame from the heap (null sp)"
                                 : frame.fp != NULL ? "a frame with null sp, but an fp" : NULL;
        }
        if (id >= 0 && first_heap_id < 0) {
          first_heap_id = walk->count - 1;
        }
        in_heap = 1;
      } else if (in_heap && misplaced_heap_frame == NULL) {
        misplaced_heap_frame = "a frame on the stack below a frame from the heap (null sp)";
      }
    }
    if (in_top_frame && frame.method != NULL) {
      /* The top Java frame's scopes: inlined ones first, then its own method. */
      top_compiled = frame.comp_level > 0;
      top_scopes = walk->count;
      in_top_frame = frame.type == ASGST_FRAME_JAVA_INLINED;
      top_outer_traced = id >= 0;
    }
  }
  walk->frames = frames < DETAIL_FRAMES ? frames : DETAIL_FRAMES;
  walk->top_compiled = top_compiled;
  walk->top_scopes = top_scopes;
  walk->top_outer_traced = top_outer_traced;
  end = ASGST_State(iterator);
  walk->in_heap = end == ASGST_FRAMES_IN_HEAP;
  walk->read_heap = in_heap;
  if (walk->in_heap) {
    add(&counters[walk->layer][IN_HEAP_END], 1);
  }
  /* A walk that ended at frames in the heap without a traced frame shows
     nothing to compare: incomplete, not equal. */
  if ((end != ASGST_NO_FRAME && end != ASGST_FRAMES_IN_HEAP) ||
      (end == ASGST_FRAMES_IN_HEAP && walk->count == 0)) {
    add(&counters[walk->layer][INCOMPLETE], 1);
    return;
  }
  matched = compare(walk->layer, walk->ids, walk->count, top_compiled, top_scopes, top_outer_traced, walk->trace,
                    walk->depth, 1, walk->count > 0 && at_edge(walk->ids[0], top_traced_bci, walk->last_exited),
                    end == ASGST_FRAMES_IN_HEAP, bad_caller_bci, misplaced_heap_frame, walk->detail);
  /* The traced frames from the heap that the comparison held to the trace
     stack: all below the first, as none is on the stack below it. */
  if (matched >= 0 && first_heap_id >= 0) {
    add(&counters[walk->layer][HEAP_FRAMES], walk->count - (first_heap_id > matched ? first_heap_id : matched));
    add(&counters[walk->layer][HEAP_WALKS], 1);
  }
}

/* AsyncGetCallTrace on the context that the signal walk just walked, judged
   like it. Its frames carry no compilation level: the inlined scopes of the
   top frame that the comparison tolerates are those that the signal walk
   found in the same context; and where that walk ended at a virtual thread's
   frames in the heap or read them, AsyncGetCallTrace's walk (which never
   reads them) is compared with the top of the trace stack only. */
static void walk_with_agct(const Walk* signal_walk, const Trace* trace, void* ucontext) {
  static __thread AGCT_CallFrame frames[MAX_WALK];
  static __thread int ids[MAX_WALK];
  jint agct_frames;
  int i, count = 0, younger_traced = 0, bad_caller_bci = -1, top_traced_bci = -1;
  if (async_get_call_trace == NULL || own_entry == NULL) {
    return;
  }
  agct_frames = asgst_agct_walk(async_get_call_trace, own_entry->env, frames, MAX_WALK, ucontext);
  if (agct_frames <= 0) {
    add(&counters[AGCT_WALK][INCOMPLETE], 1);
    return;
  }
  for (i = 0; i < agct_frames; i++) {
    int id = frames[i].method_id == NULL ? -1 : id_of((ASGST_Method)(void*)frames[i].method_id);
    if (id >= 0) {
      if (count == 0) {
        top_traced_bci = frames[i].lineno;
      }
      ids[count++] = id;
      if (younger_traced && bad_caller_bci < 0 && !at_invoke(id, frames[i].lineno)) {
        bad_caller_bci = count - 1;
      }
    }
    younger_traced = id >= 0;
  }
  if (agct_frames >= MAX_WALK) {
    add(&counters[AGCT_WALK][TOO_DEEP], 1);
    return;
  }
  compare(AGCT_WALK, ids, count, signal_walk->top_compiled, signal_walk->top_scopes, signal_walk->top_outer_traced,
          trace->ids, trace->depth, 1, count > 0 && at_edge(ids[0], top_traced_bci, signal_walk->last_exited),
          signal_walk->in_heap || signal_walk->read_heap, bad_caller_bci, NULL, NULL);
}

typedef struct {
  char* text;
  size_t size;
  size_t used;
  int frames;
} ContextText;

static void describe_pc(ContextText* c, const void* pc) {
  uintptr_t offset = (uintptr_t)pc - jvm_base;
  uintptr_t own_offset = (uintptr_t)pc - oracle_base;
  int i, count = __atomic_load_n(&code_blob_count, __ATOMIC_ACQUIRE);
  if (c->used >= c->size) {
    return;
  }
  if (jvm_base != 0 && offset < ((uintptr_t)1 << 28)) {
    c->used += (size_t)snprintf(c->text + c->used, c->size - c->used, "jvm+0x%lx", (unsigned long)offset);
    return;
  }
  if (oracle_base != 0 && own_offset < ((uintptr_t)1 << 20)) {
    c->used += (size_t)snprintf(c->text + c->used, c->size - c->used, "libAsgstOracle+0x%lx",
                                (unsigned long)own_offset);
    return;
  }
  for (i = count - 1; i >= 0; i--) {
    if ((uintptr_t)pc >= code_blobs[i].begin && (uintptr_t)pc < code_blobs[i].end) {
      c->used += (size_t)snprintf(c->text + c->used, c->size - c->used, "%p(%s+0x%lx)", pc, code_blobs[i].name,
                                  (unsigned long)((uintptr_t)pc - code_blobs[i].begin));
      return;
    }
  }
  c->used += (size_t)snprintf(c->text + c->used, c->size - c->used, "%p", pc);
}

static void JNICALL on_dynamic_code_generated(jvmtiEnv* env, const char* name, const void* address, jint length) {
  int i;
  (void)env;
  while (__atomic_exchange_n(&code_blob_lock, 1, __ATOMIC_ACQUIRE)) {
    sched_yield();
  }
  i = code_blob_count;
  if (i < MAX_CODE_BLOBS) {
    code_blobs[i].begin = (uintptr_t)address;
    code_blobs[i].end = (uintptr_t)address + (uintptr_t)length;
    snprintf(code_blobs[i].name, sizeof(code_blobs[i].name), "%s", name);
    __atomic_store_n(&code_blob_count, i + 1, __ATOMIC_RELEASE);
  }
  __atomic_store_n(&code_blob_lock, 0, __ATOMIC_RELEASE);
}

/* Iterator handler: the frames of a walk with C frames, with their pcs. */
static void describe_with_c_frames(ASGST_Iterator* iterator, void* arg) {
  ContextText* c = (ContextText*)arg;
  ASGST_Frame frame;
  while (c->frames < DETAIL_FRAMES && ASGST_NextFrame(iterator, &frame) == 1) {
    c->frames++;
    if (frame.type != ASGST_FRAME_NON_JAVA) {
      size_t before = c->used;
      asgst_test_describe_frame(c->text, c->size, &c->used, &frame);
      if (c->used > before && c->used < c->size) {
        c->used--;  /* the sp and fp of Java frames too, to see the distances */
        c->used += (size_t)snprintf(c->text + c->used, c->size - c->used, "/sp=%p/fp=%p ", frame.sp, frame.fp);
      }
    } else if (c->used < c->size) {
      c->used += (size_t)snprintf(c->text + c->used, c->size - c->used, "C@");
      describe_pc(c, frame.pc);
      if (c->used < c->size) {
        c->used += (size_t)snprintf(c->text + c->used, c->size - c->used, "/sp=%p/fp=%p ", frame.sp, frame.fp);
      }
    }
  }
}

/* The words just above the interrupted sp, where the top frames keep their
   return addresses and frame pointers: what a wrong step read is then in the
   report (and on aarch64 the instructions around pc). The thread was
   interrupted in Java code with Java frames above, so these words are its
   stack's. */
#define STACK_WORDS 32
#define CODE_WORDS 12
static void describe_stack_words(ContextText* c, void* ucontext) {
  ucontext_t* uc = (ucontext_t*)ucontext;
  const uintptr_t* sp;
  int i;
#if defined(__x86_64__)
  sp = (const uintptr_t*)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
  sp = (const uintptr_t*)uc->uc_mcontext.sp;
#else
  (void)uc;
  return;
#endif
  if (sp == NULL || ((uintptr_t)sp & (sizeof(uintptr_t) - 1)) != 0 || c->used >= c->size) {
    return;
  }
  c->used += (size_t)snprintf(c->text + c->used, c->size - c->used, "; stack from sp:");
  for (i = 0; i < STACK_WORDS && c->used < c->size; i++) {
    c->used += (size_t)snprintf(c->text + c->used, c->size - c->used, " %lx", (unsigned long)sp[i]);
  }
#if defined(__aarch64__)
  {
    /* The instructions around pc, within pc's page (mapped: the thread ran there). */
    const uint32_t* pc = (const uint32_t*)uc->uc_mcontext.pc;
    uintptr_t page = (uintptr_t)pc & ~(uintptr_t)4095;
    if (((uintptr_t)pc & 3) == 0 && c->used < c->size) {
      c->used += (size_t)snprintf(c->text + c->used, c->size - c->used, "; code from pc-%d:", 4 * CODE_WORDS);
      for (i = -CODE_WORDS; i < CODE_WORDS && c->used < c->size; i++) {
        uintptr_t address = (uintptr_t)(pc + i);
        if ((address & ~(uintptr_t)4095) == page) {
          c->used += (size_t)snprintf(c->text + c->used, c->size - c->used, i == 0 ? " | %08x" : " %08x", pc[i]);
        }
      }
    }
  }
#endif
}

/* Adds to a signal walk's or halted thread's mismatch where the thread was
   interrupted and what a walk with C frames shows from there (which C
   function, which frames). tid: the halted thread, or 0 for the own one. */
static void describe_context(int index, void* ucontext, pid_t tid) {
  ucontext_t* uc = (ucontext_t*)ucontext;
  ContextText c;
  c.text = mismatch_text[index];
  c.size = sizeof(mismatch_text[0]);
  c.used = strlen(c.text);
  c.frames = 0;
  if (c.used + 64 >= c.size) {
    return;
  }
#if defined(__x86_64__)
  c.used += (size_t)snprintf(c.text + c.used, c.size - c.used, "; interrupted at ");
  describe_pc(&c, (void*)uc->uc_mcontext.gregs[REG_RIP]);
  c.used += (size_t)snprintf(c.text + c.used, c.size - c.used, " sp=%p fp=%p",
                             (void*)uc->uc_mcontext.gregs[REG_RSP], (void*)uc->uc_mcontext.gregs[REG_RBP]);
#elif defined(__aarch64__)
  c.used += (size_t)snprintf(c.text + c.used, c.size - c.used, "; interrupted at ");
  describe_pc(&c, (void*)uc->uc_mcontext.pc);
  if (c.used < c.size) {
    c.used += (size_t)snprintf(c.text + c.used, c.size - c.used, " sp=%p fp=%p lr=", (void*)uc->uc_mcontext.sp,
                               (void*)uc->uc_mcontext.regs[29]);
  }
  /* The return address in a prologue, an epilogue or a leaf (perhaps signed). */
  describe_pc(&c, (void*)uc->uc_mcontext.regs[30]);
#else
  (void)uc;
#endif
  describe_stack_words(&c, ucontext);
  if (c.used < c.size) {
    c.used += (size_t)snprintf(c.text + c.used, c.size - c.used, "; with C frames: ");
  }
  if (tid == 0) {
    ASGST_RunWithIterator(ucontext, ASGST_INCLUDE_NON_JAVA_FRAMES, describe_with_c_frames, &c);
  } else {
    ASGST_RunWithIteratorOfThread(tid, ucontext, ASGST_INCLUDE_NON_JAVA_FRAMES, describe_with_c_frames, &c);
  }
}

/* Adds to a queue walk's mismatch what the element recorded and where the
   walk's frames stood at the poll: whether the walk began at the recorded
   frame or at one that took its place. */
static void describe_element(int index, const ASGST_QueueElement* element, const Walk* walk) {
  ContextText c;
  int i;
  c.text = mismatch_text[index];
  c.size = sizeof(mismatch_text[0]);
  c.used = strlen(c.text);
  if (c.used + 64 >= c.size) {
    return;
  }
  c.used += (size_t)snprintf(c.text + c.used, c.size - c.used, "; element pc=");
  describe_pc(&c, element->pc);
  if (c.used < c.size) {
    c.used += (size_t)snprintf(c.text + c.used, c.size - c.used, " sp=%p fp=%p bcp=%p; frames at",
                               element->sp, element->fp, element->bcp);
  }
  for (i = 0; i < walk->frames && c.used < c.size; i++) {
    c.used += (size_t)snprintf(c.text + c.used, c.size - c.used, " %p/%p", walk->frame_sp[i], walk->frame_fp[i]);
  }
}

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  Entry* entry = (Entry*)queue_arg;
  unsigned long sequence = (unsigned long)(uintptr_t)element_arg;
  Snapshot* snapshot = &entry->snapshots[sequence % QUEUE_SIZE];
  Walk walk;
  if (snapshot->sequence != sequence) {
    add(&counters[QUEUE_WALK][LOST], 1);  /* overwritten by a later enqueue: nothing to compare with */
    return;
  }
  walk.layer = QUEUE_WALK;
  walk.trace = snapshot->ids;
  walk.depth = snapshot->depth;
  walk.last_exited = snapshot->last_exited;
  own_last_mismatch = -1;
  walk_traced(iterator, &walk);
  if (own_last_mismatch >= 0) {
    describe_element(own_last_mismatch, &snapshot->element, &walk);
  }
}

static void on_signal(int signo, siginfo_t* siginfo, void* ucontext) {
  Entry* entry = own_entry;
  int saved_errno = errno;
  /* The handler may interrupt this thread's queue handler between its walk
     and the description of that walk's mismatch: keep its index for it. */
  int saved_last_mismatch = own_last_mismatch;
  (void)signo; (void)siginfo;
  if (entry == NULL) {
    return;
  }
  switch (asgst_sampled_take_request(&entry->sampled)) {
    case WALK: {
      static __thread Walk walk;  /* large: not on the signal stack */
      Trace* trace = current_trace;
      if (trace == NULL) {
        add(&counters[SIGNAL_WALK][UNMOUNTED], 1);
        break;
      }
      walk.layer = SIGNAL_WALK;
      walk.trace = trace->ids;
      walk.depth = trace->depth;
      walk.last_exited = trace->last_exited;
      own_last_mismatch = -1;
      if (ASGST_RunWithIterator(ucontext, 0, walk_traced, &walk) < 0) {
        add(&counters[SIGNAL_WALK][REFUSED], 1);
        walk.top_compiled = walk.top_scopes = walk.top_outer_traced = walk.in_heap = walk.read_heap = 0;
      } else if (own_last_mismatch >= 0) {
        describe_context(own_last_mismatch, ucontext, 0);
      }
      walk_with_agct(&walk, trace, ucontext);
      break;
    }
    case ENQUEUE: {
      /* The element's argument is the sequence number of its snapshot. */
      unsigned long n = entry->next_snapshot;
      Snapshot* snapshot = &entry->snapshots[n % QUEUE_SIZE];
      Trace* trace = current_trace;
      int depth;
      if (trace == NULL) {
        add(&counters[QUEUE_WALK][UNMOUNTED], 1);
        break;
      }
      depth = trace->depth;
      if (entry->queue != NULL) {
        snapshot->sequence = n;
        snapshot->depth = depth;
        snapshot->last_exited = trace->last_exited;
        memcpy(snapshot->ids, trace->ids, sizeof(int) * (size_t)(depth < MAX_DEPTH ? depth : MAX_DEPTH));
        if (ASGST_Enqueue(entry->queue, ucontext, (void*)(uintptr_t)n) > 0) {
          ASGST_QueueElement* element = ASGST_GetQueueElement(entry->queue, -1);  /* the one just enqueued */
          if (element != NULL) {
            snapshot->element = *element;
          } else {
            memset(&snapshot->element, 0, sizeof(snapshot->element));
          }
          entry->next_snapshot = n + 1;
        }
      }
      break;
    }
  }
  asgst_sampled_answer_halt(&entry->sampled, ucontext);
  own_last_mismatch = saved_last_mismatch;
  errno = saved_errno;
}

static pid_t next_thread(int* next, Entry** found) {
  return asgst_sampled_next(entries, sizeof(Entry), MAX_THREADS, next, (AsgstSampledThread**)found);
}

static void* signal_sampler(void* arg) {
  int next = 0;
  unsigned long step = 0;
  (void)arg;
  while (__atomic_load_n(&sampling, __ATOMIC_ACQUIRE)) {
    Entry* entry;
    pid_t tid;
    asgst_sampled_pause(interval_micros);
    if ((tid = next_thread(&next, &entry)) != 0) {
      asgst_sampled_ask(&entry->sampled, tid, (step++ & 1) ? ENQUEUE : WALK, SIGNAL);
    }
  }
  return NULL;
}

static void* halting_sampler(void* arg) {
  static Walk walk;
  int next = 0;
  (void)arg;
  while (__atomic_load_n(&sampling, __ATOMIC_ACQUIRE)) {
    Entry* entry;
    Trace* trace;
    pid_t tid;
    asgst_sampled_pause(interval_micros);
    if ((tid = next_thread(&next, &entry)) == 0 ||
        asgst_sampled_halt(&entry->sampled, tid, SIGNAL, HALT_TIMEOUT_NANOS) != 1) {
      continue;
    }
    /* Halted in its signal handler, the thread can neither switch nor free its trace stack. */
    trace = *entry->current;
    if (trace == NULL) {
      add(&counters[THREAD_WALK][UNMOUNTED], 1);
    } else {
      walk.layer = THREAD_WALK;
      walk.trace = trace->ids;
      walk.depth = trace->depth;
      walk.last_exited = trace->last_exited;
      own_last_mismatch = -1;
      if (ASGST_RunWithIteratorOfThread(tid, entry->sampled.context, 0, walk_traced, &walk) < 0) {
        add(&counters[THREAD_WALK][REFUSED], 1);
      } else if (own_last_mismatch >= 0) {
        describe_context(own_last_mismatch, entry->sampled.context, tid);
      }
    }
    asgst_sampled_release(&entry->sampled);
  }
  return NULL;
}

typedef struct {
  int count;
  ASGST_Frame frames[MAX_WALK];
  int end;
} AllFrames;

/* Iterator handler of the safepoint layer's walk, which runs in the VM when
   the walk reads frames from the heap (ASGST_NOT_IN_SIGNAL_HANDLER): it
   calls no JNI or JVMTI function, only copies the Java frames; they are
   judged after the walk. */
static void collect_all(ASGST_Iterator* iterator, void* arg) {
  AllFrames* all = (AllFrames*)arg;
  ASGST_Frame frame;
  all->count = 0;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (frame.method != NULL && all->count < MAX_WALK) {
      all->frames[all->count++] = frame;
    }
  }
  all->end = ASGST_State(iterator);
}

/* The synchronous layers, on the thread itself inside TraceStack.enter. */
static void check_synchronously(Trace* trace) {
  static __thread jvmtiFrameInfo frames[MAX_WALK];
  static __thread AllFrames all;
  static __thread int ids[MAX_WALK];
  jint count = 0;
  int i, traced = 0, equal, partial, in_heap = 0, heap_frames = 0;
  const char* misplaced_heap_frame = NULL;
  if ((*jvmti)->GetStackTrace(jvmti, NULL, 0, MAX_WALK, frames, &count) != JVMTI_ERROR_NONE) {
    add(&counters[JVMTI][INCOMPLETE], 1);
    return;
  }
  for (i = 0; i < count; i++) {
    ASGST_Method method = ASGST_JMethodIDToMethod(frames[i].method);
    int id = method == NULL ? -1 : id_of(method);
    if (id >= 0) {
      ids[traced++] = id;
    }
  }
  if (count < MAX_WALK) {
    compare(JVMTI, ids, traced, 0, 0, 0, trace->ids, trace->depth, 0, 0, 0, -1, NULL, NULL);
  } else {
    add(&counters[JVMTI][TOO_DEEP], 1);
  }
  /* ASGST from here against GetStackTrace: every Java frame, method and bci.
     The thread walks itself from its native method, in no signal handler:
     with ASGST_NOT_IN_SIGNAL_HANDLER the walk of a virtual thread enters the
     VM (where it may lock and allocate) and goes on into its frames frozen
     in the heap (null sp and fp) down to Continuation.enter, as GetStackTrace
     does. If it ended at frames in the heap even so, the top frames it showed
     are compared (partial). */
  if (ASGST_RunWithIteratorOfThread((jlong)syscall(SYS_gettid), NULL, ASGST_NOT_IN_SIGNAL_HANDLER, collect_all,
                                    &all) < 0) {
    add(&counters[SAFEPOINT][INCOMPLETE], 1);
    return;
  }
  if (all.end == ASGST_FRAMES_IN_HEAP) {
    add(&counters[SAFEPOINT][IN_HEAP_END], 1);
  }
  if ((all.end != ASGST_NO_FRAME && all.end != ASGST_FRAMES_IN_HEAP) ||
      (all.end == ASGST_FRAMES_IN_HEAP && all.count == 0)) {
    add(&counters[SAFEPOINT][INCOMPLETE], 1);
    return;
  }
  if (count >= MAX_WALK) {
    add(&counters[SAFEPOINT][TOO_DEEP], 1);
    return;
  }
  add(&counters[SAFEPOINT][COMPARED], 1);
  partial = all.end == ASGST_FRAMES_IN_HEAP;
  if (partial) {
    add(&counters[SAFEPOINT][PARTIAL], 1);
  }
  /* Frames from the heap (null sp) as in queue walks (walk_traced): in one
     block below every frame on the stack, never the top frame, with a null
     fp; the traced ones among them are counted in walks found equal. */
  for (i = 0; misplaced_heap_frame == NULL && i < all.count; i++) {
    if (all.frames[i].sp == NULL) {
      misplaced_heap_frame = i == 0 ? "the top frame from the heap (null sp)"
                             : all.frames[i].fp != NULL ? "a frame with null sp, but an fp" : NULL;
      in_heap = 1;
      if (id_of(all.frames[i].method) >= 0) {
        heap_frames++;
      }
    } else if (in_heap) {
      misplaced_heap_frame = "a frame on the stack below a frame from the heap (null sp)";
    }
  }
  equal = misplaced_heap_frame == NULL && (partial ? all.count <= count : all.count == count);
  for (i = 0; equal && i < all.count; i++) {
    ASGST_Method method = ASGST_JMethodIDToMethod(frames[i].method);
    equal = all.frames[i].method == method && all.frames[i].bci == (int)frames[i].location;
  }
  if (equal) {
    add(&counters[SAFEPOINT][EQUAL], 1);
    if (heap_frames > 0) {
      add(&counters[SAFEPOINT][HEAP_FRAMES], heap_frames);
      add(&counters[SAFEPOINT][HEAP_WALKS], 1);
    }
  } else {
    int asgst_ids[64], jvmti_ids[64], n, m;
    for (n = 0; n < all.count && n < 64; n++) {
      int id = id_of(all.frames[n].method);
      asgst_ids[n] = id >= 0 ? id : -1000 - all.frames[n].bci;  /* untraced: -1000 - bci */
    }
    for (m = 0; m < count && m < 64; m++) {
      ASGST_Method method = ASGST_JMethodIDToMethod(frames[m].method);
      int id = method == NULL ? -1 : id_of(method);
      jvmti_ids[m] = id >= 0 ? id : -1000 - (int)frames[m].location;
    }
    add(&counters[SAFEPOINT][MISMATCH], 1);
    /* Shown as a walk (ASGST) against a "trace" (GetStackTrace, reversed to outermost first). */
    for (i = 0; i < m / 2; i++) {
      int t = jvmti_ids[i];
      jvmti_ids[i] = jvmti_ids[m - 1 - i];
      jvmti_ids[m - 1 - i] = t;
    }
    /* The walk's length and end, where its frames from the heap begin, and
       its frames (marked "heap" or not) from just above the first that
       differs from GetStackTrace (all indexes top first). */
    {
      char detail[1024];
      size_t used;
      int first_heap = -1, differs = 0;
      for (i = 0; first_heap < 0 && i < all.count; i++) {
        first_heap = all.frames[i].sp == NULL ? i : -1;
      }
      while (differs < all.count && differs < count &&
             all.frames[differs].method == ASGST_JMethodIDToMethod(frames[differs].method) &&
             all.frames[differs].bci == (int)frames[differs].location) {
        differs++;
      }
      used = (size_t)snprintf(detail, sizeof(detail), "%s%sASGST %d Java frames, end %d, first from the heap %d; "
                              "GetStackTrace %d; first difference %d; ASGST from %d:",
                              misplaced_heap_frame != NULL ? misplaced_heap_frame : "",
                              misplaced_heap_frame != NULL ? "; " : "", all.count, all.end, first_heap, (int)count,
                              differs, differs >= 2 ? differs - 2 : 0);
      for (i = differs >= 2 ? differs - 2 : 0; i < all.count && i < differs + 6 && used + 8 < sizeof(detail); i++) {
        used += (size_t)snprintf(detail + used, sizeof(detail) - used, " %s", all.frames[i].sp == NULL ? "heap:" : "");
        asgst_test_describe_frame(detail, sizeof(detail), &used, &all.frames[i]);
      }
      record_mismatch(SAFEPOINT, asgst_ids, n, jvmti_ids, m, detail);
    }
  }
}

JNIEXPORT void JNICALL Java_TraceStack_enter(JNIEnv* env, jclass cls, jint id) {
  Entry* entry = own_entry;
  Trace* trace = current_trace;
  int depth;
  (void)cls;
  if (trace == NULL) {
    /* A platform thread (a virtual thread's is set when it mounts). */
    trace = current_trace = &own_trace;
    trace->last_exited = -1;
  }
  if (entry == NULL) {
    entry = register_thread(env);
  }
  if (id >= 0 && id < MAX_IDS && __atomic_load_n(&id_methods[id], __ATOMIC_ACQUIRE) == NULL) {
    register_method(id);
  }
  depth = trace->depth;
  if (depth < MAX_DEPTH) {
    trace->ids[depth] = id;
  }
  trace->last_exited = -1;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);  /* the id before the depth, for this thread's signal handler */
  trace->depth = depth + 1;
  if (entry != NULL && check_every > 0 && ++entry->enters % check_every == 0 &&
      __atomic_load_n(&sampling, __ATOMIC_ACQUIRE)) {
    check_synchronously(trace);
  }
}

JNIEXPORT void JNICALL Java_TraceStack_exit(JNIEnv* env, jclass cls) {
  Trace* trace = current_trace;
  (void)env; (void)cls;
  if (trace != NULL && trace->depth > 0) {
    int depth = trace->depth - 1;
    trace->last_exited = depth < MAX_DEPTH ? trace->ids[depth] : -1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);  /* as in enter */
    trace->depth = depth;
  }
}

/* JVMTI's VirtualThreadMount (after the frames are on the carrier): the carrier's
   trace stack becomes the virtual thread's, made at its first mount. */
static void JNICALL on_mount(jvmtiEnv* env, ...) {
  void* trace = NULL;
  (void)env;
  if ((*jvmti)->GetThreadLocalStorage(jvmti, NULL, &trace) == JVMTI_ERROR_NONE && trace == NULL) {
    trace = calloc(1, sizeof(Trace));
    if (trace != NULL) {
      ((Trace*)trace)->last_exited = -1;
    }
    if (trace != NULL && (*jvmti)->SetThreadLocalStorage(jvmti, NULL, trace) != JVMTI_ERROR_NONE) {
      free(trace);
      trace = NULL;
    }
  }
  current_trace = (Trace*)trace;
}

/* VirtualThreadUnmount (before the frames leave the carrier), also before
   VirtualThreadEnd: the carrier has no trace stack until the next mount. */
static void JNICALL on_unmount(jvmtiEnv* env, ...) {
  (void)env;
  current_trace = NULL;
}

/* No walk reads a virtual thread's trace stack after its unmount: the sampled
   thread itself, or the halting sampler while the thread is halted. */
static void JNICALL on_virtual_thread_end(jvmtiEnv* env, JNIEnv* jni, jthread vthread) {
  void* trace = NULL;
  (void)env; (void)jni; (void)vthread;
  if ((*jvmti)->GetThreadLocalStorage(jvmti, NULL, &trace) == JVMTI_ERROR_NONE && trace != NULL) {
    (*jvmti)->SetThreadLocalStorage(jvmti, NULL, NULL);
    free(trace);
  }
}

/* Sets the callback of the HotSpot extension event of that name and enables it. */
static int enable_extension_event(const char* name, jvmtiExtensionEvent callback) {
  jint count = 0, i;
  jvmtiExtensionEventInfo* events = NULL;
  int found = 0;
  if ((*jvmti)->GetExtensionEvents(jvmti, &count, &events) != JVMTI_ERROR_NONE) {
    return 0;
  }
  for (i = 0; i < count; i++) {
    if (strcmp(events[i].id, name) == 0) {
      /* Extension events, too, need a callback and to be enabled. */
      found = (*jvmti)->SetExtensionEventCallback(jvmti, events[i].extension_event_index, callback) ==
                JVMTI_ERROR_NONE &&
              (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, (jvmtiEvent)events[i].extension_event_index,
                                                 NULL) == JVMTI_ERROR_NONE;
    }
  }
  for (i = 0; i < count; i++) {
    jint p;
    for (p = 0; p < events[i].param_count; p++) {
      (*jvmti)->Deallocate(jvmti, (unsigned char*)events[i].params[p].name);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char*)events[i].params);
    (*jvmti)->Deallocate(jvmti, (unsigned char*)events[i].id);
    (*jvmti)->Deallocate(jvmti, (unsigned char*)events[i].short_description);
  }
  (*jvmti)->Deallocate(jvmti, (unsigned char*)events);
  return found;
}

/* AsyncGetCallTrace names only methods that have jmethodIDs: made here, as
   profilers make them (and it walks only while ClassLoad is enabled). */
static void JNICALL on_class_prepare(jvmtiEnv* env, JNIEnv* jni, jthread thread, jclass klass) {
  jint count = 0;
  jmethodID* methods = NULL;
  (void)jni; (void)thread;
  if ((*env)->GetClassMethods(env, klass, &count, &methods) == JVMTI_ERROR_NONE) {
    (*env)->Deallocate(env, (unsigned char*)methods);
  }
}

static void JNICALL on_thread_end(jvmtiEnv* env, JNIEnv* jni, jthread thread) {
  Entry* entry = own_entry;
  (void)env; (void)jni; (void)thread;
  if (entry != NULL) {
    own_entry = NULL;  /* from here on the signal handler leaves this thread alone */
    asgst_sampled_end(&entry->sampled, &entry->queue);
  }
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  jvmtiCapabilities capabilities;
  jvmtiEventCallbacks callbacks;
  Dl_info jvm, own;
  (void)reserved;
  if (dladdr((void*)ASGST_RunWithIterator, &jvm) != 0) {
    jvm_base = (uintptr_t)jvm.dli_fbase;
  }
  if (dladdr((void*)JNI_OnLoad, &own) != 0) {
    oracle_base = (uintptr_t)own.dli_fbase;
  }
  if (asgst_test_load_jvmti(vm, &jvmti) == JNI_ERR) {
    return JNI_ERR;
  }
  async_get_call_trace = asgst_agct_function();
  memset(&capabilities, 0, sizeof(capabilities));
  capabilities.can_support_virtual_threads = 1;
  capabilities.can_get_bytecodes = 1;
  memset(&callbacks, 0, sizeof(callbacks));
  callbacks.ThreadEnd = on_thread_end;
  callbacks.VirtualThreadEnd = on_virtual_thread_end;
  callbacks.DynamicCodeGenerated = on_dynamic_code_generated;
  callbacks.ClassLoad = asgst_agct_on_class_load;
  callbacks.ClassPrepare = on_class_prepare;
  if ((*jvmti)->AddCapabilities(jvmti, &capabilities) != JVMTI_ERROR_NONE ||
      (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof(callbacks)) != JVMTI_ERROR_NONE ||
      (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_THREAD_END, NULL) != JVMTI_ERROR_NONE ||
      (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, NULL) != JVMTI_ERROR_NONE ||
      (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_PREPARE, NULL) != JVMTI_ERROR_NONE ||
      (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VIRTUAL_THREAD_END, NULL) !=
          JVMTI_ERROR_NONE ||
      !enable_extension_event("com.sun.hotspot.events.VirtualThreadMount", (jvmtiExtensionEvent)on_mount) ||
      !enable_extension_event("com.sun.hotspot.events.VirtualThreadUnmount", (jvmtiExtensionEvent)on_unmount)) {
    fprintf(stderr, "libAsgstOracle: JVMTI refused the thread events\n");
    return JNI_ERR;
  }
  /* The code generated so far comes at once, later code as it is made. */
  if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_DYNAMIC_CODE_GENERATED, NULL) !=
          JVMTI_ERROR_NONE ||
      (*jvmti)->GenerateEvents(jvmti, JVMTI_EVENT_DYNAMIC_CODE_GENERATED) != JVMTI_ERROR_NONE) {
    fprintf(stderr, "libAsgstOracle: JVMTI refused the code events\n");
    return JNI_ERR;
  }
  return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL Java_TraceStack_start(JNIEnv* env, jclass cls, jint interval, jint every,
                                             jboolean heap_readable_by_handlers) {
  (void)env; (void)cls;
  interval_micros = interval;
  check_every = every;
  heap_readable = heap_readable_by_handlers;
  asgst_test_install_handler(SIGNAL, on_signal);
  __atomic_store_n(&sampling, 1, __ATOMIC_RELEASE);
  if (pthread_create(&samplers[0], NULL, signal_sampler, NULL) == 0) {
    samplers_started = 1;
    if (pthread_create(&samplers[1], NULL, halting_sampler, NULL) == 0) {
      samplers_started = 2;
    }
  }
}

JNIEXPORT jlongArray JNICALL Java_TraceStack_counts(JNIEnv* env, jclass cls) {
  jlong copy[LAYERS * COUNTERS];
  jlongArray result = (*env)->NewLongArray(env, LAYERS * COUNTERS);
  int i;
  (void)cls;
  for (i = 0; i < LAYERS * COUNTERS; i++) {
    copy[i] = (jlong)__atomic_load_n(&((volatile long*)counters)[i], __ATOMIC_RELAXED);
  }
  if (result != NULL) {
    (*env)->SetLongArrayRegion(env, result, 0, LAYERS * COUNTERS, copy);
  }
  return result;
}

JNIEXPORT jlongArray JNICALL Java_TraceStack_stop(JNIEnv* env, jclass cls) {
  jlongArray result = (*env)->NewLongArray(env, LAYERS * COUNTERS);
  (void)cls;
  __atomic_store_n(&sampling, 0, __ATOMIC_RELEASE);
  while (samplers_started > 0) {
    pthread_join(samplers[--samplers_started], NULL);
  }
  (*env)->SetLongArrayRegion(env, result, 0, LAYERS * COUNTERS, (const jlong*)counters);
  return result;
}

JNIEXPORT jobjectArray JNICALL Java_TraceStack_mismatches(JNIEnv* env, jclass cls) {
  int i, n = mismatch_count < MAX_MISMATCHES ? mismatch_count : MAX_MISMATCHES;
  jobjectArray result = (*env)->NewObjectArray(env, n, (*env)->FindClass(env, "java/lang/String"), NULL);
  (void)cls;
  for (i = 0; i < n; i++) {
    (*env)->SetObjectArrayElement(env, result, i, (*env)->NewStringUTF(env, mismatch_text[i]));
  }
  return result;
}
