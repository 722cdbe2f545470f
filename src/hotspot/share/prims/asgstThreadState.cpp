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

#include "jvmti.h"
#include "prims/asgstThreadState.hpp"
#include "runtime/javaThread.inline.hpp"
#include "runtime/osThread.hpp"

bool AsgstThreadState::is_java_thread(const Thread* thread) {
  return thread->is_Java_thread() && !thread->is_Compiler_thread();
}

jint AsgstThreadState::of(Thread* thread) {
  if (thread == nullptr || !is_java_thread(thread)) {
    return -1;
  }
  JavaThread* java_thread = JavaThread::cast(thread);
  if (java_thread->is_exiting()) {
    return JVMTI_THREAD_STATE_TERMINATED;
  }
  JavaThreadState vm_state = java_thread->thread_state();
  if (vm_state == _thread_new || vm_state == _thread_new_trans || vm_state == _thread_uninitialized) {
    return 0;  // not started: JVMTI's "new"
  }
  jint state = JVMTI_THREAD_STATE_ALIVE;
  OSThread* os_thread = java_thread->osthread();
  switch (os_thread == nullptr ? RUNNABLE : os_thread->get_state()) {
    case MONITOR_WAIT:
      state |= JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER;
      break;
    case OBJECT_WAIT:
      state |= JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_IN_OBJECT_WAIT;
      break;
    case CONDVAR_WAIT:  // LockSupport.park
      state |= JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_PARKED;
      break;
    case SLEEPING:
      state |= JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_SLEEPING;
      break;
    default:
      state |= JVMTI_THREAD_STATE_RUNNABLE;
      break;
  }
  if (vm_state == _thread_in_native || vm_state == _thread_in_native_trans) {
    state |= JVMTI_THREAD_STATE_IN_NATIVE;
  }
  if (java_thread->is_suspended()) {
    state |= JVMTI_THREAD_STATE_SUSPENDED;
  }
  return state;
}
