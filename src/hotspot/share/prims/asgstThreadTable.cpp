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

#include "prims/asgstThreadTable.hpp"
#include "runtime/atomic.hpp"
#include "runtime/orderAccess.hpp"
#include "runtime/os.hpp"
#include "runtime/thread.hpp"
#include "utilities/powerOfTwo.hpp"

AsgstThreadTable AsgstThreadTable::_vm_threads;

void AsgstThreadTable::thread_started(Thread* thread) {
  _vm_threads.add(thread, (jlong)os::current_thread_id());
}

void AsgstThreadTable::thread_destroyed(Thread* thread) {
  _vm_threads.remove(thread);
}

size_t AsgstThreadTable::hash(intptr_t key, size_t capacity) {
  uint64_t h = (uint64_t)key * UCONST64(0x9E3779B97F4A7C15);  // Fibonacci hashing
  return (size_t)(h >> 32) & (capacity - 1);
}

// The slot that holds key, else the first free one on its probe sequence
// (a tombstone or an empty slot), else null.
AsgstThreadTable::Slot* AsgstThreadTable::probe(Slot* slots, size_t capacity, intptr_t key) {
  Slot* free_slot = nullptr;
  size_t i = hash(key, capacity);
  for (size_t n = 0; n < capacity; n++, i = (i + 1) & (capacity - 1)) {
    intptr_t k = slots[i].key;
    if (k == key) {
      return &slots[i];
    }
    if (k == tombstone && free_slot == nullptr) {
      free_slot = &slots[i];
    } else if (k == 0) {
      return free_slot != nullptr ? free_slot : &slots[i];
    }
  }
  return free_slot;
}

// Returns whether an empty slot was taken.
bool AsgstThreadTable::put(Slot* slots, size_t capacity, intptr_t key, Thread* thread, jlong os_id) {
  Slot* slot = probe(slots, capacity, key);
  assert(slot != nullptr, "the table is never full");
  bool was_empty = slot->key == 0;
  // A lookup that still sees the old key re-reads it after the thread and
  // gives up, so the thread and id must be visible before the new key.
  Atomic::release_store(&slot->thread, thread);
  Atomic::release_store(&slot->os_id, os_id);
  Atomic::release_store(&slot->key, key);
  return was_empty;
}

// Turns the slot of key into a tombstone if it names thread.
bool AsgstThreadTable::erase(Slot* slots, size_t capacity, intptr_t key, const Thread* thread) {
  Slot* slot = probe(slots, capacity, key);
  if (slot == nullptr || slot->key != key || slot->thread != thread) {
    return false;
  }
  Atomic::release_store(&slot->key, tombstone);
  return true;
}

Thread* AsgstThreadTable::lookup(const Slot* slots, size_t capacity, intptr_t key) {
  size_t i = hash(key, capacity);
  for (size_t n = 0; n < capacity; n++, i = (i + 1) & (capacity - 1)) {
    intptr_t k = Atomic::load_acquire(&slots[i].key);
    if (k == 0) {
      return nullptr;
    }
    if (k == key) {
      Thread* thread = Atomic::load_acquire(&slots[i].thread);
      // A changed key means the slot was reused while we read it.
      return Atomic::load_acquire(&slots[i].key) == key ? thread : nullptr;
    }
  }
  return nullptr;
}

AsgstThreadTable::Generation* AsgstThreadTable::new_generation(size_t capacity) {
  Generation* g = new Generation();
  g->capacity = capacity;
  g->live = 0;
  g->occupied = 0;
  g->by_id = NEW_C_HEAP_ARRAY(Slot, capacity, mtServiceability);
  g->by_thread = NEW_C_HEAP_ARRAY(Slot, capacity, mtServiceability);
  memset((void*)g->by_id, 0, capacity * sizeof(Slot));
  memset((void*)g->by_thread, 0, capacity * sizeof(Slot));
  g->older = nullptr;
  return g;
}

void AsgstThreadTable::free_generation(Generation* g) {
  if (g == &_first) {
    return;  // part of the table
  }
  FREE_C_HEAP_ARRAY(Slot, g->by_id);
  FREE_C_HEAP_ARRAY(Slot, g->by_thread);
  delete g;
}

void AsgstThreadTable::add(Thread* thread, jlong os_id) {
  assert(os_id > tombstone, "OS thread ids are positive and not 1");
  Thread::SpinAcquire(&_write_lock);
  remove_locked(thread);
  Thread* previous = nullptr;
  Generation* g = _current;
  if (g != nullptr && (previous = lookup(g->by_id, g->capacity, (intptr_t)os_id)) != nullptr) {
    remove_locked(previous);  // the id was reused: the earlier thread has ended
  }
  grow_if_needed();
  g = _current;
  // by_thread first: a thread found by id can always be found by pointer too.
  bool took_empty = put(g->by_thread, g->capacity, (intptr_t)thread, thread, os_id);
  took_empty = put(g->by_id, g->capacity, (intptr_t)os_id, thread, os_id) || took_empty;
  g->live++;
  if (took_empty) {
    g->occupied++;
  }
  free_older_if_unused();
  Thread::SpinRelease(&_write_lock);
}

void AsgstThreadTable::remove(Thread* thread) {
  Thread::SpinAcquire(&_write_lock);
  remove_locked(thread);
  free_older_if_unused();
  Thread::SpinRelease(&_write_lock);
}

void AsgstThreadTable::remove_locked(const Thread* thread) {
  Generation* g = _current;
  if (g == nullptr) {
    return;
  }
  Slot* slot = probe(g->by_thread, g->capacity, (intptr_t)thread);
  if (slot == nullptr || slot->key != (intptr_t)thread) {
    return;
  }
  jlong os_id = slot->os_id;
  // Generations that lookups may still read must forget the thread as well.
  for (Generation* each = g; each != nullptr; each = each->older) {
    erase(each->by_id, each->capacity, (intptr_t)os_id, thread);
    erase(each->by_thread, each->capacity, (intptr_t)thread, thread);
  }
  g->live--;
}

// Keeps at least half of each table empty, so that probe sequences stay short
// and a lookup of a missing key soon meets an empty slot.
void AsgstThreadTable::grow_if_needed() {
  Generation* g = _current;
  if (g != nullptr && (g->occupied + 1) * 2 <= g->capacity) {
    return;
  }
  if (g == nullptr) {
    // The first generation, inside the table.
    memset((void*)_first_by_id, 0, sizeof(_first_by_id));
    memset((void*)_first_by_thread, 0, sizeof(_first_by_thread));
    _first.capacity = initial_capacity;
    _first.live = 0;
    _first.occupied = 0;
    _first.by_id = _first_by_id;
    _first.by_thread = _first_by_thread;
    _first.older = nullptr;
    publish(&_first);
    return;
  }
  size_t live = g->live;
  size_t capacity = MAX2(initial_capacity, round_up_power_of_2((live + 1) * 4));
  Generation* next = new_generation(capacity);
  for (size_t i = 0; i < g->capacity; i++) {
    const Slot& s = g->by_thread[i];
    if (s.key != 0 && s.key != tombstone) {
      put(next->by_thread, capacity, s.key, s.thread, s.os_id);
      put(next->by_id, capacity, (intptr_t)s.os_id, s.thread, s.os_id);
      next->live++;
      next->occupied++;
    }
  }
  publish(next);
}

void AsgstThreadTable::publish(Generation* next) {
  next->older = _current;
  // A lookup announces itself before it loads _current: once the new
  // generation is visible, a count of zero means none holds an older one.
  Atomic::release_store_fence(&_current, next);
}

void AsgstThreadTable::free_older_if_unused() {
  Generation* g = _current;
  if (g == nullptr || g->older == nullptr) {
    return;
  }
  OrderAccess::fence();
  if (Atomic::load(&_lookups_in_flight) != 0) {
    return;  // try again at the next change
  }
  Generation* older = g->older;
  g->older = nullptr;
  while (older != nullptr) {
    Generation* next = older->older;
    free_generation(older);
    older = next;
  }
}

void AsgstThreadTable::clear() {
  Generation* g = _current;
  _current = nullptr;
  while (g != nullptr) {
    Generation* next = g->older;
    free_generation(g);
    g = next;
  }
}

Thread* AsgstThreadTable::find_by_key(bool by_id, intptr_t key) const {
  Atomic::inc(&_lookups_in_flight);  // a full fence, paired with publish()
  Generation* g = Atomic::load_acquire(&_current);
  Thread* thread = nullptr;
  if (g != nullptr) {
    thread = lookup(by_id ? g->by_id : g->by_thread, g->capacity, key);
  }
  Atomic::dec(&_lookups_in_flight);
  return thread;
}

Thread* AsgstThreadTable::find(jlong os_id) const {
  return os_id <= tombstone ? nullptr : find_by_key(true, (intptr_t)os_id);
}

bool AsgstThreadTable::contains(const Thread* thread) const {
  return thread != nullptr && find_by_key(false, (intptr_t)thread) == thread;
}
