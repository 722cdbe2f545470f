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

#include "oops/array.hpp"
#include "oops/instanceKlass.hpp"
#include "prims/asgstClassUnloading.hpp"
#include "prims/asgstMethodInfo.hpp"
#include "runtime/os.hpp"
#include "runtime/thread.hpp"

AsgstClassUnloading::Slot AsgstClassUnloading::_slots[AsgstClassUnloading::max_handlers];
volatile int AsgstClassUnloading::_handler_count = 0;
volatile int AsgstClassUnloading::_lock = 0;

bool AsgstClassUnloading::register_handler(ASGST_ClassUnloadHandler handler, void* arg) {
  if (handler == nullptr) {
    return false;
  }
  bool registered = false;
  Thread::SpinAcquire(&_lock);
  for (int i = 0; i < max_handlers && !registered; i++) {
    Slot& slot = _slots[i];
    // A slot is reused only when no call that saw its last handler remains.
    if (slot.handler == nullptr && Atomic::load_acquire(&slot.in_flight) == 0) {
      Atomic::store(&slot.arg, arg);
      Atomic::release_store(&slot.handler, handler);
      Atomic::inc(&_handler_count);
      registered = true;
    }
  }
  Thread::SpinRelease(&_lock);
  return registered;
}

bool AsgstClassUnloading::deregister_handler(ASGST_ClassUnloadHandler handler, void* arg) {
  Slot* found = nullptr;
  Thread::SpinAcquire(&_lock);
  for (int i = 0; i < max_handlers && found == nullptr; i++) {
    Slot& slot = _slots[i];
    if (slot.handler == handler && slot.arg == arg && handler != nullptr) {
      Atomic::release_store_fence(&slot.handler, (ASGST_ClassUnloadHandler)nullptr);
      Atomic::dec(&_handler_count);
      found = &slot;
    }
  }
  Thread::SpinRelease(&_lock);
  if (found == nullptr) {
    return false;
  }
  // Calls that started before the slot was cleared may still run it.
  while (Atomic::load_acquire(&found->in_flight) != 0) {
    os::naked_yield();
  }
  return true;
}

void AsgstClassUnloading::notify(InstanceKlass* klass, bool redefined) {
  Array<Method*>* methods = klass->methods();
  ASGST_Method* method_handles = methods == nullptr ? nullptr : (ASGST_Method*)methods->data();
  int count = methods == nullptr ? 0 : methods->length();
  for (int i = 0; i < max_handlers; i++) {
    Slot& slot = _slots[i];
    if (Atomic::load(&slot.handler) == nullptr) {
      continue;
    }
    Atomic::inc(&slot.in_flight);  // a full fence: the handler is read after it
    ASGST_ClassUnloadHandler handler = Atomic::load_acquire(&slot.handler);
    if (handler != nullptr) {
      handler((ASGST_Class)klass, method_handles, count, redefined, Atomic::load(&slot.arg));
    }
    Atomic::dec(&slot.in_flight);
  }
}

// The class, then the old versions still linked to it, which are freed with it.
void AsgstClassUnloading::notify_unloaded(InstanceKlass* klass) {
  notify(klass, false);
  for (InstanceKlass* old = klass->previous_versions(); old != nullptr; old = old->previous_versions()) {
    notify(old, true);
  }
}

void AsgstClassUnloading::on_class_redefined(InstanceKlass* current, InstanceKlass* old_version) {
  AsgstMethodInfo::on_class_redefined(current, old_version);
}

void AsgstClassUnloading::forget_old_version(InstanceKlass* old_version) {
  AsgstReturnSites::invalidate();  // its methods may be named in both
  AsgstCheckedMethods::invalidate();
  AsgstMethodInfo::on_old_version_freed(old_version);
}
