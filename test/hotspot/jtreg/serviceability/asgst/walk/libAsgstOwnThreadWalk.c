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
 */

/* Walks the calling thread with ASGST and compares the frames with JVMTI. */

#include <stdio.h>
#include <string.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"

#define MAX_FRAMES 512

typedef struct {
  int count;
  int state;
  ASGST_Frame frames[MAX_FRAMES];
} Trace;

static jvmtiEnv* jvmti;
static char message[1024];

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  if ((*vm)->GetEnv(vm, (void**)&jvmti, JVMTI_VERSION) != JNI_OK) {
    return JNI_ERR;
  }
  return JNI_VERSION_1_8;
}

static void record(ASGST_Iterator* iterator, void* arg) {
  Trace* trace = (Trace*)arg;
  trace->count = 0;
  while (trace->count < MAX_FRAMES && ASGST_NextFrame(iterator, &trace->frames[trace->count]) == 1) {
    trace->count++;
  }
  trace->state = ASGST_State(iterator);
}

static jstring fail(JNIEnv* env, const char* text) {
  return (*env)->NewStringUTF(env, text);
}

static const char* name_of(jmethodID method) {
  static char name[256];
  char* method_name = NULL;
  jclass klass = NULL;
  char* class_signature = NULL;
  name[0] = '\0';
  if (method != NULL &&
      (*jvmti)->GetMethodName(jvmti, method, &method_name, NULL, NULL) == JVMTI_ERROR_NONE &&
      (*jvmti)->GetMethodDeclaringClass(jvmti, method, &klass) == JVMTI_ERROR_NONE &&
      (*jvmti)->GetClassSignature(jvmti, klass, &class_signature, NULL) == JVMTI_ERROR_NONE) {
    snprintf(name, sizeof(name), "%s.%s", class_signature, method_name);
  }
  if (method_name != NULL) (*jvmti)->Deallocate(jvmti, (unsigned char*)method_name);
  if (class_signature != NULL) (*jvmti)->Deallocate(jvmti, (unsigned char*)class_signature);
  return name;
}

static jstring compare(JNIEnv* env) {
  static Trace trace;
  jvmtiFrameInfo expected[MAX_FRAMES];
  jint expected_count = 0;
  jclass cls = (*env)->FindClass(env, "AsgstOwnThreadWalk");
  jfieldID java_frames = (*env)->GetStaticFieldID(env, cls, "javaFrames", "I");
  jfieldID at_level = (*env)->GetStaticFieldID(env, cls, "framesAtExpectedLevel", "I");
  jmethodID main_method = (*env)->GetStaticMethodID(env, cls, "main", "([Ljava/lang/String;)V");
  jint expected_level = (*env)->GetStaticIntField(env, cls, (*env)->GetStaticFieldID(env, cls, "expectedLevel", "I"));
  int own_frames = 0, own_at_level = 0;
  int kind, i;

  kind = ASGST_RunWithIterator(NULL, 0, record, &trace);
  if (kind != ASGST_JAVA_TRACE) {
    snprintf(message, sizeof(message), "ASGST_RunWithIterator returned %d, expected a Java trace", kind);
    return fail(env, message);
  }
  if (trace.state != ASGST_NO_FRAME) {
    snprintf(message, sizeof(message), "the walk ended with state %d after %d frames", trace.state, trace.count);
    return fail(env, message);
  }
  if ((*jvmti)->GetStackTrace(jvmti, NULL, 0, MAX_FRAMES, expected, &expected_count) != JVMTI_ERROR_NONE) {
    return fail(env, "GetStackTrace failed");
  }
  for (i = 0; i < trace.count && i < expected_count; i++) {
    ASGST_Frame* f = &trace.frames[i];
    jmethodID id = ASGST_MethodToJMethodID(f->method);
    if (id != expected[i].method || f->bci != (int)expected[i].location) {
      char ours[256];
      snprintf(ours, sizeof(ours), "%s", name_of(id));
      snprintf(message, sizeof(message),
               "frame %d: ASGST has %s bci %d (type %d, level %d), JVMTI has %s location %ld",
               i, ours, f->bci, f->type, f->comp_level, name_of(expected[i].method),
               (long)expected[i].location);
      return fail(env, message);
    }
    if (f->type == ASGST_FRAME_JAVA_NATIVE && (f->bci != -1 || f->comp_level != -1)) {
      snprintf(message, sizeof(message), "frame %d: native frame with bci %d, level %d", i, f->bci, f->comp_level);
      return fail(env, message);
    }
    if (f->pc == NULL || f->sp == NULL) {
      snprintf(message, sizeof(message), "frame %d: no pc or sp", i);
      return fail(env, message);
    }
  }
  if (trace.count != expected_count) {
    snprintf(message, sizeof(message), "ASGST walked %d frames, JVMTI has %d", trace.count, (int)expected_count);
    return fail(env, message);
  }

  /* Comp levels of the Java frames of the test class's own methods, main excepted
     (it runs before -Xcomp's compilation of it can matter). */
  {
    jclass declaring;
    for (i = 0; i < trace.count; i++) {
      ASGST_Frame* f = &trace.frames[i];
      jmethodID id = ASGST_MethodToJMethodID(f->method);
      if (f->type == ASGST_FRAME_JAVA_NATIVE || id == main_method) {
        continue;
      }
      if ((*jvmti)->GetMethodDeclaringClass(jvmti, id, &declaring) == JVMTI_ERROR_NONE &&
          (*env)->IsSameObject(env, declaring, cls)) {
        own_frames++;
        if (f->comp_level == expected_level) {
          own_at_level++;
        }
      }
    }
  }
  (*env)->SetStaticIntField(env, cls, java_frames, own_frames);
  (*env)->SetStaticIntField(env, cls, at_level, own_at_level);
  return NULL;
}

JNIEXPORT jstring JNICALL Java_AsgstOwnThreadWalk_walkAndCompare(JNIEnv* env, jclass cls) {
  (void)cls;
  return compare(env);
}

JNIEXPORT jstring JNICALL Java_AsgstOwnThreadWalk_callFromC(JNIEnv* env, jclass cls) {
  jmethodID callback = (*env)->GetStaticMethodID(env, cls, "callBackIntoJava", "()Ljava/lang/String;");
  return (jstring)(*env)->CallStaticObjectMethod(env, cls, callback);
}
