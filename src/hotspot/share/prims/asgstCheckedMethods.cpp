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
#include "runtime/atomic.hpp"
#include "runtime/orderAccess.hpp"

// One entry of the table: seq is odd while a writer fills the rest.
struct AsgstCheckedMethods::Entry {
  volatile uint64_t seq;
  const Method* method;
  uint64_t epoch;
  uint64_t unused;  // four words: two entries per cache line of 64 bytes
};

// Untouched until a profiler walks: its pages cost nothing before.
alignas(DEFAULT_CACHE_LINE_SIZE) static char entry_storage[AsgstCheckedMethods::entry_count * sizeof(uint64_t[4])];

volatile uint64_t AsgstCheckedMethods::_epoch = 1;  // 0 is never an entry's: a zeroed entry is none

AsgstCheckedMethods::Entry* AsgstCheckedMethods::entry_for(const Method* m) {
  STATIC_ASSERT(sizeof(Entry) == sizeof(uint64_t[4]));
  STATIC_ASSERT(is_power_of_2(entry_count));
  // Fibonacci hashing: methods of one class lie close together in metaspace.
  uint64_t hash = ((uint64_t)(uintptr_t)m * UCONST64(0x9E3779B97F4A7C15)) >> 32;
  return (Entry*)(entry_storage + (hash & (entry_count - 1)) * sizeof(uint64_t[4]));
}

uint64_t AsgstCheckedMethods::epoch() {
  return Atomic::load_acquire(&_epoch);
}

void AsgstCheckedMethods::invalidate() {
  Atomic::inc(&_epoch);  // a full fence: before the memory goes
}

bool AsgstCheckedMethods::contains(const Method* m, uint64_t epoch) {
  if (m == nullptr) {
    return false;
  }
  Entry* e = entry_for(m);
  uint64_t seq = Atomic::load_acquire(&e->seq);
  if ((seq & 1) != 0 || e->method != m || e->epoch != epoch) {
    return false;
  }
  OrderAccess::loadload();
  return Atomic::load(&e->seq) == seq;  // else written meanwhile: what was read may be torn
}

void AsgstCheckedMethods::add(const Method* m, uint64_t epoch) {
  Entry* e = entry_for(m);
  uint64_t seq = Atomic::load(&e->seq);
  if ((seq & 1) != 0 || Atomic::cmpxchg(&e->seq, seq, seq + 1) != seq) {
    return;  // another writer (maybe the handler this signal interrupted)
  }
  // cmpxchg is a full fence: readers see the odd count before any field changes.
  e->method = m;
  e->epoch = epoch;
  Atomic::release_store(&e->seq, seq + 2);
}
