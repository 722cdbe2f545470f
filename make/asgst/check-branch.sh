#!/usr/bin/env bash
# Applies to every commit of the review branch (make/asgst/make-branch.sh) the
# checks of OpenJDK's jcheck that concern a commit's message and its files'
# content (the jdk repositories' .jcheck/conf), and the header convention
# that reviewers apply on top:
#   message      "NNNNNNN: title" (or a JBS number), a blank line, then the body;
#                no trailing whitespace
#   whitespace   no trailing whitespace, no CR, no tab (except in makefiles) in
#                added lines
#   executable   the executable bit only on scripts (a file that starts with #!)
#   symlink      no symbolic links; binary: no binary files
#   copyright    a new file begins with "Copyright (c) YEAR[, YEAR], HOLDER.
#                All rights reserved."; every Oracle line has jcheck's form
#   header       a new file has OpenJDK's GPLv2 header, with the Classpath
#                Exception under src/ outside HotSpot (as jni.h), without it in
#                HotSpot and in tests
#   problemlists an added entry is "test bug[,bug] platform[,platform]" and
#                names a test that exists
#   groups       an added TEST.groups member names a group or an existing path
# Prints each finding as "commit: file:line: what", then "N findings in M commits";
# exits 1 when there is a finding.
#
#   check-branch.sh DIR [BASE [TIP]]    default: the upstream tag and branch asgst
set -uo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "checking the review branch"

dir=${1:?usage: check-branch.sh DIR [BASE [TIP]]}
base=${2:-$UPSTREAM_TAG} tip=${3:-asgst}
g() { git -C "$dir" "$@"; }
g rev-parse -q --verify "$base^{commit}" >/dev/null || die "$dir has no commit $base"
g rev-parse -q --verify "$tip^{commit}" >/dev/null || die "$dir has no commit $tip"

findings=0
report() {  # report COMMIT FILE:LINE WHAT
  echo "$1: $2: $3"
  findings=$((findings + 1))
}

# OpenJDK's GPLv2 header after the copyright lines, with the comment marks
# taken off; the Classpath Exception's sentence is marked CPE.
gpl_header() {
  cat <<'EOF'
DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.

This code is free software; you can redistribute it and/or modify it
under the terms of the GNU General Public License version 2 only, as
EOF
  if [ "$1" = cpe ]; then
    cat <<'EOF'
published by the Free Software Foundation.  Oracle designates this
particular file as subject to the "Classpath" exception as provided
by Oracle in the LICENSE file that accompanied this code.
EOF
  else
    echo "published by the Free Software Foundation."
  fi
  cat <<'EOF'

This code is distributed in the hope that it will be useful, but WITHOUT
ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
version 2 for more details (a copy is included in the LICENSE file that
accompanied this code).

You should have received a copy of the GNU General Public License version
2 along with this work; if not, write to the Free Software Foundation,
Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.

Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
or visit www.oracle.com if you need additional information or have any
questions.
EOF
}
gpl_plain=$(gpl_header plain) gpl_cpe=$(gpl_header cpe)

copyright_re='Copyright \(c\) ([0-9]{4})(, ([0-9]{4}))?,? [^ ].*\. All rights reserved\.'
oracle_locator='Copyright \(c\)(.*)Oracle and/or its affiliates\. All rights reserved\.'
oracle_validator='Copyright \(c\) ([0-9]{4})(, ([0-9]{4}))?, Oracle and/or its affiliates\. All rights reserved\.'

# The added lines of FILE in COMMIT as "LINE<TAB>TEXT", numbered in the new file.
added_lines() {
  g show --format= --no-color --no-ext-diff -U0 "$1" -- "$2" | awk '
    /^@@ / { split($3, a, ","); n = substr(a[1], 2) + 0; next }
    /^\+\+\+ / { next }
    /^\+/ { print n "\t" substr($0, 2); n++ }'
}

check_message() {  # check_message COMMIT
  local c=$1 msg n=0 line
  msg=$(g log -1 --format=%B "$c")
  while IFS= read -r line; do
    n=$((n + 1))
    case $n in
      1) [[ $line =~ ^(NNNNNNN|[124-8][0-9]{6}):\ [^\ ].*[^\ ]$ ]] ||
           report "$c" "message:1" "title is not 'NNNNNNN: title' (OpenJDK's form, a JBS number in place of NNNNNNN)" ;;
      2) [ -z "$line" ] || report "$c" "message:2" "the title is not followed by a blank line" ;;
    esac
    [[ $line != *[[:space:]] ]] || report "$c" "message:$n" "trailing whitespace"
  done <<< "$msg"
}

check_header() {  # check_header COMMIT FILE: a new file's copyright lines and GPL header
  local c=$1 f=$2 kind=plain text first year1 year2 want
  case "$f" in
    src/hotspot/*|test/*) ;;
    src/*) kind=cpe ;;
  esac
  # The header's lines without their comment marks: from the first copyright
  # line to "questions.".
  text=$(g show "$c:$f" | sed -n '1,40p' | sed -E 's/^[[:space:]]*(\/\*+|\*\/|\*|\/\/|#)?[[:space:]]?//; s/[[:space:]]+$//' |
    awk '/Copyright \(c\)/ && !started { started = 1 } started { print } /^questions\.$/ && started { exit }')
  first=$(grep -m1 -E "$copyright_re" <<< "$text")
  if [ -z "$first" ]; then
    report "$c" "$f:1" "no copyright line 'Copyright (c) YEAR[, YEAR], HOLDER. All rights reserved.' at the top"
    return
  fi
  [[ $first =~ $copyright_re ]]
  year1=${BASH_REMATCH[1]} year2=${BASH_REMATCH[3]:-${BASH_REMATCH[1]}}
  local commit_year
  commit_year=$(g log -1 --format=%cd --date=format:%Y "$c")
  if [ "$year1" -gt "$year2" ] || [ "$year2" -gt "$commit_year" ]; then
    report "$c" "$f:1" "copyright years $year1, $year2 do not fit the commit's year $commit_year"
  fi
  want=$([ "$kind" = cpe ] && echo "$gpl_cpe" || echo "$gpl_plain")
  if [ "$(grep -v -E 'Copyright \(c\)' <<< "$text")" != "$want" ]; then
    report "$c" "$f:1" "the header is not OpenJDK's GPLv2 header$([ "$kind" = cpe ] && echo " with the Classpath Exception" || echo " (without the Classpath Exception)")"
  fi
}

check_file() {  # check_file COMMIT STATUS MODE FILE
  local c=$1 status=$2 mode=$3 f=$4 line n text name
  name=$(basename "$f")
  case "$mode" in
    120000) report "$c" "$f" "a symbolic link"; return ;;
    100755) g show "$c:$f" | head -c2 | grep -q '^#!' || report "$c" "$f" "executable, but not a script" ;;
  esac
  if [ "$(g diff --numstat "$c^" "$c" -- "$f" | cut -f1)" = - ]; then
    report "$c" "$f" "a binary file"
    return
  fi
  while IFS= read -r line; do
    n=${line%%$'\t'*} text=${line#*$'\t'}
    [[ $text != *$'\r'* ]] || report "$c" "$f:$n" "carriage return"
    [[ $text != *[[:space:]] ]] || report "$c" "$f:$n" "trailing whitespace"
    case "$name" in
      Makefile|*.gmk) ;;
      *) [[ $text != *$'\t'* ]] || report "$c" "$f:$n" "tab" ;;
    esac
    if [[ $text =~ $oracle_locator ]] && ! [[ $text =~ $oracle_validator ]]; then
      report "$c" "$f:$n" "Oracle copyright line not in jcheck's form"
    fi
    case "$name" in
      ProblemList*.txt)
        if [[ $text =~ ^[[:space:]]*[^#[:space:]] ]]; then
          local test bugs platforms rest
          read -r test bugs platforms rest <<< "$text"
          if [ -z "$platforms" ] || ! [[ $bugs =~ ^[0-9]{7}(,[0-9]{7})*$ ]]; then
            report "$c" "$f:$n" "a problem list entry is 'test bug[,bug] platform[,platform]'"
          elif ! g cat-file -e "$c:$(dirname "$f")/${test%%#*}" 2>/dev/null; then
            report "$c" "$f:$n" "lists ${test%%#*}, which does not exist"
          fi
        fi ;;
      TEST.groups)
        local member=${text%\\}
        member=$(echo $member)
        if [[ $text =~ ^[[:space:]]+[^[:space:]#] ]] && [[ $member != :* ]] && [ -n "$member" ]; then
          member=${member#-}
          g cat-file -e "$c:$(dirname "$f")/$member" 2>/dev/null ||
            report "$c" "$f:$n" "group member $member does not exist"
        fi ;;
    esac
  done < <(added_lines "$c" "$f")
  [ "$status" != A ] || case "$name" in
    *.c|*.cpp|*.h|*.hpp|*.java|*.gmk|*.m4|*.sh|*.txt|*.S) check_header "$c" "$f" ;;
  esac
}

commits=$(g rev-list --reverse "$base..$tip")
[ -n "$commits" ] || die "no commits between $base and $tip"
count=0
for c in $commits; do
  count=$((count + 1))
  short=$(g rev-parse --short "$c")
  check_message "$short"
  while read -r _ mode _ _ status f; do
    [ "$status" = D ] || check_file "$short" "$status" "$mode" "$f"
  done < <(g diff-tree -r --no-commit-id "$c" | sed 's/\t/ /')
done
echo "$findings findings in $count commits"
[ "$findings" = 0 ]
