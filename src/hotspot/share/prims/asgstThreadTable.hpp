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

#ifndef SHARE_PRIMS_ASGSTTHREADTABLE_HPP
#define SHARE_PRIMS_ASGSTTHREADTABLE_HPP

#include "memory/allocation.hpp"
#include "utilities/globalDefinitions.hpp"

class Thread;

// The live threads of the VM, found by OS thread id or by Thread* from a
// signal handler: lookups take no lock, allocate nothing and touch only the
// table. Threads add themselves when they start or attach, and leave when
// their Thread object is destroyed.
//
// Two open-addressing hash tables (by id, by thread) share one generation.
// Writers are serialized by a spin lock; when a generation fills up, a bigger
// one replaces it, and the old one is freed once no lookup is in flight.
class AsgstThreadTable : public CHeapObj<mtServiceability> {
 public:
  struct Slot {
    volatile intptr_t key;  // 0 empty, tombstone removed, else the key
    Thread* volatile thread;
    volatile jlong os_id;
  };

  constexpr AsgstThreadTable() : _current(nullptr), _lookups_in_flight(0), _write_lock(0),
                                 _first(), _first_by_id{}, _first_by_thread{} {}

  // Frees all memory; only when no other thread can use the table (tests).
  void clear();

  // Registers thread under os_id, replacing an earlier thread with that id
  // (ids are reused after a thread ends) and an earlier id of thread.
  void add(Thread* thread, jlong os_id);
  // Forgets thread; nothing happens if it is not there.
  void remove(Thread* thread);

  // Signal safe.
  Thread* find(jlong os_id) const;
  bool contains(const Thread* thread) const;

  // The table of the VM's threads.
  static AsgstThreadTable* vm_threads() { return &_vm_threads; }

  // Hooks called by Thread: on the thread itself when it starts or attaches,
  // and from its destructor.
  static void thread_started(Thread* thread);
  static void thread_destroyed(Thread* thread);

 private:
  static const intptr_t tombstone = 1;  // no OS id or aligned pointer is 1
  static const size_t initial_capacity = 256;

  struct Generation : public CHeapObj<mtServiceability> {
    size_t capacity = 0;    // a power of two
    size_t live = 0;        // registered threads
    size_t occupied = 0;    // slots of by_id or by_thread that are not empty, the larger
    Slot* by_id = nullptr;
    Slot* by_thread = nullptr;
    Generation* older = nullptr;  // generations replaced but not yet freed
  };

  static AsgstThreadTable _vm_threads;

  Generation* volatile _current;
  mutable volatile int _lookups_in_flight;
  volatile int _write_lock;
  // The first generation lives in the table itself: a VM with no more than
  // initial_capacity / 2 threads at once allocates nothing for the table.
  Generation _first;
  Slot _first_by_id[initial_capacity];
  Slot _first_by_thread[initial_capacity];

  static size_t hash(intptr_t key, size_t capacity);
  static Slot* probe(Slot* slots, size_t capacity, intptr_t key);
  static Thread* lookup(const Slot* slots, size_t capacity, intptr_t key);
  static bool put(Slot* slots, size_t capacity, intptr_t key, Thread* thread, jlong os_id);
  static bool erase(Slot* slots, size_t capacity, intptr_t key, const Thread* thread);
  static Generation* new_generation(size_t capacity);
  void free_generation(Generation* generation);

  void remove_locked(const Thread* thread);
  void grow_if_needed();
  void publish(Generation* generation);
  void free_older_if_unused();
  Thread* find_by_key(bool by_id, intptr_t key) const;
};

#endif // SHARE_PRIMS_ASGSTTHREADTABLE_HPP
