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

/* Walks the calling thread and checks the walk against JVMTI GetStackTrace. */

#include <stdio.h>
#include <string.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define MAX_FRAMES ASGST_TEST_MAX_FRAMES

static jvmtiEnv* jvmti;
static char message[512];

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  return asgst_test_load_jvmti(vm, &jvmti);
}

/*
 * Returns null if the Java frames equal GetStackTrace's (methods and bcis)
 * with and without C frames, else what differs. Sets *between to the number
 * of C frames that lie between two Java frames.
 */
static const char* check(int* between) {
  static AsgstTestTrace plain, mixed;
  jvmtiFrameInfo expected[MAX_FRAMES];
  jint expected_count = 0;
  int kind, i, j, last_java;

  kind = asgst_test_walk(NULL, 0, &plain);
  if (kind != ASGST_JAVA_TRACE || plain.state != ASGST_NO_FRAME) {
    const ASGST_Frame* last = plain.count > 0 ? &plain.frames[plain.count - 1] : NULL;
    snprintf(message, sizeof(message), "plain walk: kind %d, end state %d after %d frames, the last of type %d, level %d, bci %d",
             kind, plain.state, plain.count, last ? last->type : 0, last ? last->comp_level : 0, last ? last->bci : 0);
    return message;
  }
  if ((*jvmti)->GetStackTrace(jvmti, NULL, 0, MAX_FRAMES, expected, &expected_count) != JVMTI_ERROR_NONE) {
    return "GetStackTrace failed";
  }
  if (plain.count != expected_count) {
    snprintf(message, sizeof(message), "ASGST walked %d frames, JVMTI has %d", plain.count, (int)expected_count);
    return message;
  }
  for (i = 0; i < plain.count; i++) {
    if (ASGST_MethodToJMethodID(plain.frames[i].method) != expected[i].method ||
        plain.frames[i].bci != (int)expected[i].location) {
      snprintf(message, sizeof(message), "frame %d: bci %d, JVMTI location %d, or another method",
               i, plain.frames[i].bci, (int)expected[i].location);
      return message;
    }
  }

  kind = asgst_test_walk(NULL, ASGST_INCLUDE_NON_JAVA_FRAMES, &mixed);
  if (kind != ASGST_JAVA_TRACE || mixed.state != ASGST_NO_FRAME) {
    snprintf(message, sizeof(message), "walk with C frames: kind %d, end state %d", kind, mixed.state);
    return message;
  }
  last_java = -1;
  for (i = 0; i < mixed.count; i++) {
    if (mixed.frames[i].type != ASGST_FRAME_NON_JAVA) {
      last_java = i;
    }
  }
  *between = 0;
  for (i = 0, j = 0; i < mixed.count; i++) {
    if (mixed.frames[i].type == ASGST_FRAME_NON_JAVA) {
      if (j > 0 && i < last_java) {
        (*between)++;
      }
      continue;
    }
    if (j >= plain.count || mixed.frames[i].method != plain.frames[j].method ||
        mixed.frames[i].bci != plain.frames[j].bci) {
      snprintf(message, sizeof(message), "walk with C frames: frame %d differs from Java frame %d", i, j);
      return message;
    }
    j++;
  }
  if (j != plain.count) {
    return "walk with C frames: Java frames missing";
  }
  return NULL;
}

/* Returns "between=N" or the error. */
JNIEXPORT jstring JNICALL Java_AsgstTransitions_walk(JNIEnv* env, jclass cls) {
  int between = 0;
  const char* error = check(&between);
  char text[64];
  (void)cls;
  if (error != NULL) {
    return (*env)->NewStringUTF(env, error);
  }
  snprintf(text, sizeof(text), "between=%d", between);
  return (*env)->NewStringUTF(env, text);
}
