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

#ifndef SHARE_PRIMS_ASGSTQUEUEWALK_HPP
#define SHARE_PRIMS_ASGSTQUEUEWALK_HPP

#include "memory/allStatic.hpp"
#include "profile.h"
#include "utilities/globalDefinitions.hpp"

class AsgstStackWalker;
class Method;

// What a signal handler knows about the top Java frame it recorded in a
// queue element, kept beside the element (AsgstQueueWalk).
struct AsgstRecordedFrame {
  Method* method;     // its method
  int compile_id;     // its nmethod's compile id, -1 if not compiled
  address return_pc;  // the return address in its frame: where its caller waits
  intptr_t* caller_sp; // its caller's sp as it made the call
  intptr_t* caller_fp; // the frame pointer it saved (its caller's, if interpreted)
  address caller_bcp; // an interpreted caller's bcp: its call site (its return
                      // address is shared by all interpreted call sites)
};

// The walks of a safepoint queue's elements: recording the top Java frame in
// the signal handler, and beginning the walk at the thread's poll at that
// frame, or at its callers if it returned since (doc/safepoint-queue.md).
class AsgstQueueWalk : AllStatic {
 public:
  // Describes the top Java frame that walker's start() found, as a queue
  // element records it, and what start() needs to know about it. False if
  // there is none. Signal safe.
  static bool record(AsgstStackWalker& walker, ASGST_QueueElement* element, AsgstRecordedFrame* recorded);

  // Positions walker, on the current thread at a safepoint poll or another
  // point where its stack is walkable, at the frame that element recorded,
  // or at its callers if the frame returned since. Returns the trace kind
  // (> 0) or an ASGST_Error. If the frame has returned, its top scopes are
  // still reported from the recorded pc or bcp, as long as that code is
  // provably the same, and its callers only if the caller is provably the
  // one the frame was to return to.
  static int start(AsgstStackWalker& walker, const ASGST_QueueElement& element, const AsgstRecordedFrame& recorded);

 private:
  static bool resume_at_recorded_caller(AsgstStackWalker& walker, const AsgstRecordedFrame& recorded);
};

#endif // SHARE_PRIMS_ASGSTQUEUEWALK_HPP
