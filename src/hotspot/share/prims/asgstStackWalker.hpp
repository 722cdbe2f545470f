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

#ifndef SHARE_PRIMS_ASGSTSTACKWALKER_HPP
#define SHARE_PRIMS_ASGSTSTACKWALKER_HPP

#include "profile.h"
#include "runtime/frame.hpp"

class JavaThread;
class nmethod;

// Implementation-specific results (profile.h leaves values below -16 to us).
enum AsgstImplementationError {
  ASGST_BROKEN_FRAME     = -17, // a frame failed its checks; the walk ends there
  ASGST_INVALID_ARGUMENT = -18  // a required pointer argument is null
};

// The state of one stack walk, behind an ASGST_Iterator. It reports the
// physical frames of a thread from the top, expanding each compiled frame into
// its inlined scopes. It reads the stack only after checking addresses
// against the thread's stack bounds, the code cache and metaspace, allocates
// nothing and takes no lock, so it works inside a signal handler.
class AsgstStackWalker {
 public:
  AsgstStackWalker(JavaThread* thread, int options);

  // Positions the walk at the top frame of the current thread, taken from
  // ucontext (or from the last Java frame when the thread is not in Java).
  // Returns the trace kind (> 0) or an ASGST_Error.
  int start(void* ucontext);

  // Fills frame with the next frame: returns 1, ASGST_NO_FRAME at the end,
  // or an error. After the end or an error it returns the same again.
  int next(ASGST_Frame* frame);

  // Goes back to the top frame that start() found.
  void rewind();

  // 1 while frames may follow, else what next() returns.
  int state() const { return _state; }

 private:
  // Longest walk in physical frames: garbage can end a walk, never loop it.
  static const int max_physical_frames = 1 << 16;

  JavaThread* const _thread;
  const int _options;
  frame _top;               // where start() positioned the walk
  frame _frame;             // the current physical frame
  bool _frame_visited;      // whether _frame was already reported or skipped
  nmethod* _nm;             // the nmethod of _frame if it is compiled Java code
  int _scope_offset;        // decode offset of the next inlined scope to report
  int _physical_frames;     // physical frames visited so far
  int _state;

  bool frame_from_anchor(intptr_t* sp, intptr_t* fp, address pc, frame* result) const;
  bool report(const frame& f, ASGST_Frame* out);
  bool report_interpreted(const frame& f, ASGST_Frame* out) const;
  bool report_scope(ASGST_Frame* out);
  bool step_to_sender();
  bool step_over_entry_frame();
  void stop(int result) { _state = result; }  // ends the walk with ASGST_NO_FRAME or an error
};

#endif // SHARE_PRIMS_ASGSTSTACKWALKER_HPP
