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

// The conservative answers of AsgstFrameEdges on CPUs whose instructions
// the walker does not know: it then refuses the samples that would need
// them. A CPU that knows them implements the class in
// cpu/<cpu>/asgstFrameEdges_<cpu>.cpp instead (x86_64, aarch64).

#include "code/nmethod.hpp"
#include "prims/asgstFrameEdges.hpp"
#ifdef COMPILER1
#include "c1/c1_Runtime1.hpp"
#endif

// Only C1's code pushes words for a call, on every CPU: the stub's
// arguments (LIR_Assembler::emit_typecheck_helper, emit_opTypeCheck's
// store check, emit_arraycopy).
int AsgstFrameEdges::words_pushed_for_call(const nmethod* nm, address pc) {
#ifdef COMPILER1
  CodeBlob* stub = nm->is_compiled_by_c1() ? Runtime1::blob_for(C1StubId::slow_subtype_check_id) : nullptr;
  if (stub != nullptr && nm->insts_contains(pc)) {
    AsgstCodeLayout code = { nm->insts_begin(), nm->insts_end(), nm->verified_entry_point(),
                             nm->code_begin() + nm->frame_complete_offset(), nm->frame_size() };
    return words_pushed_for_call(code, pc, stub->code_begin());
  }
#endif
  return 0;
}

#if !defined(AMD64) && !defined(AARCH64)

int AsgstFrameEdges::return_address_slot(const AsgstCodeLayout& code, const u1* pc, int* saved_fp_slot,
                                         int* caller_sp_words) {
  return -1;
}

int AsgstFrameEdges::osr_return_address_slot(const AsgstCodeLayout& code, const u1* osr_entry, const u1* pc,
                                             int* saved_fp_slot, int* caller_sp_words) {
  return -1;
}

int AsgstFrameEdges::return_address_slot(const nmethod* nm, address pc, int* saved_fp_slot, int* caller_sp_words) {
  return -1;
}

int AsgstFrameEdges::words_pushed_for_call(const AsgstCodeLayout& code, const u1* pc, address callee) {
  return 0;
}

bool AsgstFrameEdges::returns_from_call_into(address pc, address begin, address end) {
  return false;
}

AsgstFrameEdges::Frameless AsgstFrameEdges::caller_of_frameless(const AsgstNativeFrame& f, AsgstNativeFrame* caller) {
  return has_frame;
}

bool AsgstFrameEdges::c_frame_record(intptr_t* fp, intptr_t** return_address, intptr_t** saved_fp,
                                     intptr_t** caller_sp) {
  return false;
}

bool AsgstFrameEdges::c_frame_record_gives_caller_sp() {
  return false;
}

bool AsgstFrameEdges::return_address_at_callee_sp() {
  return false;
}

address AsgstFrameEdges::link_register(const void* ucontext) {
  return nullptr;
}

address AsgstFrameEdges::strip_return_address(address pc) {
  return pc;
}

// Frames made without a frame pointer are stepped from only where the
// sender check is known to take the caller's sp from the frame's size.
bool AsgstFrameEdges::compiled_sender_reads_fp() {
  return true;
}

bool AsgstFrameEdges::interpreted_call_sp(intptr_t* fp, intptr_t** call_sp) {
  return false;
}

bool AsgstFrameEdges::sender_check_validates_interpreted_frames() {
  return false;
}

uintptr_t AsgstFrameEdges::return_barrier_below(uintptr_t key) {
  return 0;
}

bool AsgstFrameEdges::compiled_return_polls_read_poll_word() {
  return false;
}

#endif // !AMD64 && !AARCH64
