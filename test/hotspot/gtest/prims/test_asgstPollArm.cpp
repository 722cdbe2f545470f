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

#include "prims/asgstFrameEdges.hpp"
#include "prims/asgstPollArm.hpp"
#include "runtime/globals.hpp"
#include "runtime/interfaceSupport.inline.hpp"
#include "runtime/javaThread.hpp"
#include "runtime/safepointMechanism.inline.hpp"
#include "runtime/stackWatermarkSet.hpp"
#include "utilities/globalDefinitions.hpp"
#include "unittest.hpp"

// Each test arms the current thread's own poll and disarms it again, in the
// VM, where none of the thread's polls runs meanwhile. What the tests expect
// is HotSpot's rule for the cross-modifying fence, not AsgstPollArm's: the
// fence may be left out only where HotSpot's own disarm would leave it out
// had the profiler never armed the poll (the poll word before the arm comes
// back unchanged, and nothing else armed the poll since).

static uintptr_t poll_word(JavaThread* thread) {
  return thread->poll_data()->get_polling_word();
}

static bool page_armed(JavaThread* thread) {
  return Atomic::load(&thread->poll_data()->_polling_page) == (uintptr_t)SafepointMechanism::get_polling_page();
}

// Whether OrderAccess::cross_modify_fence ran since the watch began: with
// VerifyCrossModifyFence, the fence clears the thread's flag (non-product
// builds; a product build cannot tell, and its tests check the poll words).
class FenceWatch : public StackObj {
#ifndef PRODUCT
  JavaThread* const _thread;
  const bool _verify;
 public:
  explicit FenceWatch(JavaThread* thread) : _thread(thread), _verify(VerifyCrossModifyFence) {
    VerifyCrossModifyFence = true;
    thread->set_requires_cross_modify_fence(true);
  }
  ~FenceWatch() {
    VerifyCrossModifyFence = _verify;
    _thread->set_requires_cross_modify_fence(false);
  }
  bool fenced() const {
    return !*(volatile bool*)((address)_thread + in_bytes(JavaThread::requires_cross_modify_fence_offset()));
  }
  static bool can_tell() { return true; }
#else
 public:
  explicit FenceWatch(JavaThread* thread) {}
  bool fenced() const { return false; }
  static bool can_tell() { return false; }
#endif
};

#define EXPECT_FENCED(watch, expected) \
  if (FenceWatch::can_tell()) { EXPECT_EQ(expected, (watch).fenced()); }

// The thread's next poll, or (at_poll false) only the poll values' update
// that HotSpot runs when frames unwind: the word before the arm comes back,
// with the fence or without.
static void disarm_and_expect(JavaThread* thread, bool at_poll, uintptr_t before, bool fenced) {
  FenceWatch watch(thread);
  if (at_poll) {
    SafepointMechanism::process_if_requested(thread, false /* allow_suspend */, false /* check_async_exception */);
  } else {
    SafepointMechanism::update_poll_values(thread);
  }
  EXPECT_EQ(before, poll_word(thread));
  EXPECT_FALSE(page_armed(thread));
  EXPECT_FENCED(watch, fenced);
}

TEST_VM(asgst_poll_arm, own_arm_comes_back_without_the_fence) {
  JavaThread* thread = JavaThread::current();
  ThreadInVMfromNative in_vm(thread);
  uintptr_t before = poll_word(thread);
  ASSERT_FALSE(SafepointMechanism::local_poll_armed(thread));

  AsgstPollArm::arm(thread);
  EXPECT_TRUE(SafepointMechanism::local_poll_armed(thread));
  EXPECT_NE((uintptr_t)SafepointMechanism::poll_bit(), poll_word(thread));  // not HotSpot's armed word
  EXPECT_TRUE(page_armed(thread));  // compiled loop polls trap too

  disarm_and_expect(thread, true /* at_poll */, before, false /* fenced */);
}

TEST_VM(asgst_poll_arm, another_arm_after_it_fences) {
  JavaThread* thread = JavaThread::current();
  ThreadInVMfromNative in_vm(thread);
  uintptr_t before = poll_word(thread);

  AsgstPollArm::arm(thread);
  SafepointMechanism::arm_local_poll(thread);  // as a safepoint or a handshake arms
  EXPECT_EQ((uintptr_t)SafepointMechanism::poll_bit(), poll_word(thread));

  disarm_and_expect(thread, true /* at_poll */, before, true /* fenced */);
}

TEST_VM(asgst_poll_arm, another_arm_before_it_stays) {
  JavaThread* thread = JavaThread::current();
  ThreadInVMfromNative in_vm(thread);
  uintptr_t before = poll_word(thread);

  SafepointMechanism::arm_local_poll(thread);
  AsgstPollArm::arm(thread);
  EXPECT_EQ((uintptr_t)SafepointMechanism::poll_bit(), poll_word(thread));
  EXPECT_TRUE(page_armed(thread));

  disarm_and_expect(thread, false /* at_poll */, before, true /* fenced */);
}

TEST_VM(asgst_poll_arm, moved_watermark_is_hotspots_way) {
  JavaThread* thread = JavaThread::current();
  ThreadInVMfromNative in_vm(thread);
  uintptr_t before = poll_word(thread);

  AsgstPollArm::arm(thread);
  uintptr_t own = poll_word(thread);
  // A watermark that the word before the arm was not (an sp of this frame):
  // the thread may now return into frames that were guarded before.
  uintptr_t watermark = align_down((uintptr_t)&own, 16);
  ASSERT_NE(before, watermark);
  EXPECT_FALSE(AsgstPollArm::disarmed_alone(thread, own, false /* armed */, watermark));
  EXPECT_FALSE(AsgstPollArm::disarmed_alone(thread, own, true /* armed */, watermark));
  EXPECT_EQ(own, poll_word(thread));  // left to HotSpot's way, which stores and fences
  EXPECT_TRUE(page_armed(thread));

  SafepointMechanism::update_poll_values(thread);  // the watermark did not move
  EXPECT_EQ(before, poll_word(thread));
}

TEST_VM(asgst_poll_arm, own_requests_waiting_keep_it_armed) {
  JavaThread* thread = JavaThread::current();
  ThreadInVMfromNative in_vm(thread);
  uintptr_t before = poll_word(thread);

  AsgstPollArm::arm(thread);
  uintptr_t own = poll_word(thread);
  {
    FenceWatch watch(thread);
    // The poll's own requests still wait (armed), the watermark is unchanged.
    uintptr_t watermark = StackWatermarkSet::lowest_watermark(thread);
    EXPECT_TRUE(AsgstPollArm::disarmed_alone(thread, own, true /* armed */, watermark));
    EXPECT_EQ(own, poll_word(thread));
    EXPECT_TRUE(page_armed(thread));
    EXPECT_FENCED(watch, false);
  }
  disarm_and_expect(thread, false /* at_poll */, before, false /* fenced */);  // nothing waits
}

TEST_VM(asgst_poll_arm, queue_element_arms_the_word_first) {
  JavaThread* thread = JavaThread::current();
  ThreadInVMfromNative in_vm(thread);
  uintptr_t before = poll_word(thread);
  // Where compiled return polls may read the page, both are armed at once.
  bool word_first = AsgstFrameEdges::compiled_return_polls_read_poll_word();

  AsgstPollArm::arm_word_first(thread);
  EXPECT_TRUE(SafepointMechanism::local_poll_armed(thread));
  EXPECT_NE((uintptr_t)SafepointMechanism::poll_bit(), poll_word(thread));
  EXPECT_EQ(!word_first, page_armed(thread));

  // The next sample finds the element waiting: compiled loops poll too.
  AsgstPollArm::sample_taken(thread);
  EXPECT_TRUE(page_armed(thread));

  disarm_and_expect(thread, true /* at_poll */, before, false /* fenced */);
}

TEST_VM(asgst_poll_arm, second_element_arms_the_page) {
  JavaThread* thread = JavaThread::current();
  ThreadInVMfromNative in_vm(thread);
  uintptr_t before = poll_word(thread);

  AsgstPollArm::arm_word_first(thread);
  AsgstPollArm::arm_word_first(thread);
  EXPECT_TRUE(page_armed(thread));

  disarm_and_expect(thread, true /* at_poll */, before, false /* fenced */);
}

TEST_VM(asgst_poll_arm, sample_with_nothing_waiting_arms_nothing) {
  JavaThread* thread = JavaThread::current();
  ThreadInVMfromNative in_vm(thread);
  uintptr_t before = poll_word(thread);

  AsgstPollArm::sample_taken(thread);
  EXPECT_EQ(before, poll_word(thread));
  EXPECT_FALSE(page_armed(thread));
}
