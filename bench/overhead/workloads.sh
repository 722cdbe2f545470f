# The whole-program workloads' sizes, for the benchmarks that run them
# (sourced by bench/overhead/measure.sh and bench/unused/measure.sh).

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
