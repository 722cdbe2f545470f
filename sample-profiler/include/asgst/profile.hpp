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
 *
 * The API is called through asgst::api, filled by asgst::load() with dlsym:
 * a profiler built on this header does not link against libjvm, so it loads
 * into any JVM and can choose another way to sample where the API is missing.
 */

#ifndef ASGST_PROFILE_HPP
#define ASGST_PROFILE_HPP

#include <profile.h>

#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

namespace asgst {

// The functions of profile.h that this header and its users call.
struct Api {
  ASGST_Version_Fn Version;
  ASGST_Capabilities_Fn Capabilities;
  ASGST_RunWithIterator_Fn RunWithIterator;
  ASGST_RunWithIteratorFromFrame_Fn RunWithIteratorFromFrame;
  ASGST_RunWithIteratorOfThread_Fn RunWithIteratorOfThread;
  ASGST_NextFrame_Fn NextFrame;
  ASGST_RewindIterator_Fn RewindIterator;
  ASGST_State_Fn State;
  ASGST_GetMethodInfo_Fn GetMethodInfo;
  ASGST_GetClassInfo_Fn GetClassInfo;
  ASGST_RegisterClassUnloadHandler_Fn RegisterClassUnloadHandler;
  ASGST_DeregisterClassUnloadHandler_Fn DeregisterClassUnloadHandler;
  ASGST_RegisterQueue_Fn RegisterQueue;
  ASGST_DeregisterQueue_Fn DeregisterQueue;
  ASGST_Enqueue_Fn Enqueue;
  ASGST_GetQueueElement_Fn GetQueueElement;
  ASGST_GetEnqueuableElement_Fn GetEnqueuableElement;
  ASGST_GetQueueSizeInfo_Fn GetQueueSizeInfo;
  ASGST_ResizeQueue_Fn ResizeQueue;
  // Frame marks (API 1.1): null on a VM without them, see has_marks().
  ASGST_RegisterMarkOwner_Fn RegisterMarkOwner;
  ASGST_MarkFrame_Fn MarkFrame;
  ASGST_ClearMark_Fn ClearMark;
  ASGST_WatchMarks_Fn WatchMarks;
  ASGST_GetMark_Fn GetMark;
};

// All null until load() succeeds.
inline Api api{};

// Looks the API up in the running VM; libjvm is loaded before any agent.
// Returns an empty string if the VM implements the major version of this
// profile.h and has every function of Api but the optional ones (frame
// marks), else why not (and leaves api null). Call it once, before anything
// else here; not signal safe.
inline std::string load() {
  Api found{};
  const char* missing = nullptr;
  auto find = [&missing](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(RTLD_DEFAULT, name));
    if (fn == nullptr && missing == nullptr) {
      missing = name;
    }
  };
  find(found.Version, "ASGST_Version");
  if (missing != nullptr) {
    return std::string(missing) + " not found";
  }
  jint version = found.Version();
  if (ASGST_VERSION_MAJOR(version) != ASGST_VERSION_MAJOR(ASGST_VERSION)) {
    return "ASGST_Version() is " + std::to_string(ASGST_VERSION_MAJOR(version)) + "." +
           std::to_string(ASGST_VERSION_MINOR(version)) + ", not " +
           std::to_string(ASGST_VERSION_MAJOR(ASGST_VERSION)) + ".x";
  }
  find(found.Capabilities, "ASGST_Capabilities");
  find(found.RunWithIterator, "ASGST_RunWithIterator");
  find(found.RunWithIteratorFromFrame, "ASGST_RunWithIteratorFromFrame");
  find(found.RunWithIteratorOfThread, "ASGST_RunWithIteratorOfThread");
  find(found.NextFrame, "ASGST_NextFrame");
  find(found.RewindIterator, "ASGST_RewindIterator");
  find(found.State, "ASGST_State");
  find(found.GetMethodInfo, "ASGST_GetMethodInfo");
  find(found.GetClassInfo, "ASGST_GetClassInfo");
  find(found.RegisterClassUnloadHandler, "ASGST_RegisterClassUnloadHandler");
  find(found.DeregisterClassUnloadHandler, "ASGST_DeregisterClassUnloadHandler");
  find(found.RegisterQueue, "ASGST_RegisterQueue");
  find(found.DeregisterQueue, "ASGST_DeregisterQueue");
  find(found.Enqueue, "ASGST_Enqueue");
  find(found.GetQueueElement, "ASGST_GetQueueElement");
  find(found.GetEnqueuableElement, "ASGST_GetEnqueuableElement");
  find(found.GetQueueSizeInfo, "ASGST_GetQueueSizeInfo");
  find(found.ResizeQueue, "ASGST_ResizeQueue");
  if (missing != nullptr) {
    return std::string(missing) + " not found";
  }
  if (ASGST_VERSION_MINOR(version) >= 1) {
    find(found.RegisterMarkOwner, "ASGST_RegisterMarkOwner");
    find(found.MarkFrame, "ASGST_MarkFrame");
    find(found.ClearMark, "ASGST_ClearMark");
    find(found.WatchMarks, "ASGST_WatchMarks");
    find(found.GetMark, "ASGST_GetMark");
    if (missing != nullptr) {  // optional: a VM without them walks without marks
      found.RegisterMarkOwner = nullptr;
    }
  }
  api = found;
  return "";
}

// Whether frame marks work on this VM (after load() succeeded).
inline bool has_marks() {
  return api.RegisterMarkOwner != nullptr && (api.Capabilities() & ASGST_MARK_FRAME) != 0;
}

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
      if (_it != nullptr && api.NextFrame(_it, &_frame) != 1) {
        _it = nullptr;
      }
    }
    ASGST_Iterator* _it = nullptr;
    Frame _frame{};
  };

  iterator begin() { return iterator(_iterator); }
  iterator end() { return iterator(); }
  int state() const { return api.State(_iterator); }
  void rewind() { api.RewindIterator(_iterator); }
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
  return api.RunWithIterator(ucontext, options, &detail::call_with_frames<Fn>, const_cast<void*>(static_cast<const void*>(&fun)));
}

// Walks another thread (halted by the caller), named by its OS thread id. Signal safe.
template <typename F>
int walk_thread(jlong os_thread_id, void* ucontext, int32_t options, F&& fun) {
  using Fn = std::remove_reference_t<F>;
  return api.RunWithIteratorOfThread(os_thread_id, ucontext, options, &detail::call_with_frames<Fn>,
                                     const_cast<void*>(static_cast<const void*>(&fun)));
}

// Walks the calling thread from a given frame. Signal safe.
template <typename F>
int walk_from(void* sp, void* fp, void* pc, int options, F&& fun) {
  using Fn = std::remove_reference_t<F>;
  return api.RunWithIteratorFromFrame(sp, fp, pc, options, &detail::call_with_frames<Fn>,
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
  api.GetMethodInfo(method, &info);  // null buffers: only lengths and ids
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
    _queue = api.RegisterQueue(env, size, options, &Queue::trampoline, _fun.get());
  }
  ~Queue() {
    if (_queue == nullptr) {
      return;
    }
    api.DeregisterQueue(_queue);
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
  int enqueue(void* ucontext, void* arg = nullptr) { return api.Enqueue(_queue, ucontext, arg); }
  ASGST_QueueElement* element(int n) { return api.GetQueueElement(_queue, n); }
  ASGST_QueueElement enqueuable(void* ucontext) { return api.GetEnqueuableElement(_queue, ucontext); }
  ASGST_QueueSizeInfo size_info() { return api.GetQueueSizeInfo(_queue); }
  void resize(int size) { api.ResizeQueue(_queue, size); }

  // Enqueues, or counts the sample in the youngest element's arg if that
  // element records the same place (queue compression). Signal safe. Only
  // a pending element can take the sample: without one (a thread in Java
  // code has its elements processed at the polls between its samples), the
  // top frame is found once, by the enqueue. *pending: whether an element
  // was pending; *merged: whether the sample went into it.
  int enqueue_or_merge(void* ucontext, bool* pending = nullptr, bool* merged = nullptr) {
    ASGST_QueueElement* last = element(-1);
    if (pending != nullptr) *pending = last != nullptr;
    if (merged != nullptr) *merged = false;
    if (last == nullptr) {
      return enqueue(ucontext, reinterpret_cast<void*>(intptr_t(1)));
    }
    ASGST_QueueElement now = enqueuable(ucontext);
    if (now.pc != nullptr && now.pc == last->pc && now.sp == last->sp && now.fp == last->fp &&
        now.bcp == last->bcp) {
      last->arg = reinterpret_cast<void*>(reinterpret_cast<intptr_t>(last->arg) + 1);
      if (merged != nullptr) *merged = true;
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
    api.RegisterClassUnloadHandler(&ClassUnloadHandler::trampoline, _fun.get());
  }
  ~ClassUnloadHandler() { api.DeregisterClassUnloadHandler(&ClassUnloadHandler::trampoline, _fun.get()); }
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
