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
#include "runtime/atomic.hpp"
#include "runtime/orderAccess.hpp"

// One entry of the table: seq is odd while a writer fills the rest. What
// every find reads, and the first scope, lie in the first cache line.
struct AsgstReturnSites::Entry {
  volatile uint64_t seq;
  address pc;
  nmethod* nm;
  uint64_t epoch;
  int java_frame_size;
  int16_t count;
  int16_t comp_level;
  int words_pushed;
  int scope_offset;
  AsgstScopesAt::Scope scopes[max_remembered_scopes];
};

// Both tables, one after the other. Untouched until a profiler walks: their
// pages cost nothing before.
alignas(DEFAULT_CACHE_LINE_SIZE) static char
    entry_storage[2 * AsgstReturnSites::entry_count * sizeof(uint64_t[16])];

volatile uint64_t AsgstReturnSites::_epoch = 1;  // 0 is never an entry's: a zeroed entry is none

AsgstReturnSites::Entry* AsgstReturnSites::entry_for(Kind kind, address pc) {
  STATIC_ASSERT(sizeof(Entry) <= sizeof(uint64_t[16]));       // two cache lines of 64 bytes
  STATIC_ASSERT(offsetof(Entry, scopes) + sizeof(AsgstScopesAt::Scope) <= sizeof(uint64_t[8]));
  STATIC_ASSERT(is_power_of_2(entry_count));
  // Fibonacci hashing: return addresses of one method lie close together.
  uint64_t hash = ((uint64_t)(uintptr_t)pc * UCONST64(0x9E3779B97F4A7C15)) >> 32;
  size_t index = (kind == interrupted_pc ? entry_count : 0) + (hash & (entry_count - 1));
  return (Entry*)(entry_storage + index * sizeof(uint64_t[16]));
}

uint64_t AsgstReturnSites::epoch() {
  return Atomic::load_acquire(&_epoch);
}

void AsgstReturnSites::invalidate() {
  Atomic::inc(&_epoch);  // a full fence: before the memory goes
}

bool AsgstReturnSites::find(Kind kind, address pc, uint64_t epoch, AsgstScopesAt* out) {
  Entry* e = entry_for(kind, pc);
  uint64_t seq = Atomic::load_acquire(&e->seq);
  if ((seq & 1) != 0 || e->pc != pc || e->epoch != epoch) {
    return false;
  }
  int count = e->count;
  if (count < 0 || count > max_remembered_scopes) {
    return false;  // torn: the sequence check below would say so too
  }
  out->nm = e->nm;
  out->pc = pc;
  out->count = count;
  out->comp_level = e->comp_level;
  out->java_frame_size = e->java_frame_size;
  out->words_pushed = e->words_pushed;
  out->scope_offset = e->scope_offset;
  for (int i = 0; i < count; i++) {
    out->scopes[i] = e->scopes[i];
  }
  OrderAccess::loadload();
  if (Atomic::load(&e->seq) != seq) {
    out->nm = nullptr;  // written meanwhile: what was read may be torn
    return false;
  }
  return true;
}

void AsgstReturnSites::remember(Kind kind, const AsgstScopesAt& scopes, uint64_t epoch) {
  if (scopes.nm == nullptr || scopes.count < 0 || scopes.count > max_remembered_scopes) {
    return;
  }
  Entry* e = entry_for(kind, scopes.pc);
  uint64_t seq = Atomic::load(&e->seq);
  if ((seq & 1) != 0 || Atomic::cmpxchg(&e->seq, seq, seq + 1) != seq) {
    return;  // another writer (maybe the handler this signal interrupted)
  }
  // cmpxchg is a full fence: readers see the odd count before any field changes.
  e->pc = scopes.pc;
  e->nm = scopes.nm;
  e->epoch = epoch;
  e->count = (int16_t)scopes.count;
  e->comp_level = (int16_t)scopes.comp_level;
  e->java_frame_size = scopes.java_frame_size;
  e->words_pushed = scopes.words_pushed;
  e->scope_offset = scopes.scope_offset;
  for (int i = 0; i < scopes.count; i++) {
    e->scopes[i] = scopes.scopes[i];
  }
  Atomic::release_store(&e->seq, seq + 2);
}
