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
// is complete, or to the ret. Reads only nm's instructions. x86_64 only.
class AsgstFrameEdges : AllStatic {
 public:
  // For a pc in nm where nm's frame is not complete: the words above sp
  // where the caller's return address lies, and in *saved_fp_slot those
  // where the caller's frame pointer was saved (-1: not saved yet). -1 where
  // the frame is complete, or the instructions are not known.
  static int return_address_slot(const nmethod* nm, address pc, int* saved_fp_slot);

 private:
  static int slot_in_epilogue(const nmethod* nm, address pc, int* saved_fp_slot);
  static int slot_in_prologue(const nmethod* nm, address pc, int* saved_fp_slot);
};

#endif // SHARE_PRIMS_ASGSTFRAMEEDGES_HPP
