#!/usr/bin/env bash
# Makes a Debian root filesystem of another CPU to cross-compile against (OpenJDK's
# --with-sysroot), as OpenJDK's own cross-compiling CI does: debootstrap of the
# build environment's Debian release with the development packages that the JDK's
# configure looks for. The packages are only unpacked (no maintainer scripts run,
# nothing of the foreign CPU is executed), and absolute symbolic links are made
# relative so that they resolve inside the sysroot.
#
#   sysroot.sh DEBIAN_ARCH DIR   prints DIR on its last line
#
# Idempotent: a finished sysroot is kept until its package list changes. It is
# made in DIR.partial and moved in place only when complete.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: sysroot.sh DEBIAN_ARCH DIR}
dir=${2:?usage: sysroot.sh DEBIAN_ARCH DIR}
asgst_step "the $arch sysroot"

# What OpenJDK's configure checks for (X11, CUPS, fontconfig, ALSA, FreeType,
# libffi for the zero VM) and the libraries whose bundled copies the pinned
# tarball lacks. libc6-dev and libstdc++ come with them. Boost.Context: the
# ASGST tests' foreign-stack library, which the aarch64 tests build.
packages="libc6-dev libstdc++-14-dev libasound2-dev libcups2-dev libfontconfig-dev libfreetype-dev
  libx11-dev libxext-dev libxrender-dev libxrandr-dev libxtst-dev libxt-dev libffi-dev
  zlib1g-dev libgif-dev libpng-dev libjpeg-dev libpcsclite-dev libboost-context-dev"
want_stamp=$(echo "$DEBIAN_SUITE $arch $packages" | sha256sum | cut -d' ' -f1)
if [ -f "$dir/.asgst-sysroot" ] && [ "$(cat "$dir/.asgst-sysroot")" = "$want_stamp" ]; then
  echo "$dir"
  exit 0
fi

[ "$(id -u)" = 0 ] || die "making a sysroot needs root (debootstrap)"
command -v debootstrap >/dev/null || install_host_packages debootstrap
mirror=${ASGST_DEBIAN_MIRROR:-$(host_debian_mirror)}
[ -n "$mirror" ] || die "found no Debian mirror in the host's apt configuration; set ASGST_DEBIAN_MIRROR"

rm -rf "$dir.partial"
mkdir -p "$dir.partial"
info "downloading the $arch packages of Debian $DEBIAN_SUITE into $dir"
# --foreign only downloads and unpacks the essential packages; the rest is
# unpacked below. Debian's archive has been seen to serve a stale index for
# some CPUs under the suite's code name ("File has unexpected size"): the
# suite is then asked for by its alias, which names the same release while
# that release is stable.
fetch() {
  debootstrap --arch="$arch" --foreign --variant=minbase --include="$(echo $packages | tr ' ' ,)" \
    "$1" "$dir.partial" "$mirror" > "$dir.partial.log" 2>&1
}
codename() {
  wget -qO- "$mirror/dists/$1/Release" 2>/dev/null | sed -n 's/^Codename: //p' || true
}
retry() {
  rm -rf "$dir.partial" && mkdir -p "$dir.partial" && fetch "$1"
}
# The archive has also been seen to lack a point release's files for some
# CPUs ("Couldn't download packages": its index names files its pool does
# not have). Then the release before (oldstable) is taken, and said so in
# DIR/.asgst-sysroot-release: a sysroot only lends headers and libraries to
# link against, the cross compiler brings its own C and C++ libraries'
# headers first (hence no libstdc++ of the release's GCC), and what make
# ports builds against it never runs (make test-aarch64, which runs its image
# on the sysroot's libraries, refuses such a sysroot).
release=$DEBIAN_SUITE
if ! fetch "$release"; then
  if [ "$(codename stable)" = "$release" ] && retry stable; then
    :
  elif grep -q "Couldn't download packages" "$dir.partial.log" && release=$(codename oldstable) &&
       [ -n "$release" ] && cp "$dir.partial.log" "$dir.partial.log.first" &&
       packages=$(echo $packages | sed 's/libstdc++-[0-9]*-dev//') && retry "$release"; then
    info "the archive lacks some $arch packages of Debian $DEBIAN_SUITE (log: $dir/.asgst-sysroot-first.log): made of Debian $release"
    mv "$dir.partial.log.first" "$dir.partial/.asgst-sysroot-first.log"
  else
    tail -5 "$dir.partial.log" >&2
    die "debootstrap --arch=$arch failed (log: $dir.partial.log)"
  fi
fi
for deb in "$dir.partial"/var/cache/apt/archives/*.deb; do
  dpkg-deb -x "$deb" "$dir.partial"
done
rm -rf "$dir.partial"/var/cache/apt/archives/*.deb "$dir.partial/debootstrap"

# /usr/lib/<triplet>/libm.so -> /lib/<triplet>/libm.so.6 would name the
# build machine's own file: point each absolute link at its target inside.
find "$dir.partial" -type l -lname '/*' | while read -r link; do
  target=$(readlink "$link")
  ln -sfn "$(realpath -m -s --relative-to="$(dirname "$link")" "$dir.partial$target")" "$link"
done
[ -f "$dir.partial/usr/include/stdio.h" ] || die "the sysroot has no C library headers"
echo "$release" > "$dir.partial/.asgst-sysroot-release"
echo "$want_stamp" > "$dir.partial/.asgst-sysroot"
rm -rf "$dir" "$dir.partial.log"
mv "$dir.partial" "$dir"
info "sysroot ready: $dir"
echo "$dir"
