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

#include "marks.hpp"

#include <asgst/profile.hpp>

#include <algorithm>
#include <cstring>

namespace asgstprof {

struct IncrementalWalker::Walk {
  IncrementalWalker* walker;
  KeptFrames* kept;
  SampleRing* ring;
  RawSample* sample;
  int state;
};

bool IncrementalWalker::start(bool verify) {
  if (!asgst::has_marks()) {
    return false;
  }
  _verify = verify;
  ASGST_MarkOwner owner = asgst::api.RegisterMarkOwner(1);
  _owner = owner > 0 ? owner : 0;
  return started();
}

RawSample* IncrementalWalker::walk(void* ucontext, int options, KeptFrames& kept, SampleRing& ring, int* state) {
  Walk walk{this, &kept, &ring, nullptr, ASGST_NO_FRAME};
  asgst::api.RunWithIterator(ucontext, options, &IncrementalWalker::walk_frames, &walk);
  *state = walk.state;
  return walk.sample;
}

void IncrementalWalker::walk_frames(ASGST_Iterator* iterator, void* arg) {
  Walk& walk = *static_cast<Walk*>(arg);
  IncrementalWalker& self = *walk.walker;
  KeptFrames& kept = *walk.kept;
  walk.sample = walk.ring->claim();
  if (walk.sample == nullptr) {
    return;  // the ring counted it as lost
  }
  RawSample& sample = *walk.sample;
  asgst::api.WatchMarks(iterator, self._owner);
  ASGST_Frame frame;
  int step;
  int walked = -1;  // frames walked before the mark, if one was reached
  while ((step = asgst::api.NextFrame(iterator, &frame)) > 0) {
    if (step == ASGST_MARKED_FRAME) {
      ASGST_Mark mark;
      if (asgst::api.GetMark(iterator, &mark) && mark.cookie == kept.generation) {
        walked = sample.count;
        int count = std::min(kept.count, RawSample::max_frames - sample.count);
        std::memcpy(&sample.frames[sample.count], kept.frames, count * sizeof(RawFrame));
        sample.count += count;
        break;
      }
      continue;  // a mark whose frames a later walk replaced before it counted: walk on
    }
    if (sample.count == RawSample::max_frames) {
      break;  // the trace is cut here, as without marks
    }
    sample.frames[sample.count++] = RawFrame::of(frame);
  }
  bool reached = walked >= 0;
  walk.state = reached ? ASGST_NO_FRAME : asgst::api.State(iterator);
  self._walks.fetch_add(1, std::memory_order_relaxed);
  self._traced_frames.fetch_add(sample.count, std::memory_order_relaxed);
  self._walked_frames.fetch_add(reached ? walked : sample.count, std::memory_order_relaxed);
  if (reached) {
    self._reached.fetch_add(1, std::memory_order_relaxed);
    if (self._verify) {
      self._verified.fetch_add(1, std::memory_order_relaxed);
      if (!same_as_whole_walk(iterator, sample)) {
        self._differed.fetch_add(1, std::memory_order_relaxed);
      }
    }
  }
  bool whole = walk.state == ASGST_NO_FRAME || sample.count == RawSample::max_frames;
  if (whole && (reached ? walked : sample.count) > 2 * mark_distance) {
    self.mark_again(iterator, reached ? walked : sample.count, kept, sample);
  }
}

// Walks the context again, on past the marks, and compares each frame with
// the trace made through the mark: the kept frames must be what the walk
// finds below the mark now, and the walk must end where the trace ends.
bool IncrementalWalker::same_as_whole_walk(ASGST_Iterator* iterator, const RawSample& sample) {
  asgst::api.RewindIterator(iterator);
  ASGST_Frame frame;
  int n = 0;
  int step;
  while ((step = asgst::api.NextFrame(iterator, &frame)) > 0) {
    if (step == ASGST_MARKED_FRAME) {
      continue;
    }
    if (n == sample.count) {
      return n == RawSample::max_frames;  // more frames than the trace, unless it was cut
    }
    RawFrame raw = RawFrame::of(frame);
    const RawFrame& kept = sample.frames[n++];
    if (raw.kind != kept.kind || raw.method != kept.method || raw.pc != kept.pc) {
      return false;
    }
  }
  return n == sample.count;
}

// Walks the first frames again to the first one from the mark_distance-th
// down that takes a mark, marks it and keeps the trace's frames below it. Its
// cookie is the kept frames' generation: a walk that meets a mark whose
// frames were replaced since walks on instead of trusting them.
void IncrementalWalker::mark_again(ASGST_Iterator* iterator, int walked, KeptFrames& kept, RawSample& sample) {
  asgst::api.RewindIterator(iterator);
  ASGST_Frame frame;
  for (int n = 1; n < walked && asgst::api.NextFrame(iterator, &frame) == 1; n++) {
    if (n >= mark_distance && frame.type == ASGST_FRAME_JAVA &&  // the outermost scope of its frame
        asgst::api.MarkFrame(iterator, _owner, 0, kept.generation + 1) == 0) {
      kept.count = sample.count - n;
      std::memcpy(kept.frames, &sample.frames[n], kept.count * sizeof(RawFrame));
      kept.generation++;
      _marks_set.fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
}

}  // namespace asgstprof
