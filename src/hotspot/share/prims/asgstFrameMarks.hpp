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

#ifndef SHARE_PRIMS_ASGSTFRAMEMARKS_HPP
#define SHARE_PRIMS_ASGSTFRAMEMARKS_HPP

#include "memory/allStatic.hpp"
#include "profile.h"
#include "runtime/javaThread.hpp"
#include "utilities/globalDefinitions.hpp"

class frame;

// Frame marks (profile.h, doc/frame-marks.md). A walk marks a Java frame of
// the walked thread; while the mark lives, that frame has not been left, so
// every frame below it is the one the marking walk saw. A mark dies when its
// frame is left: its return poll traps (the poll word holds a return barrier
// just below the frame, as a garbage collector's stack watermark does), and
// every other way out (exception unwinding, deoptimization, OSR, a
// continuation's freeze, the end of a Java call from C) passes a hook.
//
// A walk that runs in a signal handler or on another thread cannot change
// the thread's poll word safely (only the thread lowers its own barrier), so
// it requests the mark and arms the thread's poll; the thread confirms the
// mark with HotSpot's own frame walk at that poll, and only then does a walk
// report it. Slots are seqlocks: a walk reads them without a lock from a
// signal handler; the thread and marking walks change them with CAS.
class AsgstFrameMarks : AllStatic {
 public:
  static const int slots = AsgstThreadFrameMarks::slots;

  // Whether this CPU's return polls are known (AsgstFrameEdges).
  static bool is_supported();
  // profile.h: owners reserve slots in every thread.
  static int register_owner(int slots);
  static bool deregister_owner(int owner);

  // Whether a walk may mark f: an interpreted frame whose callee above it
  // is a Java frame (so it stands at an invoke, never in its own unwinding)
  // or a frame compiled by C1, C2 or JVMCI that is not the top frame.
  static bool is_markable(const frame& f, bool is_top, bool callee_is_java);
  // Requests a mark of owner's slot on f, a frame of thread that a walk
  // found; the thread is the current one or halted. Signal safe.
  static int request(JavaThread* thread, int owner, int slot, uint64_t cookie, const frame& f,
                     bool is_top, bool callee_is_java);
  // Clears owner's slot (-1: all its slots) of thread. Signal safe.
  static int clear(JavaThread* thread, int owner, int slot);
  // Whether f carries a confirmed mark of owner; if so, its slot and
  // cookie. Signal safe.
  static bool find(JavaThread* thread, int owner, const frame& f, ASGST_Mark* mark);

  // For AsgstHooks, on the thread itself. Confirms the requested marks
  // whose frames are on the stack, drops the others.
  static void confirm_requests(JavaThread* thread);
  // The top Java frame goes (after: went, its caller is on top).
  static void frames_leaving(JavaThread* thread, bool after);
  // Every frame whose real_fp() is at or below bound went.
  static void frames_left(JavaThread* thread, uintptr_t bound);

 private:
  // Most stubs (safepoint, runtime, exception blobs) above the top Java
  // frame when the VM is entered to unwind it.
  static const int max_stubs_on_top = 8;

  enum State { free_slot = 0, writing = 1, requested = 2, confirmed = 3 };
  static State state_of(uint64_t control) { return (State)(control & 3); }
  static uint64_t control(State state, uint64_t of) { return ((of >> 2) + 1) << 2 | state; }

  static volatile int _owners_lock;
  static volatile int _slot_owner[slots];            // the owner holding each slot index, 0: none
  static volatile uint32_t _slot_generation[slots];  // changes with each owner registration

  static AsgstThreadFrameMarks& marks_of(JavaThread* thread) { return thread->_asgst_frame_marks; }
  static int slot_index(int owner, int slot);
  static const void* code_of(const frame& f);
  static bool is_live(const AsgstFrameMarkSlot& s, int index, uint64_t control);
  static void update_barrier(JavaThread* thread);
};

#endif // SHARE_PRIMS_ASGSTFRAMEMARKS_HPP
