#!/usr/bin/env bash
# Builds the minimal x86_64 kernel for the gpio-sim VM from Debian's linux-source-6.12 package
# (Debian's own kernels lack CONFIG_GPIO_SIM) and caches it outside git, keyed by the source
# version and the config fragment, so it is built once per machine.
#
# Usage: vm/build-kernel.sh CACHE_DIR [tiny|systemd]   -> prints the path of the bzImage
#   tiny     tinyconfig + kernel.fragment: the gpio-sim suite's initramfs VM (about 3 minutes)
#   systemd  defconfig + kvm_guest.config + kernel-systemd.fragment: the systemd VM (about 12)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:?usage: build-kernel.sh CACHE_DIR [tiny|systemd]}
flavour=${2:-tiny}
case $flavour in
  tiny) base=(tinyconfig); fragment=$here/kernel.fragment ;;
  systemd) base=(defconfig kvm_guest.config); fragment=$here/kernel-systemd.fragment ;;
  *) echo "build-kernel: the flavour is tiny or systemd" >&2; exit 64 ;;
esac
tarball=$(ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null || true)
if [[ -z $tarball ]]; then
  echo "build-kernel: /usr/src/linux-source-6.12.tar.xz is missing; install the linux-source-6.12 package" >&2
  exit 69
fi
version=$(dpkg-query -W -f='${Version}' linux-source-6.12)
key=$( (echo "$version ${base[*]}"; cat "$fragment") | sha256sum | cut -c1-16)
image=$cache/kernel-$key/bzImage
if [[ -f $image ]]; then
  echo "$image"
  exit 0
fi

work=$cache/kernel-$key.build
rm -rf "$work"
mkdir -p "$work"
echo "build-kernel: building linux $version (${base[*]} + $(basename "$fragment")) on $(nproc) cores" >&2
tar -xf "$tarball" -C "$work"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)
make -C "$src" -s "${base[@]}" >&2
"$src/scripts/kconfig/merge_config.sh" -m -O "$src" "$src/.config" "$fragment" >/dev/null
make -C "$src" -s olddefconfig >&2
# Refuse to go on if a required option did not survive olddefconfig.
missing=$(grep -E '^CONFIG_' "$fragment" | while read -r line; do
  grep -qx "$line" "$src/.config" || echo "$line"
done)
if [[ -n $missing ]]; then
  echo "build-kernel: these options were dropped by olddefconfig: $missing" >&2
  exit 70
fi
make -C "$src" -s -j"$(nproc)" bzImage >&2
mkdir -p "$(dirname "$image")"
cp "$src/arch/x86/boot/bzImage" "$image"
cp "$src/.config" "$(dirname "$image")/config"
rm -rf "$work"
echo "$image"
