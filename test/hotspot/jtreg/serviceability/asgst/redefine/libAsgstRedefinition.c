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

/* Samples the caller's method before and after a redefinition; records unload-handler calls. */

#include <string.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define MAX_EVENTS 64

typedef struct {
  ASGST_Class klass;
  jlong class_id;
  int count;
  int redefined;
  int held_old_method;  /* the methods include the method sampled before the redefinition */
  int idnum_of_work;    /* method idnum of "work" among them, or -1 */
} Event;

static Event events[MAX_EVENTS];
static volatile int event_count;
static ASGST_Method sampled[2];
static int sample_count;

static void on_unload(ASGST_Class klass, ASGST_Method* methods, int count, bool redefined, void* arg) {
  int index = __atomic_fetch_add(&event_count, 1, __ATOMIC_RELAXED);
  int i;
  (void)arg;
  if (index >= MAX_EVENTS) {
    return;
  }
  events[index].klass = klass;
  events[index].class_id = ASGST_GetClassIdNum(klass);
  events[index].count = count;
  events[index].redefined = redefined;
  events[index].held_old_method = 0;
  events[index].idnum_of_work = -1;
  for (i = 0; i < count; i++) {
    char name[16];
    ASGST_MethodInfo info;
    int named = asgst_test_method_info(methods[i], name, sizeof(name), &info);
    if (methods[i] == sampled[0]) {
      events[index].held_old_method = 1;
    }
    if (named && strcmp(name, "work") == 0) {
      events[index].idnum_of_work = info.idnum;
    }
  }
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)vm; (void)reserved;
  ASGST_RegisterClassUnloadHandler(on_unload, NULL);
  return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL Java_AsgstRedefinition_sample(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  if (sample_count < 2) {
    ASGST_RunWithIterator(NULL, 0, asgst_test_record_caller, &sampled[sample_count++]);
  }
}

/*
 * Returns null if: the two samples are different methods of the same class
 * with equal method and class ids; exactly one handler call came with
 * redefined == true, for that class id, holding the old method, whose "work"
 * has the same idnum. Else a description.
 */
JNIEXPORT jstring JNICALL Java_AsgstRedefinition_check(JNIEnv* env, jclass cls) {
  ASGST_MethodInfo before, after;
  int i, redefined_events = 0;
  const char* error = NULL;
  (void)cls;
  if (sample_count != 2 || sampled[0] == NULL || sampled[1] == NULL) {
    return (*env)->NewStringUTF(env, "expected two samples");
  }
  memset(&before, 0, sizeof(before));
  memset(&after, 0, sizeof(after));
  ASGST_GetMethodInfo(sampled[1], &after);
  if (sampled[0] == sampled[1]) {
    error = "the method after the redefinition is the old one";
  }
  for (i = 0; i < event_count && i < MAX_EVENTS && error == NULL; i++) {
    Event* e = &events[i];
    if (!e->redefined) {
      continue;
    }
    redefined_events++;
    if (e->class_id != after.class_idnum) {
      error = "the old version's class id differs from the class's";
    } else if (!e->held_old_method) {
      error = "the old version's methods do not include the sampled old method";
    } else if (e->idnum_of_work != after.idnum) {
      error = "the old work() has another method idnum than the new one";
    } else if (e->klass == after.klass) {
      error = "the old version was reported as the current class";
    }
  }
  if (error == NULL && redefined_events != 1) {
    error = "expected exactly one handler call with redefined == true";
  }
  (void)before;
  return error == NULL ? NULL : (*env)->NewStringUTF(env, error);
}
