#!/usr/bin/env bash
# Runs inside a throwaway trixie root (TRIXIE_THROWAWAY=1 packaging/in-trixie.sh): installs the
# package with apt the way a maker does, edits the configuration, installs it again (the upgrade
# path), removes it and purges it, and reports what it found after each step as lines of
# "@@ name value" for packaging/test_deb.py to judge. Nothing here decides pass or fail.
#
# Usage: packaging/install-check.sh PACKAGE.deb
set -uo pipefail
deb=$(realpath "${1:?usage: install-check.sh PACKAGE.deb}")
report() { printf '@@ %s %s\n' "$1" "$2"; }
exists() { if [[ -e $1 || -L $1 ]]; then echo yes; else echo no; fi; }
export DEBIAN_FRONTEND=noninteractive
enabled=/etc/systemd/system/multi-user.target.wants/tictactoe.service
socket_enabled=/etc/systemd/system/sockets.target.wants/tictactoe.socket
state=/var/lib/private/tictactoe/state.json

report group-before "$(getent group gpio >/dev/null && echo yes || echo no)"
apt-get install -y -q --no-install-recommends "$deb" >/tmp/install.log 2>&1
report install-status $?
report group-after-install "$(getent group gpio >/dev/null && echo yes || echo no)"
report enabled-after-install "$(exists "$enabled")"
report api-group-after-install "$(getent group tictactoe >/dev/null && echo yes || echo no)"
report socket-enabled-after-install "$(exists "$socket_enabled")"
report binary-version "$(/usr/bin/tictactoe --version 2>&1)"
report config-check "$(/usr/bin/tictactoe check-config /etc/tictactoe/tictactoe.toml >/dev/null 2>&1; echo $?)"

# A maker's edit, and a saved game as the service would leave it (DynamicUser: under private/).
echo '# edited by the maker' >> /etc/tictactoe/tictactoe.toml
mkdir -p "$(dirname "$state")"
echo '{}' > "$state"
apt-get install -y -q --reinstall --no-install-recommends "$deb" >/tmp/reinstall.log 2>&1
report reinstall-status $?
report config-edit-kept "$(grep -q '^# edited by the maker$' /etc/tictactoe/tictactoe.toml && echo yes || echo no)"
report state-kept-on-upgrade "$(exists "$state")"

apt-get remove -y -q tictactoe-gpio >/tmp/remove.log 2>&1
report remove-status $?
report binary-after-remove "$(exists /usr/bin/tictactoe)"
report unit-after-remove "$(exists /usr/lib/systemd/system/tictactoe.service)"
report config-after-remove "$(exists /etc/tictactoe/tictactoe.toml)"
report state-after-remove "$(exists "$state")"

apt-get purge -y -q tictactoe-gpio >/tmp/purge.log 2>&1
report purge-status $?
report config-after-purge "$(exists /etc/tictactoe)"
report state-after-purge "$(exists /var/lib/private/tictactoe)"
report enabled-after-purge "$(exists "$enabled")"
report socket-enabled-after-purge "$(exists "$socket_enabled")"
report udev-rule-after-purge "$(exists /usr/lib/udev/rules.d/60-tictactoe-gpio.rules)"
report group-after-purge "$(getent group gpio >/dev/null && echo yes || echo no)"
for step in install reinstall remove purge; do
  sed "s/^/# $step: /" "/tmp/$step.log" | tail -15
done
