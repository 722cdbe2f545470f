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

#include "profile.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace asgstprof {

// "Ljava/lang/String;" and "hashCode" -> "java.lang.String.hashCode"
static std::string java_name(const char* class_signature, const char* method_name) {
  std::string name;
  const char* start = class_signature[0] == 'L' ? class_signature + 1 : class_signature;
  for (const char* p = start; *p != '\0' && *p != ';'; p++) {
    name += *p == '/' ? '.' : *p;
  }
  name += '.';
  name += method_name;
  return name;
}

const std::string& Profile::method_name(ASGST_Method method) {
  static const std::string unknown = "[unknown method]";
  char name[256], class_name[512];
  ASGST_MethodInfo info{};
  info.method_name = name;
  info.method_name_length = sizeof(name);
  asgst::api.GetMethodInfo(method, &info);
  if (info.method_name == nullptr) {
    return unknown;
  }
  MethodKey key{info.class_idnum, info.idnum};
  auto found = _method_names.find(key);
  if (found != _method_names.end()) {
    return found->second;
  }
  ASGST_ClassInfo class_info{};
  class_info.class_name = class_name;
  class_info.class_name_length = sizeof(class_name);
  asgst::api.GetClassInfo(info.klass, &class_info);
  std::string full = class_info.class_name != nullptr ? java_name(class_name, name) : std::string(name);
  return _method_names.emplace(key, std::move(full)).first->second;
}

std::string Profile::frame_name(const RawFrame& frame) {
  switch (frame.kind) {
    case FrameKind::java:
      return method_name(frame.method);
    case FrameKind::java_inlined:
      return method_name(frame.method) + "_[i]";
    case FrameKind::jmethod:
      return _jmethod_namer != nullptr ? _jmethod_namer(frame.jmethod) : "[jmethodID]";
    case FrameKind::walk_cut:
      return "[walk cut: error " + std::to_string(frame.error) + "]";
    case FrameKind::frames_in_heap:
      return "[frames frozen in the heap]";
    case FrameKind::non_java:
      break;
  }
  if (_native_names) {
    Dl_info dl{};
    if (frame.pc != nullptr && dladdr(frame.pc, &dl) != 0 && dl.dli_sname != nullptr) {
      return std::string("[native] ") + dl.dli_sname;
    }
    if (frame.pc != nullptr && dl.dli_fname != nullptr) {
      const char* base = std::strrchr(dl.dli_fname, '/');
      return std::string("[native] ") + (base != nullptr ? base + 1 : dl.dli_fname);
    }
  }
  return "[native]";
}

// frames are callee first; stacks are kept root first.
void Profile::fold(const RawFrame* frames, int count, int64_t weight) {
  std::vector<std::string> stack;
  stack.reserve(count);
  for (int i = count - 1; i >= 0; i--) {
    stack.push_back(frame_name(frames[i]));
  }
  _stacks[stack] += weight;
  _samples += weight;
}

void Profile::drain() {
  std::lock_guard<std::mutex> guard(_lock);
  _ring.drain([this](RawSample& s) { fold(s.frames, s.count, s.weight); });
}

void Profile::on_class_unload(ASGST_Class klass, ASGST_Method* methods, int count) {
  (void)klass;
  std::lock_guard<std::mutex> guard(_lock);
  // Pending samples may hold these methods: name them while they are valid.
  _ring.drain([this](RawSample& s) { fold(s.frames, s.count, s.weight); });
  for (int i = 0; i < count; i++) {
    method_name(methods[i]);  // keeps the name under the method's ids
  }
}

void Profile::write_collapsed(std::FILE* out) {
  std::lock_guard<std::mutex> guard(_lock);
  for (const auto& [stack, count] : _stacks) {
    for (size_t i = 0; i < stack.size(); i++) {
      std::fprintf(out, "%s%s", i == 0 ? "" : ";", stack[i].c_str());
    }
    std::fprintf(out, " %lld\n", (long long)count);
  }
}

std::string Profile::top_frames(int n) {
  std::lock_guard<std::mutex> guard(_lock);
  std::map<std::string, int64_t> self;
  for (const auto& [stack, count] : _stacks) {
    if (!stack.empty()) {
      self[stack.back()] += count;
    }
  }
  std::vector<std::pair<int64_t, std::string>> sorted;
  for (const auto& [name, count] : self) {
    sorted.emplace_back(count, name);
  }
  std::sort(sorted.rbegin(), sorted.rend());
  std::string text;
  for (int i = 0; i < n && i < (int)sorted.size(); i++) {
    char line[64];
    std::snprintf(line, sizeof(line), "%8lld  ", (long long)sorted[i].first);
    text += line + sorted[i].second + "\n";
  }
  return text;
}

}  // namespace asgstprof
