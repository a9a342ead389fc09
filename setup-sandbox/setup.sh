#!/usr/bin/env bash
# Makes the machine ready for toolgate's sandbox (bubblewrap) and says whether MCP servers will
# run sandboxed: in the log, as the step outputs `sandboxed` (true/false) and `reason`, and in
# the job summary.
#
# 1. Installs bubblewrap when /usr/bin/bwrap is missing (apt-get update first).
# 2. Where AppArmor restricts unprivileged user namespaces
#    (kernel.apparmor_restrict_unprivileged_userns = 1, Ubuntu 23.10+, GitHub's ubuntu-latest),
#    loads AppArmor's own bwrap-userns-restrict profile from the apparmor-profiles package
#    (installed when missing): bwrap may make user namespaces, the processes it starts get no
#    capabilities. This is what AppArmor's maintainers recommend; the global sysctl and an
#    unconfined bwrap profile would lift the restriction for far more than bwrap, and neither is
#    ever done here.
# 3. Probes bwrap with a network namespace of its own, as toolgate starts servers: under the
#    restriction that fails with "loopback: Failed RTM_NEWADDR".
#
# Never fails the step for want of a sandbox (the policy's `sandbox: required` decides that in
# toolgate's own step); fails only when a command it runs fails unexpectedly.
#
# For tests, each place it reads can be moved: TOOLGATE_PROC_ROOT (/proc), TOOLGATE_APPARMOR_DIR
# (/etc/apparmor.d), TOOLGATE_EXTRA_PROFILES (/usr/share/apparmor/extra-profiles), TOOLGATE_BWRAP
# (/usr/bin/bwrap); apt-get, apparmor_parser and sudo are taken from PATH.
set -euo pipefail

proc_root="${TOOLGATE_PROC_ROOT:-/proc}"
apparmor_dir="${TOOLGATE_APPARMOR_DIR:-/etc/apparmor.d}"
extra_profiles="${TOOLGATE_EXTRA_PROFILES:-/usr/share/apparmor/extra-profiles}"
bwrap="${TOOLGATE_BWRAP:-/usr/bin/bwrap}"
profile=bwrap-userns-restrict

log() { printf 'toolgate setup-sandbox: %s\n' "$*"; }

# Root's commands, through sudo where the step does not run as root (GitHub's hosted runners).
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Whether a profile file is AppArmor's bwrap-userns-restrict as toolgate relies on it: it
# attaches to /usr/bin/bwrap (the only bwrap toolgate runs), what bwrap starts is stacked with
# unpriv_bwrap (no capabilities), and no profile in it is unconfined.
restrictive() {
  grep -Eq '^[[:space:]]*profile[[:space:]]+bwrap[[:space:]]+/usr/bin/bwrap[[:space:]]' "$1" &&
    grep -Eq '^[[:space:]]*allow[[:space:]]+p[i]?x[[:space:]]+/\*\*[[:space:]]+->[[:space:]]+&?bwrap//&unpriv_bwrap' "$1" &&
    grep -Eq '^[[:space:]]*profile[[:space:]]+unpriv_bwrap[[:space:]]' "$1" &&
    grep -Eq '^[[:space:]]*(audit[[:space:]]+)?deny[[:space:]]+capability,' "$1" &&
    ! grep -Eq 'flags=\([^)]*unconfined' "$1"
}

not_restrictive() {
  report false "$1 is not AppArmor's restrictive $profile profile (it must confine /usr/bin/bwrap, stack what bwrap starts with unpriv_bwrap, which has no capabilities, and have no unconfined profile); toolgate does not load it"
}

updated=false
apt_install() {
  if [ "$updated" = false ]; then
    as_root apt-get update -qq
    updated=true
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

# Writes the verdict where the workflow reads it and ends the script.
report() {
  local sandboxed="$1" reason="$2"
  if [ "$sandboxed" = true ]; then log "servers will run sandboxed: $reason"; else log "servers will NOT run sandboxed: $reason"; fi
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    printf 'sandboxed=%s\n' "$sandboxed" >>"$GITHUB_OUTPUT"
    # One line: the reason is one line of bwrap's stderr or of this script's own.
    printf 'reason=%s\n' "${reason//$'\n'/ }" >>"$GITHUB_OUTPUT"
  fi
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    if [ "$sandboxed" = true ]; then
      printf '**toolgate sandbox:** servers will run sandboxed (bubblewrap): %s\n' "$reason" >>"$GITHUB_STEP_SUMMARY"
    else
      printf '**toolgate sandbox:** servers will NOT run sandboxed: %s\n' "$reason" >>"$GITHUB_STEP_SUMMARY"
    fi
  fi
  if [ "$sandboxed" != true ]; then printf '::warning title=toolgate sandbox::servers will not run sandboxed: %s\n' "${reason//$'\n'/ }"; fi
  exit 0
}

if [ "$(uname -s)" != Linux ]; then
  report false "no sandbox on $(uname -s): toolgate sandboxes servers with bubblewrap, on Linux"
fi

if [ ! -x "$bwrap" ]; then
  log "installing bubblewrap"
  apt_install bubblewrap
  [ -x "$bwrap" ] || report false "bubblewrap is not installed at $bwrap after apt-get install bubblewrap"
fi

restricted=0
if [ -r "$proc_root/sys/kernel/apparmor_restrict_unprivileged_userns" ]; then
  restricted="$(tr -d '[:space:]' <"$proc_root/sys/kernel/apparmor_restrict_unprivileged_userns")"
fi

if [ "$restricted" = 1 ]; then
  log "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1)"
  if [ ! -f "$apparmor_dir/$profile" ]; then
    if [ ! -f "$extra_profiles/$profile" ]; then
      log "installing apparmor-profiles (AppArmor's $profile profile)"
      apt_install apparmor-profiles
    fi
    [ -f "$extra_profiles/$profile" ] ||
      report false "AppArmor restricts unprivileged user namespaces and its $profile profile is not in $extra_profiles (package apparmor-profiles); toolgate does not lift the restriction any other way"
    # Checked before it is copied: whatever is in /etc/apparmor.d is loaded again at boot.
    restrictive "$extra_profiles/$profile" || not_restrictive "$extra_profiles/$profile"
    as_root install -m 0644 "$extra_profiles/$profile" "$apparmor_dir/$profile"
  fi
  restrictive "$apparmor_dir/$profile" || not_restrictive "$apparmor_dir/$profile"
  log "loading $apparmor_dir/$profile"
  as_root apparmor_parser -r "$apparmor_dir/$profile"
fi

# The probe: a network namespace of its own, as a server gets (the restriction shows there).
if err="$("$bwrap" --unshare-all --die-with-parent --new-session --cap-drop ALL --ro-bind / / --proc /proc --dev /dev -- true 2>&1)"; then
  version="$("$bwrap" --version 2>/dev/null | head -n 1 || true)"
  if [ "$restricted" = 1 ]; then report true "${version:-bubblewrap} with AppArmor's $profile profile"; fi
  report true "${version:-bubblewrap}"
fi
why="$(printf '%s\n' "$err" | head -n 1)"
if [ "$restricted" = 1 ]; then
  report false "bubblewrap cannot make namespaces ($why) although AppArmor's $profile profile is loaded"
fi
report false "bubblewrap cannot make namespaces here ($why)"
