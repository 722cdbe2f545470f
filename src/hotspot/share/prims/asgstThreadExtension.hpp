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

#ifndef SHARE_PRIMS_ASGSTTHREADEXTENSION_HPP
#define SHARE_PRIMS_ASGSTTHREADEXTENSION_HPP

#include "utilities/globalDefinitions.hpp"

class AsgstThreadQueues;

// One frame mark of a thread (prims/asgstFrameMarks.hpp): a seqlock whose
// control word holds the state and a sequence number.
struct AsgstFrameMarkSlot {
  volatile uint64_t _control;   // state (low 2 bits) | sequence << 2
  uintptr_t _key;               // real_fp() of the marked frame
  const void* _code;            // its Method* (interpreted) or nmethod* (compiled)
  uint64_t _cookie;             // the profiler's value, given back when the mark is reached
  uint32_t _generation;         // the slot's owner registration that set the mark
};

// The frame marks of a thread: all zero until a profiler marks a frame.
struct AsgstThreadFrameMarks {
  static const int slots = 4;   // ASGST_MARK_SLOTS
  volatile uintptr_t _limit;    // lowest return-barrier value of the active marks, 0 for none;
                                // written only by the thread itself
  volatile uint32_t _pending;   // a bit per slot whose request waits for the thread's poll
  AsgstFrameMarkSlot _slot[slots];
};

// JavaThread's fields for profile.h: the safepoint queues (null until the
// thread's first queue is registered; prims/asgstQueue.hpp), the frame
// marks (prims/asgstFrameMarks.hpp), and whether the thread's stack chunks
// may be unsettled: set when a continuation's freeze begins, cleared when a
// thaw ends (AsgstHooks), so that walks outside the thread's polls read no
// chunk that is half written or holds frames still on the stack
// (AsgstStackWalker::heap_frames_readable); and the poll word that the
// thread's own last request replaced (AsgstPollArm). AsgstHooks reads the
// fields on the hooks' fast paths.
#define DEFINE_THREAD_LOCAL_FIELD_ASGST          \
  friend class AsgstHooks;                       \
  friend class AsgstQueues;                      \
  friend class AsgstFrameMarks;                  \
  friend class AsgstStackWalker;                 \
  friend class AsgstPollArm;                     \
  AsgstThreadQueues* _asgst_queues = nullptr;    \
  AsgstThreadFrameMarks _asgst_frame_marks = {}; \
  volatile bool _asgst_chunks_unsettled = false; \
  volatile uintptr_t _asgst_poll_word_before_arm = 0

#endif // SHARE_PRIMS_ASGSTTHREADEXTENSION_HPP
