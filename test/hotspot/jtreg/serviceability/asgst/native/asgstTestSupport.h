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
 * What the ASGST test libraries share: signal handlers and timers, method
 * names, recorded walks and, for C libraries, JNI and JVMTI chores. The
 * functions that a signal handler may call say so: they neither allocate nor
 * lock nor touch thread-local variables. Included by relative path.
 */

#ifndef ASGST_TEST_SUPPORT_H
#define ASGST_TEST_SUPPORT_H

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"

/* Installs handler for signo, with the siginfo and context. Returns 0, or -1. */
static int asgst_test_install_handler(int signo, void (*handler)(int, siginfo_t*, void*)) {
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = handler;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  return sigaction(signo, &action, NULL);
}

/*
 * Installs handler for SIGPROF and starts a timer that sends SIGPROF to the
 * thread tid every interval_micros of clock (CLOCK_THREAD_CPUTIME_ID: the
 * calling thread's CPU time, which the kernel checks only at scheduler ticks;
 * CLOCK_MONOTONIC: wall-clock time; pthread_getcpuclockid: a given thread's
 * CPU time). Returns 0, or -1.
 */
static int asgst_test_start_sampling_of(void (*handler)(int, siginfo_t*, void*), pid_t tid, clockid_t clock,
                                        long interval_micros, timer_t* timer) {
  struct sigevent event;
  struct itimerspec spec;
  memset(&event, 0, sizeof(event));
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGPROF;
  event._sigev_un._tid = tid;
  memset(&spec, 0, sizeof(spec));
  spec.it_interval.tv_sec = interval_micros / 1000000;
  spec.it_interval.tv_nsec = (interval_micros % 1000000) * 1000;
  spec.it_value = spec.it_interval;
  if (asgst_test_install_handler(SIGPROF, handler) != 0 ||
      timer_create(clock, &event, timer) != 0 ||
      timer_settime(*timer, 0, &spec, NULL) != 0) {
    return -1;
  }
  return 0;
}

/* The same for the calling thread. */
static int asgst_test_start_sampling(void (*handler)(int, siginfo_t*, void*), clockid_t clock,
                                     long interval_micros, timer_t* timer) {
  return asgst_test_start_sampling_of(handler, (pid_t)syscall(SYS_gettid), clock, interval_micros, timer);
}

/* The same for the calling thread's CPU time. */
static int asgst_test_start_cpu_sampling(void (*handler)(int, siginfo_t*, void*), long interval_micros,
                                         timer_t* timer) {
  return asgst_test_start_sampling(handler, CLOCK_THREAD_CPUTIME_ID, interval_micros, timer);
}

/* Deletes timer and ignores SIGPROF from then on: a signal still on its way
   no longer runs the handler. */
static void asgst_test_stop_sampling(timer_t timer) {
  struct sigaction ignore;
  timer_delete(timer);
  memset(&ignore, 0, sizeof(ignore));
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPROF, &ignore, NULL);
}

/* Spins until the calling thread has used millis more of CPU time. */
static void asgst_test_spin_cpu(long millis) {
  struct timespec start, now;
  volatile unsigned long spin = 0;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  do {
    spin++;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000L + (now.tv_nsec - start.tv_nsec) / 1000000L < millis);
}

/* Copies the name of method into name (size bytes, truncated to fit), the
   rest of what ASGST_GetMethodInfo tells into *info. Returns 1, or 0 with ""
   if it has none (null or no method). Signal safe. */
static int asgst_test_method_info(ASGST_Method method, char* name, size_t size, ASGST_MethodInfo* info) {
  memset(info, 0, sizeof(*info));
  info->method_name = name;
  info->method_name_length = (jint)size;
  ASGST_GetMethodInfo(method, info);
  if (info->method_name == NULL) {
    name[0] = '\0';
    return 0;
  }
  return 1;
}

/* The name of method alone. Signal safe. */
static int asgst_test_method_name(ASGST_Method method, char* name, size_t size) {
  ASGST_MethodInfo info;
  return asgst_test_method_info(method, name, size, &info);
}

/* The same for the name of a class ("Lpkg/Class;"). Signal safe. */
static int asgst_test_class_name(ASGST_Class klass, char* name, size_t size) {
  ASGST_ClassInfo info;
  memset(&info, 0, sizeof(info));
  info.class_name = name;
  info.class_name_length = (jint)size;
  ASGST_GetClassInfo(klass, &info);
  if (info.class_name == NULL) {
    name[0] = '\0';
    return 0;
  }
  return 1;
}

/* Whether method is named name. Signal safe. */
static int asgst_test_method_is(ASGST_Method method, const char* name) {
  char buffer[64];
  return asgst_test_method_name(method, buffer, sizeof(buffer)) && strcmp(buffer, name) == 0;
}

/* Appends "name/type/comp_level/bci " of frame to text (size bytes, used so far)
   while it fits, for reports of failed or mismatching walks. Signal safe. */
static void asgst_test_describe_frame(char* text, size_t size, size_t* used, const ASGST_Frame* frame) {
  char name[48];
  if (frame->method == NULL || !asgst_test_method_name(frame->method, name, sizeof(name))) {
    strcpy(name, "-");
  }
  if (*used + 80 < size) {
    *used += (size_t)snprintf(text + *used, size - *used, "%s/%d/%d/%d ", name, frame->type, frame->comp_level,
                              frame->bci);
  }
}

/* Iterator handler: the method of the second frame, the caller of the
   native method that walks, in the ASGST_Method arg (left alone if none). */
static void asgst_test_record_caller(ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame;
  if (ASGST_NextFrame(iterator, &frame) == 1 && ASGST_NextFrame(iterator, &frame) == 1) {
    *(ASGST_Method*)arg = frame.method;
  }
}

/* How many frames an AsgstTestTrace keeps: a library may define it first. */
#ifndef ASGST_TEST_MAX_FRAMES
#define ASGST_TEST_MAX_FRAMES 512
#endif

/* The frames of a walk, top first. */
typedef struct {
  int kind;         /* what the walk function returned: the trace kind, or an error (< 0) */
  int state;        /* ASGST_State after the last frame kept */
  int count;
  ASGST_Frame frames[ASGST_TEST_MAX_FRAMES];
} AsgstTestTrace;

/* Iterator handler: keeps the frames in the AsgstTestTrace arg (not its kind). Signal safe. */
static void asgst_test_record(ASGST_Iterator* iterator, void* arg) {
  AsgstTestTrace* trace = (AsgstTestTrace*)arg;
  trace->count = 0;
  while (trace->count < ASGST_TEST_MAX_FRAMES && ASGST_NextFrame(iterator, &trace->frames[trace->count]) == 1) {
    trace->count++;
  }
  trace->state = ASGST_State(iterator);
}

/* Walks ucontext (null: here) into trace, with state 1 if the walk was
   refused before its first frame. Returns the kind. Signal safe. */
static int asgst_test_walk(void* ucontext, int options, AsgstTestTrace* trace) {
  trace->count = 0;
  trace->state = 1;
  trace->kind = ASGST_RunWithIterator(ucontext, options, asgst_test_record, trace);
  return trace->kind;
}

/* Whether one of trace's frames is the method named name. Signal safe. */
static int asgst_test_has_method(const AsgstTestTrace* trace, const char* name) {
  int i;
  for (i = 0; i < trace->count; i++) {
    if (asgst_test_method_is(trace->frames[i].method, name)) {
      return 1;
    }
  }
  return 0;
}

/* Whether trace begins, by name, with a suffix of the frames truth[0..count)
   (top first; types[k] the frame type of truth[k], or ASGST_FRAME_JAVA for
   all where types is null), whole or cut by an error; the frames below the
   last of truth are not judged. A trace that ends without an error before
   the last has lost frames. Signal safe. */
static int asgst_test_begins_with_suffix(const AsgstTestTrace* trace, const char* const* truth, const int* types,
                                         int count) {
  int start, i;
  if (trace->count == 0) {
    return 0;
  }
  for (start = 0; start < count && !asgst_test_method_is(trace->frames[0].method, truth[start]); start++) {
  }
  if (start == count) {
    return 0;
  }
  for (i = 0; i < trace->count && start + i < count; i++) {
    int type = types == NULL ? ASGST_FRAME_JAVA : types[start + i];
    if (trace->frames[i].type != type || !asgst_test_method_is(trace->frames[i].method, truth[start + i])) {
      return 0;
    }
  }
  return start + trace->count >= count || trace->state != ASGST_NO_FRAME;
}

/* JNI and JVMTI through C's interface (C++ has its own member functions). */
#ifndef __cplusplus

/* For JNI_OnLoad: the VM's jvmtiEnv in *jvmti. Returns JNI_VERSION_1_8, or JNI_ERR. */
static jint asgst_test_load_jvmti(JavaVM* vm, jvmtiEnv** jvmti) {
  return (*vm)->GetEnv(vm, (void**)jvmti, JVMTI_VERSION) == JNI_OK ? JNI_VERSION_1_8 : JNI_ERR;
}

/* Has JVMTI report every piece of code the VM generated so far, and later ones
   as they are made, to callback (blobs and stubs by name: "DeoptimizationBlob",
   "ExceptionBlob", ...). Returns 0, or -1 if JVMTI refused. */
static int asgst_test_watch_generated_code(jvmtiEnv* jvmti, jvmtiEventDynamicCodeGenerated callback) {
  jvmtiEventCallbacks callbacks;
  memset(&callbacks, 0, sizeof(callbacks));
  callbacks.DynamicCodeGenerated = callback;
  if ((*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof(callbacks)) != JVMTI_ERROR_NONE ||
      (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_DYNAMIC_CODE_GENERATED, NULL) !=
          JVMTI_ERROR_NONE ||
      (*jvmti)->GenerateEvents(jvmti, JVMTI_EVENT_DYNAMIC_CODE_GENERATED) != JVMTI_ERROR_NONE) {
    return -1;
  }
  return 0;
}

/* Has JVMTI report where the VM put code: compiled methods to compiled (null:
   not asked) and generated stubs to generated (null: not asked), the code so
   far at once and later code as it is made. Returns 0, or -1 if JVMTI
   refused. */
static int asgst_test_watch_code(jvmtiEnv* jvmti, jvmtiEventCompiledMethodLoad compiled,
                                 jvmtiEventDynamicCodeGenerated generated) {
  jvmtiCapabilities capabilities;
  jvmtiEventCallbacks callbacks;
  memset(&capabilities, 0, sizeof(capabilities));
  capabilities.can_generate_compiled_method_load_events = 1;
  memset(&callbacks, 0, sizeof(callbacks));
  callbacks.CompiledMethodLoad = compiled;
  callbacks.DynamicCodeGenerated = generated;
  if ((*jvmti)->AddCapabilities(jvmti, &capabilities) != JVMTI_ERROR_NONE ||
      (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof(callbacks)) != JVMTI_ERROR_NONE) {
    return -1;
  }
  if (compiled != NULL &&
      ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_COMPILED_METHOD_LOAD, NULL) !=
           JVMTI_ERROR_NONE ||
       (*jvmti)->GenerateEvents(jvmti, JVMTI_EVENT_COMPILED_METHOD_LOAD) != JVMTI_ERROR_NONE)) {
    return -1;
  }
  if (generated != NULL &&
      ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_DYNAMIC_CODE_GENERATED, NULL) !=
           JVMTI_ERROR_NONE ||
       (*jvmti)->GenerateEvents(jvmti, JVMTI_EVENT_DYNAMIC_CODE_GENERATED) != JVMTI_ERROR_NONE)) {
    return -1;
  }
  return 0;
}

/* A new String of text once *recorded is set (set with release after text
   was written, by a signal handler), or null. */
static jstring asgst_test_recorded_text(JNIEnv* env, volatile int* recorded, const char* text) {
  return __atomic_load_n(recorded, __ATOMIC_ACQUIRE) ? (*env)->NewStringUTF(env, text) : NULL;
}

/* A new int[] of values[0..count); null if it could not be made (an exception is pending). */
static jintArray asgst_test_int_array(JNIEnv* env, const jint* values, jsize count) {
  jintArray array = (*env)->NewIntArray(env, count);
  if (array != NULL) {
    (*env)->SetIntArrayRegion(env, array, 0, count, values);
  }
  return array;
}

/* The same as a long[]. */
static jlongArray asgst_test_long_array(JNIEnv* env, const jlong* values, jsize count) {
  jlongArray array = (*env)->NewLongArray(env, count);
  if (array != NULL) {
    (*env)->SetLongArrayRegion(env, array, 0, count, values);
  }
  return array;
}

/* The name JVMTI gives method, in out (size bytes, truncated to fit).
   Returns 1, or 0 with "" if there is none. */
static int asgst_test_jvmti_method_name(jvmtiEnv* jvmti, jmethodID method, char* out, size_t size) {
  char* name = NULL;
  out[0] = '\0';
  if (method == NULL || (*jvmti)->GetMethodName(jvmti, method, &name, NULL, NULL) != JVMTI_ERROR_NONE) {
    return 0;
  }
  snprintf(out, size, "%s", name);
  (*jvmti)->Deallocate(jvmti, (unsigned char*)name);
  return 1;
}

/* The same with its class: "Lpkg/Class;.name". */
static int asgst_test_jvmti_qualified_name(JNIEnv* env, jvmtiEnv* jvmti, jmethodID method, char* out, size_t size) {
  char* name = NULL;
  char* class_signature = NULL;
  jclass klass = NULL;
  int found = method != NULL &&
              (*jvmti)->GetMethodName(jvmti, method, &name, NULL, NULL) == JVMTI_ERROR_NONE &&
              (*jvmti)->GetMethodDeclaringClass(jvmti, method, &klass) == JVMTI_ERROR_NONE &&
              (*jvmti)->GetClassSignature(jvmti, klass, &class_signature, NULL) == JVMTI_ERROR_NONE;
  out[0] = '\0';
  if (found) {
    snprintf(out, size, "%s.%s", class_signature, name);
  }
  if (klass != NULL) (*env)->DeleteLocalRef(env, klass);
  if (name != NULL) (*jvmti)->Deallocate(jvmti, (unsigned char*)name);
  if (class_signature != NULL) (*jvmti)->Deallocate(jvmti, (unsigned char*)class_signature);
  return found;
}

#endif /* !__cplusplus */

#endif /* ASGST_TEST_SUPPORT_H */
