#!/usr/bin/env bash
# Prints the path of the verified upstream source tarball, fetching it first if needed.
# Usage: fetch-source.sh [TARBALL]
#   With TARBALL, that file is checked against the pin instead of fetching.
#   Without, Debian's upstream tarball of the openjdk-25 source package is fetched from
#   the host's Debian mirror, with a private apt state that never touches the host's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

verify() {
  local file=$1 sum
  sum=$(sha256sum "$file" | cut -d' ' -f1)
  [ "$sum" = "$UPSTREAM_SHA256" ] ||
    die "$file has sha256 $sum, but the pin in make/asgst/upstream.conf is $UPSTREAM_SHA256"
}

if [ $# -ge 1 ]; then
  [ -f "$1" ] || die "no such tarball: $1"
  verify "$1"
  echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  exit 0
fi

cache=$(asgst_cache_dir)
target="$cache/downloads/$UPSTREAM_TARBALL"
if [ -f "$target" ]; then
  verify "$target"
  echo "$target"
  exit 0
fi

command -v apt-get >/dev/null ||
  die "no apt-get here to fetch the source; pass a tarball or a jdk25u checkout: ./configure --with-source=PATH"
mirror=${ASGST_DEBIAN_MIRROR:-$(host_debian_mirror)}
[ -n "$mirror" ] || die "found no Debian mirror in the host's apt configuration; set ASGST_DEBIAN_MIRROR or use --with-source=PATH"
security=$(host_security_mirror)

apt_dir="$cache/apt-source"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$cache/downloads"
{
  echo "deb-src $mirror $DEBIAN_SUITE main"
  echo "deb-src $mirror $DEBIAN_SUITE-updates main"
  [ -z "$security" ] || echo "deb-src $security $DEBIAN_SUITE-security main"
} > "$apt_dir/sources.list"
: > "$apt_dir/status"
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/none"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::State::status=$apt_dir/status"
          -o "Dir::Cache=$apt_dir/cache" -o "Debug::NoLocking=1" -q)
info "reading $DEBIAN_SUITE source indexes from $mirror"
apt-get "${apt_opts[@]}" update >&2 || die "apt-get update of the private source list failed"
uri=$(apt-get "${apt_opts[@]}" source --print-uris "$DEBIAN_SOURCE_PACKAGE=$DEBIAN_SOURCE_VERSION" 2>/dev/null |
      awk -v f="$UPSTREAM_TARBALL" '$2 == f { gsub(/\047/, "", $1); print $1 }')
[ -n "$uri" ] || die "the archive does not offer $DEBIAN_SOURCE_PACKAGE $DEBIAN_SOURCE_VERSION; use --with-source=PATH"
info "downloading $uri"
# Download next to the target and move it in place only once verified.
partial="$target.partial"
rm -f "$partial"
if command -v curl >/dev/null; then
  curl -fsSL -o "$partial" "$uri" || die "download failed: $uri"
else
  wget -q -O "$partial" "$uri" || die "download failed: $uri"
fi
verify "$partial"
mv "$partial" "$target"
echo "$target"
