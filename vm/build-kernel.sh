#!/usr/bin/env bash
# Builds the kernels for the test VMs from Debian's linux-source-6.12 package (Debian's own
# kernels lack CONFIG_GPIO_SIM) and caches them outside git, keyed by the source version, the
# architecture, the base configuration and the fragment, so each is built once per machine; the
# unpacked source is kept for both (a new fragment rebuilds only its kernel).
#
# Usage: vm/build-kernel.sh CACHE_DIR [tiny|arm64]   -> prints the path of the kernel image
#   tiny   x86_64 tinyconfig + kernel.fragment: the gpio-sim suite's initramfs VM (about 3 minutes)
#   arm64  arm64 tinyconfig + kernel-arm64.fragment, cross-built with Debian's
#          gcc-aarch64-linux-gnu: the appliance VM, with systemd (QEMU's virt machine)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:?usage: build-kernel.sh CACHE_DIR [tiny|arm64]}
flavour=${2:-tiny}
case $flavour in
  tiny) base=(tinyconfig); fragment=$here/kernel.fragment; cross=(); target=bzImage; built=arch/x86/boot/bzImage ;;
  arm64)
    base=(tinyconfig); fragment=$here/kernel-arm64.fragment
    cross=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-); target=Image; built=arch/arm64/boot/Image
    command -v aarch64-linux-gnu-gcc >/dev/null || {
      echo "build-kernel: aarch64-linux-gnu-gcc is missing; install gcc-aarch64-linux-gnu (make setup-tests does)" >&2; exit 69; }
    ;;
  *) echo "build-kernel: the flavour is tiny or arm64" >&2; exit 64 ;;
esac
tarball=$(ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null || true)
if [[ -z $tarball ]]; then
  echo "build-kernel: /usr/src/linux-source-6.12.tar.xz is missing; install the linux-source-6.12 package" >&2
  exit 69
fi
version=$(dpkg-query -W -f='${Version}' linux-source-6.12)
key=$( (echo "$version ${cross[*]:+${cross[*]} }${base[*]}"; cat "$fragment") | sha256sum | cut -c1-16)
image=$cache/kernel-$key/$(basename "$built")
mkdir -p "$cache"
# One build of each kernel at a time, whoever asks (make test's background caches, or a suite).
source "$here/../scripts/lock.sh"
take_lock "$cache/.lock-kernel-$key"
if [[ -f $image ]]; then
  echo "$image"
  exit 0
fi

# The source, unpacked once for both kernels (an xz stream of 140 MB takes most of a minute to
# read) and kept, keyed by its version; each kernel is built outside it (O=).
source_tree=$cache/linux-source-$version
{
  flock 9
  if [[ ! -f $source_tree/.complete ]]; then
    rm -rf "$cache"/linux-source-* "$source_tree.part"
    mkdir -p "$source_tree.part"
    echo "build-kernel: unpacking linux $version" >&2
    tar -xf "$tarball" -C "$source_tree.part" --strip-components=1
    touch "$source_tree.part/.complete"
    mv "$source_tree.part" "$source_tree"
  fi
} 9>"$cache/.lock-linux-source"

work=$cache/kernel-$key.build
rm -rf "$work"
mkdir -p "$work"
echo "build-kernel: building linux $version (${base[*]} + $(basename "$fragment")) on $(nproc) cores" >&2
make -C "$source_tree" O="$work" -s "${cross[@]}" "${base[@]}" >&2
"$source_tree/scripts/kconfig/merge_config.sh" -m -O "$work" "$work/.config" "$fragment" >/dev/null
make -C "$source_tree" O="$work" -s "${cross[@]}" olddefconfig >&2
# Refuse to go on if a required option did not survive olddefconfig.
missing=$(grep -E '^CONFIG_' "$fragment" | while read -r line; do
  grep -qx "$line" "$work/.config" || echo "$line"
done)
if [[ -n $missing ]]; then
  echo "build-kernel: these options were dropped by olddefconfig: $missing" >&2
  exit 70
fi
make -C "$source_tree" O="$work" -s -j"$(nproc)" "${cross[@]}" "$target" >&2 {lock_fd}>&-
mkdir -p "$(dirname "$image")"
cp "$work/$built" "$image"
cp "$work/.config" "$(dirname "$image")/config"
rm -rf "$work"
echo "$image"
