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

// The exported functions of profile.h: argument checks, then a call into the
// piece of the implementation that does the work.

#include "classfile/javaClasses.inline.hpp"
#include "logging/log.hpp"
#include "oops/method.hpp"
#include "prims/asgst.inline.hpp"
#include "prims/asgstCallTrace.hpp"
#include "prims/asgstClassUnloading.hpp"
#include "prims/asgstFrameEdges.hpp"
#include "prims/asgstFrameMarks.hpp"
#include "prims/asgstMethodInfo.hpp"
#include "prims/asgstQueue.hpp"
#include "prims/asgstStackWalker.hpp"
#include "prims/asgstThreadState.hpp"
#include "prims/asgstThreadTable.hpp"
#include "profile.h"
#include "runtime/frame.inline.hpp"
#include "runtime/handles.inline.hpp"
#include "runtime/javaThread.inline.hpp"
#include "runtime/jniHandles.inline.hpp"
#include "runtime/safefetch.hpp"
#include "runtime/thread.hpp"
#include "utilities/align.hpp"

static AsgstStackWalker* walker_of(ASGST_Iterator* iterator) {
  return reinterpret_cast<AsgstStackWalker*>(iterator);
}

// Where the caller of an exported function stands, from that function's own
// frame pointer: the top of the stack when a thread walks itself without a
// context. None (all null) on a CPU whose frame records AsgstFrameEdges does
// not know: the walk then begins at the thread's last Java frame.
static AsgstNativeFrame caller_frame(void* own_fp) {
  intptr_t* return_address;
  intptr_t* saved_fp;
  intptr_t* caller_sp;
  AsgstNativeFrame caller = { nullptr, nullptr, nullptr };
  if (AsgstFrameEdges::c_frame_record((intptr_t*)own_fp, &return_address, &saved_fp, &caller_sp)) {
    caller.pc = AsgstFrameEdges::strip_return_address((address)*return_address);
    caller.sp = caller_sp;
    caller.fp = (intptr_t*)*saved_fp;
  }
  return caller;
}

// Whether a walk of thread is one of the calling thread from its native code
// while it runs a virtual thread, by a caller that runs in no signal handler
// (ASGST_NOT_IN_SIGNAL_HANDLER): such a walk enters the VM to read the
// virtual thread's frames frozen in the heap, as a JNI function would.
static bool walks_from_native_into_heap(Thread* thread, Thread* current, int options) {
  if ((options & ASGST_NOT_IN_SIGNAL_HANDLER) == 0 || thread == nullptr || thread != current ||
      !thread->is_Java_thread()) {
    return false;
  }
  JavaThread* java_thread = JavaThread::cast(thread);
  return java_thread->thread_state() == _thread_in_native && java_thread->last_continuation() != nullptr;
}

// Calls walk(walker) with a walker of thread, made in the VM if
// walks_from_native_into_heap. current: Thread::current_or_null_safe(),
// which the callers have read already.
template <typename Walk>
static auto with_walker(Thread* thread, Thread* current, int options, Walk walk) {
  if (walks_from_native_into_heap(thread, current, options)) {
    JavaThread* java_thread = JavaThread::cast(thread);
    return Asgst::in_vm(java_thread, [&]() {
      HandleMark hm(java_thread);
      return Asgst::walking(current, [&]() {
        AsgstStackWalker walker(java_thread, options, AsgstStackWalker::InVM());
        return walk(walker);
      });
    });
  }
  return Asgst::walking(current, [&]() {
    AsgstStackWalker walker(thread, options);
    return walk(walker);
  });
}

// The common part of the ASGST_RunWithIterator* functions; thread may be
// null when no thread was found.
static int run_with_iterator(Thread* thread, Thread* current, const AsgstNativeFrame& context, int options,
                             ASGST_IteratorHandler fun, void* arg) {
  if (fun == nullptr) {
    return ASGST_INVALID_ARGUMENT;
  }
  if (thread == nullptr) {
    return ASGST_NO_THREAD;
  }
  return with_walker(thread, current, options, [&](AsgstStackWalker& walker) {
    int kind = walker.start(context);
    if (kind > 0) {
      fun(reinterpret_cast<ASGST_Iterator*>(&walker), arg);
    }
    return kind;
  });
}

// The thread whose JNIEnv is env, if it is a live thread of the VM. The env
// is not dereferenced: it may be garbage or belong to an exited thread.
static Thread* thread_of_env(JNIEnv* env) {
  Thread* candidate = (Thread*)((address)env - in_bytes(JavaThread::jni_environment_offset()));
  return AsgstThreadTable::vm_threads()->contains(candidate) ? candidate : nullptr;
}

int Asgst::capabilities() {
  return ASGST_REGISTER_QUEUE | (AsgstFrameMarks::is_supported() ? ASGST_MARK_FRAME : 0);
}

extern "C" {

JNIEXPORT int JNICALL ASGST_Capabilities() {
  return Asgst::capabilities();
}

JNIEXPORT jint JNICALL ASGST_Version() {
  return ASGST_VERSION;
}

JNIEXPORT int JNICALL ASGST_RunWithIterator(void* ucontext, int32_t options,
                                            ASGST_IteratorHandler fun, void* arg) {
  AsgstNativeFrame context = ucontext != nullptr ? AsgstNativeFrame::of_context(ucontext)
                                                 : caller_frame(__builtin_frame_address(0));
  Thread* current = Thread::current_or_null_safe();
  return run_with_iterator(current, current, context, options, fun, arg);
}

JNIEXPORT int JNICALL ASGST_RunWithIteratorFromFrame(void* sp, void* fp, void* pc, int options,
                                                     ASGST_IteratorHandler fun, void* arg) {
  AsgstNativeFrame context = { (address)pc, (intptr_t*)sp, (intptr_t*)fp };
  Thread* current = Thread::current_or_null_safe();
  return run_with_iterator(current, current, context, options, fun, arg);
}

JNIEXPORT int JNICALL ASGST_RunWithIteratorOfThread(jlong os_thread_id, void* ucontext, int32_t options,
                                                    ASGST_IteratorHandler fun, void* arg) {
  Thread* thread = fun == nullptr ? nullptr : AsgstThreadTable::vm_threads()->find(os_thread_id);
  AsgstNativeFrame context = AsgstNativeFrame::of_context(ucontext);
  Thread* current = Thread::current_or_null_safe();
  if (ucontext == nullptr && thread != nullptr && thread == current) {
    context = caller_frame(__builtin_frame_address(0));
  }
  return run_with_iterator(thread, current, context, options, fun, arg);
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

JNIEXPORT ASGST_MarkOwner JNICALL ASGST_RegisterMarkOwner(int slots) {
  return AsgstFrameMarks::register_owner(slots);
}

JNIEXPORT bool JNICALL ASGST_DeregisterMarkOwner(ASGST_MarkOwner owner) {
  return AsgstFrameMarks::deregister_owner(owner);
}

JNIEXPORT int JNICALL ASGST_MarkFrame(ASGST_Iterator* iterator, ASGST_MarkOwner owner, int slot,
                                      uint64_t cookie) {
  return iterator == nullptr ? ASGST_INVALID_ARGUMENT : walker_of(iterator)->mark_frame(owner, slot, cookie);
}

JNIEXPORT int JNICALL ASGST_ClearMark(ASGST_Iterator* iterator, ASGST_MarkOwner owner, int slot) {
  return iterator == nullptr ? ASGST_INVALID_ARGUMENT : walker_of(iterator)->clear_marks(owner, slot);
}

JNIEXPORT int JNICALL ASGST_WatchMarks(ASGST_Iterator* iterator, ASGST_MarkOwner owner) {
  return iterator == nullptr ? ASGST_INVALID_ARGUMENT : walker_of(iterator)->watch_marks(owner);
}

JNIEXPORT bool JNICALL ASGST_GetMark(ASGST_Iterator* iterator, ASGST_Mark* mark) {
  return iterator != nullptr && mark != nullptr && walker_of(iterator)->reached_mark(mark);
}

JNIEXPORT int JNICALL ASGST_ThreadState() {
  return AsgstThreadState::of(Thread::current_or_null_safe());
}

JNIEXPORT void JNICALL AsyncGetStackTrace(ASGST_CallTrace* trace, jint depth, void* ucontext,
                                          uint32_t options) {
  if (trace == nullptr) {
    return;
  }
  if (depth < 0 || (depth > 0 && trace->frames == nullptr)) {
    trace->num_frames = ASGST_INVALID_ARGUMENT;
    return;
  }
  Thread* current = Thread::current_or_null_safe();
  bool same_thread = trace->env_id == nullptr || (options & ASGST_WALK_SAME_THREAD) != 0;
  Thread* thread = same_thread ? current : thread_of_env(trace->env_id);
  if (thread == nullptr) {
    trace->num_frames = ASGST_NO_THREAD;
    return;
  }
  AsgstNativeFrame context = AsgstNativeFrame::of_context(ucontext);
  if (ucontext == nullptr && thread == current) {
    context = caller_frame(__builtin_frame_address(0));
  }
  // The state before a walk that enters the VM.
  jint state = AsgstThreadState::of(thread);
  with_walker(thread, current, (int)options, [&](AsgstStackWalker& walker) {
    AsgstCallTrace::fill(trace, depth, thread, state, &walker, context);
  });
}

JNIEXPORT void JNICALL ASGST_GetMethodInfo(ASGST_Method method, ASGST_MethodInfo* info) {
  AsgstMethodInfo::method_info(method, info);
}

JNIEXPORT jint JNICALL ASGST_GetMethodIdNum(ASGST_Method method) {
  return AsgstMethodInfo::method_idnum(method);
}

JNIEXPORT void JNICALL ASGST_GetClassInfo(ASGST_Class klass, ASGST_ClassInfo* info) {
  AsgstMethodInfo::class_info(klass, info);
}

JNIEXPORT jlong JNICALL ASGST_GetClassIdNum(ASGST_Class klass) {
  return AsgstMethodInfo::class_idnum(klass);
}

JNIEXPORT int JNICALL ASGST_GetMethodLineNumberTable(ASGST_Method method, ASGST_MethodLineNumberEntry* entries,
                                                     int length) {
  return AsgstMethodInfo::line_number_table(method, entries, length);
}

// The conversions need the VM state: from native code they enter the VM
// like any JNI function (Asgst::in_vm).
JNIEXPORT jmethodID JNICALL ASGST_MethodToJMethodID(ASGST_Method method) {
  Method* m = AsgstMethodInfo::as_method(method);
  JavaThread* thread = JavaThread::current_or_null();
  if (m == nullptr || thread == nullptr) {
    return nullptr;
  }
  return Asgst::in_vm(thread, [&]() { return m->jmethod_id(); });  // creating an id may take a VM lock
}

JNIEXPORT ASGST_Method JNICALL ASGST_JMethodIDToMethod(jmethodID method_id) {
  JavaThread* thread = JavaThread::current_or_null();
  if (method_id == nullptr || thread == nullptr || !is_aligned(method_id, sizeof(Method*))) {
    return nullptr;
  }
  // A jmethodID points to a word that holds its Method*: read it without
  // faulting, and check that it is a method, before HotSpot resolves it.
  Method* m = (Method*)SafeFetchN((intptr_t*)method_id, 0);
  if (AsgstMethodInfo::as_method((ASGST_Method)m) == nullptr) {
    return nullptr;
  }
  // The check reads the holder's class loader, an oop.
  return Asgst::in_vm(thread, [&]() { return (ASGST_Method)Method::checked_resolve_jmethod_id(method_id); });
}

static InstanceKlass* class_of_mirror(jclass klass) {
  oop mirror = JNIHandles::resolve(klass);
  if (mirror == nullptr || !java_lang_Class::is_instance(mirror) || java_lang_Class::is_primitive(mirror)) {
    return nullptr;
  }
  Klass* k = java_lang_Class::as_Klass(mirror);
  return k != nullptr && k->is_instance_klass() ? InstanceKlass::cast(k) : nullptr;
}

JNIEXPORT jclass JNICALL ASGST_ClassToJClass(ASGST_Class klass) {
  InstanceKlass* k = AsgstMethodInfo::as_class(klass);
  JavaThread* thread = JavaThread::current_or_null();
  if (k == nullptr || thread == nullptr) {
    return nullptr;
  }
  return Asgst::in_vm(thread, [&]() { return (jclass)JNIHandles::make_local(thread, k->java_mirror()); });
}

JNIEXPORT ASGST_Class JNICALL ASGST_JClassToClass(jclass klass) {
  JavaThread* thread = JavaThread::current_or_null();
  if (klass == nullptr || thread == nullptr) {
    return nullptr;
  }
  return Asgst::in_vm(thread, [&]() { return (ASGST_Class)class_of_mirror(klass); });
}

JNIEXPORT void JNICALL ASGST_RegisterClassUnloadHandler(ASGST_ClassUnloadHandler handler, void* arg) {
  if (!AsgstClassUnloading::register_handler(handler, arg) && handler != nullptr) {
    log_warning(jvmti)("ASGST: more than %d class unload handlers; this one is not registered",
                       AsgstClassUnloading::max_handlers);
  }
}

JNIEXPORT bool JNICALL ASGST_DeregisterClassUnloadHandler(ASGST_ClassUnloadHandler handler, void* arg) {
  return AsgstClassUnloading::deregister_handler(handler, arg);
}

JNIEXPORT ASGST_Queue* JNICALL ASGST_RegisterQueue(JNIEnv* env, int size, int options, ASGST_Handler fun,
                                                   void* arg) {
  Thread* thread = env == nullptr ? Thread::current_or_null() : thread_of_env(env);
  if (thread == nullptr || !AsgstThreadState::is_java_thread(thread)) {
    return nullptr;
  }
  return AsgstQueues::register_queue(JavaThread::cast(thread), size, options, fun, arg);
}

JNIEXPORT bool JNICALL ASGST_DeregisterQueue(ASGST_Queue* queue) {
  return AsgstQueues::deregister_queue(queue);
}

JNIEXPORT int JNICALL ASGST_Enqueue(ASGST_Queue* queue, void* ucontext, void* arg) {
  return AsgstQueues::enqueue(queue, ucontext, arg);
}

JNIEXPORT ASGST_QueueElement* JNICALL ASGST_GetQueueElement(ASGST_Queue* queue, int n) {
  return AsgstQueues::element(queue, n);
}

JNIEXPORT ASGST_QueueElement JNICALL ASGST_GetEnqueuableElement(ASGST_Queue* queue, void* ucontext) {
  return AsgstQueues::enqueuable_element(queue, ucontext);
}

JNIEXPORT void JNICALL ASGST_ResizeQueue(ASGST_Queue* queue, int size) {
  AsgstQueues::resize(queue, size);
}

JNIEXPORT ASGST_QueueSizeInfo JNICALL ASGST_GetQueueSizeInfo(ASGST_Queue* queue) {
  return AsgstQueues::size_info(queue);
}

JNIEXPORT void JNICALL ASGST_SetOnQueueProcessingStart(ASGST_Queue* queue, int options, bool offer_iterator,
                                                       ASGST_OnQueueSafepointHandler before, void* arg) {
  AsgstQueues::set_on_processing(queue, true, options, offer_iterator, before, arg);
}

JNIEXPORT void JNICALL ASGST_SetOnQueueProcessingEnd(ASGST_Queue* queue, int options, bool offer_iterator,
                                                     ASGST_OnQueueSafepointHandler end, void* arg) {
  AsgstQueues::set_on_processing(queue, false, options, offer_iterator, end, arg);
}

} // extern "C"
