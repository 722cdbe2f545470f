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

#include "code/codeCache.hpp"
#include "code/nmethod.inline.hpp"
#include "interpreter/interpreter.hpp"
#include "oops/method.hpp"
#include "prims/asgstMethodInfo.hpp"
#include "prims/asgstQueueWalk.hpp"
#include "prims/asgstStackWalker.hpp"
#include "runtime/frame.inline.hpp"
#include "runtime/javaThread.inline.hpp"
#include "runtime/safefetch.hpp"
#include "runtime/sharedRuntime.hpp"

// Where the caller of a Java frame (which the walk already checked) waits:
// the return address, the caller's sp and the saved frame pointer, read with
// SafeFetch; null where unknown.
static void caller_of(const frame& f, AsgstRecordedFrame* recorded) {
  intptr_t* sender_sp = nullptr;
  if (f.is_interpreted_frame()) {
    sender_sp = f.fp() + frame::sender_sp_offset;
  } else if (f.cb() != nullptr && f.cb()->frame_size() > 0) {
    sender_sp = f.unextended_sp() + f.cb()->frame_size();
  }
  // A compiled caller's sp as it made the call: an adapter to an interpreted
  // callee extends the caller's frame, and the callee saved the sp before.
  recorded->caller_sp = f.is_interpreted_frame()
                            ? (intptr_t*)SafeFetchN(f.fp() + frame::interpreter_frame_sender_sp_offset, 0)
                            : sender_sp;
  // The return address and saved frame pointer lie just below the caller's sp.
  recorded->return_pc = sender_sp == nullptr ? nullptr
                            : AsgstFrameEdges::strip_return_address(
                                  (address)SafeFetchN(sender_sp + (frame::return_addr_offset - frame::sender_sp_offset), 0));
  recorded->caller_fp = sender_sp == nullptr ? nullptr
                            : (intptr_t*)SafeFetchN(sender_sp + (frame::link_offset - frame::sender_sp_offset), 0);
  recorded->caller_bcp = nullptr;
  if (recorded->caller_fp != nullptr && Interpreter::contains(recorded->return_pc)) {
    // The interpreter saves the bcp of the invoke in the caller's frame.
    recorded->caller_bcp = (address)SafeFetchN(recorded->caller_fp + frame::interpreter_frame_bcp_offset, 0);
  }
}

// Whether two return addresses name the same call site. Deoptimizing the
// caller patches its callee's return address to the caller's deoptimization
// handler, which is no call site: then the same nmethod is all that is known.
static bool same_return_pc(address a, address b) {
  if (a == b) {
    return true;
  }
  CodeBlob* cb = a == nullptr ? nullptr : CodeCache::find_blob(a);
  nmethod* nm = cb == nullptr ? nullptr : cb->as_nmethod_or_null();
  return nm != nullptr && nm->contains(b) && (nm->is_deopt_pc(a) || nm->is_deopt_pc(b));
}

// Whether a frame returns to the same caller as the recorded frame: the
// same call site (an interpreted caller's bcp), and an interpreted caller's
// fp or a compiled caller's sp. (A compiled caller's saved frame pointer may
// hold an oop that a collection moves: compiled code uses that register for
// anything.)
static bool same_caller(const AsgstRecordedFrame& now, const AsgstRecordedFrame& recorded) {
  if (!same_return_pc(now.return_pc, recorded.return_pc)) {
    return false;
  }
  return Interpreter::contains(recorded.return_pc)
             ? now.caller_fp == recorded.caller_fp && now.caller_bcp == recorded.caller_bcp
             : now.caller_sp == recorded.caller_sp;
}

// Whether f returns to the same caller as the recorded frame.
static bool returns_as_recorded(const frame& f, const AsgstRecordedFrame& recorded) {
  AsgstRecordedFrame now;
  caller_of(f, &now);
  return same_caller(now, recorded);
}

// Whether caller is the frame that the recorded frame was to return to (or
// one indistinguishable from it: the same call site at the same place). An
// interpreted caller is known by its fp: its sp is wherever the frame that
// is asked stands (an i2c adapter aligns it, for one).
static bool waits_as_recorded(const frame& caller, const AsgstRecordedFrame& recorded) {
  if (recorded.return_pc == nullptr || !same_return_pc(caller.pc(), recorded.return_pc)) {
    return false;
  }
  if (caller.is_interpreted_frame()) {
    return caller.fp() == recorded.caller_fp &&
           (address)SafeFetchN(caller.fp() + frame::interpreter_frame_bcp_offset, 0) == recorded.caller_bcp;
  }
  return caller.unextended_sp() == recorded.caller_sp;
}

// Whether f, an interpreted frame, stands for the recorded compiled frame:
// deoptimization replaced that frame by interpreted frames, the outermost of
// which returns to the same caller.
static bool replaces_recorded(const frame& f, const AsgstRecordedFrame& recorded) {
  return f.is_interpreted_frame() && recorded.return_pc != nullptr && returns_as_recorded(f, recorded);
}

// Whether f is the very frame that the recorded frame was to return to,
// wherever it stands now: an interpreted caller by its fp and a method that
// holds the recorded call site, a compiled one by its sp and the nmethod that
// holds the recorded return address.
static bool is_recorded_caller(const frame& f, const AsgstRecordedFrame& recorded) {
  if (recorded.return_pc == nullptr) {
    return false;
  }
  if (Interpreter::contains(recorded.return_pc)) {
    if (!f.is_interpreted_frame() || f.fp() != recorded.caller_fp || recorded.caller_bcp == nullptr) {
      return false;
    }
    Method* method = (Method*)SafeFetchN(f.fp() + frame::interpreter_frame_method_offset, 0);
    return AsgstMethodInfo::has_readable_metadata(method) && method->contains(recorded.caller_bcp);
  }
  nmethod* nm = f.cb() == nullptr ? nullptr : f.cb()->as_nmethod_or_null();
  return nm != nullptr && nm->contains(recorded.return_pc) && !nm->is_deopt_pc(recorded.return_pc) &&
         f.unextended_sp() == recorded.caller_sp;
}

// The recorded frame's compiled caller, if that caller has returned too and
// the poll that processes the element is its return poll: HotSpot polls
// there after the epilogue has popped the frame, and the return poll's
// handler blob, which pushes no pc of its own, stands in its place (top).
// The caller is known by the poll's pc, in the nmethod that holds the
// recorded return address, and by where its frame ended: f, the blob's
// sender and the first Java frame of the walk, stands there. Null otherwise.
static nmethod* caller_popped_at_return_poll(JavaThread* thread, const frame& top, const frame& f,
                                             const AsgstRecordedFrame& recorded) {
  if (recorded.return_pc == nullptr || recorded.caller_sp == nullptr || Interpreter::contains(recorded.return_pc) ||
      top.cb() == nullptr || top.cb() != SharedRuntime::polling_page_return_handler_blob()) {
    return nullptr;
  }
  address poll_pc = thread->saved_exception_pc();
  CodeBlob* cb = poll_pc == nullptr ? nullptr : CodeCache::find_blob(poll_pc);
  nmethod* nm = cb == nullptr ? nullptr : cb->as_nmethod_or_null();
  if (nm == nullptr || nm->is_unloading() || !nm->contains(recorded.return_pc) || nm->is_deopt_pc(recorded.return_pc) ||
      !nm->is_at_poll_return(poll_pc)) {
    return nullptr;
  }
  intptr_t* end_of_caller = recorded.caller_sp + nm->frame_size();
  return top.unextended_sp() + top.cb()->frame_size() == end_of_caller && f.sp() == end_of_caller ? nm : nullptr;
}

// Moves from the current frame to the recorded frame's caller, which lies at
// or below it on the stack, and has it reported at the recorded call site;
// its callers follow as they are. False, and the position unchanged, if the
// caller is not on the stack any more.
bool AsgstQueueWalk::resume_at_recorded_caller(AsgstStackWalker& walker, const AsgstRecordedFrame& recorded) {
  if (recorded.return_pc == nullptr) {
    return false;
  }
  bool interpreted_caller = Interpreter::contains(recorded.return_pc);
  AsgstStackWalker::Position searched_from = walker._pos;
  for (int frames = 0; frames < AsgstStackWalker::max_physical_frames; frames++) {
    const frame& f = walker._pos.java;
    if (is_recorded_caller(f, recorded)) {
      walker._pos.call_site = interpreted_caller ? recorded.caller_bcp : recorded.return_pc;
      walker._pos.visited = false;
      return true;
    }
    // Frames called since lie below the caller's fp (interpreted) or sp (compiled).
    bool above_caller = f.sp() < (interpreted_caller ? recorded.caller_fp : recorded.caller_sp);
    if (!above_caller || !walker.step() || walker._pos.in_native) {
      break;
    }
  }
  walker._pos = searched_from;
  walker._state = 1;  // a step of the search may have ended the walk
  return false;
}

bool AsgstQueueWalk::record(AsgstStackWalker& walker, ASGST_QueueElement* element, AsgstRecordedFrame* recorded) {
  ASGST_Frame frame;
  int result;
  while ((result = walker.next(&frame)) == 1 && frame.type == ASGST_FRAME_NON_JAVA) {
  }
  if (result != 1) {
    return false;
  }
  if (walker._pos.java.is_heap_frame()) {
    // An element records a frame on the stack, by its addresses: a walk
    // whose first Java frame is frozen in the heap (begun from a context that
    // leads there) has none to record.
    walker.stop(ASGST_NO_TOP_JAVA_FRAME);
    return false;
  }
  element->pc = frame.pc;
  element->sp = frame.sp;
  element->fp = frame.fp;
  element->bcp = nullptr;
  recorded->method = (Method*)frame.method;
  recorded->compile_id = -1;
  caller_of(walker._pos.java, recorded);
  if (frame.comp_level == 0 && frame.type == ASGST_FRAME_JAVA) {
    // Interpreted: the bcp tells the position; the frame is found again by fp.
    element->bcp = ((Method*)frame.method)->bcp_from(frame.bci);
  } else {
    // Compiled, or a native method's compiled wrapper: the frame's code blob
    // is the one the walk found for its pc.
    CodeBlob* cb = walker._pos.java.cb();
    if (cb == nullptr || !cb->contains((address)frame.pc)) {
      cb = CodeCache::find_blob(frame.pc);
    }
    nmethod* nm = cb == nullptr ? nullptr : cb->as_nmethod_or_null();
    recorded->compile_id = nm == nullptr ? -1 : nm->compile_id();
  }
  return true;
}

int AsgstQueueWalk::start(AsgstStackWalker& walker, const ASGST_QueueElement& element,
                          const AsgstRecordedFrame& recorded) {
  Method* recorded_method = recorded.method;
  int recorded_compile_id = recorded.compile_id;
  assert(walker._thread == Thread::current(), "only the thread itself walks its queue");
  JavaThread* thread = JavaThread::cast(walker._thread);
  if (!thread->has_last_Java_frame()) {
    walker.stop(ASGST_NO_TOP_JAVA_FRAME);
    return ASGST_NO_TOP_JAVA_FRAME;
  }
  frame top = thread->last_frame();
  walker._walkable = true;
  intptr_t* recorded_sp = (intptr_t*)element.sp;
  intptr_t* recorded_fp = (intptr_t*)element.fp;
  address recorded_pc = (address)element.pc;
  bool interpreted = element.bcp != nullptr;
  bool in_interpreter = interpreted || Interpreter::contains(recorded_pc);  // also native methods' entries
  // While the recorded frame is on the stack its code is alive. Without the
  // frame, the recorded pc counts only if it still lies in the very nmethod
  // it was recorded in (same compile id, not being unloaded).
  CodeBlob* recorded_cb = interpreted || recorded_pc == nullptr ? nullptr : CodeCache::find_blob(recorded_pc);
  nmethod* recorded_nm = recorded_cb == nullptr ? nullptr : recorded_cb->as_nmethod_or_null();
  bool recorded_code_alive = recorded_nm != nullptr && recorded_nm->compile_id() == recorded_compile_id &&
                             !recorded_nm->is_unloading();

  walker._pos = AsgstStackWalker::Position();
  walker.begin_java(top);
  // The search follows Java frames only; C frames come with the callers.
  const int options = walker._options;
  walker._options &= ~ASGST_INCLUDE_NON_JAVA_FRAMES;
  walker._nm = nullptr;
  walker._scope_offset = AsgstStackWalker::no_scope;
  walker._first_pending = false;
  walker._state = 1;
  for (int frames = 0; ; frames++) {
    const frame& f = walker._pos.java;
    // A frame at the recorded place is the recorded one only if it returns
    // to the same place: else the recorded frame returned, and another call
    // made a frame at the same address. (Asked only at that place: the
    // callers' words are read with SafeFetch, and a return address that
    // differs is looked up in the code cache.)
    if (in_interpreter && f.is_interpreted_frame() && f.fp() == recorded_fp &&
        (Method*)SafeFetchN(f.fp() + frame::interpreter_frame_method_offset, 0) == recorded_method &&
        returns_as_recorded(f, recorded)) {
      // The recorded interpreted frame: its method at the recorded position.
      ASGST_Frame first;
      if (!walker.report_interpreted(f, false, &first)) {
        walker.stop(ASGST_BROKEN_FRAME);
        return ASGST_BROKEN_FRAME;
      }
      Method* method = (Method*)first.method;
      if (interpreted && !method->is_native() && method->contains((address)element.bcp)) {
        first.bci = method->bci_from((address)element.bcp);
      }
      walker._first = first;
      walker._first_pending = true;
      walker._pos.visited = true;
      break;
    }
    if (recorded_nm != nullptr && f.cb() == recorded_nm && f.sp() == recorded_sp && returns_as_recorded(f, recorded)) {
      // The recorded compiled frame: its scopes at the recorded pc.
      if (!walker.begin_scopes(recorded_nm, recorded_pc, AsgstStackWalker::native_frame_of(f), true)) {
        walker._pos.visited = false;  // report it as it is now
      } else {
        walker._pos.visited = true;
      }
      break;
    }
    // Past the recorded frame: for a compiled frame, sp is fixed; an
    // interpreted frame's sp moves with its expression stack (and was
    // recorded wherever it stood), but its fp is fixed and its callers lie
    // above it, except an interpreted caller that has grown its expression
    // stack below that fp since.
    // The return poll's handler blob, on top, holds no Java frame: whatever
    // its size, the frames that follow it decide.
    bool return_poll_blob = frames == 0 && f.cb() != nullptr &&
                            f.cb() == SharedRuntime::polling_page_return_handler_blob();
    bool past_recorded = !return_poll_blob &&
                         ((in_interpreter ? f.sp() > recorded_fp : f.sp() >= recorded_sp) ||
                          is_recorded_caller(f, recorded));
    bool replaced = !in_interpreter && replaces_recorded(f, recorded);
    if (past_recorded || replaced || frames >= AsgstStackWalker::max_physical_frames) {
      // The recorded frame returned before the poll, or was deoptimized. Its
      // callers are known while its caller still waits where the recorded
      // frame was to return: then f is that caller (or the same call site
      // called again), or the interpreted frame that replaced the recorded
      // one (not reported: the recorded frame stands for it). A caller that
      // moved on since (after a signal that came after the frame's last poll:
      // in an interpreted method after its return poll, or in any frame while
      // the poll finished processing) is reported at the call site it had,
      // if it is still the same frame. Else the walk ends after the recorded
      // frame.
      nmethod* popped_caller = nullptr;
      if (replaced) {
        walker._pos.visited = true;
      } else if (in_interpreter &&
                 (popped_caller = caller_popped_at_return_poll(thread, top, f, recorded)) != nullptr) {
        // f is the popped caller's caller; the popped caller's scopes at the
        // recorded return address come between.
      } else if (frames >= AsgstStackWalker::max_physical_frames ||
                 (!waits_as_recorded(f, recorded) && !resume_at_recorded_caller(walker, recorded))) {
        walker._callers_unknown = true;
        walker._pos.visited = true;
      }
      // Report it from what was recorded, if that is provably still valid.
      AsgstNativeFrame registers = { recorded_pc, recorded_sp, recorded_fp };
      if (recorded_code_alive) {
        if (!walker.begin_scopes(recorded_nm, recorded_pc, registers, true)) {
          // No debug information there (or a native method's wrapper): the
          // method is certain, the position is not.
          AsgstStackWalker::fill_method_frame(&walker._first, recorded_nm->method(), recorded_nm->comp_level(), -1,
                                              registers);
          walker._first_pending = true;
        }
      } else if (in_interpreter && Method::is_valid_method(recorded_method) &&
                 (!interpreted || recorded_method->contains((address)element.bcp))) {
        // Interpreted, or a native method's interpreter entry (without a bcp).
        int bci = interpreted && !recorded_method->is_native() ? recorded_method->bci_from((address)element.bcp) : -1;
        AsgstStackWalker::fill_method_frame(&walker._first, recorded_method, 0, bci, registers);
        walker._first_pending = true;
        AsgstNativeFrame popped = { recorded.return_pc, recorded.caller_sp, nullptr };
        if (popped_caller != nullptr && !walker.begin_scopes(popped_caller, recorded.return_pc, popped, false)) {
          walker._callers_unknown = true;  // no debug information at the call: its method alone is no frame
          walker._pos.visited = true;
        }
      } else {
        // The recorded frame cannot be named: its callers alone would be a
        // stack that never was. The walk ends without frames.
        walker._callers_unknown = true;
        walker._pos.visited = true;
      }
      break;
    }
    if (!walker.step()) {
      walker._options = options;
      walker.stop(ASGST_NO_TOP_JAVA_FRAME);  // the recorded frame is not on this stack
      return ASGST_NO_TOP_JAVA_FRAME;
    }
  }
  walker._options = options;
  walker._physical_frames = 0;
  walker._top = walker._pos;
  walker._top_nm = walker._nm;
  walker._top_scope_offset = walker._scope_offset;
  walker._top_scope_frame = walker._scope_frame;
  walker._top_first_pending = walker._first_pending;
  walker._state = 1;
  // Below its recorded frame, the walk goes on into a virtual thread's frames
  // frozen in the heap, read at this poll as JFR reads them on the thread
  // itself (JfrVframeStream).
  walker.walk_heap_frames();
  return ASGST_JAVA_TRACE;
}
