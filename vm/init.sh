#!/bin/busybox sh
# PID 1 of the gpio-sim test VM: mount what the harness needs, run it, power off.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t configfs none /sys/kernel/config
mount -t tmpfs tmp /tmp
# Where the harness reads the kernel's record of the LED lines' writes from.
mount -t tracefs tracefs /sys/kernel/tracing
# The clock that stamps edge events: under a loaded emulator the kernel may fall back to a coarse
# one, which stamps a whole bounce burst alike.
clock=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
echo "@@ {\"scenario\":\"boot\",\"kernel\":\"$(uname -r)\",\"clocksource\":\"$clock\"}"
# And why: the kernel's own lines about its clocks.
dmesg | grep -iE 'tsc|clocksource|hpet|calibrat' | sed 's/\\/\\\\/g; s/"/\\"/g' | while read -r line; do
  echo "@@ {\"scenario\":\"clock-log\",\"line\":\"$line\"}"
done
/bin/gpio-sim-harness /bin/tictactoe /bin/gpiomon /bin/gpioinfo "$(cat /etc/libgpiod-generation)"
echo "@@ {\"scenario\":\"harness-exit\",\"status\":$?}"
reboot -f
