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

#ifndef SHARE_PRIMS_ASGSTCHECKEDMETHODS_HPP
#define SHARE_PRIMS_ASGSTCHECKEDMETHODS_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

class Method;

// Methods of interpreted frames that a walk found valid
// (AsgstSenderStep::is_checked_method), kept for later walks: an interpreted
// frame whose method a walk checked before need not search metaspace again.
// Lock-free and allocation-free, read and written in signal handlers (a
// sequence count per entry; a torn or busy entry is a miss, a write that
// finds its entry busy is dropped).
//
// Validity: an entry is used only by walks that read the same epoch as the
// walk that wrote it. The epoch moves before any class is unloaded and
// before any metadata that a class loader let go is freed (old versions of
// redefined classes, replaced methods: ClassLoaderData's deallocate list),
// so a walk that starts after that never finds a method freed since.
class AsgstCheckedMethods : AllStatic {
 public:
  // Read once at a walk's start; every contains and add of the walk passes it.
  static uint64_t epoch();
  // Whether a walk of epoch found m valid.
  static bool contains(const Method* m, uint64_t epoch);
  // Keeps m, found valid by a walk of epoch.
  static void add(const Method* m, uint64_t epoch);
  // Class unloading and the deallocate lists, before the memory goes.
  static void invalidate();

  // Number of entries, a power of two.
  static const int entry_count = 1024;

 private:
  struct Entry;
  static Entry* entry_for(const Method* m);
  static volatile uint64_t _epoch;
};

#endif // SHARE_PRIMS_ASGSTCHECKEDMETHODS_HPP
