#!/usr/bin/env bash
# Unpacks libgpiod 2.x (headers, library, pkg-config file, tools) from Debian 12's
# bookworm-backports suite into a local prefix, leaving the system's libgpiod 1.6.3 alone.
#
# The archive address is taken from the machine's own apt sources; none is written here.
# Usage: vm/fetch-libgpiod2.sh PREFIX   (prints nothing more once PREFIX is complete)
set -euo pipefail
prefix=${1:?usage: fetch-libgpiod2.sh PREFIX}
[[ -f $prefix/.complete ]] && exit 0

# The first Debian archive URI that serves bookworm.
uri=$(bash "$(dirname "$0")/../scripts/debian-archive.sh")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/debs"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
echo "deb [signed-by=$keyring] $uri bookworm-backports main" > "$work/sources.list"
apt_opts=(
  -o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=-"
  -o "Dir::State::Lists=$work/lists" -o "APT::Get::List-Cleanup=0"
  -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root"
)
apt-get "${apt_opts[@]}" update -qq
(cd "$work/debs" && apt-get "${apt_opts[@]}" download -qq \
  "libgpiod-dev/bookworm-backports" "libgpiod3/bookworm-backports" "gpiod/bookworm-backports")

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
