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
 * Samples AsgstStubCallers.java's thread, which runs main, loop and copy,
 * and copy's calls of StubRoutines' arraycopy stubs. Each walk must begin,
 * by name, with a suffix of "arraycopy copy loop main" (whole, or cut by an
 * error; arraycopy, the native method, where copy runs interpreted), or be
 * refused. Samples whose pc lies in an array copy stub (JVMTI's
 * DynamicCodeGenerated names them) are counted, and those refused among
 * them: the walker finds the stub's caller at every instruction of these
 * stubs (at the entry, after its push of the frame pointer and at the
 * return from sp, in between from the frame record that their enter()
 * made; in aarch64's helpers from the link register, then the calling
 * stub's record), so any refusal there is a fault.
 */

#include <errno.h>
#include <signal.h>
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
#define CTX_RETURN(uc) (*(unsigned long*)(uc)->uc_mcontext.gregs[REG_RSP])  /* at a stub's entry */
#elif defined(__aarch64__)
#define CTX_PC(uc) ((uc)->uc_mcontext.pc)
#define CTX_RETURN(uc) ((uc)->uc_mcontext.regs[30])
#endif

/* arraycopy, the native method, where copy runs interpreted (before its compilation). */
static const char* const truth[] = {"arraycopy", "copy", "loop", "main"};
static const int truth_types[] = {ASGST_FRAME_JAVA_NATIVE, ASGST_FRAME_JAVA, ASGST_FRAME_JAVA, ASGST_FRAME_JAVA};
#define TRUTH_FRAMES 4

#define MAX_STUBS 64
typedef struct {
  const char* begin;
  const char* end;
  char name[64];
  volatile long samples, refused;
  int refused_offsets[4];  /* where the first refusals were, for diagnosis */
} Stub;

static Stub stubs[MAX_STUBS];
static volatile int stub_count;  /* published with release after the Stub is filled */
static jvmtiEnv* jvmti;
static timer_t timer;
static volatile long reported, refused, wrong, in_stubs, refused_in_stubs;
static char first_wrong[2048];
static volatile int wrong_recorded;
static char first_refusal[256];  /* in a stub, for diagnosis */
static volatile int refusal_recorded;

static void JNICALL on_generated(jvmtiEnv* env, const char* name, const void* address, jint length) {
  int n = stub_count;
  (void)env;
  /* The array copies, and the helpers without a frame that aarch64's call (copy_byte_f, copy_oop_b, ...). */
  if ((strstr(name, "arraycopy") == NULL && strncmp(name, "copy_", 5) != 0) || n >= MAX_STUBS) {
    return;
  }
  stubs[n].begin = (const char*)address;
  stubs[n].end = (const char*)address + length;
  snprintf(stubs[n].name, sizeof(stubs[n].name), "%s", name);
  __atomic_store_n(&stub_count, n + 1, __ATOMIC_RELEASE);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  jint version = asgst_test_load_jvmti(vm, &jvmti);
  if (version == JNI_ERR || asgst_test_watch_code(jvmti, NULL, on_generated) != 0) {
    return JNI_ERR;
  }
  return version;
}

static Stub* stub_of(const char* pc) {
  int n = __atomic_load_n(&stub_count, __ATOMIC_ACQUIRE);
  int i;
  for (i = 0; i < n; i++) {
    if (pc >= stubs[i].begin && pc < stubs[i].end) {
      return &stubs[i];
    }
  }
  return NULL;
}

/* main's calls that start and stop the signals (and link them): not judged. */
static int in_sampling_calls(const AsgstTestTrace* trace) {
  return asgst_test_has_method(trace, "startSampling") || asgst_test_has_method(trace, "stopSampling");
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  /* One sampled thread; SIGPROF is blocked while its handler runs. */
  static AsgstTestTrace trace;
  const char* pc = (const char*)CTX_PC((ucontext_t*)ucontext);
  Stub* stub = stub_of(pc);
  int saved_errno = errno;
  (void)signo; (void)info;
  asgst_test_walk(ucontext, 0, &trace);
  if (in_sampling_calls(&trace)) {
    /* main's calls that start and stop the signals (and link them): not judged */
  } else if (trace.count == 0) {
    refused++;
  } else {
    reported++;
    if (!asgst_test_begins_with_suffix(&trace, truth, truth_types, TRUTH_FRAMES)) {
      wrong++;
      if (!wrong_recorded) {
        size_t used = (size_t)snprintf(first_wrong, sizeof(first_wrong), "pc %p (%s), kind %d state %d: ",
                                       (void*)pc, stub != NULL ? stub->name : "not in a stub", trace.kind,
                                       trace.state);
        int i;
        for (i = 0; i < trace.count && i < 6 && used + 96 < sizeof(first_wrong); i++) {
          asgst_test_describe_frame(first_wrong, sizeof(first_wrong), &used, &trace.frames[i]);
        }
        __atomic_store_n(&wrong_recorded, 1, __ATOMIC_RELEASE);
      }
    }
  }
  if (stub != NULL && !in_sampling_calls(&trace)) {
    in_stubs++;
    stub->samples++;
    if (trace.count == 0) {
      if (!refusal_recorded) {
        /* The return address where a stub's entry has it, and the four instructions before it. */
        const unsigned int* r = (const unsigned int*)CTX_RETURN((ucontext_t*)ucontext);
        snprintf(first_refusal, sizeof(first_refusal), "kind %d at %s+%d, return address %p after %08x %08x %08x %08x",
                 trace.kind, stub->name, (int)(pc - stub->begin), (void*)r, r[-4], r[-3], r[-2], r[-1]);
        __atomic_store_n(&refusal_recorded, 1, __ATOMIC_RELEASE);
      }
      if (stub->refused < 4) {
        stub->refused_offsets[stub->refused] = (int)(pc - stub->begin);
      }
      refused_in_stubs++;
      stub->refused++;
    }
  }
  errno = saved_errno;
}

JNIEXPORT void JNICALL Java_AsgstStubCallers_startSampling(JNIEnv* env, jclass cls, jint interval_micros) {
  (void)cls;
  if (asgst_test_start_sampling(on_sigprof, CLOCK_MONOTONIC, interval_micros, &timer) != 0) {
    (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/RuntimeException"), "cannot start the timer");
  }
}

/* {walks that reported frames, refused, wrong, samples in stubs, those refused} */
JNIEXPORT jlongArray JNICALL Java_AsgstStubCallers_stopSampling(JNIEnv* env, jclass cls) {
  jlong values[5];
  (void)cls;
  asgst_test_stop_sampling(timer);
  values[0] = reported;
  values[1] = refused;
  values[2] = wrong;
  values[3] = in_stubs;
  values[4] = refused_in_stubs;
  return asgst_test_long_array(env, values, 5);
}

JNIEXPORT jstring JNICALL Java_AsgstStubCallers_firstWrong(JNIEnv* env, jclass cls) {
  (void)cls;
  return asgst_test_recorded_text(env, &wrong_recorded, first_wrong);
}

/* The first refusal in a stub, described, or null. */
JNIEXPORT jstring JNICALL Java_AsgstStubCallers_firstRefusal(JNIEnv* env, jclass cls) {
  (void)cls;
  return asgst_test_recorded_text(env, &refusal_recorded, first_refusal);
}

/* "name: samples (refused at offsets ...) ..." of the stubs that samples hit. */
JNIEXPORT jstring JNICALL Java_AsgstStubCallers_stubsHit(JNIEnv* env, jclass cls) {
  char text[2048];
  size_t used = 0;
  int n = __atomic_load_n(&stub_count, __ATOMIC_ACQUIRE);
  int i;
  (void)cls;
  text[0] = '\0';
  for (i = 0; i < n && used + 96 < sizeof(text); i++) {
    if (stubs[i].samples > 0) {
      int k;
      used += (size_t)snprintf(text + used, sizeof(text) - used, "%s: %ld (%ld refused, at", stubs[i].name,
                               stubs[i].samples, stubs[i].refused);
      for (k = 0; k < 4 && k < stubs[i].refused && used + 32 < sizeof(text); k++) {
        used += (size_t)snprintf(text + used, sizeof(text) - used, " +%d", stubs[i].refused_offsets[k]);
      }
      used += (size_t)snprintf(text + used, sizeof(text) - used, ") ");
    }
  }
  return (*env)->NewStringUTF(env, text);
}
