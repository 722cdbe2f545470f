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
 * Frame marks set and reached in signal handlers, in queue processing and by
 * another thread while the worker is halted: a wall-clock timer signals the
 * worker thread every 200 us; a third of the handlers walk it watching the
 * mark of the owner of that way of walking (three owners, one each), a third enqueue an element whose walk at the thread's poll
 * does the same, and a third halt the worker while an unattached sampler
 * thread walks it (ASGST_RunWithIteratorOfThread) the same way. A walk that reaches the mark goes on
 * to the bottom, and its callers after the mark must be those kept when the
 * mark was set (method, bci, level, sp). A walk that does not reach it marks
 * the frame of the marker method it passes, with a new cookie of the current
 * phase, and keeps the callers after it. A mark of an
 * earlier phase must never be reached: the worker left its frame before the
 * phase changed.
 */

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jni.h"
#include "profile.h"
#include "../native/asgstTestSupport.h"

#define COOKIES 256           /* kept suffixes, by cookie % COOKIES */
#define MAX_FRAMES 256

typedef struct {
  int count;
  ASGST_Frame frames[MAX_FRAMES];
} Suffix;

static ASGST_MarkOwner owners[3];   /* one per way of walking: their marks stay apart */
static ASGST_Method marker;           /* the method whose frame is marked */
static ASGST_Queue* queue;
static volatile int phase;            /* cookies carry it: phase * 100000 + n */
static volatile int next_cookie;
static Suffix kept[3][COOKIES];
static timer_t timer;
static volatile int signals;

/* Counters, read by Java: walks that reached a mark (from the handler, from
   the queue), callers that differed from the kept ones, marks of an earlier
   phase reached, marks set, refused marks. */
static volatile int reached[3], marks_set[3], suffix_mismatches, stale_marks, refusals;

/* The handshake with the sampler thread: 1 halted (context published), 2 walked. */
static volatile int halt_phase;
static void* volatile halted_context;
static pid_t worker_tid;
static pthread_t sampler;
static volatile int sampler_stop;

/* The first walk whose callers differed, for the report. */
static struct {
  int where, index, counts[2], state;
  uint64_t cookies[2];
  ASGST_Frame marked, last;
  ASGST_Frame got, kept;
} first_mismatch;

static int same_frame(const ASGST_Frame* a, const ASGST_Frame* b) {
  return a->method == b->method && a->bci == b->bci && a->type == b->type && a->comp_level == b->comp_level &&
         a->sp == b->sp;
}

enum { IN_HANDLER, AT_POLL, HALTED };

static ASGST_Frame last_marked_frame;
static ASGST_Frame prefix[64];
static int prefix_count;
static ASGST_Frame dump[64];
static int dump_count;


static void walk(ASGST_Iterator* iterator, int where) {
  ASGST_Frame frame;
  ASGST_Mark mark;
  Suffix rest;
  int result, i, marked = 0;
  if (ASGST_WatchMarks(iterator, owners[where]) != 0) {
    return;
  }
  prefix_count = 0;
  while ((result = ASGST_NextFrame(iterator, &frame)) != 1 ? result == ASGST_MARKED_FRAME : 1) {
    if (result == 1 && prefix_count < 64) {
      prefix[prefix_count++] = frame;
    }
    if (result == ASGST_MARKED_FRAME) {
      last_marked_frame = frame;
      if (!ASGST_GetMark(iterator, &mark)) {
        return;
      }
      if ((int)(mark.cookie / 100000) != phase) {
        __atomic_add_fetch(&stale_marks, 1, __ATOMIC_RELAXED);
      }
      __atomic_add_fetch(&reached[where], 1, __ATOMIC_RELAXED);
      /* The callers, walked on, against those kept. */
      rest.count = 0;
      while (rest.count < MAX_FRAMES && ASGST_NextFrame(iterator, &rest.frames[rest.count]) == 1) {
        rest.count++;
      }
      ASGST_Mark second = { -1, 0 };
      ASGST_GetMark(iterator, &second);
      Suffix* expected = &kept[where][mark.cookie % COOKIES];
      int differs = rest.count != expected->count;
      for (i = 0; !differs && i < rest.count; i++) {
        differs = !same_frame(&rest.frames[i], &expected->frames[i]);
      }
      if (differs && __atomic_add_fetch(&suffix_mismatches, 1, __ATOMIC_RELAXED) == 1) {
        first_mismatch.where = where;
        first_mismatch.index = i - 1;
        first_mismatch.counts[0] = rest.count;
        first_mismatch.counts[1] = expected->count;
        first_mismatch.state = ASGST_State(iterator);
        first_mismatch.cookies[0] = mark.cookie;
        first_mismatch.cookies[1] = second.cookie;
        first_mismatch.marked = last_marked_frame;
        for (dump_count = 0; dump_count < prefix_count && dump_count < 32; dump_count++) dump[dump_count] = prefix[dump_count];
        for (i = 0; i < rest.count && dump_count < 64; i++) dump[dump_count++] = rest.frames[i];
        if (rest.count > 0) first_mismatch.last = rest.frames[rest.count - 1];
        if (i >= 1 && i - 1 < rest.count && i - 1 < expected->count) {
          first_mismatch.got = rest.frames[i - 1];
          first_mismatch.kept = expected->frames[i - 1];
        }
      }
      return;
    }
    /* A marked frame is followed by ASGST_MARKED_FRAME: marked again only if not. */
    if (!marked && frame.method == marker && frame.type == ASGST_FRAME_JAVA &&
        ASGST_State(iterator) != ASGST_MARKED_FRAME) {
      int n = __atomic_add_fetch(&next_cookie, 1, __ATOMIC_RELAXED);
      uint64_t cookie = (uint64_t)phase * 100000 + (uint64_t)(n % 100000);
      Suffix* suffix = &kept[where][cookie % COOKIES];
      marked = 1;
      if (ASGST_MarkFrame(iterator, owners[where], 0, cookie) != 0) {
        __atomic_add_fetch(&refusals, 1, __ATOMIC_RELAXED);
        continue;
      }
      __atomic_add_fetch(&marks_set[where], 1, __ATOMIC_RELAXED);
      /* Kept before the thread confirms the mark at its next poll: this
         handler runs on the thread (or the thread is at its poll). */
      suffix->count = 0;
      while (suffix->count < MAX_FRAMES && ASGST_NextFrame(iterator, &suffix->frames[suffix->count]) == 1) {
        suffix->count++;
      }
      return;
    }
  }
}

static void in_handler(ASGST_Iterator* iterator, void* arg) {
  walk(iterator, IN_HANDLER);
}

static void at_poll(ASGST_Iterator* iterator, void* queue_arg, void* arg) {
  walk(iterator, AT_POLL);
}

static void halted(ASGST_Iterator* iterator, void* arg) {
  walk(iterator, HALTED);
}

/* Walks the worker whenever its handler halts it. */
static void* sample_halted(void* arg) {
  while (!__atomic_load_n(&sampler_stop, __ATOMIC_ACQUIRE)) {
    if (__atomic_load_n(&halt_phase, __ATOMIC_ACQUIRE) == 1) {
      ASGST_RunWithIteratorOfThread(worker_tid, halted_context, 0, halted, NULL);
      __atomic_store_n(&halt_phase, 2, __ATOMIC_RELEASE);
    } else {
      sched_yield();
    }
  }
  return NULL;
}

static void on_signal(int signo, siginfo_t* info, void* ucontext) {
  int n = __atomic_add_fetch(&signals, 1, __ATOMIC_RELAXED);
  if (n % 3 == 0) {
    ASGST_Enqueue(queue, ucontext, NULL);
  } else if (n % 3 == 1) {
    ASGST_RunWithIterator(ucontext, 0, in_handler, NULL);
  } else {
    halted_context = ucontext;
    __atomic_store_n(&halt_phase, 1, __ATOMIC_RELEASE);
    while (__atomic_load_n(&halt_phase, __ATOMIC_ACQUIRE) != 2 && !__atomic_load_n(&sampler_stop, __ATOMIC_ACQUIRE)) {
      /* halted: the sampler thread walks this thread now */
    }
    __atomic_store_n(&halt_phase, 0, __ATOMIC_RELEASE);
  }
}

/* On the worker: its queue, the owner, and the timer that signals it. */
JNIEXPORT jint JNICALL
Java_AsgstFrameMarksSampled_start(JNIEnv* env, jclass cls, jobject marker_method) {
  jmethodID id = (*env)->FromReflectedMethod(env, marker_method);
  marker = ASGST_JMethodIDToMethod(id);
  owners[IN_HANDLER] = ASGST_RegisterMarkOwner(1);
  owners[AT_POLL] = ASGST_RegisterMarkOwner(1);
  owners[HALTED] = ASGST_RegisterMarkOwner(1);
  queue = ASGST_RegisterQueue(env, 64, 0, at_poll, NULL);
  worker_tid = (pid_t)syscall(SYS_gettid);
  if (marker == NULL || owners[IN_HANDLER] <= 0 || owners[AT_POLL] <= 0 || owners[HALTED] <= 0 || queue == NULL || pthread_create(&sampler, NULL, sample_halted, NULL) != 0) {
    return -1;
  }
  return asgst_test_start_sampling_of(on_signal, worker_tid, CLOCK_MONOTONIC, 200, &timer);
}

JNIEXPORT void JNICALL Java_AsgstFrameMarksSampled_setPhase(JNIEnv* env, jclass cls, jint p) {
  __atomic_store_n(&phase, p, __ATOMIC_RELEASE);
}

JNIEXPORT jintArray JNICALL Java_AsgstFrameMarksSampled_stop(JNIEnv* env, jclass cls) {
  int r[10];
  asgst_test_stop_sampling(timer);
  __atomic_store_n(&sampler_stop, 1, __ATOMIC_RELEASE);
  pthread_join(sampler, NULL);
  ASGST_DeregisterQueue(queue);
  ASGST_DeregisterMarkOwner(owners[IN_HANDLER]);
  ASGST_DeregisterMarkOwner(owners[AT_POLL]);
  ASGST_DeregisterMarkOwner(owners[HALTED]);
  r[0] = signals; r[1] = reached[IN_HANDLER]; r[2] = reached[AT_POLL]; r[3] = suffix_mismatches;
  r[4] = stale_marks; r[5] = refusals; r[6] = reached[HALTED];
  r[7] = marks_set[IN_HANDLER]; r[8] = marks_set[AT_POLL]; r[9] = marks_set[HALTED];
  return asgst_test_int_array(env, r, 10);
}

/* The first difference, described (after stop). */
JNIEXPORT jstring JNICALL Java_AsgstFrameMarksSampled_firstMismatch(JNIEnv* env, jclass cls) {
  char text[512], got[128], kept_name[128];
  if (suffix_mismatches == 0) {
    return NULL;
  }
  asgst_test_method_name(first_mismatch.got.method, got, sizeof(got));
  asgst_test_method_name(first_mismatch.kept.method, kept_name, sizeof(kept_name));
  snprintf(text, sizeof(text), "%s walk: %d callers (end state %d), %d kept; caller %d: %s bci %d level %d type %d sp %p, kept %s bci %d level %d type %d sp %p",
           first_mismatch.where == AT_POLL ? "queue" : first_mismatch.where == HALTED ? "halted-thread" : "handler", first_mismatch.counts[0], first_mismatch.state,
           first_mismatch.counts[1],
           first_mismatch.index, got, first_mismatch.got.bci, first_mismatch.got.comp_level, first_mismatch.got.type,
           first_mismatch.got.sp, kept_name, first_mismatch.kept.bci, first_mismatch.kept.comp_level,
           first_mismatch.kept.type, first_mismatch.kept.sp);
  {
    char marked[128], last[128];
    size_t used = strlen(text);
    asgst_test_method_name(first_mismatch.marked.method, marked, sizeof(marked));
    asgst_test_method_name(first_mismatch.last.method, last, sizeof(last));
    snprintf(text + used, sizeof(text) - used, "; cookies %lu then %lu; marked %s sp %p fp %p; last %s sp %p fp %p type %d",
             (unsigned long)first_mismatch.cookies[0], (unsigned long)first_mismatch.cookies[1], marked,
             first_mismatch.marked.sp, first_mismatch.marked.fp, last, first_mismatch.last.sp, first_mismatch.last.fp,
             first_mismatch.last.type);
  }
  {
    int k;
    for (k = 0; k < dump_count; k++) {
      char name[128];
      asgst_test_method_name(dump[k].method, name, sizeof(name));
      fprintf(stderr, "walk with the first difference, frame %d: %s type %d level %d bci %d sp %p fp %p pc %p\n", k, name, dump[k].type, dump[k].comp_level, dump[k].bci, dump[k].sp, dump[k].fp, dump[k].pc);
    }
  }
  return (*env)->NewStringUTF(env, text);
}
