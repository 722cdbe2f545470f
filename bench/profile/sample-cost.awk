# Reads `perf script -F comm,ip,sym` with call chains of a whole process and
# prints one line: the number of samples, then the share of the samples in
# each category of a profiled program's cost, largest first (0.2% and more),
# e.g. "34126: program 81.2%, kernel 9.8%". Compiled code and the VM's stubs
# have names where the VM wrote a perf map (-XX:+DumpPerfMapAtExit).
# With -v leaves=CATEGORY, a second line names the functions whose own time
# makes up that category (the leaves of its samples), largest first.
# A sample's category is the first that matches, in this order:
#   handler: enqueue / walk / rest   in the sample profiler's SIGPROF handler
#   poll: queue walks                processing safepoint queue elements
#   park/unpark                      Parker, futexes
#   poll: cross-modify fence         SafepointMechanism::update_poll_values's own time,
#                                    mostly its fence (on x86_64 without SERIALIZE:
#                                    cpuid, which a hypervisor may trap)
#   poll: safepoints, handshakes     SafepointMechanism and handshakes otherwise, and
#                                    the VM's path into and out of a compiled poll
#                                    (handle_polling_page_exception, SafepointBlob:
#                                    the stub that saves and restores all registers)
#   profiler: drain                  the sample profiler folding samples
#   JIT                              compiler threads
#   GC and VM threads                collector, VM and other VM-internal threads
#   kernel: signals                  the kernel sending, delivering and returning
#                                    from signals (SIGPROF, the SIGSEGV of a poll
#                                    where its chain shows the signal being sent)
#   kernel: page faults              the kernel handling page faults otherwise
#                                    (also the fault of a poll before its signal)
#   kernel                           the rest in the kernel: interrupts, perf
#                                    events, timers, scheduling
#   program                          everything else: the program and the JDK
function category(    c) {
  c = " " chain " "
  if (c ~ /[ :]on_sigprof\(/) {  # also in a namespace
    if (c ~ /ASGST_Enqueue|ASGST_GetEnqueuableElement|AsgstQueues::enqueue/) return "handler: enqueue"
    if (c ~ /ASGST_RunWithIterator|AsyncGetCallTrace|AsgstStackWalker|AsgstCallTrace/) return "handler: walk"
    return "handler: rest"
  }
  if (c ~ /AsgstQueues::process|AsgstHooks::process/) return "poll: queue walks"
  if (c ~ /Parker::|futex/) return "park/unpark"
  if (leaf ~ /^SafepointMechanism::update_poll_values/) return "poll: cross-modify fence"
  if (c ~ /SafepointMechanism::|SafepointSynchronize::|HandshakeState::|handle_polling_page_exception/ ||
      leaf ~ /^SafepointBlob/) return "poll: safepoints, handshakes"
  if (c ~ /Profile::drain|Profile::fold|asgstprof::.*drainer/) return "profiler: drain"
  if (comm ~ /CompilerThre|C1 Compiler|C2 Compiler/) return "JIT"
  if (comm ~ /^(GC |G1 |VM |VM Thread|Service Thread|Monitor Deflation|Common-Cleaner|Reference Handl|Finalizer)/) return "GC and VM threads"
  if (kernel && c ~ / (force_sig_fault|send_signal|__send_signal_locked|arch_do_signal_or_restart|handle_signal|x64_setup_rt_frame|setup_rt_frame|__x64_sys_rt_sigreturn|restore_sigcontext|do_send_sig_info) /) return "kernel: signals"
  if (kernel && c ~ / (exc_page_fault|do_user_addr_fault|handle_mm_fault) /) return "kernel: page faults"
  if (kernel) return "kernel"
  return "program"
}
function flush() {
  if (depth > 0) {
    c = category()
    count[c]++
    if (c == leaves) leaf_count[leaf]++
    total++
  }
  depth = 0; chain = ""; kernel = 0; leaf = ""
}
/^$/ { flush(); next }
/^[^ \t]/ { flush(); comm = $0; sub(/[ \t]+$/, "", comm); next }
{
  ip = $1
  sym = $2
  for (i = 3; i <= NF; i++) sym = sym " " $i
  sub(/\+0x[0-9a-f]+$/, "", sym)
  if (depth == 0 && ip ~ /^ffff/) kernel = 1
  if (depth == 0) leaf = sym
  depth++
  chain = chain " " sym
}
END {
  flush()
  line = total ":"
  n = 0
  for (k in count) { keys[++n] = k }
  for (i = 2; i <= n; i++) for (j = i; j > 1 && count[keys[j - 1]] < count[keys[j]]; j--) { t = keys[j]; keys[j] = keys[j - 1]; keys[j - 1] = t }
  for (i = 1; i <= n; i++) {
    if (count[keys[i]] * 500 < total) continue
    line = line (i == 1 ? " " : ", ") sprintf("%s %.1f%%", keys[i], 100 * count[keys[i]] / total)
  }
  print line
  if (leaves == "") exit
  n = 0
  for (k in leaf_count) { names[++n] = k }
  for (i = 2; i <= n; i++) for (j = i; j > 1 && leaf_count[names[j - 1]] < leaf_count[names[j]]; j--) { t = names[j]; names[j] = names[j - 1]; names[j - 1] = t }
  line = leaves ", its leaves:"
  for (i = 1; i <= n && i <= 8; i++) line = line (i == 1 ? " " : ", ") sprintf("%s %.2f%%", names[i], 100 * leaf_count[names[i]] / total)
  print line
}
