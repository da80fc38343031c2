#!/bin/bash
# Test VM only: a gpio-sim chip labelled like a Raspberry Pi 5's header chip (pinctrl-rp1), so
# the service's chip = "auto" finds it; notes its names for the checks.
set -euo pipefail
root=/sys/kernel/config/gpio-sim/header
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
mkdir -p "$root/bank0"
echo 28 > "$root/bank0/num_lines"
echo pinctrl-rp1 > "$root/bank0/label"
echo 1 > "$root/live"
echo "DEVICE=$(cat "$root/dev_name")" > /run/gpio-sim.env
echo "CHIP=$(cat "$root/bank0/chip_name")" >> /run/gpio-sim.env
udevadm settle
