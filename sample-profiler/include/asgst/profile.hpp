/*
 * Copyright (c) 2026, the ASGST authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  The ASGST authors designate
 * this particular file as subject to the "Classpath" exception as provided
 * in the LICENSE file that accompanied this code.
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

/*
 * asgst/profile.hpp: zero-cost C++ conveniences over profile.h for profiler
 * authors: lambdas instead of handler pointers, frames as a range, RAII for
 * queues and class-unload handlers. Header only; needs C++17. Everything
 * that profile.h calls signal safe stays signal safe here: nothing below
 * allocates, except registering a queue or handler (which are not signal
 * safe in profile.h either).
 */

#ifndef ASGST_PROFILE_HPP
#define ASGST_PROFILE_HPP

#include <profile.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <type_traits>
#include <utility>

namespace asgst {

// A frame; the same layout as ASGST_Frame.
using Frame = ASGST_Frame;

// The frames of an iterator as an input range:
//   for (const asgst::Frame& f : frames) { ... }
// After the loop, state() says how the walk ended (ASGST_NO_FRAME or an error).
class Frames {
 public:
  explicit Frames(ASGST_Iterator* iterator) : _iterator(iterator) {}

  class iterator {
   public:
    iterator() = default;
    explicit iterator(ASGST_Iterator* it) : _it(it) { advance(); }
    const Frame& operator*() const { return _frame; }
    const Frame* operator->() const { return &_frame; }
    iterator& operator++() { advance(); return *this; }
    bool operator==(const iterator& other) const { return _it == other._it; }
    bool operator!=(const iterator& other) const { return _it != other._it; }
   private:
    void advance() {
      if (_it != nullptr && ASGST_NextFrame(_it, &_frame) != 1) {
        _it = nullptr;
      }
    }
    ASGST_Iterator* _it = nullptr;
    Frame _frame{};
  };

  iterator begin() { return iterator(_iterator); }
  iterator end() { return iterator(); }
  int state() const { return ASGST_State(_iterator); }
  void rewind() { ASGST_RewindIterator(_iterator); }
  ASGST_Iterator* raw() const { return _iterator; }

 private:
  ASGST_Iterator* _iterator;
};

namespace detail {
template <typename F>
void call_with_frames(ASGST_Iterator* iterator, void* arg) {
  (*static_cast<F*>(arg))(Frames(iterator));
}
}  // namespace detail

// Walks the calling thread: fun(Frames) runs once if the walk can start.
// Returns the trace kind (> 0) or an ASGST_Error. Signal safe.
template <typename F>
int walk(void* ucontext, int32_t options, F&& fun) {
  using Fn = std::remove_reference_t<F>;
  return ASGST_RunWithIterator(ucontext, options, &detail::call_with_frames<Fn>, const_cast<void*>(static_cast<const void*>(&fun)));
}

// Walks another thread (halted by the caller), named by its OS thread id. Signal safe.
template <typename F>
int walk_thread(jlong os_thread_id, void* ucontext, int32_t options, F&& fun) {
  using Fn = std::remove_reference_t<F>;
  return ASGST_RunWithIteratorOfThread(os_thread_id, ucontext, options, &detail::call_with_frames<Fn>,
                                       const_cast<void*>(static_cast<const void*>(&fun)));
}

// Walks the calling thread from a given frame. Signal safe.
template <typename F>
int walk_from(void* sp, void* fp, void* pc, int options, F&& fun) {
  using Fn = std::remove_reference_t<F>;
  return ASGST_RunWithIteratorFromFrame(sp, fp, pc, options, &detail::call_with_frames<Fn>,
                                        const_cast<void*>(static_cast<const void*>(&fun)));
}

// Whether a frame is a Java frame (interpreted, compiled, inlined or native method).
inline bool is_java(const Frame& frame) {
  return frame.type != ASGST_FRAME_NON_JAVA;
}

// The ids that name a method across redefinitions and class unloading. Signal safe.
struct MethodId {
  jlong class_idnum = -1;
  jint method_idnum = -1;
  bool operator==(const MethodId& o) const { return class_idnum == o.class_idnum && method_idnum == o.method_idnum; }
  bool valid() const { return class_idnum >= 0 && method_idnum >= 0; }
};

inline MethodId method_id(ASGST_Method method) {
  ASGST_MethodInfo info{};
  ASGST_GetMethodInfo(method, &info);  // null buffers: only lengths and ids
  return MethodId{info.class_idnum, info.idnum};
}

// A safepoint queue of the calling thread (or of env's thread), deregistered
// when the object goes away. fun(Frames, void* element_arg) runs for each
// element at the thread's polls. Not signal safe to create or destroy.
// Destroyed on the thread that created it, it frees fun; elsewhere the
// queue's thread may still call fun for pending elements, and fun is left
// allocated (never freed) instead.
template <typename F>
class Queue {
 public:
  Queue(JNIEnv* env, int size, int options, F fun)
      : _fun(std::make_unique<F>(std::move(fun))), _creator(std::this_thread::get_id()) {
    _queue = ASGST_RegisterQueue(env, size, options, &Queue::trampoline, _fun.get());
  }
  ~Queue() {
    if (_queue == nullptr) {
      return;
    }
    ASGST_DeregisterQueue(_queue);
    // On its own thread the VM processes the pending elements now (or, in a
    // callback without Java frames such as ThreadEnd, drops them with the
    // thread). On another thread it processes them at the queue thread's
    // next poll, calling fun: fun must outlive this object.
    if (std::this_thread::get_id() != _creator) {
      (void)_fun.release();
    }
  }
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  explicit operator bool() const { return _queue != nullptr; }
  ASGST_Queue* raw() const { return _queue; }

  // Signal safe, on the queue's thread.
  int enqueue(void* ucontext, void* arg = nullptr) { return ASGST_Enqueue(_queue, ucontext, arg); }
  ASGST_QueueElement* element(int n) { return ASGST_GetQueueElement(_queue, n); }
  ASGST_QueueElement enqueuable(void* ucontext) { return ASGST_GetEnqueuableElement(_queue, ucontext); }
  ASGST_QueueSizeInfo size_info() { return ASGST_GetQueueSizeInfo(_queue); }
  void resize(int size) { ASGST_ResizeQueue(_queue, size); }

  // Enqueues, or counts the sample in the youngest element's arg if that
  // element records the same place (queue compression). Signal safe.
  int enqueue_or_merge(void* ucontext) {
    ASGST_QueueElement now = enqueuable(ucontext);
    ASGST_QueueElement* last = element(-1);
    if (last != nullptr && now.pc != nullptr && now.pc == last->pc && now.sp == last->sp && now.fp == last->fp &&
        now.bcp == last->bcp) {
      last->arg = reinterpret_cast<void*>(reinterpret_cast<intptr_t>(last->arg) + 1);
      return 1;
    }
    return enqueue(ucontext, reinterpret_cast<void*>(intptr_t(1)));
  }

 private:
  static void trampoline(ASGST_Iterator* iterator, void* queue_arg, void* element_arg) {
    (*static_cast<F*>(queue_arg))(Frames(iterator), element_arg);
  }
  std::unique_ptr<F> _fun;
  std::thread::id _creator;  // the queue's thread when env is the creator's own
  ASGST_Queue* _queue = nullptr;
};

// A class-unload handler, deregistered (waiting for running calls) when the
// object goes away. fun(ASGST_Class, ASGST_Method*, int count, bool redefined).
template <typename F>
class ClassUnloadHandler {
 public:
  explicit ClassUnloadHandler(F fun) : _fun(std::make_unique<F>(std::move(fun))) {
    ASGST_RegisterClassUnloadHandler(&ClassUnloadHandler::trampoline, _fun.get());
  }
  ~ClassUnloadHandler() { ASGST_DeregisterClassUnloadHandler(&ClassUnloadHandler::trampoline, _fun.get()); }
  ClassUnloadHandler(const ClassUnloadHandler&) = delete;
  ClassUnloadHandler& operator=(const ClassUnloadHandler&) = delete;

 private:
  static void trampoline(ASGST_Class klass, ASGST_Method* methods, int count, bool redefined, void* arg) {
    (*static_cast<F*>(arg))(klass, methods, count, redefined);
  }
  std::unique_ptr<F> _fun;
};

}  // namespace asgst

#endif  // ASGST_PROFILE_HPP
