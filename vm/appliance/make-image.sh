#!/usr/bin/env bash
# The appliance VM's disk: Debian 13 arm64 (minbase with systemd, udev and apt) as an ext4 image,
# made once and cached, keyed by its inputs. `debootstrap --foreign` unpacks it here; the second
# stage runs inside the arm64 VM itself, since this machine can neither run arm64 programs in a
# chroot nor register binfmt handlers. libgpiod3 is deliberately left out: like Raspberry Pi OS
# Lite, the system lacks the package's one library, and apt must find it (offline) in the test's
# own folder of .debs. Prints the path of the image.
#
# Usage: vm/appliance/make-image.sh CACHE_DIR KERNEL_IMAGE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:?usage: make-image.sh CACHE_DIR KERNEL_IMAGE}
kernel=${2:?usage: make-image.sh CACHE_DIR KERNEL_IMAGE}
packages=systemd,systemd-sysv,udev,procps
key=$( (echo "trixie arm64 minbase $packages"; cat "$0" "$here/second-stage.sh" "$here/payload.service") | sha256sum | cut -c1-16)
image=$cache/appliance-$key.ext4
mkdir -p "$cache"
source "$here/../../scripts/lock.sh"
take_lock "$cache/.lock-appliance-image"
if [[ -f $image ]]; then
  echo "$image"
  exit 0
fi

uri=$(bash "$here/../../scripts/debian-archive.sh")
work=$(mktemp -d "$cache/appliance-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
tree=$work/tree
echo "make-image: debootstrap --foreign trixie arm64 ($packages)" >&2
debootstrap --foreign --arch=arm64 --variant=minbase --include="$packages" trixie "$tree" "$uri" >&2
install -m 0755 "$here/second-stage.sh" "$tree/second-stage.sh"
units=$tree/etc/systemd/system
install -D -m 0644 "$here/payload.service" "$units/payload.service"
mkdir -p "$units/multi-user.target.wants"
ln -sf /etc/systemd/system/payload.service "$units/multi-user.target.wants/payload.service"
# A quiet console for the test to read, and no timers that would start apt or scrubs mid-test.
for unit in serial-getty@ttyAMA0.service apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer \
  e2scrub_all.timer fstrim.timer; do
  ln -sf /dev/null "$units/$unit"
done
echo "tictactoe-appliance" > "$tree/etc/hostname"
# (mke2fs -d reports on stdout, which carries this script's answer: keep it to stderr.)
mke2fs -q -t ext4 -L root -d "$tree" "$work/disk.ext4" 2G >&2

echo "make-image: the second stage inside the arm64 VM (TCG; about 4 minutes, once)" >&2
started=$SECONDS
timeout 3600 qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 1024 -nographic -no-reboot \
  -kernel "$kernel" -append "console=ttyAMA0 root=/dev/vda rw init=/second-stage.sh panic=-1" \
  -drive "if=none,file=$work/disk.ext4,format=raw,id=root" -device virtio-blk-device,drive=root \
  -device virtio-rng-device </dev/null >"$work/console.log" 2>&1 {lock_fd}>&- || true
if ! grep -q '^@@ second stage done' "$work/console.log"; then
  tail -60 "$work/console.log" >&2
  echo "make-image: the second stage did not finish (console above)" >&2
  exit 70
fi
echo "make-image: second stage done in $((SECONDS - started)) s" >&2
rm -f "$cache"/appliance-*.ext4
mv "$work/disk.ext4" "$image"
echo "$image"
