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

// The wall sampler's request (src/wall.hpp), step by step: each case plays
// one order of the sampler's and the handlers' steps that real runs reach
// only now and then (a handler that the scheduler delays past the sampler's
// 20 ms waits), and checks what each side must see, by the test's own
// account of which thread was asked, halted and released. Prints PASS or
// FAIL per case, then "N passed, N failed"; exits non-zero unless all passed.

#include <cstdio>
#include <string>
#include <vector>

#include "wall.hpp"

using asgstprof::WallRequest;

namespace {

const pid_t thread_a = 4101, thread_b = 4102;
int context_a, context_b;  // the handlers' contexts: only their addresses count

std::vector<std::string> problems;
void expect(bool holds, const char* what) {
  if (!holds) {
    problems.push_back(what);
  }
}

// One handler's steps, as agent.cpp's SIGPROF handler takes them.
struct Handler {
  WallRequest& wall;
  pid_t self;
  uint64_t request = 0, halted_state = 0;
  bool seen() {
    std::optional<uint64_t> asked = wall.request_for(self);
    request = asked.value_or(0);
    return asked.has_value();
  }
  bool take() { return wall.take(request); }
  void halt(void* context) { halted_state = wall.halt(request, context); }
  bool waits() const { return wall.halted(halted_state); }
  void finish() { wall.finish(halted_state); }
};

// The plain order: asked, taken, halted, walked, released, done.
void answered() {
  WallRequest wall;
  Handler a{wall, thread_a};
  uint64_t asked = wall.ask(thread_a, 1);
  expect(!wall.halted_now(asked), "halted before the handler ran");
  expect(a.seen(), "the handler does not see its request");
  expect(a.take(), "the handler cannot take its request");
  a.halt(&context_a);
  expect(wall.halted_now(asked), "the sampler does not see the handler halted");
  expect(wall.context() == &context_a, "the context is not the handler's");
  expect(a.waits(), "the handler returns before its release");
  wall.release(asked);
  expect(!a.waits(), "the handler waits after its release");
  expect(!wall.done(asked), "done before the handler finished");
  a.finish();
  expect(wall.done(asked), "the sampler does not see the handler finish");
}

// A handler that is not asked, or asked for another thread, takes nothing.
void not_asked() {
  WallRequest wall;
  Handler a{wall, thread_a}, b{wall, thread_b};
  expect(!a.seen(), "a request seen before any was asked");
  wall.ask(thread_a, 1);
  expect(!b.seen(), "thread B sees the request of thread A");
}

// A handler that saw its request but takes it only after the sampler gave it
// up and asked again (another thread, or its own thread for a later
// request) must fail, and leave the later request and its context alone.
void late_take(pid_t next_thread, int* next_context) {
  WallRequest wall;
  Handler late{wall, thread_a}, next{wall, next_thread};
  uint64_t first = wall.ask(thread_a, 1);
  expect(late.seen(), "the handler does not see its request");
  expect(wall.give_up(first), "the sampler cannot give up a request not taken");
  uint64_t second = wall.ask(next_thread, 2);
  expect(!late.take(), "a late handler takes a later request");
  expect(!wall.halted_now(second), "the later request is seen halted before its handler ran");
  expect(next.seen() && next.take(), "the later request's handler cannot take it after a late handler");
  next.halt(next_context);
  expect(wall.halted_now(second), "the later request is not seen halted");
  expect(wall.context() == next_context, "the later request's context is not its handler's");
}
void late_take_other_thread() { late_take(thread_b, &context_b); }
void late_take_same_thread() { late_take(thread_a, &context_a); }

// A request taken is not given up: its handler writes the context and is
// waited for.
void taken_not_given_up() {
  WallRequest wall;
  Handler a{wall, thread_a};
  uint64_t asked = wall.ask(thread_a, 1);
  expect(a.seen() && a.take(), "the handler cannot take its request");
  expect(!wall.give_up(asked), "the sampler gives up a request its handler took");
  a.halt(&context_a);
  expect(wall.halted_now(asked), "the sampler does not see the handler halted");
}

// A handler that looks for its release only after the sampler stopped
// waiting for it and asked another thread must return at once, and must not
// touch the other thread's request: whether it finishes before that thread
// takes its request, while that thread is halted, or after its release, that
// thread must halt with its own context, stay halted until its release, see
// it, and the sampler must see that thread's done.
enum class LateFinish { before_take, while_halted, after_release };
void late_release(LateFinish when) {
  WallRequest wall;
  Handler a{wall, thread_a}, b{wall, thread_b};
  uint64_t asked_a = wall.ask(thread_a, 1);
  expect(a.seen() && a.take(), "thread A cannot take its request");
  a.halt(&context_a);
  wall.release(asked_a);
  // The sampler's wait for done timed out; handler A has not looked yet.
  uint64_t asked_b = wall.ask(thread_b, 2);
  expect(!a.waits(), "a late handler waits for a release after the sampler moved on");
  if (when == LateFinish::before_take) {
    a.finish();
  }
  expect(b.seen() && b.take(), "thread B cannot take its request after a late handler");
  b.halt(&context_b);
  expect(!a.waits(), "a late handler waits while thread B is halted");
  if (when == LateFinish::while_halted) {
    a.finish();
  }
  expect(wall.halted_now(asked_b), "thread B is not seen halted");
  expect(wall.context() == &context_b, "the context of thread B's request is not thread B's");
  expect(b.waits(), "thread B returns before its release");
  wall.release(asked_b);
  if (when == LateFinish::after_release) {
    a.finish();
    expect(!wall.done(asked_b), "a late handler's finish ends thread B's request");
  }
  expect(!b.waits(), "thread B waits after its release");
  b.finish();
  expect(wall.done(asked_b), "the sampler does not see thread B finish");
}
void late_finish_before_take() { late_release(LateFinish::before_take); }
void late_finish_while_halted() { late_release(LateFinish::while_halted); }
void late_finish_after_release() { late_release(LateFinish::after_release); }

// A request the sampler could not signal leaves nothing asked: a thread that
// gets the tid later takes nothing.
void abandoned() {
  WallRequest wall;
  Handler a{wall, thread_a};
  uint64_t asked = wall.ask(thread_a, 1);
  wall.abandon(asked);
  expect(!a.seen(), "an abandoned request is still asked");
}

}  // namespace

int main() {
  struct Case {
    const char* name;
    void (*run)();
  } cases[] = {
      {"a request answered in order", answered},
      {"a thread not asked takes nothing", not_asked},
      {"a handler that comes late takes no other thread's request", late_take_other_thread},
      {"a request taken is not given up", taken_not_given_up},
      {"a handler that looks late leaves the next request alone", late_finish_before_take},
      {"a handler that looks late leaves the next thread halted", late_finish_while_halted},
      {"a handler that looks late takes no other thread's release", late_finish_after_release},
      {"a request not signalled is not left asked", abandoned},
      {"a handler of an earlier request takes no later one", late_take_same_thread},
  };
  int passed = 0, failed = 0;
  for (const Case& c : cases) {
    problems.clear();
    c.run();
    if (problems.empty()) {
      std::printf("PASS wall request: %s\n", c.name);
      passed++;
    } else {
      std::string all;
      for (const std::string& problem : problems) {
        all += (all.empty() ? "" : "; ") + problem;
      }
      std::printf("FAIL wall request: %s: %s\n", c.name, all.c_str());
      failed++;
    }
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
