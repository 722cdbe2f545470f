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

// The exported functions of profile.h: argument checks, then a call into the
// piece of the implementation that does the work.

#include "oops/method.hpp"
#include "prims/asgst.hpp"
#include "prims/asgstStackWalker.hpp"
#include "profile.h"
#include "runtime/interfaceSupport.inline.hpp"
#include "runtime/javaThread.inline.hpp"
#include "runtime/thread.hpp"

static AsgstStackWalker* walker_of(ASGST_Iterator* iterator) {
  return reinterpret_cast<AsgstStackWalker*>(iterator);
}

int Asgst::capabilities() {
  // Neither the safepoint queue nor frame marking exists yet: report neither.
  return 0;
}

extern "C" {

JNIEXPORT int JNICALL ASGST_Capabilities() {
  return Asgst::capabilities();
}

JNIEXPORT int JNICALL ASGST_RunWithIterator(void* ucontext, int32_t options,
                                            ASGST_IteratorHandler fun, void* arg) {
  if (fun == nullptr) {
    return ASGST_INVALID_ARGUMENT;
  }
  Thread* current = Thread::current_or_null_safe();
  if (current == nullptr || !current->is_Java_thread()) {
    return ASGST_NO_THREAD;
  }
  JavaThread* thread = JavaThread::cast(current);
  ThreadInAsgct in_asgct(thread);  // keeps PcDesc lookups from writing their cache
  AsgstStackWalker walker(thread, options);
  int kind = walker.start(ucontext);
  if (kind > 0) {
    fun(reinterpret_cast<ASGST_Iterator*>(&walker), arg);
  }
  return kind;
}

JNIEXPORT int JNICALL ASGST_NextFrame(ASGST_Iterator* iterator, ASGST_Frame* frame) {
  if (iterator == nullptr) {
    return ASGST_NO_FRAME;
  }
  if (frame == nullptr) {
    return ASGST_INVALID_ARGUMENT;
  }
  return walker_of(iterator)->next(frame);
}

JNIEXPORT void JNICALL ASGST_RewindIterator(ASGST_Iterator* iterator) {
  if (iterator != nullptr) {
    walker_of(iterator)->rewind();
  }
}

JNIEXPORT int JNICALL ASGST_State(ASGST_Iterator* iterator) {
  return iterator == nullptr ? ASGST_NO_FRAME : walker_of(iterator)->state();
}

JNIEXPORT jmethodID JNICALL ASGST_MethodToJMethodID(ASGST_Method method) {
  Method* m = (Method*)method;
  JavaThread* thread = JavaThread::current_or_null();
  if (m == nullptr || thread == nullptr || !Method::is_valid_method(m)) {
    return nullptr;
  }
  if (thread->thread_state() == _thread_in_native) {
    ThreadInVMfromNative in_vm(thread);  // creating an id may take a VM lock
    return m->jmethod_id();
  }
  return m->jmethod_id();
}

} // extern "C"
