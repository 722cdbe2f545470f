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
 */

#include "code/codeCache.hpp"
#include "code/debugInfo.hpp"
#include "code/debugInfoRec.hpp"
#include "code/nmethod.hpp"
#include "code/pcDesc.hpp"
#include "oops/method.hpp"
#include "prims/asgstStackWalker.hpp"
#include "runtime/continuation.hpp"
#include "runtime/continuationEntry.hpp"
#include "runtime/frame.inline.hpp"
#include "runtime/javaCalls.hpp"
#include "runtime/javaThread.inline.hpp"
#include "runtime/os.hpp"
#include "runtime/registerMap.hpp"
#include "runtime/safefetch.hpp"
#include "utilities/align.hpp"

static const int no_scope = DebugInformationRecorder::serialized_null;

AsgstStackWalker::AsgstStackWalker(JavaThread* thread, int options) :
  _thread(thread), _options(options), _top(), _frame(), _frame_visited(false),
  _nm(nullptr), _scope_offset(no_scope), _physical_frames(0), _state(ASGST_NO_FRAME) {}

int AsgstStackWalker::start(void* ucontext) {
  if (_thread->is_exiting()) {
    return ASGST_THREAD_EXIT;
  }
  switch (_thread->thread_state()) {
    case _thread_in_native:
    case _thread_in_native_trans:
    case _thread_in_vm:
    case _thread_in_vm_trans:
    case _thread_blocked:
    case _thread_blocked_trans: {
      // Out of Java code: the last Java frame anchor tells where Java frames begin.
      JavaFrameAnchor* anchor = _thread->frame_anchor();
      if (!_thread->has_last_Java_frame() ||
          !frame_from_anchor(anchor->last_Java_sp(), anchor->last_Java_fp(),
                             anchor->last_Java_pc(), &_top)) {
        return ASGST_NO_TOP_JAVA_FRAME;
      }
      break;
    }
    case _thread_in_Java:
    case _thread_in_Java_trans: {
      // In Java code (or a stub it called): only the context knows the top frame.
      intptr_t* sp = nullptr;
      intptr_t* fp = nullptr;
      address pc = ucontext == nullptr ? nullptr : os::fetch_frame_from_context(ucontext, &sp, &fp);
      if (pc == nullptr || sp == nullptr || !_thread->is_in_usable_stack((address)sp)) {
        return ASGST_NO_TOP_JAVA_FRAME;
      }
      frame top(sp, fp, pc);
      if (!top.safe_for_sender(_thread)) {
        // Compiled code may use the frame pointer register for anything.
        frame without_fp(sp, nullptr, pc);
        if (!without_fp.safe_for_sender(_thread)) {
          return ASGST_NO_TOP_JAVA_FRAME;
        }
        top = without_fp;
      }
      _top = top;
      break;
    }
    case _thread_new:
    case _thread_new_trans:
    case _thread_uninitialized:
      return ASGST_NO_TOP_JAVA_FRAME;
    default:
      return ASGST_UNSAFE_STATE;
  }
  rewind();
  return ASGST_JAVA_TRACE;
}

void AsgstStackWalker::rewind() {
  if (_top.pc() == nullptr) {
    return;  // start() found no frame: nothing to rewind to
  }
  _frame = _top;
  _frame_visited = false;
  _nm = nullptr;
  _scope_offset = no_scope;
  _physical_frames = 0;
  _state = 1;
}

// The frame of a last Java frame anchor, read without making the anchor
// walkable (that would write to the thread); a missing pc is the return
// address just below sp.
bool AsgstStackWalker::frame_from_anchor(intptr_t* sp, intptr_t* fp, address pc, frame* result) const {
  if (sp == nullptr || !_thread->is_in_full_stack((address)sp) ||
      !_thread->is_in_full_stack((address)(sp - 1))) {
    return false;
  }
  if (pc == nullptr) {
    pc = (address)SafeFetchN(sp - 1, 0);
    if (pc == nullptr) {
      return false;
    }
  }
  *result = frame(sp, fp, pc);
  return true;
}

int AsgstStackWalker::next(ASGST_Frame* out) {
  while (_state == 1) {
    if (_scope_offset != no_scope) {
      if (report_scope(out)) {
        return 1;
      }
      continue;  // report_scope failed the walk
    }
    if (!_frame_visited) {
      _frame_visited = true;
      if (report(_frame, out)) {
        return 1;
      }
      if (_state != 1) {
        break;
      }
    }
    if (step_to_sender()) {
      _frame_visited = false;
    }
  }
  return _state;
}

// Reports f if it is a Java frame; compiled frames start with their innermost scope.
bool AsgstStackWalker::report(const frame& f, ASGST_Frame* out) {
  if (f.is_interpreted_frame()) {
    return report_interpreted(f, out);
  }
  nmethod* nm = f.cb() == nullptr ? nullptr : f.cb()->as_nmethod_or_null();
  if (nm == nullptr || nm->method() == nullptr) {
    return false;  // a stub, adapter or runtime blob: not a Java frame
  }
  if (Continuation::is_continuation_enterSpecial(f)) {
    return false;  // the boundary of a continuation, not a frame of the program
  }
  if (nm->is_native_method()) {
    out->type = ASGST_FRAME_JAVA_NATIVE;
    out->comp_level = -1;
    out->bci = -1;
    out->method = (ASGST_Method)nm->method();
  } else {
    // A return address has an exact PcDesc; an interrupted pc at the top
    // takes the next one, as the debug info is recorded after the call.
    PcDesc* desc = nm->pc_desc_at(f.pc());
    if (desc == nullptr && _physical_frames == 0) {
      desc = nm->pc_desc_near(f.pc() + 1);
    }
    int offset = desc == nullptr ? no_scope : desc->scope_decode_offset();
    if (offset != no_scope) {
      _nm = nm;
      _scope_offset = offset;
      return report_scope(out);
    }
    // Without debug info the method is known, the position is not.
    out->type = ASGST_FRAME_JAVA;
    out->comp_level = nm->comp_level();
    out->bci = -1;
    out->method = (ASGST_Method)nm->method();
  }
  out->pc = f.pc();
  out->sp = f.sp();
  out->fp = f.fp();
  return true;
}

bool AsgstStackWalker::report_interpreted(const frame& f, ASGST_Frame* out) const {
  // is_interpreted_frame_valid reads below fp without checking it: check fp
  // first. It then validates the method (through SafeFetch) and the bcp, so
  // both can be read directly afterwards.
  intptr_t* fp = f.fp();
  if (fp == nullptr || !is_aligned(fp, wordSize) || !_thread->is_in_full_stack((address)fp) ||
      !_thread->is_in_full_stack((address)(fp + frame::interpreter_frame_initial_sp_offset)) ||
      !f.is_interpreted_frame_valid(_thread)) {
    return false;
  }
  Method* method = f.interpreter_frame_method();
  bool is_native = method->is_native();
  out->type = is_native ? ASGST_FRAME_JAVA_NATIVE : ASGST_FRAME_JAVA;
  out->comp_level = is_native ? -1 : 0;
  out->bci = is_native ? -1 : method->validate_bci_from_bcp(f.interpreter_frame_bcp());
  out->method = (ASGST_Method)method;
  out->pc = f.pc();
  out->sp = f.sp();
  out->fp = fp;
  return true;
}

// Reports the scope at _scope_offset of the current compiled frame and moves to
// its caller scope. All but the outermost scope are inlined.
bool AsgstStackWalker::report_scope(ASGST_Frame* out) {
  int offset = _scope_offset;
  if (offset <= 0 || offset >= _nm->scopes_data_size()) {
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  DebugInfoReadStream stream(_nm, offset);
  int sender_offset = stream.read_int();
  Method* method = stream.read_method();
  int bci = stream.read_bci();
  _scope_offset = sender_offset;
  out->type = sender_offset == no_scope ? ASGST_FRAME_JAVA : ASGST_FRAME_JAVA_INLINED;
  out->comp_level = _nm->comp_level();
  out->bci = bci;
  out->method = (ASGST_Method)method;
  out->pc = _frame.pc();
  out->sp = _frame.sp();
  out->fp = _frame.fp();
  return true;
}

// Moves to the caller of the current physical frame; false when the walk ended.
bool AsgstStackWalker::step_to_sender() {
  if (++_physical_frames >= max_physical_frames) {
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  if (_frame.is_entry_frame()) {
    return step_over_entry_frame();
  }
  if (Continuation::is_continuation_enterSpecial(_frame)) {
    ContinuationEntry* entry = Continuation::get_continuation_entry_for_sp(_thread, _frame.sp());
    if (entry != nullptr && entry->is_virtual_thread() &&
        (_options & ASGST_INCLUDE_CARRIER_FRAMES) == 0) {
      stop(ASGST_NO_FRAME);  // a virtual thread's frames end here
      return false;
    }
  }
  if (_frame.is_upcall_stub_frame() || !_frame.safe_for_sender(_thread)) {
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  RegisterMap map(_thread,
                  RegisterMap::UpdateMap::skip,
                  RegisterMap::ProcessFrames::skip,
                  RegisterMap::WalkContinuation::skip);
  _frame = _frame.sender(&map);
  return true;
}

// A call stub: Java called from C. Its call wrapper holds the anchor of the
// Java frames that made the C call, or none at the bottom of the stack.
bool AsgstStackWalker::step_over_entry_frame() {
  JavaCallWrapper* wrapper = _frame.entry_frame_call_wrapper_if_safe(_thread);
  if (wrapper == nullptr || !_thread->is_in_full_stack((address)wrapper) ||
      !_thread->is_in_full_stack((address)(wrapper + 1) - 1)) {
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  JavaFrameAnchor* anchor = wrapper->anchor();
  intptr_t* sp = anchor->last_Java_sp();
  if (sp == nullptr) {
    stop(ASGST_NO_FRAME);  // the first frame of the thread
    return false;
  }
  frame caller;
  if (sp <= _frame.sp() || !frame_from_anchor(sp, anchor->last_Java_fp(), anchor->last_Java_pc(), &caller)) {
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  _frame = caller;
  return true;
}
