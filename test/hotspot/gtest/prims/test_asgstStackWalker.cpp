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

#include "prims/asgstStackWalker.hpp"
#include "profile.h"
#include "jvmti.h"
#include "runtime/javaThread.hpp"
#include "runtime/os.hpp"
#include "unittest.hpp"

static int handler_calls = 0;

static void count_calls(ASGST_Iterator* iterator, void* arg) {
  handler_calls++;
}

// The gtest thread is a Java thread that never ran Java code: there is no
// top Java frame, and the handler is not called.
TEST_VM(asgst_walker, no_java_frames) {
  JavaThread* thread = JavaThread::current();
  ASSERT_FALSE(thread->has_last_Java_frame());
  AsgstStackWalker walker(thread, 0);
  AsgstNativeFrame no_context = { nullptr, nullptr, nullptr };
  EXPECT_EQ(ASGST_NO_TOP_JAVA_FRAME, walker.start(no_context));
  ASGST_Frame frame;
  EXPECT_EQ(ASGST_NO_FRAME, walker.next(&frame));
  walker.rewind();
  EXPECT_EQ(ASGST_NO_FRAME, walker.state());

  handler_calls = 0;
  EXPECT_EQ(ASGST_NO_TOP_JAVA_FRAME, ASGST_RunWithIterator(nullptr, 0, count_calls, nullptr));
  EXPECT_EQ(0, handler_calls);
}

TEST_VM(asgst_walker, null_arguments) {
  EXPECT_EQ(ASGST_INVALID_ARGUMENT, ASGST_RunWithIterator(nullptr, 0, nullptr, nullptr));
  ASGST_Frame frame;
  EXPECT_EQ(ASGST_NO_FRAME, ASGST_NextFrame(nullptr, &frame));
  EXPECT_EQ(ASGST_NO_FRAME, ASGST_State(nullptr));
  ASGST_RewindIterator(nullptr);  // must not crash
  EXPECT_EQ(nullptr, ASGST_MethodToJMethodID(nullptr));
}

struct NativeWalk {
  int frames;
  int non_java_frames;
  void* first_sp;
  int end;
};

static void walk_native(ASGST_Iterator* iterator, void* arg) {
  NativeWalk* walk = (NativeWalk*)arg;
  ASGST_Frame frame;
  int result;
  while ((result = ASGST_NextFrame(iterator, &frame)) == 1) {
    if (walk->frames++ == 0) {
      walk->first_sp = frame.sp;
    }
    if (frame.type == ASGST_FRAME_NON_JAVA && frame.method == nullptr && frame.bci == -1) {
      walk->non_java_frames++;
    }
  }
  walk->end = result;
}

// With C frames asked for, a Java thread without Java frames is a C++ trace
// that starts at the caller of ASGST_RunWithIterator and ends with the chain.
TEST_VM(asgst_walker, native_frames_of_a_thread_without_java_frames) {
  NativeWalk walk = { 0, 0, nullptr, 1 };
  int here = 0;
  EXPECT_EQ(ASGST_CPP_TRACE, ASGST_RunWithIterator(nullptr, ASGST_INCLUDE_NON_JAVA_FRAMES,
                                                   walk_native, &walk));
  EXPECT_EQ(ASGST_NO_FRAME, walk.end);
  EXPECT_GE(walk.frames, 3);  // this test, gtest's runner, main
  EXPECT_EQ(walk.frames, walk.non_java_frames);
  // The first frame is this function's: its sp lies just below a local.
  EXPECT_LT((address)walk.first_sp, (address)&here);
  EXPECT_GT((address)walk.first_sp + 4096, (address)&here);
}

TEST_VM(asgst_walker, end_on_first_java_frame_without_java_frames) {
  NativeWalk walk = { 0, 0, nullptr, 1 };
  EXPECT_EQ(ASGST_CPP_TRACE,
            ASGST_RunWithIterator(nullptr, ASGST_INCLUDE_NON_JAVA_FRAMES | ASGST_END_ON_FIRST_JAVA_FRAME,
                                  walk_native, &walk));
  EXPECT_GE(walk.frames, 3);  // no Java frame: the option never ends the walk early
}

TEST_VM(asgst_walker, walk_self_by_os_thread_id) {
  NativeWalk walk = { 0, 0, nullptr, 1 };
  jlong self = (jlong)os::current_thread_id();
  EXPECT_EQ(ASGST_NO_TOP_JAVA_FRAME, ASGST_RunWithIteratorOfThread(self, nullptr, 0, walk_native, &walk));
  EXPECT_EQ(ASGST_CPP_TRACE, ASGST_RunWithIteratorOfThread(self, nullptr, ASGST_INCLUDE_NON_JAVA_FRAMES,
                                                           walk_native, &walk));
  EXPECT_GE(walk.frames, 3);
  EXPECT_EQ(ASGST_NO_THREAD, ASGST_RunWithIteratorOfThread(-5, nullptr, 0, walk_native, &walk));
  EXPECT_EQ(ASGST_NO_THREAD, ASGST_RunWithIteratorOfThread(0, nullptr, 0, walk_native, &walk));
  EXPECT_EQ(ASGST_INVALID_ARGUMENT, ASGST_RunWithIteratorOfThread(self, nullptr, 0, nullptr, nullptr));
}

// gtest runs its TEST_VM tests in the native state.
TEST_VM(asgst_walker, thread_state_of_a_running_thread) {
  int state = ASGST_ThreadState();
  EXPECT_EQ(JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE | JVMTI_THREAD_STATE_IN_NATIVE, state);
}

TEST_VM(asgst_call_trace, arguments_and_errors) {
  ASGST_CallFrame frames[64];
  ASGST_CallTrace trace;
  memset(&trace, 0, sizeof(trace));
  trace.frames = frames;

  AsyncGetStackTrace(nullptr, 10, nullptr, 0);  // must not crash
  AsyncGetStackTrace(&trace, -1, nullptr, 0);
  EXPECT_EQ(ASGST_INVALID_ARGUMENT, trace.num_frames);
  trace.frames = nullptr;
  AsyncGetStackTrace(&trace, 1, nullptr, 0);
  EXPECT_EQ(ASGST_INVALID_ARGUMENT, trace.num_frames);
  trace.frames = frames;

  // No Java frames on this thread.
  AsyncGetStackTrace(&trace, 64, nullptr, 0);
  EXPECT_EQ(ASGST_NO_TOP_JAVA_FRAME, trace.num_frames);

  // A JNIEnv that belongs to no thread is never dereferenced.
  trace.env_id = (JNIEnv*)(uintptr_t)0x10;
  AsyncGetStackTrace(&trace, 64, nullptr, 0);
  EXPECT_EQ(ASGST_NO_THREAD, trace.num_frames);
  trace.env_id = nullptr;

  // C frames only: a C++ trace, truncated to the depth.
  AsyncGetStackTrace(&trace, 64, nullptr, ASGST_INCLUDE_NON_JAVA_FRAMES);
  ASSERT_GE(trace.num_frames, 3);
  EXPECT_EQ(ASGST_CPP_TRACE, trace.kind);
  EXPECT_EQ(JavaThread::current()->jni_environment(), trace.env_id);
  EXPECT_EQ(JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE | JVMTI_THREAD_STATE_IN_NATIVE, trace.state);
  for (int i = 0; i < trace.num_frames; i++) {
    EXPECT_EQ(ASGST_FRAME_NON_JAVA, frames[i].type);
    EXPECT_NE(nullptr, frames[i].non_java_frame.pc);
  }
  int full = trace.num_frames;
  memset(&trace, 0, sizeof(trace));
  trace.frames = frames;
  AsyncGetStackTrace(&trace, 2, nullptr, ASGST_INCLUDE_NON_JAVA_FRAMES);
  EXPECT_EQ(2, trace.num_frames);
  EXPECT_LE(2, full);

  // Accepted kinds and states.
  memset(&trace, 0, sizeof(trace));
  trace.frames = frames;
  trace.kind = ASGST_JAVA_TRACE | ASGST_GC_TRACE;
  AsyncGetStackTrace(&trace, 64, nullptr, ASGST_INCLUDE_NON_JAVA_FRAMES);
  EXPECT_EQ(ASGST_WRONG_KIND, trace.num_frames);
  EXPECT_EQ(ASGST_CPP_TRACE, trace.kind);
  memset(&trace, 0, sizeof(trace));
  trace.frames = frames;
  trace.state = JVMTI_THREAD_STATE_WAITING;
  AsyncGetStackTrace(&trace, 64, nullptr, ASGST_INCLUDE_NON_JAVA_FRAMES);
  EXPECT_EQ(ASGST_WRONG_STATE, trace.num_frames);
  EXPECT_EQ(JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE | JVMTI_THREAD_STATE_IN_NATIVE, trace.state);
}
