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
 * Enforces profile.h's "signal safe" in the tests: preloaded (LD_PRELOAD) into
 * the test VMs by make/asgst/run-tests.sh, it aborts the VM with a clear line
 * when a thread calls malloc, free, a mutex, dlopen and the like while it is
 * inside a signal-safe ASGST function that it called from a signal handler, or
 * inside ASGST_RunWithIteratorOfThread (whose walked thread may be halted
 * holding the very lock), unless that walks the calling thread itself with
 * ASGST_NOT_IN_SIGNAL_HANDLER outside a handler (a walk that may enter the VM,
 * as a JNI function does). The user's own callbacks are not checked: while the
 * walk calls one, the thread counts as outside ASGST. With
 * ASGST_SIGNAL_SAFETY_HANDLERS=1 in the environment, the profiler's own code
 * in its signal handlers is checked too (the sample profiler's check runs so).
 * With ASGST_SIGNAL_SAFETY_UNSET_PRELOAD=1 it removes LD_PRELOAD from the
 * environment once loaded: make test-aarch64 preloads it into emulated VMs
 * only (qemu-user's -E), and the host programs that they start (the
 * emulator's wrapper scripts, a compiler) must not inherit a library of
 * another CPU.
 *
 * How: it defines the signal-safe functions of profile.h, which the test
 * libraries then call instead of libjvm's (a preloaded library comes first);
 * each raises a thread-local depth around the call to libjvm's function,
 * resolved when the launcher loads libjvm. It wraps the handlers that
 * sigaction installs for the signals profilers use (SIGPROF, SIGALRM,
 * SIGVTALRM, SIGUSR1) in a trampoline that raises another depth, and the
 * handlers of faults (SIGSEGV, SIGBUS, SIGILL, SIGFPE: HotSpot's) in one that
 * turns the checks off while the handler runs: a fault inside ASGST code is
 * SafeFetch's (the VM's handler moves the pc on) or a crash, whose error
 * report must be written, not cut short by this library. Allocation functions forward to the next definition
 * (glibc's, or libc_malloc_debug's when that is preloaded after this one).
 * Built without libjvm: it must load before the VM exists.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <link.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jni.h"
#include "profile.h"

#define EXPORT __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))  /* never allocates */

static TLS int handler_depth;      /* inside a wrapped signal handler */
static bool check_handlers;        /* ASGST_SIGNAL_SAFETY_HANDLERS=1: all of a handler's code */
static TLS int asgst_depth;        /* inside a checked ASGST function */
static TLS const char* asgst_call; /* its name */
static TLS int fault_depth;        /* inside a handler of a fault: unchecked */

/* ASGST calls that were checked: a test reads it to see that this library is active. */
EXPORT volatile long asgst_signal_safety_checked_calls;

static void write_text(const char* text) {
  size_t length = strlen(text);
  while (length > 0) {
    ssize_t n = write(2, text, length);
    if (n <= 0) {
      return;
    }
    text += n;
    length -= (size_t)n;
  }
}

static void violation(const char* function) {
  bool in_asgst = asgst_depth > 0, in_handler = handler_depth > 0;
  asgst_depth = 0;  /* the abort path may allocate */
  check_handlers = false;
  write_text("asgst signal safety: ");
  write_text(function);
  write_text(" called inside ");
  write_text(!in_asgst ? "the program's code" : asgst_call != NULL ? asgst_call : "an ASGST function");
  write_text(in_handler ? " in a signal handler\n" : "\n");
  /* Where: each frame as library+offset (backtrace may allocate once: the
     checks are off now). */
  void* frames[48];
  backtrace_symbols_fd(frames, backtrace(frames, 48), 2);
  abort();
}

static inline void check(const char* function) {
  if (fault_depth == 0 && (asgst_depth > 0 || (check_handlers && handler_depth > 0))) {
    violation(function);
  }
}

/* Self-test hooks: the thread acts as inside an ASGST function. */
EXPORT void asgst_signal_safety_test_enter(void) {
  asgst_call = "asgst_signal_safety_test_enter";
  asgst_depth++;
}

EXPORT void asgst_signal_safety_test_leave(void) {
  asgst_depth--;
}

/* Allocation ----------------------------------------------------------------- */

/* dlsym may allocate before the next malloc is known: from this arena, never freed. */
static char bootstrap_arena[64 * 1024] __attribute__((aligned(16)));
static size_t bootstrap_used;

static void* bootstrap_alloc(size_t size) {
  size_t start = __atomic_fetch_add(&bootstrap_used, (size + 15) & ~(size_t)15, __ATOMIC_RELAXED);
  return start + size <= sizeof(bootstrap_arena) ? bootstrap_arena + start : NULL;
}

static bool in_bootstrap_arena(const void* p) {
  return (const char*)p >= bootstrap_arena && (const char*)p < bootstrap_arena + sizeof(bootstrap_arena);
}

static void* (*next_malloc)(size_t);
static void (*next_free)(void*);
static void* (*next_calloc)(size_t, size_t);
static void* (*next_realloc)(void*, size_t);
static int (*next_posix_memalign)(void**, size_t, size_t);
static void* (*next_aligned_alloc)(size_t, size_t);
static void* (*next_memalign)(size_t, size_t);
static int (*next_mutex_lock)(pthread_mutex_t*);
static int (*next_rwlock_rdlock)(pthread_rwlock_t*);
static int (*next_rwlock_wrlock)(pthread_rwlock_t*);
static int (*next_sem_wait)(sem_t*);
static void* (*next_dlopen)(const char*, int);
static int (*next_dladdr)(const void*, Dl_info*);
static int (*next_dl_iterate_phdr)(int (*)(struct dl_phdr_info*, size_t, void*), void*);
static int (*next_sigaction)(int, const struct sigaction*, struct sigaction*);
static volatile bool resolving;

/* glibc's own entry points, for use before the next definitions are known. */
extern void* __libc_malloc(size_t);
extern void __libc_free(void*);
extern void* __libc_calloc(size_t, size_t);
extern void* __libc_realloc(void*, size_t);
extern void* __libc_memalign(size_t, size_t);
extern int __sigaction(int, const struct sigaction*, struct sigaction*);

__attribute__((constructor)) static void resolve_next(void) {
  const char* handlers = getenv("ASGST_SIGNAL_SAFETY_HANDLERS");
  check_handlers = handlers != NULL && strcmp(handlers, "1") == 0;
  resolving = true;
  next_malloc = (void* (*)(size_t))dlsym(RTLD_NEXT, "malloc");
  next_free = (void (*)(void*))dlsym(RTLD_NEXT, "free");
  next_calloc = (void* (*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
  next_realloc = (void* (*)(void*, size_t))dlsym(RTLD_NEXT, "realloc");
  next_posix_memalign = (int (*)(void**, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
  next_aligned_alloc = (void* (*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
  next_memalign = (void* (*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
  next_mutex_lock = (int (*)(pthread_mutex_t*))dlsym(RTLD_NEXT, "pthread_mutex_lock");
  next_rwlock_rdlock = (int (*)(pthread_rwlock_t*))dlsym(RTLD_NEXT, "pthread_rwlock_rdlock");
  next_rwlock_wrlock = (int (*)(pthread_rwlock_t*))dlsym(RTLD_NEXT, "pthread_rwlock_wrlock");
  next_sem_wait = (int (*)(sem_t*))dlsym(RTLD_NEXT, "sem_wait");
  next_dlopen = (void* (*)(const char*, int))dlsym(RTLD_NEXT, "dlopen");
  next_dladdr = (int (*)(const void*, Dl_info*))dlsym(RTLD_NEXT, "dladdr");
  next_dl_iterate_phdr = (int (*)(int (*)(struct dl_phdr_info*, size_t, void*), void*))
                           dlsym(RTLD_NEXT, "dl_iterate_phdr");
  next_sigaction = (int (*)(int, const struct sigaction*, struct sigaction*))dlsym(RTLD_NEXT, "sigaction");
  resolving = false;
  const char* unset_preload = getenv("ASGST_SIGNAL_SAFETY_UNSET_PRELOAD");
  if (unset_preload != NULL && strcmp(unset_preload, "1") == 0) {
    unsetenv("LD_PRELOAD");
    unsetenv("ASGST_SIGNAL_SAFETY_UNSET_PRELOAD");
  }
}

EXPORT void* malloc(size_t size) {
  check("malloc");
  if (next_malloc == NULL) {
    return resolving ? bootstrap_alloc(size) : __libc_malloc(size);
  }
  return next_malloc(size);
}

EXPORT void free(void* p) {
  if (p == NULL || in_bootstrap_arena(p)) {
    return;
  }
  check("free");
  if (next_free == NULL) {
    __libc_free(p);
  } else {
    next_free(p);
  }
}

EXPORT void* calloc(size_t count, size_t size) {
  check("calloc");
  if (next_calloc == NULL) {
    if (resolving) {
      /* The arena is zeroed and never reused. */
      return size != 0 && count > SIZE_MAX / size ? NULL : bootstrap_alloc(count * size);
    }
    return __libc_calloc(count, size);
  }
  return next_calloc(count, size);
}

EXPORT void* realloc(void* p, size_t size) {
  check("realloc");
  if (in_bootstrap_arena(p)) {
    void* fresh = malloc(size);
    if (fresh != NULL) {
      size_t available = (size_t)(bootstrap_arena + sizeof(bootstrap_arena) - (char*)p);
      memcpy(fresh, p, size < available ? size : available);
    }
    return fresh;
  }
  return next_realloc == NULL ? __libc_realloc(p, size) : next_realloc(p, size);
}

EXPORT int posix_memalign(void** result, size_t alignment, size_t size) {
  check("posix_memalign");
  if (next_posix_memalign == NULL) {
    *result = __libc_memalign(alignment, size);
    return *result != NULL ? 0 : ENOMEM;
  }
  return next_posix_memalign(result, alignment, size);
}

EXPORT void* aligned_alloc(size_t alignment, size_t size) {
  check("aligned_alloc");
  return next_aligned_alloc == NULL ? __libc_memalign(alignment, size) : next_aligned_alloc(alignment, size);
}

EXPORT void* memalign(size_t alignment, size_t size) {
  check("memalign");
  return next_memalign == NULL ? __libc_memalign(alignment, size) : next_memalign(alignment, size);
}

/* Locks and the dynamic linker ------------------------------------------------ */

EXPORT int pthread_mutex_lock(pthread_mutex_t* mutex) {
  check("pthread_mutex_lock");
  if (next_mutex_lock == NULL) {
    /* Before this library's constructor ran: early in the process, no handler yet. */
    next_mutex_lock = (int (*)(pthread_mutex_t*))dlsym(RTLD_NEXT, "pthread_mutex_lock");
  }
  return next_mutex_lock(mutex);
}

EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t* lock) {
  check("pthread_rwlock_rdlock");
  return next_rwlock_rdlock(lock);
}

EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t* lock) {
  check("pthread_rwlock_wrlock");
  return next_rwlock_wrlock(lock);
}

EXPORT int sem_wait(sem_t* semaphore) {
  check("sem_wait");
  return next_sem_wait(semaphore);
}

EXPORT int dladdr(const void* address, Dl_info* info) {
  check("dladdr");
  return next_dladdr(address, info);
}

EXPORT int dl_iterate_phdr(int (*callback)(struct dl_phdr_info*, size_t, void*), void* data) {
  check("dl_iterate_phdr");
  return next_dl_iterate_phdr(callback, data);
}

/* The signal-safe functions of profile.h --------------------------------------- */

/* Each is libjvm's, looked up when the launcher loads libjvm (dlopen, below). */
#define ASGST_FUNCTIONS(F)                                                                                 \
  F(int, ASGST_Capabilities, (void), ())                                                                   \
  F(jint, ASGST_Version, (void), ())                                                                       \
  F(int, ASGST_RunWithIterator, (void* ucontext, int32_t options, ASGST_IteratorHandler fun, void* arg),   \
    (ucontext, options, fun, arg))                                                                         \
  F(int, ASGST_RunWithIteratorFromFrame,                                                                   \
    (void* sp, void* fp, void* pc, int options, ASGST_IteratorHandler fun, void* arg),                     \
    (sp, fp, pc, options, fun, arg))                                                                       \
  F(int, ASGST_RunWithIteratorOfThread,                                                                    \
    (jlong tid, void* ucontext, int32_t options, ASGST_IteratorHandler fun, void* arg),                    \
    (tid, ucontext, options, fun, arg))                                                                    \
  F(int, ASGST_NextFrame, (ASGST_Iterator * iterator, ASGST_Frame* frame), (iterator, frame))              \
  F(void, ASGST_RewindIterator, (ASGST_Iterator * iterator), (iterator))                                   \
  F(int, ASGST_State, (ASGST_Iterator * iterator), (iterator))                                             \
  F(int, ASGST_ThreadState, (void), ())                                                                    \
  F(void, AsyncGetStackTrace, (ASGST_CallTrace * trace, jint depth, void* ucontext, uint32_t options),     \
    (trace, depth, ucontext, options))                                                                     \
  F(void, ASGST_GetMethodInfo, (ASGST_Method method, ASGST_MethodInfo* info), (method, info))              \
  F(jint, ASGST_GetMethodIdNum, (ASGST_Method method), (method))                                           \
  F(void, ASGST_GetClassInfo, (ASGST_Class klass, ASGST_ClassInfo* info), (klass, info))                   \
  F(jlong, ASGST_GetClassIdNum, (ASGST_Class klass), (klass))                                              \
  F(int, ASGST_GetMethodLineNumberTable, (ASGST_Method method, ASGST_MethodLineNumberEntry* entries,       \
    int length), (method, entries, length))                                                                \
  F(jmethodID, ASGST_MethodToJMethodID, (ASGST_Method method), (method))                                   \
  F(ASGST_Method, ASGST_JMethodIDToMethod, (jmethodID method_id), (method_id))                             \
  F(jclass, ASGST_ClassToJClass, (ASGST_Class klass), (klass))                                             \
  F(ASGST_Class, ASGST_JClassToClass, (jclass klass), (klass))                                             \
  F(int, ASGST_Enqueue, (ASGST_Queue * queue, void* ucontext, void* arg), (queue, ucontext, arg))          \
  F(ASGST_QueueElement*, ASGST_GetQueueElement, (ASGST_Queue * queue, int n), (queue, n))                  \
  F(ASGST_QueueElement, ASGST_GetEnqueuableElement, (ASGST_Queue * queue, void* ucontext),                 \
    (queue, ucontext))                                                                                     \
  F(void, ASGST_ResizeQueue, (ASGST_Queue * queue, int size), (queue, size))                               \
  F(ASGST_QueueSizeInfo, ASGST_GetQueueSizeInfo, (ASGST_Queue * queue), (queue))

#define DECLARE_POINTER(type, name, params, args) static type (*jvm_##name) params;
ASGST_FUNCTIONS(DECLARE_POINTER)

static void resolve_asgst(void* jvm) {
#define RESOLVE(type, name, params, args) \
  jvm_##name = (type (*) params)dlsym(jvm, #name);
  ASGST_FUNCTIONS(RESOLVE)
}

EXPORT void* dlopen(const char* file, int mode) {
  check("dlopen");
  void* handle = next_dlopen(file, mode);
  if (handle != NULL && jvm_ASGST_Capabilities == NULL && dlsym(handle, "ASGST_Capabilities") != NULL) {
    resolve_asgst(handle);
  }
  return handle;
}

/* Whether the current call counts: made in a signal handler, or a walk of a
   halted thread; own_walk_in_vm: a walk of the calling thread that may enter
   the VM (ASGST_NOT_IN_SIGNAL_HANDLER). */
static inline bool checked_call(const char* name, bool own_walk_in_vm) {
  return handler_depth > 0 || (strcmp(name, "ASGST_RunWithIteratorOfThread") == 0 && !own_walk_in_vm);
}

static void missing(const char* name) {
  write_text("asgst signal safety: ");
  write_text(name);
  write_text(" called before libjvm was loaded\n");
  abort();
}

/* The user's callback runs unchecked, as if outside ASGST. */
typedef struct {
  ASGST_IteratorHandler fun;
  void* arg;
} UserCallback;

static void call_user(ASGST_Iterator* iterator, void* arg) {
  UserCallback* callback = (UserCallback*)arg;
  int depth = asgst_depth;
  const char* call = asgst_call;
  asgst_depth = 0;
  callback->fun(iterator, callback->arg);
  asgst_depth = depth;
  asgst_call = call;
}

/* Wraps a call of libjvm's function: the check is on while it runs. */
#define ENTER(name) ENTER_WALK(name, false)
#define ENTER_WALK(name, own_walk_in_vm)                                        \
  bool counted = checked_call(#name, own_walk_in_vm);                           \
  const char* saved_call = asgst_call;                                          \
  if (jvm_##name == NULL) {                                                     \
    missing(#name);                                                             \
  }                                                                             \
  if (counted) {                                                                \
    __atomic_fetch_add(&asgst_signal_safety_checked_calls, 1, __ATOMIC_RELAXED); \
    asgst_call = #name;                                                         \
    asgst_depth++;                                                              \
  }
#define LEAVE()        \
  if (counted) {       \
    asgst_depth--;     \
    asgst_call = saved_call; \
  }

#define DEFINE_WRAPPER(type, name, params, args) \
  EXPORT type name params {                      \
    ENTER(name)                                  \
    type result = jvm_##name args;               \
    LEAVE()                                      \
    return result;                               \
  }
#define DEFINE_VOID_WRAPPER(name, params, args) \
  EXPORT void name params {                     \
    ENTER(name)                                 \
    jvm_##name args;                            \
    LEAVE()                                     \
  }

DEFINE_WRAPPER(int, ASGST_Capabilities, (void), ())
DEFINE_WRAPPER(jint, ASGST_Version, (void), ())
DEFINE_WRAPPER(int, ASGST_NextFrame, (ASGST_Iterator* iterator, ASGST_Frame* frame), (iterator, frame))
DEFINE_VOID_WRAPPER(ASGST_RewindIterator, (ASGST_Iterator* iterator), (iterator))
DEFINE_WRAPPER(int, ASGST_State, (ASGST_Iterator* iterator), (iterator))
DEFINE_WRAPPER(int, ASGST_ThreadState, (void), ())
DEFINE_VOID_WRAPPER(AsyncGetStackTrace, (ASGST_CallTrace* trace, jint depth, void* ucontext, uint32_t options),
                    (trace, depth, ucontext, options))
DEFINE_VOID_WRAPPER(ASGST_GetMethodInfo, (ASGST_Method method, ASGST_MethodInfo* info), (method, info))
DEFINE_WRAPPER(jint, ASGST_GetMethodIdNum, (ASGST_Method method), (method))
DEFINE_VOID_WRAPPER(ASGST_GetClassInfo, (ASGST_Class klass, ASGST_ClassInfo* info), (klass, info))
DEFINE_WRAPPER(jlong, ASGST_GetClassIdNum, (ASGST_Class klass), (klass))
DEFINE_WRAPPER(int, ASGST_GetMethodLineNumberTable,
               (ASGST_Method method, ASGST_MethodLineNumberEntry* entries, int length), (method, entries, length))
DEFINE_WRAPPER(jmethodID, ASGST_MethodToJMethodID, (ASGST_Method method), (method))
DEFINE_WRAPPER(ASGST_Method, ASGST_JMethodIDToMethod, (jmethodID method_id), (method_id))
DEFINE_WRAPPER(jclass, ASGST_ClassToJClass, (ASGST_Class klass), (klass))
DEFINE_WRAPPER(ASGST_Class, ASGST_JClassToClass, (jclass klass), (klass))
DEFINE_WRAPPER(int, ASGST_Enqueue, (ASGST_Queue* queue, void* ucontext, void* arg), (queue, ucontext, arg))
DEFINE_WRAPPER(ASGST_QueueElement*, ASGST_GetQueueElement, (ASGST_Queue* queue, int n), (queue, n))
DEFINE_WRAPPER(ASGST_QueueElement, ASGST_GetEnqueuableElement, (ASGST_Queue* queue, void* ucontext),
               (queue, ucontext))
DEFINE_VOID_WRAPPER(ASGST_ResizeQueue, (ASGST_Queue* queue, int size), (queue, size))
DEFINE_WRAPPER(ASGST_QueueSizeInfo, ASGST_GetQueueSizeInfo, (ASGST_Queue* queue), (queue))

/* The walks: the user's callback (null stays null) runs unchecked. */
#define DEFINE_WALK(name, params, pass_args, own_walk_in_vm)        \
  EXPORT int name params {                                          \
    UserCallback callback = { fun, arg };                           \
    ASGST_IteratorHandler wrapped = fun != NULL ? call_user : NULL; \
    ENTER_WALK(name, own_walk_in_vm)                                \
    int result = jvm_##name pass_args;                              \
    LEAVE()                                                         \
    return result;                                                  \
  }

DEFINE_WALK(ASGST_RunWithIterator, (void* ucontext, int32_t options, ASGST_IteratorHandler fun, void* arg),
            (ucontext, options, wrapped, &callback), false)
DEFINE_WALK(ASGST_RunWithIteratorFromFrame,
            (void* sp, void* fp, void* pc, int options, ASGST_IteratorHandler fun, void* arg),
            (sp, fp, pc, options, wrapped, &callback), false)
DEFINE_WALK(ASGST_RunWithIteratorOfThread,
            (jlong tid, void* ucontext, int32_t options, ASGST_IteratorHandler fun, void* arg),
            (tid, ucontext, options, wrapped, &callback),
            (options & ASGST_NOT_IN_SIGNAL_HANDLER) != 0 && tid == (jlong)syscall(SYS_gettid))

/* Signal handlers ------------------------------------------------------------- */

static struct sigaction user_actions[NSIG];  /* what the program installed, for the wrapped signals */

static bool fault_signal(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE;
}

static bool wrapped_signal(int sig) {
  return sig == SIGPROF || sig == SIGALRM || sig == SIGVTALRM || sig == SIGUSR1 || fault_signal(sig);
}

static void trampoline(int sig, siginfo_t* info, void* ucontext) {
  const struct sigaction* action = &user_actions[sig];
  int* depth = fault_signal(sig) ? &fault_depth : &handler_depth;
  (*depth)++;
  if ((action->sa_flags & SA_SIGINFO) != 0) {
    action->sa_sigaction(sig, info, ucontext);
  } else if (action->sa_handler != SIG_DFL && action->sa_handler != SIG_IGN) {
    action->sa_handler(sig);
  }
  (*depth)--;
}

EXPORT int sigaction(int sig, const struct sigaction* action, struct sigaction* old) {
  int (*real)(int, const struct sigaction*, struct sigaction*) = next_sigaction != NULL ? next_sigaction : __sigaction;
  if (sig <= 0 || sig >= NSIG || !wrapped_signal(sig)) {
    return real(sig, action, old);
  }
  struct sigaction previous = user_actions[sig];
  bool had_handler = (previous.sa_flags & SA_SIGINFO) != 0 ||
                     (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN);
  int result;
  if (action == NULL) {
    result = real(sig, NULL, old);
  } else if ((action->sa_flags & SA_SIGINFO) != 0 ||
             (action->sa_handler != SIG_DFL && action->sa_handler != SIG_IGN)) {
    struct sigaction installed = *action;
    user_actions[sig] = *action;
    installed.sa_sigaction = trampoline;
    installed.sa_flags |= SA_SIGINFO;
    result = real(sig, &installed, old);
  } else {
    memset(&user_actions[sig], 0, sizeof(user_actions[sig]));
    result = real(sig, action, old);
  }
  if (result == 0 && old != NULL && had_handler) {
    *old = previous;  /* the program's handler, not the trampoline */
  }
  return result;
}
