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
 * Samples AsgstPushedWords.java's thread, which runs main, loop and cast.
 *
 * Each walk must begin, by name, with a suffix of "cast loop main" (whole,
 * or cut by an error), or be refused.
 *
 * Each sample whose top frame is cast, interrupted where cast's code has
 * pushed nothing, is walked again as if the thread stood in one of cast's
 * calls of C1's slow subtype check stub, which take their two arguments on
 * the stack: pushed before the call, popped after it. The test finds these
 * calls in cast's code by their instructions (JVMTI tells where cast's code
 * and the stub lie) and makes the context: pc at a place of the call's
 * sequence, sp lowered by the words pushed there, the words written below
 * sp (where the interrupted Java code keeps nothing; restored after the
 * walk). That walk must report the same frames at the same sps as the walk
 * as it is: only the top frame's pc differs. To make a walker that takes sp
 * for the frame's top go wrong rather than be refused, the frame slot that
 * such a walker reads as the return address (three words below the caller's
 * sp) holds the real return address during the walk.
 */

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#if defined(__x86_64__)
#define CTX_PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#define CTX_SP(uc) ((uc)->uc_mcontext.gregs[REG_RSP])
#elif defined(__aarch64__)
#define CTX_PC(uc) ((uc)->uc_mcontext.pc)
#define CTX_SP(uc) ((uc)->uc_mcontext.sp)
#define CTX_LR(uc) ((uc)->uc_mcontext.regs[30])
#endif

static const char* const truth[] = {"cast", "loop", "main"};
#define TRUTH_FRAMES 3

/* A call of the stub in cast's code: the places of its sequence where words
   are pushed, and how many; the window from the first of them to the end. */
#define MAX_PLACES 4
typedef struct {
  const unsigned char* place[MAX_PLACES];
  int words[MAX_PLACES];
  int places;
  const unsigned char* window_begin;
  const unsigned char* window_end;
  const unsigned char* return_address;  /* after the call */
} StubCall;

#define MAX_CALLS 16
#define MAX_CODES 8
typedef struct {
  const unsigned char* begin;
  const unsigned char* end;
  int calls;
  StubCall call[MAX_CALLS];
} Code;

static jvmtiEnv* jvmti;
static const unsigned char* volatile stub;   /* C1's slow subtype check stub */
static const unsigned char* volatile stub_end;
static Code codes[MAX_CODES];
static volatile int code_count;              /* published with release after the Code is filled */
static volatile long stub_calls_found;

static timer_t timer;
static volatile long reported, on_cast, refused, refused_in_stub, wrong, made, differed;
static char first_wrong[2048];
static volatile int wrong_recorded;
static char first_difference[4096];
static volatile int difference_recorded;

/* ---- The stub's calls, by their instructions ---- */

#if defined(__x86_64__)
/* push (base 0x50) or pop (base 0x58) of a general register: its length, or 0. */
static int push_or_pop(const unsigned char* p, const unsigned char* end, int base) {
  if (p < end && p[0] >= base && p[0] < base + 8) {
    return 1;
  }
  if (p + 1 < end && p[0] == 0x41 && p[1] >= base && p[1] < base + 8) {
    return 2;
  }
  return 0;
}

/* push a; push b; call stub; pop; pop at p. */
static int stub_call_at(const unsigned char* p, const unsigned char* end, StubCall* call) {
  int first = push_or_pop(p, end, 0x50);
  int second = first == 0 ? 0 : push_or_pop(p + first, end, 0x50);
  const unsigned char* c = p + first + second;
  int32_t rel;
  int pop1, pop2;
  if (second == 0 || c + 5 > end || c[0] != 0xe8) {
    return 0;
  }
  memcpy(&rel, c + 1, sizeof(rel));
  if (c + 5 + rel != stub) {
    return 0;
  }
  pop1 = push_or_pop(c + 5, end, 0x58);
  pop2 = pop1 == 0 ? 0 : push_or_pop(c + 5 + pop1, end, 0x58);
  if (pop2 == 0) {
    return 0;
  }
  call->place[0] = p + first;       call->words[0] = 1;  /* the second push: one pushed */
  call->place[1] = c;               call->words[1] = 2;  /* the call */
  call->place[2] = c + 5;           call->words[2] = 2;  /* returned: the first pop */
  call->place[3] = c + 5 + pop1;    call->words[3] = 1;  /* the second pop */
  call->places = 4;
  call->window_begin = p + first;
  call->window_end = c + 5 + pop1 + pop2;
  call->return_address = c + 5;
  return 1;
}
#define INSTRUCTION_ALIGNMENT 1
#elif defined(__aarch64__)
static uint32_t insn_at(const unsigned char* p) {
  uint32_t insn;
  memcpy(&insn, p, sizeof(insn));
  return insn;
}

static int64_t sign_extend(uint64_t value, int bits) {
  return (int64_t)(value << (64 - bits)) >> (64 - bits);
}

/* stp xa, xb, [sp, #-16]! */
static int is_push_pair(uint32_t insn) {
  return (insn & 0xffff83e0) == 0xa9bf03e0;
}

/* ldp xa, xb, [sp], #16 or ldr xa, [sp], #16 */
static int is_pop(uint32_t insn) {
  return (insn & 0xffff83e0) == 0xa8c103e0 || (insn & 0xffffffe0) == 0xf84107e0;
}

/* The stub's call at c: bl, or adrp x8; add x8, x8, #lo; blr x8. Its instructions, or 0. */
static int call_instructions(const unsigned char* c, const unsigned char* end) {
  uint32_t insn = insn_at(c);
  if ((insn & 0xfc000000) == 0x94000000) {
    return c + 4 * sign_extend(insn & 0x3ffffff, 26) == stub ? 1 : 0;
  }
  if (c + 12 <= end && (insn & 0x9f00001f) == 0x90000008 && (insn_at(c + 4) & 0xffc003ff) == 0x91000108 &&
      insn_at(c + 8) == 0xd63f0100) {
    uint64_t immlo = (insn >> 29) & 3, immhi = (insn >> 5) & 0x7ffff;
    uint64_t page = ((uint64_t)c & ~(uint64_t)0xfff) + (uint64_t)(sign_extend((immhi << 2) | immlo, 21) * 4096);
    uint64_t target = page + ((insn_at(c + 4) >> 10) & 0xfff);
    return (const unsigned char*)target == stub ? 3 : 0;
  }
  return 0;
}

/* stp; the call; ldp or ldr at p: two words pushed from the call to the pop. */
static int stub_call_at(const unsigned char* p, const unsigned char* end, StubCall* call) {
  const unsigned char* c = p + 4;
  int n, i;
  if (c + 4 > end || !is_push_pair(insn_at(p)) || (n = call_instructions(c, end)) == 0 ||
      c + 4 * n + 4 > end || !is_pop(insn_at(c + 4 * n))) {
    return 0;
  }
  for (i = 0; i < n; i++) {
    call->place[i] = c + 4 * i;
    call->words[i] = 2;
  }
  call->place[n] = c + 4 * n;
  call->words[n] = 2;
  call->places = n + 1;
  call->window_begin = c;
  call->window_end = c + 4 * n + 4;
  call->return_address = c + 4 * n;
  return 1;
}
#define INSTRUCTION_ALIGNMENT 4
#endif

static void JNICALL on_generated(jvmtiEnv* env, const char* name, const void* address, jint length) {
  (void)env;
  if (strstr(name, "slow_subtype_check") != NULL) {
    __atomic_store_n(&stub_end, (const unsigned char*)address + length, __ATOMIC_RELEASE);
    __atomic_store_n(&stub, (const unsigned char*)address, __ATOMIC_RELEASE);
  }
}

static void JNICALL on_compiled(jvmtiEnv* env, jmethodID method, jint size, const void* address, jint map_length,
                                const jvmtiAddrLocationMap* map, const void* compile_info) {
  char name[64];
  int n = code_count;
  Code* code;
  const unsigned char* p;
  (void)env; (void)map_length; (void)map; (void)compile_info;
  if (!asgst_test_jvmti_method_name(jvmti, method, name, sizeof(name)) || strcmp(name, "cast") != 0 ||
      n >= MAX_CODES || __atomic_load_n(&stub, __ATOMIC_ACQUIRE) == NULL) {
    return;
  }
  code = &codes[n];
  code->begin = (const unsigned char*)address;
  code->end = code->begin + size;
  code->calls = 0;
  for (p = code->begin; p < code->end && code->calls < MAX_CALLS; p += INSTRUCTION_ALIGNMENT) {
    if (stub_call_at(p, code->end, &code->call[code->calls])) {
      code->calls++;
    }
  }
  __atomic_fetch_add(&stub_calls_found, code->calls, __ATOMIC_RELAXED);
  __atomic_store_n(&code_count, n + 1, __ATOMIC_RELEASE);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  jint version = asgst_test_load_jvmti(vm, &jvmti);
  /* The stub first: the compiled methods are scanned for calls of it. */
  if (version == JNI_ERR || asgst_test_watch_code(jvmti, NULL, on_generated) != 0 ||
      asgst_test_watch_code(jvmti, on_compiled, on_generated) != 0) {
    return JNI_ERR;
  }
  return version;
}

/* ---- The walks ---- */

static void describe(char* text, size_t size, size_t* used, const AsgstTestTrace* trace) {
  int i;
  *used += (size_t)snprintf(text + *used, size - *used, "kind %d state %d, %d frames: ", trace->kind, trace->state,
                            trace->count);
  for (i = 0; i < trace->count && i < 6 && *used + 96 < size; i++) {
    asgst_test_describe_frame(text, size, used, &trace->frames[i]);
    *used += (size_t)snprintf(text + *used, size - *used, "(pc %p sp %p) ", trace->frames[i].pc,
                              trace->frames[i].sp);
  }
}

/* main's calls that start and stop the signals (and link them): not judged. */
static int in_sampling_calls(const AsgstTestTrace* trace) {
  return asgst_test_has_method(trace, "startSampling") || asgst_test_has_method(trace, "stopSampling");
}

/* Whether made is real with only the top frame's pc (and bci) changed. */
static int same_frames(const AsgstTestTrace* real, const AsgstTestTrace* made) {
  int i;
  if (made->kind != real->kind || made->state != real->state || made->count != real->count) {
    return 0;
  }
  for (i = 0; i < real->count; i++) {
    const ASGST_Frame* a = &real->frames[i];
    const ASGST_Frame* b = &made->frames[i];
    if (a->type != b->type || a->method != b->method || a->sp != b->sp || a->comp_level != b->comp_level ||
        (i > 0 && (a->pc != b->pc || a->bci != b->bci))) {
      return 0;
    }
  }
  return 1;
}

/* The code of cast that holds pc, or null. */
static const Code* code_of(const unsigned char* pc) {
  int n = __atomic_load_n(&code_count, __ATOMIC_ACQUIRE);
  int i;
  for (i = 0; i < n; i++) {
    if (pc >= codes[i].begin && pc < codes[i].end) {
      return &codes[i];
    }
  }
  return NULL;
}

static int in_window(const Code* code, const unsigned char* pc) {
  int i;
  for (i = 0; i < code->calls; i++) {
    if (pc >= code->call[i].window_begin && pc < code->call[i].window_end) {
      return 1;
    }
  }
  return 0;
}

/* The walks as if the thread stood at each place of each call of the stub. */
static void walk_at_stub_calls(ucontext_t* uc, const Code* code, const AsgstTestTrace* real) {
  static AsgstTestTrace again;
  static ucontext_t context;
  intptr_t* sp = (intptr_t*)CTX_SP(uc);
  intptr_t* caller_sp = (intptr_t*)real->frames[1].sp;
  intptr_t* stale_slot = caller_sp - 3;   /* below the caller's return address and saved frame pointer */
  intptr_t kept_below[2], kept_stale;
  int i, k;
  if (caller_sp == NULL || stale_slot < sp) {
    return;  /* no such slot in cast's frame */
  }
  kept_below[0] = sp[-1];
  kept_below[1] = sp[-2];
  kept_stale = *stale_slot;
  sp[-1] = (intptr_t)real->frames[0].pc;  /* the arguments: any words */
  sp[-2] = (intptr_t)real->frames[0].pc;
  *stale_slot = (intptr_t)real->frames[1].pc;
  for (i = 0; i < code->calls; i++) {
    const StubCall* call = &code->call[i];
    for (k = 0; k < call->places; k++) {
      context = *uc;
      CTX_PC(&context) = (greg_t)call->place[k];
      CTX_SP(&context) = (greg_t)(sp - call->words[k]);
#if defined(__aarch64__)
      if (call->place[k] == call->return_address) {
        CTX_LR(&context) = (greg_t)call->return_address;  /* as the call left it */
      }
#endif
      asgst_test_walk(&context, 0, &again);
      made++;
      if (!same_frames(real, &again)) {
        differed++;
        if (!__atomic_load_n(&difference_recorded, __ATOMIC_ACQUIRE)) {
          size_t used = (size_t)snprintf(first_difference, sizeof(first_difference),
                                         "at %p (%d words pushed): ", (void*)call->place[k], call->words[k]);
          describe(first_difference, sizeof(first_difference), &used, &again);
          used += (size_t)snprintf(first_difference + used, sizeof(first_difference) - used, "; as it is: ");
          describe(first_difference, sizeof(first_difference), &used, real);
          __atomic_store_n(&difference_recorded, 1, __ATOMIC_RELEASE);
        }
      }
    }
  }
  *stale_slot = kept_stale;
  sp[-2] = kept_below[1];
  sp[-1] = kept_below[0];
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  /* One sampled thread; SIGPROF is blocked while its handler runs. */
  static AsgstTestTrace trace;
  ucontext_t* uc = (ucontext_t*)ucontext;
  const unsigned char* pc = (const unsigned char*)CTX_PC(uc);
  const Code* code;
  int saved_errno = errno;
  (void)signo; (void)info;
  asgst_test_walk(ucontext, 0, &trace);
  if (in_sampling_calls(&trace)) {
    /* main's calls that start and stop the signals (and link them): not judged */
  } else if (trace.count == 0) {
    refused++;
    if (pc >= stub && pc < stub_end) {
      refused_in_stub++;
    }
  } else {
    reported++;
    if (!asgst_test_begins_with_suffix(&trace, truth, NULL, TRUTH_FRAMES)) {
      wrong++;
      if (!wrong_recorded) {
        size_t used = 0;
        describe(first_wrong, sizeof(first_wrong), &used, &trace);
        __atomic_store_n(&wrong_recorded, 1, __ATOMIC_RELEASE);
      }
    } else if (asgst_test_method_is(trace.frames[0].method, "cast")) {
      on_cast++;
      code = code_of(pc);
      /* Interrupted in cast's own frame, not in a prologue, an epilogue or a window. */
      if (code != NULL && !in_window(code, pc) && trace.frames[0].pc == (void*)pc &&
          trace.frames[0].sp == (void*)CTX_SP(uc) && trace.count >= TRUTH_FRAMES && trace.state == ASGST_NO_FRAME) {
        walk_at_stub_calls(uc, code, &trace);
      }
    }
  }
  errno = saved_errno;
}

JNIEXPORT void JNICALL Java_AsgstPushedWords_startSampling(JNIEnv* env, jclass cls, jint interval_micros) {
  (void)cls;
  if (asgst_test_start_sampling(on_sigprof, CLOCK_MONOTONIC, interval_micros, &timer) != 0) {
    (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/RuntimeException"), "cannot start the timer");
  }
}

/* {calls of the stub found in cast's code, walks that reported frames, those
   with cast on top, refused, wrong, made walks, made walks that differed,
   refused walks whose pc was in the stub} */
JNIEXPORT jlongArray JNICALL Java_AsgstPushedWords_stopSampling(JNIEnv* env, jclass cls) {
  jlong values[8];
  (void)cls;
  asgst_test_stop_sampling(timer);
  values[0] = stub_calls_found;
  values[1] = reported;
  values[2] = on_cast;
  values[3] = refused;
  values[4] = wrong;
  values[5] = made;
  values[6] = differed;
  values[7] = refused_in_stub;
  return asgst_test_long_array(env, values, 8);
}

JNIEXPORT jstring JNICALL Java_AsgstPushedWords_firstWrong(JNIEnv* env, jclass cls) {
  (void)cls;
  return asgst_test_recorded_text(env, &wrong_recorded, first_wrong);
}

JNIEXPORT jstring JNICALL Java_AsgstPushedWords_firstDifference(JNIEnv* env, jclass cls) {
  (void)cls;
  return asgst_test_recorded_text(env, &difference_recorded, first_difference);
}
