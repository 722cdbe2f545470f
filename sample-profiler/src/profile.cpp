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
#include <map>

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

static const char* const unknown_method = "[unknown method]";

std::string Profile::method_name(ASGST_Method method) {
  char name[256], class_name[512];
  ASGST_MethodInfo info{};
  info.method_name = name;
  info.method_name_length = sizeof(name);
  asgst::api.GetMethodInfo(method, &info);
  if (info.method_name == nullptr) {
    return unknown_method;
  }
  ASGST_ClassInfo class_info{};
  class_info.class_name = class_name;
  class_info.class_name_length = sizeof(class_name);
  asgst::api.GetClassInfo(info.klass, &class_info);
  return class_info.class_name != nullptr ? java_name(class_name, name) : std::string(name);
}

std::string Profile::native_name(void* pc) {
  if (_native_names) {
    Dl_info dl{};
    if (pc != nullptr && dladdr(pc, &dl) != 0 && dl.dli_sname != nullptr) {
      return std::string("[native] ") + dl.dli_sname;
    }
    if (pc != nullptr && dl.dli_fname != nullptr) {
      const char* base = std::strrchr(dl.dli_fname, '/');
      return std::string("[native] ") + (base != nullptr ? base + 1 : dl.dli_fname);
    }
  }
  return "[native]";
}

Profile::NameId Profile::intern(std::string name) {
  auto found = _name_ids.find(name);
  if (found != _name_ids.end()) {
    return found->second;
  }
  NameId id = (NameId)_names.size();
  _names.push_back(name);
  _name_ids.emplace(std::move(name), id);
  return id;
}

Profile::NameId Profile::method_name_id(ASGST_Method method, bool inlined) {
  auto& ids = _method_name_ids[inlined ? 1 : 0];
  auto found = ids.find(method);
  if (found != ids.end()) {
    return found->second;
  }
  std::string name = method_name(method);
  NameId id = intern(inlined ? name + "_[i]" : name);
  if (name != unknown_method) {
    ids.emplace(method, id);  // else asked again: an answer for a stale handle must not stick
  }
  return id;
}

Profile::NameId Profile::frame_name_id(const RawFrame& frame) {
  switch (frame.kind) {
    case FrameKind::java:
      return method_name_id(frame.method, false);
    case FrameKind::java_inlined:
      return method_name_id(frame.method, true);
    case FrameKind::jmethod: {
      auto found = _jmethod_name_ids.find(frame.jmethod);
      if (found != _jmethod_name_ids.end()) {
        return found->second;
      }
      NameId id = intern(_jmethod_namer != nullptr ? _jmethod_namer(frame.jmethod) : "[jmethodID]");
      _jmethod_name_ids.emplace(frame.jmethod, id);
      return id;
    }
    case FrameKind::walk_cut:
      return intern("[walk cut: error " + std::to_string(frame.error) + "]");
    case FrameKind::frames_in_heap:
      return intern("[frames frozen in the heap]");
    case FrameKind::non_java:
      break;
  }
  return intern(native_name(frame.pc));
}

size_t Profile::StackHash::operator()(const Stack& stack) const noexcept {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a over the ids
  for (NameId id : stack) {
    hash = (hash ^ id) * 1099511628211ull;
  }
  return (size_t)hash;
}

// frames are callee first; stacks are kept root first.
void Profile::fold(const RawFrame* frames, int count, int64_t weight) {
  _folding.clear();
  for (int i = count - 1; i >= 0; i--) {
    _folding.push_back(frame_name_id(frames[i]));
  }
  auto found = _stacks.find(_folding);
  if (found != _stacks.end()) {
    found->second += weight;
  } else {
    _stacks.emplace(_folding, weight);
  }
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
  _ring.drain_all([this](RawSample& s) { fold(s.frames, s.count, s.weight); });
  // Their handles may name other methods from now on; the names stay.
  for (int i = 0; i < count; i++) {
    _method_name_ids[0].erase(methods[i]);
    _method_name_ids[1].erase(methods[i]);
  }
}

void Profile::write_collapsed(std::FILE* out) {
  std::lock_guard<std::mutex> guard(_lock);
  // In the order of the names, frame by frame (the stacks' own is the hash's).
  std::vector<const std::pair<const Stack, int64_t>*> sorted;
  sorted.reserve(_stacks.size());
  for (const auto& entry : _stacks) {
    sorted.push_back(&entry);
  }
  std::sort(sorted.begin(), sorted.end(), [this](const auto* a, const auto* b) {
    return std::lexicographical_compare(a->first.begin(), a->first.end(), b->first.begin(), b->first.end(),
                                        [this](NameId x, NameId y) { return name(x) < name(y); });
  });
  for (const auto* entry : sorted) {
    for (size_t i = 0; i < entry->first.size(); i++) {
      std::fprintf(out, "%s%s", i == 0 ? "" : ";", name(entry->first[i]).c_str());
    }
    std::fprintf(out, " %lld\n", (long long)entry->second);
  }
}

std::string Profile::top_frames(int n) {
  std::lock_guard<std::mutex> guard(_lock);
  std::map<std::string, int64_t> self;
  for (const auto& [stack, count] : _stacks) {
    if (!stack.empty()) {
      self[name(stack.back())] += count;
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
