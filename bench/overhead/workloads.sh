# The whole-program workloads, for the benchmarks that run them (sourced by
# bench/overhead/measure.sh, bench/unused/measure.sh, bench/rate/measure.sh
# and bench/run-sample-cost-breakdown.sh): their sources, sizes and class paths.

workloads_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# Compiles the workloads' main classes, and any further sources given, with
# IMAGE's javac into CLASSES.
# Usage: compile_workloads IMAGE CLASSES [SOURCE...]
compile_workloads() {
  local image=$1 classes=$2
  shift 2
  mkdir -p "$classes"
  "$image/bin/javac" -d "$classes" "$workloads_repo/bench/overhead/Work.java" \
    "$workloads_repo/bench/overhead/RealWork.java" "$workloads_repo/bench/overhead/ParallelWork.java" \
    "$workloads_repo/sample-profiler/demo/Workload.java" \
    "$workloads_repo/test/hotspot/jtreg/serviceability/asgst/stress/StressWorkloads.java" "$@"
}

# The class path that runs WORKLOAD: CLASSES (compile_workloads), and for a
# real program (h2, xalan, ...) its jars, which RealWork knows.
# Usage: workload_class_path IMAGE CLASSES WORKLOAD
workload_class_path() {
  local image=$1 classes=$2 workload=$3
  case $workload in
    synthetic|micro|streams|parallel-streams|forkjoin|tree) echo "$classes" ;;
    *) local jars
       jars=$("$image/bin/java" -cp "$classes" RealWork --class-path "$workload") || return 1
       echo "$classes:$jars" ;;
  esac
}

# Iterations per thread for about 5 s per run (10 CPU seconds) on two idle
# cores; ROUNDS overrides the synthetic workload's.
default_rounds() {
  case $1 in
    synthetic) echo "${ROUNDS:-36000}" ;;
    h2) echo 30 ;; xalan) echo 70 ;; rhino) echo 100 ;; jython) echo 80 ;;
    batik) echo 22 ;; fop) echo 45 ;; clojure) echo 170 ;;
    # The kernels of bench/overhead/ParallelWork.java (THREADS workers).
    streams) echo 10 ;; parallel-streams) echo 80 ;; forkjoin) echo 40 ;; tree) echo 600 ;;
    *) echo "unknown workload $1" >&2; exit 1 ;;
  esac
}
