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

#ifndef SHARE_PRIMS_ASGSTTHREADSTATE_HPP
#define SHARE_PRIMS_ASGSTTHREADSTATE_HPP

#include "jni.h"
#include "memory/allStatic.hpp"

class Thread;

// The state of a thread as JVMTI GetThreadState reports it, as far as it can
// be read in a signal handler: from the VM's own thread state and the OS
// thread's state hint, never from the java.lang.Thread object.
class AsgstThreadState : AllStatic {
 public:
  // Whether thread counts as a Java thread for the API: one that runs Java
  // code (compiler threads are JavaThreads that never do).
  static bool is_java_thread(const Thread* thread);

  // A bit set of JVMTI_THREAD_STATE_* values, or -1 for a thread that is not
  // a Java thread. Signal safe.
  static jint of(Thread* thread);
};

#endif // SHARE_PRIMS_ASGSTTHREADSTATE_HPP
