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

// Raw samples, written by signal handlers and sampler threads, drained by the
// profile: a fixed ring of fixed-size slots, claimed with one atomic add and
// published with one store, so that writing is async-signal-safe.

#ifndef ASGSTPROF_SAMPLES_HPP
#define ASGSTPROF_SAMPLES_HPP

#include <profile.h>

#include <atomic>
#include <cstdint>

namespace asgstprof {

struct RawFrame {
  ASGST_Method method;  // null for a C frame
  void* pc;             // for C frames
  int32_t bci;          // for the marker: the error that cut the walk
  uint8_t type;         // an ASGST_FrameTypeId, 0 for the marker of a cut walk,
                        // or jmethod_frame: method holds a jmethodID (AsyncGetCallTrace)
};

constexpr uint8_t jmethod_frame = 100;

struct RawSample {
  static constexpr int max_frames = 256;
  std::atomic<int> state{0};  // 0 free, 1 being written, 2 ready
  int count = 0;               // frames; the trace was cut at max_frames if equal
  int64_t weight = 1;          // how many samples this one stands for
  RawFrame frames[max_frames];
};

class SampleRing {
 public:
  static constexpr uint32_t capacity = 4096;

  // Claims a slot for writing; null when the ring is full (the sample is lost).
  RawSample* claim();
  // Makes a claimed slot readable.
  void publish(RawSample* sample) { sample->state.store(2, std::memory_order_release); }
  // Calls consume(sample) for every ready sample, oldest first, and frees them.
  template <typename F> void drain(F&& consume);

  uint64_t lost() const { return _lost.load(std::memory_order_relaxed); }

 private:
  RawSample _slots[capacity];
  std::atomic<uint64_t> _write{0};
  uint64_t _read = 0;  // only the drainer (under the profile's lock) moves it
  std::atomic<uint64_t> _lost{0};
};

inline RawSample* SampleRing::claim() {
  uint64_t index = _write.fetch_add(1, std::memory_order_relaxed);
  RawSample* slot = &_slots[index % capacity];
  int expected = 0;
  if (!slot->state.compare_exchange_strong(expected, 1, std::memory_order_acquire)) {
    _lost.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  slot->count = 0;
  slot->weight = 1;
  return slot;
}

template <typename F>
void SampleRing::drain(F&& consume) {
  uint64_t end = _write.load(std::memory_order_acquire);
  for (; _read < end; _read++) {
    RawSample* slot = &_slots[_read % capacity];
    int state = slot->state.load(std::memory_order_acquire);
    if (state == 1) {
      break;     // still being written: the next drain takes it
    }
    if (state == 0) {
      continue;  // its writer found the ring full and dropped it
    }
    consume(*slot);
    slot->state.store(0, std::memory_order_release);
  }
}

}  // namespace asgstprof

#endif  // ASGSTPROF_SAMPLES_HPP
