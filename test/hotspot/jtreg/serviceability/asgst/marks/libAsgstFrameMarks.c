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
 * Frame marks on the calling thread, walked from native methods (no
 * signal): marking the n-th frame from the top, and walks that watch an
 * owner's marks. The frames a marking walk saw below the marked frame are
 * kept by cookie; a walk that reaches the mark compares the callers it goes
 * on to report with them.
 */

#include <string.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define KEPT 8  /* cookies 0..KEPT-1 keep their suffix */

typedef struct {
  int owner, slot, depth;
  jlong cookie;
  int result;                /* ASGST_MarkFrame's */
  void* marked_fp;           /* the marked frame's fp and sp as reported */
  void* marked_sp;
} MarkRequest;

static AsgstTestTrace kept[KEPT];       /* the callers below each cookie's marked frame */
static AsgstTestTrace last_walk;        /* the frames of the last watching walk, MARKED not counted */
static int last_marked_at;              /* frames reported before ASGST_MARKED_FRAME, or -1 */
static ASGST_Mark last_mark;
static int last_suffix_mismatch;        /* the first caller that differs from the kept one, or -1 */

/* Steps the iterator to the depth-th frame from the top (0: the first) and
   stores it in *frame; 0 if the walk has fewer frames. */
static int step_to(ASGST_Iterator* iterator, int depth, ASGST_Frame* frame) {
  int i;
  for (i = 0; i <= depth; i++) {
    if (ASGST_NextFrame(iterator, frame) != 1) {
      return 0;
    }
  }
  return 1;
}

static void mark_nth(ASGST_Iterator* iterator, void* arg) {
  MarkRequest* request = (MarkRequest*)arg;
  ASGST_Frame frame;
  request->result = ASGST_INVALID_ARGUMENT;
  if (!step_to(iterator, request->depth, &frame)) {
    return;
  }
  request->result = ASGST_MarkFrame(iterator, request->owner, request->slot, (uint64_t)request->cookie);
  request->marked_fp = frame.fp;
  request->marked_sp = frame.sp;
  if (request->cookie >= 0 && request->cookie < KEPT) {
    asgst_test_record(iterator, &kept[request->cookie]);  /* the callers, as they are now */
  }
}

JNIEXPORT jint JNICALL
Java_AsgstFrameMarks_markFrame(JNIEnv* env, jclass cls, jint owner, jint slot, jint depth, jlong cookie) {
  MarkRequest request = { owner, slot, depth, cookie, 0, NULL, NULL };
  int kind = ASGST_RunWithIterator(NULL, 0, mark_nth, &request);
  return kind > 0 ? request.result : kind;
}

static void watch(ASGST_Iterator* iterator, void* arg) {
  int owner = *(int*)arg;
  int n = 0, result, i;
  ASGST_Frame frame;
  last_marked_at = -1;
  last_suffix_mismatch = -1;
  if (ASGST_WatchMarks(iterator, owner) != 0) {
    last_marked_at = -2;
    return;
  }
  while (n < ASGST_TEST_MAX_FRAMES) {
    result = ASGST_NextFrame(iterator, &frame);
    if (result == ASGST_MARKED_FRAME) {
      if (last_marked_at >= 0 || !ASGST_GetMark(iterator, &last_mark)) {
        last_marked_at = -3;  /* a second mark of one owner, or no mark to tell */
        return;
      }
      last_marked_at = n;
      continue;
    }
    if (result != 1) {
      break;
    }
    last_walk.frames[n++] = frame;
  }
  last_walk.count = n;
  /* The callers after the mark against those kept when it was set. */
  if (last_marked_at >= 0 && last_mark.cookie < KEPT) {
    AsgstTestTrace* suffix = &kept[last_mark.cookie];
    if (n - last_marked_at != suffix->count) {
      last_suffix_mismatch = suffix->count < n - last_marked_at ? suffix->count : n - last_marked_at;
      return;
    }
    for (i = 0; i < suffix->count; i++) {
      ASGST_Frame* a = &suffix->frames[i];
      ASGST_Frame* b = &last_walk.frames[last_marked_at + i];
      if (a->method != b->method || a->bci != b->bci || a->type != b->type || a->comp_level != b->comp_level ||
          a->sp != b->sp) {
        last_suffix_mismatch = i;
        return;
      }
    }
  }
}

/* Walks the calling thread watching owner's marks: returns how many frames
   came before ASGST_MARKED_FRAME, -1 if none came, or an error. */
JNIEXPORT jint JNICALL Java_AsgstFrameMarks_walkToMark(JNIEnv* env, jclass cls, jint owner) {
  int kind = ASGST_RunWithIterator(NULL, 0, watch, &owner);
  return kind > 0 ? last_marked_at : kind;
}

JNIEXPORT jlong JNICALL Java_AsgstFrameMarks_lastCookie(JNIEnv* env, jclass cls) {
  return (jlong)last_mark.cookie;
}

JNIEXPORT jint JNICALL Java_AsgstFrameMarks_lastSlot(JNIEnv* env, jclass cls) {
  return last_mark.slot;
}

JNIEXPORT jint JNICALL Java_AsgstFrameMarks_lastSuffixMismatch(JNIEnv* env, jclass cls) {
  return last_suffix_mismatch;
}

/* The n-th frame from the top of the calling thread, as a walk reports it. */
typedef struct {
  int depth;
  int found;
  ASGST_Frame frame;
} NthFrame;

static void nth_frame(ASGST_Iterator* iterator, void* arg) {
  NthFrame* nth = (NthFrame*)arg;
  nth->found = step_to(iterator, nth->depth, &nth->frame);
}

JNIEXPORT jlong JNICALL Java_AsgstFrameMarks_frameSp(JNIEnv* env, jclass cls, jint depth) {
  NthFrame nth = { .depth = depth, .found = 0 };
  ASGST_RunWithIterator(NULL, 0, nth_frame, &nth);
  return nth.found ? (jlong)(intptr_t)nth.frame.sp : 0;
}

/* The compilation level of the n-th frame from the top, -2 for none. */
JNIEXPORT jint JNICALL Java_AsgstFrameMarks_frameLevel(JNIEnv* env, jclass cls, jint depth) {
  NthFrame nth = { .depth = depth, .found = 0 };
  ASGST_RunWithIterator(NULL, 0, nth_frame, &nth);
  return nth.found ? nth.frame.comp_level : -2;
}

JNIEXPORT jint JNICALL Java_AsgstFrameMarks_registerOwner(JNIEnv* env, jclass cls, jint slots) {
  return ASGST_RegisterMarkOwner(slots);
}

JNIEXPORT jboolean JNICALL Java_AsgstFrameMarks_deregisterOwner(JNIEnv* env, jclass cls, jint owner) {
  return ASGST_DeregisterMarkOwner(owner);
}

static void clear_all(ASGST_Iterator* iterator, void* arg) {
  int* args = (int*)arg;
  args[2] = ASGST_ClearMark(iterator, args[0], args[1]);
}

JNIEXPORT jint JNICALL Java_AsgstFrameMarks_clearMark(JNIEnv* env, jclass cls, jint owner, jint slot) {
  int args[3] = { owner, slot, 0 };
  int kind = ASGST_RunWithIterator(NULL, 0, clear_all, args);
  return kind > 0 ? args[2] : kind;
}

/* The functions' answers to null and to no mark. */
JNIEXPORT jint JNICALL Java_AsgstFrameMarks_nullIteratorAnswers(JNIEnv* env, jclass cls, jint owner) {
  ASGST_Mark mark;
  if (ASGST_MarkFrame(NULL, owner, 0, 1) != ASGST_INVALID_ARGUMENT) return 1;
  if (ASGST_ClearMark(NULL, owner, 0) != ASGST_INVALID_ARGUMENT) return 2;
  if (ASGST_WatchMarks(NULL, owner) != ASGST_INVALID_ARGUMENT) return 3;
  if (ASGST_GetMark(NULL, &mark)) return 4;
  if (ASGST_DeregisterMarkOwner(0) || ASGST_DeregisterMarkOwner(-1) || ASGST_DeregisterMarkOwner(99)) return 5;
  if (ASGST_RegisterMarkOwner(0) != ASGST_INVALID_ARGUMENT || ASGST_RegisterMarkOwner(-1) != ASGST_INVALID_ARGUMENT ||
      ASGST_RegisterMarkOwner(ASGST_MARK_SLOTS + 1) != ASGST_INVALID_ARGUMENT) return 6;
  return 0;
}

/* The index from the top of the calling thread's frame with sp, -1 for none
   (the last of several scopes that share it: the physical frame's outermost). */
static void index_of_sp(ASGST_Iterator* iterator, void* arg) {
  MarkRequest* request = (MarkRequest*)arg;
  ASGST_Frame frame;
  int i;
  request->depth = -1;
  for (i = 0; ASGST_NextFrame(iterator, &frame) == 1; i++) {
    if (frame.sp == request->marked_sp) {
      request->depth = i;
    } else if (request->depth >= 0) {
      return;
    }
  }
}

JNIEXPORT jint JNICALL Java_AsgstFrameMarks_frameIndexOfSp(JNIEnv* env, jclass cls, jlong sp) {
  MarkRequest request = { 0, 0, -1, 0, 0, NULL, (void*)(intptr_t)sp };
  ASGST_RunWithIterator(NULL, 0, index_of_sp, &request);
  return request.depth;
}
