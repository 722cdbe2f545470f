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

#ifndef SHARE_PRIMS_ASGSTQUEUE_HPP
#define SHARE_PRIMS_ASGSTQUEUE_HPP

#include "memory/allStatic.hpp"
#include "profile.h"
#include "runtime/javaThread.hpp"

class AsgstQueue;
struct AsgstRecordedFrame;
class Method;
class AsgstThreadQueues;

// The safepoint queues of profile.h. A signal handler enqueues the top frame
// of its thread; the thread itself walks the full stack for each element at
// its next safepoint poll, handshake or frame unwinding (the places where
// JFR's cooperative sampling processes its requests).
class AsgstQueues : AllStatic {
 public:
  // For AsgstHooks, on the thread itself at a poll: walks the pending
  // elements of every queue of the thread (queues may be null).
  static void process(JavaThread* thread, AsgstThreadQueues* queues);
  // Whether any queue of the thread (queues may be null) has elements.
  static bool any_pending(AsgstThreadQueues* queues);

  // Hook: the thread object goes away; its queues with it.
  static void thread_destroyed(JavaThread* thread);

  // The functions of profile.h (see there and doc/safepoint-queue.md).
  static ASGST_Queue* register_queue(JavaThread* thread, int size, int options, ASGST_Handler handler, void* arg);
  static bool deregister_queue(ASGST_Queue* queue);
  static int enqueue(ASGST_Queue* queue, void* ucontext, void* arg);
  static ASGST_QueueElement* element(ASGST_Queue* queue, int n);
  static ASGST_QueueElement enqueuable_element(ASGST_Queue* queue, void* ucontext);
  static void resize(ASGST_Queue* queue, int size);
  static ASGST_QueueSizeInfo size_info(ASGST_Queue* queue);
  static void set_on_processing(ASGST_Queue* queue, bool at_start, int options, bool offer_iterator,
                                ASGST_OnQueueSafepointHandler handler, void* arg);

 private:
  static volatile int _list_lock;  // guards every thread's list of queues

  static void process_queue(JavaThread* thread, AsgstQueue* queue);
  static void call_on_processing(JavaThread* thread, AsgstQueue* queue, bool at_start);
  static void apply_resize(AsgstQueue* queue);
  static void free_queue(AsgstQueue* queue);
  static int top_frame(AsgstQueue* queue, void* ucontext, ASGST_QueueElement* element,
                       AsgstRecordedFrame* recorded);
};

#endif // SHARE_PRIMS_ASGSTQUEUE_HPP
