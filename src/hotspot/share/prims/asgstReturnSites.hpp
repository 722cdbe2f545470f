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

#ifndef SHARE_PRIMS_ASGSTRETURNSITES_HPP
#define SHARE_PRIMS_ASGSTRETURNSITES_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

class Method;
class nmethod;

// The Java scopes that a compiled method's debug info names at one pc of its
// code, innermost first: the method and bci of each (all but the last one
// inlined).
struct AsgstScopesAt {
  // C2 inlines 15 levels deep by default.
  static const int max_scopes = 16;
  struct Scope {
    Method* method;
    int bci;
  };
  nmethod* nm;  // null: none
  address pc;
  int count;
  int comp_level;
  int java_frame_size;  // AsgstSenderStep::checked_frame_size(nm, pc)
  // Of an interrupted pc only:
  int words_pushed;     // AsgstFrameEdges::words_pushed_for_call(nm, pc)
  int scope_offset;     // the first scope's decode offset (the serialized null: none), where
                        // count is 0: more scopes than an entry keeps, or none
  Scope scopes[max_scopes];
};

// The scopes of compiled code at pcs that walks meet, kept from one walk to
// the next, in two tables: return addresses (the scopes of an exact PcDesc)
// and interrupted pcs at the top of a stack (the scopes of the first PcDesc
// at or after pc, and what the top frame's checks found there). A walk that
// meets a pc that an earlier walk decoded finds its code and scopes here,
// without CodeCache::find_blob, a PcDesc search or decoding. Lock-free and
// allocation-free: read and written in signal handlers by any number of
// threads (a sequence count per entry; a torn or busy entry is a miss, a
// write that finds its entry busy is dropped).
//
// Validity: an entry holds addresses of an nmethod and of the Methods its
// scopes name. It is used only by walks that read the same epoch as the
// walk that wrote it; the epoch moves before any code blob is freed and
// before any class is unloaded or its old version freed, so a walk that
// starts after that never uses an entry written before it. A walk that was
// already under way may still meet the freed code's address, as a walk
// without these entries may meet it through CodeCache::find_blob: only
// from a stale stack word, as code with an activation is not freed.
class AsgstReturnSites : AllStatic {
 public:
  // Which table: an entry of one is never found in the other (the scopes
  // at a pc differ where it is no return address).
  enum Kind { return_address, interrupted_pc };

  // Read once at a walk's start; every find and remember of the walk passes it.
  static uint64_t epoch();
  // True with *out where an entry of kind for pc was written with epoch
  // (with at most max_remembered_scopes scopes; an interrupted pc's may have
  // none, and its scope_offset tells where they are).
  static bool find(Kind kind, address pc, uint64_t epoch, AsgstScopesAt* out);
  // Keeps scopes (decoded at scopes.pc of scopes.nm: from an exact PcDesc
  // for return_address, the first at or after it for interrupted_pc) for
  // later walks of the same epoch; frames with more scopes are not kept.
  static void remember(Kind kind, const AsgstScopesAt& scopes, uint64_t epoch);
  // CodeCache::free, before the blob's memory can be reused, and class
  // unloading: every entry of both tables written so far goes stale.
  static void invalidate();

  // Most scopes an entry holds: a few keep the entry within two cache
  // lines (the first scope within the first, with the fields a step reads);
  // deeper inlining is decoded, at an interrupted pc from its entry's
  // scope_offset (the walker keeps it with none), elsewhere as without
  // entries.
  static const int max_remembered_scopes = 5;
  // Number of entries of each table, a power of two: the distinct pcs that
  // a program's sampled stacks pass through mostly fit.
  static const int entry_count = 2048;

 private:
  struct Entry;
  static Entry* entry_for(Kind kind, address pc);
  static volatile uint64_t _epoch;
};

#endif // SHARE_PRIMS_ASGSTRETURNSITES_HPP
