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

#ifndef SHARE_PRIMS_ASGSTSENDERSTEP_HPP
#define SHARE_PRIMS_ASGSTSENDERSTEP_HPP

#include "code/nmethod.hpp"
#include "memory/allStatic.hpp"
#include "prims/asgstReturnSites.hpp"
#include "utilities/globalDefinitions.hpp"

class ConstantPoolCache;
class JavaThread;
class Method;
class frame;

// What a walk found valid last: a step to a caller with the same code blob,
// method, bcp or constant pool cache need not look it up or check it again.
struct AsgstSeenLast {
  CodeBlob* blob;
  nmethod* java_nmethod;     // with a frame size, not a method handle intrinsic
  Method* method;            // passed is_checked_method
  address bcp;               // a bcp of method, at bci
  int bci;
  ConstantPoolCache* cache;  // passed is_valid_cache_of
  uint64_t code_epoch;       // AsgstReturnSites' epoch at the walk's start
  uint64_t method_epoch;     // AsgstCheckedMethods' epoch at the walk's start
  AsgstScopesAt* scopes;     // the walk's scopes kept last: a step that finds its
                             // caller's in AsgstReturnSites keeps them here
};

// The step from a Java method's frame to its caller that most steps of an
// asynchronous walk take: from an interpreted frame, or a compiled one
// whose frame is complete, to an interpreted or compiled caller. It accepts
// exactly what frame::safe_for_sender accepts for these kinds and builds
// the caller that frame::sender builds, but looks each code blob up at most
// once, and not at all where the caller's pc lies in the blob that the walk
// met last (a recursion) or in the interpreter (one blob, looked up once for
// all walks); an interpreted caller's method, bcp and constant pool cache it
// checks only where they differ from those it checked last. Any other kind
// of frame or caller, and any check that fails, it leaves to safe_for_sender
// and sender. Each CPU that knows its frames implements it in
// cpu/<cpu>/asgstSenderStep_<cpu>.cpp (x86_64, aarch64); elsewhere it leaves every
// step to them (prims/asgstSenderStep.cpp).
class AsgstSenderStep : AllStatic {
 public:
  // True with *caller when the step was taken; *caller_checked tells
  // whether the caller is an interpreted frame found valid
  // (as frame::is_interpreted_frame_valid checks it). seen (zeroed at a
  // walk's start) is updated to what this step found valid. caller may be
  // f: it is written last, and only when the step is taken.
  static bool java_caller(JavaThread* thread, const frame& f, AsgstSeenLast* seen, frame* caller,
                          bool* caller_checked);

  // Whether frame::sender would build f's caller (a frame on the stack that
  // passed frame::safe_for_sender) from the words that the check read, as
  // it checked them. Where the two read differently (aarch64: the check
  // strips a return address's authentication code that sender keeps without
  // UseROPProtection, and takes the caller's sp from the frame's size where
  // sender, with PreserveFramePointer, takes it from fp), a word that passed
  // the check can still lead sender outside the code: the step is refused.
  static bool sender_reads_checked_words(const frame& f);

  // The code blob that holds pc, as CodeCache::find_blob finds it: seen's
  // blob where its code holds pc, else the interpreter's (looked up once for
  // all walks), else the nmethod of AsgstReturnSites' entry for pc (whose
  // scopes then go to *seen->scopes), else CodeCache::find_blob's.
  // seen->blob becomes the result when not null.
  static CodeBlob* blob_of(address pc, AsgstSeenLast* seen);

  // Whether m is a valid method (AsgstMethodInfo::has_readable_metadata:
  // Method::is_valid_method, and its ConstMethod and ConstantPool lie in
  // metaspace): an earlier walk of epoch found it so (AsgstCheckedMethods),
  // or it is checked now and kept there when valid.
  static bool is_checked_method(Method* m, uint64_t epoch);

  // Whether f, an interpreted frame whose fp lies on thread's stack above
  // its sp, passes frame::is_interpreted_frame_valid with its method checked
  // as is_checked_method checks it (is_interpreted_frame_valid trusts a
  // method with the right vtable pointer, which a freed method may still
  // have); the checks that seen holds are left out, and seen is updated to
  // f's method, bcp and constant pool cache. Any frame of a walk, its top
  // one too.
  static bool is_valid_interpreted_frame(JavaThread* thread, const frame& f, AsgstSeenLast* seen);

  // Whether cache is a valid constant pool cache, as
  // frame::is_interpreted_frame_valid checks an interpreted frame's: that of
  // m's constant pool (m valid: is_checked_method), which the interpreter
  // put in the frame, or, if another, one that MetaspaceObj::is_valid takes
  // (which walks metaspace's list of spaces).
  static bool is_valid_cache_of(Method* m, ConstantPoolCache* cache);

  // nm's frame size where its frame at pc, a call's return address, passes
  // every check that a step makes of a compiled Java method's code at a pc
  // (pc in its code, where the frame is complete and no deoptimization
  // handler; a frame size; a method, no native one or method handle
  // intrinsic), else 0. Kept with the scopes at pc (AsgstScopesAt).
  static int checked_frame_size(nmethod* nm, address pc);

  // checked_frame_size of cb at pc where the walk's kept scopes are those of
  // cb at pc (seen->scopes), else 0: a step that finds it need not read the
  // nmethod's header, whose load would wait on the step before.
  static int kept_frame_size(const AsgstSeenLast* seen, const CodeBlob* cb, address pc) {
    const AsgstScopesAt* kept = seen->scopes;
    bool kept_at_pc = kept != nullptr && kept->nm != nullptr && kept->nm == cb && kept->pc == pc;
    return kept_at_pc ? kept->java_frame_size : 0;
  }

 private:
  static CodeBlob* volatile _interpreter_blob;
};

#endif // SHARE_PRIMS_ASGSTSENDERSTEP_HPP
