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

#include "prims/asgstReturnSites.hpp"
#include "unittest.hpp"

// Addresses that no code holds: the table never reads through them.
static AsgstScopesAt made_scopes(uintptr_t pc, int count) {
  AsgstScopesAt scopes = {};
  scopes.nm = (nmethod*)(uintptr_t)0x1000;
  scopes.pc = (address)pc;
  scopes.count = count;
  scopes.comp_level = 4;
  scopes.java_frame_size = 12;
  for (int i = 0; i < count; i++) {
    scopes.scopes[i].method = (Method*)(uintptr_t)(0x2000 + 8 * i);
    scopes.scopes[i].bci = 10 + i;
  }
  return scopes;
}

TEST_VM(asgst_return_sites, found_as_remembered_within_the_epoch) {
  uint64_t epoch = AsgstReturnSites::epoch();
  AsgstScopesAt kept = made_scopes(0x7123, 3);
  AsgstReturnSites::remember(AsgstReturnSites::return_address, kept, epoch);
  AsgstScopesAt found = {};
  ASSERT_TRUE(AsgstReturnSites::find(AsgstReturnSites::return_address, kept.pc, epoch, &found));
  EXPECT_EQ(kept.nm, found.nm);
  EXPECT_EQ(kept.pc, found.pc);
  EXPECT_EQ(3, found.count);
  EXPECT_EQ(4, found.comp_level);
  EXPECT_EQ(12, found.java_frame_size);
  for (int i = 0; i < 3; i++) {
    EXPECT_EQ(kept.scopes[i].method, found.scopes[i].method) << "scope " << i;
    EXPECT_EQ(kept.scopes[i].bci, found.scopes[i].bci) << "scope " << i;
  }
  EXPECT_FALSE(AsgstReturnSites::find(AsgstReturnSites::return_address, kept.pc + 1, epoch, &found)) << "another pc";
  EXPECT_FALSE(AsgstReturnSites::find(AsgstReturnSites::return_address, kept.pc, epoch + 1, &found)) << "another epoch";
  AsgstReturnSites::invalidate();
}

// Freed code or an unloaded class: what was remembered before is not found after.
TEST_VM(asgst_return_sites, stale_after_invalidation) {
  uint64_t before = AsgstReturnSites::epoch();
  AsgstScopesAt kept = made_scopes(0x7200, 1);
  AsgstReturnSites::remember(AsgstReturnSites::return_address, kept, before);
  AsgstReturnSites::invalidate();
  uint64_t after = AsgstReturnSites::epoch();
  EXPECT_NE(before, after);
  AsgstScopesAt found = {};
  EXPECT_FALSE(AsgstReturnSites::find(AsgstReturnSites::return_address, kept.pc, after, &found));
  // A walk that began before and wrote late leaves nothing for the walks after.
  AsgstReturnSites::remember(AsgstReturnSites::return_address, kept, before);
  EXPECT_FALSE(AsgstReturnSites::find(AsgstReturnSites::return_address, kept.pc, after, &found));
  AsgstReturnSites::invalidate();
}

TEST_VM(asgst_return_sites, deep_inlining_not_kept) {
  uint64_t epoch = AsgstReturnSites::epoch();
  AsgstScopesAt found = {};
  const int most = AsgstReturnSites::max_remembered_scopes;
  AsgstScopesAt deep = made_scopes(0x7300, most + 1);
  AsgstReturnSites::remember(AsgstReturnSites::return_address, deep, epoch);
  EXPECT_FALSE(AsgstReturnSites::find(AsgstReturnSites::return_address, deep.pc, epoch, &found));
  AsgstScopesAt kept = made_scopes(0x7300, most);
  AsgstReturnSites::remember(AsgstReturnSites::return_address, kept, epoch);
  ASSERT_TRUE(AsgstReturnSites::find(AsgstReturnSites::return_address, kept.pc, epoch, &found));
  EXPECT_EQ(most, found.count);
  AsgstReturnSites::invalidate();
}

// Two pcs that share an entry: the one written last is found, the other not
// (never the other's scopes).
TEST_VM(asgst_return_sites, entry_shared_by_two_pcs) {
  uint64_t epoch = AsgstReturnSites::epoch();
  AsgstScopesAt first = made_scopes(0x7400, 2);
  AsgstScopesAt found = {};
  AsgstReturnSites::remember(AsgstReturnSites::return_address, first, epoch);
  uintptr_t other = 0x7400;
  // Pcs one after the other until one lands on first's entry and displaces it.
  for (int tries = 0; tries < 1000000 && AsgstReturnSites::find(AsgstReturnSites::return_address, first.pc, epoch, &found); tries++) {
    other += 8;
    AsgstReturnSites::remember(AsgstReturnSites::return_address, made_scopes(other, 1), epoch);
  }
  ASSERT_FALSE(AsgstReturnSites::find(AsgstReturnSites::return_address, first.pc, epoch, &found)) << "no pc shares first's entry";
  ASSERT_TRUE(AsgstReturnSites::find(AsgstReturnSites::return_address, (address)other, epoch, &found));
  EXPECT_EQ(1, found.count);
  AsgstReturnSites::invalidate();
}

// Interrupted pcs have a table of their own: the scopes there are those of
// the next PcDesc, which a step to a return address must not take.
TEST_VM(asgst_return_sites, interrupted_pcs_kept_apart) {
  uint64_t epoch = AsgstReturnSites::epoch();
  AsgstScopesAt at_top = made_scopes(0x7500, 2);
  at_top.words_pushed = 2;
  at_top.scope_offset = 77;
  AsgstReturnSites::remember(AsgstReturnSites::interrupted_pc, at_top, epoch);
  AsgstScopesAt found = {};
  EXPECT_FALSE(AsgstReturnSites::find(AsgstReturnSites::return_address, at_top.pc, epoch, &found));
  ASSERT_TRUE(AsgstReturnSites::find(AsgstReturnSites::interrupted_pc, at_top.pc, epoch, &found));
  EXPECT_EQ(2, found.words_pushed);
  EXPECT_EQ(77, found.scope_offset);
  EXPECT_EQ(2, found.count);
  EXPECT_EQ(at_top.scopes[1].method, found.scopes[1].method);
  AsgstScopesAt returning = made_scopes(0x7600, 1);
  AsgstReturnSites::remember(AsgstReturnSites::return_address, returning, epoch);
  EXPECT_FALSE(AsgstReturnSites::find(AsgstReturnSites::interrupted_pc, returning.pc, epoch, &found));
  AsgstReturnSites::invalidate();
  EXPECT_FALSE(AsgstReturnSites::find(AsgstReturnSites::interrupted_pc, at_top.pc, AsgstReturnSites::epoch(), &found))
      << "stale after invalidation";
}

// An interrupted pc whose scopes an entry cannot hold (or that has none) is
// kept without them: its scope offset says where they are.
TEST_VM(asgst_return_sites, interrupted_pc_without_scopes) {
  uint64_t epoch = AsgstReturnSites::epoch();
  AsgstScopesAt at_top = made_scopes(0x7700, 0);
  at_top.scope_offset = 99;
  AsgstReturnSites::remember(AsgstReturnSites::interrupted_pc, at_top, epoch);
  AsgstScopesAt found = {};
  ASSERT_TRUE(AsgstReturnSites::find(AsgstReturnSites::interrupted_pc, at_top.pc, epoch, &found));
  EXPECT_EQ(0, found.count);
  EXPECT_EQ(99, found.scope_offset);
  AsgstReturnSites::invalidate();
}
