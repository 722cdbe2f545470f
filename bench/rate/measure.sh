#!/usr/bin/env bash
# The measuring half of bench/run-rate-overhead-benchmark.sh, run inside the
# build environment. Writes OUT/rate-runs.tsv (every run) and prints one
# Markdown table per workload (also OUT/rate-WORKLOAD.md; with DURATION a
# second one per kernel, OUT/rate-WORKLOAD--after-warm-up.md).
# Usage: measure.sh IMAGE AGENT OUT
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
image=$1 agent=$2 out=$3
runs=${RUNS:-5}
workloads=${WORKLOADS:-h2 xalan rhino}
intervals=${INTERVALS:-10ms 1ms 100us}
threads=${THREADS:-2}
duration=${DURATION:-}    # e.g. 4s: the kernels run for a fixed time (bench/overhead/ParallelWork.java)
warm_up=${WARM_UP:-2}     # seconds of a fixed-time run before its rate after warm-up
if [ -n "$duration" ]; then
  awk -v d="${duration%s}" -v w="$warm_up" 'BEGIN { exit !(d ~ /^[0-9]+(\.[0-9]+)?$/ && w ~ /^[0-9]+(\.[0-9]+)?$/ && d + 0 > w + 0) }' &&
    [ "${duration%s}" != "$duration" ] ||
    { echo "DURATION must be seconds as 4s, more than WARM_UP ($warm_up): $duration" >&2; exit 2; }
fi
classes="$out/classes"
. "$repo/bench/overhead/workloads.sh"

compile_workloads "$image" "$classes"
TIMEFORMAT='%R %U %S'
printf 'workload\tconfiguration\tinterval\trun\texit\twall_s\tcpu_s\tsamples\tnote\toutside_s\n' > "$out/rate-runs.tsv"

# The configurations: name|interval|kind|agent options. The profiler's perf
# engine keeps the interval; JFR's execution sampler takes 1 ms at least.
configs=("no profiler|-|none|")
for interval in $intervals; do
  configs+=("asgstprof signal|$interval|asgst|mode=signal,engine=perf,interval=$interval"
            "asgstprof cpu|$interval|asgst|mode=cpu,engine=perf,interval=$interval"
            "asgstprof cpu, marks|$interval|asgst|mode=cpu,engine=perf,marks=true,interval=$interval"
            "asgstprof queue|$interval|asgst|mode=queue,engine=perf,interval=$interval"
            "asgstprof agct|$interval|asgst|mode=agct,engine=perf,interval=$interval"
            "JFR CPUTimeSample|$interval|jfrcpu|")
  case $interval in *us) ;; *) configs+=("JFR ExecutionSample|$interval|jfr|") ;; esac
  # BASELINE_IMAGE: another build of the VM (before a change), in the same rounds.
  [ -z "${BASELINE_IMAGE:-}" ] ||
    configs+=("asgstprof cpu, baseline VM|$interval|asgst-baseline|mode=cpu,engine=perf,interval=$interval"
              "asgstprof queue, baseline VM|$interval|asgst-baseline|mode=queue,engine=perf,interval=$interval")
  # BASELINE_AGENT: another build of the sample profiler (before a change to it).
  [ -z "${BASELINE_AGENT:-}" ] ||
    configs+=("asgstprof cpu, baseline profiler|$interval|asgst-baseline-profiler|mode=cpu,engine=perf,interval=$interval"
              "asgstprof queue, baseline profiler|$interval|asgst-baseline-profiler|mode=queue,engine=perf,interval=$interval")
done

# "name|interval" of each configuration, one per line: the order of the tables' rows.
config_order=$(printf '%s\n' "${configs[@]}" | cut -d'|' -f1,2)

# One run: appends its line to rate-runs.tsv. The note: for marks=true the
# share of their traces' frames that the walks walked (walked=N%); for mode
# queue the share of the signals that found an element still pending
# (pending=N%: only those can merge, and only those find the top frame
# twice when they do not); "timer"
# if the perf engine was refused (the run then does not sample at the
# interval).
run_once() {  # workload run config
  local workload=$1 run=$2 name interval kind options code=0 wall user sys cpu samples=- note=-
  IFS='|' read -r name interval kind options <<< "$3"
  local args=() java="$image/bin/java"
  case $kind in
    asgst) args=(-agentpath:"$agent=$options,file=$out/profile.collapsed") ;;
    asgst-baseline)
      args=(-agentpath:"$agent=$options,file=$out/profile.collapsed") java="$BASELINE_IMAGE/bin/java" ;;
    asgst-baseline-profiler) args=(-agentpath:"$BASELINE_AGENT=$options,file=$out/profile.collapsed") ;;
    jfr) args=(-XX:StartFlightRecording:filename="$out/x.jfr,jdk.ExecutionSample#period=$interval") ;;
    jfrcpu) args=(-XX:StartFlightRecording:filename="$out/x.jfr,jdk.ExecutionSample#enabled=false,jdk.CPUTimeSample#enabled=true,jdk.CPUTimeSample#throttle=$interval") ;;
  esac
  rm -f "$out/x.jfr"
  { time timeout 900 "$java" "${args[@]}" -Djava.awt.headless=true -cp "$cp" $main \
      > "$out/last.out" 2> "$out/last.err"; } 2> "$out/time.txt" || code=$?
  wall=- user=0 sys=0
  read -r wall user sys < <(tail -1 "$out/time.txt") || { code=no-time; wall=-; }  # the shell's time printed nothing
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  case $kind in
    asgst|asgst-baseline|asgst-baseline-profiler)
      samples=$(sed -n 's/^asgstprof: mode [a-z]*, \([0-9]*\) samples.*/\1/p' "$out/last.err")
      # mode=signal keeps no samples: the signals it took.
      [ "$name" != "asgstprof signal" ] ||
        samples=$(sed -n 's/^asgstprof: engine .*(\([0-9]*\) samples in .*/\1/p' "$out/last.err")
      note=$(sed -n -e 's/^asgstprof: marks: .*(\([0-9.]*\)%)$/walked=\1%/p' \
                    -e 's/^asgstprof: queue: .* pending (\([0-9.]*\)%).*/pending=\1%/p' "$out/last.err")
      ! grep -q 'perf_event_open failed' "$out/last.err" || note=timer
      [ -n "$samples" ] || { samples=?; [ "$code" != 0 ] || code=no-report; } ;;
    jfr|jfrcpu)
      local event=jdk.ExecutionSample
      [ "$kind" = jfr ] || event=jdk.CPUTimeSample
      samples=$("$image/bin/jfr" summary "$out/x.jfr" 2>/dev/null | awk -v e="$event" '$1 == e { print $2 }') || true
      [ -n "$samples" ] || { samples=?; [ "$code" != 0 ] || code=no-recording; } ;;
  esac
  if [ -n "$timed" ]; then
    # A run of fixed time: seconds per round stand in for the wall time of a
    # fixed amount of work, so every ratio below means the same.
    # A rate that the run did not measure ("-": no round, or none after the
    # warm-up) fails that line only.
    local all after line_code line_failed=
    read -r all after < <(sed -n 's/^rounds [0-9]* per-second \([0-9.-]*\) after-warm-up \([0-9.-]*\)$/\1 \2/p' \
                            "$out/last.out") || true
    for kind_rate in "$workload:${all:--}" "$workload, after warm-up:${after:--}"; do
      line_code=$code
      [[ "$line_code" != 0 || "${kind_rate##*:}" =~ ^[0-9]+(\.[0-9]+)?$ ]] || line_code=no-rate line_failed=no-rate
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t-\n' "${kind_rate%:*}" "$name" "$interval" "$run" "$line_code" \
          "$(awk -v r="${kind_rate##*:}" 'BEGIN { printf "%.6f", (r > 0 ? 1 / r : 0) }')" "$cpu" "$samples" \
          "${note:--}" >> "$out/rate-runs.tsv"
    done
    code=${line_failed:-$code}
  else
    # The workloads print the milliseconds of their own work last: the rest
    # of the wall time is the VM's (and the profiler's) start and exit.
    local own outside=-
    own=$(tail -n 1 "$out/last.out")
    [[ ! "$own" =~ ^[0-9]+$ || "$wall" = - ]] ||
      outside=$(awk -v w="$wall" -v o="$own" 'BEGIN { printf "%.3f", w - o / 1000 }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$name" "$interval" "$run" "$code" "$wall" "$cpu" \
        "$samples" "${note:--}" "$outside" >> "$out/rate-runs.tsv"
  fi
  if [ "$code" != 0 ]; then
    echo "failed: $workload, $name, $interval, run $run: exit $code" >&2
    tail -5 "$out/last.err" | sed 's/^/    /' >&2
  fi
}

for workload in $workloads; do
  timed=
  case $workload in
    streams|parallel-streams|forkjoin|tree)
      if [ -n "$duration" ]; then
        timed=1 main="ParallelWork $workload $duration $threads $warm_up"
        size="for $duration, rate after $warm_up s of warm-up in its own table; s per round"
      else
        main="ParallelWork $workload $(default_rounds "$workload") $threads"
        size="$(default_rounds "$workload") iterations on each of $threads threads; wall s"
      fi ;;
    *)
      main="RealWork $workload $(default_rounds "$workload") $threads"
      size="$(default_rounds "$workload") iterations on each of $threads threads; wall s" ;;
  esac
  cp=$(workload_class_path "$image" "$classes" "$workload")
  count=${#configs[@]}
  for run in $(seq "$runs"); do
    # Each round runs the configurations in an order of its own, shuffled
    # with the round's number as the seed (the same orders at every run of
    # the benchmark): no configuration always follows the same one.
    for i in $(awk -v seed="$run" -v n="$count" 'BEGIN {
                 srand(seed); for (i = 0; i < n; i++) a[i] = i
                 for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = a[i]; a[i] = a[j]; a[j] = t }
                 for (i = 0; i < n; i++) print a[i] }'); do
      run_once "$workload" "$run" "${configs[$i]}"
    done
  done
  names=("$workload")
  [ -z "$timed" ] || names+=("$workload, after warm-up")
  for w in "${names[@]}"; do
  awk -F'\t' -v w="$w" -v runs="$runs" -v size="$size" -v timed="$timed" -v config_order="$config_order" '
    # The table lists the configurations in the order of configs, whatever
    # order the rounds ran them in.
    BEGIN { n = split(config_order, co, "\n"); for (i = 1; i <= n; i++) { split(co[i], p, "|"); rank[p[1] SUBSEP p[2]] = i } }
    function sorted(list, a,    n, i, j, t) {
      n = split(list, a, " ")
      for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
      return n
    }
    function med(list,    a, n) { n = sorted(list, a); return n ? a[int((n + 1) / 2)] : "n/a" }
    function range(list,    a, n) { n = sorted(list, a); return n ? sprintf("%s (%s-%s)", a[int((n + 1) / 2)], a[1], a[n]) : "n/a" }
    # How far the per-round values of list tell their median from a goal:
    # the rounds below it, and the interval between the order statistics k
    # and n + 1 - k that holds the median with at least 95% probability (as
    # a sign test counts: the rounds fall on either side of the true median
    # like coin tosses); with fewer than 6 rounds no such interval exists.
    # undecided: what the line says when the interval holds the goal.
    function against(list, goal, undecided,    a, n, i, below, k, c, cum, best, conf, text) {
      n = sorted(list, a); below = 0
      for (i = 1; i <= n; i++) if (a[i] + 0 < goal) below++
      text = sprintf("; below %s in %d of %d rounds", goal, below, n)
      best = 0; c = 1; cum = 0
      for (k = 1; k <= int(n / 2); k++) {
        cum += c / 2 ^ n  # P(X <= k - 1), X ~ Binomial(n, 1/2); c = C(n, k - 1)
        if (1 - 2 * cum < 0.95) break
        best = k; conf = 1 - 2 * cum
        c = c * (n - k + 1) / k
      }
      if (best == 0) return text "; too few rounds for an interval of the median"
      text = text sprintf("; the median lies in %s-%s (%d%% confidence)", a[best], a[n + 1 - best], int(conf * 100))
      return text (a[best] + 0 <= goal && a[n + 1 - best] + 0 >= goal ? ", which holds " goal ": " undecided : "")
    }
    NR > 1 && $1 == w && $5 == 0 {
      key = $2 SUBSEP $3
      if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
      wall[key] = wall[key] " " $6; w_of[key, $4] = $6
      if ($8 != "-") rate[key] = rate[key] " " sprintf("%.0f", $8 / $7)
      if ($9 ~ /^walked=/) { v = substr($9, 8); sub(/%/, "", v); walked[key] = walked[key] " " v }
      if ($9 ~ /^pending=/) { v = substr($9, 9); sub(/%/, "", v); pending[key] = pending[key] " " v }
      if ($9 == "timer") timer[key]++
      if ($2 == "no profiler") { base[$4] = $6; base_cpu[$4] = $7 }
      cpu_of[key, $4] = $7; samples_of[key, $4] = $8
      if ($10 != "-" && $10 != "") outside[key] = outside[key] " " $10
      if ($2 == "asgstprof agct") agct[$3, $4] = $6
      if ($2 == "asgstprof cpu") { cpu_mode[$3, $4] = $6; cpu_mode_key[$3] = key }
      if ($2 == "asgstprof queue") { queue_mode[$3, $4] = $6; queue_mode_key[$3] = key }
      if ($2 == "asgstprof cpu, baseline VM") cpu_base[$3, $4] = $6
      if ($2 == "asgstprof queue, baseline VM") queue_base[$3, $4] = $6
      if ($2 == "asgstprof cpu, baseline profiler") cpu_prof_key[$3] = key
      if ($2 == "asgstprof queue, baseline profiler") queue_prof_key[$3] = key
      intervals_seen[$3] = 1
      rounds_of[key] = rounds_of[key] " " $4
    }
    # What a sample costs in CPU time: the run'"'"'s CPU time (all its threads)
    # above that of the round'"'"'s run without a profiler, over its samples, in
    # us. Only for a fixed amount of work: a run of fixed time takes as much
    # CPU time whatever it does.
    function per_sample(key, round) {
      if (timed != "" || !(round in base_cpu) || samples_of[key, round] !~ /^[0-9]+$/ || samples_of[key, round] == 0)
        return ""
      return sprintf(" %.1f", (cpu_of[key, round] - base_cpu[round]) * 1e6 / samples_of[key, round])
    }
    END {
      for (i = 2; i <= keys; i++)
        for (j = i; j > 1 && rank[order[j - 1]] > rank[order[j]]; j--) { t = order[j]; order[j] = order[j - 1]; order[j - 1] = t }
      unit = size; sub(/.*; /, "", unit)
      printf "%s (%s), %d rounds:\n\n", w, size, runs
      print "| configuration | interval | " unit " median (low-high) | vs no profiler, per round | vs agct, per round | samples per CPU-s | CPU us per sample above no profiler | s of the wall time outside the workload'"'"'s own clock | note |"
      print "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
      for (k = 1; k <= keys; k++) {
        key = order[k]; split(key, p, SUBSEP)
        n = split(rounds_of[key], rs, " "); vb = ""; va = ""; us = ""
        for (i = 1; i <= n; i++) {
          if (rs[i] in base) vb = vb " " sprintf("%.3f", w_of[key, rs[i]] / base[rs[i]])
          if ((p[2], rs[i]) in agct) va = va " " sprintf("%.3f", w_of[key, rs[i]] / agct[p[2], rs[i]])
          us = us per_sample(key, rs[i])
        }
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", p[1], p[2], range(wall[key]), range(vb),
               (p[1] ~ /^asgstprof/ ? med(va) : "-"), (rate[key] == "" ? "-" : med(rate[key])),
               (us == "" ? "-" : range(us)), (outside[key] == "" ? "-" : range(outside[key])),
               (walked[key] != "" ? "walked " med(walked[key]) "% of the frames" : "") \
               (pending[key] != "" ? "an element pending at " med(pending[key]) "% of the signals" : "") \
               (key in timer ? timer[key] " runs without perf_events" : "")
      }
      print ""
      # The goals of doc/performance.md, from the same rounds. Throughput
      # kept: no profiler'"'"'s wall time (or seconds per round) over the
      # configuration'"'"'s, median of the rounds.
      print "Goals (median of the rounds, lowest-highest):"
      print ""
      for (k = 1; k <= keys; k++) {
        key = order[k]; split(key, p, SUBSEP)
        if (p[2] != "100us" || p[1] !~ /^asgstprof/ || p[1] == "asgstprof agct" || p[1] ~ /baseline/) continue
        n = split(rounds_of[key], rs, " "); kept = ""
        for (i = 1; i <= n; i++) if (rs[i] in base) kept = kept " " sprintf("%.2f", base[rs[i]] / w_of[key, rs[i]])
        printf "- %s at 100us keeps %s of the throughput: %s\n", p[1], range(kept),
               (kept == "" ? "not measured" : (med(kept) >= 0.75 ? "met (at least 0.75)" : "not met (at least 0.75)") \
                 against(kept, 0.75, "the rounds cannot tell the median from the goal"))
      }
      for (interval in intervals_seen) {
        if (interval == "-") continue
        qc = ""
        for (r = 1; r <= runs; r++)
          if (((interval, r) in queue_mode) && ((interval, r) in cpu_mode))
            qc = qc " " sprintf("%.3f", queue_mode[interval, r] / cpu_mode[interval, r])
        printf "- queue vs cpu at %s, wall time: %s: %s\n", interval, range(qc),
               (qc == "" ? "not measured" : (med(qc) <= 1 ? "met (median at most 1)" : "not met (median above 1)") against(qc, 1, "the rounds cannot tell the modes apart"))
        # The same by CPU time per sample, round by round (fixed work only; at
        # 0.1 ms only, as the goal: at longer intervals the few samples cost
        # less CPU time than runs differ by).
        qs = ""
        for (r = 1; interval == "100us" && r <= runs; r++) {
          q = per_sample(queue_mode_key[interval], r); c = per_sample(cpu_mode_key[interval], r)
          if (q != "" && c != "" && c + 0 > 0) qs = qs " " sprintf("%.3f", q / c)
        }
        if (qs != "")
          printf "- queue vs cpu at %s, CPU time per sample above no profiler: %s: %s\n", interval, range(qs),
                 (med(qs) <= 1 ? "met (median at most 1)" : "not met (median above 1)") against(qs, 1, "the rounds cannot tell the modes apart")
        # BASELINE_IMAGE: the same comparisons on the other VM, and each mode against itself there.
        qcb = ""; qq = ""; cc = ""
        for (r = 1; r <= runs; r++) {
          if (((interval, r) in queue_base) && ((interval, r) in cpu_base))
            qcb = qcb " " sprintf("%.3f", queue_base[interval, r] / cpu_base[interval, r])
          if (((interval, r) in queue_mode) && ((interval, r) in queue_base))
            qq = qq " " sprintf("%.3f", queue_mode[interval, r] / queue_base[interval, r])
          if (((interval, r) in cpu_mode) && ((interval, r) in cpu_base))
            cc = cc " " sprintf("%.3f", cpu_mode[interval, r] / cpu_base[interval, r])
        }
        if (qcb != "") {
          printf "- on the baseline VM, queue vs cpu at %s, wall time: %s\n", interval, range(qcb)
          printf "- queue vs queue on the baseline VM at %s, wall time: %s\n", interval, range(qq)
          printf "- cpu vs cpu on the baseline VM at %s, wall time: %s\n", interval, range(cc)
        }
        # BASELINE_AGENT: each mode against the other build of the profiler
        # (this build over the other: below 1 is better), by wall time and (fixed
        # work, at 0.1 ms as above) by CPU time per sample above no profiler.
        for (m = 1; m <= 2; m++) {
          mode = m == 1 ? "cpu" : "queue"
          now_key = m == 1 ? cpu_mode_key[interval] : queue_mode_key[interval]
          then_key = m == 1 ? cpu_prof_key[interval] : queue_prof_key[interval]
          if (then_key == "") continue
          pw = ""; ps = ""
          for (r = 1; r <= runs; r++) {
            if (((now_key, r) in w_of) && ((then_key, r) in w_of) && w_of[then_key, r] + 0 > 0)
              pw = pw " " sprintf("%.3f", w_of[now_key, r] / w_of[then_key, r])
            q = per_sample(now_key, r); c = per_sample(then_key, r)
            if (interval == "100us" && q != "" && c != "" && c + 0 > 0) ps = ps " " sprintf("%.3f", q / c)
          }
          printf "- %s, this profiler vs the baseline profiler at %s, wall time: %s", mode, interval, range(pw)
          printf "%s\n", (ps == "" ? "" : sprintf("; CPU time per sample above no profiler: %s", range(ps)))
        }
      }
      print ""
    }' "$out/rate-runs.tsv" | tee "$out/rate-${w//[ ,]/-}.md"
  done
done
rm -f "$out/x.jfr" "$out/profile.collapsed" "$out/last.out" "$out/last.err" "$out/time.txt"
if awk -F'\t' 'NR > 1 && $5 != 0 { bad = 1 } END { exit !bad }' "$out/rate-runs.tsv"; then
  echo "some runs failed: see $out/rate-runs.tsv" >&2
  exit 1
fi
