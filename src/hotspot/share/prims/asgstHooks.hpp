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

#ifndef SHARE_PRIMS_ASGSTHOOKS_HPP
#define SHARE_PRIMS_ASGSTHOOKS_HPP

#include "memory/allStatic.hpp"
#include "memory/allocation.hpp"
#include "prims/asgstPollArm.hpp"
#include "runtime/atomic.hpp"
#include "runtime/javaThread.hpp"
#include "runtime/orderAccess.hpp"
#include "utilities/globalDefinitions.hpp"

class ContinuationEntry;

// What HotSpot calls, each from one line beside JFR's hooks (make/patches/):
// fast paths of a load and a branch while the thread has no safepoint queue
// and no frame mark, the work itself in AsgstQueues and AsgstFrameMarks.
class AsgstHooks : AllStatic {
 public:
  // At the thread's own polls, handshakes and frame unwinding (where JFR
  // processes its sample requests): walks the pending queue elements and
  // confirms the frame marks requested since the last poll.
  static void process_pending(JavaThread* thread) {
    if (thread->_asgst_queues != nullptr || Atomic::load(&thread->_asgst_frame_marks._pending) != 0) {
      process(thread);
    }
  }
  // SafepointMechanism::process, first: a poll that only this thread's own
  // requests armed processes them alone (AsgstPollArm).
  static bool process_alone(JavaThread* thread) {
    if (!AsgstPollArm::armed_alone(thread)) {
      return false;
    }
    process_own_requests(thread);
    return true;
  }
  // SafepointMechanism::has_pending_safepoint: whether elements or frame mark
  // requests wait, which keeps the poll armed.
  static bool has_pending(JavaThread* thread) {
    return (thread->_asgst_queues != nullptr || Atomic::load(&thread->_asgst_frame_marks._pending) != 0) &&
           any_pending(thread);
  }
  // SafepointMechanism::update_poll_values: the return barrier that guards
  // the active frame marks joins the garbage collector's (0: none).
  static uintptr_t stack_watermark(JavaThread* thread, uintptr_t gc_watermark) {
    uintptr_t limit = Atomic::load(&thread->_asgst_frame_marks._limit);
    if (limit == 0) {
      return gc_watermark;
    }
    return gc_watermark == 0 ? limit : MIN2(limit, gc_watermark);
  }
  // StackWatermarkSet::before_unwind: the top Java frame is about to go.
  static void before_unwind(JavaThread* thread) {
    if (has_frame_marks(thread)) {
      frames_leaving(thread, false);
    }
  }
  // StackWatermarkSet::after_unwind: a frame went; its caller is on top.
  static void after_unwind(JavaThread* thread) {
    if (has_frame_marks(thread)) {
      frames_leaving(thread, true);
    }
  }
  // FreezeBase::unwind_frames: the frames above entry move into the heap.
  static void frames_frozen(JavaThread* thread, const ContinuationEntry* entry) {
    process_pending(thread);
    if (has_frame_marks(thread)) {
      frames_left_below(thread, (uintptr_t)entry, true);
    }
  }
  // freeze_internal: a continuation's frames are about to be copied into its
  // stack chunks. Until a thaw on this thread ends, its chunks may be half
  // written or hold frames that are also still on its stack (a yield or a
  // preemption unwinds them after the freeze; a pinned freeze keeps them), so
  // walks outside its polls read no chunk (AsgstStackWalker).
  static void freeze_begins(JavaThread* thread) {
    Atomic::store(&thread->_asgst_chunks_unsettled, true);
    OrderAccess::storestore();  // before the first write to a chunk
  }
  // thaw_internal, for the whole thaw: frames move from a chunk to the stack;
  // when it ends, the chunks and the stack hold each frame once.
  class Thaw : public StackObj {
    JavaThread* const _thread;
   public:
    explicit Thaw(JavaThread* thread) : _thread(thread) { freeze_begins(thread); }
    ~Thaw() { Atomic::release_store(&_thread->_asgst_chunks_unsettled, false); }
  };
  // ~JavaCallWrapper: the Java frames that the call made are gone (an
  // exception out of the outermost one passes no other hook).
  static void java_call_exit(JavaThread* thread, const void* wrapper) {
    if (has_frame_marks(thread)) {
      frames_left_below(thread, (uintptr_t)wrapper, false);
    }
  }

 private:
  static bool has_frame_marks(JavaThread* thread) {
    return Atomic::load(&thread->_asgst_frame_marks._limit) != 0 ||
           Atomic::load(&thread->_asgst_frame_marks._pending) != 0;
  }
  static void process(JavaThread* thread);
  static void process_own_requests(JavaThread* thread);
  static bool any_pending(JavaThread* thread);
  static void frames_leaving(JavaThread* thread, bool after);
  static void frames_left_below(JavaThread* thread, uintptr_t boundary, bool at_continuation_entry);
};

#endif // SHARE_PRIMS_ASGSTHOOKS_HPP
