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
#include "runtime/handshake.hpp"
#include "runtime/javaThread.hpp"
#include "runtime/orderAccess.hpp"
#include "runtime/safepointMechanism.inline.hpp"
#include "utilities/macros.hpp"
#if INCLUDE_JFR
#include "jfr/jfr.inline.hpp"
#endif

void AsgstPollArm::arm_poll(JavaThread* thread, bool page_too) {
  if (thread != Thread::current_or_null_safe()) {
    SafepointMechanism::arm_local_poll_release(thread);
    return;
  }
  page_too = page_too || !AsgstFrameEdges::compiled_return_polls_read_poll_word();
  SafepointMechanism::ThreadData* poll = thread->poll_data();
  uintptr_t word = poll->get_polling_word();
  if ((word & SafepointMechanism::poll_bit()) == 0) {
    // Read only by this thread, and only while the poll word is ours.
    thread->_asgst_poll_word_before_arm = word;
    // Fails when another arm stored HotSpot's word first: that one stays
    // (and armed the page too).
    Atomic::cmpxchg(&poll->_polling_word, word, armed_alone_word);
    if (!page_too) {
      return;
    }
  }
  poll->set_polling_page(SafepointMechanism::_poll_page_armed_value);
}

void AsgstPollArm::sample_taken(JavaThread* thread) {
  if (thread == Thread::current_or_null_safe() &&
      (thread->poll_data()->get_polling_word() & SafepointMechanism::poll_bit()) != 0) {
    thread->poll_data()->set_polling_page(SafepointMechanism::_poll_page_armed_value);
  }
}

// The reasons of SafepointMechanism::has_pending_safepoint but the
// profiler's own. A reason missing here only waits for the next poll: it
// is published before its arm, and disarm_alone looks again at the end.
bool AsgstPollArm::other_request(JavaThread* thread) {
  return SafepointMechanism::global_poll() || thread->handshake_state()->has_operation()
         JFR_ONLY(|| Jfr::has_sample_request(thread));
}

bool AsgstPollArm::armed_by_others_too(JavaThread* thread) {
  if (!other_request(thread)) {
    return false;
  }
  Atomic::cmpxchg(&thread->poll_data()->_polling_word, armed_alone_word, SafepointMechanism::_poll_word_armed_value);
  return true;
}

bool AsgstPollArm::disarm_alone(JavaThread* thread, bool armed, uintptr_t stack_watermark) {
  uintptr_t before = thread->_asgst_poll_word_before_arm;
  if (other_request(thread) || SafepointMechanism::compute_poll_word(false, stack_watermark) != before) {
    return false;
  }
  SafepointMechanism::ThreadData* poll = thread->poll_data();
  if (armed) {
    // Only this thread's own requests wait: the poll word stays armed
    // alone, the polling page as their arms left it.
    return true;
  }
  poll->set_polling_page(SafepointMechanism::_poll_page_disarmed_value);
  if (Atomic::cmpxchg(&poll->_polling_word, armed_alone_word, before) != armed_alone_word) {
    return false;  // another arm came meanwhile
  }
  OrderAccess::fence();
  // A request published since the caller looked (this thread's signal
  // handler, or another thread): HotSpot's way arms the poll again.
  return !SafepointMechanism::has_pending_safepoint(thread);
}
