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

#include "prims/asgstStackWalker.hpp"
#include "profile.h"
#include "runtime/javaThread.hpp"
#include "unittest.hpp"

static int handler_calls = 0;

static void count_calls(ASGST_Iterator* iterator, void* arg) {
  handler_calls++;
}

// The gtest thread is a Java thread that never ran Java code: there is no
// top Java frame, and the handler is not called.
TEST_VM(asgst_walker, no_java_frames) {
  JavaThread* thread = JavaThread::current();
  ASSERT_FALSE(thread->has_last_Java_frame());
  AsgstStackWalker walker(thread, 0);
  EXPECT_EQ(ASGST_NO_TOP_JAVA_FRAME, walker.start(nullptr));
  ASGST_Frame frame;
  EXPECT_EQ(ASGST_NO_FRAME, walker.next(&frame));
  walker.rewind();
  EXPECT_EQ(ASGST_NO_FRAME, walker.state());

  handler_calls = 0;
  EXPECT_EQ(ASGST_NO_TOP_JAVA_FRAME, ASGST_RunWithIterator(nullptr, 0, count_calls, nullptr));
  EXPECT_EQ(0, handler_calls);
}

TEST_VM(asgst_walker, null_arguments) {
  EXPECT_EQ(ASGST_INVALID_ARGUMENT, ASGST_RunWithIterator(nullptr, 0, nullptr, nullptr));
  ASGST_Frame frame;
  EXPECT_EQ(ASGST_NO_FRAME, ASGST_NextFrame(nullptr, &frame));
  EXPECT_EQ(ASGST_NO_FRAME, ASGST_State(nullptr));
  ASGST_RewindIterator(nullptr);  // must not crash
  EXPECT_EQ(nullptr, ASGST_MethodToJMethodID(nullptr));
}
