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
 */

// Incremental walks with frame marks (doc/frame-marks.md, option marks=true):
// a thread's walk stops at the frame an earlier walk marked and appends the
// frames that walk kept below it; a walk that went far marks again.

#ifndef ASGSTPROF_MARKS_HPP
#define ASGSTPROF_MARKS_HPP

#include <profile.h>

#include <atomic>
#include <cstdint>

#include "samples.hpp"

namespace asgstprof {

// The callers of a thread's marked frame, as the walk that marked it saw
// them. Made when the thread starts; only the thread's own handler uses it.
struct KeptFrames {
  RawFrame frames[RawSample::max_frames];
  int count = 0;
  uint32_t generation = 0;  // the cookie of the mark these frames belong to
};

class IncrementalWalker {
 public:
  // A walk that walked more than twice this many frames marks the first frame
  // that takes a mark from this one down (the top frame is the first). The
  // top of a stack changes often, its lower part seldom: a mark there lives
  // long and a walk to it stays short.
  static constexpr int mark_distance = 8;

  // Reserves one mark slot per thread; false where marks do not work. With
  // verify, each trace made through a mark is compared with the whole walk of
  // the same context (marks=verify: a check, twice the walking).
  bool start(bool verify = false);
  bool started() const { return _owner > 0; }

  // Walks the calling thread from ucontext into a sample claimed from ring,
  // stopping at the thread's mark and appending kept's frames. Returns the
  // sample, not yet published, with the walk's end in *state (as ASGST_State
  // gives it; ASGST_NO_FRAME also when the walk stopped at the mark), or
  // null when the walk did not start or the ring was full. Signal safe.
  RawSample* walk(void* ucontext, int options, KeptFrames& kept, SampleRing& ring, int* state);

  // For the summary: walks, walks that stopped at a mark, frames in their
  // traces and frames walked for them, marks set.
  long walks() const { return _walks.load(); }
  long reached() const { return _reached.load(); }
  long traced_frames() const { return _traced_frames.load(); }
  long walked_frames() const { return _walked_frames.load(); }
  long marks_set() const { return _marks_set.load(); }
  // marks=verify: traces through a mark compared, and those that differed.
  long verified() const { return _verified.load(); }
  long differed() const { return _differed.load(); }

 private:
  struct Walk;
  static void walk_frames(ASGST_Iterator* iterator, void* arg);
  void mark_again(ASGST_Iterator* iterator, int walked, KeptFrames& kept, RawSample& sample);
  static bool same_as_whole_walk(ASGST_Iterator* iterator, const RawSample& sample);

  ASGST_MarkOwner _owner = 0;
  bool _verify = false;
  std::atomic<long> _walks{0}, _reached{0}, _traced_frames{0}, _walked_frames{0}, _marks_set{0};
  std::atomic<long> _verified{0}, _differed{0};
};

}  // namespace asgstprof

#endif  // ASGSTPROF_MARKS_HPP
