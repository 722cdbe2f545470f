#!/usr/bin/env bash
# The results summer's own test, in make test: fixture files with known
# result lines must give known sums. Ends with "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/lib.sh"

passed=0 failed=0
check() {  # check NAME CONDITION-COMMAND...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok: $name"
  else failed=$((failed + 1)); echo "FAILED: $name"; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sum="$ASGST_REPO/make/asgst/sum-results.sh"

mkdir -p "$tmp/a/b"
printf 'noise\nasgst-result oracle workload=rhino layer=signal compared=10 mismatch=1\n' > "$tmp/a/one.jtr"
printf 'asgst-result oracle workload=xalan layer=signal compared=5 mismatch=0\n' > "$tmp/a/b/two.jtr"
printf 'asgst-result oracle workload=xalan layer=queue compared=7 mismatch=2\n' >> "$tmp/a/b/two.jtr"
printf 'asgst-result stress cell=h2-g1 mode=queue walks=3 failed=-1\n' > "$tmp/a/cell.txt"
out=$("$sum" "$tmp/a" 2>&1)
expected='oracle layer=queue runs=1 compared=7 mismatch=2
oracle layer=signal runs=2 compared=15 mismatch=1
stress mode=queue runs=1 walks=3 failed=-1'
check "sums per kind and layer over runs, .jtr and .txt files below a directory" [ "$out" = "$expected" ]
out=$("$sum" "$tmp/a/one.jtr" "$tmp/a/b/two.jtr" 2>&1)
check "files named one by one" [ "$(echo "$out" | head -1)" = 'oracle layer=queue runs=1 compared=7 mismatch=2' ]
"$sum" "$tmp/missing" > /dev/null 2>&1
check "no result file: an error" [ $? != 0 ]
printf 'nothing\n' > "$tmp/empty.jtr"
"$sum" "$tmp/empty.jtr" > /dev/null 2>&1
check "no result line: an error" [ $? != 0 ]

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
