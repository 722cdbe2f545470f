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

/* The native side of AsgstRedefinitionOnStack.java. */

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

static jvmtiEnv* jvmti;
static ASGST_Method sampled;             /* OnStack.run as the walk saw it */
static int sampled_bci = -2;
static jmethodID jvmti_method;           /* and as JVMTI saw it */
static jlocation jvmti_location = -2;
static jboolean jvmti_obsolete;
/* Every method handed to the unload handlers, with whether run() had
   returned then: the sampled method is looked up among them afterwards (it
   is known only once the walk found it, after the redefinition). */
#define MAX_HANDED 4096
typedef struct {
  ASGST_Method method;
  bool redefined;
  int after_return;
} Handed;
static Handed handed[MAX_HANDED];
static volatile int handed_count;
static volatile int run_returned;

static void JNICALL on_unload(ASGST_Class klass, ASGST_Method* methods, int count, bool redefined, void* arg) {
  int i;
  (void)klass; (void)arg;
  for (i = 0; i < count; i++) {
    int n = __atomic_fetch_add(&handed_count, 1, __ATOMIC_RELAXED);
    if (n < MAX_HANDED) {
      handed[n].method = methods[i];
      handed[n].redefined = redefined;
      handed[n].after_return = __atomic_load_n(&run_returned, __ATOMIC_ACQUIRE);
    }
  }
}

/* {times the sampled method was handed over before run() returned, after, of these without redefined} */
static void count_handed(int* before, int* after, int* not_redefined) {
  int i, n = handed_count < MAX_HANDED ? handed_count : MAX_HANDED;
  *before = *after = *not_redefined = 0;
  for (i = 0; i < n; i++) {
    if (handed[i].method == sampled) {
      (handed[i].after_return ? after : before)[0]++;
      *not_redefined += !handed[i].redefined;
    }
  }
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  if (asgst_test_load_jvmti(vm, &jvmti) == JNI_ERR) {
    return JNI_ERR;
  }
  ASGST_RegisterClassUnloadHandler(on_unload, NULL);
  return JNI_VERSION_1_8;
}

/* The first frame named run: OnStack.run (this walk starts in sampleRun). */
static void find_run(ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame;
  (void)arg;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (frame.method != NULL && asgst_test_method_is(frame.method, "run")) {
      sampled = frame.method;
      sampled_bci = frame.bci;
      return;
    }
  }
}

JNIEXPORT void JNICALL Java_AsgstRedefinitionOnStack_sampleRun(JNIEnv* env, jclass cls) {
  jvmtiFrameInfo frames[8];
  jint count = 0, i;
  (void)env; (void)cls;
  ASGST_RunWithIterator(NULL, 0, find_run, NULL);
  /* JVMTI: frame 0 is sampleRun, frame 1 OnStack.run. */
  if ((*jvmti)->GetStackTrace(jvmti, NULL, 0, 8, frames, &count) == JVMTI_ERROR_NONE) {
    for (i = 0; i < count; i++) {
      char name[64];
      if (asgst_test_jvmti_method_name(jvmti, frames[i].method, name, sizeof(name)) && strcmp(name, "run") == 0) {
        jvmti_method = frames[i].method;
        jvmti_location = frames[i].location;
        (*jvmti)->IsMethodObsolete(jvmti, jvmti_method, &jvmti_obsolete);
        break;
      }
    }
  }
  /* run() returns right after this (nothing between can free its old version). */
  __atomic_store_n(&run_returned, 1, __ATOMIC_RELEASE);
}

JNIEXPORT jstring JNICALL Java_AsgstRedefinitionOnStack_check(JNIEnv* env, jclass cls, jboolean after_collection) {
  static char message[256];
  jclass on_stack = (*env)->FindClass(env, "OnStack");
  jmethodID current = on_stack == NULL ? NULL : (*env)->GetStaticMethodID(env, on_stack, "run", "()I");
  ASGST_Method now = current == NULL ? NULL : ASGST_JMethodIDToMethod(current);
  ASGST_MethodInfo old_info, new_info;
  int before, after, not_redefined;
  (void)cls;
  if (sampled == NULL || now == NULL) {
    return (*env)->NewStringUTF(env, "the walk did not find OnStack.run, or the current run() is unknown");
  }
  if (!after_collection) {
    memset(&old_info, 0, sizeof(old_info));
    memset(&new_info, 0, sizeof(new_info));
    ASGST_GetMethodInfo(sampled, &old_info);
    ASGST_GetMethodInfo(now, &new_info);
    if (!jvmti_obsolete) {
      snprintf(message, sizeof(message), "JVMTI does not call the running run() obsolete: no redefinition on the stack");
    } else if (sampled == now) {
      snprintf(message, sizeof(message), "the walk showed the new run(), not the running old one");
    } else if (ASGST_MethodToJMethodID(sampled) != jvmti_method) {
      snprintf(message, sizeof(message), "the walk's method is not the one JVMTI reports for the frame");
    } else if (sampled_bci != (int)jvmti_location) {
      snprintf(message, sizeof(message), "bci %d, JVMTI %d", sampled_bci, (int)jvmti_location);
    } else if (old_info.idnum != new_info.idnum || old_info.class_idnum != new_info.class_idnum) {
      snprintf(message, sizeof(message), "ids: old %d/%lld, new %d/%lld", old_info.idnum,
               (long long)old_info.class_idnum, new_info.idnum, (long long)new_info.class_idnum);
    } else {
      return NULL;
    }
    return (*env)->NewStringUTF(env, message);
  }
  count_handed(&before, &after, &not_redefined);
  if (before != 0) {
    snprintf(message, sizeof(message), "the old version went to the handlers while it ran (%d times)", before);
    return (*env)->NewStringUTF(env, message);
  }
  if (after == 0) {
    return (*env)->NewStringUTF(env, "waiting for the old version");
  }
  if (after != 1 || not_redefined != 0) {
    snprintf(message, sizeof(message), "the old version went to the handlers %d times (%d without redefined)",
             after, not_redefined);
    return (*env)->NewStringUTF(env, message);
  }
  return NULL;
}
