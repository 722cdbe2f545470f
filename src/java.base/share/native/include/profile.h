/*
 * Copyright (c) 2026, the ASGST authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  Oracle designates this
 * particular file as subject to the "Classpath" exception as provided
 * by Oracle in the LICENSE file that accompanied this code.
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
 * profile.h: the Asynchronous Stack Trace API (ASGST).
 *
 * An API for profilers to walk the Java and native frames of a thread: from a
 * signal handler, from a separate thread that keeps the walked thread halted,
 * or at the walked thread's next safepoint poll (the safepoint queue). Methods
 * and classes are named by ASGST_Method and ASGST_Class, whose information can
 * be read without jmethodIDs, even inside a signal handler.
 *
 * Every function is exported from libjvm: link with -ljvm or look the names up
 * with dlsym (each has a pointer type, ASGST_<name>_Fn, at the end of this
 * header). Functions marked "signal safe" take no lock and allocate nothing.
 * The contracts are documented in the ASGST sources' doc/ directory
 * (doc/stack-walking.md for the walk, doc/asgst.md for versions).
 */

#ifndef _JAVA_PROFILE_H_
#define _JAVA_PROFILE_H_

#include "jni.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * API versions: the major version in the high 16 bits, the minor one in the
 * low 16. A VM of the same major version and an equal or higher minor one
 * implements everything this header declares; minor versions only add.
 * ASGST_Version() tells the VM's version at run time.
 */
#define ASGST_VERSION_1_0 0x00010000
#define ASGST_VERSION_1_1 0x00010001 /* adds frame marks */
#define ASGST_VERSION_1_2 0x00010002 /* adds ASGST_NOT_IN_SIGNAL_HANDLER */
#define ASGST_VERSION ASGST_VERSION_1_2 /* the version this header declares */
#define ASGST_VERSION_MAJOR(version) ((int)(((unsigned int)(version) >> 16) & 0xffff))
#define ASGST_VERSION_MINOR(version) ((int)((unsigned int)(version) & 0xffff))

/* Opaque handles. */
typedef struct _ASGST_Method* ASGST_Method;      /* a Java method (replaces jmethodID) */
typedef struct _ASGST_Class* ASGST_Class;        /* a Java class (replaces jclass) */
typedef struct _ASGST_Iterator ASGST_Iterator;   /* a stack walk in progress */
typedef struct _ASGST_Queue ASGST_Queue;         /* a thread's safepoint queue */

/* Walk options, a bit set. Unknown bits are ignored. */
enum ASGST_Options {
  ASGST_INCLUDE_NON_JAVA_FRAMES   = 1,  /* report C/C++ frames (stubs included) */
  ASGST_INCLUDE_C_FRAMES          = 1,  /* the JEP 435 name of the same bit */
  ASGST_INCLUDE_NON_JAVA_THREADS  = 2,  /* walk GC, compiler and other VM threads too */
  ASGST_WALK_DURING_UNSAFE_STATES = 4,  /* best-effort walk in states that are unsafe */
  ASGST_WALK_SAME_THREAD          = 8,  /* the ucontext belongs to the calling thread */
  ASGST_END_ON_FIRST_JAVA_FRAME   = 16, /* stop after the first Java frame */
  ASGST_INCLUDE_CARRIER_FRAMES    = 32, /* continue into a virtual thread's carrier */
  /* The caller runs in no signal handler. Then a walk of the calling thread
     from its native code while it runs a virtual thread enters the VM (and
     may wait there for a safepoint) to read the virtual thread's frames
     frozen in the heap; an iterator's handler runs in the VM and must not
     call JNI or JVMTI functions. Ignored by other walks. Since 1.2. */
  ASGST_NOT_IN_SIGNAL_HANDLER     = 64
};

/* The kind of a trace: what the walked thread was doing. */
enum ASGST_TRACE_KIND {
  ASGST_JAVA_TRACE    = 1,
  ASGST_CPP_TRACE     = 2,
  ASGST_GC_TRACE      = 4,
  ASGST_DEOPT_TRACE   = 8,
  ASGST_UNKNOWN_TRACE = 32
};

/* The type of a frame. */
enum ASGST_FrameTypeId {
  ASGST_FRAME_JAVA         = 1, /* interpreted or compiled Java frame */
  ASGST_FRAME_JAVA_INLINED = 2, /* a scope inlined into a compiled frame */
  ASGST_FRAME_JAVA_NATIVE  = 3, /* a native method's wrapper, Java calling C */
  ASGST_FRAME_NON_JAVA     = 4, /* any other frame: C/C++, stubs, VM code */
  ASGST_FRAME_CPP          = 4  /* the JEP 435 name of the same type */
};

/*
 * Errors. Functions that return a kind or a count return one of these when
 * they fail. Values from -1 to -16 are the API's; values below -16 are
 * specific to an implementation: the three below are this VM's
 * (doc/stack-walking.md), and a profiler should treat any other negative
 * value as "no (further) frames".
 */
enum ASGST_Error {
  ASGST_NO_FRAME            =  0, /* the walk came to its end */
  ASGST_NO_THREAD           = -1, /* no (Java) thread to walk */
  ASGST_THREAD_EXIT         = -2, /* the thread is exiting */
  ASGST_UNSAFE_STATE        = -3, /* the thread or VM is in a state unsafe to walk */
  ASGST_NO_TOP_JAVA_FRAME   = -4, /* no Java frame at the top of the stack */
  ASGST_ENQUEUE_NO_QUEUE    = -5, /* no queue given */
  ASGST_ENQUEUE_FULL_QUEUE  = -6, /* the queue is full */
  ASGST_ENQUEUE_OTHER_ERROR = -7, /* enqueueing failed for another reason */
  ASGST_WRONG_STATE         = -8, /* the thread state is not among the accepted ones */
  ASGST_WRONG_KIND          = -9, /* the trace kind is not among the accepted ones */
  ASGST_BROKEN_FRAME        = -17, /* a frame failed the walker's checks; the walk ends there */
  ASGST_INVALID_ARGUMENT    = -18, /* a required argument is null or out of range */
  ASGST_FRAMES_IN_HEAP      = -19, /* a virtual thread's older frames are frozen in the heap, where
                                       this walk may not read them (in a signal handler: under ZGC
                                       and Shenandoah, or outside Java code) */
  ASGST_MARK_REFUSED        = -20, /* the frame cannot carry a mark (doc/frame-marks.md) */
  ASGST_NO_MARK_SLOT        = -21  /* all ASGST_MARK_SLOTS are reserved */
};

/*
 * What ASGST_NextFrame returns, without filling the frame, after the frame
 * that carries a mark of the owner that the iterator watches
 * (ASGST_WatchMarks): its callers are unchanged since the mark was set.
 */
#define ASGST_MARKED_FRAME 2

/* Optional parts of the API; ASGST_Capabilities() reports those that work. */
enum ASGST_Capabilities {
  ASGST_REGISTER_QUEUE = 1, /* the safepoint queue functions */
  ASGST_MARK_FRAME     = 2  /* frame marking */
};

/* One frame, as the iterator reports it. */
typedef struct {
  uint8_t type;        /* an ASGST_FrameTypeId */
  int comp_level;      /* 0 interpreted, 1..4 HotSpot's tiers, -1 unknown */
  int bci;             /* bytecode index, -1 if not available (native frames) */
  ASGST_Method method; /* the method, or null for non-Java frames */
  void* pc;            /* program counter in this frame */
  void* sp;            /* stack pointer of this frame, may be null */
  void* fp;            /* frame pointer of this frame, may be null */
} ASGST_Frame;

/* JEP 435's compact frame records: 16 bytes on 64-bit platforms. */
typedef struct {
  uint8_t type;        /* ASGST_FRAME_JAVA, _JAVA_INLINED or _JAVA_NATIVE */
  int8_t comp_level;   /* as in ASGST_Frame */
  uint16_t bci;        /* bytecode index, 65535 if not available or >= 65535 */
  ASGST_Method method;
} ASGST_JavaFrame;

typedef struct {
  uint8_t type;        /* ASGST_FRAME_NON_JAVA */
  void* pc;            /* program counter, may be null */
} ASGST_NonJavaFrame;

typedef union {
  uint8_t type;        /* tells which member is valid */
  ASGST_JavaFrame java_frame;
  ASGST_NonJavaFrame non_java_frame;
} ASGST_CallFrame;

/* The trace that AsyncGetStackTrace fills in. */
typedef struct {
  JNIEnv* env_id;          /* the walked thread's JNIEnv */
  jint num_frames;         /* number of frames, or an ASGST_Error (< 0) */
  uint8_t kind;            /* in: accepted kinds if non-zero; out: the trace kind */
  jint state;              /* in: accepted JVMTI thread states if non-zero; out: the state */
  ASGST_CallFrame* frames; /* caller-allocated, depth entries; callee first */
  void* frame_info;        /* reserved, null */
} ASGST_CallTrace;

/* Frame marks: slots per thread, shared by all owners. */
#define ASGST_MARK_SLOTS 4

/* A profiler's reservation of mark slots (> 0). */
typedef int ASGST_MarkOwner;

/* The mark that a walk reached. */
typedef struct {
  int32_t slot;            /* the owner's slot, 0 to its slot count - 1 */
  uint64_t cookie;         /* the profiler's value given when the mark was set */
} ASGST_Mark;

/* Called with an iterator that is valid only during the call. */
typedef void (*ASGST_IteratorHandler)(ASGST_Iterator* iterator, void* arg);

/* Method information; the caller provides the string buffers and their sizes. */
typedef struct {
  ASGST_Class klass;
  char* method_name;
  jint method_name_length;
  char* signature;
  jint signature_length;
  char* generic_signature;
  jint generic_signature_length;
  jint modifiers;
  jint idnum;              /* class-local id, unchanged by redefinition */
  jlong class_idnum;       /* VM-wide class id, unchanged by redefinition */
} ASGST_MethodInfo;

/* Class information, like ASGST_MethodInfo. */
typedef struct {
  char* class_name;
  jint class_name_length;
  char* generic_class_name;
  jint generic_class_name_length;
  jint modifiers;
  jlong idnum;             /* VM-wide class id, unchanged by redefinition */
} ASGST_ClassInfo;

/* One entry of a method's line number table. */
typedef struct {
  jint start_bci;
  jint line_number;
} ASGST_MethodLineNumberEntry;

/*
 * Called before the ids of a class and its methods become invalid: when the
 * class is unloaded, or (redefined == true) when an old version of a redefined
 * class is freed. May run concurrently on several threads.
 */
typedef void (*ASGST_ClassUnloadHandler)(ASGST_Class klass, ASGST_Method* methods,
                                         int count, bool redefined, void* arg);

/* What a signal handler captured for the safepoint queue. */
typedef struct {
  void* pc;
  void* sp;
  void* fp;
  void* bcp;               /* bytecode pointer of an interpreted top frame, or null */
  void* arg;               /* the profiler's argument; the only field it may change */
} ASGST_QueueElement;

typedef struct {
  jint size;               /* number of elements in the queue */
  jint capacity;           /* number of elements the queue can hold */
  jint attempts;           /* enqueue attempts since the queue was last processed */
} ASGST_QueueSizeInfo;

/* Called at a safepoint for each queue element, in insertion order. */
typedef void (*ASGST_Handler)(ASGST_Iterator* iterator, void* queue_arg, void* arg);

/* Called at a safepoint before or after a non-empty queue is processed. */
typedef void (*ASGST_OnQueueSafepointHandler)(ASGST_Queue* queue, ASGST_Iterator* iterator,
                                              void* arg);

/*
 * Returns the optional parts of the API that this VM implements, a bit set of
 * enum ASGST_Capabilities. Calling a function of a part that is missing is
 * undefined. Signal safe; may be called at any time, also before the VM has
 * been created.
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL ASGST_Capabilities(void);

/*
 * Returns the version of the API that this VM implements (ASGST_VERSION_*).
 * Signal safe; may be called at any time, also before the VM has been
 * created.
 */
_JNI_IMPORT_OR_EXPORT_ jint JNICALL ASGST_Version(void);

/*
 * Walks the calling thread's stack: creates an iterator positioned at its top
 * Java frame and calls fun(iterator, arg). The iterator is valid only during
 * that call. ucontext is the context a signal handler received; it may be null
 * when the thread is not running Java code (in a native method, for example).
 * Returns the trace kind (> 0), having called fun, or an ASGST_Error without
 * calling it. Signal safe (without ASGST_NOT_IN_SIGNAL_HANDLER).
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL
ASGST_RunWithIterator(void* ucontext, int32_t options, ASGST_IteratorHandler fun, void* arg);

/*
 * Like ASGST_RunWithIterator, but the walk starts at the given frame of the
 * calling thread instead of a ucontext: for example where the profiler's own
 * walker of C frames stopped. Signal safe (without
 * ASGST_NOT_IN_SIGNAL_HANDLER).
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL
ASGST_RunWithIteratorFromFrame(void* sp, void* fp, void* pc, int options,
                               ASGST_IteratorHandler fun, void* arg);

/*
 * Walks another thread, named by its OS thread id (gettid() on Linux), that
 * the caller keeps halted during the call, for example busy-waiting in a
 * signal handler that captured ucontext (which may be null). An id that names
 * no live thread of the VM gives ASGST_NO_THREAD, as does a thread that is
 * not a Java thread unless ASGST_INCLUDE_NON_JAVA_THREADS is set. The calling
 * thread need not be attached to the VM. Signal safe (without
 * ASGST_NOT_IN_SIGNAL_HANDLER, which only a walk of the calling thread uses).
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL
ASGST_RunWithIteratorOfThread(jlong os_thread_id, void* ucontext, int32_t options,
                              ASGST_IteratorHandler fun, void* arg);

/*
 * Stores the next frame in *frame. Returns 1 if there was one, ASGST_NO_FRAME
 * at the end of the stack (and for a null iterator), or an error (< 0) when
 * the walk cannot continue; the frames before remain valid. An iterator that
 * watches frame marks also returns ASGST_MARKED_FRAME (below). A null frame
 * gives ASGST_INVALID_ARGUMENT and leaves the iterator where it was. Signal
 * safe. Typical use:
 *
 *   ASGST_Frame frame;
 *   while (ASGST_NextFrame(iterator, &frame) == 1) { ... }
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL ASGST_NextFrame(ASGST_Iterator* iterator, ASGST_Frame* frame);

/* Moves the iterator back to its first frame; nothing for null. Signal safe. */
_JNI_IMPORT_OR_EXPORT_ void JNICALL ASGST_RewindIterator(ASGST_Iterator* iterator);

/*
 * The iterator's state: 1 while frames may follow, else what ASGST_NextFrame
 * returns next (ASGST_NO_FRAME for a null iterator). Signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL ASGST_State(ASGST_Iterator* iterator);

/*
 * The calling thread's state as JVMTI GetThreadState bits (JVMTI_THREAD_STATE_*),
 * without INTERRUPTED, WAITING_INDEFINITELY and WAITING_WITH_TIMEOUT; -1 for
 * a thread that is not a Java thread. Signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL ASGST_ThreadState(void);

/*
 * JEP 435's one call: walks a thread into trace->frames (depth entries), the
 * callee first. The thread is the calling one if trace->env_id is null or
 * ASGST_WALK_SAME_THREAD is set, else the halted thread whose JNIEnv is
 * trace->env_id. On return trace->num_frames holds the number of frames
 * stored (at most depth) or an ASGST_Error; non-zero trace->kind and
 * trace->state on entry restrict the accepted kinds and states. Signal safe
 * (without ASGST_NOT_IN_SIGNAL_HANDLER).
 */
_JNI_IMPORT_OR_EXPORT_ void JNICALL
AsyncGetStackTrace(ASGST_CallTrace* trace, jint depth, void* ucontext, uint32_t options);

/*
 * Method and class information (doc/methods-and-classes.md). The getters are
 * signal safe and may be called in class-unload handlers. Strings: on entry
 * each char* field is a buffer (null to skip it) and its *_length field the
 * buffer's size; on return the buffer holds the string, truncated to fit and
 * always null-terminated (if the size is > 0), and *_length holds the
 * string's full length (a negative size counts as 0). A string that is not
 * available (no generic signature; a handle that is no method or class) sets
 * the char* field to null and the length to 0.
 */
_JNI_IMPORT_OR_EXPORT_ void JNICALL ASGST_GetMethodInfo(ASGST_Method method, ASGST_MethodInfo* info);

/* The method's class-local id, unchanged by redefinition; -1 for no method. Signal safe. */
_JNI_IMPORT_OR_EXPORT_ jint JNICALL ASGST_GetMethodIdNum(ASGST_Method method);

_JNI_IMPORT_OR_EXPORT_ void JNICALL ASGST_GetClassInfo(ASGST_Class klass, ASGST_ClassInfo* info);

/* The class's VM-wide id, unchanged by redefinition; -1 for no class. Signal safe. */
_JNI_IMPORT_OR_EXPORT_ jlong JNICALL ASGST_GetClassIdNum(ASGST_Class klass);

/*
 * Stores up to length entries of the method's line number table (bci to
 * line) and returns how many it stored: 0 without a table,
 * ASGST_INVALID_ARGUMENT for a handle that is no method. Signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL
ASGST_GetMethodLineNumberTable(ASGST_Method method, ASGST_MethodLineNumberEntry* entries, int length);

/*
 * Conversions to and from JNI/JVMTI ids, null for null or invalid input
 * (a jmethodID that is none, a jclass of an array or primitive class or of
 * an object that is no class) and on a thread not attached to the VM. Not
 * signal safe: call them from an attached thread, outside signal handlers.
 * A jclass is a new local reference.
 */
_JNI_IMPORT_OR_EXPORT_ jmethodID JNICALL ASGST_MethodToJMethodID(ASGST_Method method);
_JNI_IMPORT_OR_EXPORT_ ASGST_Method JNICALL ASGST_JMethodIDToMethod(jmethodID method_id);
_JNI_IMPORT_OR_EXPORT_ jclass JNICALL ASGST_ClassToJClass(ASGST_Class klass);
_JNI_IMPORT_OR_EXPORT_ ASGST_Class JNICALL ASGST_JClassToClass(jclass klass);

/*
 * Registers handler (with arg as its last argument), called just before the ids of a class and its
 * methods become invalid; a null handler registers nothing. Several handlers may be registered; each call of
 * a handler may run on any thread, concurrently with others, and may use
 * only the signal-safe functions of this header. Not signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ void JNICALL
ASGST_RegisterClassUnloadHandler(ASGST_ClassUnloadHandler handler, void* arg);

/*
 * Removes one registration of (handler, arg) and returns once no call of it
 * is running any more; returns whether it was registered. Not signal safe;
 * never call it from a class-unload handler.
 */
_JNI_IMPORT_OR_EXPORT_ bool JNICALL
ASGST_DeregisterClassUnloadHandler(ASGST_ClassUnloadHandler handler, void* arg);

/*
 * The safepoint queue (capability ASGST_REGISTER_QUEUE; doc/safepoint-queue.md).
 * A signal handler enqueues its thread's top Java frame; the thread walks the
 * full stack for each element at its next safepoint poll, handshake or frame
 * unwinding, where the handler may allocate and take locks (but call no JNI
 * or JVMTI function).
 */

/*
 * Registers a queue of size elements for the thread of env (null: the calling
 * thread). fun(iterator, arg, element_arg) is called for each element, in
 * insertion order; options are the walk options of its iterator. Returns
 * null for a bad argument, for a size that cannot be allocated, or when 2^20
 * queues exist at once. Not signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ ASGST_Queue* JNICALL
ASGST_RegisterQueue(JNIEnv* env, int size, int options, ASGST_Handler fun, void* arg);

/*
 * Removes a queue; its pending elements are still processed, then it is
 * freed: at once on its own thread, else at that thread's next poll. A queue
 * is also removed, its pending elements dropped, when its thread ends.
 * Returns false if it was already removed. From the call on, the handle
 * stays safe to pass to every queue function for the VM's life, and each
 * answers as for a removed queue (false, ASGST_ENQUEUE_NO_QUEUE, null,
 * zeros, nothing done), also after a new queue was registered; so does any
 * value that is no queue handle. Not signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ bool JNICALL ASGST_DeregisterQueue(ASGST_Queue* queue);

/*
 * Records the top Java frame at ucontext (null: not in Java code) with arg and
 * arms the thread's poll. Returns the trace kind, or ASGST_ENQUEUE_NO_QUEUE
 * (null or removed queue), ASGST_ENQUEUE_FULL_QUEUE, ASGST_ENQUEUE_OTHER_ERROR
 * (being resized), or a walk error. Signal safe; call it on the queue's
 * thread, or while that thread is halted.
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL ASGST_Enqueue(ASGST_Queue* queue, void* ucontext, void* arg);

/*
 * The n-th pending element: 0 the oldest, -1 the youngest; null if out of
 * range. An element stops being pending when its handler is called. Only its
 * arg may be changed. Signal safe, on the queue's thread.
 */
_JNI_IMPORT_OR_EXPORT_ ASGST_QueueElement* JNICALL ASGST_GetQueueElement(ASGST_Queue* queue, int n);

/*
 * The element ASGST_Enqueue would record now (arg null), without enqueueing
 * it; pc null if there is none. Signal safe, on the queue's thread.
 */
_JNI_IMPORT_OR_EXPORT_ ASGST_QueueElement JNICALL
ASGST_GetEnqueuableElement(ASGST_Queue* queue, void* ucontext);

/*
 * Gives the queue size elements after its next processing. On the queue's
 * thread it arms that thread's poll; from another thread the size waits for
 * the next processing that something else causes. A size <= 0 is ignored;
 * one that cannot be allocated leaves the queue as it is. Signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ void JNICALL ASGST_ResizeQueue(ASGST_Queue* queue, int size);

/* Pending elements, capacity, and enqueue attempts since the last processing. Signal safe. */
_JNI_IMPORT_OR_EXPORT_ ASGST_QueueSizeInfo JNICALL ASGST_GetQueueSizeInfo(ASGST_Queue* queue);

/*
 * Sets (or, with a null handler, removes) the handler called before or after
 * the thread processes a non-empty queue; with offer_iterator it gets an
 * iterator over the current stack walked with options, else null. Not
 * signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ void JNICALL
ASGST_SetOnQueueProcessingStart(ASGST_Queue* queue, int options, bool offer_iterator,
                                ASGST_OnQueueSafepointHandler before, void* arg);
_JNI_IMPORT_OR_EXPORT_ void JNICALL
ASGST_SetOnQueueProcessingEnd(ASGST_Queue* queue, int options, bool offer_iterator,
                              ASGST_OnQueueSafepointHandler end, void* arg);

/*
 * Frame marks (capability ASGST_MARK_FRAME, API version 1.1;
 * doc/frame-marks.md). A walk marks a Java frame of the walked thread; as
 * long as that frame has not been left (returned, unwound by an exception,
 * deoptimized into new frames, replaced by OSR, frozen by a virtual thread,
 * popped by JVMTI), every frame below it is the one the marking walk saw. A
 * later walk that watches the owner's marks returns ASGST_MARKED_FRAME after
 * reporting the marked frame, and the profiler appends the callers it kept.
 * A mark set from a signal handler or for a halted thread counts from the
 * thread's next safepoint poll on; a walk until then does not report it.
 */

/*
 * Reserves slots (1 to ASGST_MARK_SLOTS) mark slots in every thread for one
 * profiler. Returns the owner, ASGST_NO_MARK_SLOT when not that many are
 * free, ASGST_MARK_REFUSED on a VM without the capability ASGST_MARK_FRAME
 * (this one: CPUs other than x86_64), or ASGST_INVALID_ARGUMENT. Not signal
 * safe.
 */
_JNI_IMPORT_OR_EXPORT_ ASGST_MarkOwner JNICALL ASGST_RegisterMarkOwner(int slots);

/*
 * Frees the owner's slots; its marks die in every thread at once. Returns
 * false for no (or a freed) owner. Not signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ bool JNICALL ASGST_DeregisterMarkOwner(ASGST_MarkOwner owner);

/*
 * Marks the physical frame of the Java frame that ASGST_NextFrame reported
 * last (for a compiled frame with inlined scopes: the frame they share), in
 * the owner's slot, replacing the mark that slot held. Returns 0, or
 * ASGST_MARK_REFUSED for a frame that cannot carry a mark (the top frame, an
 * interpreted frame whose callee is no Java frame, a native method, a frame
 * in the heap, a non-Java frame), or ASGST_INVALID_ARGUMENT. Signal safe; a
 * thread walked from another one must stay halted until this returns.
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL
ASGST_MarkFrame(ASGST_Iterator* iterator, ASGST_MarkOwner owner, int slot, uint64_t cookie);

/*
 * Removes the owner's mark in slot (-1: in all its slots) of the walked
 * thread. Returns 0 or ASGST_INVALID_ARGUMENT. Signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL ASGST_ClearMark(ASGST_Iterator* iterator, ASGST_MarkOwner owner, int slot);

/*
 * From now on, ASGST_NextFrame returns ASGST_MARKED_FRAME after each Java
 * frame that carries a mark of owner (then ASGST_GetMark tells which); the
 * call after it goes on with the caller. Iterators that do not watch marks
 * never return it. Returns 0 or ASGST_INVALID_ARGUMENT. Signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ int JNICALL ASGST_WatchMarks(ASGST_Iterator* iterator, ASGST_MarkOwner owner);

/*
 * Right after ASGST_NextFrame returned ASGST_MARKED_FRAME: stores the mark
 * reached in *mark and returns true; else false. Signal safe.
 */
_JNI_IMPORT_OR_EXPORT_ bool JNICALL ASGST_GetMark(ASGST_Iterator* iterator, ASGST_Mark* mark);

/*
 * The functions' pointer types, for profilers that look them up with dlsym
 * (doc/asgst.md shows how):
 *
 *   ASGST_Version_Fn version = (ASGST_Version_Fn)dlsym(RTLD_DEFAULT, "ASGST_Version");
 */
typedef int (JNICALL *ASGST_Capabilities_Fn)(void);
typedef jint (JNICALL *ASGST_Version_Fn)(void);
typedef int (JNICALL *ASGST_RunWithIterator_Fn)(void* ucontext, int32_t options,
                                                ASGST_IteratorHandler fun, void* arg);
typedef int (JNICALL *ASGST_RunWithIteratorFromFrame_Fn)(void* sp, void* fp, void* pc, int options,
                                                         ASGST_IteratorHandler fun, void* arg);
typedef int (JNICALL *ASGST_RunWithIteratorOfThread_Fn)(jlong os_thread_id, void* ucontext,
                                                        int32_t options, ASGST_IteratorHandler fun,
                                                        void* arg);
typedef int (JNICALL *ASGST_NextFrame_Fn)(ASGST_Iterator* iterator, ASGST_Frame* frame);
typedef void (JNICALL *ASGST_RewindIterator_Fn)(ASGST_Iterator* iterator);
typedef int (JNICALL *ASGST_State_Fn)(ASGST_Iterator* iterator);
typedef int (JNICALL *ASGST_ThreadState_Fn)(void);
typedef void (JNICALL *AsyncGetStackTrace_Fn)(ASGST_CallTrace* trace, jint depth, void* ucontext,
                                              uint32_t options);
typedef void (JNICALL *ASGST_GetMethodInfo_Fn)(ASGST_Method method, ASGST_MethodInfo* info);
typedef jint (JNICALL *ASGST_GetMethodIdNum_Fn)(ASGST_Method method);
typedef void (JNICALL *ASGST_GetClassInfo_Fn)(ASGST_Class klass, ASGST_ClassInfo* info);
typedef jlong (JNICALL *ASGST_GetClassIdNum_Fn)(ASGST_Class klass);
typedef int (JNICALL *ASGST_GetMethodLineNumberTable_Fn)(ASGST_Method method,
                                                         ASGST_MethodLineNumberEntry* entries,
                                                         int length);
typedef jmethodID (JNICALL *ASGST_MethodToJMethodID_Fn)(ASGST_Method method);
typedef ASGST_Method (JNICALL *ASGST_JMethodIDToMethod_Fn)(jmethodID method_id);
typedef jclass (JNICALL *ASGST_ClassToJClass_Fn)(ASGST_Class klass);
typedef ASGST_Class (JNICALL *ASGST_JClassToClass_Fn)(jclass klass);
typedef void (JNICALL *ASGST_RegisterClassUnloadHandler_Fn)(ASGST_ClassUnloadHandler handler,
                                                            void* arg);
typedef bool (JNICALL *ASGST_DeregisterClassUnloadHandler_Fn)(ASGST_ClassUnloadHandler handler,
                                                              void* arg);
typedef ASGST_Queue* (JNICALL *ASGST_RegisterQueue_Fn)(JNIEnv* env, int size, int options,
                                                       ASGST_Handler fun, void* arg);
typedef bool (JNICALL *ASGST_DeregisterQueue_Fn)(ASGST_Queue* queue);
typedef int (JNICALL *ASGST_Enqueue_Fn)(ASGST_Queue* queue, void* ucontext, void* arg);
typedef ASGST_QueueElement* (JNICALL *ASGST_GetQueueElement_Fn)(ASGST_Queue* queue, int n);
typedef ASGST_QueueElement (JNICALL *ASGST_GetEnqueuableElement_Fn)(ASGST_Queue* queue,
                                                                    void* ucontext);
typedef void (JNICALL *ASGST_ResizeQueue_Fn)(ASGST_Queue* queue, int size);
typedef ASGST_QueueSizeInfo (JNICALL *ASGST_GetQueueSizeInfo_Fn)(ASGST_Queue* queue);
typedef void (JNICALL *ASGST_SetOnQueueProcessingStart_Fn)(ASGST_Queue* queue, int options,
                                                           bool offer_iterator,
                                                           ASGST_OnQueueSafepointHandler before,
                                                           void* arg);
typedef void (JNICALL *ASGST_SetOnQueueProcessingEnd_Fn)(ASGST_Queue* queue, int options,
                                                         bool offer_iterator,
                                                         ASGST_OnQueueSafepointHandler end,
                                                         void* arg);
typedef ASGST_MarkOwner (JNICALL *ASGST_RegisterMarkOwner_Fn)(int slots);
typedef bool (JNICALL *ASGST_DeregisterMarkOwner_Fn)(ASGST_MarkOwner owner);
typedef int (JNICALL *ASGST_MarkFrame_Fn)(ASGST_Iterator* iterator, ASGST_MarkOwner owner, int slot,
                                          uint64_t cookie);
typedef int (JNICALL *ASGST_ClearMark_Fn)(ASGST_Iterator* iterator, ASGST_MarkOwner owner, int slot);
typedef int (JNICALL *ASGST_WatchMarks_Fn)(ASGST_Iterator* iterator, ASGST_MarkOwner owner);
typedef bool (JNICALL *ASGST_GetMark_Fn)(ASGST_Iterator* iterator, ASGST_Mark* mark);

#ifdef __cplusplus
}
#endif

#endif /* _JAVA_PROFILE_H_ */
