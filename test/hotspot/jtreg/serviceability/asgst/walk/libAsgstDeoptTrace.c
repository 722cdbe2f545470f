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
 * Samples a thread that is being deoptimized and tells by itself whether it
 * is in C code that HotSpot's deoptimization blob called: JVMTI's
 * DynamicCodeGenerated event names the blob's code range, and the handler
 * follows the frame-pointer chain from the interrupted context to a return
 * address in that range. Only a chain through libjvm's code counts: HotSpot's
 * C++ code keeps frame pointers, the C library's does not (there the frame
 * pointer register may hold anything, even an address of stale stack words).
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_getattr_np, REG_RBP */
#endif
#include <link.h>
#include <pthread.h>
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

/* Frames of C code followed from the context: the deoptimization code's
   calls are far less deep. */
#define MAX_CHAIN 64
/* AsyncGetStackTrace's kind filter is checked on the first samples in the
   deoptimization code (it walks twice more in the handler). */
#define FILTER_CHECKS 200
#define FAILURES_SHOWN 8

static const void* volatile blob_begin;
static const void* volatile blob_end;
static const char* jvm_begin;  /* libjvm's executable segment */
static const char* jvm_end;
static char* stack_high;
static timer_t timer;

static volatile int samples, from_blob, from_blob_deopt, pc_in_blob, deopt_walks, failures, filter_checked;
static char failure_text[FAILURES_SHOWN][160];

static void JNICALL on_code_generated(jvmtiEnv* jvmti, const char* name, const void* address, jint length) {
  (void)jvmti;
  if (strcmp(name, "DeoptimizationBlob") == 0) {
    blob_begin = address;
    blob_end = (const char*)address + length;
  }
}

static int find_jvm_code(struct dl_phdr_info* info, size_t size, void* data) {
  size_t length = info->dlpi_name == NULL ? 0 : strlen(info->dlpi_name);
  int i;
  (void)size; (void)data;
  if (length < 10 || strcmp(info->dlpi_name + length - 10, "/libjvm.so") != 0) {
    return 0;
  }
  for (i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr)* segment = &info->dlpi_phdr[i];
    if (segment->p_type == PT_LOAD && (segment->p_flags & PF_X) != 0) {
      jvm_begin = (const char*)(info->dlpi_addr + segment->p_vaddr);
      jvm_end = jvm_begin + segment->p_memsz;
      return 1;
    }
  }
  return 0;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  jvmtiEnv* jvmti;
  (void)reserved;
  if (asgst_test_load_jvmti(vm, &jvmti) == JNI_ERR) {
    return JNI_ERR;
  }
  dl_iterate_phdr(find_jvm_code, NULL);
  return asgst_test_watch_generated_code(jvmti, on_code_generated) == 0 ? JNI_VERSION_1_8 : JNI_ERR;
}

static int in_blob(const void* pc) {
  return pc >= blob_begin && pc < blob_end;
}

static int in_jvm(const void* pc) {
  return (const char*)pc >= jvm_begin && (const char*)pc < jvm_end;
}

/* The return address in the blob that the frame-pointer chain from the
   interrupted pc reaches through libjvm's code only, or null. Only words
   between the interrupted sp and the stack's end are read: the stack in use. */
static const void* chain_reaches_blob(const void* pc, char* fp, char* sp) {
  int i;
  if (!in_jvm(pc)) {
    return NULL;
  }
  for (i = 0; i < MAX_CHAIN; i++) {
    const void* return_address;
    char* caller_fp;
    if (fp < sp || fp + 2 * sizeof(void*) > stack_high || ((uintptr_t)fp & (sizeof(void*) - 1)) != 0) {
      return NULL;
    }
    return_address = ((void**)fp)[1];
    if (in_blob(return_address)) {
      return return_address;
    }
    caller_fp = ((char**)fp)[0];
    if (!in_jvm(return_address) || caller_fp <= fp) {
      return NULL;
    }
    fp = caller_fp;
  }
  return NULL;
}

/*
 * Samples in C code that the blob called, by the call's return address in
 * the blob. The blob calls Deoptimization::fetch_unroll_info and then
 * Deoptimization::unpack_frames, in this order in its code
 * (SharedRuntime::generate_deopt_blob). unpack_frames clears the thread's
 * last Java frame while it fills the interpreted frames in ("the stack isn't
 * really parsable here"): there, and only at the last call of the blob, a
 * walk may find no top Java frame. Only the worker's handler writes these.
 */
#define MAX_CALLS 4
static const void* call_returns[MAX_CALLS];
static int call_deopt[MAX_CALLS], call_no_top[MAX_CALLS], call_other[MAX_CALLS], call_other_kind[MAX_CALLS];
static int calls;
static int unknown_calls;  /* samples beyond MAX_CALLS distinct calls */

static void count_call(const void* return_address, int kind) {
  int i;
  for (i = 0; i < calls && call_returns[i] != return_address; i++) {
  }
  if (i == calls) {
    if (calls == MAX_CALLS) {
      unknown_calls++;
      return;
    }
    call_returns[calls++] = return_address;
  }
  if (kind == ASGST_DEOPT_TRACE) {
    call_deopt[i]++;
  } else if (kind == ASGST_NO_TOP_JAVA_FRAME) {
    call_no_top[i]++;
  } else {
    call_other[i]++;
    call_other_kind[i] = kind;
  }
}

static void fail(const char* what, int kind, int detail) {
  int n = __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
  if (n < FAILURES_SHOWN) {
    snprintf(failure_text[n], sizeof(failure_text[n]), "%s (kind %d, %d)", what, kind, detail);
  }
}

typedef struct {
  int first_java_is_deoptee;  /* 1 yes, 0 another method, -1 no Java frame */
  int state;
} FirstJava;

static void first_java_frame(ASGST_Iterator* iterator, void* arg) {
  FirstJava* first = (FirstJava*)arg;
  ASGST_Frame frame;
  first->first_java_is_deoptee = -1;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (frame.type != ASGST_FRAME_NON_JAVA) {
      first->first_java_is_deoptee = asgst_test_method_is(frame.method, "deoptee");
      break;
    }
  }
  first->state = ASGST_State(iterator);
}

static void check_kind_filter(void* ucontext) {
  ASGST_CallFrame frames[64];
  ASGST_CallTrace trace;
  memset(&trace, 0, sizeof(trace));
  trace.frames = frames;
  trace.kind = ASGST_JAVA_TRACE;
  AsyncGetStackTrace(&trace, 64, ucontext, 0);
  if (trace.num_frames != ASGST_WRONG_KIND) {
    fail("AsyncGetStackTrace accepting Java traces only did not refuse a deoptimization trace", trace.kind,
         trace.num_frames);
  }
  memset(&trace, 0, sizeof(trace));
  trace.frames = frames;
  trace.kind = ASGST_DEOPT_TRACE;
  AsyncGetStackTrace(&trace, 64, ucontext, 0);
  if (trace.num_frames == ASGST_WRONG_KIND || trace.num_frames == ASGST_WRONG_STATE ||
      (trace.num_frames >= 0 && trace.kind != ASGST_DEOPT_TRACE)) {
    fail("AsyncGetStackTrace accepting deoptimization traces refused or mislabeled one", trace.kind,
         trace.num_frames);
  }
}

static void on_sigprof(int signo, siginfo_t* info, void* context) {
  ucontext_t* uc = (ucontext_t*)context;
#if defined(__x86_64__)
  const void* pc = (const void*)uc->uc_mcontext.gregs[REG_RIP];
  char* fp = (char*)uc->uc_mcontext.gregs[REG_RBP];
  char* sp = (char*)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
  /* x29 names a frame record (saved x29, then x30) laid out as x86_64's
     (saved rbp, then the return address). A function that has not stored
     its record yet, or has none (a leaf), leaves the chain at its caller's
     record, as on x86_64 before push %rbp. */
  const void* pc = (const void*)uc->uc_mcontext.pc;
  char* fp = (char*)uc->uc_mcontext.regs[29];
  char* sp = (char*)uc->uc_mcontext.sp;
#endif
  const void* blob_return;
  FirstJava first;
  int kind;
  (void)signo; (void)info;
  __atomic_fetch_add(&samples, 1, __ATOMIC_RELAXED);
  if (in_blob(pc)) {
    /* The blob's own instructions: doc/stack-walking.md gives no top Java frame there. */
    __atomic_fetch_add(&pc_in_blob, 1, __ATOMIC_RELAXED);
    return;
  }
  blob_return = chain_reaches_blob(pc, fp, sp);
  first.first_java_is_deoptee = -1;
  first.state = 0;
  kind = ASGST_RunWithIterator(context, 0, first_java_frame, &first);
  if (kind == ASGST_DEOPT_TRACE) {
    __atomic_fetch_add(&deopt_walks, 1, __ATOMIC_RELAXED);
    /* Only deoptee is deoptimized here: a deoptimization trace's first Java
       frame, where it has one, is deoptee's (while the blob unpacks it, the
       interpreted frame is not yet complete and the walk may end first). */
    if (first.first_java_is_deoptee == 0) {
      fail("a deoptimization trace whose first Java frame is not deoptee", kind, first.state);
    }
  }
  if (blob_return == NULL) {
    /* Elsewhere, or in C library code that the deoptimization code called:
       only the first Java frame of a deoptimization trace is judged. */
    return;
  }
  __atomic_fetch_add(&from_blob, 1, __ATOMIC_RELAXED);
  count_call(blob_return, kind);
  if (kind == ASGST_DEOPT_TRACE) {
    __atomic_fetch_add(&from_blob_deopt, 1, __ATOMIC_RELAXED);
    if (__atomic_fetch_add(&filter_checked, 1, __ATOMIC_RELAXED) < FILTER_CHECKS) {
      check_kind_filter(context);
    }
  }
}

/* Judges the samples in C code that the blob called, after the run: at every
   call a deoptimization trace, but at the blob's last call (the highest
   return address seen, unpack_frames) no top Java frame is right too. */
static void judge_calls(void) {
  const void* last = NULL;
  int i;
  for (i = 0; i < calls; i++) {
    if (last == NULL || call_returns[i] > last) {
      last = call_returns[i];
    }
  }
  for (i = 0; i < calls; i++) {
    if (call_other[i] > 0) {
      fail("in C code called from the deoptimization blob, walked as neither a deoptimization trace nor"
           " without a top frame", call_other_kind[i], call_other[i]);
    }
    if (call_no_top[i] > 0 && (calls < 2 || call_returns[i] != last)) {
      fail("in C code called from the deoptimization blob before its last call, no top Java frame",
           ASGST_NO_TOP_JAVA_FRAME, call_no_top[i]);
    }
  }
}

JNIEXPORT jboolean JNICALL Java_AsgstDeoptTrace_blobFound(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return blob_begin != NULL && blob_end > blob_begin && jvm_begin != NULL;
}

JNIEXPORT void JNICALL Java_AsgstDeoptTrace_startSampling(JNIEnv* env, jclass cls, jint interval_micros) {
  pthread_attr_t attr;
  void* base;
  size_t size;
  (void)env; (void)cls;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    if (pthread_attr_getstack(&attr, &base, &size) == 0) {
      stack_high = (char*)base + size;
    }
    pthread_attr_destroy(&attr);
  }
  asgst_test_start_sampling(on_sigprof, CLOCK_MONOTONIC, interval_micros, &timer);
}

JNIEXPORT void JNICALL Java_AsgstDeoptTrace_stopSampling(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  timer_delete(timer);
}

/* Prints the samples by call and judges them; called once, after the worker
   thread ended (no handler runs any more). */
JNIEXPORT void JNICALL Java_AsgstDeoptTrace_judgeCalls(JNIEnv* env, jclass cls) {
  int i;
  (void)env; (void)cls;
  for (i = 0; i < calls; i++) {
    printf("call returning to blob+%ld: %d deoptimization traces, %d without top frame, %d other\n",
           (long)((const char*)call_returns[i] - (const char*)blob_begin), call_deopt[i], call_no_top[i],
           call_other[i]);
  }
  if (unknown_calls > 0) {
    printf("%d samples at further calls, not judged\n", unknown_calls);
  }
  fflush(stdout);
  judge_calls();
}

JNIEXPORT jintArray JNICALL Java_AsgstDeoptTrace_counts(JNIEnv* env, jclass cls) {
  jint r[6];
  (void)cls;
  r[0] = samples;
  r[1] = from_blob_deopt;
  r[2] = from_blob;
  r[3] = pc_in_blob;
  r[4] = deopt_walks;
  r[5] = failures;
  return asgst_test_int_array(env, r, 6);
}

JNIEXPORT jstring JNICALL Java_AsgstDeoptTrace_failures(JNIEnv* env, jclass cls) {
  char text[FAILURES_SHOWN * 170 + 1];
  size_t used = 0;
  int i;
  (void)cls;
  text[0] = '\0';
  for (i = 0; i < failures && i < FAILURES_SHOWN; i++) {
    used += (size_t)snprintf(text + used, sizeof(text) - used, "\n  %s", failure_text[i]);
  }
  return (*env)->NewStringUTF(env, text);
}
