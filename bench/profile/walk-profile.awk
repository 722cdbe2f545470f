# Reads `perf script -F ip,sym` with call chains and prints, for each way of
# walking that the signal walk benchmark times, where its samples fell: the
# share of the way's samples by innermost function (self), and by function
# anywhere in the chain (total; not the callers that every sample has). A
# sample belongs to a way by the function that began the walk, found in its
# chain.
function way_of(chain) {
  if (chain ~ / AsyncGetCallTrace /) return "AsyncGetCallTrace"
  if (chain ~ / on_element /) return "queue: walk at poll"
  if (chain ~ / AsgstCallTrace::fill /) return "AsyncGetStackTrace"
  if (chain ~ / walk_marked /) return ""  # frame marks: bench/run-signal-walk-benchmark.sh times them apart
  if (chain ~ / walk_top_frame /) return "ASGST top frame"
  if (chain ~ / walk_top_frame_warm /) return "ASGST top frame, warm"  # its untimed walk too
  if (chain ~ / call_refused /) return "ASGST call, refused"
  if (chain ~ / call_refused_warm /) return "ASGST call, refused, warm"  # its untimed call too
  if (chain ~ / AsgstQueues::enqueue\(/) return "ASGST_Enqueue"
  if (chain ~ / ASGST_RunWithIterator /) return "ASGST iterator"
  return ""
}
function flush(    way, i, seen) {
  if (depth == 0) return
  way = way_of(" " chain " ")
  if (way != "") {
    samples[way]++
    self[way SUBSEP syms[1]]++
    split("", seen)
    for (i = 1; i <= depth; i++) {
      if (!(syms[i] in seen)) { seen[syms[i]] = 1; total[way SUBSEP syms[i]]++ }
    }
  }
  depth = 0; chain = ""
}
/^$/ { flush(); next }
/^[^ \t]/ { flush(); next }   # a sample's header line (when perf prints one)
{
  sym = $2
  for (i = 3; i <= NF; i++) sym = sym " " $i
  sub(/\+0x[0-9a-f]+$/, "", sym)
  if (sym == "[unknown]") sym = "[generated code or unknown]"
  syms[++depth] = sym
  chain = chain " " sym
}
END {
  flush()
  for (key in self) { split(key, k, SUBSEP); rows[k[1]] = rows[k[1]] sprintf("%8.1f%%  self   %s\n", 100 * self[key] / samples[k[1]], k[2]) }
  # total: 5% and more, but not the callers that every sample has
  for (key in total) { split(key, k, SUBSEP); if (total[key] * 100 >= 5 * samples[k[1]] && total[key] * 1000 < 995 * samples[k[1]]) rows[k[1]] = rows[k[1]] sprintf("%8.1f%%  total  %s\n", 100 * total[key] / samples[k[1]], k[2]) }
  for (way in samples) {
    printf "== %s: %d samples\n", way, samples[way]
    printf "%s", rows[way] | "sort -t'%' -k1 -rn | head -" (limit > 0 ? limit : 25)
    close("sort -t'%' -k1 -rn | head -" (limit > 0 ? limit : 25))
  }
}
