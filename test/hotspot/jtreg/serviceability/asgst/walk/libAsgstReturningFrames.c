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
 * Samples the thread of AsgstReturningFrames.java and checks every walk taken
 * while it runs its loop (between enterLoop and exitLoop): the frames must be
 * the loop's, whatever instruction the signal interrupted.
 */

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"

#define MAX_FRAMES 64
#define ASGST_TEST_MAX_FRAMES MAX_FRAMES
#include "../native/asgstTestSupport.h"

enum Tag { OTHER, CALLEE, LOOP, DESCEND, MAIN };

/* The interrupted registers, and those kept for diagnostics. */
#if defined(__x86_64__)
#define CTX_PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#define CTX_SP(uc) ((uc)->uc_mcontext.gregs[REG_RSP])
#define CTX_FP(uc) ((uc)->uc_mcontext.gregs[REG_RBP])
#define DIAG_REGS NGREG
#define DIAG_REG(uc, i) ((uc)->uc_mcontext.gregs[i])
#elif defined(__aarch64__)
#define CTX_PC(uc) ((uc)->uc_mcontext.pc)
#define CTX_SP(uc) ((uc)->uc_mcontext.sp)
#define CTX_FP(uc) ((uc)->uc_mcontext.regs[29])
#define DIAG_REGS 31  /* x0 to x30 */
#define DIAG_REG(uc, i) ((uc)->uc_mcontext.regs[i])
#endif

static volatile int in_loop;
static int depth;
static volatile long walks, refused, wrong, at_return_address, before_loop_frame;
/* The same instants walked by ASGST_RunWithIteratorFromFrame from the
   interrupted sp, fp and pc alone (on aarch64 without the link register,
   where a leaf's or an epilogue's return address still is). */
static volatile long from_frame_complete, from_frame_wrong;
static volatile int from_frame_wrong_recorded;
static char from_frame_wrong_walk[2048];

/* Where the VM put loop()'s compiled code (JVMTI's CompiledMethodLoad): a
   walk interrupted there before loop() built its frame begins at its caller. */
#define MAX_LOOP_CODE 64
static jmethodID loop_method;
static const char* volatile loop_code_begin[MAX_LOOP_CODE];
static const char* volatile loop_code_end[MAX_LOOP_CODE];
static volatile int loop_code_count;
static volatile int wrong_recorded;
static char wrong_walk[2048];
static timer_t timer;

/* Diagnostics of wrong walks: what the handler saw, kept raw in static
   buffers by the handler (signal safe: no allocation, no formatting) and
   described by firstWrongWalk, outside the handler. */
#define DIAG_WALKS 4
#define DIAG_STACK_WORDS 320
#define DIAG_CODE_BEFORE 48
#define DIAG_CODE_AFTER 48
#define DIAG_NAME 32
static volatile long loops_entered;  /* enterLoop calls: which loop() call a walk fell in */
static volatile int native_phase;    /* the last native method entered (1 nop .. 4 nop10, 5 enterLoop, 6 exitLoop), negated once its C body returns */
typedef struct {
  unsigned long pc, sp, fp;
  int count;
  int type[MAX_FRAMES], level[MAX_FRAMES], bci[MAX_FRAMES];
  unsigned long fpc[MAX_FRAMES], fsp[MAX_FRAMES], ffp[MAX_FRAMES];
  char name[MAX_FRAMES][DIAG_NAME];
} DiagTrace;
typedef struct {
  unsigned long pc, sp, fp, regs[DIAG_REGS];
  long walk_number, loop_number;
  int native_phase;
  DiagTrace java, all;  /* the walk that was checked, and one with non-Java frames */
  int all_kind, all_state, java_kind, java_state;
  unsigned long stack[DIAG_STACK_WORDS];
  unsigned char code[DIAG_CODE_BEFORE + DIAG_CODE_AFTER];
} DiagWalk;
static DiagWalk diag[DIAG_WALKS];
static volatile int diag_count;
static DiagWalk diag_refused[DIAG_WALKS];  /* the same for the first refused walks */
static volatile int diag_refused_count;
static DiagWalk diag_good[1];  /* a right walk, to compare: its frames' sizes and the stack */
static volatile int diag_good_count;
/* Where each kind of method's code was seen interrupted (its frame on top, at
   the context's pc), to tell in which code a wrong walk's pc lies. */
#define DIAG_TAGS 16
static unsigned long code_low[DIAG_TAGS], code_high[DIAG_TAGS];
static int code_level[DIAG_TAGS];

/* Diagnostic kinds of top frames: 0 other, 1-4 nop..nop10, 5 leaf, 6 enterLoop,
   7 exitLoop, 8 loop, 9 descend, 10 main. */
static int diag_tag_of(ASGST_Method method) {
  static const char* const names[] = { "", "nop", "nop6", "nop8", "nop10", "leaf", "enterLoop", "exitLoop",
                                       "loop", "descend", "main" };
  int i;
  for (i = 1; i < (int)(sizeof(names) / sizeof(names[0])); i++) {
    if (asgst_test_method_is(method, names[i])) {
      return i;
    }
  }
  return 0;
}

static void diag_copy_trace(DiagTrace* out, const AsgstTestTrace* walk) {
  int i;
  out->count = walk->count;
  for (i = 0; i < walk->count && i < MAX_FRAMES; i++) {
    const ASGST_Frame* f = &walk->frames[i];
    out->type[i] = f->type;
    out->level[i] = f->comp_level;
    out->bci[i] = f->bci;
    out->fpc[i] = (unsigned long)f->pc;
    out->fsp[i] = (unsigned long)f->sp;
    out->ffp[i] = (unsigned long)f->fp;
    if (f->method == NULL || !asgst_test_method_name(f->method, out->name[i], DIAG_NAME)) {
      strcpy(out->name[i], "-");
    }
  }
}

/* The sampled thread's stack, found before sampling begins: the handler
   reads only words within it. */
static unsigned long stack_low, stack_high;

static void diag_record(DiagWalk* kept, volatile int* count, const ucontext_t* uc, const AsgstTestTrace* walk,
                        long walk_number) {
  static AsgstTestTrace all;
  int n = __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
  DiagWalk* d;
  int i;
  if (n >= DIAG_WALKS) {
    return;
  }
  d = &kept[n];
  d->pc = (unsigned long)CTX_PC(uc);
  d->sp = (unsigned long)CTX_SP(uc);
  d->fp = (unsigned long)CTX_FP(uc);
  for (i = 0; i < DIAG_REGS; i++) {
    d->regs[i] = (unsigned long)DIAG_REG(uc, i);
  }
  d->walk_number = walk_number;
  d->loop_number = loops_entered;
  d->native_phase = native_phase;
  d->java_kind = walk->kind;
  d->java_state = walk->state;
  diag_copy_trace(&d->java, walk);
  asgst_test_walk((void*)uc, ASGST_INCLUDE_NON_JAVA_FRAMES, &all);
  d->all_kind = all.kind;
  d->all_state = all.state;
  diag_copy_trace(&d->all, &all);
  /* The thread's own stack above sp (the handler runs on it), within its bounds. */
  for (i = 0; i < DIAG_STACK_WORDS; i++) {
    unsigned long address = d->sp + (unsigned long)i * sizeof(unsigned long);
    d->stack[i] = address >= stack_low && address + sizeof(unsigned long) <= stack_high
                  ? *(const unsigned long*)address : 0;
  }
  /* The code around pc, within pc's page (mapped, as the thread ran there). */
  for (i = 0; i < DIAG_CODE_BEFORE + DIAG_CODE_AFTER; i++) {
    unsigned long address = d->pc - DIAG_CODE_BEFORE + (unsigned long)i;
    d->code[i] = (address & ~4095UL) == (d->pc & ~4095UL) ? *(const unsigned char*)address : 0;
  }
}

static enum Tag tag_of(ASGST_Method method) {
  if (asgst_test_method_is(method, "nop") || asgst_test_method_is(method, "nop6") ||
      asgst_test_method_is(method, "nop8") || asgst_test_method_is(method, "nop10") ||
      asgst_test_method_is(method, "leaf") ||
      asgst_test_method_is(method, "enterLoop") || asgst_test_method_is(method, "exitLoop")) {
    return CALLEE;
  }
  if (asgst_test_method_is(method, "loop")) {
    return LOOP;
  }
  if (asgst_test_method_is(method, "descend")) {
    return DESCEND;
  }
  return asgst_test_method_is(method, "main") ? MAIN : OTHER;
}

/* Whether the frames are [callee] loop descend x depth main (and the test
   harness's frames below main), or a prefix of that when the walk ended early;
   without loop, where with_loop is 0. */
static int holds_frames(const AsgstTestTrace* walk, int complete, int with_loop) {
  int expected[MAX_FRAMES];
  int n = 0, i, start = 0;
  if (with_loop && walk->count > 0 && tag_of(walk->frames[0].method) == CALLEE) {
    start = 1;
  }
  if (with_loop) {
    expected[n++] = LOOP;
  }
  for (i = 0; i < depth && n < MAX_FRAMES - 1; i++) {
    expected[n++] = DESCEND;
  }
  expected[n++] = MAIN;
  if (complete && walk->count - start < n) {
    return 0;
  }
  for (i = start; i < walk->count && i - start < n; i++) {
    if ((int)tag_of(walk->frames[i].method) != expected[i - start]) {
      return 0;
    }
  }
  return 1;
}

static int holds_loop_frames(const AsgstTestTrace* walk, int complete) {
  return holds_frames(walk, complete, 1);
}

static int in_loop_code(greg_t pc) {
  int i, count = __atomic_load_n(&loop_code_count, __ATOMIC_ACQUIRE);
  for (i = 0; i < count && i < MAX_LOOP_CODE; i++) {
    const char* begin = __atomic_load_n(&loop_code_begin[i], __ATOMIC_ACQUIRE);
    const char* end = __atomic_load_n(&loop_code_end[i], __ATOMIC_ACQUIRE);
    if (begin != NULL && (const char*)pc >= begin && (const char*)pc < end) {
      return 1;
    }
  }
  return 0;
}

/* Whether the walk began at loop()'s caller while the thread ran loop()'s
   compiled code (JVMTI tells where it lies): the contract's answer in a
   prologue, before the frame is complete (doc/stack-walking.md), such as C1's
   OSR entry, where the interpreter jumps after popping its own frame. */
static int began_before_loop_frame(const AsgstTestTrace* walk, int complete, const ucontext_t* uc) {
  return walk->count > 0 && tag_of(walk->frames[0].method) == DESCEND && in_loop_code((greg_t)CTX_PC(uc)) &&
         holds_frames(walk, complete, 0);
}

/* A wrong walk, for its report: the interrupted pc, the walk's end, its frames. */
static void describe_walk(char* text, size_t size, greg_t pc, const AsgstTestTrace* walk) {
  size_t used = (size_t)snprintf(text, size, "pc %p kind %d end %d: ", (void*)pc, walk->kind, walk->state);
  int i;
  for (i = 0; i < walk->count && used < size; i++) {
    asgst_test_describe_frame(text, size, &used, &walk->frames[i]);
  }
}

/* A walk from the interrupted frame's registers goes by the same rule: it
   may refuse where the registers do not tell the caller (a return address
   still in the link register), never hold other frames. */
static void check_from_frame(const ucontext_t* uc) {
  static AsgstTestTrace walk;
  int complete;
  walk.count = 0;
  walk.state = 1;
  walk.kind = ASGST_RunWithIteratorFromFrame((void*)CTX_SP(uc), (void*)CTX_FP(uc), (void*)CTX_PC(uc), 0,
                                             asgst_test_record, &walk);
  complete = walk.kind >= 0 && walk.state == ASGST_NO_FRAME;
  if (holds_loop_frames(&walk, complete) || began_before_loop_frame(&walk, complete, uc)) {
    if (complete) {
      __atomic_fetch_add(&from_frame_complete, 1, __ATOMIC_RELAXED);
    }
    return;
  }
  __atomic_fetch_add(&from_frame_wrong, 1, __ATOMIC_RELAXED);
  if (!__atomic_exchange_n(&from_frame_wrong_recorded, 1, __ATOMIC_ACQ_REL)) {
    describe_walk(from_frame_wrong_walk, sizeof(from_frame_wrong_walk), (greg_t)CTX_PC(uc), &walk);
  }
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  /* Not thread-local: the first access of a dlopen'ed library's thread-local
     variable may call malloc, which deadlocks in a signal handler that
     interrupted malloc (seen once). Only the sampled thread gets this signal,
     and SIGPROF is blocked while its handler runs. */
  static AsgstTestTrace walk;
  greg_t pc = CTX_PC((ucontext_t*)ucontext);
  (void)signo; (void)info;
  if (!__atomic_load_n(&in_loop, __ATOMIC_ACQUIRE)) {
    return;
  }
  asgst_test_walk(ucontext, 0, &walk);
  long walk_number = __atomic_fetch_add(&walks, 1, __ATOMIC_RELAXED);
  int complete = walk.kind >= 0 && walk.state == ASGST_NO_FRAME;
  if (walk.count > 0 && (greg_t)walk.frames[0].pc == pc) {
    /* The top frame's code was interrupted: keep its range, for diagnostics. */
    int t = diag_tag_of(walk.frames[0].method);
    unsigned long p = (unsigned long)pc;
    if (code_low[t] == 0 || p < code_low[t]) {
      code_low[t] = p;
    }
    if (p > code_high[t]) {
      code_high[t] = p;
    }
    code_level[t] = walk.frames[0].comp_level;
  }
  if (walk_number >= 20000 && diag_good_count == 0 && complete && walk.count > 0 &&
      tag_of(walk.frames[0].method) == CALLEE && holds_loop_frames(&walk, complete)) {
    diag_record(diag_good, &diag_good_count, (const ucontext_t*)ucontext, &walk, walk_number);
  }
  if (!holds_loop_frames(&walk, complete) && began_before_loop_frame(&walk, complete, (const ucontext_t*)ucontext)) {
    __atomic_fetch_add(&before_loop_frame, 1, __ATOMIC_RELAXED);
  } else if (!holds_loop_frames(&walk, complete)) {
    __atomic_fetch_add(&wrong, 1, __ATOMIC_RELAXED);
    diag_record(diag, &diag_count, (const ucontext_t*)ucontext, &walk, walk_number);
    if (!__atomic_exchange_n(&wrong_recorded, 1, __ATOMIC_ACQ_REL)) {
      describe_walk(wrong_walk, sizeof(wrong_walk), pc, &walk);
    }
  } else if (!complete) {
    __atomic_fetch_add(&refused, 1, __ATOMIC_RELAXED);
    if (loops_entered > 8) {
      /* Past the first calls, when loop() and its callees were interpreted. */
      diag_record(diag_refused, &diag_refused_count, (const ucontext_t*)ucontext, &walk, walk_number);
    }
  } else if (tag_of(walk.frames[0].method) == LOOP && (greg_t)walk.frames[0].pc != pc) {
    /* The interrupted code was not the loop's, nor a callee's frame: a callee that returns. */
    __atomic_fetch_add(&at_return_address, 1, __ATOMIC_RELAXED);
  }
  check_from_frame((const ucontext_t*)ucontext);
}

static jvmtiEnv* jvmti;

static void JNICALL on_compiled_method_load(jvmtiEnv* env, jmethodID method, jint size, const void* address,
                                            jint map_length, const jvmtiAddrLocationMap* map, const void* info) {
  (void)env; (void)map_length; (void)map; (void)info;
  if (method == loop_method) {
    /* Compiler threads may post at once; a range read before it is written
       is empty (static storage starts zeroed) and matches no pc. */
    int i = __atomic_fetch_add(&loop_code_count, 1, __ATOMIC_ACQ_REL);
    if (i < MAX_LOOP_CODE) {
      __atomic_store_n(&loop_code_end[i], (const char*)address + size, __ATOMIC_RELEASE);
      __atomic_store_n(&loop_code_begin[i], (const char*)address, __ATOMIC_RELEASE);
    }
  }
}

/* JVMTI, to learn where loop()'s compiled code lies (the library loads in
   the class's static initializer, before loop() first runs). */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  JNIEnv* env;
  jclass cls;
  (void)reserved;
  if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) != JNI_OK ||
      (cls = (*env)->FindClass(env, "AsgstReturningFrames")) == NULL ||
      (loop_method = (*env)->GetStaticMethodID(env, cls, "loop", "()J")) == NULL ||
      asgst_test_load_jvmti(vm, &jvmti) == JNI_ERR ||
      asgst_test_watch_code(jvmti, on_compiled_method_load, NULL) != 0) {
    fprintf(stderr, "libAsgstReturningFrames: no loop() or no JVMTI code events\n");
    return JNI_ERR;
  }
  return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL Java_AsgstReturningFrames_startSampling(JNIEnv* env, jclass cls, jint interval_micros,
                                                               jint loop_depth) {
  pthread_attr_t attr;
  void* stack_address;
  size_t stack_size;
  (void)cls;
  depth = loop_depth;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    if (pthread_attr_getstack(&attr, &stack_address, &stack_size) == 0) {
      stack_low = (unsigned long)stack_address;
      stack_high = stack_low + stack_size;
    }
    pthread_attr_destroy(&attr);
  }
  if (asgst_test_start_sampling(on_sigprof, CLOCK_MONOTONIC, interval_micros, &timer) != 0) {
    (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/RuntimeException"), "cannot start the timer");
  }
}

JNIEXPORT jlongArray JNICALL Java_AsgstReturningFrames_stopSampling(JNIEnv* env, jclass cls) {
  jlong values[7];
  (void)cls;
  timer_delete(timer);
  values[0] = walks;
  values[1] = refused;
  values[2] = wrong;
  values[3] = at_return_address;
  values[4] = before_loop_frame;
  values[5] = from_frame_complete;
  values[6] = from_frame_wrong;
  return asgst_test_long_array(env, values, 7);
}

JNIEXPORT jstring JNICALL Java_AsgstReturningFrames_firstWrongWalkFromFrame(JNIEnv* env, jclass cls) {
  (void)cls;
  return __atomic_load_n(&from_frame_wrong_recorded, __ATOMIC_ACQUIRE)
         ? (*env)->NewStringUTF(env, from_frame_wrong_walk) : NULL;
}

static void diag_print_trace(const char* what, const DiagTrace* t, int kind, int state) {
  int i;
  fprintf(stderr, "  %s: kind %d end %d, %d frames (name type level bci pc sp fp):\n", what, kind, state, t->count);
  for (i = 0; i < t->count && i < MAX_FRAMES; i++) {
    fprintf(stderr, "    #%-2d %-10s %d %2d %3d pc 0x%lx sp 0x%lx fp 0x%lx\n", i, t->name[i], t->type[i], t->level[i],
            t->bci[i], t->fpc[i], t->fsp[i], t->ffp[i]);
  }
}

static const char* const diag_tag_names[] = { "other", "nop", "nop6", "nop8", "nop10", "leaf", "enterLoop",
                                              "exitLoop", "loop", "descend", "main" };

/* Where a word lies: in the code of a kind of method seen interrupted, or in a frame of the walk. */
static void diag_describe_word(unsigned long w, const DiagWalk* d, char* out, size_t size) {
  int t, i;
  out[0] = '\0';
  for (t = 0; t < 11; t++) {
    if (code_low[t] != 0 && w >= code_low[t] - 256 && w <= code_high[t] + 256) {
      snprintf(out, size, " (near %s code [0x%lx,0x%lx] level %d)", diag_tag_names[t], code_low[t], code_high[t],
               code_level[t]);
      return;
    }
  }
  for (i = 0; i < d->all.count; i++) {
    if (w == d->all.fpc[i]) {
      snprintf(out, size, " (pc of all-frames walk #%d %s)", i, d->all.name[i]);
      return;
    }
  }
}

static void diag_print_walks(const char* what, const DiagWalk* kept, int n) {
  int k, i;
  if (n > DIAG_WALKS) {
    n = DIAG_WALKS;
  }
  for (k = 0; k < n; k++) {
    const DiagWalk* d = &kept[k];
    char where[160];
    fprintf(stderr, "%s %d: walk number %ld, in loop() call %ld, native phase %d\n", what, k, d->walk_number,
            d->loop_number, d->native_phase);
    diag_describe_word(d->pc, d, where, sizeof(where));
    fprintf(stderr, "  context pc 0x%lx%s sp 0x%lx fp 0x%lx\n", d->pc, where, d->sp, d->fp);
#if defined(__x86_64__)
    fprintf(stderr, "  regs rax 0x%llx rbx 0x%llx rcx 0x%llx rdx 0x%llx rsi 0x%llx rdi 0x%llx\n",
            (unsigned long long)d->regs[REG_RAX], (unsigned long long)d->regs[REG_RBX],
            (unsigned long long)d->regs[REG_RCX], (unsigned long long)d->regs[REG_RDX],
            (unsigned long long)d->regs[REG_RSI], (unsigned long long)d->regs[REG_RDI]);
    fprintf(stderr, "  regs r8 0x%llx r9 0x%llx r10 0x%llx r11 0x%llx r12 0x%llx r13 0x%llx r14 0x%llx r15 0x%llx\n",
            (unsigned long long)d->regs[REG_R8], (unsigned long long)d->regs[REG_R9],
            (unsigned long long)d->regs[REG_R10], (unsigned long long)d->regs[REG_R11],
            (unsigned long long)d->regs[REG_R12], (unsigned long long)d->regs[REG_R13],
            (unsigned long long)d->regs[REG_R14], (unsigned long long)d->regs[REG_R15]);
#elif defined(__aarch64__)
    /* x30 (lr) holds the return address in a prologue, after an epilogue and in a leaf. */
    for (i = 0; i < DIAG_REGS; i += 8) {
      int r;
      fprintf(stderr, "  regs");
      for (r = i; r < i + 8 && r < DIAG_REGS; r++) {
        fprintf(stderr, " x%d 0x%lx", r, d->regs[r]);
      }
      fprintf(stderr, "\n");
    }
#endif
    diag_print_trace("walk checked", &d->java, d->java_kind, d->java_state);
    diag_print_trace("walk with non-Java frames", &d->all, d->all_kind, d->all_state);
    fprintf(stderr, "  code from pc-%d:", DIAG_CODE_BEFORE);
    for (i = 0; i < DIAG_CODE_BEFORE + DIAG_CODE_AFTER; i++) {
      fprintf(stderr, "%s%02x", i == DIAG_CODE_BEFORE ? " | " : " ", d->code[i]);
    }
    fprintf(stderr, "\n  stack from sp:\n");
    for (i = 0; i < DIAG_STACK_WORDS; i++) {
      diag_describe_word(d->stack[i], d, where, sizeof(where));
      fprintf(stderr, "    sp+%-3d 0x%lx: 0x%lx%s\n", i * 8, d->sp + i * 8, d->stack[i], where);
    }
  }
}

static void diag_print(void) {
  int t;
  fprintf(stderr, "asgst diagnostics: %d wrong walk(s), %d refused walk(s) seen, %ld loop() calls\n",
          __atomic_load_n(&diag_count, __ATOMIC_ACQUIRE), __atomic_load_n(&diag_refused_count, __ATOMIC_ACQUIRE),
          (long)loops_entered);
  for (t = 0; t < 11; t++) {
    if (code_low[t] != 0) {
      fprintf(stderr, "  %-9s code seen interrupted in [0x%lx, 0x%lx], level %d\n", diag_tag_names[t], code_low[t],
              code_high[t], code_level[t]);
    }
  }
  diag_print_walks("wrong walk", diag, __atomic_load_n(&diag_count, __ATOMIC_ACQUIRE));
  /* The rest only with a wrong walk (or ASGST_DIAG_ALL set): refused walks
     and a right walk, to compare. */
  if (__atomic_load_n(&diag_count, __ATOMIC_ACQUIRE) > 0 || getenv("ASGST_DIAG_ALL") != NULL) {
    diag_print_walks("refused walk", diag_refused, __atomic_load_n(&diag_refused_count, __ATOMIC_ACQUIRE));
    diag_print_walks("right walk, to compare,", diag_good, __atomic_load_n(&diag_good_count, __ATOMIC_ACQUIRE));
  }
  fflush(stderr);
}

JNIEXPORT jstring JNICALL Java_AsgstReturningFrames_firstWrongWalk(JNIEnv* env, jclass cls) {
  (void)cls;
  diag_print();
  return __atomic_load_n(&wrong_recorded, __ATOMIC_ACQUIRE) ? (*env)->NewStringUTF(env, wrong_walk) : NULL;
}

JNIEXPORT void JNICALL Java_AsgstReturningFrames_enterLoop(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  native_phase = 5;
  loops_entered++;
  __atomic_store_n(&in_loop, 1, __ATOMIC_RELEASE);
  native_phase = -5;
}

JNIEXPORT void JNICALL Java_AsgstReturningFrames_exitLoop(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  native_phase = 6;
  __atomic_store_n(&in_loop, 0, __ATOMIC_RELEASE);
  native_phase = -6;
}

JNIEXPORT jint JNICALL Java_AsgstReturningFrames_nop(JNIEnv* env, jclass cls, jint value) {
  (void)env; (void)cls;
  native_phase = 1;
  native_phase = -1;
  return value;
}

JNIEXPORT jint JNICALL Java_AsgstReturningFrames_nop6(JNIEnv* env, jclass cls, jint a, jint b, jint c, jint d, jint e,
                                                      jint f) {
  (void)env; (void)cls;
  native_phase = 2;
  native_phase = -2;
  return a + b + c + d + e + f;
}

JNIEXPORT jint JNICALL Java_AsgstReturningFrames_nop8(JNIEnv* env, jclass cls, jint a, jint b, jint c, jint d, jint e,
                                                      jint f, jint g, jint h) {
  (void)env; (void)cls;
  native_phase = 3;
  native_phase = -3;
  return a + b + c + d + e + f + g + h;
}

JNIEXPORT jint JNICALL Java_AsgstReturningFrames_nop10(JNIEnv* env, jclass cls, jint a, jint b, jint c, jint d,
                                                       jint e, jint f, jint g, jint h, jint i, jint j) {
  (void)env; (void)cls;
  native_phase = 4;
  native_phase = -4;
  return a + b + c + d + e + f + g + h + i + j;
}
