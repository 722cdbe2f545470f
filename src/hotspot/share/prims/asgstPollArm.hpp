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

#ifndef SHARE_PRIMS_ASGSTPOLLARM_HPP
#define SHARE_PRIMS_ASGSTPOLLARM_HPP

#include "memory/allStatic.hpp"
#include "runtime/atomic.hpp"
#include "runtime/javaThread.hpp"
#include "runtime/safepointMechanism.hpp"
#include "utilities/globalDefinitions.hpp"

// How a profiler's request (a queue element, a frame mark) arms the thread's
// safepoint poll.
//
// Every arm of HotSpot stores the same armed word, so a thread that disarms
// its poll cannot tell who armed it and runs a cross-modifying fence (cpuid
// on x86_64 without SERIALIZE): a safepoint, a handshake or a collector may
// have patched code meanwhile. A request made on the thread itself (in its
// signal handler) arms with a word of its own instead, and keeps the word it
// replaced. Only the thread itself stores any word but HotSpot's armed one,
// and it never stores this one: while the poll word still holds it, no other
// arm has come since. The thread then processes only its own requests and
// puts back the word it replaced, without the fence, as if its poll had
// never been armed; unless another request is published, or the word the
// thread would store now differs from the replaced one (its stack watermark
// moved), where it does what HotSpot does.
class AsgstPollArm : AllStatic {
  // Has the poll bit, so that every poll of the thread traps; differs from
  // HotSpot's armed word (the poll bit) and from every stack watermark.
  static const uintptr_t armed_alone_word = 3;
  STATIC_ASSERT((armed_alone_word & 1) != 0);

  static void arm_poll(JavaThread* thread, bool page_too);
  static bool other_request(JavaThread* thread);
  static bool disarm_alone(JavaThread* thread, bool armed, uintptr_t stack_watermark);

 public:
  // Arms thread's poll for a request of the profiler's; from the thread
  // itself (also in its signal handler) with the word of its own, from
  // another thread as HotSpot arms. Async-signal-safe.
  static void arm(JavaThread* thread) { arm_poll(thread, true); }

  // As arm, for a queue element: on the thread itself, where compiled
  // code's return polls read the poll word (AsgstFrameEdges), the first
  // request arms the word alone. Return polls, the interpreter and the
  // state transitions out of native and blocked states read the word; only
  // compiled loops read the polling page, and a load from the armed page
  // faults (a signal of its own). The next sample arms the page too
  // (sample_taken), so that a loop without calls is served then.
  // Async-signal-safe.
  static void arm_word_first(JavaThread* thread) { arm_poll(thread, false); }

  // A sample of thread taken in its own signal handler (enqueued or not,
  // or merged into a pending element): where its poll word is armed
  // already, a request still waits, and the polling page is armed too.
  // Async-signal-safe.
  static void sample_taken(JavaThread* thread);

  // SafepointMechanism::process, before anything else: whether only this
  // thread's own requests armed its poll, so that the poll may process them
  // alone. When another request is published too, its armed word is stored
  // here (its arm may not have landed yet), so that the poll processes it
  // as HotSpot does and its disarm fences.
  static bool armed_alone(JavaThread* thread) {
    return Atomic::load_acquire(&thread->poll_data()->_polling_word) == armed_alone_word &&
           !armed_by_others_too(thread);
  }

  // SafepointMechanism::update_poll_values, after it read the previous word:
  // whether the poll values were installed here, without the fence: the
  // poll stays armed alone while this thread's own requests wait, or gets
  // back the word it had before. False: HotSpot's way.
  static bool disarmed_alone(JavaThread* thread, uintptr_t previous_word, bool armed, uintptr_t stack_watermark) {
    return previous_word == armed_alone_word && disarm_alone(thread, armed, stack_watermark);
  }

 private:
  static bool armed_by_others_too(JavaThread* thread);
};

#endif // SHARE_PRIMS_ASGSTPOLLARM_HPP
