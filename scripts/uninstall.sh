#!/usr/bin/env bash
# Stops and removes the tictactoe service and its socket. Keeps /etc/tictactoe (the owner's configuration) and
# /var/lib/private/tictactoe (the saved game); the message says how to remove them too.
set -euo pipefail
if systemctl list-unit-files tictactoe.service >/dev/null 2>&1; then
  systemctl disable --now tictactoe.socket tictactoe.service || true
fi
rm -f /etc/systemd/system/tictactoe.service /etc/systemd/system/tictactoe.socket /etc/udev/rules.d/60-tictactoe-gpio.rules /usr/local/bin/tictactoe
rm -rf /usr/local/share/doc/tictactoe
systemctl daemon-reload || true
echo "uninstall: removed the service and the binary; kept /etc/tictactoe and the saved game (rm -r /etc/tictactoe /var/lib/private/tictactoe to remove them)"
