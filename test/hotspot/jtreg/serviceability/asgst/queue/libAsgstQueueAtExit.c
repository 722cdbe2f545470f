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
 * An agent written as the seeds' examples are: the main thread's queue lives
 * in a thread-local variable, is registered in VMInit and never deregistered,
 * and a wall-clock timer of that OS thread enqueues into it from SIGPROF.
 * Counts the results; prints them at unload.
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jni.h"
#include "jvmti.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

static __thread ASGST_Queue* thread_queue;
static timer_t timer;
static volatile int stopped;
/* Written only by the handler, on the one OS thread the timer signals. */
static volatile long accepted, walk_errors, no_queue, other;
static volatile int removed_seen, first_other;

static void on_element(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
  ASGST_Frame frame;
  (void)queue_arg; (void)element_arg;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
  }
}

/*
 * A removed queue never comes back: once an enqueue answered NO_QUEUE, every
 * later one must too. Before that, elements are accepted or refused by the
 * walk (no Java frame on top, unsafe states) or a full queue.
 */
static void on_signal(int signo, siginfo_t* info, void* ucontext) {
  ASGST_Queue* queue = thread_queue;
  int result;
  (void)signo; (void)info;
  if (queue == NULL || __atomic_load_n(&stopped, __ATOMIC_ACQUIRE)) {
    return;
  }
  result = ASGST_Enqueue(queue, ucontext, NULL);
  if (result == ASGST_ENQUEUE_NO_QUEUE) {
    removed_seen = 1;
    no_queue++;
  } else if (removed_seen) {
    if (other++ == 0) {
      first_other = result;
    }
  } else if (result > 0) {
    accepted++;
  } else {
    walk_errors++;
  }
}

static void JNICALL on_vm_init(jvmtiEnv* jvmti, JNIEnv* env, jthread thread) {
  (void)jvmti; (void)thread;
  thread_queue = ASGST_RegisterQueue(env, 16, 0, on_element, NULL);
  if (thread_queue == NULL || asgst_test_start_sampling(on_signal, CLOCK_MONOTONIC, 100, &timer) != 0) {
    fprintf(stderr, "asgst-at-exit: could not start\n");
  }
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void* reserved) {
  jvmtiEnv* jvmti;
  jvmtiEventCallbacks callbacks;
  (void)options; (void)reserved;
  if ((*vm)->GetEnv(vm, (void**)&jvmti, JVMTI_VERSION_21) != JNI_OK) {
    return JNI_ERR;
  }
  memset(&callbacks, 0, sizeof(callbacks));
  callbacks.VMInit = on_vm_init;
  (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof(callbacks));
  (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
  return JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM* vm) {
  (void)vm;
  __atomic_store_n(&stopped, 1, __ATOMIC_RELEASE);
  timer_delete(timer);
  printf("asgst-at-exit: accepted=%ld no_queue=%ld walk_errors=%ld other=%ld first_other=%d\n",
         accepted, no_queue, walk_errors, other, first_other);
  fflush(stdout);
}
