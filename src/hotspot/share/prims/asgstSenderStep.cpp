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

// blob_of, for every CPU. On CPUs whose frames AsgstSenderStep does not
// know, every step is left to frame::safe_for_sender and frame::sender. A CPU
// that knows them implements the steps in cpu/<cpu>/asgstSenderStep_<cpu>.cpp
// instead (x86_64, aarch64).

#include "code/codeCache.hpp"
#include "code/nmethod.inline.hpp"
#include "interpreter/interpreter.hpp"
#include "oops/constantPool.hpp"
#include "oops/method.hpp"
#include "prims/asgstCheckedMethods.hpp"
#include "prims/asgstMethodInfo.hpp"
#include "prims/asgstReturnSites.hpp"
#include "prims/asgstSenderStep.hpp"
#include "runtime/atomic.hpp"
#include "runtime/frame.inline.hpp"
#include "runtime/safefetch.hpp"

CodeBlob* volatile AsgstSenderStep::_interpreter_blob = nullptr;

// The interpreter is one blob, made at startup and never freed: looked up
// once (several threads may look it up at once, with the same result).
CodeBlob* AsgstSenderStep::blob_of(address pc, AsgstSeenLast* seen) {
  CodeBlob* last = seen->blob;
  if (last != nullptr && last->code_contains(pc)) {
    return last;
  }
  CodeBlob* cb;
  if (Interpreter::contains(pc)) {
    cb = Atomic::load_acquire(&_interpreter_blob);
    if (cb == nullptr) {
      cb = CodeCache::find_blob(pc);
      Atomic::release_store(&_interpreter_blob, cb);
    }
  } else if (seen->scopes != nullptr &&
             AsgstReturnSites::find(AsgstReturnSites::return_address, pc, seen->code_epoch, seen->scopes)) {
    cb = seen->scopes->nm;
  } else {
    cb = CodeCache::find_blob(pc);
  }
  if (cb != nullptr) {
    seen->blob = cb;
  }
  return cb;
}

bool AsgstSenderStep::is_checked_method(Method* m, uint64_t epoch) {
  if (AsgstCheckedMethods::contains(m, epoch)) {
    return true;
  }
  if (!AsgstMethodInfo::has_readable_metadata(m)) {
    return false;
  }
  AsgstCheckedMethods::add(m, epoch);
  return true;
}

bool AsgstSenderStep::is_valid_cache_of(Method* m, ConstantPoolCache* cache) {
  return cache == m->constants()->cache() || MetaspaceObj::is_valid(cache);
}

int AsgstSenderStep::checked_frame_size(nmethod* nm, address pc) {
  Method* m = nm->method();
  // C1 and C2 make no native wrapper or intrinsic: their code needs no look at the Method's flags.
  bool by_c1_or_c2 = nm->is_compiled_by_c1() || nm->is_compiled_by_c2();
  bool checked = nm->code_contains(pc) && nm->is_frame_complete_at(pc) && !nm->is_deopt_entry(pc) &&
                 !nm->is_deopt_mh_entry(pc) && nm->frame_size() > 0 && m != nullptr &&
                 (by_c1_or_c2 || (!m->is_native() && !m->is_method_handle_intrinsic()));
  return checked ? nm->frame_size() : 0;
}

#if !defined(AMD64) && !defined(AARCH64)

bool AsgstSenderStep::java_caller(JavaThread* thread, const frame& f, AsgstSeenLast* seen, frame* caller,
                                  bool* caller_checked) {
  return false;
}

// Nothing known: the step relies on frame::safe_for_sender, as
// AsyncGetCallTrace does.
bool AsgstSenderStep::sender_reads_checked_words(const frame& f) {
  return true;
}

bool AsgstSenderStep::is_valid_interpreted_frame(JavaThread* thread, const frame& f, AsgstSeenLast* seen) {
  // is_interpreted_frame_valid trusts a method with the right vtable
  // pointer, which a freed method may still have: check it deeper first.
  return AsgstMethodInfo::has_readable_metadata((Method*)SafeFetchN(f.fp() + frame::interpreter_frame_method_offset, 0)) &&
         f.is_interpreted_frame_valid(thread);
}

#endif // !AMD64 && !AARCH64
