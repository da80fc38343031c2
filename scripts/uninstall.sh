#!/usr/bin/env bash
# Stops and removes the tictactoe services and the board's socket. Keeps /etc/tictactoe (the owner's configuration) and
# /var/lib/private/tictactoe (the saved game); the message says how to remove them too.
set -euo pipefail
if systemctl list-unit-files tictactoe.service >/dev/null 2>&1; then
  systemctl disable --now tictactoe-network.service tictactoe-web.service tictactoe.socket tictactoe.service || true
fi
rm -f /etc/systemd/system/tictactoe.service /etc/systemd/system/tictactoe.socket /etc/systemd/system/tictactoe-web.service \
  /etc/systemd/system/tictactoe-network.service /etc/sysusers.d/tictactoe-network.conf /usr/local/bin/tictactoe-network \
  /etc/udev/rules.d/60-tictactoe-gpio.rules /usr/local/bin/tictactoe /usr/local/bin/tictactoe-web
rm -rf /usr/local/share/doc/tictactoe /usr/local/share/tictactoe
systemctl daemon-reload || true
echo "uninstall: removed the services and the binaries; kept /etc/tictactoe, the saved game and the MQTT link's folder with its password (rm -r /etc/tictactoe /var/lib/private/tictactoe /var/lib/tictactoe-network to remove them)"
