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
 * Walks each sample of Java code (AsgstLeafCallEdges.java) as it is, and again
 * from a context made as if the thread had just called a C function and stood
 * at its first instruction (push %rbp), after that push, or at its ret, or
 * in a C function without any frame, called directly or from a stub that
 * saved registers below the frame first: the return address (and the pushed
 * frame pointer or saved registers) written just below the thread's sp,
 * where the interrupted Java code keeps nothing, and restored after the walk.
 * Within the 128 bytes below sp that the signal frame leaves alone. On
 * aarch64 the call leaves the return address in x30 (lr) instead and the
 * push is the frame record (stp x29, x30); the words below sp are the
 * kernel's (the signal frame's own frame record, the end of the ucontext),
 * read only by sigreturn, after they are restored. Also, for
 * compiled samples, as if the thread stood at the entry of C2's exception
 * blob, which compiled code's exception handling jumps to with the frame it
 * unwinds to at sp and that frame's pc in a register: no walk can be right
 * there, so every one must be refused.
 */

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

/* A C function with a frame pointer, as gcc makes them: the walks pretend to
   be at its first instruction, at its second (after the push) and at its ret. */
#if defined(__x86_64__)
__asm__(".text\n"
        ".p2align 4\n"
        "asgst_test_framed_leaf:\n"
        "  push %rbp\n"
        "  mov %rsp, %rbp\n"
        "  pop %rbp\n"
        "  ret\n"
        ".p2align 4\n"
        "asgst_test_frameless_leaf:\n"
        "  mov %rdi, %rax\n"
        "  ret\n");
extern char asgst_test_framed_leaf[];
extern char asgst_test_frameless_leaf[];
#define AFTER_PUSH_OFFSET 1
#define RET_OFFSET 5
/* Words a call pushes: the return address. */
#define CALL_WORDS 1
#define CTX_PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#define CTX_SP(uc) ((uc)->uc_mcontext.gregs[REG_RSP])
#define CTX_FP(uc) ((uc)->uc_mcontext.gregs[REG_RBP])
#define CTX_SAVED(uc, i) ((uc)->uc_mcontext.gregs[REG_R8 + (i)])
#elif defined(__aarch64__)
/* The push is the frame record (x29, x30), as gcc's prologues store it; a
   leaf has no record at all, its return address stays in x30. The frameless
   function begins with neither a push nor a ret: the walk cannot tell its
   place from its instructions. */
__asm__(".text\n"
        ".p2align 4\n"
        "asgst_test_framed_leaf:\n"
        "  stp x29, x30, [sp, #-16]!\n"
        "  mov x29, sp\n"
        "  ldp x29, x30, [sp], #16\n"
        "  ret\n"
        ".p2align 4\n"
        "asgst_test_frameless_leaf:\n"
        "  add x0, x0, #1\n"
        "  ret\n");
/* Hidden, so reached pc-relatively: through the GOT, the assembler would
   name both by their section, and the linker give both its first address. */
extern char asgst_test_framed_leaf[] __attribute__((visibility("hidden")));
extern char asgst_test_frameless_leaf[] __attribute__((visibility("hidden")));
#define AFTER_PUSH_OFFSET 4
#define RET_OFFSET 12
/* A call pushes nothing: the return address is in x30. */
#define CALL_WORDS 0
#define CTX_PC(uc) ((uc)->uc_mcontext.pc)
#define CTX_SP(uc) ((uc)->uc_mcontext.sp)
#define CTX_FP(uc) ((uc)->uc_mcontext.regs[29])
#define CTX_LR(uc) ((uc)->uc_mcontext.regs[30])
#define CTX_SAVED(uc, i) ((uc)->uc_mcontext.regs[i])
#endif

#define COMPARED_FRAMES 16
enum Place { AT_ENTRY, AFTER_PUSH, AT_RET, FRAMELESS, AFTER_SAVE, FRAMELESS_OLDER_FP, AFTER_SAVE_OLDER_FP,
             INTERPRETER_ENTRY, EXCEPTION_BLOB, PLACES };
/* Registers a made barrier stub saves below the frame: an even number keeps
   sp 16-byte aligned at its call, as the stubs keep it. */
#define SAVED_WORDS 12
/* Arguments that a c2i adapter puts between the compiled caller's sp and the
   return address it pushes again for the interpreter (rounded to 16 bytes;
   on aarch64 the return address stays in x30, below the arguments is sp). */
#define C2I_ARG_WORDS 4

typedef struct {
  int kind;
  int end_state;
  int count;                       /* Java frames, up to COMPARED_FRAMES */
  ASGST_Frame frames[COMPARED_FRAMES];
  ASGST_Frame first;               /* the first frame of any kind */
  int any;
} Walk;

static volatile long compared[PLACES], differed[PLACES], refused[PLACES];
static void* volatile exception_blob;  /* C2's exception blob, from JVMTI's DynamicCodeGenerated */
static volatile int difference_recorded[PLACES];
static char difference[PLACES][2048];
static timer_t timer;

static void record(ASGST_Iterator* iterator, void* arg) {
  Walk* walk = (Walk*)arg;
  ASGST_Frame frame;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (!walk->any) {
      walk->first = frame;
      walk->any = 1;
    }
    if (frame.type != ASGST_FRAME_NON_JAVA && walk->count < COMPARED_FRAMES) {
      walk->frames[walk->count++] = frame;
    }
  }
  walk->end_state = ASGST_State(iterator);
}

static void run_walk(void* ucontext, Walk* walk) {
  walk->count = 0;
  walk->any = 0;
  walk->end_state = 1;
  walk->kind = ASGST_RunWithIterator(ucontext, ASGST_INCLUDE_NON_JAVA_FRAMES, record, walk);
}

static int same_walk(const Walk* a, const Walk* b) {
  int i;
  if (a->kind != b->kind || a->end_state != b->end_state || a->count != b->count) {
    return 0;
  }
  for (i = 0; i < a->count; i++) {
    if (a->frames[i].method != b->frames[i].method || a->frames[i].bci != b->frames[i].bci) {
      return 0;
    }
  }
  return 1;
}

static void describe(char* text, size_t size, size_t* used, const Walk* walk) {
  int i;
  *used += (size_t)snprintf(text + *used, size - *used, "kind %d end %d: ", walk->kind, walk->end_state);
  for (i = 0; i < walk->count && *used < size; i++) {
    asgst_test_describe_frame(text, size, used, &walk->frames[i]);
    if (*used > 0 && *used < size) {
      (*used)--;  /* and the sp, which tells a frame made at a wrong sp */
      *used += (size_t)snprintf(text + *used, size - *used, "@%p ", walk->frames[i].sp);
    }
  }
}

/* Counts a made walk that differs from the real one; describes the first of each place. */
static void count_difference(int place, const Walk* real, const Walk* fake) {
  char* text = difference[place];
  size_t size = sizeof(difference[place]);
  __atomic_fetch_add(&differed[place], 1, __ATOMIC_RELAXED);
  if (!__atomic_load_n(&difference_recorded[place], __ATOMIC_ACQUIRE)) {
    size_t used = (size_t)snprintf(text, size, "place %d: as it is: ", place);
    describe(text, size, &used, real);
    if (used < size) {
      used += (size_t)snprintf(text + used, size - used, "; made: ");
      describe(text, size, &used, fake);
    }
    __atomic_store_n(&difference_recorded[place], 1, __ATOMIC_RELEASE);
  }
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  /* Not thread-local: the first access of a dlopen'ed library's thread-local
     variable may call malloc, which deadlocks in a signal handler that
     interrupted malloc (seen once). Only the sampled thread gets this signal,
     and SIGPROF is blocked while its handler runs. */
  static Walk real, fake;
  static ucontext_t made;
  ucontext_t* uc = (ucontext_t*)ucontext;
  greg_t pc = CTX_PC(uc);
  greg_t sp = CTX_SP(uc);
  greg_t fp = CTX_FP(uc);
  greg_t* below = (greg_t*)sp;
  greg_t saved[SAVED_WORDS + 1];
  greg_t older_pc = 0, kept;
  int place, i;
  (void)signo; (void)info;
  run_walk(ucontext, &real);
  /* Only in Java code (the interpreter or compiled code): it keeps nothing below sp,
     where the made contexts put a return address and a frame pointer. */
  if (!real.any || real.first.type == ASGST_FRAME_NON_JAVA || (greg_t)real.first.pc != pc ||
      real.end_state != ASGST_NO_FRAME) {
    return;
  }
  for (i = 0; i <= SAVED_WORDS; i++) {
    saved[i] = below[-1 - i];
  }
  for (place = 0; place < PLACES; place++) {
    made = *uc;
    below[-1] = pc;   /* the return address the call pushed (aarch64: x30 of the frame record) */
    below[-2] = fp;   /* the caller's frame pointer, pushed by push %rbp (aarch64: x29 of the record) */
    CTX_FP(&made) = fp;
#if defined(__aarch64__)
    /* The return address the call left in x30: at the exception blob's entry
       a stale one, which a walk that read it would go on from. */
    CTX_LR(&made) = pc;
#endif
    if (place == EXCEPTION_BLOB) {
      void* entry = __atomic_load_n(&exception_blob, __ATOMIC_ACQUIRE);
      if (real.frames[0].comp_level <= 0 || entry == NULL) {
        continue;
      }
      CTX_PC(&made) = (greg_t)entry;
      CTX_SP(&made) = sp;
      /* A frame of the blob's size (two words) made from sp would take the
         word above sp for its return address: a return address into this
         code there (as a stale one may be) makes such a walk go on. Written
         for the walk only: the thread, stopped in Java code, lets no
         safepoint or handshake look at its frame meanwhile. */
      kept = below[1];
      below[1] = pc;
      run_walk(&made, &fake);
      below[1] = kept;
      __atomic_fetch_add(&compared[place], 1, __ATOMIC_RELAXED);
      if (fake.kind < 0) {
        __atomic_fetch_add(&refused[place], 1, __ATOMIC_RELAXED);
      } else {
        /* The frame's pc is not in the context: any answer is a guess. */
        count_difference(place, &real, &fake);
      }
      continue;
    }
    if (place == FRAMELESS_OLDER_FP || place == AFTER_SAVE_OLDER_FP || place == INTERPRETER_ENTRY) {
      /* Compiled code that never used the frame pointer register still has
         the one of the interpreted frame below it (compiled frames save and
         restore it): the chain begins at that frame. */
      greg_t older_fp = 0;
      for (i = 1; i < real.count && older_fp == 0; i++) {
        if (real.frames[i].type == ASGST_FRAME_JAVA && real.frames[i].comp_level == 0) {
          older_fp = (greg_t)real.frames[i].fp;
          older_pc = (greg_t)real.frames[i].pc;
        }
      }
      if (real.frames[0].comp_level <= 0 || older_fp == 0) {
        continue;
      }
      CTX_FP(&made) = older_fp;
    }
    switch (place) {
      case AT_ENTRY:
        CTX_PC(&made) = (greg_t)asgst_test_framed_leaf;
        CTX_SP(&made) = sp - 8 * CALL_WORDS;
        break;
      case AFTER_PUSH:
        CTX_PC(&made) = (greg_t)(asgst_test_framed_leaf + AFTER_PUSH_OFFSET);
        CTX_SP(&made) = sp - 16;
        break;
      case AT_RET:
        CTX_PC(&made) = (greg_t)(asgst_test_framed_leaf + RET_OFFSET);
        CTX_SP(&made) = sp - 8 * CALL_WORDS;
        break;
      case FRAMELESS:
      case FRAMELESS_OLDER_FP:
        CTX_PC(&made) = (greg_t)asgst_test_frameless_leaf;
        CTX_SP(&made) = sp - 8 * CALL_WORDS;
        break;
      case AFTER_SAVE:
      case AFTER_SAVE_OLDER_FP:
        for (i = 0; i < SAVED_WORDS; i++) {
          below[-1 - i] = CTX_SAVED(uc, i);  /* live registers, saved */
        }
        if (CALL_WORDS > 0) {
          below[-1 - SAVED_WORDS] = pc;
        }
        CTX_PC(&made) = (greg_t)asgst_test_frameless_leaf;
        CTX_SP(&made) = sp - 8 * (SAVED_WORDS + CALL_WORDS);
        break;
      case INTERPRETER_ENTRY:
        /* As if the compiled frame had called an interpreted method through
           the c2i adapter, and the interpreter ran its entry, before the
           callee's frame: arguments, then the return address (aarch64: in
           x30), below sp; pc in the interpreter (where the older interpreted
           frame returns to). */
        for (i = 0; i < C2I_ARG_WORDS; i++) {
          below[-1 - i] = (greg_t)i;
        }
        if (CALL_WORDS > 0) {
          below[-1 - C2I_ARG_WORDS] = pc;
        }
        CTX_PC(&made) = older_pc;
        CTX_SP(&made) = sp - 8 * (C2I_ARG_WORDS + CALL_WORDS);
        break;
    }
    run_walk(&made, &fake);
    __atomic_fetch_add(&compared[place], 1, __ATOMIC_RELAXED);
    if (fake.kind < 0 && (place == AFTER_SAVE || place == AFTER_SAVE_OLDER_FP)) {
      /* Found only where the frame pointer leads to an older frame that
         confirms it; a refusal is no wrong answer. */
      __atomic_fetch_add(&refused[place], 1, __ATOMIC_RELAXED);
    } else if (!same_walk(&real, &fake)) {
      count_difference(place, &real, &fake);
    }
  }
  for (i = 0; i <= SAVED_WORDS; i++) {
    below[-1 - i] = saved[i];
  }
}

JNIEXPORT void JNICALL Java_AsgstLeafCallEdges_startSampling(JNIEnv* env, jclass cls, jint interval_micros) {
  (void)cls;
  if (asgst_test_start_sampling(on_sigprof, CLOCK_MONOTONIC, interval_micros, &timer) != 0) {
    (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/RuntimeException"), "cannot start the timer");
  }
}

JNIEXPORT jlongArray JNICALL Java_AsgstLeafCallEdges_stopSampling(JNIEnv* env, jclass cls) {
  jlong values[3 * PLACES];
  int i;
  (void)cls;
  timer_delete(timer);
  for (i = 0; i < PLACES; i++) {
    values[3 * i] = compared[i];
    values[3 * i + 1] = differed[i];
    values[3 * i + 2] = refused[i];
  }
  return asgst_test_long_array(env, values, 3 * PLACES);
}

JNIEXPORT jstring JNICALL Java_AsgstLeafCallEdges_firstDifference(JNIEnv* env, jclass cls) {
  static char all[PLACES * (sizeof(difference[0]) + 1)];
  size_t used = 0;
  int place;
  (void)cls;
  for (place = 0; place < PLACES; place++) {
    if (__atomic_load_n(&difference_recorded[place], __ATOMIC_ACQUIRE)) {
      used += (size_t)snprintf(all + used, sizeof(all) - used, "%s%s", used > 0 ? "\n" : "", difference[place]);
    }
  }
  return used > 0 ? (*env)->NewStringUTF(env, all) : NULL;
}

static void JNICALL on_dynamic_code_generated(jvmtiEnv* env, const char* name, const void* address, jint length) {
  (void)env; (void)length;
  if (strcmp(name, "ExceptionBlob") == 0) {
    __atomic_store_n(&exception_blob, (void*)address, __ATOMIC_RELEASE);
  }
}

/* The exception blob's address: the code generated so far comes at once,
   later code (C2 makes its blobs as its compiler thread starts) as it is made. */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  jvmtiEnv* jvmti;
  (void)reserved;
  if (asgst_test_load_jvmti(vm, &jvmti) == JNI_ERR) {
    return JNI_ERR;
  }
  if (asgst_test_watch_generated_code(jvmti, on_dynamic_code_generated) != 0) {
    fprintf(stderr, "libAsgstLeafCallEdges: JVMTI refused the code events\n");
    return JNI_ERR;
  }
  return JNI_VERSION_1_8;
}
