#!/usr/bin/env bash
# Brings everything a build needs up to date, doing only what is missing or changed:
# the build environment, the workspace tree, and OpenJDK's configure.
#
#   prepare.sh                  the configuration named in .asgst-config
#   prepare.sh --without-asgst  a second one, CONF-without-asgst, the same tree
#                               configured with --disable-jvm-feature-asgst
set -euo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "OpenJDK's configure"
load_config
without_asgst=false
case "${1:-}" in
  "") ;;
  --without-asgst) without_asgst=true; ASGST_CONF="$ASGST_CONF-without-asgst" ;;
  *) die "prepare.sh: unknown option $1" ;;
esac

if [ "$ASGST_ENV" = debian13 ]; then
  "$ASGST_REPO/make/asgst/build-env.sh" "$ASGST_ENV_DIR"
fi
"$ASGST_REPO/make/asgst/sync-workspace.sh"

jdk="$ASGST_WORKSPACE/jdk"
conf_dir="$jdk/build/$ASGST_CONF"
args=(
  --with-conf-name="$ASGST_CONF"
  --with-boot-jdk="$ASGST_BOOT_JDK"
  --with-debug-level="$ASGST_DEBUG_LEVEL"
  --with-native-debug-symbols=none
  --with-jvm-variants=server
  --disable-warnings-as-errors
  --enable-ccache
  --with-version-build="$UPSTREAM_BUILD" --with-version-pre= --with-version-opt=asgst
  --with-jtreg=/usr/share/jtreg
  # The tarball lacks the bundled copies of these libraries: use the system's.
  --with-zlib=system --with-giflib=system --with-libpng=system --with-libjpeg=system
  --with-extra-cflags=-I/usr/include/PCSC
)
# Both configurations build the gtests: make test-upstream runs the whole
# gtest suite on each (doc/testing.md, "HotSpot's own tests").
args+=(--with-gtest=/usr/src/googletest)
if $without_asgst; then
  args+=(--disable-jvm-feature-asgst)
fi
# A change to OpenJDK's configure scripts (a patch) configures again.
wanted="${args[*]} $(cat "$jdk"/make/autoconf/*.m4 | sha256sum | cut -c1-16)"
if [ -f "$conf_dir/spec.gmk" ] && [ "$(cat "$conf_dir/asgst-configure-args" 2>/dev/null)" = "$wanted" ]; then
  exit 0
fi
info "running OpenJDK's configure for $ASGST_CONF"
mkdir -p "$ASGST_WORKSPACE/ccache"
(cd "$jdk" && "$ASGST_REPO/make/asgst/in-env" bash configure "${args[@]}") > "$ASGST_WORKSPACE/configure-$ASGST_CONF.log" 2>&1 ||
  { tail -30 "$ASGST_WORKSPACE/configure-$ASGST_CONF.log" >&2; die "OpenJDK's configure failed (log: $ASGST_WORKSPACE/configure-$ASGST_CONF.log)"; }
echo "$wanted" > "$conf_dir/asgst-configure-args"
info "configured $conf_dir"
