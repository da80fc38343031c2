#!/usr/bin/env bash
# Unpacks libgpiod 2.x (headers, library, pkg-config file, tools) from Debian 12's
# bookworm-backports suite into a local prefix, leaving the system's libgpiod 1.6.3 alone.
#
# Downloaded with scripts/download-debs.sh (the machine's own archive, a private apt configuration).
# Usage: vm/fetch-libgpiod2.sh PREFIX   (prints nothing more once PREFIX is complete)
set -euo pipefail
prefix=${1:?usage: fetch-libgpiod2.sh PREFIX}
mkdir -p "$(dirname "$prefix")"
source "$(dirname "$0")/../scripts/lock.sh"
take_lock "$prefix.lock"
[[ -f $prefix/.complete ]] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$(dirname "$0")/../scripts/download-debs.sh" amd64 bookworm-backports "$work/debs" libgpiod-dev libgpiod3 gpiod

rm -rf "$prefix"
mkdir -p "$prefix"
for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$prefix/root"; done

# Point the pkg-config file at the unpacked tree.
libdir=$(dirname "$(find "$prefix/root" -name 'libgpiod.so.3*' | head -1)")
pcfile=$(find "$prefix/root" -name libgpiod.pc | head -1)
mkdir -p "$prefix/pkgconfig"
sed -e "s|^prefix=.*|prefix=$prefix/root/usr|" -e "s|^libdir=.*|libdir=$libdir|" \
  -e "s|^includedir=.*|includedir=$prefix/root/usr/include|" "$pcfile" > "$prefix/pkgconfig/libgpiod.pc"
# The -dev package's libgpiod.so link is relative; make sure the linker finds it.
ln -sf "$(basename "$(find "$libdir" -name 'libgpiod.so.3*' -type f | head -1)")" "$libdir/libgpiod.so"
echo "$libdir" > "$prefix/libdir"
touch "$prefix/.complete"
echo "fetch-libgpiod2: libgpiod $(PKG_CONFIG_PATH=$prefix/pkgconfig pkg-config --modversion libgpiod) in $prefix"
