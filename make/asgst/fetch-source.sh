#!/usr/bin/env bash
# Prints the path of the verified upstream source tarball, fetching it first if needed.
# Usage: fetch-source.sh [TARBALL]
#   With TARBALL, that file is checked against the pin instead of fetching.
#   Without, Debian's upstream tarball of the openjdk-25 source package is fetched
#   from the host's Debian mirror(s) (or ASGST_DEBIAN_MIRROR), trying the URLs that
#   source-urls.sh prints in turn until one gives a file with the pinned sha256.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "fetching the OpenJDK $UPSTREAM_VERSION source"

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

if [ $# -ge 1 ]; then
  [ -f "$1" ] || die "no such tarball: $1"
  sum=$(sha256_of "$1")
  [ "$sum" = "$UPSTREAM_SHA256" ] ||
    die "$1 has sha256 $sum, but the pin in make/asgst/upstream.conf is $UPSTREAM_SHA256"
  echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  exit 0
fi

cache=$(asgst_cache_dir)
target="$cache/downloads/$UPSTREAM_TARBALL"
if [ -f "$target" ] && [ "$(sha256_of "$target")" = "$UPSTREAM_SHA256" ]; then
  echo "$target"
  exit 0
fi

command -v curl >/dev/null || install_host_packages curl
mirror=${ASGST_DEBIAN_MIRROR:-$(host_debian_mirror)}
[ -n "$mirror" ] ||
  die "found no Debian mirror in the host's apt configuration; set ASGST_DEBIAN_MIRROR=URL or use ./configure --with-source=PATH"
security=${ASGST_DEBIAN_SECURITY_MIRROR-$(host_security_mirror)}
urls=$("$ASGST_REPO/make/asgst/source-urls.sh" "$mirror" "$security")

# Each download goes next to the target and is moved in place only once verified.
mkdir -p "$cache/downloads"
partial="$target.partial"
tried=()
while read -r url; do
  info "downloading $url"
  rm -f "$partial"
  if ! out=$(curl -fsSL --retry 2 -o "$partial" "$url" 2>&1); then
    tried+=("$url: ${out:-curl failed}")
  elif sum=$(sha256_of "$partial") && [ "$sum" != "$UPSTREAM_SHA256" ]; then
    tried+=("$url: sha256 $sum, not the pinned $UPSTREAM_SHA256")
  else
    mv "$partial" "$target"
    echo "$target"
    exit 0
  fi
done <<<"$urls"
rm -f "$partial"
{
  echo "asgst: error: $ASGST_STEP: found no $UPSTREAM_TARBALL with the pinned sha256. Tried:"
  printf '  %s\n' "${tried[@]}"
  echo "  Give the source yourself: ./configure --with-source=PATH (that tarball, or a jdk25u checkout at tag $UPSTREAM_TAG)."
} >&2
exit "$ASGST_REPORTED"
