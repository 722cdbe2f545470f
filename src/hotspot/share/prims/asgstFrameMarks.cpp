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

#include "code/nmethod.hpp"
#include "oops/method.inline.hpp"
#include "prims/asgstFrameEdges.hpp"
#include "prims/asgstFrameMarks.hpp"
#include "prims/asgstPollArm.hpp"
#include "runtime/atomic.hpp"
#include "runtime/frame.inline.hpp"
#include "runtime/javaThread.hpp"
#include "runtime/registerMap.hpp"
#include "runtime/safepointMechanism.inline.hpp"
#include "runtime/thread.hpp"

volatile int AsgstFrameMarks::_owners_lock = 0;
volatile int AsgstFrameMarks::_slot_owner[AsgstFrameMarks::slots] = {};
volatile uint32_t AsgstFrameMarks::_slot_generation[AsgstFrameMarks::slots] = {};

// Owners take a run of consecutive slot indexes; an owner's id is its first
// index + 1. Each registration and deregistration changes the generation
// of its slots, which kills the marks set before in every thread at once.
int AsgstFrameMarks::register_owner(int count) {
  if (count < 1 || count > slots) {
    return ASGST_INVALID_ARGUMENT;
  }
  if (!is_supported()) {
    return ASGST_MARK_REFUSED;
  }
  int owner = ASGST_NO_MARK_SLOT;
  Thread::SpinAcquire(&_owners_lock);
  for (int first = 0; first + count <= slots && owner < 0; first++) {
    bool free = true;
    for (int i = first; i < first + count; i++) {
      free = free && _slot_owner[i] == 0;
    }
    if (free) {
      owner = first + 1;
      for (int i = first; i < first + count; i++) {
        Atomic::inc(&_slot_generation[i]);
        Atomic::release_store(&_slot_owner[i], owner);
      }
    }
  }
  Thread::SpinRelease(&_owners_lock);
  return owner;
}

bool AsgstFrameMarks::deregister_owner(int owner) {
  bool found = false;
  Thread::SpinAcquire(&_owners_lock);
  for (int i = 0; i < slots; i++) {
    if (owner > 0 && _slot_owner[i] == owner) {
      Atomic::inc(&_slot_generation[i]);
      Atomic::release_store(&_slot_owner[i], 0);
      found = true;
    }
  }
  Thread::SpinRelease(&_owners_lock);
  return found;
}

bool AsgstFrameMarks::is_supported() {
  return AsgstFrameEdges::return_barrier_below((uintptr_t)1 << 20) != 0;
}

int AsgstFrameMarks::slot_index(int owner, int slot) {
  if (owner < 1 || owner > slots || slot < 0 || owner - 1 + slot >= slots) {
    return -1;
  }
  int index = owner - 1 + slot;
  return Atomic::load_acquire(&_slot_owner[index]) == owner ? index : -1;
}

// What identifies the activation's code besides its key: a frame at the same
// place running other code is another activation.
const void* AsgstFrameMarks::code_of(const frame& f) {
  return f.is_interpreted_frame() ? (const void*)f.interpreter_frame_method() : (const void*)f.cb();
}

bool AsgstFrameMarks::is_markable(const frame& f, bool is_top, bool callee_is_java) {
  if (is_top || f.is_heap_frame() || f.cb() == nullptr) {
    return false;
  }
  if (f.is_interpreted_frame()) {
    // An interpreted frame whose callee is no Java frame may be past its
    // return poll, in the interpreter's method exit notification.
    return callee_is_java && !f.interpreter_frame_method()->is_native();
  }
  nmethod* nm = f.cb()->as_nmethod_or_null();
  return nm != nullptr && nm->method() != nullptr && !nm->is_native_method() &&
         !nm->method()->is_method_handle_intrinsic() && !nm->method()->is_continuation_enter_intrinsic() &&
         (nm->is_compiled_by_c1() || nm->is_compiled_by_c2() || nm->is_compiled_by_jvmci());
}

int AsgstFrameMarks::request(JavaThread* thread, int owner, int slot, uint64_t cookie, const frame& f,
                             bool is_top, bool callee_is_java) {
  int index = slot_index(owner, slot);
  if (index < 0) {
    return ASGST_INVALID_ARGUMENT;
  }
  if (!is_markable(f, is_top, callee_is_java)) {
    return ASGST_MARK_REFUSED;
  }
  uintptr_t key = (uintptr_t)f.real_fp();  // not before: a frame in the heap has none
  if (!is_aligned(key, wordSize) || !thread->is_in_usable_stack((address)key) ||
      AsgstFrameEdges::return_barrier_below(key) == 0) {
    return ASGST_MARK_REFUSED;
  }
  AsgstThreadFrameMarks& marks = marks_of(thread);
  AsgstFrameMarkSlot& s = marks._slot[index];
  uint64_t old = Atomic::load_acquire(&s._control);
  if (state_of(old) == writing || Atomic::cmpxchg(&s._control, old, control(writing, old)) != old) {
    return ASGST_MARK_REFUSED;  // another walk is writing the slot
  }
  s._key = key;
  s._code = code_of(f);
  s._cookie = cookie;
  s._generation = Atomic::load_acquire(&_slot_generation[index]);
  Atomic::release_store(&s._control, control(requested, control(writing, old)));
  Atomic::fetch_then_or(&marks._pending, (uint32_t)1 << index);
  AsgstPollArm::arm(thread);
  return 0;
}

int AsgstFrameMarks::clear(JavaThread* thread, int owner, int slot) {
  int first = slot == -1 ? slot_index(owner, 0) : slot_index(owner, slot);
  if (first < 0) {
    return ASGST_INVALID_ARGUMENT;
  }
  AsgstThreadFrameMarks& marks = marks_of(thread);
  for (int index = first; index < slots && Atomic::load(&_slot_owner[index]) == owner; index++) {
    AsgstFrameMarkSlot& s = marks._slot[index];
    for (;;) {
      uint64_t old = Atomic::load_acquire(&s._control);
      if (state_of(old) == free_slot || state_of(old) == writing ||
          Atomic::cmpxchg(&s._control, old, control(free_slot, old)) == old) {
        break;
      }
    }
    if (slot != -1) {
      break;
    }
  }
  return 0;  // the thread lowers its barrier the next time it looks
}

bool AsgstFrameMarks::is_live(const AsgstFrameMarkSlot& s, int index, uint64_t control) {
  State state = state_of(control);
  return (state == requested || state == confirmed) &&
         s._generation == Atomic::load_acquire(&_slot_generation[index]);
}

bool AsgstFrameMarks::find(JavaThread* thread, int owner, const frame& f, ASGST_Mark* mark) {
  AsgstThreadFrameMarks& marks = marks_of(thread);
  uintptr_t key = (uintptr_t)f.real_fp();
  for (int index = owner - 1; index >= 0 && index < slots; index++) {
    if (Atomic::load_acquire(&_slot_owner[index]) != owner) {
      break;
    }
    AsgstFrameMarkSlot& s = marks._slot[index];
    uint64_t before = Atomic::load_acquire(&s._control);
    if (state_of(before) != confirmed || s._key != key) {
      continue;
    }
    const void* code = s._code;
    uint64_t cookie = s._cookie;
    bool live = is_live(s, index, before);
    OrderAccess::loadload();
    if (live && Atomic::load(&s._control) == before && code == code_of(f)) {
      mark->slot = index - (owner - 1);
      mark->cookie = cookie;
      return true;
    }
  }
  return false;
}

// The frames of the thread from the top, as HotSpot walks them (reading no
// oops: valid also before a collector processed them).
static RegisterMap map_without_processing(JavaThread* thread) {
  return RegisterMap(thread, RegisterMap::UpdateMap::skip, RegisterMap::ProcessFrames::skip,
                     RegisterMap::WalkContinuation::skip);
}

void AsgstFrameMarks::confirm_requests(JavaThread* thread) {
  AsgstThreadFrameMarks& marks = marks_of(thread);
  if (Atomic::xchg(&marks._pending, (uint32_t)0) == 0) {
    return;
  }
  // The requests as they are now; one that a signal handler makes while
  // this runs changes its slot's control word and waits for the next poll.
  uint64_t taken[slots];
  uintptr_t deepest = 0;
  for (int i = 0; i < slots; i++) {
    taken[i] = Atomic::load_acquire(&marks._slot[i]._control);
    if (state_of(taken[i]) == requested) {
      deepest = MAX2(deepest, marks._slot[i]._key);
    }
  }
  if (deepest != 0 && thread->has_last_Java_frame()) {
    RegisterMap map = map_without_processing(thread);
    bool callee_is_java = false;
    for (frame f = thread->last_frame(); ; f = f.sender(&map)) {
      bool java = f.is_java_frame();  // interpreted or compiled; no native wrapper
      if (java && (f.is_compiled_frame() || callee_is_java)) {
        for (int i = 0; i < slots; i++) {
          AsgstFrameMarkSlot& s = marks._slot[i];
          if (state_of(taken[i]) == requested && s._key == (uintptr_t)f.real_fp() && s._code == code_of(f) &&
              Atomic::cmpxchg(&s._control, taken[i], control(confirmed, taken[i])) == taken[i]) {
            taken[i] = 0;  // confirmed
          }
        }
      }
      callee_is_java = java;
      if (f.is_first_frame() || (uintptr_t)f.sp() > deepest) {
        break;
      }
    }
  }
  // A request whose frame is not on the stack any more (or never was) is dropped.
  for (int i = 0; i < slots; i++) {
    if (state_of(taken[i]) == requested) {
      Atomic::cmpxchg(&marks._slot[i]._control, taken[i], control(free_slot, taken[i]));
    }
  }
  update_barrier(thread);
}

void AsgstFrameMarks::frames_leaving(JavaThread* thread, bool after) {
  if (!thread->has_last_Java_frame()) {
    return;
  }
  // The Java frame at the top, below the stubs that the VM was entered through.
  RegisterMap map = map_without_processing(thread);
  frame f = thread->last_frame();
  for (int stubs = 0; stubs < max_stubs_on_top && !f.is_java_frame() && !f.is_native_frame() &&
                      !f.is_entry_frame() && !f.is_upcall_stub_frame() && !f.is_first_frame(); stubs++) {
    f = f.sender(&map);
  }
  // Before: the top frame and those below it whose real_fp() is not above
  // its own stay. After: every frame whose real_fp() is at or below the new
  // top frame's sp was left.
  frames_left(thread, after ? (uintptr_t)f.sp() : (uintptr_t)f.real_fp());
}

void AsgstFrameMarks::frames_left(JavaThread* thread, uintptr_t bound) {
  AsgstThreadFrameMarks& marks = marks_of(thread);
  for (int i = 0; i < slots; i++) {
    AsgstFrameMarkSlot& s = marks._slot[i];
    for (;;) {
      uint64_t old = Atomic::load_acquire(&s._control);
      State state = state_of(old);
      if ((state != requested && state != confirmed) || s._key > bound ||
          Atomic::cmpxchg(&s._control, old, control(free_slot, old)) == old) {
        break;
      }
    }
  }
  update_barrier(thread);
}

// Only the thread sets its barrier: the lowest of its confirmed marks'
// (the poll word takes it at the next SafepointMechanism::update_poll_values,
// which each hook's caller runs).
void AsgstFrameMarks::update_barrier(JavaThread* thread) {
  AsgstThreadFrameMarks& marks = marks_of(thread);
  uintptr_t limit = 0;
  for (int i = 0; i < slots; i++) {
    AsgstFrameMarkSlot& s = marks._slot[i];
    uint64_t control = Atomic::load_acquire(&s._control);
    if (state_of(control) == confirmed && is_live(s, i, control)) {
      uintptr_t barrier = AsgstFrameEdges::return_barrier_below(s._key);
      limit = limit == 0 ? barrier : MIN2(limit, barrier);
    }
  }
  Atomic::release_store(&marks._limit, limit);
}
