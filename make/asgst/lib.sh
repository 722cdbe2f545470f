# Shared helpers for the ASGST build glue. Sourced, never run.

ASGST_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ASGST_CONFIG_FILE="$ASGST_REPO/.asgst-config"
. "$ASGST_REPO/make/asgst/upstream.conf"

# Every failure prints one line "asgst: error: STEP: why". die() says why; a
# command that fails under set -e without a die() is reported by the ERR trap
# below with its line. die() exits with ASGST_REPORTED so that the scripts and
# command substitutions above it do not report the same failure again.
ASGST_REPORTED=86
ASGST_STEP=$(basename "$0")
asgst_step() { ASGST_STEP=$1; }
die() { echo "asgst: error: $ASGST_STEP: $*" >&2; exit "$ASGST_REPORTED"; }
info() { echo "asgst: $*" >&2; }
asgst_on_error() {
  local status=$1 line=$2 command=$3
  [ "$status" = "$ASGST_REPORTED" ] ||
    echo "asgst: error: $ASGST_STEP: '$command' failed with exit status $status ($(basename "$0"), line $line)" >&2
  exit "$ASGST_REPORTED"
}
case $- in
  *e*) set -E; trap 'asgst_on_error $? $LINENO "$BASH_COMMAND"' ERR ;;
esac

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

# Whether OpenJDK's test summary FILE says that every test selection ran tests
# and none failed. Rows: [>>] NAME TOTAL PASS FAIL ERROR SKIP [<<]; a long
# name may stand on a line of its own.
test_summary_passed() {
  [ -f "$1" ] && grep -q '^TEST SUCCESS' "$1" &&
    awk 'NF >= 5 && $NF ~ /^[0-9]+$|^<<$/ { n = ($NF == "<<") ? NF - 1 : NF
           if ($(n-4) !~ /^[0-9]+$/) next
           rows++; if ($(n-3) == 0 || $(n-2) + $(n-1) > 0) bad++ }
         END { exit !(rows > 0 && bad == 0) }' "$1"
}

# Runs COMMAND with its output in LOG and prints "PASS WHAT: NAME (N s)", or
# "FAIL WHAT: NAME (log: LOG)" and the log's last lines; counts the result in
# check_passed and check_failed, and returns COMMAND's status.
check_passed=0 check_failed=0
check_step() {  # check_step WHAT NAME LOG COMMAND...
  local what=$1 name=$2 log=$3 start status
  shift 3
  start=$(date +%s)
  "$@" > "$log" 2>&1 && status=0 || status=$?
  if [ "$status" = 0 ]; then
    echo "PASS $what: $name ($(( $(date +%s) - start )) s)"
    check_passed=$((check_passed + 1))
  else
    echo "FAIL $what: $name (log: $log)"
    tail -n 15 "$log" | sed 's/^/  /'
    check_failed=$((check_failed + 1))
  fi
  return "$status"
}
# Prints the counts of check_step as "N passed, N failed" and exits, non-zero
# when a step failed.
check_finish() {
  echo "$check_passed passed, $check_failed failed"
  [ "$check_failed" = 0 ]
  exit
}
