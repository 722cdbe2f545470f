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

#ifndef SHARE_PRIMS_ASGSTFRAMEEDGES_HPP
#define SHARE_PRIMS_ASGSTFRAMEEDGES_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

class nmethod;

// A C/C++ frame, described only by its registers: the VM knows nothing else.
struct AsgstNativeFrame {
  address pc;
  intptr_t* sp;
  intptr_t* fp;
  // The link register, where the CPU has one (aarch64), of the interrupted
  // frame only: a caller's belongs to its callee. Null otherwise.
  address lr;

  // The registers of a signal handler's ucontext; all null for none.
  static AsgstNativeFrame of_context(void* ucontext);
};

// What only a CPU's instructions and calling convention tell a walk that
// starts at a signal's pc. Each CPU that knows them implements this class in
// cpu/<cpu>/asgstFrameEdges_<cpu>.cpp (x86_64, aarch64); the others get the
// conservative answers of prims/asgstFrameEdges.cpp, with which the walker
// refuses rather than guesses (ASGST_NO_TOP_JAVA_FRAME where it would need
// them).
//
// A compiled method or native wrapper builds its frame in its first
// instructions (before its frame is complete) and pops it before its last
// ones (the return poll, a native wrapper's pending exception check, the
// ret). Interrupted there, sp does not mark the frame's top, and a frame made
// from sp would read its caller from the wrong place, or be refused. Both
// places are known by their instruction bytes: the few instructions that
// prologues and epilogues use, followed from pc to the point where the frame
// is complete, or to the ret.

// Where a compiled method's or native wrapper's frame is built.
struct AsgstCodeLayout {
  const u1* begin;           // its instructions
  const u1* end;
  const u1* verified_entry;  // after the inline cache check
  const u1* frame_complete;  // where the prologue has built the frame
  int frame_words;           // the frame's size, the return address included
};

// The frame's edges in such code.
class AsgstFrameEdges : AllStatic {
 public:
  // What return_address_slot answers where the return address is still (or
  // again) in the link register (AsgstNativeFrame::lr).
  static const int in_link_register = -2;

  // For a pc in nm where nm's frame is not complete: the words above sp
  // where the caller's return address lies (or in_link_register), in
  // *saved_fp_slot those where the caller's frame pointer was saved (-1:
  // the frame pointer register still holds it), and in *caller_sp_words
  // those where the caller's sp begins. -1 where the frame is complete, or
  // the instructions are not known.
  static int return_address_slot(const nmethod* nm, address pc, int* saved_fp_slot, int* caller_sp_words);
  // The same for code laid out as given (signal safe: reads only code).
  static int return_address_slot(const AsgstCodeLayout& code, const u1* pc, int* saved_fp_slot,
                                 int* caller_sp_words);
  // The same for an OSR method's code, which the interpreter also enters at
  // osr_entry with its own frame popped: C1 builds the frame a second time
  // there, after the normal entry's frame is complete.
  static int osr_return_address_slot(const AsgstCodeLayout& code, const u1* osr_entry, const u1* pc,
                                     int* saved_fp_slot, int* caller_sp_words);

  // For a pc in nm where its frame is complete: the words that nm's code
  // has pushed below its frame for a call that takes its arguments on the
  // stack (C1 pushes the two arguments of Runtime1's slow subtype check
  // before the call and pops them after it). A frame made from sp would
  // lie that many words too low and read its caller from a slot of its
  // own. 0 where nothing is pushed, and where the instructions are not
  // known (other CPUs: the frame is left to the sender checks).
  static int words_pushed_for_call(const nmethod* nm, address pc);
  // The same for code laid out as given, whose calls of callee (a stub that
  // takes two words on the stack) push them (signal safe: reads only code).
  static int words_pushed_for_call(const AsgstCodeLayout& code, const u1* pc, address callee);

  // Whether pc is the return address of a call into the code from begin to
  // end: the instructions just before pc call there (aarch64: with bl,
  // directly or through a trampoline, or with a far call's adrp, add and
  // blr). pc may be any word: the code is read with SafeFetch (callers
  // check first that pc lies in the code cache: a read that faults costs a
  // signal).
  static bool returns_from_call_into(address pc, address begin, address end);

  // The caller of an interrupted C function that has no frame of its own at
  // its pc (before its prologue saved the frame pointer, or at its return).
  // There the frame pointer still names its caller's frame, which a frame
  // pointer chain would take for the function's own, and so skip its caller
  // (a C function called from generated code without a state change, such
  // as a GC barrier, would lose the Java frame that called it). Reads the
  // instruction at pc with SafeFetch. caller_unknown where it has no frame
  // but its caller's return address cannot be read (in the link register,
  // which a walk from a frame's registers does not have): the walk must not
  // follow the frame pointer then.
  enum Frameless { has_frame, caller_found, caller_unknown };
  static Frameless caller_of_frameless(const AsgstNativeFrame& f, AsgstNativeFrame* caller);

  // Where the frame record that a C/C++ function's frame pointer fp names
  // keeps the caller's return address and frame pointer, and where the
  // caller's sp begins (HotSpot is compiled with frame pointers on every
  // CPU, but each lays its records out in its own way). Only addresses are
  // computed; the caller reads them. False where the layout is not known.
  static bool c_frame_record(intptr_t* fp, intptr_t** return_address, intptr_t** saved_fp,
                             intptr_t** caller_sp);
  // Whether that caller's sp is exact; otherwise it is the least the
  // caller's sp can be (the record lies below the function's locals).
  static bool c_frame_record_gives_caller_sp();

  // Whether a call leaves the return address at the callee's sp, where a
  // walk may look for a compiled caller of code that has no frame. Where it
  // does not, the return address is in the link register.
  static bool return_address_at_callee_sp();

  // The link register of a signal handler's ucontext; null where the CPU
  // has none, or the system's context is not read.
  static address link_register(const void* ucontext);

  // A return address read from a frame record or the link register, without
  // the authentication code that return address signing may have added
  // (stripped, never authenticated: a walk may read garbage).
  static address strip_return_address(address pc);

  // Whether frame::sender takes a compiled frame's caller from its frame
  // pointer, so that a frame made without one cannot be stepped from.
  static bool compiled_sender_reads_fp();

  // For an interpreted frame (by its fp) that is in a call: where the call
  // began (the sp of the call). False when it is in none, or not known.
  static bool interpreted_call_sp(intptr_t* fp, intptr_t** call_sp);

  // Whether frame::safe_for_sender ends, for an interpreted sender, with its
  // is_interpreted_frame_valid, which a walk then need not repeat.
  static bool sender_check_validates_interpreted_frames();

  // The poll word (SafepointMechanism) that makes the frame whose real_fp()
  // is key trap in its return poll (or its unwinding) while returns into it
  // and into the frames above it pass (doc/frame-marks.md). 0 where the
  // return polls are not known: frame marks are then refused.
  static uintptr_t return_barrier_below(uintptr_t key);

  // Whether the return polls of compiled code (C1 and C2) read the poll
  // word, as the interpreter's polls and the thread state transitions do,
  // so that only loops of compiled code read the polling page: a queue
  // element may then arm the word first (AsgstPollArm). False where not
  // known: every request arms both.
  static bool compiled_return_polls_read_poll_word();
};

#endif // SHARE_PRIMS_ASGSTFRAMEEDGES_HPP
