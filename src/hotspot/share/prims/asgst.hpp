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

#ifndef SHARE_PRIMS_ASGST_HPP
#define SHARE_PRIMS_ASGST_HPP

#include "memory/allStatic.hpp"

class JavaThread;
class Thread;

// The VM side of the Asynchronous Stack Trace API (profile.h). The exported
// functions live in asgst.cpp; each concern has its own asgst*.cpp file.
class Asgst : AllStatic {
 public:
  // The optional parts of the API (enum ASGST_Capabilities) that this VM
  // implements. Constant for the VM's life.
  static int capabilities();

  // Runs function in the VM: from native code it enters the VM as a JNI
  // function would; a thread already in the VM (a profiler's handler called
  // at a poll) stays there. (asgst.inline.hpp)
  template <typename Function>
  static auto in_vm(JavaThread* thread, Function function) -> decltype(function());

  // Runs walk with the calling thread (current: Thread::current_or_null_safe(),
  // null if the VM does not know it) marked as walking a stack
  // (ThreadInAsgct): PcDesc lookups then leave their cache alone, as a signal
  // handler must. (asgst.inline.hpp)
  template <typename Function>
  static auto walking(Thread* current, Function walk) -> decltype(walk());
};

#endif // SHARE_PRIMS_ASGST_HPP
