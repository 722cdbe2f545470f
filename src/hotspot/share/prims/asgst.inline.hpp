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


#ifndef SHARE_PRIMS_ASGST_INLINE_HPP
#define SHARE_PRIMS_ASGST_INLINE_HPP

#include "prims/asgst.hpp"

#include "runtime/interfaceSupport.inline.hpp"
#include "runtime/javaThread.hpp"
#include "runtime/thread.hpp"

template <typename Function>
inline auto Asgst::in_vm(JavaThread* thread, Function function) -> decltype(function()) {
  if (thread->thread_state() == _thread_in_native) {
    ThreadInVMfromNative transition(thread);
    return function();
  }
  return function();
}

template <typename Function>
inline auto Asgst::walking(Thread* current, Function walk) -> decltype(walk()) {
  if (current == nullptr) {
    return walk();
  }
  ThreadInAsgct mark(current);
  return walk();
}

#endif // SHARE_PRIMS_ASGST_INLINE_HPP
