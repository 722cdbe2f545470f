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

#include "jvm_constants.h"
#include "memory/metaspace.hpp"
#include "oops/annotations.hpp"
#include "oops/constantPool.hpp"
#include "oops/constMethod.hpp"
#include "oops/instanceKlass.hpp"
#include "oops/method.hpp"
#include "oops/symbol.hpp"
#include "prims/asgstMethodInfo.hpp"
#include "runtime/atomic.hpp"
#include "runtime/os.hpp"
#include "runtime/safepoint.hpp"
#include "utilities/align.hpp"
#if INCLUDE_JFR
#include "jfr/recorder/checkpoint/types/traceid/jfrTraceIdMacros.hpp"
#endif

// A pointer that may be read as metadata: aligned, readable, in metaspace.
static bool is_metadata_address(const void* p, size_t size) {
  return p != nullptr && is_aligned(p, sizeof(MetaWord)) && (size_t)p >= os::min_page_size() &&
         os::is_readable_range(p, (const char*)p + size) && Metaspace::contains(p);
}

// Klass::is_valid walks the class loader data graph under a lock; this check
// stays with what a signal handler may do. Its last test is the strong one:
// a class's constant pool names the class as its holder, which memory that
// merely looks like a class does not.
// The kind field alone: Klass::is_instance_klass and InstanceKlass::cast also
// make a virtual call in debug builds, which a garbage handle must not reach.
static bool has_instance_kind(Klass* k) {
  return k->kind() <= Klass::InstanceStackChunkKlassKind;
}

InstanceKlass* AsgstMethodInfo::as_class(ASGST_Class klass) {
  Klass* k = (Klass*)klass;
  if (!is_metadata_address(k, sizeof(Klass)) || !has_instance_kind(k) ||
      !os::is_readable_range(k, (InstanceKlass*)k + 1) || !Symbol::is_valid(k->name())) {
    return nullptr;
  }
  InstanceKlass* ik = static_cast<InstanceKlass*>(k);
  ConstantPool* cp = ik->constants();
  if (!is_metadata_address(cp, sizeof(ConstantPool))) {
    return nullptr;
  }
  InstanceKlass* holder = cp->pool_holder();
  if (holder == ik) {
    return ik;
  }
  // An old version of a redefined class keeps the old constant pool, whose
  // holder stays the class itself (see VM_RedefineClasses).
  if (ik->is_scratch_class() && is_metadata_address(holder, sizeof(InstanceKlass)) && has_instance_kind(holder) &&
      is_metadata_address(holder->constants(), sizeof(ConstantPool)) &&
      holder->constants()->pool_holder() == holder && holder->name() == ik->name()) {
    return ik;
  }
  return nullptr;
}

bool AsgstMethodInfo::has_readable_metadata(const Method* m) {
  if (!Method::is_valid_method(m)) {
    return false;
  }
  ConstMethod* cm = m->constMethod();
  return is_metadata_address(cm, sizeof(ConstMethod)) && is_metadata_address(cm->constants(), sizeof(ConstantPool));
}

// Method::is_valid_method checks the C++ vtable pointer, which the memory of
// a freed method may still hold; the method's own metadata must lead to a
// valid class (for an old method of a redefined class, that class holds a
// newer constant pool than the method's).
Method* AsgstMethodInfo::as_method(ASGST_Method method) {
  Method* m = (Method*)method;
  if (!Method::is_valid_method(m)) {
    return nullptr;
  }
  ConstMethod* cm = m->constMethod();
  if (!is_metadata_address(cm, sizeof(ConstMethod))) {
    return nullptr;
  }
  ConstantPool* cp = cm->constants();
  if (!is_metadata_address(cp, sizeof(ConstantPool))) {
    return nullptr;
  }
  return as_class((ASGST_Class)cp->pool_holder()) != nullptr ? m : nullptr;
}

// The generic signature of a checked class, with its index checked too.
static Symbol* generic_signature_of(InstanceKlass* k) {
  u2 index = k->generic_signature_index();
  ConstantPool* cp = k->constants();
  if (index == 0 || index >= cp->length()) {
    return nullptr;
  }
  Symbol* symbol = cp->symbol_at(index);
  return Symbol::is_valid(symbol) ? symbol : nullptr;
}

// A string output: the buffer (null skips it) and, in, its size, out, the
// string's full length. Copies at most size - 1 bytes and a terminating NUL.
class AsgstStringOut : public StackObj {
  char* const _buffer;
  const jint _size;
  jint _length;
 public:
  AsgstStringOut(char* buffer, jint size) : _buffer(buffer), _size(size), _length(0) {}
  void append(const char* text, int length) {
    for (int i = 0; i < length; i++) {
      if (_buffer != nullptr && _length + 1 < _size) {
        _buffer[_length] = text[i];
      }
      _length++;
    }
  }
  void append(char c) { append(&c, 1); }
  void append(const Symbol* symbol) { append((const char*)symbol->base(), symbol->utf8_length()); }
  // Terminates the buffer and returns the full length.
  jint finish() {
    if (_buffer != nullptr && _size > 0) {
      _buffer[MIN2(_length, _size - 1)] = '\0';
    }
    return _length;
  }
};

static void store_symbol(const Symbol* symbol, char** buffer, jint* length) {
  if (symbol == nullptr) {
    *buffer = nullptr;  // not available
    *length = 0;
    return;
  }
  AsgstStringOut out(*buffer, *length);
  out.append(symbol);
  *length = out.finish();
}

void AsgstMethodInfo::method_info(ASGST_Method method, ASGST_MethodInfo* info) {
  if (info == nullptr) {
    return;
  }
  Method* m = as_method(method);
  if (m == nullptr) {
    info->klass = nullptr;
    store_symbol(nullptr, &info->method_name, &info->method_name_length);
    store_symbol(nullptr, &info->signature, &info->signature_length);
    store_symbol(nullptr, &info->generic_signature, &info->generic_signature_length);
    info->modifiers = 0;
    info->idnum = -1;
    info->class_idnum = -1;
    return;
  }
  InstanceKlass* holder = m->method_holder();
  info->klass = (ASGST_Class)holder;
  store_symbol(m->name(), &info->method_name, &info->method_name_length);
  store_symbol(m->signature(), &info->signature, &info->signature_length);
  store_symbol(m->generic_signature(), &info->generic_signature, &info->generic_signature_length);
  info->modifiers = m->access_flags().as_method_flags();  // as JVMTI GetMethodModifiers
  info->idnum = m->orig_method_idnum();
  info->class_idnum = class_idnum(holder);
}

jint AsgstMethodInfo::method_idnum(ASGST_Method method) {
  Method* m = as_method(method);
  return m == nullptr ? -1 : m->orig_method_idnum();
}

void AsgstMethodInfo::class_info(ASGST_Class klass, ASGST_ClassInfo* info) {
  if (info == nullptr) {
    return;
  }
  InstanceKlass* k = as_class(klass);
  if (k == nullptr) {
    store_symbol(nullptr, &info->class_name, &info->class_name_length);
    store_symbol(nullptr, &info->generic_class_name, &info->generic_class_name_length);
    info->modifiers = 0;
    info->idnum = -1;
    return;
  }
  // The form of JVMTI GetClassSignature: "Lpkg/Name;", and for a hidden
  // class the last '+' of its name shown as '.'.
  const Symbol* name = k->name();
  const char* text = (const char*)name->base();
  int length = name->utf8_length();
  int hidden_plus = -1;
  if (k->is_hidden()) {
    for (int i = length - 1; i >= 0; i--) {
      if (text[i] == '+') {
        hidden_plus = i;
        break;
      }
    }
  }
  AsgstStringOut out(info->class_name, info->class_name_length);
  out.append(JVM_SIGNATURE_CLASS);
  if (hidden_plus >= 0) {
    out.append(text, hidden_plus);
    out.append(JVM_SIGNATURE_DOT);
    out.append(text + hidden_plus + 1, length - hidden_plus - 1);
  } else {
    out.append(text, length);
  }
  out.append(JVM_SIGNATURE_ENDCLASS);
  info->class_name_length = out.finish();
  store_symbol(generic_signature_of(k), &info->generic_class_name, &info->generic_class_name_length);
  // As JVMTI GetClassModifiers, which adds back the ACC_SUPER bit that
  // compute_modifier_flags drops.
  info->modifiers = k->compute_modifier_flags() | JVM_ACC_SUPER;
  info->idnum = class_idnum(k);
}

jlong AsgstMethodInfo::class_idnum(ASGST_Class klass) {
  InstanceKlass* k = as_class(klass);
  return k == nullptr ? -1 : class_idnum(k);
}

// JFR's trace id: unique for the VM's life, and kept by class redefinition,
// which swaps the methods of a class but keeps the class itself.
jlong AsgstMethodInfo::own_idnum(const InstanceKlass* klass) {
#if INCLUDE_JFR
  return (jlong)(klass->trace_id() >> TRACE_ID_SHIFT);
#else
  return (jlong)(uintptr_t)klass;
#endif
}

// The old version of a redefined class answers with the id of the class.
jlong AsgstMethodInfo::class_idnum(const InstanceKlass* klass) {
  if (klass->is_scratch_class()) {
    OldVersion* entry = find_old_version(klass);
    if (entry != nullptr) {
      return Atomic::load(&entry->idnum);
    }
  }
  return own_idnum(klass);
}

AsgstMethodInfo::OldVersion AsgstMethodInfo::_old_versions[AsgstMethodInfo::old_versions_capacity];

static const InstanceKlass* const removed_old_version = (const InstanceKlass*)(uintptr_t)1;

static int old_version_hash(const InstanceKlass* klass, int capacity) {
  return (int)(((uintptr_t)klass >> 3) * UCONST64(0x9E3779B97F4A7C15) >> 40) & (capacity - 1);
}

AsgstMethodInfo::OldVersion* AsgstMethodInfo::find_old_version(const InstanceKlass* klass) {
  int i = old_version_hash(klass, old_versions_capacity);
  for (int n = 0; n < old_versions_capacity; n++, i = (i + 1) & (old_versions_capacity - 1)) {
    const InstanceKlass* k = Atomic::load_acquire(&_old_versions[i].klass);
    if (k == klass) {
      return &_old_versions[i];
    }
    if (k == nullptr) {
      return nullptr;
    }
  }
  return nullptr;
}

void AsgstMethodInfo::on_class_redefined(const InstanceKlass* current, const InstanceKlass* old_version) {
  assert(SafepointSynchronize::is_at_safepoint(), "redefinition runs at a safepoint");
  int i = old_version_hash(old_version, old_versions_capacity);
  for (int n = 0; n < old_versions_capacity; n++, i = (i + 1) & (old_versions_capacity - 1)) {
    const InstanceKlass* k = _old_versions[i].klass;
    if (k == nullptr || k == removed_old_version) {
      Atomic::store(&_old_versions[i].idnum, own_idnum(current));
      Atomic::release_store(&_old_versions[i].klass, old_version);
      return;
    }
  }
  // Full: the old version keeps an id of its own (doc/methods-and-classes.md).
}

void AsgstMethodInfo::on_old_version_freed(const InstanceKlass* old_version) {
  OldVersion* entry = find_old_version(old_version);
  if (entry != nullptr) {
    Atomic::release_store(&entry->klass, removed_old_version);
  }
}

int AsgstMethodInfo::line_number_table(ASGST_Method method, ASGST_MethodLineNumberEntry* entries, int length) {
  Method* m = as_method(method);
  if (m == nullptr) {
    return ASGST_INVALID_ARGUMENT;
  }
  if (entries == nullptr || length <= 0 || !m->has_linenumber_table()) {
    return 0;
  }
  int count = 0;
  CompressedLineNumberReadStream stream(m->compressed_linenumber_table());
  while (count < length && stream.read_pair()) {
    entries[count].start_bci = stream.bci();
    entries[count].line_number = stream.line();
    count++;
  }
  return count;
}
