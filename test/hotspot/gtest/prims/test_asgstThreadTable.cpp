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

#include "concurrentTestRunner.inline.hpp"
#include "prims/asgstThreadTable.hpp"
#include "runtime/atomic.hpp"
#include "runtime/os.hpp"
#include "runtime/thread.hpp"
#include "unittest.hpp"

// The table never dereferences the threads it holds: fake pointers will do.
static Thread* fake_thread(int i) {
  return (Thread*)(uintptr_t)(0x10000 + 64 * i);
}

TEST_VM(asgst_thread_table, add_find_remove) {
  AsgstThreadTable* table = new AsgstThreadTable();
  EXPECT_EQ(nullptr, table->find(100));
  EXPECT_FALSE(table->contains(fake_thread(1)));
  table->add(fake_thread(1), 100);
  table->add(fake_thread(2), 200);
  EXPECT_EQ(fake_thread(1), table->find(100));
  EXPECT_EQ(fake_thread(2), table->find(200));
  EXPECT_TRUE(table->contains(fake_thread(2)));
  EXPECT_EQ(nullptr, table->find(300));
  EXPECT_EQ(nullptr, table->find(0));
  EXPECT_EQ(nullptr, table->find(-1));
  EXPECT_FALSE(table->contains(nullptr));
  table->remove(fake_thread(1));
  EXPECT_EQ(nullptr, table->find(100));
  EXPECT_FALSE(table->contains(fake_thread(1)));
  EXPECT_EQ(fake_thread(2), table->find(200));
  table->remove(fake_thread(1));  // twice: nothing happens
  table->clear();
  delete table;
}

TEST_VM(asgst_thread_table, reused_ids_and_re_registration) {
  AsgstThreadTable* table = new AsgstThreadTable();
  table->add(fake_thread(1), 100);
  // The OS reused id 100: the earlier thread must have ended.
  table->add(fake_thread(2), 100);
  EXPECT_EQ(fake_thread(2), table->find(100));
  EXPECT_FALSE(table->contains(fake_thread(1)));
  // Destroying the earlier thread later does not remove the new one.
  table->remove(fake_thread(1));
  EXPECT_EQ(fake_thread(2), table->find(100));
  // A thread registered again under another id leaves its old id.
  table->add(fake_thread(2), 101);
  EXPECT_EQ(nullptr, table->find(100));
  EXPECT_EQ(fake_thread(2), table->find(101));
  table->clear();
  delete table;
}

// Thousands of threads come and go: lookups stay exact across generations.
TEST_VM(asgst_thread_table, growth_and_churn) {
  AsgstThreadTable* table = new AsgstThreadTable();
  const int count = 5000;
  for (int i = 1; i <= count; i++) {
    table->add(fake_thread(i), 1000 + i);
  }
  for (int i = 1; i <= count; i++) {
    ASSERT_EQ(fake_thread(i), table->find(1000 + i)) << i;
  }
  for (int i = 1; i <= count; i += 2) {
    table->remove(fake_thread(i));
  }
  for (int round = 0; round < 20; round++) {
    for (int i = 1; i <= count; i += 2) {
      table->add(fake_thread(count + i), 1000 + i);
    }
    for (int i = 1; i <= count; i += 2) {
      table->remove(fake_thread(count + i));
    }
  }
  for (int i = 1; i <= count; i++) {
    if (i % 2 == 0) {
      ASSERT_EQ(fake_thread(i), table->find(1000 + i)) << i;
    } else {
      ASSERT_EQ(nullptr, table->find(1000 + i)) << i;
    }
  }
  table->clear();
  delete table;
}

TEST_VM(asgst_thread_table, holds_the_vm_threads) {
  Thread* current = Thread::current();
  EXPECT_EQ(current, AsgstThreadTable::vm_threads()->find((jlong)os::current_thread_id()));
  EXPECT_TRUE(AsgstThreadTable::vm_threads()->contains(current));
}

// Lookups take no lock: while one thread adds and removes thousands of
// threads (the table replaces its generation again and again), the others
// must find every thread that stays registered, every time.
class ThreadTableLookupsWhileGrowing : public TestRunnable {
 public:
  static const int stable = 64;       // registered for the whole test
  static const int churn = 20000;     // added and removed by the writer, each round
  AsgstThreadTable* const table;
  Thread* volatile writer;
  mutable volatile int rounds;
  mutable volatile int lookups;
  mutable volatile int wrong;

  ThreadTableLookupsWhileGrowing(AsgstThreadTable* t) : table(t), writer(nullptr), rounds(0), lookups(0), wrong(0) {}

  void runUnitTest() const {
    Thread* self = Thread::current();
    ThreadTableLookupsWhileGrowing* me = const_cast<ThreadTableLookupsWhileGrowing*>(this);
    if (Atomic::load(&writer) == self || Atomic::cmpxchg(&me->writer, (Thread*)nullptr, self) == nullptr) {
      for (int i = 0; i < churn; i++) {
        table->add(fake_thread(10000 + i), 100000 + i);
      }
      for (int i = 0; i < churn; i++) {
        table->remove(fake_thread(10000 + i));
      }
      Atomic::inc(&rounds);
      return;
    }
    for (int i = 1; i <= stable; i++) {
      if (table->find(1000 + i) != fake_thread(i) || !table->contains(fake_thread(i))) {
        Atomic::inc(&wrong);
      }
      Atomic::inc(&lookups);
    }
  }
};

TEST_VM(asgst_thread_table, lookups_while_growing) {
  AsgstThreadTable* table = new AsgstThreadTable();
  for (int i = 1; i <= ThreadTableLookupsWhileGrowing::stable; i++) {
    table->add(fake_thread(i), 1000 + i);
  }
  ThreadTableLookupsWhileGrowing test(table);
  ConcurrentTestRunner runner(&test, 3, 2000);
  runner.run();
  // The writer grew the table past its first generation at least once, and
  // readers looked up while it did: else the test checked nothing.
  EXPECT_GE(Atomic::load(&test.rounds), 1);
  EXPECT_GE(Atomic::load(&test.lookups), 1000);
  EXPECT_EQ(0, Atomic::load(&test.wrong));
  table->clear();
  delete table;
}
