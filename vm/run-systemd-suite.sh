#!/usr/bin/env bash
# The service under real systemd: boots Debian 12 (debootstrap, cached) with systemd as init in
# QEMU, on a kernel with gpio-sim, with the project installed by its own install script, and
# prints the path of the console log for the host test (vm/test_systemd_service.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${TICTACTOE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tictactoe-gpio}
mkdir -p "$cache"
kernel=$(bash "$root/vm/build-kernel.sh" "$cache" systemd)
tree=$(bash "$root/vm/make-rootfs.sh" "$cache")

# The release binary against the system's libgpiod 1.6 (the rootfs has the same libgpiod2).
scratch=$root/.build-vm-v1
(cd "$root" && PKG_CONFIG_PATH="" swift build -c release --static-swift-stdlib --scratch-path "$scratch" \
  --product tictactoe >&2 && PKG_CONFIG_PATH="" swift build -c release --static-swift-stdlib \
  --scratch-path "$scratch" --product gpio-sim-harness >&2)

work=$(mktemp -d "$cache/systemd-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -a "$tree" "$work/rootfs"
rootfs=$work/rootfs
# The documented install, into the image.
DESTDIR=$rootfs BINARY=$scratch/release/tictactoe bash "$root/scripts/install.sh" >&2
# Test-only additions: the gpio-sim chip at boot, the fault switch, the checks.
install -D -m 0755 "$scratch/release/gpio-sim-harness" "$rootfs/usr/local/lib/tictactoe-test/gpio-sim-harness"
install -D -m 0755 "$root/vm/systemd/make-gpio-sim.sh" "$rootfs/usr/local/lib/tictactoe-test/make-gpio-sim.sh"
install -D -m 0755 "$root/vm/systemd/service-test.sh" "$rootfs/usr/local/lib/tictactoe-test/service-test.sh"
install -D -m 0644 "$root/vm/systemd/test-faults.conf" "$rootfs/etc/systemd/system/tictactoe.service.d/test-faults.conf"
for unit in gpio-sim-setup.service service-test.service; do
  install -D -m 0644 "$root/vm/systemd/$unit" "$rootfs/etc/systemd/system/$unit"
  ln -sf "/etc/systemd/system/$unit" "$rootfs/etc/systemd/system/multi-user.target.wants/$unit"
done
image=$work/disk.ext4
mkfs.ext4 -q -F -L root -d "$rootfs" "$image" 1G

log=$cache/console-systemd.log
echo "run-systemd-suite: booting Debian with systemd (TCG); the console goes to $log" >&2
started=$(date +%s)
timeout 900 qemu-system-x86_64 -accel tcg -m 1536 -smp 2 -kernel "$kernel" \
  -append "console=ttyS0 root=/dev/vda rw panic=-1 systemd.show_status=0 loglevel=4 tsc=reliable" \
  -drive "file=$image,format=raw,if=virtio" -display none -monitor none -serial "file:$log" -no-reboot
echo "run-systemd-suite: the VM ran for $(( $(date +%s) - started )) s" >&2
echo "$log"
