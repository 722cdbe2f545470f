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

// The wall sampler's request (mode=wall): the sampler thread asks one thread
// at a time to halt in its SIGPROF handler, walks it from outside and
// releases it. The request's thread, number and phase are one word, changed
// by compare-and-swap where both sides may act, so that a handler that comes
// late (the sampler gave up on it, or it got the signal of an earlier
// request) or looks for its release late (the sampler stopped waiting for
// it) finds another thread or number there and returns: it can neither take
// a later request nor take another thread's release.
//
// The number has 24 bits: a handler held up between request_for() and
// take() while 2^24 more requests went by could take a request of its own
// thread again. That is harmless: SIGPROF is blocked while its handler runs,
// so the thread is halted at the context that handler writes.
//
// The handler:  claim = request_for(self) → take(claim) → halt(claim, context)
//               → while (halted(h)) yield → finish(h)
// The sampler:  ask → (halted_now: walk context() → release) or give_up

#ifndef ASGSTPROF_WALL_HPP
#define ASGSTPROF_WALL_HPP

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <optional>

namespace asgstprof {

enum class WallPhase : uint64_t {
  asked,     // the sampler signalled the target
  claimed,   // the target's handler took the request and writes its context
             // (the sampler no longer gives up)
  halted,    // the context is written; the handler waits
  released,  // the sampler walked the target; the handler may return
  done,      // the handler returns
  given_up,  // the sampler stopped waiting before the handler took the request
};

class WallRequest {
 public:
  static_assert(std::atomic<uint64_t>::is_always_lock_free, "the request is changed in signal handlers");

  // The sampler. Asks thread tid for request number (before signalling it);
  // returns the request.
  uint64_t ask(pid_t tid, uint32_t number) {
    uint64_t asked = make(tid, number, WallPhase::asked);
    _state.store(asked, std::memory_order_release);
    return asked;
  }
  // True when the handler of asked has halted; context() is then its context.
  bool halted_now(uint64_t asked) const { return load() == with(asked, WallPhase::halted); }
  void* context() const { return _context; }
  // Gives asked up unless its handler took it: true when given up (a handler
  // that comes later returns at once), false when it is taken (it halts soon
  // and must be waited for: only it writes the context now).
  bool give_up(uint64_t asked) {
    uint64_t expected = asked;
    return _state.compare_exchange_strong(expected, with(asked, WallPhase::given_up), std::memory_order_acq_rel);
  }
  // Gives asked up when its signal could not be sent (the thread is gone): no
  // request may stay asked, for a new thread could get its tid.
  void abandon(uint64_t asked) { _state.store(with(asked, WallPhase::given_up), std::memory_order_release); }
  // Releases the halted handler of asked.
  void release(uint64_t asked) { _state.store(with(asked, WallPhase::released), std::memory_order_release); }
  // True when the handler of asked returns after its release.
  bool done(uint64_t asked) const { return load() == with(asked, WallPhase::done); }

  // The handler of thread self. Signal safe.
  // The request asked of self now, if any.
  std::optional<uint64_t> request_for(pid_t self) const {
    uint64_t state = load();
    if (tid_of(state) != self || phase_of(state) != WallPhase::asked) {
      return std::nullopt;
    }
    return state;
  }
  // Takes request (from request_for): false when the sampler gave it up
  // meanwhile, or asked another thread or number.
  bool take(uint64_t request) {
    return _state.compare_exchange_strong(request, with(request, WallPhase::claimed), std::memory_order_acq_rel);
  }
  // Writes the context of the taken request and halts; returns the state to
  // wait in (halted()).
  uint64_t halt(uint64_t request, void* context) {
    _context = context;
    uint64_t halted = with(request, WallPhase::halted);
    _state.store(halted, std::memory_order_release);
    return halted;
  }
  // True while the sampler has neither released the request in state halted
  // nor moved on from it.
  bool halted(uint64_t halted) const { return load() == halted; }
  // Says the handler returns, if its release is still the request.
  void finish(uint64_t halted) {
    uint64_t released = with(halted, WallPhase::released);
    _state.compare_exchange_strong(released, with(halted, WallPhase::done), std::memory_order_acq_rel);
  }

 private:
  // tid << 32 | number (24 bits) << 8 | phase
  static uint64_t make(pid_t tid, uint32_t number, WallPhase phase) {
    return (uint64_t)(uint32_t)tid << 32 | (uint64_t)(number & 0xffffff) << 8 | (uint64_t)phase;
  }
  static uint64_t with(uint64_t state, WallPhase phase) { return (state & ~(uint64_t)0xff) | (uint64_t)phase; }
  static pid_t tid_of(uint64_t state) { return (pid_t)(uint32_t)(state >> 32); }
  static WallPhase phase_of(uint64_t state) { return (WallPhase)(state & 0xff); }
  uint64_t load() const { return _state.load(std::memory_order_acquire); }

  std::atomic<uint64_t> _state{0};
  void* _context = nullptr;  // written by the handler between claimed and halted
};

}  // namespace asgstprof

#endif  // ASGSTPROF_WALL_HPP
