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
 */

// asgstprof: a small sampling profiler on profile.h.
//
//   java -agentpath:libasgstprof.so=mode=cpu,interval=1ms,file=profile.html ...
//   jcmd PID JVMTI.agent_load /path/to/libasgstprof.so '"mode=cpu,file=profile.html"'
//
// mode=cpu    a per-thread CPU-time engine; the SIGPROF handler walks the stack
// mode=wall   a sampler thread halts each thread in turn and walks it from outside
// mode=queue  a per-thread CPU-time engine; the handler enqueues the top frame
//             and the thread walks its stack at its next safepoint poll
// mode=agct   as cpu, but with AsyncGetCallTrace and jmethodIDs, for comparison
// mode=signal as cpu, but the handler returns at once: the floor of a
//             sample's cost, the signal alone, on any JVM
// engine=     timer (default): a CPU-time POSIX timer per thread, which fires
//             at most once per scheduler tick; perf: a perf_events CPU clock
//             per thread, which keeps the interval (timer if perf is refused)
// interval=   1ms, 100us or a number of microseconds (default 1ms)
// file=       *.html for a flame graph, anything else for collapsed stacks
// log=        the profiler's messages and summary go to this file (appended)
//             instead of stderr, for runs whose stderr is checked; in file=
//             and log=, %p stands for the process id
// native=     true: also C/C++ frames; carrier=true: carrier frames of virtual threads
// marks=      true: mode=cpu walks only to a frame mark set by an earlier walk
//             and appends the frames that walk kept (frame marks, API 1.1);
//             verify: also compares each such trace with the whole walk
//
// The API is looked up with dlsym, not linked: on a JVM without it the
// profiler falls back to mode=agct. Loaded into a running JVM, it samples
// with one process-wide CPU timer (engine=perf: an event on each thread), in
// mode cpu or agct.

#include <jvmti.h>

#include <dlfcn.h>

#include <dirent.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "marks.hpp"
#include "profile.hpp"
#include "wall.hpp"

namespace asgstprof {
namespace {

enum class Mode { cpu, wall, queue, agct, signal };
// What makes the CPU-time SIGPROFs of modes cpu, queue, agct and signal.
enum class Engine { timer, perf };

struct Options {
  Mode mode = Mode::cpu;
  Engine engine = Engine::timer;
  long interval_us = 1000;
  std::string file = "asgstprof.html";
  std::string log;  // empty: stderr
  bool native = false;
  bool carrier = false;
  bool marks = false;
  bool marks_verify = false;
};

Options options;
// Where the profiler's messages go: stderr, or the file that log= names.
std::FILE* messages = stderr;
// Made at load and never freed, on purpose: a signal handler that began
// before VMDeath, and the queues of threads still running, may use it up to
// the process's exit, where a static owner's destructor would free it under them.
Profile* profile = nullptr;
std::atomic<bool> running{false};
bool attached = false;  // loaded into a running VM (Agent_OnAttach)
std::atomic<long> failed_walks{0};
// SIGPROFs handled while running in modes cpu, queue, agct and signal (each a sample,
// walked, failed or lost), and the wall sampler's rounds: the achieved rate.
std::atomic<long> signals_taken{0};
std::atomic<long> queue_signals{0};  // mode queue: signals on threads with a queue
std::atomic<long> queue_pending{0};  // ... that found an element pending
std::atomic<long> queue_merged{0};   // ... and went into it
std::atomic<long> wall_rounds{0};

pid_t current_tid() {
  return (pid_t)syscall(SYS_gettid);
}

// A clock's reading in ns, -1 if it cannot be read (a thread that is gone).
int64_t clock_ns(clockid_t clock) {
  struct timespec now;
  if (clock_gettime(clock, &now) != 0) {
    return -1;
  }
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::cpu: return "cpu";
    case Mode::wall: return "wall";
    case Mode::queue: return "queue";
    case Mode::agct: return "agct";
    case Mode::signal: return "signal";
  }
  return "?";
}

int walk_options() {
  return (options.native ? ASGST_INCLUDE_NON_JAVA_FRAMES : 0) | (options.carrier ? ASGST_INCLUDE_CARRIER_FRAMES : 0);
}

long parse_interval(const std::string& text) {
  long value = std::atol(text.c_str());
  if (text.size() > 2 && text.compare(text.size() - 2, 2, "ms") == 0) return value * 1000;
  if (text.size() > 1 && text.back() == 's' && text.compare(text.size() - 2, 2, "us") != 0) return value * 1000000;
  return value;
}

// A file name with each %p replaced by the process id, so that every VM of a
// test run that passes the same options writes files of its own.
std::string with_pid(const std::string& name) {
  std::string result;
  for (size_t i = 0; i < name.size(); i++) {
    if (name[i] == '%' && i + 1 < name.size() && name[i + 1] == 'p') {
      result += std::to_string((long)getpid());
      i++;
    } else {
      result += name[i];
    }
  }
  return result;
}

bool parse_options(const char* text) {
  std::string all = text == nullptr ? "" : text;
  size_t start = 0;
  while (start < all.size()) {
    size_t end = all.find(',', start);
    std::string item = all.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? all.size() : end + 1;
    size_t eq = item.find('=');
    std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key == "mode") {
      if (value == "cpu") options.mode = Mode::cpu;
      else if (value == "wall") options.mode = Mode::wall;
      else if (value == "queue") options.mode = Mode::queue;
      else if (value == "agct") options.mode = Mode::agct;
      else if (value == "signal") options.mode = Mode::signal;
      else { std::fprintf(messages, "asgstprof: unknown mode %s\n", value.c_str()); return false; }
    } else if (key == "engine") {
      if (value == "timer") options.engine = Engine::timer;
      else if (value == "perf") options.engine = Engine::perf;
      else { std::fprintf(messages, "asgstprof: unknown engine %s\n", value.c_str()); return false; }
    } else if (key == "interval") {
      options.interval_us = parse_interval(value);
      if (options.interval_us <= 0) { std::fprintf(messages, "asgstprof: bad interval %s\n", value.c_str()); return false; }
    } else if (key == "file") {
      options.file = value;
    } else if (key == "log") {
      options.log = value;
    } else if (key == "native") {
      options.native = value == "true" || value == "1";
    } else if (key == "carrier") {
      options.carrier = value == "true" || value == "1";
    } else if (key == "marks") {
      options.marks_verify = value == "verify";
      options.marks = value == "true" || value == "1" || options.marks_verify;
    } else if (!key.empty()) {
      std::fprintf(messages, "asgstprof: unknown option %s\n", key.c_str());
      return false;
    }
  }
  return true;
}

// AsyncGetCallTrace, which no JDK header declares.
struct AgctFrame {
  jint lineno;  // the bci for Java frames
  jmethodID method_id;
};
struct AgctTrace {
  JNIEnv* env_id;
  jint num_frames;
  AgctFrame* frames;
};
using AgctFunction = void (*)(AgctTrace*, jint, void*);
AgctFunction async_get_call_trace = nullptr;
jvmtiEnv* jvmti = nullptr;
JavaVM* java_vm = nullptr;

void record_agct(void* ucontext) {
  // AsyncGetCallTrace wants the thread's JNIEnv. GetEnv only reads the VM's
  // current thread (no lock, no allocation), and unlike a thread-local set
  // at ThreadStart it also knows threads that ran before an attach.
  JNIEnv* env = nullptr;
  if (java_vm->GetEnv((void**)&env, JNI_VERSION_1_6) != JNI_OK) {
    return;  // not a Java thread
  }
  AgctFrame frames[RawSample::max_frames];
  AgctTrace trace{env, 0, frames};
  async_get_call_trace(&trace, RawSample::max_frames, ucontext);
  if (trace.num_frames <= 0) {
    failed_walks.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  RawSample* sample = profile->ring().claim();
  if (sample == nullptr) {
    return;
  }
  for (int i = 0; i < trace.num_frames; i++) {
    sample->frames[i] = RawFrame::of_jmethod(frames[i].method_id);
  }
  sample->count = trace.num_frames;
  profile->ring().publish(sample);
}

// Names a jmethodID with JVMTI, on the (attached) drainer thread.
std::string jmethod_name(jmethodID id) {
  char* name = nullptr;
  char* signature = nullptr;
  jclass klass = nullptr;
  std::string result = "[unknown jmethodID]";
  if (jvmti->GetMethodName(id, &name, nullptr, nullptr) == JVMTI_ERROR_NONE &&
      jvmti->GetMethodDeclaringClass(id, &klass) == JVMTI_ERROR_NONE &&
      jvmti->GetClassSignature(klass, &signature, nullptr) == JVMTI_ERROR_NONE) {
    result.clear();
    for (const char* p = signature + 1; *p != '\0' && *p != ';'; p++) {
      result += *p == '/' ? '.' : *p;
    }
    result += '.';
    result += name;
  }
  jvmti->Deallocate((unsigned char*)name);
  jvmti->Deallocate((unsigned char*)signature);
  return result;
}

// AsyncGetCallTrace needs the jmethodIDs of every method that may be sampled
// to exist beforehand: create them as classes are prepared.
void create_jmethod_ids(jclass klass) {
  jint count = 0;
  jmethodID* methods = nullptr;
  if (jvmti->GetClassMethods(klass, &count, &methods) == JVMTI_ERROR_NONE) {
    jvmti->Deallocate((unsigned char*)methods);
  }
}

void JNICALL on_class_prepare(jvmtiEnv*, JNIEnv*, jthread, jclass klass) {
  create_jmethod_ids(klass);
}

void JNICALL on_class_load(jvmtiEnv*, JNIEnv*, jthread, jclass) {
  // AsyncGetCallTrace walks only while some agent listens to ClassLoad.
}

// Publishes the claimed sample of a walk that ended with end: a walk that
// ended early gets a marker saying why; one without frames counts as failed.
// Signal safe.
void finish(RawSample* sample, int end, int64_t weight) {
  if (end < 0 && sample->count == 0) {
    failed_walks.fetch_add(1, std::memory_order_relaxed);
  } else if (end < 0 && sample->count < RawSample::max_frames) {
    sample->frames[sample->count++] = RawFrame::end_of_walk(end);
  }
  sample->weight = weight;
  profile->ring().publish(sample);
}

// Copies a walk into a claimed ring slot. Signal safe.
void record(asgst::Frames frames, int64_t weight) {
  RawSample* sample = profile->ring().claim();
  if (sample == nullptr) {
    return;
  }
  for (const asgst::Frame& f : frames) {
    if (sample->count == RawSample::max_frames) break;
    sample->frames[sample->count++] = RawFrame::of(f);
  }
  finish(sample, frames.state(), weight);
}

// Records the walk of a queued sample at the thread's poll; arg is how many
// samples the element stands for (asgst::Queue::enqueue_or_merge). As in the
// handler, only the raw frames are copied: naming and folding them is the
// drainer's work, off the sampled thread and its CPU clock.
struct QueueFunction {
  void operator()(asgst::Frames frames, void* arg) const { record(frames, (int64_t)(intptr_t)arg); }
};
using ThreadQueue = asgst::Queue<QueueFunction>;

// Per-thread state: the CPU timer (engine=timer) and, in queue mode, the
// queue; the perf engine's event is in sampled_threads. Set up
// when the thread starts, before its timer can fire, so that the SIGPROF
// handler never touches it first (a dlopened library's thread-locals may be
// allocated on first touch). Constant-initialized and trivially
// destructible: no initializer or exit-time destructor runs for it. That
// rules out a unique_ptr, whose destructor would deregister the queue after
// the thread left the VM.
struct ThreadSampling {
  timer_t timer{};
  bool has_timer = false;
  // Owned: made at ThreadStart, deleted at ThreadEnd on this thread. Threads
  // that still run at VMDeath get no ThreadEnd and keep theirs on purpose:
  // their polls and SIGPROF handler may use it up to the process's exit.
  ThreadQueue* queue = nullptr;
  // marks=true: the frames kept below the thread's mark; owned as the queue.
  KeptFrames* kept = nullptr;
};
static_assert(std::is_trivially_destructible_v<ThreadSampling>);
thread_local ThreadSampling this_thread;

// marks=true: the walks of mode cpu.
IncrementalWalker incremental;

void on_sigprof(int, siginfo_t*, void* ucontext);

void start_thread_timer() {
  struct sigevent event {};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGPROF;
  event._sigev_un._tid = current_tid();
  struct itimerspec spec {};
  spec.it_interval.tv_sec = options.interval_us / 1000000;
  spec.it_interval.tv_nsec = (options.interval_us % 1000000) * 1000;
  spec.it_value = spec.it_interval;
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &this_thread.timer) == 0) {
    this_thread.has_timer = true;
    timer_settime(this_thread.timer, 0, &spec, nullptr);
  }
}

// The perf engine: a software CPU clock counting tid's CPU time, user space
// only (exclude_kernel: all that perf_event_paranoid 2 lets a process watch),
// that overflows after each interval of it. The kernel drives it with a
// high-resolution timer while tid runs, so it keeps intervals well below the
// scheduler tick that bounds a CPU-time POSIX timer. Returns the fd, or -1
// with errno set.
int perf_event_fd(pid_t tid, bool disabled) {
  struct perf_event_attr attr {};
  attr.size = sizeof(attr);
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.sample_period = (uint64_t)options.interval_us * 1000;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.disabled = disabled;
  // CLOEXEC: a process the JVM starts must not inherit the event.
  return (int)syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

// Opens tid's event, each overflow sending SIGPROF to tid itself. Without an
// overflow limit (event_limit) the event stays enabled and every overflow
// sends the signal: nothing to re-arm in the handler. PERF_EVENT_IOC_REFRESH
// serves events that stop after a count of overflows, and would cost an
// ioctl per sample. No ring buffer either: the signal's context is all the
// handler needs.
int open_perf_event(pid_t tid) {
  int fd = perf_event_fd(tid, false);
  if (fd < 0) {
    return -1;
  }
  // O_ASYNC last: an overflow signalled before F_SETSIG would be a SIGIO,
  // whose default action ends the process.
  struct f_owner_ex owner {F_OWNER_TID, tid};
  if (fcntl(fd, F_SETOWN_EX, &owner) != 0 || fcntl(fd, F_SETSIG, SIGPROF) != 0 ||
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) != 0) {
    int error = errno;
    close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

// Wall-clock sampling: one request at a time (wall.hpp).
WallRequest wall;

// The threads being sampled, from their ThreadStart (the main thread: VMInit;
// with engine=perf after an attach, every task that ran then) to their
// ThreadEnd. Never touched by the signal handler.
struct SampledThread {
  pid_t tid;
  int perf_fd;                          // engine=perf: its event, else -1
  std::optional<clockid_t> cpu_clock;   // its CPU-time clock, when known
  int64_t cpu_start;                    // that clock when it was registered
};
std::mutex threads_lock;
std::vector<SampledThread> sampled_threads;
int64_t ended_threads_cpu_ns = 0;       // CPU time of those that ended
bool perf_failure_told = false;
// When sampling began, for the achieved rate.
int64_t start_process_cpu_ns = 0;
int64_t start_wall_ns = 0;

// Registers tid, opening its event with engine=perf. Returns that event's
// fd (-1 without one), or nothing if tid is registered already: after an
// attach, the listing of running tasks and ThreadStart may both find a thread.
std::optional<int> register_thread(pid_t tid, std::optional<clockid_t> cpu_clock) {
  std::lock_guard<std::mutex> guard(threads_lock);
  for (const SampledThread& thread : sampled_threads) {
    if (thread.tid == tid) {
      return std::nullopt;
    }
  }
  int fd = -1;
  if (options.mode != Mode::wall && options.engine == Engine::perf) {
    fd = open_perf_event(tid);
    if (fd < 0 && !std::exchange(perf_failure_told, true)) {
      std::fprintf(messages,
                   "asgstprof: perf_event_open failed for thread %d (%s); such threads get a CPU timer, or no "
                   "samples if they ran before the attach\n",
                   (int)tid, std::strerror(errno));
    }
  }
  sampled_threads.push_back({tid, fd, cpu_clock, cpu_clock ? clock_ns(*cpu_clock) : 0});
  return fd;
}

void on_sigprof(int, siginfo_t*, void* ucontext) {
  if (!running.load(std::memory_order_relaxed)) {
    return;
  }
  if (options.mode != Mode::wall) {
    signals_taken.fetch_add(1, std::memory_order_relaxed);
  }
  switch (options.mode) {
    case Mode::cpu:
      // options.marks first: only then was this thread's this_thread set up.
      if (options.marks && this_thread.kept != nullptr) {
        int end;
        if (RawSample* sample = incremental.walk(ucontext, walk_options(), *this_thread.kept, profile->ring(), &end)) {
          finish(sample, end, 1);
        }
      } else {
        asgst::walk(ucontext, walk_options(), [](asgst::Frames frames) { record(frames, 1); });
      }
      break;
    case Mode::agct:
      record_agct(ucontext);
      break;
    case Mode::signal:
      break;  // the floor: what the signal alone costs
    case Mode::queue:
      if (this_thread.queue != nullptr) {
        bool pending, merged;
        queue_signals.fetch_add(1, std::memory_order_relaxed);
        this_thread.queue->enqueue_or_merge(ucontext, &pending, &merged);
        if (pending) queue_pending.fetch_add(1, std::memory_order_relaxed);
        if (merged) queue_merged.fetch_add(1, std::memory_order_relaxed);
      }
      break;
    case Mode::wall: {
      std::optional<uint64_t> request = wall.request_for((pid_t)syscall(SYS_gettid));
      if (!request || !wall.take(*request)) {
        break;  // not asked, no longer asked, or asked for another thread
      }
      uint64_t halted = wall.halt(*request, ucontext);
      while (wall.halted(halted)) {
        sched_yield();  // halted while the sampler walks this thread; let it run
      }
      wall.finish(halted);
      break;
    }
  }
}

// Waits up to 20 ms for reached() to hold.
template <typename Reached>
bool wait_for(Reached reached) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (!reached()) {
    sched_yield();  // on few cores the target needs the CPU to answer
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) > 20000000L) {
      return false;
    }
  }
  return true;
}

// Halts thread tid in its handler for request number: the request when it
// is halted (its context in wall.context()), nothing when it did not answer
// in time (signal blocked, the thread gone or not scheduled).
std::optional<uint64_t> halt(pid_t tid, uint32_t number) {
  uint64_t asked = wall.ask(tid, number);
  if (syscall(SYS_tgkill, getpid(), tid, SIGPROF) != 0) {
    wall.abandon(asked);
    return std::nullopt;
  }
  while (!wait_for([asked] { return wall.halted_now(asked); })) {
    if (wall.give_up(asked)) {
      return std::nullopt;
    }
  }
  return asked;
}

void* wall_sampler(void*) {
  struct timespec pause {options.interval_us / 1000000, (options.interval_us % 1000000) * 1000};
  uint32_t number = 0;
  while (running.load()) {
    std::vector<pid_t> threads;
    {
      std::lock_guard<std::mutex> guard(threads_lock);
      for (const SampledThread& thread : sampled_threads) {
        threads.push_back(thread.tid);
      }
    }
    size_t walked = 0;
    for (pid_t tid : threads) {
      if (!running.load()) {
        break;  // VMDeath: handlers no longer answer, each request would wait its 20 ms
      }
      // Each walk takes a slot of the ring, which only drains free: a round of
      // more threads than it holds drains as it goes, or samples are lost.
      if (++walked % (SampleRing::capacity / 2) == 0) {
        profile->drain();
      }
      std::optional<uint64_t> request = halt(tid, ++number);
      if (!request) {
        continue;  // skipped this round
      }
      asgst::walk_thread(tid, wall.context(), walk_options(), [](asgst::Frames frames) { record(frames, 1); });
      wall.release(*request);
      // Not needed for safety (a handler that returns later finds another
      // request and leaves it alone), but it keeps the next target from
      // competing with this one for the CPU.
      wait_for([&request] { return wall.done(*request); });
    }
    wall_rounds.fetch_add(1, std::memory_order_relaxed);
    profile->drain();
    nanosleep(&pause, nullptr);
  }
  return nullptr;
}

void* drainer(void*) {
  struct timespec pause {0, 50 * 1000 * 1000};
  JNIEnv* env = nullptr;
  if (options.mode == Mode::agct) {
    java_vm->AttachCurrentThreadAsDaemon((void**)&env, nullptr);  // JVMTI names jmethodIDs
  }
  while (running.load()) {
    profile->drain();
    nanosleep(&pause, nullptr);
  }
  if (env != nullptr) {
    java_vm->DetachCurrentThread();
  }
  return nullptr;
}

pthread_t background;

// Sets the current thread up for sampling, on the thread itself.
void thread_started(JNIEnv* env) {
  if (options.mode == Mode::queue) {
    // Before the thread's first SIGPROF, which enqueues on it.
    this_thread.queue = new ThreadQueue(env, 256, walk_options(), QueueFunction());
  }
  if (options.marks) {
    // Before the thread's first SIGPROF: the first touch of a thread-local
    // may allocate, which a handler must not.
    this_thread.kept = new KeptFrames();
  }
  clockid_t clock;
  std::optional<clockid_t> cpu_clock;
  if (pthread_getcpuclockid(pthread_self(), &clock) == 0) {
    cpu_clock = clock;
  }
  std::optional<int> perf_fd = register_thread(current_tid(), cpu_clock);
  if (perf_fd && *perf_fd < 0 && options.mode != Mode::wall) {
    start_thread_timer();  // engine=timer, or the thread's event could not be opened
  }
}

// Attached with engine=perf: an event on every task that runs already, as the
// process-wide timer of engine=timer samples whichever thread runs.
void register_running_threads() {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) {
    std::fprintf(messages, "asgstprof: cannot list the process's threads (%s)\n", std::strerror(errno));
    return;
  }
  while (struct dirent* task = readdir(tasks)) {
    pid_t tid = (pid_t)std::atol(task->d_name);
    if (tid > 0) {
      register_thread(tid, std::nullopt);  // the process's CPU time is the measure when attached
    }
  }
  closedir(tasks);
}

void JNICALL on_thread_start(jvmtiEnv*, JNIEnv* env, jthread) {
  thread_started(env);
}

void JNICALL on_thread_end(jvmtiEnv*, JNIEnv*, jthread) {
  if (this_thread.has_timer) {
    timer_delete(this_thread.timer);
    this_thread.has_timer = false;
  }
  {
    std::lock_guard<std::mutex> guard(threads_lock);
    pid_t self = current_tid();
    for (size_t i = 0; i < sampled_threads.size(); i++) {
      SampledThread& thread = sampled_threads[i];
      if (thread.tid == self) {
        // Closed on this thread: its event signals only this thread, which
        // handles a pending signal on its way back from close.
        if (thread.perf_fd >= 0) {
          close(thread.perf_fd);
        }
        int64_t now = thread.cpu_clock ? clock_ns(*thread.cpu_clock) : -1;
        if (now >= 0) {
          ended_threads_cpu_ns += now - thread.cpu_start;
        }
        sampled_threads.erase(sampled_threads.begin() + i);
        break;
      }
    }
  }
  // With the timer and event gone no handler uses the queue: deregister and free it.
  delete std::exchange(this_thread.queue, nullptr);
  delete std::exchange(this_thread.kept, nullptr);
}

struct UnloadFunction {
  void operator()(ASGST_Class klass, ASGST_Method* methods, int count, bool) const {
    profile->on_class_unload(klass, methods, count);
  }
};
// Reset at VMDeath, after the last drain.
std::unique_ptr<asgst::ClassUnloadHandler<UnloadFunction>> unload_handler;

// The process-wide timer of an attached profiler: Linux sends its SIGPROF to
// the thread whose CPU time made it expire, so it samples every running
// thread, also those that started before the profiler was loaded.
void set_process_timer(long interval_us) {
  struct itimerval spec {};
  spec.it_interval.tv_sec = interval_us / 1000000;
  spec.it_interval.tv_usec = interval_us % 1000000;
  spec.it_value = spec.it_interval;
  setitimer(ITIMER_PROF, &spec, nullptr);
}

void start_sampling() {
  if (options.mode == Mode::agct) {
    jint count = 0;
    jclass* classes = nullptr;
    if (jvmti->GetLoadedClasses(&count, &classes) == JVMTI_ERROR_NONE) {
      for (jint i = 0; i < count; i++) {
        create_jmethod_ids(classes[i]);
      }
      jvmti->Deallocate((unsigned char*)classes);
    }
  }
  start_process_cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
  start_wall_ns = clock_ns(CLOCK_MONOTONIC);
  running.store(true);
  pthread_create(&background, nullptr, options.mode == Mode::wall ? wall_sampler : drainer, nullptr);
  if (attached && options.engine == Engine::perf) {
    register_running_threads();
  } else if (attached) {
    set_process_timer(options.interval_us);
  }
}

// The CPU time the achieved rate is divided by, in seconds: that of the
// sampled threads while sampling ran. Attached, where both engines sample
// every thread that runs, the process's since the attach; otherwise the sum
// over the threads given a timer or event of each one's CPU time from its
// ThreadStart (the main thread: VMInit) to its ThreadEnd or now.
double sampled_cpu_seconds() {
  if (attached) {
    return (clock_ns(CLOCK_PROCESS_CPUTIME_ID) - start_process_cpu_ns) / 1e9;
  }
  std::lock_guard<std::mutex> guard(threads_lock);
  int64_t total = ended_threads_cpu_ns;
  for (const SampledThread& thread : sampled_threads) {
    int64_t now = thread.cpu_clock ? clock_ns(*thread.cpu_clock) : -1;
    if (now >= 0) {
      total += now - thread.cpu_start;
    }
  }
  return total / 1e9;
}

void JNICALL on_vm_init(jvmtiEnv*, JNIEnv* env, jthread) {
  start_sampling();
  thread_started(env);  // the main thread has no ThreadStart event
}

void JNICALL on_vm_death(jvmtiEnv*, JNIEnv*) {
  if (attached && options.engine == Engine::timer) {
    set_process_timer(0);
  }
  running.store(false);
  // Measured as sampling stops, before the writing below spends more.
  double cpu_seconds = sampled_cpu_seconds();
  double wall_seconds = (clock_ns(CLOCK_MONOTONIC) - start_wall_ns) / 1e9;
  pthread_join(background, nullptr);
  profile->drain();
  // After the last drain no method needs naming: deregister here, while the
  // VM runs, rather than in a static destructor at exit.
  unload_handler.reset();
  std::FILE* out = std::fopen(options.file.c_str(), "w");
  if (out == nullptr) {
    std::fprintf(messages, "asgstprof: cannot write %s\n", options.file.c_str());
    return;
  }
  bool html = options.file.size() > 5 && options.file.compare(options.file.size() - 5, 5, ".html") == 0;
  const char* mode = mode_name(options.mode);
  if (html) {
    profile->write_html(out, std::string("asgstprof ") + mode + " profile");
  } else {
    profile->write_collapsed(out);
  }
  std::fclose(out);
  std::fprintf(messages, "asgstprof: mode %s, %lld samples, %llu lost, %ld failed walks, written to %s\n", mode,
               (long long)profile->samples(), (unsigned long long)profile->lost(), failed_walks.load(),
               options.file.c_str());
  double requested = 1e6 / options.interval_us;
  if (options.mode == Mode::wall) {
    long rounds = wall_rounds.load();
    std::fprintf(messages,
                 "asgstprof: engine wall sampler, interval %ld us: %.0f rounds/s requested, %.0f achieved per "
                 "second (%ld rounds in %.3f s; a round samples each thread once)\n",
                 options.interval_us, requested, wall_seconds > 0 ? rounds / wall_seconds : 0.0, rounds, wall_seconds);
  } else {
    long taken = signals_taken.load();
    std::fprintf(messages,
                 "asgstprof: engine %s, interval %ld us: %.0f samples/s requested, %.0f achieved per CPU-second "
                 "(%ld samples in %.3f CPU-seconds of the sampled threads)\n",
                 options.engine == Engine::perf ? "perf" : attached ? "timer (process-wide)" : "timer",
                 options.interval_us, requested, cpu_seconds > 0 ? taken / cpu_seconds : 0.0, taken, cpu_seconds);
  }
  if (options.mode == Mode::queue) {
    long pending = queue_pending.load(), taken = queue_signals.load();
    std::fprintf(messages,
                 "asgstprof: queue: %ld of %ld signals found an element pending (%.1f%%), %ld merged into it\n",
                 pending, taken, taken > 0 ? 100.0 * pending / taken : 0.0, queue_merged.load());
  }
  if (options.marks) {
    long traced = incremental.traced_frames();
    std::fprintf(messages,
                 "asgstprof: marks: %ld of %ld walks stopped at a mark, %ld marks set; walked %ld of the %ld "
                 "frames of their traces (%.1f%%)\n",
                 incremental.reached(), incremental.walks(), incremental.marks_set(), incremental.walked_frames(),
                 traced, traced > 0 ? 100.0 * incremental.walked_frames() / traced : 0.0);
    if (options.marks_verify) {
      std::fprintf(messages, "asgstprof: marks: %ld traces through a mark compared with whole walks, %ld differed\n",
                   incremental.verified(), incremental.differed());
    }
  }
  std::fprintf(messages, "asgstprof: top frames (self samples):\n%s", profile->top_frames(8).c_str());
}

// Settles on a mode this VM can run, saying why on stderr when it is not
// the one asked for. False if there is none.
bool choose_mode() {
  if (options.mode != Mode::agct && options.mode != Mode::signal) {
    std::string why = asgst::load();
    if (!why.empty()) {
      std::fprintf(messages, "asgstprof: this JVM has no ASGST API (%s); using AsyncGetCallTrace\n", why.c_str());
      options.mode = Mode::agct;
    }
  }
  if (options.mode == Mode::queue && (asgst::api.Capabilities() & ASGST_REGISTER_QUEUE) == 0) {
    std::fprintf(messages, "asgstprof: this JVM has no safepoint queue (ASGST_REGISTER_QUEUE); using mode=cpu\n");
    options.mode = Mode::cpu;
  }
  if (attached && (options.mode == Mode::wall || options.mode == Mode::queue)) {
    // Both set each thread up as it starts: the threads already running
    // would go unsampled.
    std::fprintf(messages, "asgstprof: mode=%s cannot reach threads started before the attach; using mode=cpu\n",
                 mode_name(options.mode));
    options.mode = Mode::cpu;
  }
  if (options.marks && options.mode != Mode::cpu) {
    std::fprintf(messages, "asgstprof: marks=true serves mode=cpu only; walking without marks\n");
    options.marks = false;
  } else if (options.marks && attached) {
    // Threads that ran before the attach have no kept frames, and their
    // handler must not be the first to touch this_thread.
    std::fprintf(messages, "asgstprof: marks=true needs threads that start after the profiler; walking without marks\n");
    options.marks = false;
  } else if (options.marks && !incremental.start(options.marks_verify)) {
    std::fprintf(messages, "asgstprof: this JVM has no frame marks (ASGST_MARK_FRAME); walking without marks\n");
    options.marks = false;
  }
  if (options.engine == Engine::perf && options.mode != Mode::wall) {
    // One trial event, disabled (the SIGPROF handler is not installed yet),
    // to learn whether this process may open any.
    int fd = perf_event_fd(current_tid(), true);
    if (fd < 0) {
      std::fprintf(messages, "asgstprof: engine=perf: perf_event_open failed (%s); using engine=timer\n",
                   std::strerror(errno));
      options.engine = Engine::timer;
    } else {
      close(fd);
    }
  }
  if (options.mode == Mode::agct) {
    async_get_call_trace = (AgctFunction)dlsym(RTLD_DEFAULT, "AsyncGetCallTrace");
    if (async_get_call_trace == nullptr) {
      std::fprintf(messages, "asgstprof: no AsyncGetCallTrace in this JVM\n");
      return false;
    }
  }
  return true;
}

// What Agent_OnLoad and Agent_OnAttach share: everything but starting.
jint setup(JavaVM* vm, const char* agent_options) {
  if (profile != nullptr) {
    std::fprintf(messages, "asgstprof: already loaded\n");
    return JNI_ERR;
  }
  if (!parse_options(agent_options)) {
    return JNI_ERR;
  }
  options.file = with_pid(options.file);
  if (!options.log.empty()) {
    std::string log = with_pid(options.log);
    messages = std::fopen(log.c_str(), "a");
    if (messages == nullptr) {
      std::fprintf(stderr, "asgstprof: cannot write %s (%s)\n", log.c_str(), std::strerror(errno));
      messages = stderr;
      return JNI_ERR;
    }
    setvbuf(messages, nullptr, _IOLBF, 0);
  }
  if (!choose_mode()) {
    return JNI_ERR;
  }
  if (vm->GetEnv((void**)&jvmti, JVMTI_VERSION) != JNI_OK) {
    return JNI_ERR;
  }
  java_vm = vm;
  profile = new Profile(options.native);
  if (options.mode == Mode::agct) {
    profile->set_jmethod_namer(jmethod_name);
  } else if (options.mode != Mode::signal) {
    // Names samples of classes that go away. (With jmethodIDs this is not
    // possible: a JVMTI call in a class-unload handler is not allowed.)
    unload_handler = std::make_unique<asgst::ClassUnloadHandler<UnloadFunction>>(UnloadFunction());
  }
  struct sigaction action {};
  action.sa_sigaction = on_sigprof;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPROF, &action, nullptr);
  jvmtiEventCallbacks callbacks {};
  callbacks.VMInit = on_vm_init;
  callbacks.VMDeath = on_vm_death;
  callbacks.ThreadStart = on_thread_start;
  callbacks.ThreadEnd = on_thread_end;
  callbacks.ClassLoad = on_class_load;
  callbacks.ClassPrepare = on_class_prepare;
  jvmti->SetEventCallbacks(&callbacks, sizeof(callbacks));
  jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, nullptr);
  if (!attached) {
    jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, nullptr);
  }
  if (!attached || options.engine == Engine::perf) {
    // Per-thread timers, events, queues and thread ids; the attached
    // profiler's process-wide timer needs none. Enabled before an attach
    // lists the running threads, so that no thread starts unseen.
    jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, nullptr);
    jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_THREAD_END, nullptr);
  }
  if (options.mode == Mode::agct) {
    jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, nullptr);
    jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_CLASS_PREPARE, nullptr);
  }
  return JNI_OK;
}

}  // namespace
}  // namespace asgstprof

using namespace asgstprof;

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* agent_options, void*) {
  return setup(vm, agent_options);
}

// Loaded by jcmd PID JVMTI.agent_load into a running VM.
JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM* vm, char* agent_options, void*) {
  attached = true;
  jint result = setup(vm, agent_options);
  if (result == JNI_OK) {
    start_sampling();
  }
  return result;
}
