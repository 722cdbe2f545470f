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
 * AsyncGetCallTrace's types, which no JDK header declares (libjvm exports the
 * function only), for the test agents and benchmarks that compare ASGST with
 * it. C only; included by relative path.
 */

#ifndef ASGST_ASYNC_GET_CALL_TRACE_H
#define ASGST_ASYNC_GET_CALL_TRACE_H

#include <dlfcn.h>
#include <string.h>

#include "jni.h"
#include "jvmti.h"

typedef struct {
  jint lineno;                  /* the bci; -3 in a native method */
  jmethodID method_id;          /* null for a method without a jmethodID */
} AGCT_CallFrame;

typedef struct {
  JNIEnv* env_id;               /* the walked thread's */
  jint num_frames;              /* frames, or an error (< 0) */
  AGCT_CallFrame* frames;
} AGCT_CallTrace;

typedef void (*AsyncGetCallTraceFunction)(AGCT_CallTrace* trace, jint depth, void* ucontext);

/* One walk of agct, of the thread of env from ucontext (null: where it is
   now), into frames[0..depth). Returns the frames, or an error (< 0). Signal safe. */
static inline jint asgst_agct_walk(AsyncGetCallTraceFunction agct, JNIEnv* env, AGCT_CallFrame* frames, jint depth,
                                   void* ucontext) {
  AGCT_CallTrace trace;
  trace.env_id = env;
  trace.num_frames = 0;
  trace.frames = frames;
  agct(&trace, depth, ucontext);
  return trace.num_frames;
}

/* AsyncGetCallTrace refuses to walk unless ClassLoad events are enabled: an
   agent that wants no other work done in them sets this callback. */
static inline void JNICALL asgst_agct_on_class_load(jvmtiEnv* jvmti, JNIEnv* env, jthread thread, jclass klass) {
  (void)jvmti; (void)env; (void)thread; (void)klass;
}

/* libjvm's AsyncGetCallTrace, or null. */
static inline AsyncGetCallTraceFunction asgst_agct_function(void) {
  return (AsyncGetCallTraceFunction)dlsym(RTLD_DEFAULT, "AsyncGetCallTrace");
}

/* For an agent without other event callbacks (they are replaced): enables
   ClassLoad with asgst_agct_on_class_load. Returns the function, or null. */
static inline AsyncGetCallTraceFunction asgst_agct_prepare(jvmtiEnv* jvmti) {
  jvmtiEventCallbacks callbacks;
  memset(&callbacks, 0, sizeof(callbacks));
  callbacks.ClassLoad = asgst_agct_on_class_load;
  if ((*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof(callbacks)) != JVMTI_ERROR_NONE ||
      (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, NULL) != JVMTI_ERROR_NONE) {
    return NULL;
  }
  return asgst_agct_function();
}

#endif /* ASGST_ASYNC_GET_CALL_TRACE_H */
