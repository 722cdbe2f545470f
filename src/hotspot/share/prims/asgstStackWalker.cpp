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

// The walker's cursor: reports the frame at its position and steps to the
// caller. Where a walk begins is found in asgstTopFrame.cpp.

#include "code/codeCache.hpp"
#include "code/debugInfo.hpp"
#include "code/debugInfoRec.hpp"
#include "code/nmethod.inline.hpp"
#include "code/pcDesc.hpp"
#include "interpreter/interpreter.hpp"
#include "oops/method.inline.hpp"
#include "oops/stackChunkOop.inline.hpp"
#include "prims/asgstCheckedMethods.hpp"
#include "prims/asgstFrameEdges.hpp"
#include "prims/asgstFrameMarks.hpp"
#include "prims/asgstSenderStep.hpp"
#include "prims/asgstStackWalker.hpp"
#include "runtime/continuation.hpp"
#include "runtime/continuationEntry.hpp"
#include "runtime/frame.inline.hpp"
#include "runtime/globals.hpp"
#include "runtime/javaCalls.hpp"
#include "runtime/javaThread.inline.hpp"
#include "runtime/os.hpp"
#include "runtime/registerMap.hpp"
#include "runtime/safefetch.hpp"
#include "runtime/stackWatermarkSet.inline.hpp"
#include "runtime/stubRoutines.hpp"
#include "utilities/align.hpp"

const int AsgstStackWalker::no_scope = DebugInformationRecorder::serialized_null;

// Code that HotSpot generated: the interpreter, compiled methods and stubs.
bool AsgstStackWalker::is_generated_code(address pc) {
  return CodeCache::contains((void*)pc);
}

// Only pcs in a code blob's code. At an nmethod's deoptimization handler, the
// frame is taken for a deoptimized one and its original pc read at sp
// (asserted to lie in the method's code): that pc must be there. (A native
// wrapper's handlers "begin" at its header, which is no code.)
bool AsgstStackWalker::is_frame_pc(intptr_t* sp, address pc, CodeBlob* cb) {
  if (cb == nullptr || !cb->code_contains(pc)) {
    return false;
  }
  nmethod* nm = cb->as_nmethod_or_null();
  if (nm == nullptr || !nm->is_deopt_pc(pc)) {
    return true;
  }
  address original = (address)SafeFetchN((intptr_t*)((address)sp + nm->orig_pc_offset()), 0);
  return nm->insts_contains_inclusive(original);
}

// Fills in a frame as the iterator reports it: the one place that does.
static void fill_frame(ASGST_Frame* out, uint8_t type, int comp_level, int bci, Method* method,
                       const AsgstNativeFrame& registers) {
  out->type = type;
  out->comp_level = comp_level;
  out->bci = bci;
  out->method = (ASGST_Method)method;
  out->pc = registers.pc;
  out->sp = registers.sp;
  out->fp = registers.fp;
}

// A Java method's frame, interpreted (comp_level 0) or compiled, or a native
// method's (no level, no bci).
void AsgstStackWalker::fill_method_frame(ASGST_Frame* out, Method* method, int comp_level, int bci,
                                         const AsgstNativeFrame& registers) {
  bool is_native = method->is_native();
  fill_frame(out, is_native ? ASGST_FRAME_JAVA_NATIVE : ASGST_FRAME_JAVA, is_native ? -1 : comp_level,
             is_native ? -1 : bci, method, registers);
}

AsgstNativeFrame AsgstNativeFrame::of_context(void* ucontext) {
  AsgstNativeFrame f = { nullptr, nullptr, nullptr, nullptr };
  if (ucontext != nullptr) {
    f.pc = os::fetch_frame_from_context(ucontext, &f.sp, &f.fp);
    f.lr = AsgstFrameEdges::link_register(ucontext);
  }
  return f;
}

AsgstNativeFrame AsgstStackWalker::native_frame_of(const frame& f) {
  AsgstNativeFrame result = { f.pc(), f.sp(), f.fp() };
  return result;
}

AsgstStackWalker::AsgstStackWalker(Thread* thread, int options) :
  AsgstStackWalker(thread, options, RegisterMap::WalkContinuation::skip) {}

AsgstStackWalker::AsgstStackWalker(Thread* thread, int options, InVM) :
  AsgstStackWalker(thread, options, RegisterMap::WalkContinuation::include) {
  assert(thread == Thread::current(), "a thread walks itself in the VM");
  _map.set_walk_cont(false);  // until walk_heap_frames, once the top is found
}

void AsgstStackWalker::walk_heap_frames() {
  JavaThread* thread = JavaThread::cast(_thread);
  assert(_in_vm && thread == Thread::current(), "made InVM");
  _map.set_walk_cont(!((UseZGC || UseShenandoahGC) && !StackWatermarkSet::processing_started(thread)));
}

AsgstStackWalker::AsgstStackWalker(Thread* thread, int options, RegisterMap::WalkContinuation heap_frames) :
  _thread(thread), _options(options), _callers_unknown(false),
  _in_vm(heap_frames == RegisterMap::WalkContinuation::include), _walkable(false),
  _map(thread->is_Java_thread() ? JavaThread::cast(thread) : nullptr,
       RegisterMap::UpdateMap::skip,
       RegisterMap::ProcessFrames::skip,
       heap_frames),
  _chunk_slot(nullptr), _top(), _pos(), _nm(nullptr), _scope_offset(no_scope), _scope_frame(), _first_pending(false), _first(),
  _top_nm(nullptr), _top_scope_offset(no_scope), _top_scope_frame(), _top_first_pending(false),
  _physical_frames(0), _seen(), _scopes_reported(&_scopes_kept), _scope_kept(-1), _callee_is_java(false), _reported_at_pos(false), _scopes_of_pos(false), _watched_owner(0),
  _mark_reached(false), _at_mark(false), _mark(), _interrupted_sp(nullptr), _executing(), _state(ASGST_NO_FRAME) {
  _scopes_kept.nm = nullptr;  // the rest is read only once nm is set
  _top_site.nm = nullptr;
  _seen.code_epoch = AsgstReturnSites::epoch();
  _seen.method_epoch = AsgstCheckedMethods::epoch();
  _seen.scopes = &_scopes_kept;
}

// The caller of a C frame along the frame pointer chain, read with SafeFetch.
// Fails where the chain leaves the stack or does not move up, and on CPUs
// whose frame records AsgstFrameEdges does not know.
bool AsgstStackWalker::native_caller(const AsgstNativeFrame& f, AsgstNativeFrame* caller) const {
  intptr_t* fp = f.fp;
  intptr_t* return_address;
  intptr_t* saved_fp;
  intptr_t* sender_sp;
  if (fp == nullptr || !is_aligned(fp, wordSize) || fp < f.sp ||
      !AsgstFrameEdges::c_frame_record(fp, &return_address, &saved_fp, &sender_sp)) {
    return false;
  }
  if (sender_sp <= f.sp || !_thread->is_in_full_stack((address)return_address) ||
      !_thread->is_in_full_stack((address)saved_fp) || !_thread->is_in_full_stack((address)(sender_sp - 1))) {
    return false;
  }
  address pc = AsgstFrameEdges::strip_return_address((address)SafeFetchN(return_address, 0));
  if (pc == nullptr) {
    return false;
  }
  caller->pc = pc;
  caller->sp = sender_sp;
  caller->fp = (intptr_t*)SafeFetchN(saved_fp, 0);
  caller->lr = nullptr;
  return true;
}

// The frame of a last Java frame anchor, read without making the anchor
// walkable (that would write to the thread); a missing pc is the return
// address just below sp.
bool AsgstStackWalker::java_frame_from_anchor(intptr_t* sp, intptr_t* fp, address pc, frame* result) const {
  if (sp == nullptr || !_thread->is_in_full_stack((address)sp) ||
      !_thread->is_in_full_stack((address)(sp - 1))) {
    return false;
  }
  if (pc == nullptr) {
    pc = AsgstFrameEdges::strip_return_address((address)SafeFetchN(sp - 1, 0));
  }
  CodeBlob* cb = pc == nullptr ? nullptr : CodeCache::find_blob(pc);
  if (!is_frame_pc(sp, pc, cb)) {
    return false;
  }
  *result = frame(sp, sp, fp, pc, cb);
  return true;
}

void AsgstStackWalker::begin_native(const AsgstNativeFrame& first, intptr_t* end, const frame& resume,
                                    bool resume_at_anchor) {
  _pos.in_native = true;
  _pos.native = first;
  _pos.native_end = end;
  _pos.java = resume;
  _pos.visited = false;
  _pos.at_anchor = resume_at_anchor;
  _pos.call_site = nullptr;
}

void AsgstStackWalker::begin_java(const frame& f, bool checked, bool at_anchor) {
  _pos.in_native = false;
  if (&f != &_pos.java) {
    _pos.java = f;
  }
  _pos.visited = false;
  _pos.checked = checked;
  _pos.at_anchor = at_anchor;
  _pos.call_site = nullptr;
}

void AsgstStackWalker::rewind() {
  if (_top.java.pc() == nullptr && _top.native.pc == nullptr && _top_scope_offset == no_scope && !_top_first_pending) {
    return;  // start() found no frame: nothing to rewind to
  }
  if (_map.in_cont()) {
    _map.set_stack_chunk(nullptr);  // the top is on the stack
  }
  _pos = _top;
  _nm = _top_nm;
  _scope_offset = _top_scope_offset;
  _scope_kept = -1;
  _scope_frame = _top_scope_frame;
  _first_pending = _top_first_pending;
  _physical_frames = 0;
  _callee_is_java = false;
  _reported_at_pos = false;
  _scopes_of_pos = false;
  _mark_reached = false;
  _at_mark = false;
  _state = 1;
}

int AsgstStackWalker::next(ASGST_Frame* out) {
  _at_mark = _mark_reached;
  if (_mark_reached) {
    _mark_reached = false;
    return ASGST_MARKED_FRAME;
  }
  while (_state == 1) {
    bool reported = false;
    _reported_at_pos = false;
    if (_first_pending) {
      _first_pending = false;
      *out = _first;
      reported = true;
    } else if (_scope_offset != no_scope || _scope_kept >= 0) {
      reported = report_scope(out);
      _reported_at_pos = reported && _scopes_of_pos;
    } else if (!_pos.visited) {
      _pos.visited = true;
      _scopes_of_pos = true;  // the scopes that report() begins are those of _pos's frame
      reported = _reported_at_pos = report(out);
    } else {
      step();
    }
    if (reported) {
      if ((_options & ASGST_END_ON_FIRST_JAVA_FRAME) != 0 && out->type != ASGST_FRAME_NON_JAVA) {
        stop(ASGST_NO_FRAME);
      }
      _mark_reached = _watched_owner != 0 && out->type == ASGST_FRAME_JAVA && at_marked_frame();
      return 1;
    }
  }
  return _state;
}

// Whether the frame reported last is the whole (or the outermost scope of
// the) physical frame at _pos, and carries a mark of the watched owner.
bool AsgstStackWalker::at_marked_frame() {
  return _reported_at_pos && !_pos.in_native && _scope_offset == no_scope && _scope_kept < 0 && _pos.call_site == nullptr &&
         _thread->is_Java_thread() && !_pos.java.is_heap_frame() && _pos.java.cb() != nullptr &&
         AsgstFrameMarks::find(JavaThread::cast(_thread), _watched_owner, _pos.java, &_mark);
}

int AsgstStackWalker::mark_frame(int owner, int slot, uint64_t cookie) {
  if (!_reported_at_pos || _pos.in_native || _pos.call_site != nullptr || !_thread->is_Java_thread()) {
    return ASGST_MARK_REFUSED;
  }
  return AsgstFrameMarks::request(JavaThread::cast(_thread), owner, slot, cookie, _pos.java,
                                  _physical_frames == 0, _callee_is_java);
}

int AsgstStackWalker::clear_marks(int owner, int slot) {
  return _thread->is_Java_thread() ? AsgstFrameMarks::clear(JavaThread::cast(_thread), owner, slot)
                                   : ASGST_INVALID_ARGUMENT;
}

int AsgstStackWalker::watch_marks(int owner) {
  if (owner <= 0) {
    return ASGST_INVALID_ARGUMENT;
  }
  _watched_owner = owner;
  return 0;
}

bool AsgstStackWalker::reached_mark(ASGST_Mark* mark) const {
  if (!_at_mark) {
    return false;
  }
  *mark = _mark;
  return true;
}

bool AsgstStackWalker::report(ASGST_Frame* out) {
  if (_pos.in_native) {
    report_native(_pos.native.pc, _pos.native.sp, _pos.native.fp, out);
    return true;  // native segments exist only when their frames are reported
  }
  return report_java(_pos.java, out);
}

void AsgstStackWalker::report_native(address pc, intptr_t* sp, intptr_t* fp, ASGST_Frame* out) const {
  AsgstNativeFrame registers = { pc, sp, fp };
  fill_frame(out, ASGST_FRAME_NON_JAVA, -1, -1, nullptr, registers);
}

// Reports a frame of a Java segment: Java frames, and stubs when native
// frames are asked for. Compiled frames start with their innermost scope.
bool AsgstStackWalker::report_java(const frame& f, ASGST_Frame* out) {
  if (f.is_heap_frame()) {
    return report_heap_frame(f, out);  // an interpreted one has no code blob there
  }
  if (f.cb() == nullptr) {
    // Not generated code: a sender or an anchor that names C code, which
    // only a native segment walks (HotSpot's frame functions that the steps
    // use assume a code blob). The walk has lost its way; it ends here.
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  address call_site = _pos.call_site;
  address pc = call_site != nullptr ? call_site : f.pc();
  if (_scopes_kept.nm != nullptr && f.cb() == _scopes_kept.nm && pc == _scopes_kept.pc) {
    // A recursion: the same code at the same pc as a frame before.
    begin_scope_report(_scopes_kept.nm, f, pc);
    _scopes_reported = &_scopes_kept;
    _scope_kept = 0;
    return report_scope(out);
  }
  if (f.is_interpreted_frame()) {
    if (!report_interpreted(f, _pos.checked, out)) {
      return false;
    }
    if (call_site != nullptr && out->type == ASGST_FRAME_JAVA && ((Method*)out->method)->contains(call_site)) {
      out->bci = ((Method*)out->method)->bci_from(call_site);
    }
    return true;
  }
  nmethod* nm = f.cb() == nullptr ? nullptr : f.cb()->as_nmethod_or_null();
  // C1 and C2 make no native wrapper or intrinsic: their code needs no look
  // at its Method's flags.
  bool by_c1_or_c2 = nm != nullptr && (nm->is_compiled_by_c1() || nm->is_compiled_by_c2());
  if (nm == nullptr || nm->method() == nullptr || (!by_c1_or_c2 && nm->method()->is_continuation_enter_intrinsic())) {
    // A stub, adapter or runtime blob, or the boundary of a continuation.
    if (includes_native_frames()) {
      report_native(f.pc(), f.sp(), f.fp(), out);
      return true;
    }
    return false;
  }
  if (!by_c1_or_c2 && nm->is_native_method()) {
    fill_method_frame(out, nm->method(), -1, -1, native_frame_of(f));
  } else {
    // A return address has an exact PcDesc; an interrupted pc at the top
    // (also below the C frames of a leaf call it made) takes the next one, as
    // the debug info is recorded after the call: the first at or after pc,
    // one search for both.
    bool interrupted = call_site == nullptr &&
                       (_physical_frames == 0 || (f.sp() == _executing.sp() && f.pc() == _executing.pc()));
    if (interrupted && _top_site.nm == nm && _top_site.pc == pc) {
      if (_top_site.count == 0 && _top_site.scope_offset == no_scope) {
        fill_method_frame(out, nm->method(), nm->comp_level(), -1, native_frame_of(f));  // no debug info
        return true;
      }
      begin_scope_report(nm, f, pc);
      if (_top_site.count == 0) {
        _scope_offset = _top_site.scope_offset;  // more scopes than the site's entry keeps
      } else {
        _scopes_reported = &_top_site;
        _scope_kept = 0;
      }
      return report_scope(out);
    }
    if (!interrupted && AsgstReturnSites::find(AsgstReturnSites::return_address, pc, _seen.code_epoch, &_scopes_kept) &&
        _scopes_kept.nm == nm) {
      // Kept, but the step here did not look for them: HotSpot's sender
      // took it (from an interpreted frame at a poll), or it stayed in the
      // blob of the frame before (a recursion's first caller).
      begin_scope_report(nm, f, pc);
      _scopes_reported = &_scopes_kept;
      _scope_kept = 0;
      return report_scope(out);
    }
    PcDesc* desc = interrupted ? nm->pc_desc_near(pc) : nm->pc_desc_at(pc);
    bool exact = desc != nullptr && desc->real_pc(nm) == pc;
    if (desc == nullptr && !interrupted && _callee_is_java) {
      // A Java method's caller without one was made from no return address
      // but a stale word of the stack: the walk has lost its way. (Below a
      // stub, such as the nmethod entry barrier's that a prologue calls, a
      // frame may be at a call without debug info.)
      stop(ASGST_BROKEN_FRAME);
      return false;
    }
    int offset = desc == nullptr ? no_scope : desc->scope_decode_offset();
    if (offset != no_scope) {
      begin_scope_report(nm, f, pc);
      if (exact && keep_scopes(nm, pc, offset)) {
        _scopes_reported = &_scopes_kept;
        _scope_kept = 0;
      } else {
        _scope_offset = offset;
      }
      return report_scope(out);
    }
    // Without debug info the method is known, the position is not.
    fill_method_frame(out, nm->method(), nm->comp_level(), -1, native_frame_of(f));
  }
  return true;
}

// A frame frozen in a virtual thread's stack chunk, walked only at the
// thread's own poll (walk_heap_frames) or where nothing can change the chunks
// (heap_frames_readable): read as HotSpot's vframeStream reads it, through
// the chunk (the frame's sp and fp are offsets in the chunk, no addresses:
// reported as null).
bool AsgstStackWalker::report_heap_frame(const frame& f, ASGST_Frame* out) {
  AsgstNativeFrame registers = { f.pc(), nullptr, nullptr };
  stackChunkOop chunk = _map.stack_chunk()();
  if (chunk == nullptr) {
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  if (f.is_interpreted_frame()) {
    Method* method = chunk->interpreter_frame_method(f);
    int bci = method->is_native() ? -1 : method->validate_bci_from_bcp(chunk->interpreter_frame_bcp(f));
    fill_method_frame(out, method, 0, bci, registers);
    return true;
  }
  nmethod* nm = f.cb() == nullptr ? nullptr : f.cb()->as_nmethod_or_null();
  if (nm == nullptr || nm->method() == nullptr) {
    return false;  // only Java frames are frozen
  }
  if (!begin_scopes(nm, f.pc(), registers, false)) {
    fill_method_frame(out, nm->method(), nm->comp_level(), -1, registers);
    return true;
  }
  return report_scope(out);
}

// Whether f, an interpreted frame, is sound: its method and bcp can then be
// read directly. What it found valid goes to _seen, where the step from f
// and report_interpreted find it.
bool AsgstStackWalker::is_valid_interpreted_frame(const frame& f) {
  // is_interpreted_frame_valid reads below fp without checking it: check fp
  // first. It then validates the method (through SafeFetch) and the bcp.
  intptr_t* fp = f.fp();
  return fp != nullptr && is_aligned(fp, wordSize) && _thread->is_in_full_stack((address)fp) &&
         _thread->is_in_full_stack((address)(fp + frame::interpreter_frame_initial_sp_offset)) &&
         AsgstSenderStep::is_valid_interpreted_frame(JavaThread::cast(_thread), f, &_seen);
}

// The interpreter's frame below a C function that has no frame at all (a
// tail call such as G1's post-write barrier entry), which the interpreter
// called without a state change: the return address lies at sp (or in the
// link register), and the frame pointer is still the interpreted frame's, so
// the chain would take that frame's caller for the top. Accepted only where
// the return address lies in the interpreter and makes a sound interpreted
// frame with the frame pointer (in a C function with a frame, fp names that
// frame instead).
bool AsgstStackWalker::interpreted_caller_at_sp(const AsgstNativeFrame& f, AsgstNativeFrame* caller) {
  if (f.sp == nullptr || !is_aligned(f.sp, wordSize) || !_thread->is_in_full_stack((address)(f.sp + 1))) {
    return false;
  }
  // Where a call leaves the return address in the link register, the
  // caller's sp is the callee's (a C function without a frame).
  bool at_sp = AsgstFrameEdges::return_address_at_callee_sp();
  address pc = at_sp ? (address)SafeFetchN(f.sp, 0) : AsgstFrameEdges::strip_return_address(f.lr);
  intptr_t* sp = at_sp ? f.sp + 1 : f.sp;
  if (pc == nullptr || !Interpreter::contains(pc) || !is_valid_interpreted_frame(frame(sp, f.fp, pc))) {
    return false;
  }
  caller->pc = pc;
  caller->sp = sp;
  caller->fp = f.fp;
  caller->lr = nullptr;
  return true;
}

bool AsgstStackWalker::report_interpreted(const frame& f, bool checked, ASGST_Frame* out) {
  if (!checked && !is_valid_interpreted_frame(f)) {
    return false;
  }
  Method* method = f.interpreter_frame_method();
  address bcp = f.interpreter_frame_bcp();
  // The bci of the method and bcp that a step checked last is known.
  int bci = method->is_native() ? -1
                                : method == _seen.method && bcp == _seen.bcp ? _seen.bci : method->validate_bci_from_bcp(bcp);
  fill_method_frame(out, method, 0, bci, native_frame_of(f));
  return true;
}

// The scopes of nm that follow are those of f, at pc.
void AsgstStackWalker::begin_scope_report(nmethod* nm, const frame& f, address pc) {
  _nm = nm;
  // Field by field: a copy of a whole AsgstNativeFrame made on the stack was
  // read back in 16-byte loads from two 8-byte stores, a store-forwarding
  // stall on every compiled frame (x86_64, GCC).
  _scope_frame.pc = pc;
  _scope_frame.sp = f.sp();
  _scope_frame.fp = f.fp();
  _scope_frame.lr = nullptr;
}

// Decodes all scopes of nm at pc, from offset, into *out. False where one
// is out of bounds or there are more than it holds (out->nm is then null).
bool AsgstStackWalker::decode_scopes(nmethod* nm, address pc, int offset, AsgstScopesAt* out) {
  out->nm = nullptr;
  int count = 0;
  for (; offset != no_scope; count++) {
    if (count == AsgstScopesAt::max_scopes || offset <= 0 || offset >= nm->scopes_data_size()) {
      return false;
    }
    DebugInfoReadStream stream(nm, offset);
    offset = stream.read_int();
    out->scopes[count].method = stream.read_method();
    out->scopes[count].bci = stream.read_bci();
  }
  out->nm = nm;
  out->pc = pc;
  out->count = count;
  out->comp_level = nm->comp_level();
  out->java_frame_size = AsgstSenderStep::checked_frame_size(nm, pc);
  out->words_pushed = 0;
  out->scope_offset = no_scope;
  return true;
}

// Decodes all scopes of nm at pc (an exact PcDesc), from offset, into
// _scopes_kept, and keeps them for later walks. False where one is out of
// bounds (report_scope then ends the walk where it is), or there are more
// than it keeps.
bool AsgstStackWalker::keep_scopes(nmethod* nm, address pc, int offset) {
  if (!decode_scopes(nm, pc, offset, &_scopes_kept)) {
    return false;
  }
  AsgstReturnSites::remember(AsgstReturnSites::return_address, _scopes_kept, _seen.code_epoch);
  return true;
}

// Where java_top_from_context found the top frame at an interrupted pc of
// compiled Java code, its frame complete there (its instructions said so or
// are not known), words_pushed words below it, and every check that a step
// makes of the code at pc passed (AsgstSenderStep::checked_frame_size), all
// of which depends on the code alone: kept with the scopes of the first
// PcDesc at or after pc (as report_java reports them) in _top_site, and for
// later walks of the epoch, which then find the top with the stack's checks
// alone (and decode the scopes only where an entry cannot hold them all).
void AsgstStackWalker::remember_interrupted_site(nmethod* nm, address pc, int words_pushed) {
  _top_site.nm = nullptr;
  if (AsgstSenderStep::checked_frame_size(nm, pc) <= 0) {
    return;
  }
  PcDesc* desc = nm->pc_desc_near(pc);
  int offset = desc == nullptr ? no_scope : desc->scope_decode_offset();
  if (!decode_scopes(nm, pc, offset, &_top_site)) {
    return;  // reported as without a kept site
  }
  _top_site.words_pushed = words_pushed;
  _top_site.scope_offset = offset;
  if (_top_site.count <= AsgstReturnSites::max_remembered_scopes) {
    AsgstReturnSites::remember(AsgstReturnSites::interrupted_pc, _top_site, _seen.code_epoch);
  } else {
    AsgstScopesAt without_scopes = _top_site;
    without_scopes.count = 0;
    AsgstReturnSites::remember(AsgstReturnSites::interrupted_pc, without_scopes, _seen.code_epoch);
  }
}

// Reports the scope at _scope_offset of the current compiled frame and moves to
// its caller scope. All but the outermost scope are inlined.
bool AsgstStackWalker::report_scope(ASGST_Frame* out) {
  if (_scope_kept >= 0) {
    const AsgstScopesAt& kept = *_scopes_reported;
    const AsgstScopesAt::Scope& scope = kept.scopes[_scope_kept];
    bool outermost = _scope_kept == kept.count - 1;
    _scope_kept = outermost ? -1 : _scope_kept + 1;
    fill_frame(out, outermost ? ASGST_FRAME_JAVA : ASGST_FRAME_JAVA_INLINED, kept.comp_level, scope.bci,
               scope.method, _scope_frame);
    return true;
  }
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
  fill_frame(out, sender_offset == no_scope ? ASGST_FRAME_JAVA : ASGST_FRAME_JAVA_INLINED, _nm->comp_level(), bci,
             method, _scope_frame);
  return true;
}

// Moves to the caller of the current frame; false when the walk ended.
bool AsgstStackWalker::step() {
  if (_callers_unknown || ++_physical_frames >= max_physical_frames) {
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  if (_pos.in_native) {
    _callee_is_java = false;
    return step_native();
  }
  bool stepped = step_java();  // sets _callee_is_java to whether it stepped from a Java method
  _callee_is_java = _callee_is_java && !_pos.in_native;
  return stepped;
}

bool AsgstStackWalker::step_native() {
  AsgstNativeFrame caller;
  // The interrupted function (the walk's first frame) may have no frame yet
  // or any more; where its caller is unknown, the frame pointer would skip it.
  AsgstFrameEdges::Frameless frameless = _pos.native.sp == _interrupted_sp
                                         ? AsgstFrameEdges::caller_of_frameless(_pos.native, &caller)
                                         : AsgstFrameEdges::has_frame;
  bool found = frameless != AsgstFrameEdges::caller_unknown &&
               ((frameless == AsgstFrameEdges::caller_found && _thread->is_in_full_stack((address)caller.sp)) ||
                native_caller(_pos.native, &caller));
  if (_pos.native_end != nullptr) {
    // Java frames follow: however far the chain got, they resume at the anchor.
    if (!found || caller.sp >= _pos.native_end || is_generated_code(caller.pc)) {
      begin_java(_pos.java, false, _pos.at_anchor);
      return true;
    }
  } else if (!found || is_generated_code(caller.pc)) {
    stop(ASGST_NO_FRAME);  // the end of the chain is the end of the walk
    return false;
  }
  _pos.native = caller;
  _pos.visited = false;
  return true;
}

bool AsgstStackWalker::step_java() {
  frame& f = _pos.java;  // until a begin_ replaces it
  JavaThread* thread = JavaThread::cast(_thread);
  // Only a thread that runs a continuation has its entries and barriers.
  bool in_continuation = thread->last_continuation() != nullptr;
  if (!f.is_heap_frame() && (!_walkable || !f.is_interpreted_frame())) {
    // The kinds of frames that most steps meet (no call stub, upcall stub or
    // continuation entry among them), taken with fewer lookups; the caller
    // replaces f in place. (A frame in the heap has no address on the stack.)
    // At a poll, HotSpot's sender needs no checks but looks every caller's
    // code blob up; the step builds the same caller, and is taken from
    // compiled frames there too (an interpreted frame's sender is cheap, the
    // step's check of an interpreted caller is not).
    intptr_t* callee_sp = f.sp();
    bool caller_checked;
    if (AsgstSenderStep::java_caller(thread, f, &_seen, &_pos.java, &caller_checked)) {
      if (in_continuation && crosses_continuation_entry(callee_sp, _pos.java.sp())) {
        stop(ASGST_FRAMES_IN_HEAP);
        return false;
      }
      begin_java(_pos.java, caller_checked);
      _callee_is_java = true;  // f was an interpreted or compiled Java method's frame
      return true;
    }
  }
  // A Java method's frame (interpreted or compiled, no native wrapper) on the stack.
  _callee_is_java = !f.is_heap_frame() && f.cb() != nullptr && f.is_java_frame();
  if (f.is_entry_frame()) {
    // A call stub: Java called from C. Its call wrapper holds the anchor of
    // the Java frames that made the C call, or none at the bottom of the stack.
    JavaCallWrapper* wrapper = f.entry_frame_call_wrapper_if_safe(thread);
    if (wrapper == nullptr || !thread->is_in_usable_stack((address)wrapper) ||
        !thread->is_in_usable_stack((address)(wrapper + 1) - 1)) {
      stop(ASGST_BROKEN_FRAME);
      return false;
    }
    return step_into_caller_of_java(f, wrapper->anchor());
  }
  if (f.is_upcall_stub_frame()) {
    // An FFM upcall stub: Java called from C, with the anchor saved in its frame.
    JavaFrameAnchor* anchor = f.cb()->as_upcall_stub()->jfa_for_frame(f);
    if (!thread->is_in_usable_stack((address)anchor) ||
        !thread->is_in_usable_stack((address)(anchor + 1) - 1)) {
      stop(ASGST_BROKEN_FRAME);
      return false;
    }
    return step_into_caller_of_java(f, anchor);
  }
  if (in_continuation && Continuation::is_continuation_enterSpecial(f)) {
    // The entry lies at the frame's unextended sp (as HotSpot's
    // get_continuation_entry_for_entry_frame has it); take it only if it is
    // one of the thread's entries.
    const ContinuationEntry* at_frame = (const ContinuationEntry*)f.unextended_sp();
    const ContinuationEntry* entry = thread->last_continuation();
    for (int n = 0; entry != nullptr && entry != at_frame && n < max_continuation_depth; n++) {
      entry = entry->parent();
    }
    if (entry == at_frame && _pos.at_anchor) {
      // The VM anchors a thread at its continuation's entry while it unwinds
      // the frames that it froze: they are in the heap now.
      stop(ASGST_FRAMES_IN_HEAP);
      return false;
    }
    if (entry == at_frame && entry->is_virtual_thread() && (_options & ASGST_INCLUDE_CARRIER_FRAMES) == 0) {
      stop(ASGST_NO_FRAME);  // a virtual thread's frames end here
      return false;
    }
  }
  // safe_for_sender is for stacks seen from outside; at a poll, a frame of a
  // stub that called into the VM is not "complete" for it, yet walkable. A
  // frame in the heap has no address on the stack: its chunk tells its sender.
  if (!_walkable && !f.is_heap_frame() && !f.safe_for_sender(thread)) {
    frame caller;
    if (caller_refused_by_sender_check(f, _pos.at_anchor, &caller)) {
      if (in_continuation && leaves_continuation_unseen(f, caller)) {
        stop(ASGST_FRAMES_IN_HEAP);
        return false;
      }
      begin_java(caller);
      return true;
    }
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  if (in_continuation && !_map.walk_cont() && Continuation::is_cont_barrier_frame(f)) {
    // The frames below were not thawed since the virtual thread last
    // mounted: they are in a stack chunk in the heap, which a walk reads only
    // where it may (walk_heap_frames, heap_frames_readable). Say so rather
    // than skip them.
    stop(ASGST_FRAMES_IN_HEAP);
    return false;
  }
  if (!_walkable && !f.is_heap_frame() && !AsgstSenderStep::sender_reads_checked_words(f)) {
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  if (f.is_heap_frame() && !_map.in_cont()) {
    // Its sp and fp are offsets in a chunk that the map no longer names.
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  // With walk_heap_frames, HotSpot's sender goes from the return barrier's
  // frame into the stack chunks, and from the oldest frozen frame back to
  // the continuation's entry on the stack.
  frame caller = f.sender(&_map);
  if (_map.walk_cont() && caller.pc() == nullptr) {
    // HotSpot found no frozen frames below the return barrier (the
    // continuation is being frozen or thawed): the frames are not readable.
    stop(ASGST_FRAMES_IN_HEAP);
    return false;
  }
  if (in_continuation && !f.is_heap_frame() && !caller.is_heap_frame() && leaves_continuation_unseen(f, caller)) {
    stop(ASGST_FRAMES_IN_HEAP);
    return false;
  }
  begin_java(caller, AsgstFrameEdges::sender_check_validates_interpreted_frames());
  return true;
}

// Whether a walk that begins at top would begin with the carrier's frames
// (below the continuation's entry on the stack) although the thread has
// entered a continuation: a stub that thaws or freezes frames, or a C
// function that it called, runs with sp at the entry (the frame pointer
// chain of a C function leads past the stub and the entry), while the
// continuation's frames are in the heap.
bool AsgstStackWalker::is_below_continuation_entry(const frame& top) const {
  const ContinuationEntry* entry = JavaThread::cast(_thread)->last_continuation();
  return entry != nullptr && top.sp() > (intptr_t*)entry;
}

// Whether the step from f to caller leaves the thread's innermost continuation
// without its entry frame (enterSpecial): the stubs that freeze and thaw
// frames (Continuation.doYield, the thaw and return barrier stubs) move sp to
// the continuation's entry, so their caller is the carrier's frame below it.
// The continuation's frames are then in the heap, being frozen or thawed.
bool AsgstStackWalker::leaves_continuation_unseen(const frame& f, const frame& caller) const {
  return crosses_continuation_entry(f.sp(), caller.sp()) && !Continuation::is_continuation_enterSpecial(f);
}

// Whether a step from a frame at callee_sp to one at caller_sp passes the
// thread's innermost continuation entry.
bool AsgstStackWalker::crosses_continuation_entry(intptr_t* callee_sp, intptr_t* caller_sp) const {
  const ContinuationEntry* entry = JavaThread::cast(_thread)->last_continuation();
  return entry != nullptr && callee_sp <= (intptr_t*)entry && caller_sp > (intptr_t*)entry;
}

// Whether a compiled method at pc, a return address in its prologue (the
// call of its nmethod entry barrier's stub), has its frame built: HotSpot
// counts its frame complete only after the prologue, but the instructions
// from pc to there leave sp and the frame record as they are (AsgstFrameEdges).
static bool is_frame_built_at_prologue_call(const nmethod* nm, address pc) {
  int saved_fp_slot;
  int caller_sp_words;
  int slot = AsgstFrameEdges::return_address_slot(nm, pc, &saved_fp_slot, &caller_sp_words);
  return !nm->is_frame_complete_at(pc) && nm->frame_size() > 0 && caller_sp_words == nm->frame_size() &&
         slot == nm->frame_size() - 1;
}

// The caller of f where frame::safe_for_sender refuses it although it is
// sound: an FFM upcall stub (Java called from C through FFM), the compiled
// caller of a runtime stub at a last Java frame anchor (at_anchor), the
// caller of a compiled frame whose prologue called the nmethod entry
// barrier (which, on aarch64, anchors the thread at that frame), or a
// compiled frame marked for deoptimization, whose return address was
// redirected to its deoptimization handler. All lie in generated code with
// known layouts; the return address and saved frame pointer lie just below
// the caller's sp.
bool AsgstStackWalker::caller_refused_by_sender_check(const frame& f, bool at_anchor, frame* caller) const {
  JavaThread* thread = JavaThread::cast(_thread);
  intptr_t* sender_sp;
  intptr_t* sender_unextended_sp;
  if (f.is_interpreted_frame()) {
    // fp was validated when f was reported. A c2i adapter may have extended
    // the caller's sp; the frame keeps the caller's own.
    sender_sp = f.fp() + frame::sender_sp_offset;
    sender_unextended_sp = (intptr_t*)SafeFetchN(f.fp() + frame::interpreter_frame_sender_sp_offset, 0);
  } else if (f.cb() != nullptr && f.cb()->frame_size() > 0) {  // compiled code or a stub
    sender_sp = f.unextended_sp() + f.cb()->frame_size();
    sender_unextended_sp = sender_sp;
  } else {
    return false;
  }
  intptr_t* return_address_slot = sender_sp + (frame::return_addr_offset - frame::sender_sp_offset);
  intptr_t* saved_fp_slot = sender_sp + (frame::link_offset - frame::sender_sp_offset);
  if (sender_sp <= f.sp() || !thread->is_in_usable_stack((address)saved_fp_slot) ||
      !thread->is_in_usable_stack((address)sender_sp) || sender_unextended_sp < sender_sp ||
      !thread->is_in_usable_stack((address)sender_unextended_sp)) {
    return false;
  }
  address pc = AsgstFrameEdges::strip_return_address((address)SafeFetchN(return_address_slot, 0));
  intptr_t* saved_fp = (intptr_t*)SafeFetchN(saved_fp_slot, 0);
  CodeBlob* cb = pc == nullptr ? nullptr : CodeCache::find_blob(pc);
  if (cb == nullptr) {
    return false;
  }
  if (cb->is_upcall_stub()) {
    *caller = frame(sender_sp, sender_unextended_sp, saved_fp, pc);
    return true;
  }
  nmethod* nm = cb->as_nmethod_or_null();
  nmethod* own = f.is_interpreted_frame() ? nullptr : f.cb()->as_nmethod_or_null();
  if (own != nullptr && is_frame_built_at_prologue_call(own, f.pc()) &&
      (Interpreter::contains(pc) || StubRoutines::returns_to_call_stub(pc) ||
       (nm != nullptr && nm->insts_contains_inclusive(pc) && !nm->is_deopt_entry(pc) && !nm->is_deopt_mh_entry(pc)))) {
    *caller = frame(sender_sp, sender_unextended_sp, saved_fp, pc);
    return true;
  }
  if (at_anchor && f.cb()->is_runtime_stub() && nm != nullptr && nm->insts_contains_inclusive(pc) &&
      !nm->is_deopt_entry(pc) && !nm->is_deopt_mh_entry(pc)) {
    // A runtime stub that called into the VM (C1's and C2's allocation,
    // locking, patching and counter-overflow stubs) set the anchor once its
    // frame was built, but it never counts as complete for safe_for_sender.
    // Its caller is the compiled frame that called it.
    *caller = frame(sender_sp, sender_unextended_sp, saved_fp, pc);
    return true;
  }
  if (nm == nullptr || !(nm->is_deopt_entry(pc) || nm->is_deopt_mh_entry(pc)) || nm->frame_size() <= 0 ||
      !thread->is_in_usable_stack((address)(sender_unextended_sp + nm->frame_size() - 1))) {
    return false;
  }
  // The frame constructor reads the original pc from the frame: check it first.
  address original_pc = (address)SafeFetchN((intptr_t*)((address)sender_unextended_sp + nm->orig_pc_offset()), 0);
  if (!nm->insts_contains_inclusive(original_pc)) {
    return false;
  }
  *caller = frame(sender_sp, sender_unextended_sp, saved_fp, pc);
  return true;
}

// Continues below a frame where C called Java (boundary), whose saved anchor
// tells where the Java frames of that C code's caller are. With native frames
// the C frames in between come first, along the frame pointer chain.
bool AsgstStackWalker::step_into_caller_of_java(const frame& boundary, JavaFrameAnchor* anchor) {
  // The callers found the anchor within the usable stack: it can be read.
  intptr_t* sp = anchor->last_Java_sp();
  intptr_t* fp = anchor->last_Java_fp();
  address pc = anchor->last_Java_pc();
  AsgstNativeFrame c_caller;
  bool has_c_caller = includes_native_frames() && native_caller(native_frame_of(boundary), &c_caller) &&
                      !is_generated_code(c_caller.pc);
  if (sp == nullptr) {
    // The first Java frames of the thread: only C frames remain below.
    if (has_c_caller) {
      begin_native(c_caller, nullptr, frame());
      return true;
    }
    stop(ASGST_NO_FRAME);
    return false;
  }
  frame caller;
  if (sp <= boundary.sp() || !java_frame_from_anchor(sp, fp, pc, &caller)) {
    stop(ASGST_BROKEN_FRAME);
    return false;
  }
  if (has_c_caller && c_caller.sp < sp) {
    begin_native(c_caller, sp, caller, true);
  } else {
    begin_java(caller, false, true);
  }
  return true;
}

// Prepares the scopes of nm at pc to be reported with the given registers.
bool AsgstStackWalker::begin_scopes(nmethod* nm, address pc, const AsgstNativeFrame& registers, bool at_top) {
  PcDesc* desc = nm->pc_desc_at(pc);
  if (desc == nullptr && at_top) {
    desc = nm->pc_desc_near(pc + 1);
  }
  if (desc == nullptr || desc->scope_decode_offset() == no_scope) {
    return false;
  }
  _nm = nm;
  _scope_offset = desc->scope_decode_offset();
  _scope_frame = registers;
  return true;
}
