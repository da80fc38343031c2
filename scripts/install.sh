#!/usr/bin/env bash
# Installs the built binaries as systemd services: the board (tictactoe), its web view
# (tictactoe-web) and its link to an MQTT broker (tictactoe-network, installed disabled: it needs
# the [network] table first). Run as root (make install does).
#
#   DESTDIR=dir   install into an image rather than this system (no systemctl, no udevadm)
#   BINARY=path   the board's binary (default: .build/release/tictactoe)
#   WEB_BINARY=path   the web view's (default: beside BINARY)
#   NETWORK_BINARY=path   the link's (default: beside BINARY)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${DESTDIR:-}
binary=${BINARY:-$root/.build/release/tictactoe}
web_binary=${WEB_BINARY:-$(dirname "$binary")/tictactoe-web}
network_binary=${NETWORK_BINARY:-$(dirname "$binary")/tictactoe-network}
for program in "$binary" "$web_binary" "$network_binary"; do
  [[ -x $program ]] || { echo "install: $program is missing; run make build-release first" >&2; exit 66; }
done

install -D -m 0755 "$binary" "$dest/usr/local/bin/tictactoe"
install -D -m 0755 "$web_binary" "$dest/usr/local/bin/tictactoe-web"
install -D -m 0755 "$network_binary" "$dest/usr/local/bin/tictactoe-network"
install -D -m 0644 "$root/systemd/tictactoe.service" "$dest/etc/systemd/system/tictactoe.service"
install -D -m 0644 "$root/systemd/tictactoe.socket" "$dest/etc/systemd/system/tictactoe.socket"
install -D -m 0644 "$root/systemd/tictactoe-web.service" "$dest/etc/systemd/system/tictactoe-web.service"
install -D -m 0644 "$root/systemd/tictactoe-network.service" "$dest/etc/systemd/system/tictactoe-network.service"
install -D -m 0644 "$root/packaging/network/sysusers.conf" "$dest/etc/sysusers.d/tictactoe-network.conf"
install -D -m 0644 -t "$dest/usr/local/share/tictactoe/web" "$root"/web/*
install -D -m 0644 "$root/systemd/60-tictactoe-gpio.rules" "$dest/etc/udev/rules.d/60-tictactoe-gpio.rules"
install -D -m 0644 "$root/README.md" "$dest/usr/local/share/doc/tictactoe/README.md"
install -D -m 0644 -t "$dest/usr/local/share/doc/tictactoe/docs" "$root/docs/PLAYING.md" "$root/docs/SERVICE.md" \
  "$root/docs/CONFIGURATION.md" "$root/docs/API.md" "$root/docs/WEB.md" "$root/docs/NETWORK.md"
install -D -m 0644 "$root/Hardware/mosquitto/tictactoe.acl" "$dest/usr/local/share/doc/tictactoe/tictactoe.acl"
install -D -m 0644 "$root/LICENSE" "$dest/usr/local/share/doc/tictactoe/LICENSE"
install -D -m 0644 "$root/Hardware/tictactoe.toml" "$dest/usr/local/share/doc/tictactoe/tictactoe.toml.default"
# Never overwrite a configuration the owner has edited.
if [[ -e $dest/etc/tictactoe/tictactoe.toml ]]; then
  echo "install: keeping the existing /etc/tictactoe/tictactoe.toml (the default is in /usr/local/share/doc/tictactoe)"
else
  install -D -m 0644 "$root/Hardware/tictactoe.toml" "$dest/etc/tictactoe/tictactoe.toml"
fi

if [[ -n $dest ]]; then
  for group in gpio tictactoe; do
    grep -q "^$group:" "$dest/etc/group" 2>/dev/null || chroot "$dest" groupadd --system "$group"
  done
  systemd-sysusers --root="$dest" tictactoe-network.conf
  mkdir -p "$dest/etc/systemd/system/multi-user.target.wants" "$dest/etc/systemd/system/sockets.target.wants"
  ln -sf /etc/systemd/system/tictactoe.service "$dest/etc/systemd/system/multi-user.target.wants/tictactoe.service"
  ln -sf /etc/systemd/system/tictactoe.socket "$dest/etc/systemd/system/sockets.target.wants/tictactoe.socket"
  ln -sf /etc/systemd/system/tictactoe-web.service "$dest/etc/systemd/system/multi-user.target.wants/tictactoe-web.service"
  echo "install: installed into $dest; the socket and the services are enabled"
  exit 0
fi

for group in gpio tictactoe; do
  getent group "$group" >/dev/null || groupadd --system "$group"
done
systemd-sysusers tictactoe-network.conf
if command -v udevadm >/dev/null && [[ -d /run/udev ]]; then
  udevadm control --reload
  udevadm trigger --subsystem-match=gpio
fi
/usr/local/bin/tictactoe check-config /etc/tictactoe/tictactoe.toml
systemctl daemon-reload
systemctl enable --now tictactoe.socket tictactoe.service tictactoe-web.service
echo "install: tictactoe.socket, tictactoe.service and tictactoe-web.service are enabled and started; follow the board with: journalctl -fu tictactoe"
echo "install: the board's page: http://$(hostname).local:8080/ from a phone on this network (web.listen in /etc/tictactoe/tictactoe.toml)"
echo "install: to put the board on an MQTT broker: set [network] in /etc/tictactoe/tictactoe.toml, then systemctl enable --now tictactoe-network (docs/NETWORK.md)"
echo "install: to watch and play from a shell (tictactoe watch): sudo adduser \$USER tictactoe, then log in again"
