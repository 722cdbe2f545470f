#!/usr/bin/env bash
# Builds HotSpot with the project's patches for every CPU and VM variant that
# OpenJDK's own CI builds, as that CI builds them:
#   aarch64 arm ppc64le s390x riscv64   cross-compiled, fastdebug, without
#                                        precompiled headers, against a Debian
#                                        sysroot (make/asgst/sysroot.sh), with gtest
#   zero minimal                         the x86_64 variants, fastdebug, without
#                                        precompiled headers, with gtest
# Each target is configured once in the workspace as CONF port-TARGET and built
# with "make hotspot" (libjvm and, with gtest, the gtest libjvm and launcher).
# Prints one line per target, "TARGET: built (N s)" or "TARGET: FAILED: first
# error", then "N passed, N failed"; exits non-zero when a target failed.
#
#   build-ports.sh [TARGET...]     default: every target
# PORTS_TREE names another JDK source tree to build instead of the workspace's
# (make test-branch: the review branch's checkout); its logs then go to that
# tree's build directory.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
asgst_step "building the ports"
load_config

all_targets="aarch64 arm ppc64le s390x riscv64 zero minimal"
targets=${*:-$all_targets}
jdk="${PORTS_TREE:-$ASGST_WORKSPACE/jdk}"
logs="$ASGST_WORKSPACE"
[ -z "${PORTS_TREE:-}" ] || logs="$jdk/build"
cache=$(asgst_cache_dir)
in_env="$ASGST_REPO/make/asgst/in-env"

# Debian's name of a CPU, and GNU's target triplet.
debian_arch() {
  case "$1" in aarch64) echo arm64 ;; arm) echo armhf ;; ppc64le) echo ppc64el ;; *) echo "$1" ;; esac
}
gnu_triplet() {
  case "$1" in
    arm) echo arm-linux-gnueabihf ;;
    ppc64le) echo powerpc64le-linux-gnu ;;
    *) echo "$1-linux-gnu" ;;
  esac
}

# OpenJDK's configure for one target (with its sysroot, if cross-compiled),
# run again only when its arguments or OpenJDK's configure scripts changed (as
# prepare.sh does for the main build). Prints the error when it fails.
configure_target() {
  local target=$1 sysroot=$2 conf="port-$1" log="$logs/configure-port-$1.log"
  local args=(
    --with-conf-name="$conf"
    --with-boot-jdk="$ASGST_BOOT_JDK"
    --with-debug-level=fastdebug
    --disable-precompiled-headers
    --with-native-debug-symbols=none
    --enable-ccache
    # Upstream's own code is not free of GCC 14's warnings on every CPU (arm's
    # vtableStubs_arm.cpp); warnings in the project's files fail the target below.
    --disable-warnings-as-errors
    --with-gtest=/usr/src/googletest
    --with-version-build="$UPSTREAM_BUILD" --with-version-pre= --with-version-opt=asgst
    --with-zlib=system --with-giflib=system --with-libpng=system --with-libjpeg=system
  )
  case "$target" in
    zero|minimal)
      args+=(--with-jvm-variants="$target" --with-extra-cflags=-I/usr/include/PCSC) ;;
    *)
      args+=(--openjdk-target="$(gnu_triplet "$target")" --with-sysroot="$sysroot"
             --with-jvm-variants=server --with-extra-cflags="-I$sysroot/usr/include/PCSC") ;;
  esac
  local wanted
  wanted="${args[*]} $(cat "$jdk"/make/autoconf/*.m4 | sha256sum | cut -c1-16)"
  if [ -f "$jdk/build/$conf/spec.gmk" ] && [ "$(cat "$jdk/build/$conf/asgst-configure-args" 2>/dev/null)" = "$wanted" ]; then
    return 0
  fi
  info "running OpenJDK's configure for $conf"
  (cd "$jdk" && ASGST_ENV_BIND="${ASGST_ENV_BIND:-} $sysroot" "$in_env" bash configure "${args[@]}") > "$log" 2>&1 ||
    { echo "configure: $(grep -m1 'configure: error' "$log" || tail -1 "$log") (log: $log)"; return 1; }
  echo "$wanted" > "$jdk/build/$conf/asgst-configure-args"
}

# The first line of a failed build's log that names an error.
first_error() {
  grep -m1 -E 'error:|Error [0-9]+|\*\*\* ' "$1" || tail -1 "$1"
}

# The first compiler warning about one of the project's files (prims/asgst*,
# cpu/*/asgst*, the asgst gtests), which upstream would reject as an error,
# from the output that OpenJDK's make keeps beside each object (so that an
# object compiled by an earlier run still counts).
first_own_warning() {
  cat "$jdk/build/port-$1"/hotspot/variant-*/libjvm/objs/*.o.log \
      "$jdk/build/port-$1"/hotspot/variant-*/libjvm/gtest/objs/*.o.log 2>/dev/null |
    grep -m1 -E '/(asgst|test_asgst)[A-Za-z0-9_]*\.(cpp|hpp)(:[0-9]+)+: warning:'
}

# The environment needs the cross compilers; the workspace needs the synced tree.
if [ "$ASGST_ENV" = debian13 ]; then
  "$ASGST_REPO/make/asgst/build-env.sh" "$ASGST_ENV_DIR" env-packages-ports.txt || exit 1
fi
if [ -z "${PORTS_TREE:-}" ]; then
  "$ASGST_REPO/make/asgst/sync-workspace.sh" || exit 1
fi
mkdir -p "$logs"

passed=0 failed=0
for target in $targets; do
  case " $all_targets " in *" $target "*) ;; *) die "unknown target $target (targets: $all_targets)" ;; esac
  log="$logs/build-port-$target.log"
  start=$(date +%s)
  sysroot=""
  case "$target" in
    zero|minimal) ;;
    *) sysroot="$cache/sysroot-$(debian_arch "$target")"
       if ! why=$("$ASGST_REPO/make/asgst/sysroot.sh" "$(debian_arch "$target")" "$sysroot" 2>&1 >/dev/null); then
         echo "$target: FAILED: ${why##*$'\n'}"
         failed=$((failed + 1))
         continue
       fi ;;
  esac
  if ! why=$(configure_target "$target" "$sysroot" 2>&1); then
    echo "$target: FAILED: ${why##*$'\n'}"
    failed=$((failed + 1))
    continue
  fi
  if MAKEFLAGS= MFLAGS= ASGST_ENV_BIND="${ASGST_ENV_BIND:-} $sysroot" \
       "$in_env" make -C "$jdk" CONF="port-$target" hotspot > "$log" 2>&1; then
    if warning=$(first_own_warning "$target"); then
      echo "$target: FAILED: $warning (log: $log)"
      failed=$((failed + 1))
      continue
    fi
    release=
    [ -z "$sysroot" ] || release=$(cat "$sysroot/.asgst-sysroot-release" 2>/dev/null || true)
    echo "$target: built ($(( $(date +%s) - start )) s$([ -z "$release" ] || [ "$release" = "$DEBIAN_SUITE" ] ||
                                                         echo ", sysroot of Debian $release"))"
    passed=$((passed + 1))
  else
    echo "$target: FAILED: $(first_error "$log") (log: $log)"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
