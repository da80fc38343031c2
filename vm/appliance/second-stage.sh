#!/bin/sh
# PID 1 for the one boot that finishes the appliance image inside the arm64 VM: debootstrap's
# second stage runs the packages' arm64 maintainer scripts, which this machine cannot run
# (no binfmt handlers). Then PID 1 exits; the kernel panics and, with panic=-1 and QEMU's
# -no-reboot, the VM ends.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
if /debootstrap/debootstrap --second-stage; then
  apt-get clean
  echo "@@ second stage done"
else
  tail -40 /debootstrap/debootstrap.log 2>/dev/null
  echo "@@ second stage failed"
fi
rm -f /second-stage.sh
sync
mount -o remount,ro /
