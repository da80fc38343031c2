#!/usr/bin/env bash
# The arm64 appliance suite, host side: the packages a maker installs, on the architecture they
# have, under systemd, driven through a real kernel GPIO chip. Builds (or takes from the cache)
# the arm64 kernel and the Debian 13 arm64 image, makes the arm64 packages and the arm64 harness
# with Debian's own Swift, puts them with the .debs of their dependencies (libgpiod3, libqrencode4,
# libsqlite3-0 and what they need: what the image lacks, as an offline archive; and the test's own
# tools, vm/appliance/fetch-debs.sh) on a second disk, and boots QEMU's arm64
# virt machine under TCG, its web port forwarded to this machine's loopback. The image's payload
# unit runs vm/appliance/appliance-test.sh from that disk. Prints the path of the console log,
# which vm/test_appliance.py reads (and follows while the VM runs, to play on the web view).
#
# Environment: APPLIANCE_WEB_PORT, the loopback port the VM's web view is forwarded to (18080);
# APPLIANCE_CONSOLE, where the console log goes (the cache's console-appliance.log).
# APPLIANCE_BROKER_PORT, a loopback port here where an MQTT broker listens: the VM reaches it as
# 10.0.2.100:1883 (a QEMU guest forward), with APPLIANCE_BROKER_PASSWORD, the password of its
# user "appliance", which the VM's link is given.
# APPLIANCE_POWER_CUTS=SEED makes it the power-cut run instead (vm/test_power_cuts.py): the
# payload (with the package under a higher version too, to upgrade to) runs
# vm/appliance/power-cuts.sh at every boot, a reset reboots the VM on the same
# (throw-away) root disk, and QEMU's monitor listens on APPLIANCE_MONITOR for the host's
# system_reset; the host ends the run with quit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${TICTACTOE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tictactoe-gpio}
mkdir -p "$cache"
kernel=$(bash "$root/vm/build-kernel.sh" "$cache" arm64)
image=$(bash "$here/make-image.sh" "$cache" "$kernel")

work=$(mktemp -d "$cache/appliance-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
payload=$work/payload
mkdir -p "$payload/debs"
bash "$root/packaging/make-deb.sh" arm64 "$payload" >/dev/null
bin=$(bash "$root/packaging/build-arm64.sh" --into "$work/bin" --product gpio-sim-harness)
install -m 0755 "$bin/gpio-sim-harness" "$payload/gpio-sim-harness"
install -m 0755 "$here/appliance-test.sh" "$here/make-gpio-sim.sh" "$here/power-cuts.sh" "$here/crash-points.sh" \
  "$here/crash-point-check.sh" "$payload/"
install -m 0644 "$here/common.sh" "$payload/"
machine=(-no-reboot)
limit=1800
if [[ -n ${APPLIANCE_POWER_CUTS:-} ]]; then
  echo "seed=$APPLIANCE_POWER_CUTS" > "$payload/power-cuts.conf"
  # The package again under a higher version, for the cuts during an apt upgrade: the same
  # files and maintainer scripts, so an upgrade does what every real one does.
  deb=$(ls "$payload"/tictactoe-gpio_*_arm64.deb)
  unpacked=$work/upgrade-tree
  dpkg-deb -R "$deb" "$unpacked"
  version=$(sed -n 's/^Version: //p' "$unpacked/DEBIAN/control")
  sed -i "s/^Version: .*/Version: $version+powercut1/" "$unpacked/DEBIAN/control"
  mkdir -p "$payload/upgrade"
  dpkg-deb --root-owner-group -Zxz -b "$unpacked" "$payload/upgrade/tictactoe-gpio_${version}+powercut1_arm64.deb" >/dev/null
  rm -rf "$unpacked"
  machine=(-monitor "unix:$APPLIANCE_MONITOR,server,nowait")
  limit=${APPLIANCE_LIMIT:-7200}
fi
install -m 0644 "$here/test-faults.conf" "$payload/"
forwards=",hostfwd=tcp:127.0.0.1:${APPLIANCE_WEB_PORT:-18080}-:8080"
if [[ -n ${APPLIANCE_BROKER_PORT:-} ]]; then
  printf '%s\n' "${APPLIANCE_BROKER_PASSWORD:?the broker's password for the VM's link}" > "$payload/broker-password"
  # A relay for each connection (a character device would carry one connection for the VM's life).
  forwards+=",guestfwd=tcp:10.0.2.100:1883-cmd:python3 $here/broker-relay.py $APPLIANCE_BROKER_PORT"
fi
if [[ -z ${APPLIANCE_POWER_CUTS:-} ]]; then
  # For the upgrade that must keep every game: a signed repository as make repo makes it, under
  # a key made for this run, holding the previous release's packages (repo-previous), and the
  # same repository once this release's are added (repo-current).
  export REPO_KEY_HOME=$work/repo-key
  bash "$root/packaging/repo.sh" key 2>/dev/null
  previous=$(bash "$here/previous-release.sh" "$cache")
  bash "$root/packaging/repo.sh" build "$payload/repo-previous" "$previous"/*.deb >/dev/null
  cp -a "$payload/repo-previous" "$payload/repo-current"
  bash "$root/packaging/repo.sh" build "$payload/repo-current" "$payload"/tictactoe-gpio_*_arm64.deb \
    "$payload"/tictactoe-gpio-web_*_arm64.deb "$payload"/tictactoe-gpio-network_*_arm64.deb >/dev/null
fi

debs=$(bash "$here/fetch-debs.sh" "$cache")
cp "$debs"/*.deb "$payload/debs/"
(cd "$payload/debs" && dpkg-scanpackages --multiversion . 2>/dev/null > Packages)
mke2fs -q -t ext4 -L payload -d "$payload" "$work/payload.ext4" 256M >&2

# The crash points' disks (vm/appliance/crash-points.sh), found in the VM by their serial
# numbers: the logged state file system, its log, the copy the log is replayed onto and the
# scratch copy each crash point mounts.
crash_disks=()
for disk in cpstate:32M cplog:512M cpreplay:32M cpscratch:32M; do
  truncate -s "${disk#*:}" "$work/${disk%:*}.img"
  crash_disks+=(-drive "if=none,file=$work/${disk%:*}.img,format=raw,id=${disk%:*}" -device "virtio-blk-device,drive=${disk%:*},serial=${disk%:*}")
done

log=${APPLIANCE_CONSOLE:-$cache/console-appliance.log}
port=${APPLIANCE_WEB_PORT:-18080}
mkdir -p "$(dirname "$log")"
: > "$log"
# virt places virtio-mmio devices so that the last one given is probed first: the root disk,
# given last, is /dev/vda (the payload is found by its label).
# QEMU's user network: the guest is 10.0.2.15 (set by the kernel, ip=), its web port 8080 reached
# from 127.0.0.1:$port here; with a broker, 10.0.2.100:1883 there is the broker's port here
# (restrict=on keeps the guest from anything else).
echo "appliance: booting Debian 13 arm64 with systemd (TCG); the console goes to $log; the web view to 127.0.0.1:$port" >&2
started=$SECONDS
timeout "$limit" qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 1024 -nographic "${machine[@]}" \
  -kernel "$kernel" -append "console=ttyAMA0 root=/dev/vda rw panic=-1 systemd.show_status=0 loglevel=4 ip=10.0.2.15::10.0.2.2:255.255.255.0::eth0:off" \
  -netdev "user,id=net,restrict=on$forwards" -device virtio-net-device,netdev=net \
  "${crash_disks[@]}" \
  -drive "if=none,file=$work/payload.ext4,format=raw,id=payload,readonly=on" -device virtio-blk-device,drive=payload \
  -drive "if=none,file=$image,format=raw,id=root,snapshot=on" -device virtio-blk-device,drive=root \
  -device virtio-rng-device </dev/null >"$log" 2>&1 || true
echo "appliance: the VM ran for $((SECONDS - started)) s" >&2
echo "$log"
