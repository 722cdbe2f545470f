#!/usr/bin/env bash
# Builds the comparison JDK without ASGST (doc/performance.md, "Cost when unused"):
# the same tree configured a second time with --disable-jvm-feature-asgst, which
# compiles out the API and every hook. ASGST changes nothing but HotSpot (and
# ships profile.h), so only libjvm is built; the image is a copy of the ASGST
# image with that libjvm and its own CDS archives (an archive is valid only
# for the libjvm that wrote it).
#
#   build-without-asgst.sh      prints the image's directory on its last line
set -euo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "the JDK without ASGST"
load_config

"$ASGST_REPO/make/asgst/prepare.sh" --without-asgst
conf="$ASGST_CONF-without-asgst"
build="$ASGST_WORKSPACE/jdk/build/$conf"
source_image="$ASGST_WORKSPACE/jdk/build/$ASGST_CONF/images/jdk"
[ -x "$source_image/bin/java" ] || die "no ASGST image at $source_image: run make images first"

MAKEFLAGS= MFLAGS= "$ASGST_REPO/make/asgst/in-env" make -C "$ASGST_WORKSPACE/jdk" CONF="$conf" hotspot >&2
libjvm="$build/support/modules_libs/java.base/server/libjvm.so"
[ -f "$libjvm" ] || die "the build left no $libjvm"
if "$ASGST_REPO/make/asgst/in-env" nm -D --defined-only "$libjvm" | grep -q ' ASGST_'; then
  die "$libjvm still defines ASGST_ functions: the feature was not compiled out"
fi

image="$build/images/jdk"
if [ ! -f "$image/.asgst-from" ] || [ "$(cat "$image/.asgst-from")" != "$(cksum < "$libjvm") $(cksum < "$source_image/lib/server/libjvm.so")" ]; then
  info "composing $image"
  rm -rf "$image.partial" "$image"
  mkdir -p "$(dirname "$image")"
  cp -a "$source_image" "$image.partial"
  cp "$libjvm" "$image.partial/lib/server/libjvm.so"
  for archive in "$image.partial"/lib/server/*.jsa; do
    # The options each archive of the build was written with (its name says).
    options=(-XX:+UseCompressedOops -XX:-UseCompactObjectHeaders)
    case "$archive" in *_nocoops*) options[0]=-XX:-UseCompressedOops ;; esac
    case "$archive" in *_coh.jsa) options[1]=-XX:+UseCompactObjectHeaders ;; esac
    "$ASGST_REPO/make/asgst/in-env" "$image.partial/bin/java" -Xshare:dump "${options[@]}" -XX:SharedArchiveFile="$archive" -Xmx128M -Xms128M >/dev/null
  done
  echo "$(cksum < "$libjvm") $(cksum < "$source_image/lib/server/libjvm.so")" > "$image.partial/.asgst-from"
  mv "$image.partial" "$image"
fi
echo "$image"
