#!/usr/bin/env bash
# The fetch step's own test, in make test: it must find the pinned tarball when
# the archive's source index has moved on to a newer version, refuse a file with
# another sha256, and name every URL it tried. Offline, against fixture archives
# (file:// URLs); then, when the host's archive answers, the URL it would fetch
# first must exist there. Ends with "N passed, N failed".
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
urls="$ASGST_REPO/make/asgst/source-urls.sh"
fetch="$ASGST_REPO/make/asgst/fetch-source.sh"
pool_url_of() { echo "$1/pool/main/${DEBIAN_SOURCE_PACKAGE:0:1}/$DEBIAN_SOURCE_PACKAGE/${UPSTREAM_TARBALL//+/%2b}"; }

# A fixture archive whose source index lists PACKAGE VERSION in DIRECTORY.
make_archive() {
  local root=$1 version=$2 directory=$3
  mkdir -p "$root/dists/$DEBIAN_SUITE/main/source"
  printf 'Package: %s\nVersion: %s\nDirectory: %s\nFiles:\n 0123 1 %s\n\n' \
    "$DEBIAN_SOURCE_PACKAGE" "$version" "$directory" "$UPSTREAM_TARBALL" |
    xz > "$root/dists/$DEBIAN_SUITE/main/source/Sources.xz"
}

# 1. The index no longer lists the pinned version: the pool path alone.
moved="$tmp/moved"
make_archive "$moved" "$UPSTREAM_FEATURE.0.99+1-1" "pool/main/o/$DEBIAN_SOURCE_PACKAGE"
out=$("$urls" "file://$moved" 2>&1)
check "index moved on: the only URL is the pool path" [ "$out" = "$(pool_url_of "file://$moved")" ]

# 2. The index lists the pinned version elsewhere: pool path first, then the index's.
listed="$tmp/listed"
make_archive "$listed" "$DEBIAN_SOURCE_VERSION" "pool/other/$DEBIAN_SOURCE_PACKAGE"
out=$("$urls" "file://$listed" 2>&1)
want="$(pool_url_of "file://$listed")
file://$listed/pool/other/$DEBIAN_SOURCE_PACKAGE/${UPSTREAM_TARBALL//+/%2b}"
check "index lists the pin elsewhere: pool path, then the index's directory" [ "$out" = "$want" ]

# 3. The security archive keeps its pool under pool/updates/.
out=$("$urls" "file://$moved" "file://$tmp/security" 2>&1 | sed -n 2p)
check "security archive: pool/updates/" \
  [ "$out" = "file://$tmp/security/pool/updates/main/${DEBIAN_SOURCE_PACKAGE:0:1}/$DEBIAN_SOURCE_PACKAGE/${UPSTREAM_TARBALL//+/%2b}" ]

# 4. A file with another sha256 is refused, and the error names every URL tried
#    and the way out.
pool="$moved/pool/main/${DEBIAN_SOURCE_PACKAGE:0:1}/$DEBIAN_SOURCE_PACKAGE"
mkdir -p "$pool"
echo "not the source" > "$pool/$UPSTREAM_TARBALL"
out=$(ASGST_CACHE_DIR="$tmp/cache" ASGST_DEBIAN_MIRROR="file://$moved" ASGST_DEBIAN_SECURITY_MIRROR="file://$tmp/none" \
      "$fetch" 2>&1)
status=$?
check "wrong sha256: fetch fails" [ "$status" != 0 ]
check "wrong sha256: one error line, every URL tried, --with-source" bash -c '
  [ "$(grep -c "^asgst: error" <<<"$1")" = 1 ] &&
  grep -qF "$2: sha256" <<<"$1" && grep -qF "  $3" <<<"$1" && grep -qF -- "--with-source=" <<<"$1"' \
  _ "$out" "$(pool_url_of "file://$moved")" "file://$tmp/none/pool/updates/"
check "wrong sha256: nothing left in the cache" [ -z "$(ls -A "$tmp/cache/downloads" 2>/dev/null)" ]

# 5. The real tarball through a pool path: fetched, verified, cached. Needs the
#    tarball once (from an earlier fetch); without it this part is skipped.
cached="$(asgst_cache_dir)/downloads/$UPSTREAM_TARBALL"
if [ -f "$cached" ]; then
  cp "$cached" "$pool/$UPSTREAM_TARBALL"
  out=$(ASGST_CACHE_DIR="$tmp/cache" ASGST_DEBIAN_MIRROR="file://$moved" ASGST_DEBIAN_SECURITY_MIRROR= "$fetch" 2>/dev/null)
  check "pinned tarball at the pool path: fetched and cached" [ "$out" = "$tmp/cache/downloads/$UPSTREAM_TARBALL" ]
else
  echo "skipped: fetching the real tarball from a fixture (no $UPSTREAM_TARBALL in the cache yet)"
fi

# 6. The host's archive, when it answers: the first URL must be served there.
mirror=${ASGST_DEBIAN_MIRROR:-$(host_debian_mirror)}
if [ -z "$mirror" ]; then
  echo "skipped: the host's archive (no Debian mirror in its apt configuration)"
else
  first=$("$urls" "$mirror" | head -n 1)
  check "a first URL for the host's archive" [ -n "$first" ]
  code=$(curl -sS -o /dev/null -I -w '%{http_code}' --max-time 30 "$first" 2>"$tmp/curl.err")
  status=$?
  if [ "$status" != 0 ]; then
    echo "skipped: the host's archive did not answer (curl exit $status: $(head -c 200 "$tmp/curl.err"))"
  else
    check "host archive serves $first (HTTP $code)" [ "$code" = 200 ]
  fi
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
