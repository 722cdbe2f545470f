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

#ifndef SHARE_PRIMS_ASGSTFRAMEEDGES_HPP
#define SHARE_PRIMS_ASGSTFRAMEEDGES_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

class nmethod;

// A compiled method or native wrapper builds its frame in its first
// instructions (before its frame is complete) and pops it before its last
// ones (the return poll, a native wrapper's pending exception check, the
// ret). Interrupted there, sp does not mark the frame's top, and a frame made
// from sp would read its caller from the wrong place, or be refused. Both
// places are known by their instruction bytes: the few instructions that
// prologues and epilogues use, followed from pc to the point where the frame
// is complete, or to the ret. Reads only the code's instructions; x86_64
// only (-1 elsewhere).

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
  // For a pc in nm where nm's frame is not complete: the words above sp
  // where the caller's return address lies, and in *saved_fp_slot those
  // where the caller's frame pointer was saved (-1: the frame pointer
  // register still holds it). -1 where the frame is complete, or the
  // instructions are not known.
  static int return_address_slot(const nmethod* nm, address pc, int* saved_fp_slot);
  // The same for code laid out as given (signal safe: reads only code).
  static int return_address_slot(const AsgstCodeLayout& code, const u1* pc, int* saved_fp_slot);
};

#endif // SHARE_PRIMS_ASGSTFRAMEEDGES_HPP
