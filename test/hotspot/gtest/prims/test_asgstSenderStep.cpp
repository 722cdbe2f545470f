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

#include "classfile/classLoaderData.hpp"
#include "code/codeCache.hpp"
#include "interpreter/interpreter.hpp"
#include "memory/metadataFactory.hpp"
#include "oops/constMethod.hpp"
#include "oops/method.hpp"
#include "prims/asgstCheckedMethods.hpp"
#include "prims/asgstSenderStep.hpp"
#include "runtime/frame.inline.hpp"
#include "runtime/javaThread.hpp"
#include "unittest.hpp"

// A Method in metaspace, with the vtable pointer of a Method, whose
// ConstMethod lies elsewhere (as in the memory of a method freed and reused,
// or a stale word that a frame's method slot holds): Method::is_valid_method
// accepts it, and is_interpreted_frame_valid would read its ConstMethod. A
// walk neither takes it for an interpreted frame's method nor keeps it for
// later walks (AsgstCheckedMethods).
TEST_VM(asgst_sender_step, method_with_const_method_outside_metaspace) {
  JavaThread* THREAD = JavaThread::current();
  ClassLoaderData* loader_data = ClassLoaderData::the_null_class_loader_data();
  const int words = (int)(sizeof(Method) / sizeof(u8)) + 1;
  Array<u8>* storage = MetadataFactory::new_array<u8>(loader_data, words, THREAD);
  ASSERT_FALSE(HAS_PENDING_EXCEPTION);
  Method* method = ::new ((void*)storage->adr_at(0)) Method();
  alignas(sizeof(u8)) char const_method[sizeof(ConstMethod)] = {};
  method->set_constMethod((ConstMethod*)const_method);
  EXPECT_TRUE(Method::is_valid_method(method));  // the vtable pointer is all it checks here
  uint64_t epoch = AsgstCheckedMethods::epoch();
  EXPECT_FALSE(AsgstSenderStep::is_checked_method(method, epoch));
  EXPECT_FALSE(AsgstCheckedMethods::contains(method, epoch));
  MetadataFactory::free_array<u8>(loader_data, storage);
}

#if defined(AMD64) || defined(AARCH64)

// An interpreted frame whose return address leads into the interpreter, to
// a caller whose method slot holds null (a stale frame, or a context that a
// fuzzer made): the step refuses it, as frame::safe_for_sender does. The
// record of what a walk found valid starts zeroed; its null method must not
// pass for one already checked (the step then read the method's ConstMethod
// through null).
TEST_VM(asgst_sender_step, interpreted_caller_without_method) {
  JavaThread* thread = JavaThread::current();
  address interpreter_pc = Interpreter::code()->code_start();
  CodeBlob* interpreter = CodeCache::find_blob(interpreter_pc);
  ASSERT_NE(nullptr, interpreter);
  ASSERT_TRUE(interpreter->code_contains(interpreter_pc));
  intptr_t words[128] = {};  // on this thread's stack, where the step looks for frames
  intptr_t* sp = &words[8];
  intptr_t* fp = &words[24];
  intptr_t* caller_fp = &words[96];
  fp[frame::return_addr_offset] = (intptr_t)interpreter_pc;
  fp[frame::link_offset] = (intptr_t)caller_fp;
  fp[frame::interpreter_frame_sender_sp_offset] = (intptr_t)(fp + frame::sender_sp_offset);
  caller_fp[frame::interpreter_frame_method_offset] = 0;
  frame f(sp, sp, fp, interpreter_pc, interpreter);
  ASSERT_TRUE(f.is_interpreted_frame());
  AsgstSeenLast seen = {};
  frame caller;
  bool caller_checked = false;
  EXPECT_FALSE(AsgstSenderStep::java_caller(thread, f, &seen, &caller, &caller_checked));
  EXPECT_FALSE(f.safe_for_sender(thread));  // what the step must agree with
}

#ifdef AARCH64

#include "pauth_aarch64.hpp"
#include "runtime/sharedRuntime.hpp"
#include "runtime/vm_version.hpp"

// A compiled frame (here the safepoint handler blob's: any blob with a frame
// size) whose return slot holds a code address with bits set above the
// virtual address: frame::safe_for_sender strips them and finds the code,
// frame::sender (without UseROPProtection) keeps them and reads the
// instruction at an address outside the code (a crash seen under emulation,
// where a walk took a stale word for a return address). The step refuses it.
TEST_VM(asgst_sender_step, return_address_that_only_stripping_makes_code) {
  CodeBlob* blob = SharedRuntime::polling_page_return_handler_blob();
  ASSERT_NE(nullptr, blob);
  ASSERT_GT(blob->frame_size(), 0);
  address code = blob->code_begin();
  address tagged = (address)((uintptr_t)code | ((uintptr_t)1 << 54));
  if (VM_Version::use_rop_protection() || pauth_strip_pointer(tagged) != code) {
    GTEST_SKIP() << "return addresses are stripped alike (UseROPProtection, or no pointer authentication)";
  }
  intptr_t words[64] = {};
  intptr_t* sp = &words[4];
  intptr_t* return_slot = sp + blob->frame_size() + frame::return_addr_offset - frame::sender_sp_offset;
  frame f(sp, sp, &words[40], code, blob);
  *return_slot = (intptr_t)code;
  EXPECT_TRUE(AsgstSenderStep::sender_reads_checked_words(f)) << "a plain return address";
  *return_slot = (intptr_t)tagged;
  EXPECT_FALSE(AsgstSenderStep::sender_reads_checked_words(f)) << "one that only stripping makes code";
}

#endif // AARCH64

#endif // AMD64 || AARCH64
