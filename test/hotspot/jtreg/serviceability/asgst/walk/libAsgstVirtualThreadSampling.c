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
 * Samples carrier threads from a SIGPROF handler, alternately without and with
 * ASGST_INCLUDE_CARRIER_FRAMES (both with non-Java frames), and checks where
 * each walk goes past the virtual thread's frames
 * (AsgstVirtualThreadSampling.java).
 */

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"
#include "../native/asgstTestCarriers.h"

#define MAX_CALLS 8

enum { WALKS, COMPLETE, IN_HEAP, OTHER_ERRORS, WITH_DEEP, CARRIER_UNASKED, PAST_ENTRY, RESOLVING, COUNTS };
static volatile long counts[COUNTS];

static ASGST_Method deep_method, continuation_run, continuation_enter, do_yield;
static int enter_special_calls[MAX_CALLS];
static int enter_special_call_count;
static char* enter_special_begin;  /* enterSpecial's code */
static char* enter_special_end;
static const char* resolve_begin;  /* the stub that resolves a static call (JVMTI's name) */
static const char* resolve_end;
static pthread_mutex_t methods_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int sampling;
static volatile int wrong_recorded;
static char wrong_walk[2048];
/* The code the VM generated (JVMTI DynamicCodeGenerated), to name the stubs
   of a wrong walk; the first MAX_STUBS pieces. */
#define MAX_STUBS 2048
typedef struct {
  const char* name;
  const char* begin;
  const char* end;
} Stub;
static Stub stubs[MAX_STUBS];
static volatile int stub_count;
static pthread_mutex_t stubs_lock = PTHREAD_MUTEX_INITIALIZER;
/* The first wrong walk's frames, named outside the handler. */
static ASGST_Frame wrong_frames[24];
static int wrong_frame_count;

static void JNICALL on_code_generated(jvmtiEnv* env, const char* name, const void* address, jint length) {
  (void)env;
  pthread_mutex_lock(&stubs_lock);
  if (stub_count < MAX_STUBS) {
    Stub* stub = &stubs[stub_count];
    stub->name = strdup(name);
    stub->begin = (const char*)address;
    stub->end = (const char*)address + length;
    __atomic_store_n(&stub_count, stub_count + 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&stubs_lock);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  jvmtiEnv* jvmti;
  (void)reserved;
  if (asgst_test_load_jvmti(vm, &jvmti) == JNI_ERR) {
    return JNI_ERR;
  }
  return asgst_test_watch_generated_code(jvmti, on_code_generated) == 0 ? JNI_VERSION_1_8 : JNI_ERR;
}

/* The generated code that holds pc, by JVMTI's name, or null. */
static const char* stub_name(const void* pc) {
  int count = __atomic_load_n(&stub_count, __ATOMIC_ACQUIRE);
  for (int i = 0; i < count; i++) {
    if ((const char*)pc >= stubs[i].begin && (const char*)pc < stubs[i].end) {
      return stubs[i].name;
    }
  }
  return NULL;
}

static void add(int counter) {
  __atomic_fetch_add(&counts[counter], 1, __ATOMIC_RELAXED);
}

typedef struct {
  int options;
} WalkArg;

/* A frame of Continuation.run at a call of enterSpecial, below another frame:
   the continuation is entered, its frames are on the stack or in the heap. (As
   the top frame, it may have returned from the call a moment ago.) */
static int is_entered_run(const ASGST_Frame* frame) {
  int i;
  for (i = 0; frame->method == continuation_run && i < enter_special_call_count; i++) {
    if (frame->bci == enter_special_calls[i]) {
      return 1;
    }
  }
  return 0;
}

/* enterSpecial at work in its own code, or doYield's stub returning after it
   unlinked the continuation's entry: the thread is its carrier. */
static int is_between_continuations(const ASGST_Frame* top) {
  return ((char*)top->pc >= enter_special_begin && (char*)top->pc < enter_special_end) || top->method == do_yield;
}

/* A frame of the stub that resolves a static call: above Continuation.run
   at a call of enterSpecial, that call is being resolved and enterSpecial
   has not run: the thread is its carrier. */
static int is_resolving_call(const ASGST_Frame* frame) {
  return frame->method == NULL && (const char*)frame->pc >= resolve_begin && (const char*)frame->pc < resolve_end;
}

static void check_walk(ASGST_Iterator* iterator, void* arg) {
  int options = ((WalkArg*)arg)->options;
  ASGST_Frame frame;
  ASGST_Frame seen[24];
  int count = 0, saw_deep = 0, saw_entry = 0, wrong = 0, done = 0, state;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    int index = count++;
    if (index < 24) {
      seen[index] = frame;
    }
    saw_deep |= frame.method == deep_method;
    if (frame.method == continuation_enter && !done) {
      saw_entry = 1;  /* also on top: a continuation about to run its first frame */
      continue;
    }
    if (index == 0 || done || frame.method == NULL) {
      continue;
    }
    if (index == 1 && is_between_continuations(&seen[0])) {
      done = 1;
    } else if (is_entered_run(&frame) && index <= 24 && is_resolving_call(&seen[index - 1])) {
      add(RESOLVING);
      done = 1;
    } else if (is_entered_run(&frame) || (saw_entry && frame.method == continuation_run)) {
      /* The carrier's frame below an entered continuation. */
      if ((options & ASGST_INCLUDE_CARRIER_FRAMES) == 0) {
        add(CARRIER_UNASKED);
        wrong = 1;
      } else if (!saw_entry) {
        add(PAST_ENTRY);
        wrong = 1;
      }
      done = 1;
    }
  }
  state = ASGST_State(iterator);
  add(WALKS);
  if (saw_deep) {
    add(WITH_DEEP);
  }
  if (state == ASGST_NO_FRAME) {
    add(COMPLETE);
  } else if (state == ASGST_FRAMES_IN_HEAP) {
    add(IN_HEAP);
  } else {
    add(OTHER_ERRORS);
  }
  if (wrong && !__atomic_exchange_n(&wrong_recorded, 1, __ATOMIC_ACQ_REL)) {
    size_t used = (size_t)snprintf(wrong_walk, sizeof(wrong_walk), "options %d: ", options);
    int i;
    for (i = 0; i < count && i < 24; i++) {
      asgst_test_describe_frame(wrong_walk, sizeof(wrong_walk), &used, &seen[i]);
      wrong_frames[i] = seen[i];
    }
    wrong_frame_count = count < 24 ? count : 24;
  }
}

static void on_signal(int signo, siginfo_t* siginfo, void* ucontext) {
  /* A counter of all carriers, not a thread-local one: the first access of a
     dlopen'ed library's thread-local variable may call malloc, which
     deadlocks in a signal handler that interrupted malloc. */
  static unsigned long n;
  WalkArg arg;
  (void)signo; (void)siginfo;
  if (!__atomic_load_n(&sampling, __ATOMIC_ACQUIRE)) {
    return;
  }
  arg.options = ASGST_INCLUDE_NON_JAVA_FRAMES |
                ((__atomic_fetch_add(&n, 1, __ATOMIC_RELAXED) & 1) ? ASGST_INCLUDE_CARRIER_FRAMES : 0);
  ASGST_RunWithIterator(ucontext, arg.options, check_walk, &arg);
}

static ASGST_Method method_of(JNIEnv* env, const char* class_name, const char* name, const char* signature,
                              int is_static) {
  jclass cls = (*env)->FindClass(env, class_name);
  jmethodID id;
  if (cls == NULL) {
    return NULL;
  }
  id = is_static ? (*env)->GetStaticMethodID(env, cls, name, signature)
                 : (*env)->GetMethodID(env, cls, name, signature);
  return id == NULL ? NULL : ASGST_JMethodIDToMethod(id);
}

JNIEXPORT void JNICALL Java_AsgstVirtualThreadSampling_setEnterSpecial(JNIEnv* env, jclass cls, jintArray bcis,
                                                                       jlong code_begin, jlong code_end) {
  jsize n = (*env)->GetArrayLength(env, bcis);
  (void)cls;
  enter_special_begin = (char*)(intptr_t)code_begin;
  enter_special_end = (char*)(intptr_t)code_end;
  enter_special_call_count = n < MAX_CALLS ? n : MAX_CALLS;
  (*env)->GetIntArrayRegion(env, bcis, 0, enter_special_call_count, enter_special_calls);
  /* Generated at startup, so known by now. */
  for (int i = 0; i < __atomic_load_n(&stub_count, __ATOMIC_ACQUIRE); i++) {
    if (strstr(stubs[i].name, "resolve_static_call") != NULL) {
      resolve_begin = stubs[i].begin;
      resolve_end = stubs[i].end;
    }
  }
}

JNIEXPORT void JNICALL Java_AsgstVirtualThreadSampling_sampleThisCarrier(JNIEnv* env, jclass cls, jint interval) {
  pthread_mutex_lock(&methods_lock);
  if (deep_method == NULL) {
    deep_method = ASGST_JMethodIDToMethod((*env)->GetStaticMethodID(env, cls, "deep", "(I)J"));
    continuation_run = method_of(env, "jdk/internal/vm/Continuation", "run", "()V", 0);
    continuation_enter = method_of(env, "jdk/internal/vm/Continuation", "enter", "(Ljdk/internal/vm/Continuation;Z)V", 1);
    do_yield = method_of(env, "jdk/internal/vm/Continuation", "doYield", "()I", 1);
    if (deep_method == NULL || continuation_run == NULL || continuation_enter == NULL || do_yield == NULL) {
      pthread_mutex_unlock(&methods_lock);
      (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/RuntimeException"), "methods not found");
      return;
    }
    __atomic_store_n(&sampling, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&methods_lock);
  asgst_test_sample_carrier(on_signal, interval);
}

JNIEXPORT jlongArray JNICALL Java_AsgstVirtualThreadSampling_stopSampling(JNIEnv* env, jclass cls) {
  (void)cls;
  __atomic_store_n(&sampling, 0, __ATOMIC_RELEASE);
  asgst_test_stop_carriers();
  return asgst_test_long_array(env, (const jlong*)counts, COUNTS);
}

/* The first wrong walk, with each frame's pc, sp and fp (non-Java frames
   named by dladdr, as library+offset where it knows no symbol, or as the
   generated code that JVMTI named), or null. */
JNIEXPORT jstring JNICALL Java_AsgstVirtualThreadSampling_firstWrongWalk(JNIEnv* env, jclass cls) {
  static char text[8192];
  size_t used;
  int i;
  (void)cls;
  if (!__atomic_load_n(&wrong_recorded, __ATOMIC_ACQUIRE)) {
    return NULL;
  }
  used = (size_t)snprintf(text, sizeof(text), "%s", wrong_walk);
  for (i = 0; i < wrong_frame_count && used + 200 < sizeof(text); i++) {
    const ASGST_Frame* f = &wrong_frames[i];
    Dl_info info;
    char where[160] = "";
    if (f->method == NULL && f->pc != NULL && dladdr(f->pc, &info) && info.dli_fname != NULL) {
      const char* library = strrchr(info.dli_fname, '/') != NULL ? strrchr(info.dli_fname, '/') + 1 : info.dli_fname;
      if (info.dli_sname != NULL) {
        snprintf(where, sizeof(where), "%s (%s)", info.dli_sname, library);
      } else {
        snprintf(where, sizeof(where), "%s+0x%lx", library, (unsigned long)((char*)f->pc - (char*)info.dli_fbase));
      }
    } else if (f->method == NULL && f->pc != NULL && stub_name(f->pc) != NULL) {
      snprintf(where, sizeof(where), "generated: %s", stub_name(f->pc));
    }
    used += (size_t)snprintf(text + used, sizeof(text) - used, "\n  frame %d: type %d pc %p sp %p fp %p %s", i,
                             f->type, f->pc, f->sp, f->fp, where);
  }
  return (*env)->NewStringUTF(env, text);
}
