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

#ifndef SHARE_PRIMS_ASGSTCLASSUNLOADING_HPP
#define SHARE_PRIMS_ASGSTCLASSUNLOADING_HPP

#include "memory/allStatic.hpp"
#include "prims/asgstCheckedMethods.hpp"
#include "prims/asgstReturnSites.hpp"
#include "profile.h"
#include "runtime/atomic.hpp"

class InstanceKlass;

// The class-unload handlers of profile.h. The VM calls the hooks below just
// before the ids of a class and its methods become invalid: when the class
// is unloaded (by any collector, possibly concurrently on several threads),
// and when an old version of a redefined class is about to be freed.
class AsgstClassUnloading : AllStatic {
 public:
  // Not signal safe. At most max_handlers at once; more are refused (false).
  static bool register_handler(ASGST_ClassUnloadHandler handler, void* arg);
  // Removes one registration of (handler, arg) and waits until no call of
  // it is in flight. Returns whether it was registered.
  static bool deregister_handler(ASGST_ClassUnloadHandler handler, void* arg);

  // Hooks: a single load and branch while no handler is registered.
  static void on_class_unload(InstanceKlass* klass) {
    AsgstReturnSites::invalidate();  // its methods may be named in both
    AsgstCheckedMethods::invalidate();
    if (Atomic::load(&_handler_count) != 0) {
      notify_unloaded(klass);
    }
  }
  static void on_old_version_freed(InstanceKlass* old_version) {
    if (Atomic::load(&_handler_count) != 0) {
      notify(old_version, true);
    }
    forget_old_version(old_version);
  }
  // Redefinition made old_version out of current's methods.
  static void on_class_redefined(InstanceKlass* current, InstanceKlass* old_version);

  static const int max_handlers = 64;

 private:
  struct Slot {
    ASGST_ClassUnloadHandler volatile handler;  // null: free
    void* volatile arg;
    volatile int in_flight;                     // calls that may still use this slot
  };
  static Slot _slots[max_handlers];
  static volatile int _handler_count;
  static volatile int _lock;

  static void notify(InstanceKlass* klass, bool redefined);
  static void notify_unloaded(InstanceKlass* klass);
  static void forget_old_version(InstanceKlass* old_version);
};

#endif // SHARE_PRIMS_ASGSTCLASSUNLOADING_HPP
