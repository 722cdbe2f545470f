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
 * What the machine charges for the steps that a sample pays for, apart from
 * any JVM: a signal delivered to the thread and returned from, a fault on a
 * protected page that the handler resumes past (as HotSpot resumes a
 * safepoint poll of compiled code at its stub), the instruction behind
 * HotSpot's cross-modify fence on x86_64 without SERIALIZE (cpuid), a full
 * fence and a system call. Each is timed in ROUNDS rounds of its own count
 * of iterations; the median and the spread of the rounds are printed in ns
 * per iteration.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define ROUNDS 11

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int compare(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static volatile long handled;
static void on_signal(int signo, siginfo_t* info, void* context) {
  (void)signo; (void)info; (void)context;
  handled++;
}

static void* volatile protected_page;
/* Any other fault is a defect of this program: let it kill the process. */
static int is_expected_fault(int signo, siginfo_t* info) {
  if (info->si_addr == protected_page) {
    return 1;
  }
  signal(signo, SIG_DFL);
  return 0;
}
#if defined(__x86_64__)
/* The faulting load is "movl (%rdi), %eax": two bytes, skipped on return. */
static void on_fault(int signo, siginfo_t* info, void* context) {
  if (!is_expected_fault(signo, info)) return;
  ((ucontext_t*)context)->uc_mcontext.gregs[REG_RIP] += 2;
  handled++;
}
static void fault_once(void) {
  __asm__ volatile(".byte 0x8b, 0x07" : : "D"(protected_page) : "eax", "memory");
}
static void cpuid_once(void) {
  uint32_t a = 0, b, c = 0, d;
  __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d) : : "memory");
}
static void fence_once(void) { __asm__ volatile("mfence" : : : "memory"); }
#elif defined(__aarch64__)
/* The faulting load is "ldr w0, [x0]": four bytes, skipped on return. */
static void on_fault(int signo, siginfo_t* info, void* context) {
  if (!is_expected_fault(signo, info)) return;
  ((ucontext_t*)context)->uc_mcontext.pc += 4;
  handled++;
}
static void fault_once(void) {
  register void* x0 __asm__("x0") = protected_page;
  __asm__ volatile("ldr w0, [x0]" : "+r"(x0) : : "memory");
}
static void cpuid_once(void) { __asm__ volatile("isb" : : : "memory"); }  /* aarch64's cross-modify fence */
static void fence_once(void) { __asm__ volatile("dmb ish" : : : "memory"); }
#endif

/* tgkill itself: glibc's raise() also blocks and unblocks signals around it. */
static pid_t own_pid, own_tid;
static void signal_once(void) { syscall(SYS_tgkill, own_pid, own_tid, SIGPROF); }
static void syscall_once(void) { syscall(SYS_getppid); }

static void measure(const char* name, void (*step)(void), int count) {
  double per[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    double start = now_ns();
    for (int i = 0; i < count; i++) step();
    per[r] = (now_ns() - start) / count;
  }
  qsort(per, ROUNDS, sizeof(double), compare);
  printf("%-58s %10.1f  (%.1f-%.1f)\n", name, per[ROUNDS / 2], per[0], per[ROUNDS - 1]);
}

int main(void) {
  struct sigaction sa;
  own_pid = getpid();
  own_tid = (pid_t)syscall(SYS_gettid);
  memset(&sa, 0, sizeof(sa));
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sa.sa_sigaction = on_signal;
  sigaction(SIGPROF, &sa, NULL);
  sa.sa_sigaction = on_fault;
  sigaction(SIGSEGV, &sa, NULL);
  protected_page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (protected_page == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  printf("%-58s %10s  %s\n", "step (ns per step, median of 11 rounds)", "median", "(lowest-highest round)");
  measure("a signal to the thread itself (tgkill), handled and returned", signal_once, 20000);
  measure("a fault on a protected page, resumed past the load", fault_once, 20000);
#if defined(__x86_64__)
  measure("cpuid (HotSpot's cross-modify fence without SERIALIZE)", cpuid_once, 20000);
  measure("mfence", fence_once, 200000);
#else
  measure("isb (HotSpot's cross-modify fence)", cpuid_once, 200000);
  measure("dmb ish", fence_once, 200000);
#endif
  measure("a system call (getppid)", syscall_once, 200000);
  if (handled != (long)ROUNDS * 40000) {
    fprintf(stderr, "handled %ld signals, expected %ld\n", handled, (long)ROUNDS * 40000);
    return 1;
  }
  return 0;
}
