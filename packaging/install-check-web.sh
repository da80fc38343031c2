#!/usr/bin/env bash
# Runs inside a throwaway trixie root (TRIXIE_THROWAWAY=1 packaging/in-trixie.sh): installs the
# board's package and the web view's with apt, as a maker does, then removes and purges the web
# view's, and reports what it found after each step as lines of "@@ name value" for
# packaging/test_deb.py to judge. Nothing here decides pass or fail.
#
# Usage: packaging/install-check-web.sh BOARD.deb WEB.deb
set -uo pipefail
board=$(realpath "${1:?usage: install-check-web.sh BOARD.deb WEB.deb}")
web=$(realpath "${2:?usage: install-check-web.sh BOARD.deb WEB.deb}")
report() { printf '@@ %s %s\n' "$1" "$2"; }
exists() { if [[ -e $1 || -L $1 ]]; then echo yes; else echo no; fi; }
export DEBIAN_FRONTEND=noninteractive
enabled=/etc/systemd/system/multi-user.target.wants/tictactoe-web.service
avahi=/etc/avahi/services/tictactoe-gpio-web.service

# The web view alone is refused: it needs the board's package of its own version.
apt-get install -y -q --no-install-recommends "$web" >/tmp/alone.log 2>&1
report alone-status "$(( $? != 0 ))"
apt-get install -y -q --no-install-recommends "$board" "$web" >/tmp/install.log 2>&1
report install-status $?
report enabled-after-install "$(exists "$enabled")"
report binary-version "$(/usr/bin/tictactoe-web --version 2>&1)"
report page-after-install "$(ls /usr/share/tictactoe-gpio/web | tr '\n' ' ' | sed 's/ $//')"
report avahi-after-install "$(exists "$avahi")"

apt-get remove -y -q tictactoe-gpio-web >/tmp/remove.log 2>&1
report remove-status $?
report binary-after-remove "$(exists /usr/bin/tictactoe-web)"
report unit-after-remove "$(exists /usr/lib/systemd/system/tictactoe-web.service)"
report board-after-remove "$(exists /usr/bin/tictactoe)"
report avahi-after-remove "$(exists "$avahi")"

apt-get purge -y -q tictactoe-gpio-web >/tmp/purge.log 2>&1
report purge-status $?
report enabled-after-purge "$(exists "$enabled")"
report avahi-after-purge "$(exists "$avahi")"
report board-after-purge "$(exists /usr/bin/tictactoe)"
for step in alone install remove purge; do
  sed "s/^/# $step: /" "/tmp/$step.log" | tail -15
done
