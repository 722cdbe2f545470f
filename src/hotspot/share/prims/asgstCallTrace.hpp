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

#ifndef SHARE_PRIMS_ASGSTCALLTRACE_HPP
#define SHARE_PRIMS_ASGSTCALLTRACE_HPP

#include "memory/allStatic.hpp"
#include "profile.h"

class AsgstStackWalker;
class Thread;

// JEP 435's AsyncGetStackTrace, filled in from the iterator.
class AsgstCallTrace : AllStatic {
 public:
  // Walks thread (the current thread or one the caller keeps halted) from
  // context into trace, honouring trace's accepted kinds and states; state
  // is the thread's (AsgstThreadState::of) before the walk began.
  static void fill(ASGST_CallTrace* trace, jint depth, Thread* thread, jint state,
                   AsgstStackWalker* walker, const struct AsgstNativeFrame& context);

 private:
  static void store(const ASGST_Frame& frame, ASGST_CallFrame* out);
};

#endif // SHARE_PRIMS_ASGSTCALLTRACE_HPP
