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
 * The native side of AsgstSignalSafety.java: ASGST calls in a SIGPROF
 * handler, counted by the preloaded libAsgstSignalSafety; a deliberate
 * violation and a deliberate crash for its self-tests.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

static ASGST_Queue* queue;

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  ASGST_Frame frame;
  (void)queue_arg; (void)element_arg;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
  }
}

static void name_frames(ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame;
  char name[64];
  (void)arg;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (frame.method != NULL) {
      asgst_test_method_name(frame.method, name, sizeof(name));
    }
  }
}

static void on_sample(int signo, siginfo_t* info, void* ucontext) {
  (void)signo; (void)info;
  ASGST_RunWithIterator(ucontext, ASGST_INCLUDE_NON_JAVA_FRAMES, name_frames, NULL);
  if (queue != NULL) {
    ASGST_Enqueue(queue, ucontext, NULL);
  }
}

JNIEXPORT jlong JNICALL Java_AsgstSignalSafety_sampleAndCount(JNIEnv* env, jclass cls, jint cpu_millis) {
  volatile long* checked = (volatile long*)dlsym(RTLD_DEFAULT, "asgst_signal_safety_checked_calls");
  timer_t timer;
  (void)cls;
  if (checked == NULL) {
    return -1;
  }
  queue = ASGST_RegisterQueue(env, 64, 0, on_element, NULL);
  asgst_test_start_cpu_sampling(on_sample, 1000, &timer);
  asgst_test_spin_cpu(cpu_millis);
  timer_delete(timer);
  return *checked;
}

static void allocate_inside(int signo, siginfo_t* info, void* ucontext) {
  void (*enter)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "asgst_signal_safety_test_enter");
  void* (*volatile allocate)(size_t) = malloc;  /* not folded away */
  (void)signo; (void)info; (void)ucontext;
  if (enter != NULL) {
    enter();
  }
  free(allocate(16));
}

JNIEXPORT void JNICALL Java_AsgstSignalSafety_violate(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  asgst_test_install_handler(SIGPROF, allocate_inside);
  raise(SIGPROF);
}

/* Faults where the library counts the thread as inside an ASGST function, as
   a walker's bug would: the VM's error report runs in its SIGSEGV handler. */
static volatile int* volatile target = (volatile int*)(uintptr_t)16;  /* unmapped; unknown to the compiler */

static void crash_inside(int signo, siginfo_t* info, void* ucontext) {
  void (*enter)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "asgst_signal_safety_test_enter");
  (void)signo; (void)info; (void)ucontext;
  if (enter != NULL) {
    enter();
  }
  *target = 1;
}

JNIEXPORT void JNICALL Java_AsgstSignalSafety_crash(JNIEnv* env, jclass cls) {
  (void)env; (void)cls;
  asgst_test_install_handler(SIGPROF, crash_inside);
  raise(SIGPROF);
}
