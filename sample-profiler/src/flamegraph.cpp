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

// A self-contained HTML flame graph: the folded stacks as a JSON tree and a
// few lines of script that lay it out as nested blocks, widths proportional
// to samples. Click a block to zoom in, click the root to zoom out.

#include "profile.hpp"

#include <cstdio>
#include <map>
#include <string>

namespace asgstprof {

namespace {

struct Node {
  int64_t value = 0;
  std::map<std::string, Node> children;
};

void write_json_string(std::FILE* out, const std::string& s) {
  std::fputc('"', out);
  for (char c : s) {
    switch (c) {
      case '"':  std::fputs("\\\"", out); break;
      case '\\': std::fputs("\\\\", out); break;
      case '<':  std::fputs("\\u003c", out); break;
      case '>':  std::fputs("\\u003e", out); break;
      case '&':  std::fputs("\\u0026", out); break;
      default:
        if ((unsigned char)c < 0x20) {
          std::fprintf(out, "\\u%04x", (unsigned char)c);
        } else {
          std::fputc(c, out);
        }
    }
  }
  std::fputc('"', out);
}

void write_node(std::FILE* out, const std::string& name, const Node& node) {
  std::fputs("{\"n\":", out);
  write_json_string(out, name);
  std::fprintf(out, ",\"v\":%lld,\"c\":[", (long long)node.value);
  bool first = true;
  for (const auto& [child_name, child] : node.children) {
    if (!first) std::fputc(',', out);
    first = false;
    write_node(out, child_name, child);
  }
  std::fputs("]}", out);
}

const char* page_start = R"(<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title>
<style>
body { font: 12px sans-serif; margin: 8px; }
#graph { position: relative; width: 100%%; }
.b { position: absolute; height: 17px; overflow: hidden; white-space: nowrap; box-sizing: border-box;
     border: 1px solid #fff; border-radius: 2px; padding-left: 3px; line-height: 15px; cursor: pointer; }
#info { height: 18px; margin: 6px 0; }
</style></head><body>
<h3>%s</h3><div id="info">Click a frame to zoom in, the bottom frame to zoom out.</div><div id="graph"></div>
<script>
const root = )";

const char* page_end = R"(;
const graph = document.getElementById('graph'), info = document.getElementById('info');
function depth(n) { return 1 + n.c.reduce((d, c) => Math.max(d, depth(c)), 0); }
function color(name) {
  if (name.startsWith('[native]')) return 'hsl(0,60%,70%)';
  if (name.endsWith('_[i]')) return 'hsl(190,55%,70%)';
  let h = 0; for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return 'hsl(' + (20 + h % 40) + ',85%,' + (55 + h % 15) + '%)';
}
function draw(focus) {
  graph.innerHTML = '';
  const levels = depth(root);
  graph.style.height = (levels * 18) + 'px';
  const place = (n, x, w, level) => {
    if (w < 0.05) return;
    const d = document.createElement('div');
    d.className = 'b';
    d.style.left = x + '%'; d.style.width = w + '%';
    d.style.bottom = (level * 18) + 'px';
    d.style.background = color(n.n);
    d.textContent = n.n;
    d.title = n.n + ' (' + n.v + ' samples, ' + (100 * n.v / root.v).toFixed(2) + '%)';
    d.onclick = () => draw(n === focus ? root : n);
    d.onmouseover = () => info.textContent = d.title;
    graph.appendChild(d);
    let cx = x;
    for (const c of n.c) { const cw = w * c.v / n.v; place(c, cx, cw, level + 1); cx += cw; }
  };
  const path = [];
  const find = (n) => { path.push(n); if (n === focus) return true;
    for (const c of n.c) if (find(c)) return true; path.pop(); return false; };
  find(root);
  path.forEach((n, i) => { if (n !== focus) place({n: n.n, v: n.v, c: []}, 0, 100, i); });
  place(focus, 0, 100, path.length - 1);
}
draw(root);
</script></body></html>
)";

}  // namespace

void Profile::write_html(std::FILE* out, const std::string& title) {
  std::lock_guard<std::mutex> guard(_lock);
  Node root;
  for (const auto& [stack, count] : _stacks) {
    Node* node = &root;
    node->value += count;
    for (NameId frame : stack) {
      node = &node->children[name(frame)];
      node->value += count;
    }
  }
  std::string safe_title;
  for (char c : title) {
    safe_title += (c == '<' || c == '>' || c == '&') ? '_' : c;
  }
  std::fprintf(out, page_start, safe_title.c_str(), safe_title.c_str());
  write_node(out, "all", root);
  std::fputs(page_end, out);
}

}  // namespace asgstprof
