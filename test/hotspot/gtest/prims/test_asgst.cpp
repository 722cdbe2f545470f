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

#include "prims/asgst.hpp"
#include "profile.h"
#include "unittest.hpp"

#include <stddef.h>

// The layouts that profilers compile against: JEP 435's compact frames are two
// words, and a frame's type byte is readable through every member of the union.
TEST(asgst, call_frame_layout) {
  EXPECT_EQ(2 * sizeof(void*), sizeof(ASGST_CallFrame));
  EXPECT_EQ(2 * sizeof(void*), sizeof(ASGST_JavaFrame));
  EXPECT_EQ(2 * sizeof(void*), sizeof(ASGST_NonJavaFrame));
  EXPECT_EQ(0u, offsetof(ASGST_CallFrame, java_frame.type));
  EXPECT_EQ(0u, offsetof(ASGST_CallFrame, non_java_frame.type));
  EXPECT_EQ(sizeof(void*), offsetof(ASGST_JavaFrame, method));
  EXPECT_EQ(sizeof(void*), offsetof(ASGST_NonJavaFrame, pc));
}

TEST(asgst, frame_type_through_union) {
  ASGST_CallFrame frame;
  frame.java_frame.type = ASGST_FRAME_JAVA_INLINED;
  EXPECT_EQ(ASGST_FRAME_JAVA_INLINED, frame.type);
  frame.non_java_frame.type = ASGST_FRAME_NON_JAVA;
  EXPECT_EQ(ASGST_FRAME_NON_JAVA, frame.type);
}

// A uint16_t bci saturates at 65535, the "not available" marker of ASGST_JavaFrame.
TEST(asgst, java_frame_bci_range) {
  ASGST_JavaFrame frame;
  frame.bci = (uint16_t)-1;
  EXPECT_EQ(65535, frame.bci);
}

TEST_VM(asgst, capabilities_are_known_and_stable) {
  const int known = ASGST_REGISTER_QUEUE | ASGST_MARK_FRAME;
  int reported = ASGST_Capabilities();
  EXPECT_EQ(0, reported & ~known) << "unknown capability bits";
  EXPECT_EQ(Asgst::capabilities(), reported);
  EXPECT_EQ(reported, ASGST_Capabilities()) << "capabilities changed between calls";
}
