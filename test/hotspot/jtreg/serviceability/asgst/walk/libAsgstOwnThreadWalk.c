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

/* Walks the calling thread with ASGST and compares the frames with JVMTI. */

#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define MAX_FRAMES ASGST_TEST_MAX_FRAMES

static jvmtiEnv* jvmti;
static char message[1024];

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  return asgst_test_load_jvmti(vm, &jvmti);
}

static jstring fail(JNIEnv* env, const char* text) {
  return (*env)->NewStringUTF(env, text);
}

static int same_java_frame(const ASGST_Frame* a, const ASGST_Frame* b) {
  return a->type == b->type && a->method == b->method && a->bci == b->bci && a->comp_level == b->comp_level;
}

/* Checks that the Java frames of walk (C frames skipped) equal base. */
static const char* java_frames_equal(const AsgstTestTrace* walk, const AsgstTestTrace* base, const char* what) {
  int i, j = 0;
  for (i = 0; i < walk->count; i++) {
    if (walk->frames[i].type == ASGST_FRAME_NON_JAVA) {
      continue;
    }
    if (j >= base->count || !same_java_frame(&walk->frames[i], &base->frames[j])) {
      snprintf(message, sizeof(message), "%s: frame %d differs from Java frame %d of the plain walk", what, i, j);
      return message;
    }
    j++;
  }
  if (j != base->count) {
    snprintf(message, sizeof(message), "%s: %d Java frames, the plain walk has %d", what, j, base->count);
    return message;
  }
  return NULL;
}

static void walk_twice(ASGST_Iterator* iterator, void* arg) {
  AsgstTestTrace* traces = (AsgstTestTrace*)arg;
  asgst_test_record(iterator, &traces[0]);
  ASGST_RewindIterator(iterator);
  asgst_test_record(iterator, &traces[1]);
}

static __attribute__((noinline)) int walk_from_own_frame(AsgstTestTrace* trace, void** expected_pc) {
  void** fp = (void**)__builtin_frame_address(0);
  /* The caller's frame: its pc is our return address, its sp lies above our frame. */
  *expected_pc = fp[1];
  return ASGST_RunWithIteratorFromFrame(fp + 2, fp[0], fp[1], ASGST_INCLUDE_NON_JAVA_FRAMES, asgst_test_record,
                                        trace);
}

/* Everything else the API offers, against the plain walk of the same stack. */
static const char* check_variants(JNIEnv* env, const AsgstTestTrace* base) {
  static AsgstTestTrace mixed, twice[2], first, first_mixed, from_frame, by_id;
  ASGST_CallFrame call_frames[MAX_FRAMES];
  ASGST_CallTrace call_trace;
  const char* error;
  void* expected_pc = NULL;
  int i, kind;

  /* C frames: the same Java frames, C frames between them, sp never decreasing. */
  kind = asgst_test_walk(NULL, ASGST_INCLUDE_NON_JAVA_FRAMES, &mixed);
  if (kind != ASGST_JAVA_TRACE || mixed.state != ASGST_NO_FRAME) {
    snprintf(message, sizeof(message), "walk with C frames: kind %d, end state %d", kind, mixed.state);
    return message;
  }
  if ((error = java_frames_equal(&mixed, base, "walk with C frames")) != NULL) return error;
  if (mixed.frames[0].type != ASGST_FRAME_NON_JAVA) return "walk with C frames: the top frame is not a C frame";
  for (i = 0; i < mixed.count; i++) {
    if (i > 0 && (char*)mixed.frames[i].sp < (char*)mixed.frames[i - 1].sp) {
      snprintf(message, sizeof(message), "walk with C frames: sp decreases at frame %d", i);
      return message;
    }
    if (mixed.frames[i].type == ASGST_FRAME_JAVA_NATIVE && mixed.frames[i - 1].type != ASGST_FRAME_NON_JAVA) {
      snprintf(message, sizeof(message), "walk with C frames: no C frame above native method frame %d", i);
      return message;
    }
    if (mixed.frames[i].type == ASGST_FRAME_NON_JAVA &&
        (mixed.frames[i].method != NULL || mixed.frames[i].bci != -1 || mixed.frames[i].pc == NULL)) {
      snprintf(message, sizeof(message), "walk with C frames: C frame %d has a method, a bci or no pc", i);
      return message;
    }
  }
  if (mixed.frames[mixed.count - 1].type != ASGST_FRAME_NON_JAVA) {
    return "walk with C frames: no C frames below the first Java frame";
  }

  /* Rewind gives the same frames again. */
  ASGST_RunWithIterator(NULL, ASGST_INCLUDE_NON_JAVA_FRAMES, walk_twice, twice);
  if (twice[0].count != twice[1].count || twice[0].count != mixed.count ||
      memcmp(twice[0].frames, twice[1].frames, sizeof(ASGST_Frame) * twice[0].count) != 0) {
    return "ASGST_RewindIterator: the second walk differs from the first";
  }

  /* END_ON_FIRST_JAVA_FRAME: the top Java frame, after the C frames above it if asked. */
  asgst_test_walk(NULL, ASGST_END_ON_FIRST_JAVA_FRAME, &first);
  if (first.count != 1 || !same_java_frame(&first.frames[0], &base->frames[0]) || first.state != ASGST_NO_FRAME) {
    return "ASGST_END_ON_FIRST_JAVA_FRAME: expected exactly the top Java frame";
  }
  asgst_test_walk(NULL, ASGST_END_ON_FIRST_JAVA_FRAME | ASGST_INCLUDE_NON_JAVA_FRAMES, &first_mixed);
  if (first_mixed.count < 2 || !same_java_frame(&first_mixed.frames[first_mixed.count - 1], &base->frames[0])) {
    return "ASGST_END_ON_FIRST_JAVA_FRAME with C frames: expected C frames, then the top Java frame";
  }

  /* A walk from a given frame starts exactly there. */
  kind = walk_from_own_frame(&from_frame, &expected_pc);
  if (kind != ASGST_JAVA_TRACE || from_frame.count == 0 || from_frame.frames[0].pc != expected_pc) {
    snprintf(message, sizeof(message), "ASGST_RunWithIteratorFromFrame: kind %d, %d frames, first pc %p, expected %p",
             kind, from_frame.count, from_frame.count > 0 ? from_frame.frames[0].pc : NULL, expected_pc);
    return message;
  }
  if ((error = java_frames_equal(&from_frame, base, "ASGST_RunWithIteratorFromFrame")) != NULL) return error;

  /* The own thread by OS id. */
  kind = ASGST_RunWithIteratorOfThread((jlong)syscall(SYS_gettid), NULL, 0, asgst_test_record, &by_id);
  if (kind != ASGST_JAVA_TRACE) return "ASGST_RunWithIteratorOfThread of the own thread failed";
  if ((error = java_frames_equal(&by_id, base, "ASGST_RunWithIteratorOfThread")) != NULL) return error;

  /* AsyncGetStackTrace: the same frames, named by a null env or the own one; depth limits. */
  for (i = 0; i < 2; i++) {
    memset(&call_trace, 0, sizeof(call_trace));
    call_trace.env_id = i == 0 ? NULL : env;
    call_trace.frames = call_frames;
    AsyncGetStackTrace(&call_trace, MAX_FRAMES, NULL, 0);
    if (call_trace.num_frames != base->count || call_trace.kind != ASGST_JAVA_TRACE || call_trace.env_id != env) {
      snprintf(message, sizeof(message), "AsyncGetStackTrace: %d frames, kind %d; expected %d frames",
               (int)call_trace.num_frames, call_trace.kind, base->count);
      return message;
    }
  }
  for (i = 0; i < base->count; i++) {
    const ASGST_Frame* b = &base->frames[i];
    const ASGST_JavaFrame* f = &call_frames[i].java_frame;
    int bci = f->bci == 65535 ? -1 : f->bci;
    if (f->type != b->type || f->method != b->method || bci != b->bci || f->comp_level != b->comp_level) {
      snprintf(message, sizeof(message), "AsyncGetStackTrace: frame %d differs from the iterator's", i);
      return message;
    }
  }
  if ((call_trace.state & (JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE | JVMTI_THREAD_STATE_IN_NATIVE)) !=
      (JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE | JVMTI_THREAD_STATE_IN_NATIVE) ||
      call_trace.state != ASGST_ThreadState()) {
    snprintf(message, sizeof(message), "AsyncGetStackTrace: state 0x%x, ASGST_ThreadState 0x%x",
             (unsigned)call_trace.state, (unsigned)ASGST_ThreadState());
    return message;
  }
  memset(&call_trace, 0, sizeof(call_trace));
  call_trace.frames = call_frames;
  AsyncGetStackTrace(&call_trace, 3, NULL, 0);
  if (call_trace.num_frames != 3 || call_frames[2].java_frame.method != base->frames[2].method) {
    return "AsyncGetStackTrace with depth 3: expected the top 3 frames";
  }
  memset(&call_trace, 0, sizeof(call_trace));
  call_trace.frames = call_frames;
  AsyncGetStackTrace(&call_trace, 0, NULL, 0);
  if (call_trace.num_frames != 0) {
    return "AsyncGetStackTrace with depth 0: expected 0 frames";
  }
  return NULL;
}

static jstring compare(JNIEnv* env) {
  static AsgstTestTrace trace;
  jvmtiFrameInfo expected[MAX_FRAMES];
  jint expected_count = 0;
  jclass cls = (*env)->FindClass(env, "AsgstOwnThreadWalk");
  jfieldID java_frames = (*env)->GetStaticFieldID(env, cls, "javaFrames", "I");
  jfieldID at_level = (*env)->GetStaticFieldID(env, cls, "framesAtExpectedLevel", "I");
  jmethodID main_method = (*env)->GetStaticMethodID(env, cls, "main", "([Ljava/lang/String;)V");
  jint expected_level = (*env)->GetStaticIntField(env, cls, (*env)->GetStaticFieldID(env, cls, "expectedLevel", "I"));
  int own_frames = 0, own_at_level = 0;
  int kind, i;

  kind = asgst_test_walk(NULL, 0, &trace);
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
      char ours[256], theirs[256];
      asgst_test_jvmti_qualified_name(env, jvmti, id, ours, sizeof(ours));
      asgst_test_jvmti_qualified_name(env, jvmti, expected[i].method, theirs, sizeof(theirs));
      snprintf(message, sizeof(message),
               "frame %d: ASGST has %s bci %d (type %d, level %d), JVMTI has %s location %ld",
               i, ours, f->bci, f->type, f->comp_level, theirs, (long)expected[i].location);
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
  {
    const char* error = check_variants(env, &trace);
    if (error != NULL) {
      return fail(env, error);
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
