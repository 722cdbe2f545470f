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

// The walker's top-frame finder: where a walk begins, from a signal context,
// a thread's last Java frame anchor, or the frames the context leads to.
// The cursor that goes on from there is in asgstStackWalker.cpp.

#include "code/codeCache.hpp"
#include "code/nmethod.inline.hpp"
#include "gc/shared/collectedHeap.hpp"
#include "interpreter/interpreter.hpp"
#include "memory/universe.hpp"
#include "oops/method.inline.hpp"
#include "prims/asgstFrameEdges.hpp"
#include "prims/asgstReturnSites.hpp"
#include "prims/asgstSenderStep.hpp"
#include "prims/asgstStackWalker.hpp"
#include "prims/asgstThreadState.hpp"
#include "runtime/continuation.hpp"
#include "runtime/atomic.hpp"
#include "runtime/continuationEntry.hpp"
#include "runtime/frame.inline.hpp"
#include "runtime/javaThread.inline.hpp"
#include "runtime/safefetch.hpp"
#include "runtime/sharedRuntime.hpp"
#include "runtime/stubCodeGenerator.hpp"
#include "runtime/stubRoutines.hpp"
#include "utilities/align.hpp"

// The Java method's compiled code (a native wrapper included) that pc can
// be a return address into; null if none. A deoptimization handler's pc
// would make a frame read its original pc from the frame (and assert it); no
// call returns there.
static nmethod* compiled_java_code_returned_to(address pc) {
  CodeBlob* cb = pc == nullptr ? nullptr : CodeCache::find_blob(pc);
  nmethod* nm = cb == nullptr ? nullptr : cb->as_nmethod_or_null();
  return nm != nullptr && nm->method() != nullptr && nm->insts_contains(pc) && !nm->is_deopt_pc(pc) ? nm : nullptr;
}

// Whether a caller's pc can be the return address it names: in a Java
// method's compiled code, a call's return address has an exact PcDesc. A
// stale word of the stack that points into compiled code elsewhere passes
// the sender checks but has none.
static bool is_call_return_of(const frame& caller) {
  nmethod* nm = caller.cb() == nullptr ? nullptr : caller.cb()->as_nmethod_or_null();
  return nm == nullptr || nm->method() == nullptr || nm->is_native_method() || nm->pc_desc_at(caller.pc()) != nullptr;
}

// What caller_of_incomplete_frame finds.
enum IncompleteFrame {
  frame_complete,  // or not a compiled method's or native wrapper's: sp names the frame
  caller_found,
  caller_unknown   // incomplete, and its return address is not where the walk can read it
};

// The caller of a compiled method or native wrapper (cb, the code blob of
// f.pc) interrupted where its frame is not complete (AsgstFrameEdges): in its
// prologue, or after its epilogue popped the frame. The caller is the top.
// Its return address may still be in the link register, which a walk from a
// frame's sp, fp and pc alone (ASGST_RunWithIteratorFromFrame) does not have:
// then the caller is unknown, and a frame made from sp would be a guess.
static IncompleteFrame caller_of_incomplete_frame(const AsgstNativeFrame& f, CodeBlob* cb,
                                                  AsgstNativeFrame* caller) {
  nmethod* nm = cb == nullptr ? nullptr : cb->as_nmethod_or_null();
  if (nm == nullptr || f.sp == nullptr || !is_aligned(f.sp, wordSize)) {
    return frame_complete;
  }
  int saved_fp_slot;
  int caller_sp_words;
  int slot = AsgstFrameEdges::return_address_slot(nm, f.pc, &saved_fp_slot, &caller_sp_words);
  address pc;
  if (slot == AsgstFrameEdges::in_link_register) {
    pc = f.lr;
  } else if (slot >= 0) {
    pc = (address)SafeFetchN(f.sp + slot, 0);
  } else {
    return frame_complete;
  }
  if (pc == nullptr) {
    return caller_unknown;
  }
  caller->pc = AsgstFrameEdges::strip_return_address(pc);
  caller->sp = f.sp + caller_sp_words;
  caller->fp = saved_fp_slot < 0 ? f.fp : (intptr_t*)SafeFetchN(f.sp + saved_fp_slot, 0);
  caller->lr = nullptr;
  return caller_found;
}

// HotSpot's exception, deoptimization and uncommon trap blobs never mark
// their frames complete: they are entered by jumps or from frames in odd
// states and build and pop their frames in steps. Interrupted in one, sp
// does not tell where its frame ends, and a frame made from sp would read
// its caller from a word of the frame below (at the exception blob's entry
// and exit, the compiled frame it unwinds to is at sp, with its pc in a
// register). The safepoint handler blobs are left to the sender checks:
// refusing them would drop the samples of every armed poll's register
// saving. cb is the code blob of the interrupted pc.
static bool in_unwinding_stub(CodeBlob* cb) {
  return cb != nullptr && (cb->is_exception_stub() || cb->is_deoptimization_stub() ||
                           cb->is_uncommon_trap_stub());
}

// The stub of StubRoutines that holds pc, if it is one: code of a
// BufferBlob outside the interpreter with a stub descriptor.
// StubCodeDesc::desc_for walks every stub's descriptor: only for such pcs.
static StubCodeDesc* stub_routine_of(address pc, CodeBlob* cb) {
  return cb == nullptr || !cb->is_buffer_blob() || Interpreter::contains(pc) ? nullptr : StubCodeDesc::desc_for(pc);
}

// Whether pc returns from a call into the stub. Read only in the code cache:
// a word of the stack may be anything, and a read that faults costs a
// signal of several microseconds (a thread sampled often enough would run
// nothing but its handler).
static bool returns_from_call_into_stub(address pc, StubCodeDesc* desc) {
  return pc != nullptr && CodeCache::contains(pc) &&
         AsgstFrameEdges::returns_from_call_into(pc, desc->begin(), desc->end());
}

// One step from a frame in a stub of StubRoutines (desc) to its caller,
// where the stub's instructions left the return address: at sp, or one word
// above, at the stub's entry and return (as for a C function without a
// frame; interrupted there only), or in the frame record that HotSpot's
// enter() made, which the frame pointer names (stubs make one for stack
// walks), or, interrupted, in the link register where another stub called
// this one (aarch64's array copies call helpers without a frame: that
// stub's frame record gives the caller's sp, the next step). Each is taken
// only where the instructions just before it call into this stub: a stale
// word, or a frame pointer that the stub left alone, gives no such return
// address.
static bool step_out_of_stub(JavaThread* thread, const AsgstNativeFrame& f, StubCodeDesc* desc, bool interrupted,
                             AsgstNativeFrame* found) {
  if (interrupted && AsgstFrameEdges::caller_of_frameless(f, found) == AsgstFrameEdges::caller_found &&
      returns_from_call_into_stub(found->pc, desc)) {
    return true;
  }
  intptr_t* fp = f.fp;
  if (fp != nullptr && is_aligned(fp, wordSize) && fp >= f.sp &&
      thread->is_in_usable_stack((address)(fp + frame::sender_sp_offset))) {
    found->pc = AsgstFrameEdges::strip_return_address((address)SafeFetchN(fp + frame::return_addr_offset, 0));
    found->sp = fp + frame::sender_sp_offset;
    found->fp = (intptr_t*)SafeFetchN(fp + frame::link_offset, 0);
    found->lr = nullptr;
    if (returns_from_call_into_stub(found->pc, desc)) {
      return true;
    }
  }
  address lr = interrupted ? AsgstFrameEdges::strip_return_address(f.lr) : nullptr;
  if (lr != nullptr && compiled_java_code_returned_to(lr) == nullptr &&
      returns_from_call_into_stub(lr, desc)) {
    AsgstNativeFrame in_caller_stub = { lr, f.sp, f.fp, nullptr };
    *found = in_caller_stub;
    return true;
  }
  return false;
}

// The caller of a stub of StubRoutines (array copies, checksums, ciphers,
// ...) that compiled code called without a state change: the stub's code
// blob is a BufferBlob, whose frames have no size, and the sender checks
// refuse them. Taken where the steps out of the stub (at most two stubs
// deep) reach a Java method's compiled code. cb is f.pc's code blob;
// interrupted: f is the signal's context (not a frame found below it).
static bool caller_of_stub_routine(JavaThread* thread, const AsgstNativeFrame& f, CodeBlob* cb, bool interrupted,
                                   AsgstNativeFrame* caller) {
  const int max_nested_stubs = 2;
  AsgstNativeFrame current = f;
  StubCodeDesc* desc = f.sp == nullptr ? nullptr : stub_routine_of(f.pc, cb);
  for (int stubs = 0; desc != nullptr && stubs < max_nested_stubs; stubs++) {
    AsgstNativeFrame found;
    if (!step_out_of_stub(thread, current, desc, interrupted && stubs == 0, &found) || found.sp < current.sp ||
        !thread->is_in_usable_stack((address)found.sp)) {
      return false;
    }
    if (compiled_java_code_returned_to(found.pc) != nullptr) {
      *caller = found;
      return true;
    }
    current = found;
    desc = stub_routine_of(found.pc, CodeCache::find_blob(found.pc));
  }
  return false;
}

// Whether pc is the first instruction of a safepoint handler blob. A poll's
// stub (or the VM's signal handler, for a poll that traps) saves the poll's
// pc in the thread and jumps there; nothing of the blob's frame is built
// yet, and a frame made from sp with the blob's size would read its caller
// far above, where an older frame's return address may lie. cb is pc's
// code blob (SharedRuntime makes its three safepoint handler blobs, and only
// them, as SafepointBlobs).
static bool is_safepoint_blob_entry(address pc, CodeBlob* cb) {
  return cb != nullptr && cb->is_safepoint_stub() && pc == cb->code_begin();
}

// The stubs that thaw a virtual thread's frames from the heap, when it
// mounts and when a frame returns into frames still frozen. Interrupted in
// one, or in the VM code it calls without an anchor, the thread's frames are
// not on the stack yet, and the stub's sp stands at the continuation's
// entry: a frame made from it takes the carrier's frame for its caller.
// Their code is looked up once: StubCodeDesc::desc_for walks every stub's
// descriptor.
class AsgstThawStubs : AllStatic {
  static const int count = 3;
  static address _begin[count];
  static address _end[count];
  static volatile bool _known;

 public:
  static bool contain(address pc) {
    if (!Continuations::enabled()) {
      return false;  // none is ever generated (and look_up would fail at every walk)
    }
    if (!Atomic::load_acquire(&_known) && !look_up()) {
      // Not generated yet: each walk asks again.
      StubCodeDesc* desc = StubCodeDesc::desc_for(pc);
      return desc != nullptr && is_thaw_stub(desc->begin());
    }
    for (int i = 0; i < count; i++) {
      if (pc >= _begin[i] && pc < _end[i]) {
        return true;
      }
    }
    return false;
  }

 private:
  static bool is_thaw_stub(address begin) {
    return begin == StubRoutines::cont_thaw() || begin == StubRoutines::cont_returnBarrier() ||
           begin == StubRoutines::cont_returnBarrierExc();
  }

  // The ranges of the three stubs, once all are generated (their
  // descriptors do not change after); several threads may look them up at
  // once, with the same result.
  static bool look_up() {
    address entries[count] = { StubRoutines::cont_thaw(), StubRoutines::cont_returnBarrier(),
                               StubRoutines::cont_returnBarrierExc() };
    for (int i = 0; i < count; i++) {
      StubCodeDesc* desc = entries[i] == nullptr ? nullptr : StubCodeDesc::desc_for(entries[i]);
      if (desc == nullptr || desc->begin() != entries[i] || desc->end() <= desc->begin()) {
        return false;
      }
      _begin[i] = desc->begin();
      _end[i] = desc->end();
    }
    Atomic::release_store(&_known, true);
    return true;
  }
};

address AsgstThawStubs::_begin[AsgstThawStubs::count];
address AsgstThawStubs::_end[AsgstThawStubs::count];
volatile bool AsgstThawStubs::_known = false;

int AsgstStackWalker::start(const AsgstNativeFrame& context) {
  _interrupted_sp = context.sp;
  int kind = AsgstThreadState::is_java_thread(_thread) ? start_java_thread(JavaThread::cast(_thread), context)
                                     : start_non_java_thread(context);
  if (kind > 0) {
    _top = _pos;
    rewind();
    if (_in_vm) {
      walk_heap_frames();
    } else if (AsgstThreadState::is_java_thread(_thread) &&
               heap_frames_readable(JavaThread::cast(_thread), context)) {
      _map.set_stack_chunk_slot(&_chunk_slot);
      _map.set_walk_cont(true);
    }
  }
  return kind;
}

// Whether a walk that is not made InVM (in a signal handler, or of a thread
// that the caller halted) may go on into a virtual thread's frames frozen in
// the heap, read from its stack chunks as walk_heap_frames reads them. That
// is safe while no object moves and each frame is in one place, whole
// (doc/stack-walking.md, "Frames in the heap"):
//  - Serial, Parallel and G1 move objects only at safepoints, Epsilon never;
//    ZGC and Shenandoah relocate them while Java code runs.
//  - A thread in _thread_in_Java holds off every safepoint: the VM counts it
//    unsafe until it polls. (Not so _thread_in_vm, which a thread takes when
//    it wakes from _thread_blocked during a safepoint, before it blocks
//    again, nor _thread_in_native_trans, which it takes from native.)
//  - No freeze has begun on the thread since its last thaw ended
//    (AsgstHooks::freeze_begins): a freeze writes chunks while the thread is
//    still in Java, and the frozen frames stay on the stack until the yield
//    or preemption has unwound them.
//  - The context's pc is in a Java method's code, the interpreter or an
//    nmethod other than a continuation intrinsic, not in the stubs that
//    call freeze and thaw (nor in a context that the caller made up).
bool AsgstStackWalker::heap_frames_readable(JavaThread* thread, const AsgstNativeFrame& context) {
  if (thread->last_continuation() == nullptr || thread->thread_state() != _thread_in_Java ||
      Atomic::load(&thread->_asgst_chunks_unsettled) || context.pc == nullptr) {
    return false;
  }
  switch (Universe::heap()->kind()) {
    case CollectedHeap::Serial:
    case CollectedHeap::Parallel:
    case CollectedHeap::G1:
    case CollectedHeap::Epsilon:
      break;
    default:
      return false;
  }
#ifdef ASSERT
  // HotSpot's chunk code asserts on the current thread in debug builds. The
  // _safe form reads no thread_local, whose first access on a thread that
  // never touched one of libjvm's may allocate.
  if (Thread::current_or_null_safe() == nullptr) {
    return false;
  }
#endif
  if (Interpreter::contains(context.pc)) {
    return true;
  }
  CodeBlob* cb = CodeCache::find_blob(context.pc);
  nmethod* nm = cb == nullptr ? nullptr : cb->as_nmethod_or_null();
  return nm != nullptr && nm->method() != nullptr && !nm->method()->is_continuation_native_intrinsic();
}

// GC, compiler and other VM threads: only their C/C++ frames exist.
int AsgstStackWalker::start_non_java_thread(const AsgstNativeFrame& context) {
  if ((_options & ASGST_INCLUDE_NON_JAVA_THREADS) == 0) {
    return ASGST_NO_THREAD;
  }
  if (context.pc == nullptr || !_thread->is_in_full_stack((address)context.sp)) {
    return ASGST_NO_TOP_JAVA_FRAME;
  }
  begin_native(context, nullptr, frame());
  CollectedHeap* heap = Universe::heap();
  bool in_gc = _thread->is_ConcurrentGC_thread() || _thread->is_Worker_thread() ||
               (_thread->is_VM_thread() && heap != nullptr && heap->is_stw_gc_active());
  return in_gc ? ASGST_GC_TRACE : ASGST_CPP_TRACE;
}

int AsgstStackWalker::start_java_thread(JavaThread* thread, const AsgstNativeFrame& context) {
  if (thread->is_terminated()) {
    return ASGST_NO_THREAD;  // gone from the VM's threads, only its memory remains
  }
  if (thread->is_exiting()) {
    return ASGST_THREAD_EXIT;
  }
  bool unsafe_allowed = (_options & ASGST_WALK_DURING_UNSAFE_STATES) != 0;
  CollectedHeap* heap = Universe::heap();
  if (!unsafe_allowed && heap != nullptr && heap->is_stw_gc_active()) {
    // Class unloading may free metadata during a collection (as AsyncGetCallTrace).
    return ASGST_UNSAFE_STATE;
  }
  bool context_usable = context.pc != nullptr && thread->is_in_full_stack((address)context.sp);
  switch (thread->thread_state()) {
    case _thread_in_Java:
    case _thread_in_Java_trans: {
      // CodeCache::contains walks the code heaps: java_top_from_context takes
      // its answer. The interpreter lies in the code cache; an interrupted pc
      // that a walk of the epoch kept lies in an nmethod that is not freed yet
      // (the interpreter's pcs are never kept).
      bool context_in_code = context.pc != nullptr &&
                             (Interpreter::contains(context.pc) ||
                              AsgstReturnSites::find(AsgstReturnSites::interrupted_pc, context.pc, _seen.code_epoch,
                                                     &_top_site) ||
                              is_generated_code(context.pc));
      if (thread->has_last_Java_frame() && !context_in_code) {
        // C code called into the VM from generated code, before or after its
        // state transition. While it builds or tears down its frame, the frame
        // pointer still names its caller's frame, and the chain would skip
        // that frame: the anchor that the call set is exact.
        int result = start_at_anchor(thread, context, context_usable);
        if (result != 1) {
          return result;
        }
        break;
      }
      // In Java code (or a stub or leaf C function it called): only the context knows the top.
      frame top;
      int result = java_top_from_context(thread, context, context_in_code, &top);
      if (result != 1) {
        return result;
      }
      if (is_below_continuation_entry(top)) {
        return ASGST_FRAMES_IN_HEAP;
      }
      _executing = top;
      if (includes_native_frames() && !context_in_code) {
        begin_native(context, top.sp(), top);
      } else {
        begin_java(top);
      }
      break;
    }
    case _thread_new:
    case _thread_new_trans:
    case _thread_uninitialized:
      return ASGST_NO_TOP_JAVA_FRAME;
    case _thread_in_native:
    case _thread_in_native_trans:
    case _thread_in_vm:
    case _thread_in_vm_trans:
    case _thread_blocked:
    case _thread_blocked_trans:
    default: {
      if (!unsafe_allowed && thread->thread_state() >= _thread_max_state) {
        return ASGST_UNSAFE_STATE;  // a state that this walker does not know
      }
      int result = start_at_anchor(thread, context, context_usable);
      if (result != 1) {
        return result;
      }
      break;
    }
  }
  const frame& first_java = _pos.java;
  bool deoptimizing = first_java.cb() != nullptr &&
                      first_java.cb() == (CodeBlob*)SharedRuntime::deopt_blob();
  return deoptimizing ? ASGST_DEOPT_TRACE : ASGST_JAVA_TRACE;
}

// Out of Java code (or in C code that generated code called into the VM):
// the last Java frame anchor tells where Java frames begin. 1 if it does.
int AsgstStackWalker::start_at_anchor(JavaThread* thread, const AsgstNativeFrame& context, bool context_usable) {
  JavaFrameAnchor* anchor = thread->frame_anchor();
  frame top;
  // A freeze anchors the thread at its continuation's entry as it unwinds
  // the frames it froze to the heap, writing the anchor's sp before its pc:
  // interrupted between, the sp is the entry's and the pc still that of the
  // frame that began the freeze, which lies elsewhere.
  const ContinuationEntry* entry = thread->last_continuation();
  if (entry != nullptr && anchor->last_Java_sp() == entry->entry_sp() &&
      anchor->last_Java_pc() != ContinuationEntry::entry_pc()) {
    return ASGST_FRAMES_IN_HEAP;
  }
  if (!thread->has_last_Java_frame() ||
      !java_frame_from_anchor(anchor->last_Java_sp(), anchor->last_Java_fp(), anchor->last_Java_pc(), &top)) {
    // No Java frames: a thread attached from C, or one that has not called Java yet.
    if (includes_native_frames() && context_usable && !is_generated_code(context.pc)) {
      begin_native(context, nullptr, frame());
      return ASGST_CPP_TRACE;
    }
    return ASGST_NO_TOP_JAVA_FRAME;
  }
  if (is_below_continuation_entry(top)) {
    return ASGST_FRAMES_IN_HEAP;
  }
  if (includes_native_frames() && context_usable && !is_generated_code(context.pc) && context.sp < top.sp()) {
    begin_native(context, top.sp(), top, true);
  } else {
    begin_java(top, false, true);
  }
  return 1;
}

// The topmost frame of generated code, for a thread in Java. A C function
// that compiled code calls without a thread state change (a leaf call) is
// followed along the frame pointer chain back into the generated code.
int AsgstStackWalker::java_top_from_context(JavaThread* thread, const AsgstNativeFrame& context,
                                            bool in_generated_code, frame* top) {
  assert(context.pc == nullptr || in_generated_code == is_generated_code(context.pc), "asked for this context");
  if (context.pc == nullptr || context.sp == nullptr ||
      !thread->is_in_usable_stack((address)context.sp)) {
    return ASGST_NO_TOP_JAVA_FRAME;
  }
  if (_top_site.nm != nullptr && _top_site.pc == context.pc && is_aligned(context.sp, wordSize)) {
    // A walk of the epoch found the code's answers at this pc (remember_interrupted_site):
    // only the stack is left to check.
    _seen.blob = _top_site.nm;
    AsgstNativeFrame f = context;
    f.sp += _top_site.words_pushed;
    return generated_frame_at(thread, f, _top_site.nm, top) ? 1 : ASGST_NO_TOP_JAVA_FRAME;
  }
  // The context's lookup, kept in _seen: the step from the top finds a
  // recursion's caller without another (AsgstSenderStep).
  CodeBlob* context_cb = in_generated_code ? AsgstSenderStep::blob_of(context.pc, &_seen) : nullptr;
  if (is_safepoint_blob_entry(context.pc, context_cb)) {
    // The thread stands where its poll was, with the poll's sp and registers.
    AsgstNativeFrame at_poll = context;
    at_poll.pc = thread->saved_exception_pc();
    if (at_poll.pc == nullptr || !is_generated_code(at_poll.pc) ||
        is_safepoint_blob_entry(at_poll.pc, AsgstSenderStep::blob_of(at_poll.pc, &_seen))) {
      return ASGST_NO_TOP_JAVA_FRAME;
    }
    return java_top_from_context(thread, at_poll, true, top);
  }
  AsgstNativeFrame f = context;
  AsgstNativeFrame frame_caller;
  IncompleteFrame incomplete = in_generated_code ? caller_of_incomplete_frame(context, context_cb, &frame_caller)
                                                 : frame_complete;
  if (incomplete == caller_unknown) {
    return ASGST_NO_TOP_JAVA_FRAME;
  }
  if (incomplete == caller_found) {
    // A frame made from sp would read its caller from the wrong place.
    CodeBlob* caller_cb = AsgstSenderStep::blob_of(frame_caller.pc, &_seen);  // null outside generated code
    if (!thread->is_in_usable_stack((address)frame_caller.sp) ||
        !is_frame_pc(frame_caller.sp, frame_caller.pc, caller_cb) ||
        !generated_frame_at(thread, frame_caller, caller_cb, top)) {
      return ASGST_NO_TOP_JAVA_FRAME;
    }
    return 1;
  }
  if (in_generated_code && in_unwinding_stub(context_cb)) {
    return ASGST_NO_TOP_JAVA_FRAME;
  }
  if (in_generated_code && AsgstThawStubs::contain(context.pc)) {
    return ASGST_FRAMES_IN_HEAP;
  }
  AsgstNativeFrame stub_caller;
  if (in_generated_code && caller_of_stub_routine(thread, context, context_cb, true, &stub_caller)) {
    return java_top_from_context(thread, stub_caller, true, top);
  }
  nmethod* context_nm = context_cb == nullptr ? nullptr : context_cb->as_nmethod_or_null();
  if (context_nm != nullptr && is_aligned(f.sp, wordSize)) {
    int words_pushed = AsgstFrameEdges::words_pushed_for_call(context_nm, context.pc);
    f.sp += words_pushed;  // the frame lies above them
    remember_interrupted_site(context_nm, context.pc, words_pushed);
  }
  bool along_chain = true;
  bool sp_from_record = false;  // the chain's last step read a C frame's record
  bool caller_known = false;    // the interrupted function's instructions told its caller's sp
  bool f_in_generated_code = in_generated_code;
  for (int leaf_frames = 0; along_chain && !f_in_generated_code; leaf_frames++) {
    AsgstNativeFrame caller;
    AsgstFrameEdges::Frameless frameless = leaf_frames == 0 ? AsgstFrameEdges::caller_of_frameless(f, &caller)
                                                            : AsgstFrameEdges::has_frame;
    if (frameless == AsgstFrameEdges::caller_unknown) {
      return ASGST_NO_TOP_JAVA_FRAME;  // the frame pointer would skip the caller
    }
    bool known = frameless == AsgstFrameEdges::caller_found;
    bool found = (known || (leaf_frames == 0 && interpreted_caller_at_sp(f, &caller))) &&
                 thread->is_in_usable_stack((address)caller.sp);
    along_chain = leaf_frames < max_leaf_frames && (found || native_caller(f, &caller));
    if (along_chain) {
      sp_from_record = !found;
      caller_known = known && found;
      f = caller;
      f_in_generated_code = is_generated_code(f.pc);
    }
  }
  // Where the instructions told the caller's sp, no other sp is looked for:
  // a frame made at a lower one (aarch64, after the push of the frame
  // record) may find a stale return address whose senders reach the chain.
  bool out_of_steps = false;
  if (!in_generated_code && !(caller_known && f_in_generated_code) &&
      compiled_caller_at_sp(thread, context, along_chain ? &f : nullptr, top, &out_of_steps)) {
    return 1;
  }
  if (out_of_steps) {
    return ASGST_NO_TOP_JAVA_FRAME;  // a compiled frame at sp neither joined nor ruled out
  }
  if (along_chain && AsgstThawStubs::contain(f.pc)) {
    return ASGST_FRAMES_IN_HEAP;
  }
  if (along_chain && sp_from_record && !AsgstFrameEdges::c_frame_record_gives_caller_sp() &&
      !generated_caller_of_record(thread, &f)) {
    return ASGST_NO_TOP_JAVA_FRAME;
  }
  if (!along_chain) {
    return ASGST_NO_TOP_JAVA_FRAME;
  }
  CodeBlob* cb = f.pc == context.pc ? context_cb : AsgstSenderStep::blob_of(f.pc, &_seen);
  if (!in_generated_code && caller_of_stub_routine(thread, f, cb, false, &stub_caller)) {
    return java_top_from_context(thread, stub_caller, true, top);  // a C function that a stub called
  }
  if (!is_frame_pc(f.sp, f.pc, cb) || !generated_frame_at(thread, f, cb, top)) {
    return ASGST_NO_TOP_JAVA_FRAME;
  }
  if (Interpreter::contains(context.pc) && top->is_interpreted_frame() &&
      !compiled_caller_of_interpreter_entry(thread, context, top)) {
    return ASGST_NO_TOP_JAVA_FRAME;
  }
  return 1;
}

// The interpreter runs the entry of a method that compiled code called
// (through the c2i adapter) before the callee's frame is built: the frame
// pointer is then whatever the compiled code kept in it, often the fp of an
// older interpreted frame that is in a call (its last sp set), and taking
// that frame would lose the compiled frames between. They lie between sp and
// where that call began. The caller's return address is the first compiled
// one above sp (the c2i adapter put it below the arguments, the entry below
// the locals), or, where a call leaves it in the link register, still there
// (the entry saves it only as it builds the frame). An interpreted caller
// leaves no compiled return address, and top stays. False where the search
// ran out of sender steps (max_joined_frames): the walk is refused.
bool AsgstStackWalker::compiled_caller_of_interpreter_entry(JavaThread* thread, const AsgstNativeFrame& context,
                                                            frame* top) {
  intptr_t* fp = top->fp();
  intptr_t* call_sp;
  if (!AsgstFrameEdges::interpreted_call_sp(fp, &call_sp) || context.sp == nullptr ||
      !is_aligned(context.sp, wordSize)) {
    return true;  // not in a call
  }
  // Joined by its frame pointer; a walk that passes it without has failed.
  AsgstNativeFrame beyond = { nullptr, fp + frame::sender_sp_offset, fp };
  address pc = nullptr;
  nmethod* nm = nullptr;
  intptr_t* first_sp;
  if (AsgstFrameEdges::return_address_at_callee_sp()) {
    intptr_t* slot = context.sp;
    for (; slot < call_sp - 1 && slot < context.sp + max_entry_words; slot++) {
      pc = (address)SafeFetchN(slot, 0);
      nm = compiled_java_code_returned_to(pc);
      if (nm != nullptr) {
        break;
      }
    }
    if (nm == nullptr) {
      return true;
    }
    first_sp = slot + 1;
  } else {
    pc = AsgstFrameEdges::strip_return_address(context.lr);
    nm = compiled_java_code_returned_to(pc);
    if (nm == nullptr) {
      return true;
    }
    first_sp = context.sp;
  }
  // The caller's own sp lies above the arguments, found where its senders lead back.
  int steps_left = max_joined_frames;
  for (intptr_t* sp = first_sp; sp < call_sp && sp <= first_sp + max_entry_words && steps_left > 0; sp++) {
    AsgstNativeFrame caller = { pc, sp, context.fp };
    frame candidate;
    if (is_aligned(sp, StackAlignmentInBytes) && thread->is_in_usable_stack((address)sp) &&
        generated_frame_at(thread, caller, nm, &candidate) &&
        senders_lead_to(thread, candidate, beyond, fp, &steps_left)) {
      *top = candidate;
      return true;
    }
  }
  // Out of sender steps, the compiled caller may lie beyond them: the older
  // frame would lose the frames between.
  return steps_left > 0;
}

// The sp of generated code that called a C function whose frame record
// does not tell where its caller's sp lies (AsgstFrameEdges), only the
// least it can be (f->sp). Known where the generated code keeps its own
// frame record at the top of its frame and its frame pointer at that record
// (the stubs that build their frames with enter(), and compiled code with
// PreserveFramePointer): the C function saved that frame pointer (f->fp).
bool AsgstStackWalker::generated_caller_of_record(JavaThread* thread, AsgstNativeFrame* f) const {
  CodeBlob* cb = CodeCache::find_blob(f->pc);
  if (cb == nullptr || f->fp == nullptr || !is_aligned(f->fp, wordSize) || cb->frame_size() < frame::sender_sp_offset ||
      (cb->is_nmethod() && !PreserveFramePointer)) {
    return false;  // compiled code may keep anything in the frame pointer register
  }
  intptr_t* sp = f->fp + frame::sender_sp_offset - cb->frame_size();
  if (sp < f->sp || sp > f->sp + max_saved_register_words || !thread->is_in_usable_stack((address)sp)) {
    return false;
  }
  f->sp = sp;
  return true;
}

// The frame of generated code at f, if the sender check takes it. f.pc must
// pass is_frame_pc (the callers check it, once for the many sps they try);
// cb is its code blob. A Java method's frame whose caller AsgstSenderStep
// takes passes the sender check (it checks what safe_for_sender checks),
// and the step then finds its caller's code and method known.
bool AsgstStackWalker::generated_frame_at(JavaThread* thread, const AsgstNativeFrame& f, CodeBlob* cb,
                                          frame* result) {
  frame candidate(f.sp, f.sp, f.fp, f.pc, cb);
  frame caller;
  bool caller_checked;
  if (!AsgstSenderStep::java_caller(thread, candidate, &_seen, &caller, &caller_checked) &&
      !candidate.safe_for_sender(thread)) {
    // Compiled code may use the frame pointer register for anything (unless
    // the step to its caller reads it, AsgstFrameEdges).
    if (AsgstFrameEdges::compiled_sender_reads_fp()) {
      return false;
    }
    frame without_fp(f.sp, f.sp, nullptr, f.pc, cb);
    if (!without_fp.safe_for_sender(thread)) {
      return false;
    }
    candidate = without_fp;
  }
  *result = candidate;
  return true;
}

// The compiled frame below a C function that has no frame at all (a tail
// call such as G1's post-write barrier entry, or a leaf function that saves
// no frame record), which compiled code called without a state change: the
// return address lies at sp (or in the link register), and the frame
// pointer holds whatever the compiled code kept in it. Where that is the
// frame pointer of an older frame, the chain begins there and loses the
// frames above it. Taken where that return address lies in a Java method's
// compiled code (and sp is where a call leaves it: 8 bytes off the
// alignment a call keeps on x86_64, aligned where the link register holds
// it) and its frame passes the sender check, and, where the chain reached
// generated code (chain_end), only if that frame's senders lead to the
// chain's frame or to the frame whose frame pointer the context holds. Such
// a call from a barrier stub comes after the stub saved live registers below
// the frame, and a leaf function may lower sp for its locals: with a chain
// to join, the frame's sp is also looked for higher. *out_of_steps: the
// search ran out of sender steps (max_joined_frames) without an answer.
bool AsgstStackWalker::compiled_caller_at_sp(JavaThread* thread, const AsgstNativeFrame& f,
                                             const AsgstNativeFrame* chain_end, frame* result,
                                             bool* out_of_steps) {
  const uintptr_t misalignment = (uintptr_t)f.sp & (StackAlignmentInBytes - 1);
  address pc;
  intptr_t* caller_sp;
  if (f.sp == nullptr) {
    return false;
  } else if (AsgstFrameEdges::return_address_at_callee_sp()) {
    if (misalignment != (uintptr_t)wordSize || !thread->is_in_usable_stack((address)(f.sp + 1))) {
      return false;
    }
    pc = (address)SafeFetchN(f.sp, 0);
    caller_sp = f.sp + 1;
  } else {
    if (misalignment != 0 || f.lr == nullptr || !thread->is_in_usable_stack((address)f.sp)) {
      return false;
    }
    pc = AsgstFrameEdges::strip_return_address(f.lr);
    caller_sp = f.sp;
  }
  nmethod* nm = compiled_java_code_returned_to(pc);
  if (nm == nullptr) {
    return false;
  }
  // A native wrapper keeps its frame pointer at its frame record from its
  // prologue to its epilogue, and a C function without a frame leaves it
  // there: only the sp that record gives is taken. Stale frames below the
  // wrapper's may lead to the chain as well (seen on aarch64).
  intptr_t* wrapper_sp = nm->is_native_method() && f.fp != nullptr
                           ? f.fp + frame::sender_sp_offset - nm->frame_size() : nullptr;
  int saved_words = chain_end == nullptr ? 0 : max_saved_register_words;
  const int aligned_step = StackAlignmentInBytes / wordSize;
  int steps_left = max_joined_frames;
  for (int k = 0; k <= saved_words && steps_left > 0 && thread->is_in_usable_stack((address)(caller_sp + k));
       k += aligned_step) {
    if (nm->is_native_method() && caller_sp + k != wrapper_sp) {
      continue;
    }
    AsgstNativeFrame caller = { pc, caller_sp + k, f.fp };
    frame candidate;
    if (generated_frame_at(thread, caller, nm, &candidate) &&
        (chain_end == nullptr || senders_lead_to(thread, candidate, *chain_end, f.fp, &steps_left))) {
      *result = candidate;
      return true;
    }
  }
  *out_of_steps = steps_left == 0;
  return false;
}

// Words that the sp of an interpreted frame, as its callee's sender step
// makes it, may lie below the sp that the frame recorded for its call:
// its expression stack (the machine sp of an aarch64 interpreted frame
// lies below it), the callee's own words below that sp (stack arguments
// that an i2c adapter moves, an interpreted callee's further locals) and
// the alignments between.
static int words_below_call_sp(const frame& caller, const frame& callee) {
  const int alignment_words = 2 * (int)(StackAlignmentInBytes / wordSize);
  int callee_words;
  if (callee.is_interpreted_frame()) {
    callee_words = callee.interpreter_frame_method()->max_locals();
  } else {
    nmethod* nm = callee.cb() == nullptr ? nullptr : callee.cb()->as_nmethod_or_null();
    callee_words = nm == nullptr || nm->method() == nullptr ? 0 : nm->method()->size_of_parameters();
  }
  return caller.interpreter_frame_method()->max_stack() + callee_words + alignment_words +
         frame::sender_sp_offset;
}

// Whether an interpreted frame that callee's sender step made (the sender
// check validated its method) lies where it made its call: an older frame
// whose frame pointer a stale return address below still leads to would be
// made at a lower sp than its call's.
static bool interpreted_frame_at_its_call(const frame& caller, const frame& callee) {
  intptr_t* call_sp;
  if (!AsgstFrameEdges::interpreted_call_sp(caller.fp(), &call_sp)) {
    return false;  // in no call, or not known
  }
  return caller.sp() <= call_sp && caller.sp() >= call_sp - words_below_call_sp(caller, callee);
}

// Whether f or one of its next senders is the frame at end (by sp and pc),
// or an interpreted or call stub frame whose frame pointer is fp: the chain
// began there (an interpreted one only where it is at its call, as seen
// from the frame before it). Every step is taken by the sender check, and
// counted down from *steps_left, which the callers share among the frames
// they try (max_joined_frames).
bool AsgstStackWalker::senders_lead_to(JavaThread* thread, const frame& f, const AsgstNativeFrame& end,
                                       intptr_t* fp, int* steps_left) {
  frame current = f;
  frame callee;
  bool in_continuation = thread->last_continuation() != nullptr;
  for (int n = 0; *steps_left > 0; n++, (*steps_left)--) {
    if ((current.is_interpreted_frame() || current.is_entry_frame()) && current.fp() == fp) {
      return n == 0 || current.is_entry_frame() || interpreted_frame_at_its_call(current, callee);
    }
    if (current.sp() >= end.sp) {
      return current.sp() == end.sp && current.pc() == end.pc;
    }
    // Calls from C and continuation boundaries need step_java's steps: not followed.
    if (current.is_entry_frame() || current.is_upcall_stub_frame() || !current.safe_for_sender(thread) ||
        (in_continuation && (Continuation::is_continuation_enterSpecial(current) ||
                             Continuation::is_cont_barrier_frame(current)))) {
      return false;
    }
    frame sender = current.sender(&_map);
    if (sender.sp() <= current.sp() || !is_call_return_of(sender)) {
      return false;  // no way up: garbage
    }
    callee = current;
    current = sender;
  }
  return false;
}
