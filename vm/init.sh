#!/bin/busybox sh
# PID 1 of the gpio-sim test VM: mount what the harness needs, run it, power off.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t configfs none /sys/kernel/config
mount -t tmpfs tmp /tmp
echo "@@ {\"scenario\":\"boot\",\"kernel\":\"$(uname -r)\"}"
/bin/gpio-sim-harness /bin/tictactoe /bin/gpiomon /bin/gpioinfo "$(cat /etc/libgpiod-generation)"
echo "@@ {\"scenario\":\"harness-exit\",\"status\":$?}"
reboot -f
