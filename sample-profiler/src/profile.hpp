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

// The profile: samples folded into stacks of method names, named as soon as
// they are drained (and at the latest in the class-unload handler, before a
// method's handle becomes invalid), then written as collapsed stacks or an
// HTML flame graph.

#ifndef ASGSTPROF_PROFILE_HPP
#define ASGSTPROF_PROFILE_HPP

#include <asgst/profile.hpp>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "samples.hpp"

namespace asgstprof {

class Profile {
 public:
  explicit Profile(bool native_names) : _native_names(native_names) {}

  // For frames that hold a jmethodID (the AsyncGetCallTrace mode): names it.
  using JMethodNamer = std::string (*)(jmethodID);
  void set_jmethod_namer(JMethodNamer namer) { _jmethod_namer = namer; }

  SampleRing& ring() { return _ring; }

  // Folds the ready samples into the profile. Not signal safe.
  void drain();

  // Drains what is pending (naming its methods while their handles are
  // valid), then forgets the handles of a class that goes away.
  void on_class_unload(ASGST_Class klass, ASGST_Method* methods, int count);

  void write_collapsed(std::FILE* out);
  void write_html(std::FILE* out, const std::string& title);

  int64_t samples() const { return _samples; }
  uint64_t lost() const { return _ring.lost(); }
  std::string top_frames(int n);

 private:
  // Frame names are interned: a stack is a vector of ids into _names.
  using NameId = uint32_t;
  using Stack = std::vector<NameId>;  // root first
  struct StackHash {
    size_t operator()(const Stack& stack) const noexcept;
  };

  NameId intern(std::string name);
  NameId frame_name_id(const RawFrame& frame);
  NameId method_name_id(ASGST_Method method, bool inlined);
  std::string method_name(ASGST_Method method);
  std::string native_name(void* pc);
  void fold(const RawFrame* frames, int count, int64_t weight);
  const std::string& name(NameId id) const { return _names[id]; }

  SampleRing _ring;
  std::mutex _lock;
  bool _native_names;
  JMethodNamer _jmethod_namer = nullptr;
  std::vector<std::string> _names;
  std::unordered_map<std::string, NameId> _name_ids;
  // By handle: a handle stays one method until its class's unload handler
  // has run (on_class_unload forgets it then), so a method is named once,
  // not once per frame. [0] its frames, [1] its inlined frames.
  std::unordered_map<ASGST_Method, NameId> _method_name_ids[2];
  std::unordered_map<jmethodID, NameId> _jmethod_name_ids;  // jmethodIDs are never reused
  std::unordered_map<Stack, int64_t, StackHash> _stacks;
  Stack _folding;  // fold's scratch stack, kept to save its allocation
  int64_t _samples = 0;
};

}  // namespace asgstprof

#endif  // ASGSTPROF_PROFILE_HPP
