#!/usr/bin/env bash
# Makes the change reviewable as upstream takes changes: a git repository DIR
# whose branch "asgst" starts with the pristine upstream tree (tagged
# jdk-MAJOR.0.UPDATE+BUILD) and carries the change as the series of commits
# that make/asgst/branch-series.txt describes, without the project's own glue.
# Then writes `git format-patch` of the series, with a cover letter that holds
# the one-page summary (make/asgst/branch-summary.md), into PATCHES.
#
#   make-branch.sh DIR [PATCHES]      PATCHES defaults to DIR-patches
#
# DIR and PATCHES must be new or empty. The series' commits are dated as the
# project's HEAD and the import as the upstream tree's files, so the same HEAD
# and upstream tree give the same commits.
# The author is GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL when set.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "making the review branch"
load_config

dir=${1:?usage: make-branch.sh DIR [PATCHES]}
patches=${2:-${dir%/}-patches}
for d in "$dir" "$patches"; do
  [ ! -e "$d" ] || [ -z "$(ls -A "$d")" ] || die "$d must be new or empty"
  mkdir -p "$d"
done
dir=$(cd "$dir" && pwd)
patches=$(cd "$patches" && pwd)
series="$ASGST_REPO/make/asgst/branch-series.txt"
"$ASGST_REPO/make/asgst/sync-workspace.sh"
upstream="$ASGST_WORKSPACE/upstream"

# The series: per commit a title, a body and its items ("patch NAME", "file GLOB").
titles=() bodies=() items=() omitted=()
while IFS= read -r line; do
  case "$line" in
    '#'*) ;;
    '== '*) titles+=("${line#== }"); bodies+=(""); items+=("") ;;
    '@omit '*) read -r what _ <<< "${line#@omit }"; omitted+=("$what") ;;
    '@patch '*|'@file '*)
      [ ${#titles[@]} -gt 0 ] || die "branch-series.txt: '$line' before the first commit"
      i=$((${#titles[@]} - 1)); items[$i]+="${line#@}"$'\n' ;;
    '@'*) die "branch-series.txt: unknown directive: $line" ;;
    *) if [ ${#titles[@]} -gt 0 ]; then i=$((${#titles[@]} - 1)); bodies[$i]+="$line"$'\n'; fi ;;
  esac
done < "$series"

# Every overlay file and every patch goes into exactly one commit, or is omitted.
overlay=$(cd "$ASGST_REPO" && find src test make -type f ! -path 'make/asgst/*' ! -path 'make/patches/*' | sort)
all_patches=$(cd "$ASGST_REPO/make/patches" && ls *.patch)
named_once() {  # named_once WHAT NAME COUNT
  [ "$3" = 1 ] || die "branch-series.txt names $1 $2 $3 times (once is right)"
}
for f in $overlay; do
  n=0
  for o in "${omitted[@]}"; do [ "$f" != "$o" ] || n=$((n + 1)); done
  for it in "${items[@]}"; do
    while read -r kind glob; do
      # shellcheck disable=SC2053 # glob is a pattern
      [ "$kind" != file ] || [[ $f != $glob ]] || n=$((n + 1))
    done <<< "$it"
  done
  named_once file "$f" "$n"
done
for p in $all_patches; do
  n=0
  for o in "${omitted[@]}"; do [ "$p" != "$o" ] || n=$((n + 1)); done
  for it in "${items[@]}"; do grep -qxF "patch $p" <<< "$it" && n=$((n + 1)); done
  named_once patch "$p" "$n"
done

export GIT_AUTHOR_NAME=${GIT_AUTHOR_NAME:-ASGST authors} GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL:-asgst@invalid}
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
GIT_AUTHOR_DATE=$(git -C "$ASGST_REPO" log -1 --format=%cI HEAD)
GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
g() { git -C "$dir" -c core.autocrlf=false -c core.safecrlf=false "$@"; }

# 1. The upstream tree as it was fetched and checked, tagged as upstream tags it.
info "importing $UPSTREAM_TAG into $dir"
g init -q -b asgst
tar -C "$upstream" --exclude=./.asgst-source -cf - . | tar -C "$dir" -xf -
g add -A -f .
case "$(cat "$upstream/.asgst-source")" in
  tarball*) origin="Debian's upstream tarball of openjdk-$UPSTREAM_FEATURE ($UPSTREAM_TARBALL,
sha256 $UPSTREAM_SHA256): the jdk${UPSTREAM_FEATURE}u tree at this tag without
the bundled zlib, giflib, libpng, libjpeg and PC/SC headers, which the build
takes from the system instead." ;;
  *) origin="A jdk${UPSTREAM_FEATURE}u checkout at this tag, without its history." ;;
esac
# Dated as the tree itself, so that the same tree gives the same commit.
GIT_AUTHOR_DATE=$(date -u -r "$upstream/make/conf/version-numbers.conf" +%FT%TZ) \
GIT_COMMITTER_DATE=$(date -u -r "$upstream/make/conf/version-numbers.conf" +%FT%TZ) \
  g commit -q -m "Import $UPSTREAM_TAG" -m "$origin"
g tag "$UPSTREAM_TAG"

# 2. The change, a commit per entry of the series.
for i in "${!titles[@]}"; do
  while read -r kind what; do
    case "$kind" in
      patch)
        patch -p1 -d "$dir" --quiet --forward --fuzz=0 --no-backup-if-mismatch -r - \
          < "$ASGST_REPO/make/patches/$what" || die "$what does not apply in commit $((i + 1))" ;;
      file)
        n=0
        for f in $overlay; do
          # shellcheck disable=SC2053
          [[ $f == $what ]] || continue
          mkdir -p "$dir/$(dirname "$f")"
          cp "$ASGST_REPO/$f" "$dir/$f"
          n=$((n + 1))
        done
        [ "$n" -gt 0 ] || die "branch-series.txt: @file $what matches no file" ;;
    esac
  done <<< "${items[$i]%$'\n'}"
  g add -A -f .
  body=$(printf '%s' "${bodies[$i]}" | sed -e '/./,$!d')   # without leading blank lines
  g commit -q -m "NNNNNNN: ${titles[$i]}" ${body:+-m "$body"}
done

# 3. The branch holds exactly what the workspace builds, less the omitted glue.
glue_files=$(for o in "${omitted[@]}"; do
  [ -f "$ASGST_REPO/make/patches/$o" ] && sed -n 's#^+++ b/\([^[:space:]]*\).*#\1#p' "$ASGST_REPO/make/patches/$o" || echo "$o"
done)
while read -r f; do
  grep -qxF "$f" <<< "$glue_files" && continue
  cmp -s "$dir/$f" "$ASGST_WORKSPACE/jdk/$f" || die "$f differs between the branch and the workspace"
done < "$ASGST_WORKSPACE/jdk/.asgst-managed"

# 4. The summary as the branch's description and the series' cover letter.
version=$(sed -n 's/^#define ASGST_VERSION ASGST_VERSION_\([0-9]*\)_\([0-9]*\) .*/\1.\2/p' \
  "$ASGST_REPO/src/java.base/share/native/include/profile.h")
[ -n "$version" ] || die "found no ASGST_VERSION in profile.h"
configure_args=$(sed 's/#.*//' "$ASGST_REPO/make/asgst/branch-configure-args" | xargs | fold -s -w 68 | sed '2,$s/^/    /; $!s/ *$/ \\/')
summary=$(sed -e "s|@TAG@|$UPSTREAM_TAG|g" -e "s|@VERSION@|$version|g" \
  -e "s|@COUNT@|${#titles[@]}|g" -e "s|@FORK@|$(git -C "$ASGST_REPO" rev-parse --short=12 HEAD)|g" \
  "$ASGST_REPO/make/asgst/branch-summary.md" | grep -v '^<!--')
summary=${summary//@CONFIGURE@/$configure_args}
g config branch.asgst.description "$summary"
g format-patch -q --cover-letter --cover-from-description=subject -o "$patches" "$UPSTREAM_TAG..asgst"
info "branch asgst in $dir: $UPSTREAM_TAG and ${#titles[@]} commits; the series in $patches (cover letter: 0000-cover-letter.patch)"
