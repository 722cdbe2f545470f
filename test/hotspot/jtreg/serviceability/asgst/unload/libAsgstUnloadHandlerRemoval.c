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

/* The native side of AsgstUnloadHandlerRemoval.java. */

#include <stdbool.h>
#include <time.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

static volatile int running;   /* calls of the handler running now */
static volatile int started;   /* calls begun */
static volatile int ended;     /* calls ended */

static void busy_wait_millis(long millis) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000L + (now.tv_nsec - start.tv_nsec) / 1000000L < millis);
}

/* Slow on purpose: a removal finds a call running. */
static void JNICALL on_unload(ASGST_Class klass, ASGST_Method* methods, int count, bool redefined, void* arg) {
  (void)klass; (void)methods; (void)count; (void)redefined; (void)arg;
  __atomic_fetch_add(&started, 1, __ATOMIC_SEQ_CST);
  __atomic_fetch_add(&running, 1, __ATOMIC_SEQ_CST);
  busy_wait_millis(200);
  __atomic_fetch_add(&ended, 1, __ATOMIC_SEQ_CST);
  __atomic_fetch_sub(&running, 1, __ATOMIC_SEQ_CST);
}

JNIEXPORT void JNICALL Java_AsgstUnloadHandlerRemoval_register(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  ASGST_RegisterClassUnloadHandler(on_unload, NULL);
}

JNIEXPORT jintArray JNICALL Java_AsgstUnloadHandlerRemoval_removeDuringCall(JNIEnv* env, jclass cls) {
  jint r[3];
  (void)cls;
  while (__atomic_load_n(&running, __ATOMIC_SEQ_CST) == 0) {
  }
  r[0] = ASGST_DeregisterClassUnloadHandler(on_unload, NULL) ? 1 : 0;
  r[1] = __atomic_load_n(&running, __ATOMIC_SEQ_CST);
  r[2] = __atomic_load_n(&ended, __ATOMIC_SEQ_CST);
  return asgst_test_int_array(env, r, 3);
}

JNIEXPORT jboolean JNICALL Java_AsgstUnloadHandlerRemoval_removeAgain(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return ASGST_DeregisterClassUnloadHandler(on_unload, NULL) ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jint JNICALL Java_AsgstUnloadHandlerRemoval_calls(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  return __atomic_load_n(&started, __ATOMIC_SEQ_CST);
}
