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
 * Two class-unload handlers record what they see; a native method samples
 * its caller's class, as a profiler's trace would hold it.
 */

#include <stdio.h>
#include <string.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define MAX_EVENTS 100000
#define MAX_SAMPLED 64

typedef struct {
  int handler;           /* 0 or 1 */
  jlong class_id;
  int method_count;
  int redefined;
  int saw_work;          /* a method named "work" was among the methods */
  int name_ok;           /* the class's name read in the handler is LUnloadable; */
} Event;

static Event events[MAX_EVENTS];
static volatile int event_count;
static int handler_args[2] = {0, 1};
static jvmtiEnv* jvmti;

static jlong sampled_ids[MAX_SAMPLED];
static int sampled_method_counts[MAX_SAMPLED];
static int sampled_count;

static void on_unload(ASGST_Class klass, ASGST_Method* methods, int count, bool redefined, void* arg) {
  char class_name[64];
  int index = __atomic_fetch_add(&event_count, 1, __ATOMIC_RELAXED);
  int i;
  Event* e;
  if (index >= MAX_EVENTS) {
    return;
  }
  e = &events[index];
  e->handler = *(int*)arg;
  e->class_id = ASGST_GetClassIdNum(klass);
  e->method_count = count;
  e->redefined = redefined;
  e->saw_work = 0;
  e->name_ok = asgst_test_class_name(klass, class_name, sizeof(class_name)) && strcmp(class_name, "LUnloadable;") == 0;
  for (i = 0; i < count; i++) {
    char name[32];
    ASGST_MethodInfo info;
    if (asgst_test_method_info(methods[i], name, sizeof(name), &info) && strcmp(name, "work") == 0 &&
        info.klass == klass) {
      e->saw_work = 1;
    }
  }
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  if (asgst_test_load_jvmti(vm, &jvmti) == JNI_ERR) {
    return JNI_ERR;
  }
  ASGST_RegisterClassUnloadHandler(on_unload, &handler_args[0]);
  ASGST_RegisterClassUnloadHandler(on_unload, &handler_args[1]);
  return JNI_VERSION_1_8;
}

/* Called from Unloadable.work(): records the id and method count of its class. */
JNIEXPORT void JNICALL Java_AsgstClassUnload_sample(JNIEnv* env, jclass cls) {
  ASGST_Method caller = NULL;
  ASGST_MethodInfo info;
  jint method_count = 0;
  jmethodID* methods = NULL;
  jclass klass;
  (void)cls;
  if (ASGST_RunWithIterator(NULL, 0, asgst_test_record_caller, &caller) <= 0 || caller == NULL ||
      sampled_count >= MAX_SAMPLED) {
    return;
  }
  memset(&info, 0, sizeof(info));
  ASGST_GetMethodInfo(caller, &info);
  klass = ASGST_ClassToJClass(info.klass);
  (*jvmti)->GetClassMethods(jvmti, klass, &method_count, &methods);
  (*jvmti)->Deallocate(jvmti, (unsigned char*)methods);
  (*env)->DeleteLocalRef(env, klass);
  sampled_ids[sampled_count] = info.class_idnum;
  sampled_method_counts[sampled_count] = method_count;
  sampled_count++;
}

/*
 * For each sampled class: how many times each handler saw it, as
 * {seen by handler 0, seen by handler 1, all calls had the right count,
 * name and "work" method and redefined == false}.
 */
JNIEXPORT jintArray JNICALL Java_AsgstClassUnload_unloadEvents(JNIEnv* env, jclass cls) {
  jintArray result = (*env)->NewIntArray(env, 3 * sampled_count);
  int n = __atomic_load_n(&event_count, __ATOMIC_ACQUIRE);
  int i, k;
  (void)cls;
  for (k = 0; k < sampled_count; k++) {
    jint row[3] = {0, 0, 1};
    for (i = 0; i < n && i < MAX_EVENTS; i++) {
      if (events[i].class_id == sampled_ids[k]) {
        row[events[i].handler]++;
        if (events[i].method_count != sampled_method_counts[k] || !events[i].name_ok || !events[i].saw_work ||
            events[i].redefined) {
          row[2] = 0;
        }
      }
    }
    (*env)->SetIntArrayRegion(env, result, 3 * k, 3, row);
  }
  return result;
}

JNIEXPORT jint JNICALL Java_AsgstClassUnload_sampledClasses(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return sampled_count;
}

/* Deregisters handler 1: {first result, second result}. */
JNIEXPORT jbooleanArray JNICALL Java_AsgstClassUnload_deregister(JNIEnv* env, jclass cls) {
  jboolean results[2];
  jbooleanArray array = (*env)->NewBooleanArray(env, 2);
  (void)cls;
  results[0] = ASGST_DeregisterClassUnloadHandler(on_unload, &handler_args[1]);
  results[1] = ASGST_DeregisterClassUnloadHandler(on_unload, &handler_args[1]);
  (*env)->SetBooleanArrayRegion(env, array, 0, 2, results);
  return array;
}
