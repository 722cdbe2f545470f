# Reads what bench/run-rate-overhead-benchmark.sh printed (one or more of its
# runs, e.g. make bench's output) and prints its goal lines at 0.1 ms as one
# Markdown table, a row per workload table: the throughput that modes
# signal, cpu, cpu with marks and queue keep, mode queue's wall time over
# mode cpu's at 0.1 ms and at 10 ms (where a sample costs too little to
# show: what the comparison reads from noise alone), and, for a fixed amount
# of work, queue's CPU time per sample over cpu's. Median of the rounds
# (lowest-highest), as the goal lines print them, and for queue / cpu at
# 0.1 ms the interval that holds the median with 95% confidence or more (the
# goal line's order statistics; "-" with fewer than 6 rounds). Below the
# table, the rounds with queue below cpu at 0.1 ms summed over the tables of
# whole runs (a table after warm-up has the same runs), and how likely that
# few or fewer would be if the two modes cost the same (a sign test).
# Usage: awk -f bench/rate/goals-table.awk OUTPUT...
# "0.83 (0.78-0.91)": the text after the words after, to its first ")".
function figure(line, after,    v) {
  v = substr(line, index(line, after) + length(after))
  return substr(v, 1, index(v, ")"))
}
/ rounds:$/ { w = $0; sub(/ \(.*/, "", w); if (!(w in seen)) { seen[w] = 1; order[++n] = w } }
/^- asgstprof [a-z, ]+ at 100us keeps / {
  mode = $0; sub(/^- asgstprof /, "", mode); sub(/ at 100us keeps .*/, "", mode)
  keep[w, mode] = figure($0, " keeps ")
}
/^- queue vs cpu at 100us, wall time: / {
  q100[w] = figure($0, "wall time: ")
  if (index($0, "the median lies in ")) { v = figure($0, "the median lies in "); sub(/ \(.*/, "", v); q100_median[w] = v }
  if (w !~ /, after warm-up$/ && match($0, /below 1 in [0-9]+ of [0-9]+ rounds/)) {
    split(substr($0, RSTART, RLENGTH), f, " "); below += f[4]; rounds += f[6]
  }
}
# P(X <= k) for X ~ Binomial(n, 1/2).
function at_most(k, n,    i, c, sum) {
  c = 1; sum = 0
  for (i = 0; i <= k; i++) { sum += c / 2 ^ n; c = c * (n - i) / (i + 1) }
  return sum
}
/^- queue vs cpu at 10ms, wall time: / { q10[w] = figure($0, "wall time: ") }
/^- queue vs cpu at 100us, CPU time per sample above no profiler: / { qs[w] = figure($0, "no profiler: ") }
function cell(v) { return v == "" ? "-" : v }
END {
  print "| workload | signal keeps | cpu keeps | cpu, marks keeps | queue keeps | queue / cpu, 0.1 ms | its median lies in | queue / cpu, CPU per sample | queue / cpu, 10 ms |"
  print "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  for (i = 1; i <= n; i++) {
    w = order[i]
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", w, cell(keep[w, "signal"]), cell(keep[w, "cpu"]),
           cell(keep[w, "cpu, marks"]), cell(keep[w, "queue"]), cell(q100[w]), cell(q100_median[w]), cell(qs[w]), cell(q10[w])
  }
  if (rounds > 0)
    printf "\nMode queue below mode cpu at 0.1 ms in %d of %d rounds of whole runs (%d or fewer if the modes cost the same: probability %.3f).\n",
           below, rounds, below, at_most(below, rounds)
}
