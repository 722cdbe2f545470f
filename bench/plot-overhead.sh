#!/usr/bin/env bash
# Draws the overhead benchmark's medians (overhead.tsv of
# bench/run-overhead-benchmark.sh) as one self-contained SVG: a row per
# workload, wall-time and CPU-time overhead side by side, bars per profiler
# mode grouped by sampling interval, the stock JDK apart. Plain awk, so it
# needs nothing beyond the build environment's base system.
# Usage: bench/plot-overhead.sh [TSV [SVG]]   (default: the workspace's bench/overhead/)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
  . "$repo/make/asgst/lib.sh"
  load_config
fi
tsv=${1:-$ASGST_WORKSPACE/bench/overhead/overhead.tsv}
svg=${2:-${tsv%.tsv}.svg}
[ -f "$tsv" ] || { echo "no $tsv: run bench/run-overhead-benchmark.sh first" >&2; exit 1; }

program=$(cat <<'AWK'
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); return s }
function label(i) {  # 10ms -> 10 ms, 100us -> 0.1 ms
  if (i ~ /us$/) return (i + 0) / 1000 " ms"
  if (i ~ /ms$/) return (i + 0) " ms"
  return i
}
function y(v) { return top + ph * (hi - v) / (hi - lo) }
function floor(v) { return v == int(v) || v > 0 ? int(v) : int(v) - 1 }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
  w = $col["workload"]; m = $col["mode"]; iv = $col["interval"]
  if (!(w in seen)) { seen[w] = 1; works[++nworks] = w }
  if (m == "none") next
  if (m != "stock" && !(iv in ivseen)) { ivseen[iv] = 1; ivs[++nivs] = iv }
  key = w SUBSEP m SUBSEP iv
  wall[key] = $col["wall_pct"]; cpu[key] = $col["cpu_pct"]; name[key] = $col["configuration"]
  runs = $col["runs"]
  if (m == "stock") stockname[w] = $col["configuration"]
}
END {
  nmodes = split("cpu queue wall agct jfr jfrcpu", modes, " ")
  split("#1f77b4 #2ca02c #ff7f0e #9467bd #d62728 #8c564b", colors, " ")
  split("asgstprof cpu|asgstprof queue|asgstprof wall|asgstprof agct (AsyncGetCallTrace)|JFR jdk.ExecutionSample|JFR jdk.CPUTimeSample", names, "|")
  bar = 13; gap = 14; left = 56; ph = 190; rowh = ph + 70
  groupw = nmodes * bar + gap
  pw = bar + 2 * gap + nivs * groupw + 10
  width = 2 * (left + pw) + 20
  names[nmodes + 1] = "stock OpenJDK 25, no profiler"; colors[nmodes + 1] = "#999"
  x = 10; ly = 30  # the legend, wrapped to the width
  for (k = 1; k <= nmodes + 1; k++) {
    w = 24 + 6.2 * length(names[k])
    if (x > 10 && x + w > width) { x = 10; ly += 16 }
    legend = legend sprintf("<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n", x, ly, colors[k], x + 14, ly + 9, names[k])
    x += w
  }
  head = ly + 32; height = head + nworks * rowh
  printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" ", width, height, width, height
  print "font-family=\"sans-serif\" font-size=\"11\">"
  print "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
  printf "<text x=\"10\" y=\"18\" font-size=\"14\" font-weight=\"bold\">Whole-program overhead against this image without a profiler (median of %s runs)</text>\n", runs
  printf "%s", legend
  for (r = 1; r <= nworks; r++) {
    w = works[r]
    lo = -1; hi = 1  # one scale for the row's two panels
    for (key in wall) {
      split(key, part, SUBSEP)
      if (part[1] != w) continue
      if (wall[key] + 0 < lo) lo = wall[key] + 0
      if (cpu[key] + 0 < lo) lo = cpu[key] + 0
      if (wall[key] + 0 > hi) hi = wall[key] + 0
      if (cpu[key] + 0 > hi) hi = cpu[key] + 0
    }
    raw = (hi - lo) / 5; mag = 1  # about five grid lines at 1, 2 or 5 times a power of ten
    while (mag * 10 <= raw) mag *= 10
    while (mag > raw) mag /= 10
    step = mag
    if (step < raw) step = 2 * mag
    if (step < raw) step = 5 * mag
    if (step < raw) step = 10 * mag
    lo = step * floor(lo / step); hi = -step * floor(-hi / step)
    top = head + (r - 1) * rowh + 24
    for (p = 0; p < 2; p++) {
      x0 = 10 + p * (left + pw + 10) + left
      printf "<text x=\"%d\" y=\"%d\" font-size=\"12\" font-weight=\"bold\">%s: %s time</text>\n", x0, top - 8, esc(w), p ? "CPU" : "wall"
      for (t = 0; lo + t * step <= hi + step / 2; t++) {
        v = lo + t * step
        if (v * v < step * step / 1e6) v = 0
        printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>", x0, x0 + pw, y(v), y(v), v == 0 ? "#333" : "#ddd"
        printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g%%</text>\n", x0 - 4, y(v) + 4, v
      }
      gx = x0 + gap
      key = w SUBSEP "stock" SUBSEP "-"
      if (key in wall) {
        v = p ? cpu[key] : wall[key]
        printf "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"#999\"><title>%s: %s%%</title></rect>\n", gx, (v > 0 ? y(v) : y(0)), bar, (v > 0 ? y(0) - y(v) : y(v) - y(0)), esc(name[key]), v
        printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">stock</text>\n", gx + bar / 2, top + ph + 16
      }
      gx += bar + gap
      for (i = 1; i <= nivs; i++) {
        for (k = 1; k <= nmodes; k++) {
          key = w SUBSEP modes[k] SUBSEP ivs[i]
          if (!(key in wall)) continue
          v = p ? cpu[key] : wall[key]
          bx = gx + (k - 1) * bar
          printf "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s: %s%%</title></rect>\n", bx, (v > 0 ? y(v) : y(0)), bar - 1, (v > 0 ? y(0) - y(v) : y(v) - y(0)), colors[k], esc(name[key]), v
        }
        printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", gx + nmodes * bar / 2, top + ph + 16, label(ivs[i])
        gx += groupw
      }
    }
  }
  print "</svg>"
}
AWK
)
awk -F'\t' "$program" "$tsv" > "$svg"
echo "plot: $svg"
