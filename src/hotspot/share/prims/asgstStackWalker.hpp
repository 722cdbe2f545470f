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

#ifndef SHARE_PRIMS_ASGSTSTACKWALKER_HPP
#define SHARE_PRIMS_ASGSTSTACKWALKER_HPP

#include "memory/allocation.hpp"
#include "prims/asgstFrameEdges.hpp"
#include "prims/asgstReturnSites.hpp"
#include "prims/asgstSenderStep.hpp"
#include "profile.h"
#include "runtime/frame.hpp"
#include "runtime/registerMap.hpp"

class CodeBlob;
class JavaFrameAnchor;
class JavaThread;
class Method;
class Thread;
class nmethod;

// The state of one stack walk, behind an ASGST_Iterator. It reports the
// frames of a thread from the top: Java frames (each compiled frame expanded
// into its inlined scopes) and, when asked, the C/C++ frames and stubs
// between them. It reads the stack only after checking addresses against the
// thread's stack bounds, the code cache and metaspace, or through SafeFetch,
// allocates nothing and takes no lock, so it works inside a signal handler.
//
// A walk alternates between two kinds of segments: Java segments, walked
// with HotSpot's frame layout, and native segments, walked along the frame
// pointer chain. A native segment between Java frames ends where the anchor
// of the Java frames below it says they resume, however far the chain got.
class AsgstStackWalker : public StackObj {
  NONCOPYABLE(AsgstStackWalker);

 public:
  // thread is the current thread or one that the caller keeps halted.
  AsgstStackWalker(Thread* thread, int options);
  // A walk of the current thread in the VM (at its own poll, or from its
  // native code by the caller's promise), which may go on into a virtual
  // thread's frames frozen in the heap (see walk_heap_frames): its register
  // map holds a handle for the stack chunks, so it is made only where handles
  // can be (under a HandleMark, never in a signal handler). Other walks read
  // those frames only where heap_frames_readable allows it.
  struct InVM {};
  AsgstStackWalker(Thread* thread, int options, InVM);

  // Positions the walk at the top of the stack. context is where the thread
  // was interrupted (from a ucontext), a frame that the caller found, or has
  // a null pc when unknown.
  // Returns the trace kind (> 0) or an ASGST_Error.
  int start(const AsgstNativeFrame& context);

  // Fills frame with the next frame: returns 1, ASGST_NO_FRAME at the end,
  // or an error. After the end or an error it returns the same again.
  int next(ASGST_Frame* frame);

  // Goes back to the top frame that start() found.
  void rewind();

  // For a walker made InVM, once its top is found (start() calls it, the
  // queue's walk too): the walk goes on below the frames on the stack into a
  // virtual thread's frames frozen in the heap, read as HotSpot reads them on
  // the thread itself, unless ZGC or Shenandoah have not begun to process
  // this thread's stack in their current cycle (the frames' oops may then be
  // stale).
  void walk_heap_frames();

  // 1 while frames may follow, else what next() returns.
  int state() const { return _mark_reached ? ASGST_MARKED_FRAME : _state; }

  // Frame marks (AsgstFrameMarks): marks the physical frame of the frame
  // that next() reported last, clears owner's marks of the walked thread,
  // makes next() stop after each frame that carries a mark of owner, and
  // tells which mark that was.
  int mark_frame(int owner, int slot, uint64_t cookie);
  int clear_marks(int owner, int slot);
  int watch_marks(int owner);
  bool reached_mark(ASGST_Mark* mark) const;

  // Whether the walk reports C/C++ frames and stubs.
  bool includes_native_frames() const { return (_options & ASGST_INCLUDE_NON_JAVA_FRAMES) != 0; }

 private:
  // A queue element's walk begins mid-frame: it sets the position, the
  // pending first frame and the scopes itself.
  friend class AsgstQueueWalk;

  // The scope offset that stands for no (further) scope.
  static const int no_scope;
  // Whether pc lies in code that HotSpot generated: the interpreter, compiled
  // methods and stubs.
  static bool is_generated_code(address pc);
  // Whether HotSpot's frame may be made for a pc that is not known to be a
  // frame's; cb is pc's code blob (CodeCache::find_blob), which the frame is
  // then made with.
  static bool is_frame_pc(intptr_t* sp, address pc, CodeBlob* cb);
  // Longest walk in physical frames: garbage can end a walk, never loop it.
  static const int max_physical_frames = 1 << 16;
  // Most frames followed from the compiled frames found at the sps tried
  // for one top frame to the frame that the frame pointer chain found, in
  // all: a recursion repeats its frames, so that many of those sps make
  // frames whose senders lead on through it, and a walk must stay short
  // (a sampler's next signal waits for the handler's return).
  static const int max_joined_frames = 256;
  // Most words a barrier stub saves below a compiled frame before a C call
  // (live general and vector registers) that a walk looks past.
  static const int max_saved_register_words = 320;
  // Most words an interpreter entry puts below its caller's return address
  // (the callee's locals) that a walk looks past.
  static const int max_entry_words = 320;
  // Longest chain of nested continuations followed.
  static const int max_continuation_depth = 1 << 10;
  // Most C frames of a leaf call (a C function that compiled code called
  // without a state change, and what it called) followed back to the code
  // that made the call: GC barrier slow paths nest only a few deep.
  static const int max_leaf_frames = 16;

  // Where a walk stands.
  struct Position {
    bool in_native;            // in a native segment (else a Java segment)
    AsgstNativeFrame native;   // the current frame of a native segment
    intptr_t* native_end;      // the native segment ends at this sp; null: at the chain's end
    frame java;                // the current Java-segment frame, or the one after the native segment
    bool visited;              // whether the current frame was already reported or skipped
    bool checked;              // whether java is an interpreted frame already found valid
    bool at_anchor;            // whether java is the frame a last Java frame anchor names
    address call_site;         // if set, java is reported at this call site (an
                               // interpreted frame's bcp, a compiled frame's return
                               // address) instead of where it stands: a queue
                               // element's caller that moved on (AsgstQueueWalk)
  };

  Thread* const _thread;
  int _options;             // changed only while AsgstQueueWalk::start searches
  bool _callers_unknown;    // a queue element's frame returned and its caller moved on:
                            // the walk ends with its frame (AsgstQueueWalk)
  const bool _in_vm;        // made InVM
  bool _walkable;           // the thread walks itself at a poll: HotSpot's own
                            // sender logic applies without the sender checks
  RegisterMap _map;         // large (all registers): made once per walk, never updated
  oop _chunk_slot;          // the stack chunk that _map reads, where no handle can hold it
  Position _top;            // where start() positioned the walk
  Position _pos;            // the current position
  nmethod* _nm;             // the nmethod of a compiled frame whose scopes are being reported
  int _scope_offset;        // decode offset of the next inlined scope to report
  AsgstNativeFrame _scope_frame;  // the registers reported with those scopes
  bool _first_pending;      // _first is reported before anything else
  ASGST_Frame _first;       // a recorded interpreted frame (AsgstQueueWalk)
  // What rewind() restores besides _top (AsgstQueueWalk::start starts mid-frame).
  nmethod* _top_nm;
  int _top_scope_offset;
  AsgstNativeFrame _top_scope_frame;
  bool _top_first_pending;
  int _physical_frames;     // physical frames visited so far
  AsgstSeenLast _seen;      // what steps found valid last (AsgstSenderStep)
  // The scopes of the compiled frame whose debug info was decoded last, by
  // nmethod and pc (or found in AsgstReturnSites by a step to its caller): a
  // recursion reports them again without decoding.
  AsgstScopesAt _scopes_kept;
  const AsgstScopesAt* _scopes_reported;  // _scopes_kept or _top_site
  int _scope_kept;          // index of the next scope of *_scopes_reported to report, -1: none
  bool _callee_is_java;     // the physical frame above the current one is a Java method's
  bool _reported_at_pos;    // next() reported last a frame or scope of _pos's physical frame
  bool _scopes_of_pos;      // the scopes being reported are _pos's (not a queue element's
                            // recorded frame, reported from its record above _pos)
  int _watched_owner;       // whose frame marks end a walk, 0: none
  bool _mark_reached;       // next() returns ASGST_MARKED_FRAME next
  bool _at_mark;            // next() returned ASGST_MARKED_FRAME last
  ASGST_Mark _mark;         // the mark reached last
  intptr_t* _interrupted_sp;  // sp of the signal context that start() began with
  frame _executing;         // the Java frame a thread in Java was executing (maybe in a leaf call)
  int _state;
  // The interrupted pc's scopes and what the top frame's checks found there,
  // by nmethod and pc (AsgstReturnSites' interrupted pcs): the top frame
  // is found and reported without looking at its code again. Last, so that
  // the fields that every walk writes stay together.
  AsgstScopesAt _top_site;

  int start_java_thread(JavaThread* thread, const AsgstNativeFrame& context);
  int start_non_java_thread(const AsgstNativeFrame& context);
  int start_at_anchor(JavaThread* thread, const AsgstNativeFrame& context, bool context_usable);
  int java_top_from_context(JavaThread* thread, const AsgstNativeFrame& context, bool in_generated_code, frame* top);
  bool generated_frame_at(JavaThread* thread, const AsgstNativeFrame& f, CodeBlob* cb, frame* result);
  bool generated_caller_of_record(JavaThread* thread, AsgstNativeFrame* f) const;
  bool compiled_caller_at_sp(JavaThread* thread, const AsgstNativeFrame& f, const AsgstNativeFrame* chain_end,
                             frame* result, bool* out_of_steps);
  bool senders_lead_to(JavaThread* thread, const frame& f, const AsgstNativeFrame& end, intptr_t* fp,
                       int* steps_left);
  bool compiled_caller_of_interpreter_entry(JavaThread* thread, const AsgstNativeFrame& context, frame* top);
  bool native_caller(const AsgstNativeFrame& f, AsgstNativeFrame* caller) const;
  bool java_frame_from_anchor(intptr_t* sp, intptr_t* fp, address pc, frame* result) const;
  void begin_native(const AsgstNativeFrame& first, intptr_t* end, const frame& resume,
                    bool resume_at_anchor = false);
  void begin_java(const frame& f, bool checked = false, bool at_anchor = false);

  bool report(ASGST_Frame* out);
  bool report_java(const frame& f, ASGST_Frame* out);
  bool report_interpreted(const frame& f, bool checked, ASGST_Frame* out);
  bool report_heap_frame(const frame& f, ASGST_Frame* out);
  bool report_scope(ASGST_Frame* out);
  bool keep_scopes(nmethod* nm, address pc, int offset);
  static bool decode_scopes(nmethod* nm, address pc, int offset, AsgstScopesAt* out);
  void remember_interrupted_site(nmethod* nm, address pc, int words_pushed);
  void begin_scope_report(nmethod* nm, const frame& f, address pc);
  bool begin_scopes(nmethod* nm, address pc, const AsgstNativeFrame& registers, bool at_top);
  static void fill_method_frame(ASGST_Frame* out, Method* method, int comp_level, int bci,
                                const AsgstNativeFrame& registers);
  static AsgstNativeFrame native_frame_of(const frame& f);
  AsgstStackWalker(Thread* thread, int options, RegisterMap::WalkContinuation heap_frames);
  void report_native(address pc, intptr_t* sp, intptr_t* fp, ASGST_Frame* out) const;
  bool step();
  bool step_native();
  bool step_java();
  bool caller_refused_by_sender_check(const frame& f, bool at_anchor, frame* caller) const;
  bool leaves_continuation_unseen(const frame& f, const frame& caller) const;
  bool crosses_continuation_entry(intptr_t* callee_sp, intptr_t* caller_sp) const;
  bool is_valid_interpreted_frame(const frame& f);
  bool interpreted_caller_at_sp(const AsgstNativeFrame& f, AsgstNativeFrame* caller);
  bool is_below_continuation_entry(const frame& top) const;
  static bool heap_frames_readable(JavaThread* thread, const AsgstNativeFrame& context);
  bool step_into_caller_of_java(const frame& boundary, JavaFrameAnchor* anchor);
  bool at_marked_frame();
  void stop(int result) { _state = result; }  // ends the walk with ASGST_NO_FRAME or an error
};

#endif // SHARE_PRIMS_ASGSTSTACKWALKER_HPP
