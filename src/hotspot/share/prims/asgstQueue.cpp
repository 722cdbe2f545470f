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

#include "memory/allocation.hpp"
#include "prims/asgst.inline.hpp"
#include "prims/asgstPollArm.hpp"
#include "prims/asgstQueue.hpp"
#include "prims/asgstQueueWalk.hpp"
#include "prims/asgstStackWalker.hpp"
#include "runtime/atomic.hpp"
#include "runtime/handles.inline.hpp"
#include "runtime/javaThread.inline.hpp"
#include "runtime/safepointMechanism.inline.hpp"

#include <new>

// What the profiler set with ASGST_SetOnQueueProcessingStart/End.
struct AsgstOnProcessing {
  ASGST_OnQueueSafepointHandler _handler;
  void* _arg;
  int _options;
  bool _offer_iterator;
};

// One queue: a ring of elements written by its thread's signal handler (the
// producer) and read by the same thread at a poll (the consumer). head,
// first_pending and tail count the elements ever processed, handed to the
// handler and added; an element's slot is its count modulo the capacity. Queue objects live in AsgstQueueTable's slots and are
// reused, never freed: only the element arrays of a removed queue are.
class AsgstQueue {
  NONCOPYABLE(AsgstQueue);

 public:
  JavaThread* _thread;
  ASGST_Handler _handler;
  void* _handler_arg;
  int _options;
  ASGST_QueueElement* _elements;
  AsgstRecordedFrame* _codes;            // beside _elements, same slots
  jint _capacity;
  volatile juint _head;                // the oldest slot in use
  volatile juint _first_pending;       // the oldest element not yet handed to the handler
  volatile juint _tail;
  volatile jint _attempts;             // enqueue attempts since the last processing
  volatile jint _requested_capacity;   // applied after the next processing
  volatile bool _busy;                 // resized by its thread: enqueues are refused
  volatile bool _deregistered;         // freed by its thread at the next processing
  AsgstOnProcessing _on_start;
  AsgstOnProcessing _on_end;
  AsgstQueue* volatile _next;
  // The slot: odd while a queue lives in it, advanced when it is removed.
  volatile uintptr_t _generation;
  juint _index;
  AsgstQueue* _next_free;

  AsgstQueue() :
    _thread(nullptr), _handler(nullptr), _handler_arg(nullptr), _options(0), _elements(nullptr), _codes(nullptr),
    _capacity(0), _head(0), _first_pending(0), _tail(0), _attempts(0), _requested_capacity(0), _busy(false), _deregistered(false),
    _on_start(), _on_end(), _next(nullptr), _generation(0), _index(0), _next_free(nullptr) {}

  void init(JavaThread* t, int size, int opts, ASGST_Handler h, void* arg, ASGST_QueueElement* e,
            AsgstRecordedFrame* c) {
    _thread = t;
    _handler = h;
    _handler_arg = arg;
    _options = opts;
    _elements = e;
    _codes = c;
    _capacity = size;
    _head = _first_pending = _tail = 0;
    _attempts = 0;
    _requested_capacity = size;
    _busy = _deregistered = false;
    _on_start = _on_end = AsgstOnProcessing();
    _next = nullptr;
  }

  void clear() {
    FREE_C_HEAP_ARRAY(ASGST_QueueElement, _elements);
    FREE_C_HEAP_ARRAY(AsgstRecordedFrame, _codes);
    _elements = nullptr;
    _codes = nullptr;
    _capacity = 0;
    _head = _first_pending = _tail = 0;
    _thread = nullptr;
    _handler = nullptr;
  }

  // The pending elements: neither processed nor being processed.
  juint size() const { return Atomic::load_acquire(&_tail) - Atomic::load_acquire(&_first_pending); }
};

// The queues' handles. An ASGST_Queue* is no pointer: it names a slot of this
// table and the slot's generation. Removing a queue advances its slot's
// generation, so a call with its handle, at any later time, finds no queue
// instead of reaching freed memory; a value that is no handle finds none
// either. Slots are reused and their memory is never freed.
class AsgstQueueTable : AllStatic {
  static const juint chunk_bits = 10;
  static const juint chunk_size = 1u << chunk_bits;
  static const juint max_chunks = 1024;                       // 2^20 queues at once
  static const juint index_bits = 20;
  static const uintptr_t index_mask = (uintptr_t(1) << index_bits) - 1;
  static const uintptr_t generation_mask = ~uintptr_t(0) >> (index_bits + 1);

  static AsgstQueue* volatile _chunks[max_chunks];
  static juint _used;          // slots handed out at least once
  static AsgstQueue* _free;    // slots of removed queues
 public:
  // Both under AsgstQueues::_list_lock.
  static AsgstQueue* allocate();
  static void release(AsgstQueue* queue);

  static ASGST_Queue* handle_of(const AsgstQueue* queue) {
    uintptr_t value = ((queue->_generation & generation_mask) << (index_bits + 1)) | (uintptr_t(queue->_index) << 1) | 1;
    return reinterpret_cast<ASGST_Queue*>(value);
  }

  // The live queue the handle names, or null. Signal safe.
  static AsgstQueue* resolve(ASGST_Queue* handle) {
    uintptr_t value = reinterpret_cast<uintptr_t>(handle);
    uintptr_t generation = value >> (index_bits + 1);
    if ((value & 1) == 0 || (generation & 1) == 0) {
      return nullptr;
    }
    juint index = juint((value >> 1) & index_mask);
    AsgstQueue* chunk = Atomic::load_acquire(&_chunks[index >> chunk_bits]);
    if (chunk == nullptr) {
      return nullptr;
    }
    AsgstQueue* queue = &chunk[index & (chunk_size - 1)];
    return (Atomic::load_acquire(&queue->_generation) & generation_mask) == generation ? queue : nullptr;
  }
};

AsgstQueue* volatile AsgstQueueTable::_chunks[AsgstQueueTable::max_chunks] = {};
juint AsgstQueueTable::_used = 0;
AsgstQueue* AsgstQueueTable::_free = nullptr;

AsgstQueue* AsgstQueueTable::allocate() {
  AsgstQueue* queue = _free;
  if (queue != nullptr) {
    _free = queue->_next_free;
  } else {
    if (_used == max_chunks * chunk_size) {
      return nullptr;
    }
    juint chunk_index = _used >> chunk_bits;
    if (_chunks[chunk_index] == nullptr) {
      AsgstQueue* chunk = NEW_C_HEAP_ARRAY(AsgstQueue, chunk_size, mtServiceability);
      for (juint i = 0; i < chunk_size; i++) {
        ::new ((void*)&chunk[i]) AsgstQueue();
        chunk[i]._index = (chunk_index << chunk_bits) + i;
      }
      Atomic::release_store(&_chunks[chunk_index], chunk);
    }
    queue = &_chunks[chunk_index][_used & (chunk_size - 1)];
    _used++;
  }
  queue->_next_free = nullptr;
  return queue;
}

void AsgstQueueTable::release(AsgstQueue* queue) {
  queue->_next_free = _free;
  _free = queue;
}

// The queues of one thread, hung off JavaThread::_asgst_queues.
class AsgstThreadQueues : public CHeapObj<mtServiceability> {
 public:
  AsgstQueue* volatile _first;
  bool _processing;  // guards against processing from inside a handler
  AsgstThreadQueues() : _first(nullptr), _processing(false) {}
};

volatile int AsgstQueues::_list_lock = 0;

static AsgstQueue* queue_of(ASGST_Queue* queue) {
  return AsgstQueueTable::resolve(queue);
}

// The queue, unless it was deregistered: from then on its handle answers as
// for a removed queue, while its thread still processes the pending elements.
static AsgstQueue* registered_queue_of(ASGST_Queue* handle) {
  AsgstQueue* queue = queue_of(handle);
  return queue != nullptr && !Atomic::load_acquire(&queue->_deregistered) ? queue : nullptr;
}

// Element arrays for size elements, or false (the size asked is too large
// for this machine: the caller refuses it, the VM goes on).
static bool allocate_elements(int size, ASGST_QueueElement** elements, AsgstRecordedFrame** codes) {
  *elements = NEW_C_HEAP_ARRAY_RETURN_NULL(ASGST_QueueElement, size, mtServiceability);
  *codes = NEW_C_HEAP_ARRAY_RETURN_NULL(AsgstRecordedFrame, size, mtServiceability);
  if (*elements == nullptr || *codes == nullptr) {
    FREE_C_HEAP_ARRAY(ASGST_QueueElement, *elements);
    FREE_C_HEAP_ARRAY(AsgstRecordedFrame, *codes);
    return false;
  }
  return true;
}

static ASGST_Queue* handle_of(const AsgstQueue* queue) {
  return AsgstQueueTable::handle_of(queue);
}

// Registration ----------------------------------------------------------------

ASGST_Queue* AsgstQueues::register_queue(JavaThread* thread, int size, int options, ASGST_Handler handler,
                                         void* arg) {
  ASGST_QueueElement* elements;
  AsgstRecordedFrame* codes;
  if (thread == nullptr || size <= 0 || handler == nullptr || !allocate_elements(size, &elements, &codes)) {
    return nullptr;
  }
  AsgstThreadQueues* fresh = new AsgstThreadQueues();
  Thread::SpinAcquire(&_list_lock);
  AsgstQueue* queue = AsgstQueueTable::allocate();
  if (queue == nullptr) {
    Thread::SpinRelease(&_list_lock);
    delete fresh;
    FREE_C_HEAP_ARRAY(ASGST_QueueElement, elements);
    FREE_C_HEAP_ARRAY(AsgstRecordedFrame, codes);
    return nullptr;
  }
  queue->init(thread, size, options, handler, arg, elements, codes);
  // An odd generation makes the slot's new handle valid.
  Atomic::release_store(&queue->_generation, queue->_generation + 1);
  AsgstThreadQueues* queues = thread->_asgst_queues;
  if (queues == nullptr) {
    queues = fresh;
    fresh = nullptr;
  }
  // Appended last: the thread may be walking its list right now.
  AsgstQueue* volatile* link = &queues->_first;
  while (*link != nullptr) {
    link = &(*link)->_next;
  }
  Atomic::release_store(link, queue);
  if (thread->_asgst_queues == nullptr) {
    OrderAccess::release();
    thread->_asgst_queues = queues;
  }
  ASGST_Queue* handle = handle_of(queue);
  Thread::SpinRelease(&_list_lock);
  delete fresh;
  return handle;
}

bool AsgstQueues::deregister_queue(ASGST_Queue* q) {
  // Under the lock, the queue cannot be freed, nor its thread destroyed, while
  // it is marked and that thread's poll is armed.
  Thread::SpinAcquire(&_list_lock);
  AsgstQueue* queue = queue_of(q);
  if (queue == nullptr || queue->_deregistered) {
    Thread::SpinRelease(&_list_lock);
    return false;
  }
  Atomic::release_store_fence(&queue->_deregistered, true);
  JavaThread* thread = queue->_thread;
  bool own_thread = thread == JavaThread::current_or_null();
  if (!own_thread) {
    // The queue's thread processes and frees it at its next poll.
    SafepointMechanism::arm_local_poll_release(thread);
  }
  Thread::SpinRelease(&_list_lock);
  if (own_thread) {
    // On its own thread: process what is pending and free the queue now.
    Asgst::in_vm(thread, [&]() { process(thread, thread->_asgst_queues); });
  }
  return true;
}

// Under _list_lock. The generation advances before the arrays are freed: a
// signal handler that interrupts this thread, or a thread that halted it,
// either finds the queue whole or finds no queue.
void AsgstQueues::free_queue(AsgstQueue* queue) {
  Atomic::release_store_fence(&queue->_generation, queue->_generation + 1);
  queue->clear();
  AsgstQueueTable::release(queue);
}

void AsgstQueues::thread_destroyed(JavaThread* thread) {
  Thread::SpinAcquire(&_list_lock);
  AsgstThreadQueues* queues = thread->_asgst_queues;
  thread->_asgst_queues = nullptr;
  // Elements still pending are dropped: their frames are gone with the thread.
  AsgstQueue* queue = queues != nullptr ? queues->_first : nullptr;
  while (queue != nullptr) {
    AsgstQueue* next = queue->_next;
    free_queue(queue);
    queue = next;
  }
  Thread::SpinRelease(&_list_lock);
  delete queues;
}

// The signal handler's side ----------------------------------------------------

// The top Java frame of the queue's thread at ucontext, as an element records it.
int AsgstQueues::top_frame(AsgstQueue* queue, void* ucontext, ASGST_QueueElement* element,
                           AsgstRecordedFrame* recorded) {
  int walk_options = (queue->_options & ~ASGST_INCLUDE_NON_JAVA_FRAMES) | ASGST_END_ON_FIRST_JAVA_FRAME;
  return Asgst::walking(Thread::current_or_null_safe(), [&]() {
    AsgstStackWalker walker(queue->_thread, walk_options);
    int kind = walker.start(AsgstNativeFrame::of_context(ucontext));
    if (kind > 0 && !AsgstQueueWalk::record(walker, element, recorded)) {
      kind = walker.state() < 0 ? walker.state() : ASGST_NO_TOP_JAVA_FRAME;
    }
    return kind;
  });
}

int AsgstQueues::enqueue(ASGST_Queue* q, void* ucontext, void* arg) {
  AsgstQueue* queue = registered_queue_of(q);
  if (queue == nullptr) {
    return ASGST_ENQUEUE_NO_QUEUE;
  }
  // Also where this sample is refused: an element that waits is served.
  AsgstPollArm::sample_taken(queue->_thread);
  Atomic::inc(&queue->_attempts);
  if (Atomic::load_acquire(&queue->_busy)) {
    return ASGST_ENQUEUE_OTHER_ERROR;  // being resized
  }
  juint tail = queue->_tail;
  if (tail - Atomic::load_acquire(&queue->_head) >= (juint)queue->_capacity) {
    return ASGST_ENQUEUE_FULL_QUEUE;
  }
  ASGST_QueueElement element;
  AsgstRecordedFrame code;
  int kind = top_frame(queue, ucontext, &element, &code);
  if (kind <= 0) {
    return kind;
  }
  element.arg = arg;
  queue->_elements[tail % (juint)queue->_capacity] = element;
  queue->_codes[tail % (juint)queue->_capacity] = code;
  Atomic::release_store(&queue->_tail, tail + 1);
  AsgstPollArm::arm_word_first(queue->_thread);
  return kind;
}

ASGST_QueueElement AsgstQueues::enqueuable_element(ASGST_Queue* q, void* ucontext) {
  ASGST_QueueElement element = { nullptr, nullptr, nullptr, nullptr, nullptr };
  AsgstQueue* queue = registered_queue_of(q);
  AsgstRecordedFrame recorded;
  if (queue == nullptr) {
    return element;
  }
  // A profiler that merges this sample into a waiting element enqueues none.
  AsgstPollArm::sample_taken(queue->_thread);
  if (top_frame(queue, ucontext, &element, &recorded) <= 0) {
    element.pc = element.sp = element.fp = element.bcp = nullptr;
  }
  element.arg = nullptr;
  return element;
}

ASGST_QueueElement* AsgstQueues::element(ASGST_Queue* q, int n) {
  AsgstQueue* queue = registered_queue_of(q);
  if (queue == nullptr || Atomic::load_acquire(&queue->_busy)) {
    return nullptr;
  }
  juint head = Atomic::load_acquire(&queue->_first_pending);
  juint tail = Atomic::load_acquire(&queue->_tail);
  juint size = tail - head;
  juint index;
  if (n >= 0 && (juint)n < size) {
    index = head + (juint)n;          // 0 is the oldest
  } else if (n < 0 && (juint)(-(jlong)n) <= size) {
    index = tail - (juint)(-(jlong)n);  // -1 is the youngest
  } else {
    return nullptr;
  }
  return &queue->_elements[index % (juint)queue->_capacity];
}

void AsgstQueues::resize(ASGST_Queue* q, int size) {
  AsgstQueue* queue = registered_queue_of(q);
  if (queue != nullptr && size > 0) {
    Atomic::release_store(&queue->_requested_capacity, (jint)size);
    // Only the queue's own thread arms its poll: another thread's may be
    // going away meanwhile. Elsewhere the size applies at the next processing.
    JavaThread* thread = queue->_thread;
    if (thread != nullptr && thread == Thread::current_or_null_safe()) {
      AsgstPollArm::arm(thread);
    }
  }
}

ASGST_QueueSizeInfo AsgstQueues::size_info(ASGST_Queue* q) {
  ASGST_QueueSizeInfo info = { 0, 0, 0 };
  AsgstQueue* queue = registered_queue_of(q);
  if (queue != nullptr) {
    info.size = (jint)queue->size();
    info.capacity = queue->_capacity;
    info.attempts = Atomic::load(&queue->_attempts);
  }
  return info;
}

void AsgstQueues::set_on_processing(ASGST_Queue* q, bool at_start, int options, bool offer_iterator,
                                    ASGST_OnQueueSafepointHandler handler, void* arg) {
  AsgstQueue* queue = registered_queue_of(q);
  if (queue == nullptr) {
    return;
  }
  AsgstOnProcessing setting = { handler, arg, options, offer_iterator };
  // Read by the queue's thread at its polls; a change takes effect at the next one.
  Thread::SpinAcquire(&_list_lock);
  queue = registered_queue_of(q);  // again, now that it cannot be freed meanwhile
  if (queue == nullptr) {
    Thread::SpinRelease(&_list_lock);
    return;
  }
  if (at_start) {
    queue->_on_start = setting;
  } else {
    queue->_on_end = setting;
  }
  Thread::SpinRelease(&_list_lock);
}

// The thread's side, at a poll ---------------------------------------------------

void AsgstQueues::call_on_processing(JavaThread* thread, AsgstQueue* queue, bool at_start) {
  // Most queues have no such handler: they take no lock here. A handler set
  // meanwhile by another thread is called from the next processing on.
  if (Atomic::load(at_start ? &queue->_on_start._handler : &queue->_on_end._handler) == nullptr) {
    return;
  }
  Thread::SpinAcquire(&_list_lock);
  AsgstOnProcessing setting = at_start ? queue->_on_start : queue->_on_end;
  Thread::SpinRelease(&_list_lock);
  if (setting._handler == nullptr) {
    return;
  }
  if (!setting._offer_iterator) {
    setting._handler(handle_of(queue), nullptr, setting._arg);
    return;
  }
  // The iterator walks the stack as it is now, from the thread's last Java frame.
  AsgstStackWalker walker(thread, setting._options);
  AsgstNativeFrame no_context = { nullptr, nullptr, nullptr };
  ASGST_Iterator* iterator = walker.start(no_context) > 0 ? reinterpret_cast<ASGST_Iterator*>(&walker) : nullptr;
  setting._handler(handle_of(queue), iterator, setting._arg);
}

void AsgstQueues::process_queue(JavaThread* thread, AsgstQueue* queue) {
  if (queue->size() > 0) {
    // Some hooks run in a leaf, which allows no handles (the interpreter's
    // InterpreterRuntime::at_unwind); a walk into frames in the heap makes
    // handles of stack chunks, and no safepoint can move them meanwhile.
    ResetNoHandleMark rnhm;
    HandleMark outer(thread);
    call_on_processing(thread, queue, true);
    // Elements that the signal handler adds meanwhile are processed too.
    juint head;
    while ((head = queue->_head) != Atomic::load_acquire(&queue->_tail)) {
      // The element stops being pending before it is read: a sample that
      // lands meanwhile and merges into the youngest pending element
      // (doc/safepoint-queue.md, "Compression") counts in a later element,
      // not in this one, whose arg the handler already has. Its slot stays
      // in use until the handler returns. The fence keeps the reads below
      // after the store, as the signal handler on this thread sees them.
      Atomic::release_store_fence(&queue->_first_pending, head + 1);
      ASGST_QueueElement element = queue->_elements[head % (juint)queue->_capacity];
      AsgstRecordedFrame code = queue->_codes[head % (juint)queue->_capacity];
      HandleMark hm(thread);
      AsgstStackWalker walker(thread, queue->_options, AsgstStackWalker::InVM());
      // A walk that fails still reaches the handler, once: its iterator
      // reports the error (doc/safepoint-queue.md).
      AsgstQueueWalk::start(walker, element, code);
      queue->_handler(reinterpret_cast<ASGST_Iterator*>(&walker), queue->_handler_arg, element.arg);
      Atomic::release_store(&queue->_head, head + 1);
    }
    call_on_processing(thread, queue, false);
  }
  apply_resize(queue);
  Atomic::store(&queue->_attempts, 0);
}

// On the queue's own thread, after processing: a signal handler that
// interrupts this thread sees busy and refuses to enqueue meanwhile.
void AsgstQueues::apply_resize(AsgstQueue* queue) {
  jint requested = Atomic::load_acquire(&queue->_requested_capacity);
  if (requested == queue->_capacity) {
    return;
  }
  ASGST_QueueElement* fresh;
  AsgstRecordedFrame* fresh_codes;
  if (!allocate_elements(requested, &fresh, &fresh_codes)) {
    // Too large for this machine: the queue keeps its size.
    Atomic::release_store(&queue->_requested_capacity, queue->_capacity);
    return;
  }
  Atomic::release_store_fence(&queue->_busy, true);
  juint head = queue->_head;
  juint pending = queue->_tail - head;
  // Elements added after the last one was processed are kept (a smaller
  // queue keeps the oldest that fit; the rest count as never accepted).
  juint kept = MIN2(pending, (juint)requested);
  for (juint i = 0; i < kept; i++) {
    fresh[i] = queue->_elements[(head + i) % (juint)queue->_capacity];
    fresh_codes[i] = queue->_codes[(head + i) % (juint)queue->_capacity];
  }
  ASGST_QueueElement* old = queue->_elements;
  AsgstRecordedFrame* old_codes = queue->_codes;
  queue->_elements = fresh;
  queue->_codes = fresh_codes;
  queue->_capacity = requested;
  queue->_head = queue->_first_pending = 0;
  queue->_tail = kept;
  Atomic::release_store_fence(&queue->_busy, false);
  FREE_C_HEAP_ARRAY(ASGST_QueueElement, old);
  FREE_C_HEAP_ARRAY(AsgstRecordedFrame, old_codes);
}

bool AsgstQueues::any_pending(AsgstThreadQueues* queues) {
  if (queues == nullptr) {
    return false;
  }
  for (AsgstQueue* queue = Atomic::load_acquire(&queues->_first); queue != nullptr;
       queue = Atomic::load_acquire(&queue->_next)) {
    // Elements, a size asked for or a removal: each is done at the next processing.
    if (queue->size() > 0 || Atomic::load(&queue->_requested_capacity) != queue->_capacity ||
        Atomic::load_acquire(&queue->_deregistered)) {
      return true;
    }
  }
  return false;
}

void AsgstQueues::process(JavaThread* thread, AsgstThreadQueues* queues) {
  if (queues == nullptr || queues->_processing || !thread->has_last_Java_frame()) {
    return;  // elements stay until a poll where the stack can be walked
  }
  queues->_processing = true;
  for (AsgstQueue* queue = Atomic::load_acquire(&queues->_first); queue != nullptr;
       queue = Atomic::load_acquire(&queue->_next)) {
    process_queue(thread, queue);
  }
  // Free deregistered queues, now that their elements were processed; the
  // lock only where there is one.
  bool any_deregistered = false;
  for (AsgstQueue* queue = Atomic::load_acquire(&queues->_first); queue != nullptr;
       queue = Atomic::load_acquire(&queue->_next)) {
    any_deregistered |= Atomic::load_acquire(&queue->_deregistered);
  }
  if (any_deregistered) {
    Thread::SpinAcquire(&_list_lock);
    AsgstQueue* volatile* link = &queues->_first;
    while (*link != nullptr) {
      AsgstQueue* queue = *link;
      if (Atomic::load_acquire(&queue->_deregistered) && queue->size() == 0) {
        *link = queue->_next;
        free_queue(queue);
      } else {
        link = &queue->_next;
      }
    }
    Thread::SpinRelease(&_list_lock);
  }
  queues->_processing = false;
}
