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

#ifndef SHARE_PRIMS_ASGSTMETHODINFO_HPP
#define SHARE_PRIMS_ASGSTMETHODINFO_HPP

#include "memory/allStatic.hpp"
#include "profile.h"

class InstanceKlass;
class Method;

// Names, ids and line tables of ASGST_Method and ASGST_Class handles, read
// from metadata without allocating or locking, so that signal handlers and
// class-unload handlers can call them. Handles are checked before use: a
// garbage or null handle gives the documented "not available" answer.
class AsgstMethodInfo : AllStatic {
 public:
  // The handle as a method or class if it plausibly is one, else null.
  static Method* as_method(ASGST_Method method);
  static InstanceKlass* as_class(ASGST_Class klass);
  // The part of as_method that a stack walk needs before HotSpot's own
  // frame checks read a method: its const method and constant pool are
  // readable metadata. Cheaper than as_method.
  static bool has_readable_metadata(const Method* method);

  static void method_info(ASGST_Method method, ASGST_MethodInfo* info);
  static jint method_idnum(ASGST_Method method);
  static void class_info(ASGST_Class klass, ASGST_ClassInfo* info);
  static jlong class_idnum(ASGST_Class klass);
  static int line_number_table(ASGST_Method method, ASGST_MethodLineNumberEntry* entries, int length);

  // Hooks of class redefinition, at a safepoint: old_version holds the
  // methods current had before; it keeps current's id until it is freed.
  static void on_class_redefined(const InstanceKlass* current, const InstanceKlass* old_version);
  static void on_old_version_freed(const InstanceKlass* old_version);

 private:
  // Old versions of redefined classes and the ids of their current classes:
  // open addressing, written at safepoints, read without a lock.
  static const int old_versions_capacity = 1024;
  struct OldVersion {
    const InstanceKlass* volatile klass;  // null: empty; tombstone: removed
    volatile jlong idnum;
  };
  static OldVersion _old_versions[old_versions_capacity];

  static jlong class_idnum(const InstanceKlass* klass);
  static jlong own_idnum(const InstanceKlass* klass);
  static OldVersion* find_old_version(const InstanceKlass* klass);
};

#endif // SHARE_PRIMS_ASGSTMETHODINFO_HPP
