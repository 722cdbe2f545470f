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
 * A SIGPROF handler that feeds the signal-safe API garbage: contexts whose
 * sp, fp and pc (and on aarch64 lr, which the walker reads there too) are
 * replaced by random values, small offsets of the true values, pointers into
 * code, metadata, stacks, unmapped and kernel memory, misaligned values, and
 * contexts mutated again and again; random handles, thread ids and
 * out-of-range arguments. Walks also watch, set and clear frame marks at
 * random (owners, slots and frames), so that marks requested from garbage
 * walks reach the thread's polls, barriers and unwinding. The VM must
 * survive every call. Virtual threads also walk themselves from a
 * native method with ASGST_NOT_IN_SIGNAL_HANDLER, from their true frame and
 * from mutated ones: walks that read their frames frozen in the heap.
 */

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

static volatile long calls;
static volatile long walks_with_frames;
static timer_t timer;
static ASGST_Queue* queue;
static ASGST_MarkOwner mark_owner;  /* 0 where frame marks do not work */
static volatile long marks_set, marks_reached;
/* Frames with a null sp (frames read from the heap), by the kind of walk
   that reported them: none may come from a signal handler's. A signal
   handler or a queue's processing may begin inside a walk from native code
   (the thread's transition into the VM polls): each sets its own kind and
   restores the one before. */
enum { FROM_SIGNAL_HANDLER, FROM_NATIVE, FROM_QUEUE, WALK_KINDS };
static volatile long heap_frames[WALK_KINDS];
/* Walks with more frames of recurseVirtual() than its deepest recursion
   has: frames reported twice (from the stack and again from the heap) or
   made up. None may exist. A walk begun from a mutated context counts only
   the frames in the heap and those on the stack at an sp where the walk of
   the true context just before found one: a pc moved inside
   recurseVirtual()'s code, with an sp moved near a true frame's, names a
   frame that looks real (nothing on the stack but the pc tells which code
   a frame runs), and the walk may go on from it into the true frames. (Seen:
   65 frames, all true but the top one, made up at the true sp, with the
   thread in Thread.yield() at the bottom of a recursion 63 deep.) */
#define RECURSE_VIRTUAL_MAX_FRAMES 64  /* depth 63 down to 0 (x & 63) */
static ASGST_Method recurse_virtual;
static volatile long impossible_walks;
typedef struct {
  void* sp[256];  /* 64 frames, reported again after rewinds: more are left out */
  int count;
} TrueFrames;
static TrueFrames* volatile recording_true_frames;   /* filled by the walk of a true context */
static const TrueFrames* volatile judging_by;        /* null: every frame counts */

static int counts_as_true(const TrueFrames* truth, void* sp) {
  if (truth == NULL || sp == NULL) {
    return 1;
  }
  for (int i = 0; i < truth->count; i++) {
    if (truth->sp[i] == sp) return 1;
  }
  return 0;
}
/* Enqueuable elements that name a frame but no sp: an element records a
   frame on the stack, so one from a frame in the heap is a wrong answer. */
static volatile long elements_without_sp;
static volatile int walk_kind = FROM_NATIVE;
static uint64_t seed = 0x9E3779B97F4A7C15ULL;

/* Addresses seen in earlier walks: code, metadata and stack, for mutations. */
#define POOL 64
static void* code_pool[POOL];
static void* method_pool[POOL];
static void* stack_pool[POOL];
static void* other_stack;

static uint64_t next_random(void) {
  /* xorshift64: signal safe, no locks; the handler runs on one thread. */
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return seed;
}

#if defined(__x86_64__)
#define CTX_SP(uc) ((uc)->uc_mcontext.gregs[REG_RSP])
#define CTX_FP(uc) ((uc)->uc_mcontext.gregs[REG_RBP])
#define CTX_PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#define FUZZED_REGISTERS 3
#elif defined(__aarch64__)
#define CTX_SP(uc) ((uc)->uc_mcontext.sp)
#define CTX_FP(uc) ((uc)->uc_mcontext.regs[29])
#define CTX_PC(uc) ((uc)->uc_mcontext.pc)
/* The link register: the return address of a function in its prologue or
   epilogue, or of a leaf. */
#define CTX_LR(uc) ((uc)->uc_mcontext.regs[30])
#define FUZZED_REGISTERS 4
#endif

static uintptr_t interesting(uintptr_t truth) {
  switch (next_random() % 12) {
    case 0:  return (uintptr_t)next_random();
    case 1:  return truth + (next_random() % 512) - 256;                 /* near, often misaligned */
    case 2:  return truth + ((next_random() % 64) - 32) * sizeof(void*);  /* near, aligned */
    case 3:  return (uintptr_t)code_pool[next_random() % POOL] + (next_random() % 64);
    case 4:  return (uintptr_t)method_pool[next_random() % POOL] + (next_random() % 16) * 8;
    case 5:  return (uintptr_t)stack_pool[next_random() % POOL] + ((next_random() % 32) - 16) * 8;
    case 6:  return (uintptr_t)other_stack + (next_random() % 4096);
    case 7:  return 0;
    case 8:  return 0x1000 + (next_random() % 0x10000);                   /* unmapped low memory */
    case 9:  return 0xffff800000000000ULL + (next_random() % 0x100000);   /* kernel */
    case 10: return truth | 1;                                            /* misaligned */
    default: return truth;
  }
}

static void remember(const ASGST_Frame* f) {
  unsigned slot = (unsigned)(next_random() % POOL);
  if (f->pc != NULL) code_pool[slot] = f->pc;
  if (f->method != NULL) method_pool[slot] = (void*)f->method;
  if (f->sp != NULL) stack_pool[slot] = f->sp;
}

/* An owner: the registered one mostly, else a number no owner has. */
static ASGST_MarkOwner some_owner(void) {
  return (next_random() & 7) != 0 ? mark_owner : (ASGST_MarkOwner)interesting(0);
}

/* Marks at random: watch, mark this frame, clear, read the mark. */
static void fuzz_marks(ASGST_Iterator* iterator, int step) {
  ASGST_Mark mark;
  uint64_t dice = next_random();
  if (mark_owner == 0) {
    return;
  }
  if ((dice & 15) == 0) {
    ASGST_WatchMarks(iterator, some_owner());
  }
  if (((dice >> 4) & 7) == 0 && ASGST_MarkFrame(iterator, some_owner(), (int)(next_random() % 5) - 1, next_random()) == 0) {
    marks_set++;
  }
  if (((dice >> 7) & 63) == 0) {
    ASGST_ClearMark(iterator, some_owner(), (int)(next_random() % 5) - 2);
  }
  if (step == ASGST_MARKED_FRAME || ((dice >> 13) & 31) == 0) {
    marks_reached += ASGST_GetMark(iterator, (dice >> 18) & 1 ? &mark : NULL) ? 1 : 0;
  }
  calls += 4;
}

static void consume(ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame;
  int n = 0, step, recursion = 0;
  TrueFrames* recording = recording_true_frames;
  const TrueFrames* truth = judging_by;
  (void)arg;
  fuzz_marks(iterator, 0);
  while ((step = ASGST_NextFrame(iterator, &frame)) > 0 && n < 4096) {
    if (step == 1) {
      remember(&frame);
      if (frame.sp == NULL && frame.type != ASGST_FRAME_NON_JAVA) {
        heap_frames[walk_kind]++;
      }
      if (recurse_virtual != NULL && frame.method == recurse_virtual) {
        if (recording != NULL && frame.sp != NULL && recording->count < 256) {
          recording->sp[recording->count++] = frame.sp;
        }
        if (counts_as_true(truth, frame.sp) && ++recursion == RECURSE_VIRTUAL_MAX_FRAMES + 1) {
          impossible_walks++;
        }
      }
    }
    n++;
    fuzz_marks(iterator, step);
    if ((next_random() & 63) == 0) {
      ASGST_RewindIterator(iterator);  /* rewinding in the middle must be harmless */
      recursion = 0;                   /* the walk begins again at the top */
    }
  }
  ASGST_State(iterator);
  if (n > 0) walks_with_frames++;
}

static void use_garbage_handles(void) {
  char name[8];
  ASGST_MethodInfo m;
  ASGST_ClassInfo c;
  ASGST_MethodLineNumberEntry lines[4];
  void* handle = (next_random() & 1) ? method_pool[next_random() % POOL] : (void*)(uintptr_t)interesting(0);
  if (next_random() & 1) handle = (char*)handle + (next_random() % 64);
  memset(&m, 0, sizeof(m));
  m.method_name = name;
  m.method_name_length = (jint)(next_random() % 9);
  m.signature = (next_random() & 1) ? name : NULL;
  m.signature_length = (jint)(next_random() % 9);
  ASGST_GetMethodInfo((ASGST_Method)handle, &m);
  ASGST_GetMethodIdNum((ASGST_Method)handle);
  ASGST_GetMethodLineNumberTable((ASGST_Method)handle, lines, (int)(next_random() % 5) - 1);
  memset(&c, 0, sizeof(c));
  c.class_name = name;
  c.class_name_length = (jint)(next_random() % 9);
  ASGST_GetClassInfo((ASGST_Class)handle, &c);
  ASGST_GetClassIdNum((ASGST_Class)handle);
  if (m.klass != NULL) {
    ASGST_GetClassInfo(m.klass, &c);
  }
  ASGST_GetQueueElement(queue, (int)(next_random() % 64) - 32);
  ASGST_GetQueueSizeInfo(queue);
  ASGST_MarkFrame(NULL, some_owner(), 0, 0);
  ASGST_WatchMarks(NULL, some_owner());
  calls += 11;
}

static void fuzz_once(ucontext_t* context, const ucontext_t* truth, const TrueFrames* true_frames, int keep_mutating) {
  ASGST_CallFrame frames[64];
  ASGST_CallTrace trace;
  ASGST_QueueElement element;
  int32_t options = (int32_t)(next_random() & 63);
  if (!keep_mutating) {
    *context = *truth;
  }
  /* One register, or all of them. */
  switch (next_random() % (FUZZED_REGISTERS + 1)) {
    case 0: CTX_SP(context) = interesting(CTX_SP(truth)); break;
    case 1: CTX_FP(context) = interesting(CTX_FP(truth)); break;
    case 2: CTX_PC(context) = interesting(CTX_PC(truth)); break;
#ifdef CTX_LR
    case 3: CTX_LR(context) = interesting(CTX_LR(truth)); break;
#endif
    default:
      CTX_SP(context) = interesting(CTX_SP(truth));
      CTX_FP(context) = interesting(CTX_FP(truth));
      CTX_PC(context) = interesting(CTX_PC(truth));
#ifdef CTX_LR
      CTX_LR(context) = interesting(CTX_LR(truth));
#endif
  }
  judging_by = true_frames;
  ASGST_RunWithIterator(context, options, consume, NULL);
  memset(&trace, 0, sizeof(trace));
  trace.frames = frames;
  trace.kind = (uint8_t)(next_random() & 1 ? 0 : next_random());
  trace.state = (jint)(next_random() & 1 ? 0 : next_random());
  /* depth: -8 to 64, never more than the array holds */
  AsyncGetStackTrace(&trace, (jint)(next_random() % 73) - 8, context, (uint32_t)options);
  element = ASGST_GetEnqueuableElement(queue, context);
  if (element.pc != NULL && element.sp == NULL) {
    elements_without_sp++;
  }
  ASGST_RunWithIteratorFromFrame((void*)CTX_SP(context), (void*)CTX_FP(context), (void*)CTX_PC(context),
                                 options, consume, NULL);
  ASGST_RunWithIteratorOfThread((jlong)(next_random() % 100000), context, options | ASGST_INCLUDE_NON_JAVA_THREADS,
                                consume, NULL);
  calls += 5;
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  ucontext_t mutated;
  const ucontext_t* truth = (const ucontext_t*)ucontext;
  int rounds = 1 + (int)(next_random() % 8);
  int i;
  int interrupted_kind = walk_kind;
  TrueFrames* interrupted_recording = recording_true_frames;
  const TrueFrames* interrupted_judging_by = judging_by;
  TrueFrames true_frames;
  (void)signo; (void)info;
  walk_kind = FROM_SIGNAL_HANDLER;
  /* The true context first: it feeds the address pools, and tells where
     its frames are. */
  true_frames.count = 0;
  recording_true_frames = &true_frames;
  judging_by = NULL;
  ASGST_RunWithIterator(ucontext, ASGST_INCLUDE_NON_JAVA_FRAMES, consume, NULL);
  recording_true_frames = NULL;
  for (i = 0; i < rounds; i++) {
    fuzz_once(&mutated, truth, &true_frames, i > 0 && (next_random() & 1));
  }
  judging_by = NULL;
  use_garbage_handles();
  /* Enqueue the true context now and then: the queue is processed at polls. */
  if ((next_random() & 7) == 0) {
    ASGST_Enqueue(queue, ucontext, NULL);
  }
  calls += 2;
  walk_kind = interrupted_kind;
  recording_true_frames = interrupted_recording;
  judging_by = interrupted_judging_by;
}

/* From a native method of a virtual thread: walks with
   ASGST_NOT_IN_SIGNAL_HANDLER, which enter the VM and go on into the frames
   in the heap, begun at the caller's true frame (the native wrapper's) or a
   mutated one. */
JNIEXPORT void JNICALL Java_AsgstFuzzContexts_fuzzFromNative(JNIEnv* env, jclass cls, jint rounds) {
  ASGST_CallFrame frames[64];
  ASGST_CallTrace trace;
  void** own_fp = (void**)__builtin_frame_address(0);
  /* x86_64 and aarch64 alike: the saved frame pointer, then the return address. */
  uintptr_t true_sp = (uintptr_t)(own_fp + 2), true_fp = (uintptr_t)own_fp[0], true_pc = (uintptr_t)own_fp[1];
  (void)env; (void)cls;
  walk_kind = FROM_NATIVE;
  for (int i = 0; i < rounds; i++) {
    int32_t options = (int32_t)(next_random() & 63) | ASGST_NOT_IN_SIGNAL_HANDLER;
    uintptr_t sp = true_sp, fp = true_fp, pc = true_pc;
    TrueFrames true_frames;
    /* The true walk first (from the caller of ASGST_RunWithIterator: this
       function), which tells where the true frames are. */
    true_frames.count = 0;
    recording_true_frames = &true_frames;
    ASGST_RunWithIterator(NULL, options, consume, NULL);
    recording_true_frames = NULL;
    switch (next_random() % 3) {
      case 0: break;
      case 1: sp = interesting(true_sp); break;
      default:
        sp = interesting(true_sp);
        fp = interesting(true_fp);
        pc = interesting(true_pc);
    }
    judging_by = &true_frames;
    ASGST_RunWithIteratorFromFrame((void*)sp, (void*)fp, (void*)pc, options, consume, NULL);
    judging_by = NULL;
    memset(&trace, 0, sizeof(trace));
    trace.frames = frames;
    AsyncGetStackTrace(&trace, (jint)(next_random() % 65), NULL, (uint32_t)options);
    calls += 3;
  }
}

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  int interrupted_kind = walk_kind;
  TrueFrames* interrupted_recording = recording_true_frames;
  const TrueFrames* interrupted_judging_by = judging_by;
  (void)queue_arg; (void)element_arg;
  walk_kind = FROM_QUEUE;
  recording_true_frames = NULL;
  judging_by = NULL;  /* only true contexts are enqueued */
  consume(iterator, NULL);
  walk_kind = interrupted_kind;
  recording_true_frames = interrupted_recording;
  judging_by = interrupted_judging_by;
}

JNIEXPORT void JNICALL Java_AsgstFuzzContexts_start(JNIEnv* env, jclass cls, jint interval_micros, jlong other) {
  int i;
  jmethodID id = (*env)->GetStaticMethodID(env, cls, "recurseVirtual", "(IJ)J");
  other_stack = (void*)(intptr_t)other;
  recurse_virtual = id == NULL ? NULL : ASGST_JMethodIDToMethod(id);
  for (i = 0; i < POOL; i++) {
    code_pool[i] = method_pool[i] = stack_pool[i] = (void*)&calls;
  }
  queue = ASGST_RegisterQueue(env, 64, 0, on_element, NULL);
  if ((ASGST_Capabilities() & ASGST_MARK_FRAME) != 0) {
    mark_owner = ASGST_RegisterMarkOwner(2);
    mark_owner = mark_owner > 0 ? mark_owner : 0;
  }
  /* Wall-clock time: a CPU-time timer fires only once per scheduler tick,
     and fuzzing should also hit the thread while it waits. */
  asgst_test_start_sampling(on_sigprof, CLOCK_MONOTONIC, interval_micros, &timer);
}

/* Stops; returns {calls, walks of the true context that gave frames, marks
   set, walks that reached a mark, whether marks work; frames with a null sp
   in walks from native code, in signal handlers' walks, in queue walks;
   walks with more frames of recurseVirtual() than it has}. */
JNIEXPORT jlongArray JNICALL Java_AsgstFuzzContexts_stop(JNIEnv* env, jclass cls) {
  jlong r[10];
  (void)cls;
  timer_delete(timer);
  ASGST_DeregisterQueue(queue);
  if (mark_owner != 0) {
    ASGST_DeregisterMarkOwner(mark_owner);  /* its marks die at once, on every thread */
  }
  r[0] = calls;
  r[1] = walks_with_frames;
  r[2] = marks_set;
  r[3] = marks_reached;
  r[4] = mark_owner != 0;
  r[5] = heap_frames[FROM_NATIVE];
  r[6] = heap_frames[FROM_SIGNAL_HANDLER];
  r[7] = heap_frames[FROM_QUEUE];
  r[8] = impossible_walks;
  r[9] = elements_without_sp;
  return asgst_test_long_array(env, r, 10);
}

/* An address on the calling thread's stack, for the other thread's mutations. */
JNIEXPORT jlong JNICALL Java_AsgstFuzzContexts_stackAddress(JNIEnv* env, jclass cls) {
  volatile int here = 0;
  (void)env; (void)cls;
  return (jlong)(intptr_t)&here;
}
