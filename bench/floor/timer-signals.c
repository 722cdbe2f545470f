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
 */

/*
 * What timer-driven signals alone cost a program on this machine, apart from
 * any JVM: THREADS threads compute (a multiply-xorshift loop, in registers)
 * for SECONDS of wall time each run, without signals, or each sent SIGPROF
 * by a timer of its own CPU time every interval, to a handler that only
 * counts: the sample profiler's perf engine (a software CPU clock of the
 * thread, its overflow signalled to the thread) and its timer engine (a POSIX
 * timer of the thread's CPU time). The configurations take turns within
 * each of ROUNDS rounds. Printed per configuration: the loop's throughput
 * (chunks per second of all threads), the share of it that each round kept
 * against that round's run without signals (median, lowest-highest), and the
 * signals handled per CPU-second.
 * Usage: timer-signals INTERVAL_US...
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define THREADS 2
#define ROUNDS 5
#define SECONDS 2
#define MAX_CONFIGS 16

enum engine { NONE, PERF, POSIX_TIMER };

struct config {
  enum engine engine;
  long interval_us;
  double rate[ROUNDS];        /* chunks per second */
  double kept[ROUNDS];        /* against the round's run without signals */
  double signals_per_cpu_s[ROUNDS];
};

struct worker {
  pthread_t thread;
  const struct config* config;
  long chunks;
  long signals;
  double cpu_s;
  uint64_t sink;
  int failed;
};

static volatile int stop;
static pthread_barrier_t started;
static __thread volatile long signals_here;

static void on_sigprof(int signo, siginfo_t* info, void* context) {
  (void)signo; (void)info; (void)context;
  signals_here++;
}

static double seconds_of(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

/* As the sample profiler's perf engine opens a thread's event. */
static int open_perf_event(pid_t tid, long interval_us) {
  struct perf_event_attr attr;
  struct f_owner_ex owner = { F_OWNER_TID, tid };
  int fd;
  memset(&attr, 0, sizeof(attr));
  attr.size = sizeof(attr);
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.sample_period = (uint64_t)interval_us * 1000;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  fd = (int)syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) {
    return -1;
  }
  if (fcntl(fd, F_SETOWN_EX, &owner) != 0 || fcntl(fd, F_SETSIG, SIGPROF) != 0 ||
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

static int start_posix_timer(pid_t tid, long interval_us, timer_t* timer) {
  struct sigevent event;
  struct itimerspec spec;
  memset(&event, 0, sizeof(event));
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGPROF;
  event._sigev_un._tid = tid;
  memset(&spec, 0, sizeof(spec));
  spec.it_interval.tv_sec = interval_us / 1000000;
  spec.it_interval.tv_nsec = (interval_us % 1000000) * 1000;
  spec.it_value = spec.it_interval;
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, timer) != 0) {
    return -1;
  }
  return timer_settime(*timer, 0, &spec, NULL);
}

static void* work(void* arg) {
  struct worker* w = arg;
  pid_t tid = (pid_t)syscall(SYS_gettid);
  int fd = -1;
  timer_t timer;
  uint64_t x = (uint64_t)tid * 2654435761u + 1;
  long chunks = 0;
  double cpu_begin;
  if (w->config->engine == PERF) {
    fd = open_perf_event(tid, w->config->interval_us);
    w->failed = fd < 0;
  } else if (w->config->engine == POSIX_TIMER) {
    w->failed = start_posix_timer(tid, w->config->interval_us, &timer) != 0;
  }
  pthread_barrier_wait(&started);
  cpu_begin = seconds_of(CLOCK_THREAD_CPUTIME_ID);
  while (!stop) {
    for (int i = 0; i < 100000; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      x ^= x >> 17;
    }
    chunks++;
  }
  w->cpu_s = seconds_of(CLOCK_THREAD_CPUTIME_ID) - cpu_begin;
  if (fd >= 0) {
    close(fd);
  } else if (w->config->engine == POSIX_TIMER && !w->failed) {
    timer_delete(timer);
  }
  w->chunks = chunks;
  w->signals = signals_here;
  w->sink = x;
  return NULL;
}

/* One run: chunks per second of all threads; -1 if an engine failed. */
static double run(struct config* c, int round) {
  struct worker workers[THREADS];
  double begin, elapsed, cpu_s = 0;
  long chunks = 0, signals = 0;
  int failed = 0;
  memset(workers, 0, sizeof(workers));
  stop = 0;
  pthread_barrier_init(&started, NULL, THREADS + 1);
  for (int i = 0; i < THREADS; i++) {
    workers[i].config = c;
    pthread_create(&workers[i].thread, NULL, work, &workers[i]);
  }
  pthread_barrier_wait(&started);
  begin = seconds_of(CLOCK_MONOTONIC);
  sleep(SECONDS);
  stop = 1;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(workers[i].thread, NULL);
    chunks += workers[i].chunks;
    signals += workers[i].signals;
    cpu_s += workers[i].cpu_s;
    failed |= workers[i].failed;
  }
  elapsed = seconds_of(CLOCK_MONOTONIC) - begin;
  pthread_barrier_destroy(&started);
  c->rate[round] = chunks / elapsed;
  c->signals_per_cpu_s[round] = cpu_s > 0 ? signals / cpu_s : 0;
  return failed ? -1 : c->rate[round];
}

static int compare(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static double median(const double* values, double* low, double* high) {
  double sorted[ROUNDS];
  memcpy(sorted, values, sizeof(sorted));
  qsort(sorted, ROUNDS, sizeof(double), compare);
  *low = sorted[0];
  *high = sorted[ROUNDS - 1];
  return sorted[ROUNDS / 2];
}

int main(int argc, char** argv) {
  struct config configs[MAX_CONFIGS];
  struct sigaction action;
  int count = 0;
  memset(configs, 0, sizeof(configs));
  configs[count++].engine = NONE;
  for (int i = 1; i < argc && count + 2 <= MAX_CONFIGS; i++) {
    long interval = atol(argv[i]);
    if (interval <= 0) {
      fprintf(stderr, "usage: timer-signals INTERVAL_US...\n");
      return 2;
    }
    configs[count].engine = PERF;
    configs[count++].interval_us = interval;
    configs[count].engine = POSIX_TIMER;
    configs[count++].interval_us = interval;
  }
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = on_sigprof;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPROF, &action, NULL);

  for (int round = 0; round < ROUNDS; round++) {
    for (int k = 0; k < count; k++) {
      struct config* c = &configs[(k + round) % count];
      if (run(c, round) < 0) {
        fprintf(stderr, "timer-signals: the engine failed to start (perf_event_paranoid?)\n");
        return 1;
      }
    }
    for (int k = 1; k < count; k++) {
      configs[k].kept[round] = configs[k].rate[round] / configs[0].rate[round];
    }
  }

  printf("%d threads, %d s per run, %d rounds\n\n", THREADS, SECONDS, ROUNDS);
  printf("| signals | interval | chunks per s, median (low-high) | kept, per round | signals per CPU-s |\n");
  printf("| --- | --- | --- | --- | --- |\n");
  for (int k = 0; k < count; k++) {
    const struct config* c = &configs[k];
    double low, high, kept_low, kept_high, s_low, s_high;
    double rate = median(c->rate, &low, &high);
    const char* name = c->engine == NONE ? "none" : c->engine == PERF ? "perf CPU clock" : "POSIX CPU timer";
    if (c->engine == NONE) {
      printf("| %s | - | %.0f (%.0f-%.0f) | - | - |\n", name, rate, low, high);
    } else {
      double kept = median(c->kept, &kept_low, &kept_high);
      double signals = median(c->signals_per_cpu_s, &s_low, &s_high);
      printf("| %s | %ld us | %.0f (%.0f-%.0f) | %.3f (%.3f-%.3f) | %.0f |\n", name, c->interval_us, rate, low, high,
             kept, kept_low, kept_high, signals);
    }
  }
  return 0;
}
