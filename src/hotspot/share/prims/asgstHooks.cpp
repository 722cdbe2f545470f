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

#include "prims/asgstFrameMarks.hpp"
#include "prims/asgstHooks.hpp"
#include "prims/asgstQueue.hpp"
#include "runtime/continuationEntry.hpp"
#include "runtime/javaThread.inline.hpp"
#include "runtime/safepointMechanism.hpp"
#include "runtime/stackWatermarkSet.hpp"

void AsgstHooks::process(JavaThread* thread) {
  // Queue handlers may mark frames: their requests are confirmed right after.
  AsgstQueues::process(thread, thread->_asgst_queues);
  AsgstFrameMarks::confirm_requests(thread);
}

// What SafepointMechanism::process does when it has no safepoint, handshake
// or JFR request to serve.
void AsgstHooks::process_own_requests(JavaThread* thread) {
  assert(thread->thread_state() == _thread_in_vm, "as SafepointMechanism::process is called");
  StackWatermarkSet::on_safepoint(thread);
  process_pending(thread);
  SafepointMechanism::update_poll_values(thread);
}

bool AsgstHooks::any_pending(JavaThread* thread) {
  return Atomic::load(&thread->_asgst_frame_marks._pending) != 0 || AsgstQueues::any_pending(thread->_asgst_queues);
}

void AsgstHooks::frames_leaving(JavaThread* thread, bool after) {
  AsgstFrameMarks::frames_leaving(thread, after);
}

void AsgstHooks::frames_left_below(JavaThread* thread, uintptr_t boundary, bool at_continuation_entry) {
  // The frames above a continuation's entry (the entry itself is no Java
  // frame), or those that a Java call made below its wrapper.
  uintptr_t bound = at_continuation_entry ? boundary + ContinuationEntry::size() : boundary - 1;
  AsgstFrameMarks::frames_left(thread, bound);
}
