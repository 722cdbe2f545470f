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

#include "prims/asgstCallTrace.hpp"
#include "prims/asgstStackWalker.hpp"
#include "prims/asgstThreadState.hpp"
#include "runtime/javaThread.inline.hpp"

void AsgstCallTrace::fill(ASGST_CallTrace* trace, jint depth, Thread* thread, jint state,
                          AsgstStackWalker* walker, const AsgstNativeFrame& context) {
  bool java_thread = AsgstThreadState::is_java_thread(thread);
  // Traces of non-Java threads are accepted in every state and get state -1.
  jint accepted_states = trace->state;
  trace->state = state;
  if (java_thread && accepted_states != 0 && (state & accepted_states) == 0) {
    trace->num_frames = ASGST_WRONG_STATE;
    return;
  }
  uint8_t accepted_kinds = trace->kind;
  int kind = walker->start(context);
  if (kind <= 0) {
    trace->num_frames = kind;
    return;
  }
  trace->kind = (uint8_t)kind;
  if (accepted_kinds != 0 && (kind & accepted_kinds) == 0) {
    trace->num_frames = ASGST_WRONG_KIND;
    return;
  }
  trace->env_id = java_thread ? JavaThread::cast(thread)->jni_environment() : nullptr;
  jint count = 0;
  int result = ASGST_NO_FRAME;
  ASGST_Frame frame;
  while (count < depth && (result = walker->next(&frame)) == 1) {
    store(frame, &trace->frames[count++]);
  }
  // A full buffer truncates the trace; a failed walk is an error, not a short trace.
  trace->num_frames = result < 0 ? result : count;
}

// JEP 435's compact frame stores a bci in 16 bits: this value stands for
// "not available" and for every bci that does not fit.
static const uint16_t no_compact_bci = 65535;

void AsgstCallTrace::store(const ASGST_Frame& frame, ASGST_CallFrame* out) {
  if (frame.type == ASGST_FRAME_NON_JAVA) {
    out->non_java_frame.type = frame.type;
    out->non_java_frame.pc = frame.pc;
    return;
  }
  out->java_frame.type = frame.type;
  out->java_frame.comp_level = (int8_t)frame.comp_level;
  out->java_frame.bci = frame.bci < 0 || frame.bci >= no_compact_bci ? no_compact_bci : (uint16_t)frame.bci;
  out->java_frame.method = frame.method;
}
