# Shared helpers for the ASGST build glue. Sourced, never run.

ASGST_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ASGST_CONFIG_FILE="$ASGST_REPO/.asgst-config"
. "$ASGST_REPO/make/asgst/upstream.conf"

die() { echo "asgst: error: $*" >&2; exit 1; }
info() { echo "asgst: $*" >&2; }

# The cache root holds what is shared by all workspaces: downloads, apt state,
# the build environment.
asgst_cache_dir() { echo "${ASGST_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/asgst}"; }

# Reads the settings that configure wrote; fails when configure has not run.
load_config() {
  [ -f "$ASGST_CONFIG_FILE" ] || die "not configured: run ./configure first"
  . "$ASGST_CONFIG_FILE"
}

is_debian_like() { [ -f /etc/debian_version ] && command -v apt-get >/dev/null; }

# The Debian archive this host's apt uses: the repository of its own release
# (not -security, -updates or -backports). Printed without a trailing slash.
host_debian_mirror() {
  local codename uri release rest
  codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
  apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(TARGET_OF)' 2>/dev/null | sort -u |
    while read -r uri release rest; do
      case "$release" in *-*) continue ;; esac
      [ -z "$codename" ] || [ "$release" = "$codename" ] || continue
      echo "${uri%/}"
      break
    done
}

# The security archive of this host's apt configuration, if any.
host_security_mirror() {
  apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null | sort -u |
    awk '$2 ~ /-security$/ { sub(/\/$/, "", $1); print $1; exit }'
}

# Installs host packages with the host's own apt (Debian/Ubuntu, as root only).
install_host_packages() {
  if [ "$(id -u)" = 0 ] && is_debian_like; then
    info "installing on the host: $*"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >&2 ||
      die "could not install $* with apt-get"
  else
    die "please install: $* (needed to create the Debian 13 build environment)"
  fi
}
