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
#include <map>
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

  // Names the methods of a class that goes away, then drains what is pending.
  void on_class_unload(ASGST_Class klass, ASGST_Method* methods, int count);

  void write_collapsed(std::FILE* out);
  void write_html(std::FILE* out, const std::string& title);

  int64_t samples() const { return _samples; }
  uint64_t lost() const { return _ring.lost(); }
  std::string top_frames(int n);

 private:
  struct MethodKey {
    jlong class_idnum;
    jint method_idnum;
    bool operator<(const MethodKey& o) const {
      return class_idnum != o.class_idnum ? class_idnum < o.class_idnum : method_idnum < o.method_idnum;
    }
  };

  std::string frame_name(const RawFrame& frame);
  const std::string& method_name(ASGST_Method method);
  void fold(const RawFrame* frames, int count, int64_t weight);

  SampleRing _ring;
  std::mutex _lock;
  bool _native_names;
  JMethodNamer _jmethod_namer = nullptr;
  std::map<MethodKey, std::string> _method_names;
  std::map<std::vector<std::string>, int64_t> _stacks;  // root first
  int64_t _samples = 0;
};

}  // namespace asgstprof

#endif  // ASGSTPROF_PROFILE_HPP
