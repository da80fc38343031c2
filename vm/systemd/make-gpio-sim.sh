#!/bin/bash
# Test VM only: makes a gpio-sim chip labelled like a Raspberry Pi 4's header chip, so the
# service's "auto" chip finds it, and notes its names for the test script.
set -euo pipefail
root=/sys/kernel/config/gpio-sim/header
mkdir -p "$root/bank0"
echo 28 > "$root/bank0/num_lines"
echo pinctrl-bcm2711 > "$root/bank0/label"
echo 1 > "$root/live"
echo "DEVICE=$(cat "$root/dev_name")" > /run/gpio-sim.env
echo "CHIP=$(cat "$root/bank0/chip_name")" >> /run/gpio-sim.env
udevadm settle
