#!/usr/bin/env bash
# Where a high-rate profiler's samples cost: runs each workload once per mode
# of the sample profiler (perf engine, one interval) under `perf record -g`
# of the whole process (kernel and user), with HotSpot's logs of safepoints,
# handshakes and compilations, and prints per workload one table: the wall
# time, the samples taken, the share of all CPU samples by category
# (bench/profile/sample-cost.awk; compiled code and the VM's stubs named by
# the VM's perf map), and the counts of safepoints, handshakes and
# compilations. Mode signal is the floor: its handler returns at once.
# Usage: bench/run-sample-cost-breakdown.sh   (from the repository root)
#   WORKLOADS="streams parallel-streams forkjoin"   (bench/overhead/, as the rate benchmark:
#                   the kernels and tree, or the real programs h2, xalan and rhino)
#   MODES="none signal cpu queue agct"              none: without a profiler
#   INTERVAL=100us   THREADS=2   PERF_FREQUENCY=999
#   DURATION=4s     the kernels run for a fixed time (and print rounds per second)
#                   instead of their default rounds (some last under half a second)
#   IMAGE=DIR       another image (in the workspace) instead of the build's
#   LEAVES=CATEGORY e.g. "poll: safepoints, handshakes": after each table, the
#                   functions whose own time makes up that category, per mode
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/make/asgst/lib.sh"
load_config
image="${IMAGE:-$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk}"
out="$ASGST_WORKSPACE/bench/cost"
mkdir -p "$out"
"$repo/make/asgst/build-sample-profiler.sh" "$image" "$out/profiler" >&2
ASGST_ENV_RO_BIND=/sys WORKLOADS="${WORKLOADS:-streams parallel-streams forkjoin}" \
  MODES="${MODES:-none signal cpu queue agct}" INTERVAL="${INTERVAL:-100us}" THREADS="${THREADS:-2}" \
  PERF_FREQUENCY="${PERF_FREQUENCY:-999}" LEAVES="${LEAVES:-}" DURATION="${DURATION:-}" \
  "$repo/make/asgst/in-env" bash -c '
    set -euo pipefail
    repo=$1 image=$2 agent=$3 out=$4
    . "$repo/bench/overhead/workloads.sh"
    compile_workloads "$image" "$out/classes"
    for workload in $WORKLOADS; do
      case $workload in
        streams|parallel-streams|forkjoin|tree) main=ParallelWork size=${DURATION:-$(default_rounds "$workload")} ;;
        *) main=RealWork size=$(default_rounds "$workload") ;;
      esac
      cp=$(workload_class_path "$image" "$out/classes" "$workload")
      printf "%s, interval %s, %s threads:\n\n" "$workload" "$INTERVAL" "$THREADS"
      printf "| mode | run s, or rounds per s for a DURATION (its own clock) | samples | CPU samples: categories (share of all) | safepoints | handshakes | compilations |\n"
      printf "| --- | --- | --- | --- | --- | --- | --- |\n"
      leaf_lines=()
      for mode in $MODES; do
        args=()
        [ "$mode" = none ] || args=(-agentpath:"$agent=mode=$mode,engine=perf,interval=$INTERVAL,file=$out/profile.collapsed")
        rm -f "$out/vm.log"
        perf record -q -e cpu-clock -F "$PERF_FREQUENCY" -g -o "$out/perf.data" -- \
          "$image/bin/java" "${args[@]}" -Xlog:safepoint=info,handshake=info,jit+compilation=debug:file="$out/vm.log" \
          -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit \
          -Djava.awt.headless=true -cp "$cp" $main "$workload" "$size" "$THREADS" \
          > "$out/run.out" 2> "$out/run.err"
        # The time that the program measured itself (perf record ends on a
        # poll of its own, which rounds the wall time of the whole command).
        # ms, or for a fixed time "rounds N per-second R after-warm-up A".
        wall=$(awk "END { if (NR == 0) exit 1; if (\$1 == \"rounds\") printf \"%s\", \$4; else printf \"%.2f\", \$1 / 1000 }" \
               "$out/run.out") ||
          { echo "$workload, $mode: the program printed no time" >&2; tail -5 "$out/run.err" >&2; exit 1; }
        samples=$(sed -n "s/^asgstprof: engine .*(\([0-9]*\) samples in .*/\1/p" "$out/run.err")
        shares=$(perf script -i "$out/perf.data" -F comm,ip,sym 2>/dev/null |
                 awk -v leaves="$LEAVES" -f "$repo/bench/profile/sample-cost.awk")
        categories=$(sed -n 1p <<< "$shares")
        [ -z "$LEAVES" ] || leaf_lines+=("- $mode: $(sed -n 2p <<< "$shares")")
        rm -f /tmp/perf-*.map  # the perf map that the VM wrote at exit
        safepoints=$(grep -c "Safepoint \"" "$out/vm.log" || true)
        handshakes=$(grep -c "Handshake \"" "$out/vm.log" || true)
        compilations=$(grep -c "jit,compilation" "$out/vm.log" || true)
        printf "| %s | %s | %s | %s | %s | %s | %s |\n" "$mode" "$wall" "${samples:--}" "$categories" \
          "$safepoints" "$handshakes" "$compilations"
      done
      printf "\n"
      [ -z "$LEAVES" ] || printf "%s\n" "${leaf_lines[@]}" ""
    done
    rm -f "$out/perf.data" "$out/profile.collapsed"
  ' _ "$repo" "$image" "$out/profiler/build/libasgstprof.so" "$out"
