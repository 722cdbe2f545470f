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

#include "prims/asgstCheckedMethods.hpp"
#include "unittest.hpp"

// Addresses that no method holds: the table never reads through them.
static const Method* made_method(uintptr_t address) {
  return (const Method*)address;
}

TEST_VM(asgst_checked_methods, found_as_added_within_the_epoch) {
  uint64_t epoch = AsgstCheckedMethods::epoch();
  const Method* m = made_method(0x51000);
  AsgstCheckedMethods::add(m, epoch);
  EXPECT_TRUE(AsgstCheckedMethods::contains(m, epoch));
  EXPECT_FALSE(AsgstCheckedMethods::contains(made_method(0x51008), epoch)) << "another method";
  EXPECT_FALSE(AsgstCheckedMethods::contains(m, epoch + 1)) << "another epoch";
  EXPECT_FALSE(AsgstCheckedMethods::contains(nullptr, epoch));
  AsgstCheckedMethods::invalidate();
}

// An unloaded class or freed metadata: what was added before is not found after.
TEST_VM(asgst_checked_methods, stale_after_invalidation) {
  uint64_t before = AsgstCheckedMethods::epoch();
  const Method* m = made_method(0x52000);
  AsgstCheckedMethods::add(m, before);
  AsgstCheckedMethods::invalidate();
  uint64_t after = AsgstCheckedMethods::epoch();
  EXPECT_NE(before, after);
  EXPECT_FALSE(AsgstCheckedMethods::contains(m, after));
  // A walk that began before and added late leaves nothing for the walks after.
  AsgstCheckedMethods::add(m, before);
  EXPECT_FALSE(AsgstCheckedMethods::contains(m, after));
  AsgstCheckedMethods::invalidate();
}

// Two methods that share an entry: the one added last is found, the other not.
TEST_VM(asgst_checked_methods, entry_shared_by_two_methods) {
  uint64_t epoch = AsgstCheckedMethods::epoch();
  const Method* first = made_method(0x53000);
  AsgstCheckedMethods::add(first, epoch);
  uintptr_t other = 0x53000;
  for (int tries = 0; tries < 1000000 && AsgstCheckedMethods::contains(first, epoch); tries++) {
    other += 8;
    AsgstCheckedMethods::add(made_method(other), epoch);
  }
  ASSERT_FALSE(AsgstCheckedMethods::contains(first, epoch)) << "no method shares first's entry";
  EXPECT_TRUE(AsgstCheckedMethods::contains(made_method(other), epoch));
  AsgstCheckedMethods::invalidate();
}
