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

/*
 * Compiled by AsgstHeaderCompiles as C and as C++ with -Wall -Wextra -pedantic
 * -Werror: profile.h must stand alone (it is the first and only include) and
 * its constants and layouts must be those of the specification.
 */
#include <profile.h>

#define ASGST_CHECK(name, condition) typedef char asgst_check_##name[(condition) ? 1 : -1]

ASGST_CHECK(option_non_java_frames, ASGST_INCLUDE_NON_JAVA_FRAMES == 1);
ASGST_CHECK(option_c_frames, ASGST_INCLUDE_C_FRAMES == ASGST_INCLUDE_NON_JAVA_FRAMES);
ASGST_CHECK(option_non_java_threads, ASGST_INCLUDE_NON_JAVA_THREADS == 2);
ASGST_CHECK(option_unsafe_states, ASGST_WALK_DURING_UNSAFE_STATES == 4);
ASGST_CHECK(option_same_thread, ASGST_WALK_SAME_THREAD == 8);
ASGST_CHECK(option_first_java_frame, ASGST_END_ON_FIRST_JAVA_FRAME == 16);
ASGST_CHECK(option_carrier_frames, ASGST_INCLUDE_CARRIER_FRAMES == 32);
ASGST_CHECK(option_not_in_signal_handler, ASGST_NOT_IN_SIGNAL_HANDLER == 64);

ASGST_CHECK(kind_java, ASGST_JAVA_TRACE == 1);
ASGST_CHECK(kind_cpp, ASGST_CPP_TRACE == 2);
ASGST_CHECK(kind_gc, ASGST_GC_TRACE == 4);
ASGST_CHECK(kind_deopt, ASGST_DEOPT_TRACE == 8);
ASGST_CHECK(kind_unknown, ASGST_UNKNOWN_TRACE == 32);

ASGST_CHECK(frame_java, ASGST_FRAME_JAVA == 1);
ASGST_CHECK(frame_java_inlined, ASGST_FRAME_JAVA_INLINED == 2);
ASGST_CHECK(frame_java_native, ASGST_FRAME_JAVA_NATIVE == 3);
ASGST_CHECK(frame_non_java, ASGST_FRAME_NON_JAVA == 4);
ASGST_CHECK(frame_cpp, ASGST_FRAME_CPP == ASGST_FRAME_NON_JAVA);

ASGST_CHECK(error_no_frame, ASGST_NO_FRAME == 0);
ASGST_CHECK(error_no_thread, ASGST_NO_THREAD == -1);
ASGST_CHECK(error_thread_exit, ASGST_THREAD_EXIT == -2);
ASGST_CHECK(error_unsafe_state, ASGST_UNSAFE_STATE == -3);
ASGST_CHECK(error_no_top_java_frame, ASGST_NO_TOP_JAVA_FRAME == -4);
ASGST_CHECK(error_no_queue, ASGST_ENQUEUE_NO_QUEUE == -5);
ASGST_CHECK(error_full_queue, ASGST_ENQUEUE_FULL_QUEUE == -6);
ASGST_CHECK(error_enqueue_other, ASGST_ENQUEUE_OTHER_ERROR == -7);
ASGST_CHECK(error_wrong_state, ASGST_WRONG_STATE == -8);
ASGST_CHECK(error_wrong_kind, ASGST_WRONG_KIND == -9);
ASGST_CHECK(error_broken_frame, ASGST_BROKEN_FRAME == -17);
ASGST_CHECK(error_invalid_argument, ASGST_INVALID_ARGUMENT == -18);
ASGST_CHECK(error_frames_in_heap, ASGST_FRAMES_IN_HEAP == -19);
ASGST_CHECK(error_mark_refused, ASGST_MARK_REFUSED == -20);
ASGST_CHECK(error_no_mark_slot, ASGST_NO_MARK_SLOT == -21);
ASGST_CHECK(marked_frame, ASGST_MARKED_FRAME == 2);
ASGST_CHECK(mark_slots, ASGST_MARK_SLOTS == 4);

ASGST_CHECK(version_1_0, ASGST_VERSION_1_0 == 0x00010000);
ASGST_CHECK(version_1_1, ASGST_VERSION_1_1 == 0x00010001);
ASGST_CHECK(version_1_2, ASGST_VERSION_1_2 == 0x00010002);
ASGST_CHECK(version_current, ASGST_VERSION == ASGST_VERSION_1_2);
ASGST_CHECK(version_major, ASGST_VERSION_MAJOR(ASGST_VERSION_1_0) == 1);
ASGST_CHECK(version_minor, ASGST_VERSION_MINOR(ASGST_VERSION_1_0) == 0);
ASGST_CHECK(version_major_of_2_3, ASGST_VERSION_MAJOR(0x00020003) == 2);
ASGST_CHECK(version_minor_of_2_3, ASGST_VERSION_MINOR(0x00020003) == 3);

ASGST_CHECK(capability_queue, ASGST_REGISTER_QUEUE == 1);
ASGST_CHECK(capability_mark_frame, ASGST_MARK_FRAME == 2);

/* JEP 435: a compact frame costs what an AsyncGetCallTrace frame costs, two words. */
ASGST_CHECK(call_frame_size, sizeof(ASGST_CallFrame) == 2 * sizeof(void*));
ASGST_CHECK(java_frame_size, sizeof(ASGST_JavaFrame) == 2 * sizeof(void*));

/* Every type and signature in use, as a profiler would write it. */
static int frames_seen;

void on_iterator(ASGST_Iterator* iterator, void* arg) {
  ASGST_Frame frame = { ASGST_FRAME_JAVA, 0, -1, NULL, NULL, NULL, NULL };
  (void)iterator;
  (void)arg;
  frames_seen += frame.type;
}

void on_unload(ASGST_Class klass, ASGST_Method* methods, int count, bool redefined, void* arg) {
  (void)klass; (void)methods; (void)arg;
  frames_seen += redefined ? count : 0;
}

void on_element(ASGST_Iterator* iterator, void* queue_arg, void* arg) {
  (void)iterator; (void)queue_arg; (void)arg;
}

void on_queue(ASGST_Queue* queue, ASGST_Iterator* iterator, void* arg) {
  (void)queue; (void)iterator; (void)arg;
}

/*
 * Every function has a pointer type of its own name with _Fn, the type of the
 * function itself: an assignment of another type is an error in C++ and a
 * warning (an error with -Werror) in C.
 */
int use_every_pointer_type(void) {
  ASGST_Capabilities_Fn capabilities = ASGST_Capabilities;
  ASGST_Version_Fn version = ASGST_Version;
  ASGST_RunWithIterator_Fn run = ASGST_RunWithIterator;
  ASGST_RunWithIteratorFromFrame_Fn run_from_frame = ASGST_RunWithIteratorFromFrame;
  ASGST_RunWithIteratorOfThread_Fn run_of_thread = ASGST_RunWithIteratorOfThread;
  ASGST_NextFrame_Fn next = ASGST_NextFrame;
  ASGST_RewindIterator_Fn rewind = ASGST_RewindIterator;
  ASGST_State_Fn state = ASGST_State;
  ASGST_ThreadState_Fn thread_state = ASGST_ThreadState;
  AsyncGetStackTrace_Fn get_stack_trace = AsyncGetStackTrace;
  ASGST_GetMethodInfo_Fn method_info = ASGST_GetMethodInfo;
  ASGST_GetMethodIdNum_Fn method_idnum = ASGST_GetMethodIdNum;
  ASGST_GetClassInfo_Fn class_info = ASGST_GetClassInfo;
  ASGST_GetClassIdNum_Fn class_idnum = ASGST_GetClassIdNum;
  ASGST_GetMethodLineNumberTable_Fn line_table = ASGST_GetMethodLineNumberTable;
  ASGST_MethodToJMethodID_Fn to_jmethod_id = ASGST_MethodToJMethodID;
  ASGST_JMethodIDToMethod_Fn from_jmethod_id = ASGST_JMethodIDToMethod;
  ASGST_ClassToJClass_Fn to_jclass = ASGST_ClassToJClass;
  ASGST_JClassToClass_Fn from_jclass = ASGST_JClassToClass;
  ASGST_RegisterClassUnloadHandler_Fn register_unload = ASGST_RegisterClassUnloadHandler;
  ASGST_DeregisterClassUnloadHandler_Fn deregister_unload = ASGST_DeregisterClassUnloadHandler;
  ASGST_RegisterQueue_Fn register_queue = ASGST_RegisterQueue;
  ASGST_DeregisterQueue_Fn deregister_queue = ASGST_DeregisterQueue;
  ASGST_Enqueue_Fn enqueue = ASGST_Enqueue;
  ASGST_GetQueueElement_Fn queue_element = ASGST_GetQueueElement;
  ASGST_GetEnqueuableElement_Fn enqueuable = ASGST_GetEnqueuableElement;
  ASGST_ResizeQueue_Fn resize_queue = ASGST_ResizeQueue;
  ASGST_GetQueueSizeInfo_Fn queue_size = ASGST_GetQueueSizeInfo;
  ASGST_SetOnQueueProcessingStart_Fn on_start = ASGST_SetOnQueueProcessingStart;
  ASGST_SetOnQueueProcessingEnd_Fn on_end = ASGST_SetOnQueueProcessingEnd;
  ASGST_RegisterMarkOwner_Fn register_owner = ASGST_RegisterMarkOwner;
  ASGST_DeregisterMarkOwner_Fn deregister_owner = ASGST_DeregisterMarkOwner;
  ASGST_MarkFrame_Fn mark_frame = ASGST_MarkFrame;
  ASGST_ClearMark_Fn clear_mark = ASGST_ClearMark;
  ASGST_WatchMarks_Fn watch_marks = ASGST_WatchMarks;
  ASGST_GetMark_Fn get_mark = ASGST_GetMark;
  /* Function and object pointers do not mix in ISO C: compare each with null. */
  return (capabilities != NULL) + (version != NULL) + (run != NULL) + (run_from_frame != NULL) +
         (run_of_thread != NULL) + (next != NULL) + (rewind != NULL) + (state != NULL) +
         (thread_state != NULL) + (get_stack_trace != NULL) + (method_info != NULL) +
         (method_idnum != NULL) + (class_info != NULL) + (class_idnum != NULL) +
         (line_table != NULL) + (to_jmethod_id != NULL) + (from_jmethod_id != NULL) +
         (to_jclass != NULL) + (from_jclass != NULL) + (register_unload != NULL) +
         (deregister_unload != NULL) + (register_queue != NULL) + (deregister_queue != NULL) +
         (enqueue != NULL) + (queue_element != NULL) + (enqueuable != NULL) +
         (resize_queue != NULL) + (queue_size != NULL) + (on_start != NULL) + (on_end != NULL) +
         (register_owner != NULL) + (deregister_owner != NULL) + (mark_frame != NULL) +
         (clear_mark != NULL) + (watch_marks != NULL) + (get_mark != NULL);
}

int use_every_type(void) {
  ASGST_IteratorHandler iterator_handler = on_iterator;
  ASGST_ClassUnloadHandler unload_handler = on_unload;
  ASGST_Handler element_handler = on_element;
  ASGST_OnQueueSafepointHandler queue_handler = on_queue;
  ASGST_CallFrame frames[4];
  ASGST_CallTrace trace;
  char name[16];
  ASGST_MethodInfo method_info;
  ASGST_ClassInfo class_info;
  ASGST_MethodLineNumberEntry line = { 0, 1 };
  ASGST_QueueElement element = { NULL, NULL, NULL, NULL, NULL };
  ASGST_QueueSizeInfo size_info = { 0, 0, 0 };
  ASGST_Mark mark = { 0, 0 };
  ASGST_MarkOwner owner = 1;
  int (*capabilities)(void) = ASGST_Capabilities;
  int (*run)(void*, int32_t, ASGST_IteratorHandler, void*) = ASGST_RunWithIterator;
  int (*next)(ASGST_Iterator*, ASGST_Frame*) = ASGST_NextFrame;
  void (*rewind)(ASGST_Iterator*) = ASGST_RewindIterator;
  int (*state)(ASGST_Iterator*) = ASGST_State;
  int (*run_from_frame)(void*, void*, void*, int, ASGST_IteratorHandler, void*) =
      ASGST_RunWithIteratorFromFrame;
  int (*run_of_thread)(jlong, void*, int32_t, ASGST_IteratorHandler, void*) =
      ASGST_RunWithIteratorOfThread;
  int (*thread_state)(void) = ASGST_ThreadState;
  void (*get_stack_trace)(ASGST_CallTrace*, jint, void*, uint32_t) = AsyncGetStackTrace;
  void (*method_info_of)(ASGST_Method, ASGST_MethodInfo*) = ASGST_GetMethodInfo;
  jint (*method_idnum)(ASGST_Method) = ASGST_GetMethodIdNum;
  void (*class_info_of)(ASGST_Class, ASGST_ClassInfo*) = ASGST_GetClassInfo;
  jlong (*class_idnum)(ASGST_Class) = ASGST_GetClassIdNum;
  int (*line_table)(ASGST_Method, ASGST_MethodLineNumberEntry*, int) = ASGST_GetMethodLineNumberTable;
  ASGST_Method (*from_jmethod_id)(jmethodID) = ASGST_JMethodIDToMethod;
  jclass (*to_jclass)(ASGST_Class) = ASGST_ClassToJClass;
  ASGST_Class (*from_jclass)(jclass) = ASGST_JClassToClass;
  void (*register_unload)(ASGST_ClassUnloadHandler, void*) = ASGST_RegisterClassUnloadHandler;
  bool (*deregister_unload)(ASGST_ClassUnloadHandler, void*) = ASGST_DeregisterClassUnloadHandler;
  ASGST_Queue* (*register_queue)(JNIEnv*, int, int, ASGST_Handler, void*) = ASGST_RegisterQueue;
  bool (*deregister_queue)(ASGST_Queue*) = ASGST_DeregisterQueue;
  int (*enqueue)(ASGST_Queue*, void*, void*) = ASGST_Enqueue;
  ASGST_QueueElement* (*queue_element)(ASGST_Queue*, int) = ASGST_GetQueueElement;
  ASGST_QueueElement (*enqueuable)(ASGST_Queue*, void*) = ASGST_GetEnqueuableElement;
  void (*resize_queue)(ASGST_Queue*, int) = ASGST_ResizeQueue;
  ASGST_QueueSizeInfo (*queue_size)(ASGST_Queue*) = ASGST_GetQueueSizeInfo;
  void (*on_start)(ASGST_Queue*, int, bool, ASGST_OnQueueSafepointHandler, void*) = ASGST_SetOnQueueProcessingStart;
  void (*on_end)(ASGST_Queue*, int, bool, ASGST_OnQueueSafepointHandler, void*) = ASGST_SetOnQueueProcessingEnd;
  jmethodID (*to_jmethod_id)(ASGST_Method) = ASGST_MethodToJMethodID;

  frames[0].java_frame.type = ASGST_FRAME_JAVA;
  frames[0].java_frame.comp_level = 4;
  frames[0].java_frame.bci = 65535;
  frames[0].java_frame.method = NULL;
  frames[1].non_java_frame.type = ASGST_FRAME_NON_JAVA;
  frames[1].non_java_frame.pc = NULL;
  trace.env_id = NULL;
  trace.num_frames = 0;
  trace.kind = ASGST_JAVA_TRACE;
  trace.state = 0;
  trace.frames = frames;
  trace.frame_info = NULL;
  method_info.klass = NULL;
  method_info.method_name = name;
  method_info.method_name_length = (jint)sizeof(name);
  method_info.signature = NULL;
  method_info.signature_length = 0;
  method_info.generic_signature = NULL;
  method_info.generic_signature_length = 0;
  method_info.modifiers = 0;
  method_info.idnum = 0;
  method_info.class_idnum = 0;
  class_info.class_name = name;
  class_info.class_name_length = (jint)sizeof(name);
  class_info.generic_class_name = NULL;
  class_info.generic_class_name_length = 0;
  class_info.modifiers = 0;
  class_info.idnum = 0;
  iterator_handler(NULL, &trace);
  unload_handler(class_info.idnum == 0 ? method_info.klass : NULL, NULL, 0, false, NULL);
  element_handler(NULL, element.arg, NULL);
  queue_handler(NULL, NULL, NULL);
  rewind(NULL);
  get_stack_trace(&trace, 4, NULL, ASGST_WALK_SAME_THREAD);
  method_info_of(NULL, &method_info);
  class_info_of(to_jclass(NULL) == NULL ? from_jclass(NULL) : NULL, &class_info);
  register_unload(unload_handler, NULL);
  if (register_queue(NULL, 0, 0, element_handler, NULL) != NULL || deregister_queue(NULL) ||
      queue_element(NULL, 0) != NULL || enqueuable(NULL, NULL).pc != NULL) {
    return -3;
  }
  resize_queue(NULL, 1);
  on_start(NULL, 0, false, queue_handler, NULL);
  on_end(NULL, 0, true, queue_handler, NULL);
  size_info = queue_size(NULL);
  owner = ASGST_RegisterMarkOwner(ASGST_MARK_SLOTS);
  if (ASGST_MarkFrame(NULL, owner, 0, 1) != ASGST_INVALID_ARGUMENT || ASGST_WatchMarks(NULL, owner) == 0 ||
      ASGST_ClearMark(NULL, owner, -1) == 0 || ASGST_GetMark(NULL, &mark) || !ASGST_DeregisterMarkOwner(owner)) {
    return -4;
  }
  if (!deregister_unload(unload_handler, NULL) || from_jmethod_id(NULL) != NULL) {
    return -2;
  }
  if (to_jmethod_id(NULL) != NULL) {
    return -1;
  }
  return run(NULL, ASGST_INCLUDE_NON_JAVA_FRAMES, iterator_handler, NULL) + next(NULL, NULL) + state(NULL) +
         capabilities() + frames[0].type +
         run_from_frame(NULL, NULL, NULL, 0, iterator_handler, NULL) +
         run_of_thread(0, NULL, 0, iterator_handler, NULL) + thread_state() +
         method_idnum(NULL) + (int)class_idnum(NULL) + line_table(NULL, &line, 1) +
         enqueue(NULL, NULL, NULL) + line.line_number + size_info.size + frames_seen + (int)mark.cookie;
}
