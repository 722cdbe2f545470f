#!/usr/bin/env bash
# Combines several runs of bench/run-signal-walk-benchmark.sh (their outputs as
# files) into one table: per chain, depth and walk, the median over the runs of
# each run's median ns per walk, with the lowest and highest run, failed walks
# summed over the runs, and the median over the runs of the ratio to
# AsyncGetCallTrace (each run's ratio comes from the same run), with the
# lowest and highest run's ratio.
# Usage: bench/summarize-walk-runs.sh RUN-OUTPUT...
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 RUN-OUTPUT..." >&2; exit 2; }
awk '
  function median(list,    n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return a[int((n + 1) / 2)]
  }
  function extreme(list, want_max,    n, a, i, m) {
    n = split(list, a, " "); m = a[1]
    for (i = 2; i <= n; i++) if ((want_max && a[i] + 0 > m + 0) || (!want_max && a[i] + 0 < m + 0)) m = a[i]
    return m
  }
  $1 == "chain" || $1 == "WARNING:" || $1 == "#" || NF < 9 { next }
  {
    # chain depth walk... frames ns p25-p75 failed ns/frame ratio; the walk name has spaces
    walk = $3; for (i = 4; i <= NF - 6; i++) walk = walk " " $i
    key = $1 SUBSEP $2 SUBSEP walk
    if (!(key in frames)) order[++keys] = key
    frames[key] = $(NF - 5); ns[key] = ns[key] " " $(NF - 4); failed[key] += $(NF - 2); ratio[key] = ratio[key] " " $NF
    runs[key]++
  }
  END {
    printf "%-14s %6s %-25s %7s %8s %17s %7s %9s %8s %10s\n", "chain", "depth", "walk", "frames", "ns/walk", "runs min-max",
           "failed", "ns/frame", "vs AGCT", "min-max"
    for (k = 1; k <= keys; k++) {
      key = order[k]; split(key, part, SUBSEP)
      m = median(ns[key])
      printf "%-14s %6d %-25s %7d %8d %17s %7d %9.1f %8.2f %10s\n", part[1], part[2], part[3], frames[key], m,
             extreme(ns[key], 0) "-" extreme(ns[key], 1), failed[key], (frames[key] > 0 ? m / frames[key] : 0),
             median(ratio[key]), extreme(ratio[key], 0) "-" extreme(ratio[key], 1)
    }
  }' "$@"
