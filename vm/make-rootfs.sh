#!/usr/bin/env bash
# A Debian 12 root filesystem with systemd for the service test VM, made once with debootstrap
# and cached, keyed by the package list. The archive address comes from the machine's own apt
# sources. Prints the path of the cached tree.
#
# Usage: vm/make-rootfs.sh CACHE_DIR
set -euo pipefail
cache=${1:?usage: make-rootfs.sh CACHE_DIR}
packages=systemd,systemd-sysv,udev,libgpiod2,gpiod,procps
key=$(echo "bookworm minbase $packages" | sha256sum | cut -c1-16)
tree=$cache/rootfs-$key
if [[ -f $tree/.complete ]]; then
  echo "$tree"
  exit 0
fi
uri=$(bash "$(dirname "$0")/../scripts/debian-archive.sh")
rm -rf "$tree"
echo "make-rootfs: debootstrap bookworm ($packages); about a minute" >&2
debootstrap --variant=minbase --include="$packages" bookworm "$tree" "$uri" >&2
# No login prompt on the console the test reads; a fixed machine id for a quiet first boot.
ln -sf /dev/null "$tree/etc/systemd/system/serial-getty@ttyS0.service"
echo "tictactoe-vm" > "$tree/etc/hostname"
rm -f "$tree/var/cache/apt/archives/"*.deb
touch "$tree/.complete"
echo "$tree"
