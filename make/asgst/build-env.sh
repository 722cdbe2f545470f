#!/usr/bin/env bash
# Creates or updates the Debian 13 build environment (a root filesystem made with
# debootstrap) and installs make/asgst/env-packages.txt in it.
# Usage: build-env.sh DIR [LIST]
# LIST names a further package list of make/asgst/ (env-packages-ports.txt: the
# cross compilers and the emulator), installed on top when asked for.
# Idempotent: a finished environment is only updated when a package list changed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "creating the build environment"

dir=${1:?usage: build-env.sh DIR [LIST]}
list=${2:-env-packages.txt}
packages="$(sed -e 's/#.*//' "$ASGST_REPO/make/asgst/$list" | xargs)"
if [ "$list" = env-packages.txt ]; then
  packages="$BOOT_JDK_PACKAGE $packages"
  stamp_file="$dir/etc/asgst-env-packages"
else
  [ -f "$dir/etc/asgst-env-packages" ] || "$0" "$dir"
  stamp_file="$dir/etc/asgst-${list%.txt}"
fi
want_stamp=$(echo "$packages" | sha256sum | cut -d' ' -f1)

if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$want_stamp" ]; then
  exit 0
fi

[ "$(id -u)" = 0 ] || die "creating the build environment needs root (debootstrap and bwrap)"
missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v bwrap >/dev/null || missing+=(bubblewrap)
[ ${#missing[@]} = 0 ] || install_host_packages "${missing[@]}"

mirror=${ASGST_DEBIAN_MIRROR:-$(host_debian_mirror)}
[ -n "$mirror" ] || die "found no Debian mirror in the host's apt configuration; set ASGST_DEBIAN_MIRROR"
security=$(host_security_mirror)

if [ ! -f "$dir/etc/asgst-env-base" ]; then
  # Bootstrap into a scratch directory and move it in place only when complete.
  rm -rf "$dir.partial"
  mkdir -p "$(dirname "$dir")"
  info "bootstrapping Debian $DEBIAN_SUITE into $dir from $mirror"
  debootstrap --variant=minbase "$DEBIAN_SUITE" "$dir.partial" "$mirror" >&2 ||
    die "debootstrap failed (log: $dir.partial/debootstrap/debootstrap.log)"
  {
    echo "deb $mirror $DEBIAN_SUITE main"
    echo "deb $mirror $DEBIAN_SUITE-updates main"
    [ -z "$security" ] || echo "deb $security $DEBIAN_SUITE-security main"
  } > "$dir.partial/etc/apt/sources.list"
  date -u +%FT%TZ > "$dir.partial/etc/asgst-env-base"
  rm -rf "$dir"
  mv "$dir.partial" "$dir"
fi

info "installing the build environment's packages ($list)"
in_root() {
  bwrap --bind "$dir" / --proc /proc --dev /dev --perms 1777 --tmpfs /tmp \
        --ro-bind /etc/resolv.conf /etc/resolv.conf \
        --setenv DEBIAN_FRONTEND noninteractive --setenv HOME /root \
        --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin "$@"
}
in_root apt-get -q update >&2 || die "apt-get update failed inside the build environment"
# shellcheck disable=SC2086
in_root apt-get -q install -y --no-install-recommends $packages >&2 ||
  die "installing packages failed inside the build environment"
in_root apt-get clean
echo "$want_stamp" > "$stamp_file"
info "build environment ready: $dir"
