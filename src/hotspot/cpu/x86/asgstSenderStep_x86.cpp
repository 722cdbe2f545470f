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

#include "code/nmethod.inline.hpp"
#include "interpreter/interpreter.hpp"
#include "memory/allocation.hpp"
#include "oops/method.hpp"
#include "prims/asgstSenderStep.hpp"
#include "runtime/continuation.hpp"
#include "runtime/frame.inline.hpp"
#include "runtime/javaThread.hpp"
#include "runtime/safefetch.hpp"
#include "runtime/stubRoutines.hpp"
#include "utilities/align.hpp"

// The checks of frame::safe_for_sender (frame_x86.cpp) on f itself, for an
// interpreted frame or a compiled Java method's.
static bool is_walkable_java_frame(JavaThread* thread, const frame& f, bool interpreted, int kept_frame_size) {
  if (f.is_heap_frame()) {
    return false;  // its sp and fp are offsets in a stack chunk
  }
  address sp = (address)f.sp();
  address fp = (address)f.fp();
  if (!thread->is_in_usable_stack(sp) ||
      !thread->is_in_stack_range_incl((address)f.unextended_sp(), sp - Interpreter::stackElementSize)) {
    return false;
  }
  if (kept_frame_size > 0) {
    return true;  // its code was checked at f's pc (AsgstSenderStep::checked_frame_size)
  }
  CodeBlob* cb = f.cb();
  if (cb == nullptr || !cb->code_contains(f.pc())) {
    return false;
  }
  if (interpreted) {
    // Its caller is read from fp: fp must lie on the stack, above sp.
    return thread->is_in_stack_range_excl(fp, sp) &&
           thread->is_in_full_stack_checked(fp + frame::return_addr_offset * wordSize);
  }
  nmethod* nm = cb->as_nmethod_or_null();
  // C1 and C2 make no native wrapper: their code needs no look at the Method's flags.
  return nm != nullptr && (nm->is_compiled_by_c1() || nm->is_compiled_by_c2() || !nm->is_native_method()) &&
         nm->is_frame_complete_at(f.pc()) && nm->frame_size() > 0;
}

// frame::is_interpreted_frame_valid (frame_x86.cpp) for the interpreted frame
// at sp and fp, fp on the stack above sp, with the checks of its method, bcp
// and constant pool cache left out where seen has them.
static bool is_valid_interpreted_caller(JavaThread* thread, intptr_t* sp, intptr_t* unextended_sp, intptr_t* fp,
                                        AsgstSeenLast* seen) {
  if (!is_aligned(fp, wordSize) || !is_aligned(sp, wordSize) || fp + frame::interpreter_frame_initial_sp_offset < sp) {
    return false;
  }
  Method* m = (Method*)SafeFetchN(fp + frame::interpreter_frame_method_offset, 0);
  if (m == nullptr || m != seen->method) {  // seen starts zeroed: null is never known valid
    if (!AsgstSenderStep::is_checked_method(m, seen->method_epoch)) {
      return false;
    }
    seen->method = m;
    seen->bcp = nullptr;
  }
  // A frame is not much larger than its method's expression stack.
  if (fp - unextended_sp > 1024 + m->max_stack() * Interpreter::stackElementSize) {
    return false;
  }
  address bcp = (address)fp[frame::interpreter_frame_bcp_offset];
  if (bcp != seen->bcp || bcp == nullptr) {
    int bci = m->validate_bci_from_bcp(bcp);
    if (bci < 0) {
      return false;
    }
    seen->bcp = bcp;
    seen->bci = bci;
  }
  ConstantPoolCache* cache = (ConstantPoolCache*)fp[frame::interpreter_frame_cache_offset];
  if (cache == nullptr || cache != seen->cache) {
    if (!AsgstSenderStep::is_valid_cache_of(m, cache)) {
      return false;
    }
    seen->cache = cache;
  }
  intptr_t* locals = fp + fp[frame::interpreter_frame_locals_offset];  // kept relative to fp
  return thread->is_in_stack_range_incl((address)locals, (address)fp);
}

bool AsgstSenderStep::is_valid_interpreted_frame(JavaThread* thread, const frame& f, AsgstSeenLast* seen) {
  return is_valid_interpreted_caller(thread, f.sp(), f.unextended_sp(), f.fp(), seen);
}

bool AsgstSenderStep::java_caller(JavaThread* thread, const frame& f, AsgstSeenLast* seen, frame* caller,
                                  bool* caller_checked) {
  bool interpreted = f.is_interpreted_frame();
  int kept_frame_size = interpreted ? 0 : AsgstSenderStep::kept_frame_size(seen, f.cb(), f.pc());
  if (!is_walkable_java_frame(thread, f, interpreted, kept_frame_size)) {
    return false;
  }
  intptr_t* sender_sp;
  intptr_t* sender_unextended_sp;
  if (interpreted) {
    // A c2i adapter may have extended the caller's sp; the frame keeps the caller's own.
    sender_sp = f.fp() + frame::sender_sp_offset;
    sender_unextended_sp = (intptr_t*)f.fp()[frame::interpreter_frame_sender_sp_offset];
  } else {
    sender_sp = f.unextended_sp() + (kept_frame_size > 0 ? kept_frame_size : f.cb()->frame_size());
    if (!thread->is_in_full_stack_checked((address)sender_sp)) {
      return false;
    }
    sender_unextended_sp = sender_sp;
  }
  // The return address and saved frame pointer lie just below the caller's sp.
  address sender_pc = (address)sender_sp[frame::return_addr_offset - frame::sender_sp_offset];
  intptr_t* saved_fp = (intptr_t*)sender_sp[frame::link_offset - frame::sender_sp_offset];
  if (sender_pc == nullptr || sender_pc == StubRoutines::cont_returnBarrier() ||
      StubRoutines::returns_to_call_stub(sender_pc)) {
    return false;  // the end of a continuation's frames, or of Java frames called from C
  }
  CodeBlob* cb = AsgstSenderStep::blob_of(sender_pc, seen);
  if (cb == nullptr) {
    return false;
  }
  if (Interpreter::contains(sender_pc)) {
    // The saved frame pointer is the caller's own only for an interpreted caller: check it.
    if (!thread->is_in_stack_range_excl((address)saved_fp, (address)sender_sp) ||
        !is_valid_interpreted_caller(thread, sender_sp, sender_unextended_sp, saved_fp, seen)) {
      return false;
    }
    *caller_checked = true;
  } else if (AsgstSenderStep::kept_frame_size(seen, cb, sender_pc) > 0) {
    *caller_checked = false;  // its code was checked at sender_pc when its scopes were kept
  } else {
    nmethod* nm = cb->as_nmethod_or_null();
    if (nm == nullptr || !nm->code_contains(sender_pc) || nm->is_deopt_entry(sender_pc) ||
        nm->is_deopt_mh_entry(sender_pc)) {
      return false;  // a deoptimized caller or a stub: safe_for_sender decides
    }
    if (nm != seen->java_nmethod) {
      // Method handle intrinsics are made as native wrappers are, never by C1 or C2.
      if (nm->frame_size() <= 0 || nm->method() == nullptr ||
          (!nm->is_compiled_by_c1() && !nm->is_compiled_by_c2() && nm->method()->is_method_handle_intrinsic())) {
        return false;
      }
      seen->java_nmethod = nm;
    }
    *caller_checked = false;
  }
  // Built in place: caller may be f.
  ::new ((void*)caller) frame(sender_sp, sender_unextended_sp, saved_fp, sender_pc, cb);
  return true;
}

// frame_x86's safe_for_sender and sender_for_compiled_frame both take the
// caller's sp from the frame's size and its return address unchanged.
bool AsgstSenderStep::sender_reads_checked_words(const frame& f) {
  return true;
}
