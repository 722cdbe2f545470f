# Reads the sample profiler's collapsed stacks (root first, ";" between
# frames, the count last) of bench/vthreads/DeepVirtualThreads.java and
# prints: samples of its virtual threads, of them in loop() or compute(),
# whole ones among those, and those that ended at frames in the heap.
# A whole stack has Continuation.enter at its root, exactly 61 frames of
# deep() (depth 60 down to 0; an inlined one counts too), and no cut.
{
  count = $NF
  line = $0
  sub(/ [0-9]+$/, "", line)
  n = split(line, f, ";")
  deep = 0
  for (i = 1; i <= n; i++) if (f[i] ~ /^DeepVirtualThreads\.deep(_\[i\])?$/) deep++
  root = f[1]
  leaf = f[n]
  virtual = root == "jdk.internal.vm.Continuation.enter" || root ~ /^\[frames frozen/ || deep > 0
  if (!virtual) next
  vt += count
  cut = line ~ /\[walk cut/ || root ~ /^\[frames frozen/
  whole = root == "jdk.internal.vm.Continuation.enter" && deep == 61 && !cut
  if (deep > 61) wrong += count
  if (whole) vt_whole += count
  if (root ~ /^\[frames frozen/) vt_heap += count
  if (leaf ~ /^DeepVirtualThreads\.(loop|compute)(_\[i\])?$/) {
    in_loop += count
    if (whole) loop_whole += count
    if (root ~ /^\[frames frozen/) loop_heap += count
  }
}
END {
  printf "%d %d %d %d %d %d %d\n", vt, vt_whole, vt_heap, in_loop, loop_whole, loop_heap, wrong
}
