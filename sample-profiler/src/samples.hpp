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

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace asgstprof {

// What a RawFrame stands for. The last two are not frames but markers below
// the frames of a walk that ended early, saying why.
enum class FrameKind : uint8_t {
  java,            // method: interpreted, compiled or native method
  java_inlined,    // method: a scope inlined into a compiled frame
  non_java,        // pc: a C/C++ frame, a stub or VM code
  jmethod,         // jmethod: a frame from AsyncGetCallTrace
  walk_cut,        // error: the walk ended with this ASGST_Error
  frames_in_heap,  // the walk ended at a virtual thread's frames frozen in the heap
};

// One sampled frame. Plain data without initializers, so that the ring's
// frames are neither written nor paged in before they are used; build one
// with the functions below (all signal safe).
struct RawFrame {
  ASGST_Method method;  // java, java_inlined: the method
  jmethodID jmethod;    // jmethod: the method
  void* pc;             // frames from the walker: the program counter (names non_java ones)
  int32_t error;        // walk_cut: the ASGST_Error
  FrameKind kind;

  static RawFrame of(const ASGST_Frame& frame) {
    FrameKind kind = frame.type == ASGST_FRAME_NON_JAVA       ? FrameKind::non_java
                     : frame.type == ASGST_FRAME_JAVA_INLINED ? FrameKind::java_inlined
                                                              : FrameKind::java;
    return RawFrame{frame.method, nullptr, frame.pc, 0, kind};
  }
  static RawFrame of_jmethod(jmethodID id) { return RawFrame{nullptr, id, nullptr, 0, FrameKind::jmethod}; }
  // The marker for a walk that ended with error (< 0).
  static RawFrame end_of_walk(int error) {
    return error == ASGST_FRAMES_IN_HEAP ? RawFrame{nullptr, nullptr, nullptr, 0, FrameKind::frames_in_heap}
                                         : RawFrame{nullptr, nullptr, nullptr, error, FrameKind::walk_cut};
  }
};

// A ring slot's life: claimed by a writer, published, freed by the drainer.
enum class SlotState : int { empty, writing, ready };
static_assert(std::atomic<SlotState>::is_always_lock_free, "slots are claimed in signal handlers");

struct RawSample {
  static constexpr int max_frames = 256;
  std::atomic<SlotState> state{SlotState::empty};
  int count = 0;               // frames; the trace was cut at max_frames if equal
  int64_t weight = 1;          // how many samples this one stands for
  RawFrame frames[max_frames];  // callee first
};

class SampleRing {
 public:
  static constexpr uint32_t capacity = 4096;

  // Claims a slot for writing; null when the ring is full (the sample is lost).
  RawSample* claim();
  // Makes a claimed slot readable.
  void publish(RawSample* sample) { sample->state.store(SlotState::ready, std::memory_order_release); }
  // Calls consume(sample) for every ready sample, oldest first, and frees them.
  template <typename F> void drain(F&& consume);
  // As drain, and also the ready samples behind one still being written,
  // which drain leaves for later (for a class unload: after it, their
  // method handles may name other methods).
  template <typename F> void drain_all(F&& consume);

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
  SlotState expected = SlotState::empty;
  if (!slot->state.compare_exchange_strong(expected, SlotState::writing, std::memory_order_acquire)) {
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
    SlotState state = slot->state.load(std::memory_order_acquire);
    if (state == SlotState::writing) {
      break;     // still being written: the next drain takes it
    }
    if (state == SlotState::empty) {
      continue;  // its writer found the ring full and dropped it
    }
    consume(*slot);
    slot->state.store(SlotState::empty, std::memory_order_release);
  }
}

template <typename F>
void SampleRing::drain_all(F&& consume) {
  drain(consume);
  // Emptied here, a slot is skipped by drain as one whose writer dropped it.
  uint64_t end = std::min(_write.load(std::memory_order_acquire), _read + capacity);
  for (uint64_t i = _read; i < end; i++) {
    RawSample* slot = &_slots[i % capacity];
    if (slot->state.load(std::memory_order_acquire) == SlotState::ready) {
      consume(*slot);
      slot->state.store(SlotState::empty, std::memory_order_release);
    }
  }
}

}  // namespace asgstprof

#endif  // ASGSTPROF_SAMPLES_HPP
