#!/bin/bash
# Test VM only: drives the installed service and the gpio-sim chip and reports what happened as
# "@@ {json}" lines (and "@@J " journal lines) on the console. The host test asserts.
set -uo pipefail
. /run/gpio-sim.env
tool() { /usr/local/lib/tictactoe-test/gpio-sim-harness tool "$DEVICE" "$CHIP" "$@"; }
report() { echo "@@ $1"; }
prop() { systemctl show -p "$1" --value tictactoe.service; }
wait_active() {  # until active with more than $1 restarts, or 90 s
  for _ in $(seq 1 180); do
    if [[ $(systemctl is-active tictactoe.service) == active && $(prop NRestarts) -gt $1 ]]; then return 0; fi
    sleep 0.5
  done
  return 1
}
wait_inactive() {  # until inactive or failed, or 90 s
  for _ in $(seq 1 180); do
    case $(systemctl is-active tictactoe.service) in inactive|failed) return 0 ;; esac
    sleep 0.5
  done
  return 1
}
wait_active -1
pid=$(prop MainPID)
report "{\"scenario\":\"started\",\"active\":\"$(systemctl is-active tictactoe.service)\",\"substate\":\"$(prop SubState)\",\
\"uid\":$(awk '/^Uid:/ {print $2}' /proc/$pid/status),\"groups\":\"$(awk '/^Groups:/ {$1=""; print}' /proc/$pid/status | xargs)\",\
\"gpio_gid\":$(getent group gpio | cut -d: -f3),\"rss_kb\":$(awk '/^VmRSS:/ {print $2}' /proc/$pid/status),\
\"start_us\":$(prop ExecMainStartTimestampMonotonic),\"ready_us\":$(prop ActiveEnterTimestampMonotonic),\
\"device_mode\":\"$(stat -c '%a %G' /dev/$CHIP)\"}"
sleep 1
report "{\"scenario\":\"initial\",\"frame\":\"$(tool frame 1.0)\"}"

# Cells: (1,1) is GPIO5, (0,0) GPIO4, (2,2) GPIO26; new game GPIO3.
tool tap 5; sleep 0.6; tool tap 4; sleep 0.6
report "{\"scenario\":\"moves\",\"frame\":\"$(tool frame 1.0)\"}"

restarts=$(prop NRestarts)
systemctl kill -s KILL tictactoe.service
wait_active "$restarts"; sleep 1
report "{\"scenario\":\"after-kill\",\"restarts\":$(prop NRestarts),\"frame\":\"$(tool frame 1.0)\"}"

restarts=$(prop NRestarts)
touch /var/lib/tictactoe/wedge-loop
wait_active "$restarts"; sleep 1
report "{\"scenario\":\"after-wedge\",\"restarts\":$(prop NRestarts),\"frame\":\"$(tool frame 1.0)\",\
\"watchdog_kills\":$(journalctl -u tictactoe.service -o cat | grep -c 'Watchdog timeout')}"

tool tap 26; sleep 0.6
report "{\"scenario\":\"move-after-restarts\",\"frame\":\"$(tool frame 1.0)\"}"

# Lights off however the process ends. With restarts off, a SIGKILL and then a watchdog abort
# each leave the service down for good; ExecStopPost (tictactoe lights-off) must have switched
# every LED line off, though the process itself never got to.
lights_off_runs() { journalctl -u tictactoe.service -o cat | grep -c '^every LED line off on gpiochip'; }
mkdir -p /run/systemd/system/tictactoe.service.d
printf '[Service]\nRestart=no\n' > /run/systemd/system/tictactoe.service.d/no-restart.conf
systemctl daemon-reload
lit=$(tool leds)
systemctl kill -s KILL tictactoe.service
wait_inactive
report "{\"scenario\":\"killed-for-good\",\"lit_before\":\"$lit\",\"active\":\"$(systemctl is-active tictactoe.service)\",\
\"result\":\"$(prop Result)\",\"leds\":\"$(tool leds)\",\"lights_off_runs\":$(lights_off_runs)}"
systemctl reset-failed tictactoe.service
systemctl start tictactoe.service
wait_active -1; sleep 1
lit=$(tool leds)
touch /var/lib/tictactoe/wedge-loop
wait_inactive
report "{\"scenario\":\"aborted-for-good\",\"lit_before\":\"$lit\",\"active\":\"$(systemctl is-active tictactoe.service)\",\
\"result\":\"$(prop Result)\",\"leds\":\"$(tool leds)\",\"lights_off_runs\":$(lights_off_runs)}"
rm /run/systemd/system/tictactoe.service.d/no-restart.conf
systemctl daemon-reload
systemctl reset-failed tictactoe.service
systemctl start tictactoe.service
wait_active -1; sleep 1

systemctl stop tictactoe.service
report "{\"scenario\":\"stopped\",\"active\":\"$(systemctl is-active tictactoe.service)\",\"leds\":\"$(tool leds)\"}"
# The log's priorities as journald recorded them (it reads the "<N>" prefixes and strips them).
report "{\"scenario\":\"priorities\",\"warnings\":$(journalctl -u tictactoe.service -p warning -o cat | grep -c 'test fault: wedging'),\
\"ready_at_info\":$(journalctl -u tictactoe.service -p info..info -o cat | grep -c '^ready on'),\
\"ready_at_warning\":$(journalctl -u tictactoe.service -p warning -o cat | grep -c '^ready on'),\
\"raw_prefixes\":$(journalctl -u tictactoe.service -o cat | grep -c '^<[0-7]>')}"
journalctl -u tictactoe.service -o cat --no-pager | sed 's/^/@@J /'
report "{\"scenario\":\"done\"}"
systemctl poweroff --force --force
