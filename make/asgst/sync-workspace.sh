#!/usr/bin/env bash
# Assembles the workspace source tree: pristine upstream + make/patches + overlay.
#
#   $WS/upstream   pristine upstream tree, never edited
#   $WS/jdk        the tree that is configured and built
#   $WS/jdk/.asgst-managed   the files the last sync placed (patched or overlaid)
#
# Only files whose content changed are written, so the JDK's make rebuilds only
# what changed. Files that left the overlay or a patch are restored or removed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "assembling the workspace"
load_config

ws=$ASGST_WORKSPACE
upstream="$ws/upstream"
jdk="$ws/jdk"
manifest="$jdk/.asgst-managed"

# 1. The pristine upstream tree, made once per source identity.
source_identity() {
  if [ -d "$ASGST_SOURCE" ]; then
    local rev=""
    [ -e "$ASGST_SOURCE/.git" ] && rev=$(git -C "$ASGST_SOURCE" rev-parse HEAD 2>/dev/null || true)
    echo "checkout $ASGST_SOURCE $rev"
  else
    echo "tarball $UPSTREAM_SHA256"
  fi
}

check_checkout() {
  local dir=$1 conf="$1/make/conf/version-numbers.conf"
  [ -f "$conf" ] || die "$dir is not a JDK source tree (no make/conf/version-numbers.conf)"
  grep -qx "DEFAULT_VERSION_FEATURE=$UPSTREAM_FEATURE" "$conf" && grep -qx "DEFAULT_VERSION_UPDATE=$UPSTREAM_UPDATE" "$conf" ||
    die "$dir is not a jdk25u tree at version $UPSTREAM_VERSION"
  if [ -e "$dir/.git" ]; then
    git -C "$dir" tag --points-at HEAD 2>/dev/null | grep -qxF "$UPSTREAM_TAG" ||
      die "$dir is not checked out at tag $UPSTREAM_TAG"
  fi
}

identity=$(source_identity)
if [ ! -f "$upstream/.asgst-source" ] || [ "$(cat "$upstream/.asgst-source")" != "$identity" ]; then
  info "unpacking upstream source into $upstream"
  rm -rf "$upstream.partial" "$upstream" "$jdk"
  mkdir -p "$upstream.partial"
  if [ -d "$ASGST_SOURCE" ]; then
    check_checkout "$ASGST_SOURCE"
    tar -C "$ASGST_SOURCE" --exclude=.git -cf - . | tar -C "$upstream.partial" -xf -
  else
    tarball=$("$ASGST_REPO/make/asgst/fetch-source.sh" ${ASGST_SOURCE:+"$ASGST_SOURCE"})
    tar -C "$upstream.partial" --strip-components=1 -xJf "$tarball"
  fi
  echo "$identity" > "$upstream.partial/.asgst-source"
  mv "$upstream.partial" "$upstream"
fi

# 2. The build tree starts as a copy of upstream.
if [ ! -f "$jdk/.asgst-copied" ]; then
  info "copying upstream into $jdk"
  rm -rf "$jdk.partial" "$jdk"
  cp -a "$upstream" "$jdk.partial"
  rm -f "$jdk.partial/.asgst-source"
  : > "$jdk.partial/.asgst-copied"
  : > "$jdk.partial/.asgst-managed"
  mv "$jdk.partial" "$jdk"
fi

# 3. Stage the wanted content of every managed file.
stage="$ws/stage"
rm -rf "$stage"
mkdir -p "$stage"
shopt -s nullglob
for p in "$ASGST_REPO"/make/patches/*.patch; do
  sed -n 's#^+++ b/\([^[:space:]]*\).*#\1#p' "$p" | while read -r f; do
    [ -f "$upstream/$f" ] || die "$(basename "$p") patches $f, which upstream does not have"
    if [ ! -f "$stage/$f" ]; then
      mkdir -p "$stage/$(dirname "$f")"
      cp -p "$upstream/$f" "$stage/$f"
    fi
  done
  patch -p1 -d "$stage" --quiet --forward --fuzz=0 --no-backup-if-mismatch -r - < "$p" ||
    die "$(basename "$p") does not apply to the upstream source"
done
(cd "$ASGST_REPO" && find $(ls -d src test make 2>/dev/null) -type f ! -path 'make/asgst/*' ! -path 'make/patches/*' | sort) |
  while read -r f; do
    [ ! -e "$upstream/$f" ] ||
      die "the overlay file $f replaces an upstream file; change upstream files with a patch in make/patches"
    mkdir -p "$stage/$(dirname "$f")"
    cp -p "$ASGST_REPO/$f" "$stage/$f"
  done

# 4. Write what differs; restore or remove what is no longer managed.
(cd "$stage" && find . -type f | sed 's#^\./##' | sort) > "$ws/managed.new"
updated=0
while read -r f; do
  if ! cmp -s "$stage/$f" "$jdk/$f"; then
    mkdir -p "$jdk/$(dirname "$f")"
    cp --preserve=mode "$stage/$f" "$jdk/$f"
    updated=$((updated + 1))
  fi
done < "$ws/managed.new"
sort "$manifest" | comm -23 - "$ws/managed.new" | while read -r f; do
  if [ -f "$upstream/$f" ]; then
    cmp -s "$upstream/$f" "$jdk/$f" || cp --preserve=mode "$upstream/$f" "$jdk/$f"
  else
    rm -f "$jdk/$f"
  fi
done
mv "$ws/managed.new" "$manifest"
rm -rf "$stage"
[ "$updated" = 0 ] || info "workspace: $updated file(s) updated"
