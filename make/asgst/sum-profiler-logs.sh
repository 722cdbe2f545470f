#!/usr/bin/env bash
# Sums the sample profiler's summaries in the logs that its log= option wrote,
# one per JVM (make/asgst/run-upstream-tests.sh), and prints:
#   samples: S in J JVMs, F failed walks, L lost
#   signals: N in C CPU-seconds of the sampled threads (R per CPU-second)
#   rounds: N in W s (mode wall)
#   JVMs without a summary: K of N logs (ended without VMDeath: killed, crashed or
#   halted; an empty log counts too; a log that two JVMs with the same pid wrote
#   counts once per summary in it)
#   JVMs that fell back to another mode: M
# Usage: sum-profiler-logs.sh LOG...
set -euo pipefail

# awk reads no line of an empty log, so those are counted here.
empty=0
for log in "$@"; do
  [ -s "$log" ] || empty=$((empty + 1))
done

awk -v empty_logs="$empty" '
  FNR == 1 { logs++; if (NR > 1 && !summary) unsummarized++; summary = 0 }
  # asgstprof: mode cpu, 16503 samples, 0 lost, 67 failed walks, written to F
  /^asgstprof: mode [a-z]+, [0-9]+ samples, / {
    summary = 1; jvms++
    samples += $4; lost += $6; failed += $8
  }
  # ... (17247 samples in 1.844 CPU-seconds of the sampled threads)
  /^asgstprof: engine .* samples in [0-9.]+ CPU-seconds/ {
    match($0, /\(([0-9]+) samples in ([0-9.]+) CPU-seconds/)
    split(substr($0, RSTART + 1, RLENGTH - 1), part, " ")
    signals += part[1]; cpu += part[4]
  }
  # ... (812 rounds in 1.002 s; a round samples each thread once)
  /^asgstprof: engine wall sampler/ {
    match($0, /\(([0-9]+) rounds in ([0-9.]+) s/)
    split(substr($0, RSTART + 1, RLENGTH - 1), part, " ")
    rounds += part[1]; wall += part[4]
  }
  /^asgstprof: .*; using (mode=|AsyncGetCallTrace)/ { fell_back++ }
  END {
    if (logs > 0 && !summary) unsummarized++
    unsummarized += empty_logs; logs += empty_logs
    printf "samples: %d in %d JVMs, %d failed walks, %d lost\n", samples, jvms, failed, lost
    printf "signals: %d in %.1f CPU-seconds of the sampled threads (%.0f per CPU-second)\n",
           signals, cpu, (cpu > 0 ? signals / cpu : 0)
    if (rounds > 0) printf "rounds: %d in %.1f s\n", rounds, wall
    printf "JVMs without a summary: %d of %d logs, %d of them empty (ended without VMDeath: killed, crashed or halted)\n",
           unsummarized, logs, empty_logs
    printf "JVMs that fell back to another mode: %d\n", fell_back
  }' /dev/null "$@"
