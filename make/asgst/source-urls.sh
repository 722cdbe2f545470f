#!/usr/bin/env bash
# Prints, one per line and in the order to try them, the URLs at which the pinned
# upstream tarball may be found. Reads nothing but the given archives.
# Usage: source-urls.sh MIRROR [SECURITY-MIRROR]
#
# First the pool paths, derived from the source package name as Debian's archive
# lays out its pool: they keep serving a file after the source index has moved on
# to a newer version. Then, for the archives whose source index still lists the
# pinned version, the directory that index names.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mirror=${1:?usage: source-urls.sh MIRROR [SECURITY-MIRROR]}
security=${2:-}
mirror=${mirror%/}
security=${security%/}

# Debian's pool: pool/COMPONENT/PREFIX/PACKAGE, where PREFIX is the package's first
# letter, or its first four for lib* packages. The security archive keeps its pool
# under pool/updates/.
pool_dir() {
  local package=$1 prefix=${1:0:1}
  case "$package" in lib?*) prefix=${package:0:4} ;; esac
  echo "pool/main/$prefix/$package"
}
# '+' must be escaped in a URL's path.
file_name=${UPSTREAM_TARBALL//+/%2b}
dir=$(pool_dir "$DEBIAN_SOURCE_PACKAGE")

printed=" "
emit() {
  case "$printed" in *" $1 "*) return ;; esac
  printed="$printed$1 "
  echo "$1"
}
emit "$mirror/$dir/$file_name"
[ -z "$security" ] || emit "$security/${dir/#pool\//pool/updates/}/$file_name"

# The source index's stanza for the pinned package version names its directory.
# A missing or unreadable index is no error here: the caller tries what is printed.
index_directory() {
  local base=$1 suite=$2 list
  for list in Sources.xz Sources.gz; do
    local text
    text=$(curl -fsSL "$base/dists/$suite/main/source/$list" 2>/dev/null |
           { case "$list" in *.xz) xz -dc ;; *) gzip -dc ;; esac; } 2>/dev/null) || continue
    awk -v RS= -v pkg="$DEBIAN_SOURCE_PACKAGE" -v ver="$DEBIAN_SOURCE_VERSION" -v file="$UPSTREAM_TARBALL" '
      $0 ~ "(^|\n)Package: " pkg "(\n|$)" && index($0, "\nVersion: " ver "\n") && index($0 "\n", " " file "\n") {
        if (match($0, /(^|\n)Directory: [^\n]*/)) {
          d = substr($0, RSTART, RLENGTH); sub(/^\n?Directory: /, "", d); print d; exit
        }
      }' <<<"$text"
    return 0
  done
}
for entry in "$mirror $DEBIAN_SUITE" "$mirror $DEBIAN_SUITE-updates" ${security:+"$security $DEBIAN_SUITE-security"}; do
  read -r base suite <<<"$entry"
  d=$(index_directory "$base" "$suite")
  [ -z "$d" ] || emit "$base/$d/$file_name"
done
