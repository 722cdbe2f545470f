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
 * JNI code that runs on a stack made with Boost.Context, as fiber and
 * coroutine libraries do, while a CPU timer samples it. The SIGPROF handler
 * walks with the interrupted context, whose sp lies outside the thread's
 * stack, with and without C frames.
 */

#include <boost/context/detail/fcontext.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

namespace ctx = boost::context::detail;

static const size_t stack_size = 256 * 1024;
static char* foreign_stack;
static timer_t timer;
static std::atomic<long> on_foreign, complete_java, c_frames_walks, total;
static jmethodID chain_method;  // the Java method whose frames must be recovered
static ASGST_Method chain;

static bool on_foreign_stack(void* ucontext) {
  intptr_t* sp = nullptr;
  intptr_t* fp = nullptr;
  ucontext_t* uc = (ucontext_t*)ucontext;
#if defined(__x86_64__)
  sp = (intptr_t*)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
  sp = (intptr_t*)uc->uc_mcontext.sp;
#endif
  (void)fp;
  return (char*)sp >= foreign_stack && (char*)sp < foreign_stack + stack_size;
}

struct Walk {
  int java_frames;
  bool saw_chain;
  int end;
};

static void count(ASGST_Iterator* iterator, void* arg) {
  Walk* w = (Walk*)arg;
  ASGST_Frame frame;
  while (ASGST_NextFrame(iterator, &frame) == 1) {
    if (frame.type != ASGST_FRAME_NON_JAVA) {
      w->java_frames++;
      if (frame.method == chain) {
        w->saw_chain = true;
      }
    }
  }
  w->end = ASGST_State(iterator);
}

static void on_sigprof(int, siginfo_t*, void* ucontext) {
  total++;
  if (!on_foreign_stack(ucontext)) {
    return;
  }
  on_foreign++;
  Walk plain = {0, false, 1};
  Walk mixed = {0, false, 1};
  int kind = ASGST_RunWithIterator(ucontext, 0, count, &plain);
  int kind_c = ASGST_RunWithIterator(ucontext, ASGST_INCLUDE_NON_JAVA_FRAMES, count, &mixed);
  // The Java frames below the native transition must be found either way.
  if (kind == ASGST_JAVA_TRACE && plain.end == ASGST_NO_FRAME && plain.saw_chain) {
    complete_java++;
  }
  if (kind_c == ASGST_JAVA_TRACE && mixed.end == ASGST_NO_FRAME && mixed.saw_chain &&
      mixed.java_frames == plain.java_frames) {
    c_frames_walks++;
  }
}

static void spin_on_foreign_stack(ctx::transfer_t from) {
  long millis = (long)(intptr_t)from.data;
  struct timespec start, now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  volatile long sink = 0;
  do {
    for (int i = 0; i < 10000; i++) {
      sink += i * 31;
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < millis);
  ctx::jump_fcontext(from.fctx, nullptr);  // back to the thread's own stack
}

/* Runs millis of CPU work on a foreign stack; returns {samples there, complete Java walks, same with C frames}. */
extern "C" JNIEXPORT jlongArray JNICALL
Java_AsgstForeignStack_runOnForeignStack(JNIEnv* env, jclass cls, jint millis) {
  chain_method = env->GetStaticMethodID(cls, "callChain", "(II)[J");
  chain = ASGST_JMethodIDToMethod(chain_method);
  foreign_stack = (char*)std::malloc(stack_size);
  asgst_test_start_cpu_sampling(on_sigprof, 200, &timer);
  ctx::fcontext_t fiber = ctx::make_fcontext(foreign_stack + stack_size, stack_size, spin_on_foreign_stack);
  ctx::jump_fcontext(fiber, (void*)(intptr_t)millis);
  timer_delete(timer);
  jlong results[4] = {on_foreign.load(), complete_java.load(), c_frames_walks.load(), total.load()};
  jlongArray array = env->NewLongArray(4);
  env->SetLongArrayRegion(array, 0, 4, results);
  std::free(foreign_stack);
  return array;
}
