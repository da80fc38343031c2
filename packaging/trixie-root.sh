#!/usr/bin/env bash
# The trixie build environment: a Debian 13 amd64 root file system with Debian's own Swift
# (swiftlang 6.0.3, the toolchain Raspberry Pi OS Trixie ships) and what building tictactoe-gpio
# needs, made once with debootstrap and cached, keyed by this script (its suite and package list).
# The archive address is the one already in this machine's apt sources; none is written here.
#
# Usage: packaging/trixie-root.sh CACHE_DIR   -> prints the path of the root file system
set -euo pipefail
if [[ $(id -u) -ne 0 ]]; then
  echo "$(basename "$0"): the trixie build environment needs root (debootstrap, chroot, mounts); run it with sudo" >&2
  exit 77
fi
cache=${1:?usage: trixie-root.sh CACHE_DIR}
# swiftlang pulls in neither libc6-dev (crt files for the linker) nor libstdc++-14-dev (the C++
# library the Swift runtime links); git for SwiftPM; libgpiod-dev 2.2 and pkg-config for the GPIO shim;
# libqrencode-dev for the QR code shim (the page's address); libsqlite3-dev for the board's
# database (SQLite, the CSQLite system library); libmosquitto-dev for the link to a broker; dpkg-dev (dpkg-shlibdeps) and lintian to make and
# check the package the Debian way.
packages=swiftlang,libc6-dev,libstdc++-14-dev,libgpiod-dev,libqrencode-dev,libsqlite3-dev,libmosquitto-dev,pkg-config,git,ca-certificates
# Then with apt (debootstrap's resolver cannot follow lintian's virtual dependencies): the
# arm64 runtime libraries beside the amd64 ones (multiarch: libc6, the C++ runtime, libgpiod3,
# libqrencode4 and libsqlite3-0, the board's; libmosquitto1, the link's), so that dpkg-shlibdeps finds them and their
# symbols files for the arm64 binary; systemd, so that the package's own installation
# test finds what a Raspberry Pi OS has (systemd-sysusers, deb-systemd-helper); python3, whose
# tomllib the TOML reader's tests compare with; mosquitto, its clients and openssl, the broker
# and certificates the link's tests start and make.
later=(dpkg-dev lintian file systemd python3 libc6:arm64 libstdc++6:arm64 libgcc-s1:arm64 libgpiod3:arm64 libqrencode4:arm64
  libsqlite3-0:arm64 libmosquitto1:arm64 mosquitto mosquitto-clients openssl)
key=$(cat "$0" | sha256sum | cut -c1-16)
tree=$cache/trixie-$key
mkdir -p "$cache"
# One maker at a time (make test makes it in the background while other stages run).
source "$(dirname "$0")/../scripts/lock.sh"
take_lock "$cache/.lock-trixie-root"
if [[ -f $tree/.complete ]]; then
  echo "$tree"
  exit 0
fi
command -v debootstrap >/dev/null || { echo "trixie-root: debootstrap is missing (apt-get install debootstrap)" >&2; exit 69; }

# The first Debian archive URI in the machine's sources that serves bookworm also serves trixie.
uri=$(bash "$(dirname "$0")/../scripts/debian-archive.sh")

# Older trees (other inputs) are of no more use; each is a few GB.
rm -rf "$cache"/trixie-*
mkdir -p "$cache"
echo "trixie-root: debootstrap trixie with $packages (about 550 MB to download, once)" >&2
debootstrap --variant=minbase --include="$packages" trixie "$tree" "$uri" >&2
# No service starts in the root (mosquitto's package would start its broker): Debian's policy-rc.d.
printf '#!/bin/sh\nexit 101\n' > "$tree/usr/sbin/policy-rc.d"
chmod 0755 "$tree/usr/sbin/policy-rc.d"
chroot "$tree" dpkg --add-architecture arm64
chroot "$tree" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive chroot "$tree" apt-get install -y -qq --no-install-recommends "${later[@]}" >&2
chroot "$tree" apt-get clean
rm -f "$tree/var/cache/apt/archives/"*.deb
touch "$tree/.complete"
echo "$tree"
