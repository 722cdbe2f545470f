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

/* Samples one thread with a CPU-time or wall-clock timer and walks it in the SIGPROF handler. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* dladdr */
#endif
#include <dlfcn.h>
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

#define MAX_SAMPLES 40000

/* Where the VM put code, from JVMTI (compiled methods and generated stubs):
   the reports of walks that began elsewhere or failed name the code that
   the thread was interrupted in, told by the VM apart from the walker. */
#define MAX_CODE 8192
typedef struct {
  const char* begin;
  const char* end;
  jmethodID method;  /* null for generated code */
  char name[48];     /* generated code's name */
} Code;
static Code code[MAX_CODE];
static volatile int code_count;
static jvmtiEnv* jvmti;

typedef struct {
  int kind;          /* result of ASGST_RunWithIterator */
  int frames;        /* frames reported */
  int java_frames;   /* Java frames reported */
  int end_state;     /* ASGST_State after the last frame */
  ASGST_Frame first[2];  /* the first two Java frames (the top one, and for reports) */
  int last_type;     /* type of the last frame */
  const char* pc;    /* where the thread was interrupted */
} Sample;

static Sample samples[MAX_SAMPLES];
static volatile int sample_count;
static int walk_options;
static timer_t timer;

static void record(ASGST_Iterator* iterator, void* arg) {
  Sample* sample = (Sample*)arg;
  ASGST_Frame frame;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (frame.type != ASGST_FRAME_NON_JAVA && sample->java_frames < 2) {
      sample->first[sample->java_frames++] = frame;
    }
    sample->last_type = frame.type;
    sample->frames++;
  }
  sample->end_state = ASGST_State(iterator);
}

static void on_sigprof(int signo, siginfo_t* info, void* ucontext) {
  int index = __atomic_fetch_add(&sample_count, 1, __ATOMIC_RELAXED);
  (void)signo; (void)info;
  if (index < MAX_SAMPLES) {
    Sample* sample = &samples[index];
    sample->frames = 0;
    sample->java_frames = 0;
    sample->end_state = 1;
    sample->last_type = 0;
#if defined(__x86_64__)
    sample->pc = (const char*)((ucontext_t*)ucontext)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    sample->pc = (const char*)((ucontext_t*)ucontext)->uc_mcontext.pc;
#else
    sample->pc = NULL;
#endif
    sample->kind = ASGST_RunWithIterator(ucontext, walk_options, record, sample);
  }
}

JNIEXPORT void JNICALL
Java_AsgstSignalSampling_startSampling(JNIEnv* env, jclass cls, jint interval_micros, jint options,
                                      jboolean wall_clock) {
  (void)cls;
  sample_count = 0;
  walk_options = options;
  if (asgst_test_start_sampling(on_sigprof, wall_clock ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID,
                                interval_micros, &timer) != 0) {
    (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/RuntimeException"), "cannot start the SIGPROF timer");
  }
}

static void add_code(const void* begin, jint size, jmethodID method, const char* name) {
  int i = __atomic_fetch_add(&code_count, 1, __ATOMIC_ACQ_REL);
  if (i < MAX_CODE) {
    code[i].begin = (const char*)begin;
    code[i].end = (const char*)begin + size;
    code[i].method = method;
    snprintf(code[i].name, sizeof(code[i].name), "%s", name == NULL ? "" : name);
  }
}

static void JNICALL on_compiled_method_load(jvmtiEnv* env, jmethodID method, jint size, const void* address,
                                            jint map_length, const jvmtiAddrLocationMap* map, const void* info) {
  (void)env; (void)map_length; (void)map; (void)info;
  add_code(address, size, method, NULL);
}

static void JNICALL on_dynamic_code_generated(jvmtiEnv* env, const char* name, const void* address, jint length) {
  (void)env;
  add_code(address, length, NULL, name);
}

/* The code that the VM put at pc, or null: the latest there (code is freed
   and reused). */
static const Code* code_at(const char* pc) {
  int i, count = __atomic_load_n(&code_count, __ATOMIC_ACQUIRE);
  count = count < MAX_CODE ? count : MAX_CODE;
  for (i = count - 1; i >= 0; i--) {
    if (pc >= code[i].begin && pc < code[i].end) {
      return &code[i];
    }
  }
  return NULL;
}

/* Whether pc lies where the VM put a compiled version of method. */
static int in_code_of(jmethodID method, const char* pc) {
  const Code* c = code_at(pc);
  return c != NULL && c->method == method;
}

/* Names the code at pc. */
static void describe_pc(char* text, size_t size, const char* pc) {
  const Code* c = code_at(pc);
  if (c != NULL) {
    char name[200] = "?";
    if (c->method != NULL) {
      asgst_test_jvmti_method_name(jvmti, c->method, name, sizeof(name));
    }
    snprintf(text, size, "pc %p: %s+%ld", (void*)pc, c->method != NULL ? name : c->name, (long)(pc - c->begin));
    return;
  }
  {
    Dl_info info;
    if (dladdr(pc, &info) != 0 && info.dli_fname != NULL) {
      const char* file = strrchr(info.dli_fname, '/');
      snprintf(text, size, "pc %p: %s+%ld (%s)", (void*)pc, info.dli_sname != NULL ? info.dli_sname : "?",
               (long)(pc - (const char*)(info.dli_sname != NULL ? info.dli_saddr : info.dli_fbase)),
               file != NULL ? file + 1 : info.dli_fname);
      return;
    }
  }
  snprintf(text, size, "pc %p", (void*)pc);
}

JNIEXPORT jintArray JNICALL
Java_AsgstSignalSampling_stopSampling(JNIEnv* env, jclass cls, jstring hot_name, jstring hot_signature) {
  const char* name = (*env)->GetStringUTFChars(env, hot_name, NULL);
  const char* signature = (*env)->GetStringUTFChars(env, hot_signature, NULL);
  jmethodID hot = (*env)->GetStaticMethodID(env, cls, name, signature);
  int count, i, complete = 0, top_is_hot = 0, end_in_c = 0, with_java = 0, top_is_native = 0, elsewhere_reported = 0;
  int failed_reported = 0, in_own_code = 0;
  char where[256];
  int error_counts[32] = {0};
  int most_frequent_error = 0;
  jint result[8];

  asgst_test_stop_sampling(timer);

  count = sample_count < MAX_SAMPLES ? sample_count : MAX_SAMPLES;
  for (i = 0; i < count; i++) {
    Sample* s = &samples[i];
    int error = s->kind <= 0 ? s->kind : s->end_state;
    if (s->kind == ASGST_JAVA_TRACE && s->frames > 0 && s->end_state == ASGST_NO_FRAME) {
      complete++;
      if (s->last_type == ASGST_FRAME_NON_JAVA) {
        end_in_c++;
      }
    } else if (error < 0 && error > -32) {
      error_counts[-error]++;
      if (failed_reported < 5) {
        describe_pc(where, sizeof(where), s->pc);
        fprintf(stderr, "walk %d ended with %d at %s\n", i, error, where);
        failed_reported++;
      }
    }
    if (s->java_frames > 0 && s->first[0].method != NULL) {
      with_java++;
      if (ASGST_MethodToJMethodID(s->first[0].method) == hot) {
        top_is_hot++;
      } else if (s->first[0].type == ASGST_FRAME_JAVA_NATIVE) {
        top_is_native++;
      } else if (in_code_of(hot, s->pc)) {
        in_own_code++;
      } else if (elsewhere_reported < 5) {
        char text[256];
        size_t used = 0;
        int f;
        text[0] = '\0';
        for (f = 0; f < s->java_frames; f++) {
          asgst_test_describe_frame(text, sizeof(text), &used, &s->first[f]);
        }
        describe_pc(where, sizeof(where), s->pc);
        fprintf(stderr, "walk %d began elsewhere: %s at %s\n", i, text, where);
        elsewhere_reported++;
      }
    }
  }
  for (i = 1; i < 32; i++) {
    if (error_counts[i] > 0 && (most_frequent_error == 0 || error_counts[i] > error_counts[-most_frequent_error])) {
      most_frequent_error = -i;
    }
  }
  result[0] = count;
  result[1] = complete;
  result[2] = top_is_hot;
  result[3] = most_frequent_error;
  result[4] = end_in_c;
  result[5] = with_java;
  result[6] = top_is_native;
  result[7] = in_own_code;
  (*env)->ReleaseStringUTFChars(env, hot_name, name);
  (*env)->ReleaseStringUTFChars(env, hot_signature, signature);
  return asgst_test_int_array(env, result, 8);
}

/* Binds the native methods when the library loads: a method's first call
   would otherwise look it up with Java code, whose frames a walk at that
   moment rightly begins with. */
JNIEXPORT jint JNICALL
JNI_OnLoad(JavaVM* vm, void* reserved) {
  JNINativeMethod methods[] = {
    { (char*)"startSampling", (char*)"(IIZ)V", (void*)Java_AsgstSignalSampling_startSampling },
    { (char*)"stopSampling", (char*)"(Ljava/lang/String;Ljava/lang/String;)[I", (void*)Java_AsgstSignalSampling_stopSampling },
  };
  JNIEnv* env;
  jclass cls;
  (void)reserved;
  if (asgst_test_load_jvmti(vm, &jvmti) == JNI_ERR ||
      asgst_test_watch_code(jvmti, on_compiled_method_load, on_dynamic_code_generated) != 0) {
    fprintf(stderr, "libAsgstSignalSampling: JVMTI refused the code events\n");
    return JNI_ERR;
  }
  if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) != JNI_OK ||
      (cls = (*env)->FindClass(env, "AsgstSignalSampling")) == NULL ||
      (*env)->RegisterNatives(env, cls, methods, 2) != 0) {
    return JNI_ERR;
  }
  return JNI_VERSION_1_8;
}
