#!/bin/bash
# Test VM only (the arm64 appliance): installs the package the way a maker does and drives the
# service and the gpio-sim chip, reporting what it saw as "@@ {json}" lines (and "@@J " journal
# lines) on the console. The host test (vm/test_appliance.py) asserts; nothing here judges.
set -uo pipefail
payload=$(cd "$(dirname "$0")" && pwd)
# A power-cut run has its own script (the image's payload unit starts this one).
if [[ -f $payload/power-cuts.conf ]]; then exec "$payload/power-cuts.sh"; fi
. "$payload/common.sh"
wait_inactive() {  # until inactive or failed, or 120 s
  for _ in $(seq 1 240); do
    case $(systemctl is-active tictactoe.service) in inactive|failed) return 0 ;; esac
    sleep 0.5
  done
  return 1
}
report "{\"scenario\":\"booted\",\"arch\":\"$(uname -m)\",\"kernel\":\"$(uname -r)\",\"uptime_s\":$(cut -d' ' -f1 /proc/uptime),\
\"libgpiod_before\":\"$(dpkg-query -W -f='${Status}' libgpiod3 2>/dev/null || echo absent)\",\
\"libqrencode_before\":\"$(dpkg-query -W -f='${Status}' libqrencode4 2>/dev/null || echo absent)\"}"

# The header chip, made before the service exists (at boot on a Pi, by the kernel).
"$payload/make-gpio-sim.sh"
. /run/gpio-sim.env
tool() { local command=$1; shift; "$payload/gpio-sim-harness" tool "$command" "$DEVICE" "$CHIP" "$@"; }
# The test-only fault switch: a drop-in, never in the package.
install -D -m 0644 "$payload/test-faults.conf" /etc/systemd/system/tictactoe.service.d/test-faults.conf

offline_apt
deb=$(ls "$payload"/tictactoe-gpio_*_arm64.deb)
web_deb=$(ls "$payload"/tictactoe-gpio-web_*_arm64.deb)
# The web view alone is refused: it needs the board's package of its own version (simulated,
# so that nothing is left half-installed).
apt-get install -s -q "$web_deb" >/tmp/web-alone.log 2>&1
report "{\"scenario\":\"web-alone\",\"status\":$?,\"installed\":\"$(exists /usr/bin/tictactoe-web)\",\
\"names_board\":$(grep -c "tictactoe-gpio (= " /tmp/web-alone.log)}"
started_install=$(date +%s%N)
apt-get install -y -q "$deb" >/tmp/install.log 2>&1
status=$?
report "{\"scenario\":\"installed\",\"status\":$status,\"ms\":$(( ($(date +%s%N) - started_install) / 1000000 )),\
\"libgpiod\":\"$(dpkg-query -W -f='${Version}' libgpiod3 2>/dev/null)\",\
\"libqrencode\":\"$(dpkg-query -W -f='${Version}' libqrencode4 2>/dev/null)\",\
\"libsqlite3\":\"$(dpkg-query -W -f='${Version}' libsqlite3-0 2>/dev/null)\",\"version\":\"$(tictactoe --version 2>&1)\"}"
sed 's/^/@@L install: /' /tmp/install.log | tail -20

wait_active -1
pid=$(prop MainPID)
report "{\"scenario\":\"started\",\"active\":\"$(systemctl is-active tictactoe.service)\",\"substate\":\"$(prop SubState)\",\
\"uid\":$(awk '/^Uid:/ {print $2}' /proc/$pid/status),\"groups\":\"$(awk '/^Groups:/ {$1=""; print}' /proc/$pid/status | xargs)\",\
\"gpio_gid\":$(getent group gpio | cut -d: -f3),\"rss_kb\":$(awk '/^VmRSS:/ {print $2}' /proc/$pid/status),\
\"start_us\":$(prop ExecMainStartTimestampMonotonic),\"ready_us\":$(prop ActiveEnterTimestampMonotonic),\
\"device_mode\":\"$(stat -c '%a %G' /dev/$CHIP)\",\"chip\":\"$CHIP\",\
\"socket_active_us\":$(systemctl show -p ActiveEnterTimestampMonotonic --value tictactoe.socket)}"
sleep 1
report "{\"scenario\":\"initial\",\"frame\":\"$(tool frame 1.0)\"}"

# Cells: (1,1) is GPIO5, (0,0) GPIO4, (2,2) GPIO26.
tool tap 5; sleep 0.6; tool tap 4; sleep 0.6
report "{\"scenario\":\"moves\",\"frame\":\"$(tool frame 1.0)\"}"
# How long each LED is lit and how often it comes on: X's mark full, O's dim (the default marks);
# and the scan's frame rate the installed configuration asks for, to judge the sampled one by.
report "{\"scenario\":\"configured-scan\",\"check\":\"$(tictactoe check-config 2>&1 | tr -d '"\\')\"}"
report "{\"scenario\":\"timing-x-to-move\",\"timing\":$(tool timing 2.0)}"

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
report "{\"scenario\":\"timing-o-to-move\",\"timing\":$(tool timing 2.0)}"

# LED lines that fail for good, mid-game: gpio-sim cannot fail a write, but a chip made not live
# fails every write to lines requested from it (ENODEV). The board must stop by itself (exit 71,
# the failure said), and once the chip is back systemd starts it again, lit with its game.
frame_before=$(tool frame 1.0)
restarts=$(prop NRestarts)
failures_said() { journalctl -u tictactoe.service -o cat | grep -c 'the board failed: writing the LED lines failed'; }
said_before=$(failures_said)
echo 0 > /sys/kernel/config/gpio-sim/header/live
for _ in $(seq 1 60); do (( $(failures_said) > said_before )) && break; sleep 0.5; done
said_while_gone=$(failures_said)
"$payload/make-gpio-sim.sh"
. /run/gpio-sim.env
wait_active "$restarts"; sleep 1
report "{\"scenario\":\"after-led-failure\",\"restarts_before\":$restarts,\"restarts\":$(prop NRestarts),\
\"said_before\":$said_before,\"said_while_gone\":$said_while_gone,\
\"exited_71\":$(journalctl -u tictactoe.service -o cat | grep -c 'status=71'),\
\"frame_before\":\"$frame_before\",\"frame\":\"$(tool frame 1.0)\"}"

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
report "{\"scenario\":\"priorities\",\"warnings\":$(journalctl -u tictactoe.service -p warning -o cat | grep -c 'test fault: wedging'),\
\"ready_at_info\":$(journalctl -u tictactoe.service -p info..info -o cat | grep -c '^ready on'),\
\"ready_at_warning\":$(journalctl -u tictactoe.service -p warning -o cat | grep -c '^ready on'),\
\"raw_prefixes\":$(journalctl -u tictactoe.service -o cat | grep -c '^<[0-7]>')}"
journalctl -u tictactoe.service -o cat --no-pager | sed 's/^/@@J /'

# The upgrade path: a maker's edit survives installing the package again, which restarts the
# service with the game it had.
systemctl start tictactoe.service
wait_active -1
sed -i 's/^x = ""$/x = "Ada"/' /etc/tictactoe/tictactoe.toml
restarts_pid=$(prop MainPID)
apt-get install -y -q --reinstall "$deb" >/tmp/reinstall.log 2>&1
status=$?
wait_active -1; sleep 1
report "{\"scenario\":\"reinstalled\",\"status\":$status,\"edit_kept\":\"$(grep -c '^x = \"Ada\"$' /etc/tictactoe/tictactoe.toml)\",\
\"restarted\":\"$([[ $(prop MainPID) != "$restarts_pid" ]] && echo yes || echo no)\",\"active\":\"$(systemctl is-active tictactoe.service)\",\
\"names_in_log\":$(journalctl -u tictactoe.service -o cat | grep -c 'Ada (X) vs O'),\"frame\":\"$(tool frame 1.0)\"}"

# The board's API through systemd's socket (tictactoe.socket): what a maker does over SSH.
sock=/run/tictactoe/board.sock
one_line() { paste -sd'|' | sed 's/"/\\"/g'; }
report "{\"scenario\":\"api-socket\",\"mode\":\"$(stat -c '%a %U %G %F' $sock)\",\
\"socket_active\":\"$(systemctl is-active tictactoe.socket)\",\"socket_enabled\":\"$(systemctl is-enabled tictactoe.socket)\"}"
watched=$(tictactoe watch --once | one_line)
report "{\"scenario\":\"api-watch\",\"watched\":\"$watched\",\"frame\":\"$(tool frame 1.0)\"}"
pressed=$(tictactoe press 9 2>&1); status=$?
sleep 0.5
report "{\"scenario\":\"api-press\",\"status\":$status,\"output\":\"$pressed\",\"frame\":\"$(tool frame 1.0)\"}"
# A refused press (cell 9 is O's) flickers its cell, fast, unlike a game's end blinking slowly:
# the kernel's record of the LED lines around the press, read per visit of the scan as a person
# who sees no colour reads it (tool pattern). A stretch in which the emulator kept the board
# from scanning cannot be read through (unseen for the eye's 30 ms, it ends every run it
# crosses; one within the pattern makes it "starved"), so an attempt that reads no flicker is
# reported with its longest unseen stretch and made again, up to three times; the host test
# holds each to what the kernel recorded. The press yields to the board (nice), whose scan
# must keep the lines moving while the press's process starts.
for attempt in 1 2 3; do
  "$payload/gpio-sim-harness" tool pattern "$DEVICE" "$CHIP" 9 2.5 > /tmp/refused-pattern.json &
  recorder=$!
  sleep 0.3
  refused=$(nice -n 19 tictactoe press 9 2>&1); status=$?
  wait $recorder
  report "{\"scenario\":\"api-refused\",\"attempt\":$attempt,\"status\":$status,\"output\":\"$refused\",\
\"pattern\":$(cat /tmp/refused-pattern.json || echo null)}"
  grep -q '"reading":"flicker"' /tmp/refused-pattern.json && break
done
# A user outside the tictactoe group, and one in it.
useradd --create-home --groups tictactoe maker
outsider=$(setpriv --reuid=nobody --regid=nogroup --clear-groups tictactoe status 2>&1); outsider_status=$?
member=$(runuser -u maker -- tictactoe status 2>&1); member_status=$?
member=$(head -1 <<<"$member")
report "{\"scenario\":\"api-permissions\",\"outsider_status\":$outsider_status,\"outsider\":\"$(echo "$outsider" | one_line)\",\
\"member_status\":$member_status,\"member\":\"$member\"}"
# X takes the middle column: a finished game for the history.
for cell in 8 4 2; do tictactoe press $cell >/dev/null 2>&1; done
sleep 0.5
history_before=$(tictactoe history | one_line)
# Socket activation: with the service stopped, the first connection starts it.
systemctl stop tictactoe.service
stopped=$(systemctl is-active tictactoe.service)
activated=$(tictactoe watch --once 2>&1 | one_line); activated_status=$?
report "{\"scenario\":\"api-activation\",\"stopped\":\"$stopped\",\"watch_status\":$activated_status,\"watched\":\"$activated\",\
\"active\":\"$(systemctl is-active tictactoe.service)\",\"socket_active\":\"$(systemctl is-active tictactoe.socket)\",\
\"history_before\":\"$history_before\",\"history_after\":\"$(tictactoe history | one_line)\",\
\"history_file\":\"$(exists /var/lib/tictactoe/board.sqlite3)\"}"
journalctl -u tictactoe.service -o cat --no-pager | grep -E "API|history" | sed 's/^/@@J /'

# The web view: its package installed with apt beside the board's (it needs nothing the image
# lacks; libcurl must not come with it), then played from the host: a browser there opens the page through QEMU's port
# forward and clicks a cell, and the LED lines here must show it.
tictactoe new-game >/dev/null
started_install=$(date +%s%N)
apt-get install -y -q "$web_deb" >/tmp/install-web.log 2>&1
status=$?
installed_ms=$(( ($(date +%s%N) - started_install) / 1000000 ))
web_prop() { systemctl show -p "$1" --value tictactoe-web.service; }
web_said() { journalctl -u tictactoe-web.service -o cat | grep -c "the board's page is at"; }
for _ in $(seq 1 240); do [[ $(web_said) -ge 1 ]] && break; sleep 0.5; done
web_pid=$(web_prop MainPID)
web_status() {  # field $1 of the web view's /proc status, or null when it is not running
  if [[ -r /proc/$web_pid/status ]]; then awk -v key="$1:" '$1 == key {$1 = ""; print}' "/proc/$web_pid/status" | xargs; else echo null; fi
}
cgroup=/sys/fs/cgroup$(web_prop ControlGroup)
report "{\"scenario\":\"web-installed\",\"status\":$status,\"ms\":$installed_ms,\
\"curl\":\"$(dpkg-query -W -f='${Version}' libcurl4t64 2>/dev/null)\",\"active\":\"$(systemctl is-active tictactoe-web.service)\",\
\"enabled\":\"$(systemctl is-enabled tictactoe-web.service)\",\"said_ready\":$(web_said),\
\"uid\":\"$(web_status Uid)\",\"groups\":\"$(web_status Groups)\",\
\"tictactoe_gid\":$(getent group tictactoe | cut -d: -f3),\"memory_max\":\"$(cat "$cgroup/memory.max" 2>/dev/null)\",\
\"firewall_warnings\":$(journalctl -b -o cat | grep -ci 'firewall'),\"rss\":\"$(web_status VmRSS)\"}"
sed 's/^/@@L install-web: /' /tmp/install-web.log | tail -20
# The host clicks once it reads this line: the middle cell; and once the LED lines here have been
# sampled (the next cue), the top left corner. Who moves first alternates from game to game, so
# the host reports which marks it saw. The board's state says when each arrived.
echo "@@H web-ready"
cells() { tictactoe status --json 2>/dev/null | tr -d ' \n' | grep -o '"cells":\[[^]]*\]'; }
wait_for_marks() {  # until the board holds $1 marks, or $2 s; the seconds waited
  local waited=0
  until (( $(cells | grep -o '"[XO]"' | wc -l) >= $1 || waited >= $2 )); do sleep 1; waited=$((waited + 1)); done
  echo "$waited"
}
waited_first=$(wait_for_marks 1 300)
frame_first=$(tool frame 1.0)
echo "@@H first-sampled"
waited_second=$(wait_for_marks 2 120)
report "{\"scenario\":\"web-clicks\",\"waited_first_s\":$waited_first,\"frame_first\":\"$frame_first\",\"waited_second_s\":$waited_second,\
\"cells\":\"$(cells | sed 's/"/\\"/g')\",\"watched\":\"$(tictactoe watch --once | one_line)\",\"frame\":\"$(tool frame 1.0)\",\
\"rss\":\"$(web_status VmRSS)\",\"restarts\":$(web_prop NRestarts)}"
journalctl -u tictactoe-web.service -o cat --no-pager | sed 's/^/@@W /'

# The link to an MQTT broker: its package installed with apt (disabled until a broker is set),
# given the broker on the host (10.0.2.100:1883, QEMU's forward) and its password in its own
# folder, then enabled. The host publishes a press on the broker once it reads the cue; the board
# must play it and the LED lines here show it; stopping the link must mark the board offline.
network_deb=$(ls "$payload"/tictactoe-gpio-network_*_arm64.deb)
apt-get install -y -q "$network_deb" >/tmp/install-network.log 2>&1
status=$?
network_prop() { systemctl show -p "$1" --value tictactoe-network.service; }
enabled_after_install=$(systemctl is-enabled tictactoe-network.service 2>&1)
active_after_install=$(systemctl is-active tictactoe-network.service)
cat >>/etc/tictactoe/tictactoe.toml <<'TOML'

[network]
broker = "10.0.2.100:1883"
name = "appliance"
allow = "play"
user = "appliance"
password-file = "/var/lib/tictactoe-network/broker-password"
TOML
install -d -m 0700 -o tictactoe-network -g tictactoe-network /var/lib/tictactoe-network
install -m 0600 -o tictactoe-network -g tictactoe-network "$payload/broker-password" /var/lib/tictactoe-network/broker-password
config_check=$(tictactoe check-config /etc/tictactoe/tictactoe.toml 2>&1 | tail -1 | sed 's/"/\\"/g')
systemctl enable --now tictactoe-network.service >/tmp/enable-network.log 2>&1
marks_before=$(cells | grep -o '"[XO]"' | wc -l)
echo "@@H network-ready"
waited_network=$(wait_for_marks $((marks_before + 1)) 300)
network_pid=$(network_prop MainPID)
network_status() {  # field $1 of the link's /proc status, or null when it is not running
  if [[ -r /proc/$network_pid/status ]]; then awk -v key="$1:" '$1 == key {$1 = ""; print}' "/proc/$network_pid/status" | xargs; else echo null; fi
}
network_cgroup=/sys/fs/cgroup$(network_prop ControlGroup)
report "{\"scenario\":\"network-played\",\"status\":$status,\"enabled_after_install\":\"$enabled_after_install\",\
\"active_after_install\":\"$active_after_install\",\"config_check\":\"$config_check\",\"waited_s\":$waited_network,\
\"marks_before\":$marks_before,\"cells\":\"$(cells | sed 's/"/\\"/g')\",\"frame\":\"$(tool frame 1.0)\",\
\"active\":\"$(systemctl is-active tictactoe-network.service)\",\"uid\":\"$(network_status Uid)\",\
\"groups\":\"$(network_status Groups)\",\"user_uid\":\"$(id -u tictactoe-network)\",\
\"tictactoe_gid\":$(getent group tictactoe | cut -d: -f3),\"memory_max\":\"$(cat "$network_cgroup/memory.max" 2>/dev/null)\",\
\"capabilities\":\"$(network_status CapEff)\",\"rss\":\"$(network_status VmRSS)\",\"restarts\":$(network_prop NRestarts)}"
# A whole game against a board on the host, "house" (a simulated board and its own link on the
# host's broker): this board invites it and plays X, pressed on its buttons here (the gpio-sim
# lines); the house is told of the invitation by its link, joins, and answers each X with its O.
# X: 5, 1, 9 (GPIO 5, 13, 27: the rising diagonal); O: 2, 3. A tap that only woke the lights (an
# idle spell while the house was slow to come) is tapped again.
tictactoe opponent board:house >/tmp/remote-game.log 2>&1
remote_status=$?
echo "@@H remote-game-ready"
state_holds() { tictactoe status --json 2>/dev/null | tr -d ' \n' | grep -q "$1"; }
wait_state() {  # until the state holds $1, or $2 s; the seconds waited
  local waited=0
  until state_holds "$1" || (( waited >= $2 )); do sleep 1; waited=$((waited + 1)); done
  echo "$waited"
}
remote_waits=$(wait_state '"here":true' 300)
marks=0
for line in 5 13 27; do
  remote_waits+=" $(wait_for_marks "$marks" 300)"
  for _ in 1 2; do
    tool tap "$line"
    (( $(wait_for_marks $((marks + 1)) 20) < 20 )) && break
  done
  marks=$((marks + 2))
done
remote_end=$(wait_state '"outcome":"x-wins"' 120)
report "{\"scenario\":\"remote-game\",\"status\":$remote_status,\"waits\":\"$remote_waits\",\"waited_end_s\":$remote_end,\
\"cells\":\"$(cells | sed 's/"/\\"/g')\",\"outcome\":\"$(tictactoe status --json 2>/dev/null | tr -d ' \n' | grep -o '"outcome":"[a-z-]*"' | cut -d'"' -f4)\",\
\"score\":\"$(tictactoe status --json 2>/dev/null | tr -d ' \n' | grep -o '"board:house":{[^}]*}' | sed 's/"/\\"/g')\",\
\"said\":\"$(one_line < /tmp/remote-game.log)\",\"frame\":\"$(tool frame 1.0)\",\
\"boards_file\":\"$(stat -c '%a %U' /run/tictactoe-network/boards.json 2>&1)\"}"
# The host's page opens the boards view now; its house board goes offline once it has, and the
# link sees that before it is reinstalled below.
wait_state '"boardsSeen":\[\]' 300 >/dev/null
# An upgrade (the same package again) restarts the running link and keeps the owner's enable.
apt-get install -y -q --reinstall "$network_deb" >/tmp/reinstall-network.log 2>&1
status=$?
for _ in $(seq 1 60); do [[ $(network_prop MainPID) != "$network_pid" && $(network_prop MainPID) != 0 ]] && break; sleep 0.5; done
report "{\"scenario\":\"network-reinstalled\",\"status\":$status,\"enabled\":\"$(systemctl is-enabled tictactoe-network.service)\",\
\"active\":\"$(systemctl is-active tictactoe-network.service)\",\"pid_before\":$network_pid,\"pid_after\":$(network_prop MainPID)}"
systemctl stop tictactoe-network.service
report "{\"scenario\":\"network-stopped\",\"result\":\"$(network_prop Result)\",\"status\":\"$(network_prop ExecMainStatus)\"}"
# Purged, the link takes its folder (and the password in it) and leaves the board playing.
apt-get purge -y -q tictactoe-gpio-network >/tmp/purge-network.log 2>&1
status=$?
report "{\"scenario\":\"network-purged\",\"status\":$status,\"binary\":\"$(exists /usr/bin/tictactoe-network)\",\
\"folder\":\"$(exists /var/lib/tictactoe-network)\",\"unit\":\"$(exists /usr/lib/systemd/system/tictactoe-network.service)\",\
\"enabled_link\":\"$(exists /etc/systemd/system/multi-user.target.wants/tictactoe-network.service)\",\
\"board\":\"$(systemctl is-active tictactoe.service)\"}"
journalctl -u tictactoe-network.service -o cat --no-pager | sed 's/^/@@N /'
for step in install-network enable-network reinstall-network purge-network; do sed "s/^/@@L $step: /" "/tmp/$step.log" | tail -10; done

# A power cut at every flush of a game's saves (block level): vm/appliance/crash-points.sh.
. "$payload/crash-points.sh"

# Removing keeps what a maker made (the configuration, the saved game, the web view's Avahi
# file, all conffiles or state); purging then takes it all. The web view first: the board stays.
apt-get remove -y -q tictactoe-gpio-web >/tmp/remove-web.log 2>&1
status=$?
report "{\"scenario\":\"web-removed\",\"status\":$status,\"web_binary\":\"$(exists /usr/bin/tictactoe-web)\",\
\"web_unit\":\"$(exists /usr/lib/systemd/system/tictactoe-web.service)\",\"avahi\":\"$(exists /etc/avahi/services/tictactoe-gpio-web.service)\",\
\"web_active\":\"$(systemctl is-active tictactoe-web.service)\",\"board\":\"$(exists /usr/bin/tictactoe)\",\
\"board_active\":\"$(systemctl is-active tictactoe.service)\"}"
apt-get remove -y -q tictactoe-gpio >/tmp/remove.log 2>&1
status=$?
report "{\"scenario\":\"removed\",\"status\":$status,\"binary\":\"$(exists /usr/bin/tictactoe)\",\
\"unit\":\"$(exists /usr/lib/systemd/system/tictactoe.service)\",\"config\":\"$(exists /etc/tictactoe/tictactoe.toml)\",\
\"state\":\"$(exists /var/lib/private/tictactoe/board.sqlite3)\",\"active\":\"$(systemctl is-active tictactoe.service)\",\
\"leds\":\"$(tool leds)\"}"
apt-get purge -y -q tictactoe-gpio tictactoe-gpio-web >/tmp/purge.log 2>&1
status=$?
report "{\"scenario\":\"purged\",\"status\":$status,\"binary\":\"$(exists /usr/bin/tictactoe)\",\
\"unit\":\"$(exists /usr/lib/systemd/system/tictactoe.service)\",\"socket_unit\":\"$(exists /usr/lib/systemd/system/tictactoe.socket)\",\
\"socket\":\"$(exists /run/tictactoe/board.sock)\",\"udev_rule\":\"$(exists /usr/lib/udev/rules.d/60-tictactoe-gpio.rules)\",\
\"state\":\"$(exists /var/lib/private/tictactoe)\",\"state_link\":\"$(exists /var/lib/tictactoe)\",\"config\":\"$(exists /etc/tictactoe)\",\
\"active\":\"$(systemctl is-active tictactoe.service)\",\"leds\":\"$(tool leds)\",\
\"web_binary\":\"$(exists /usr/bin/tictactoe-web)\",\"web_unit\":\"$(exists /usr/lib/systemd/system/tictactoe-web.service)\",\
\"web_page\":\"$(exists /usr/share/tictactoe-gpio/web)\",\"avahi\":\"$(exists /etc/avahi/services/tictactoe-gpio-web.service)\",\
\"web_active\":\"$(systemctl is-active tictactoe-web.service)\",\"gpio_group\":\"$(getent group gpio >/dev/null && echo yes || echo no)\",\
\"enabled\":\"$(exists /etc/systemd/system/multi-user.target.wants/tictactoe.service)\",\
\"socket_enabled\":\"$(exists /etc/systemd/system/sockets.target.wants/tictactoe.socket)\",\
\"web_enabled\":\"$(exists /etc/systemd/system/multi-user.target.wants/tictactoe-web.service)\"}"
for step in web-alone reinstall remove-web remove purge; do sed "s/^/@@L $step: /" "/tmp/$step.log" | tail -10; done

# The upgrade that keeps everything, the way a maker gets releases (docs/RELEASES.md): a signed
# repository (made by packaging/repo.sh on the host) holding the previous release, added with its
# key and a deb822 sources file; the previous release installed from it and played until it has
# finished games, a taught learner, a game under way and an edited configuration; then the
# repository gains this release and `apt upgrade` installs it. Then the way back to the previous
# release and up again, remove and install, purge. What the board shows, its history and its
# learner's beads are reported at each step; the host compares.
if [[ -d $payload/repo-previous ]]; then
  repo=/srv/tictactoe-repo
  publish() { rm -rf "$repo"; mkdir -p /srv; cp -a "$payload/$1" "$repo"; }
  shown() { tictactoe status 2>&1 | head -6 | one_line; }
  # Our packages installed now, as package=version (dpkg-query also lists removed ones whose
  # configuration is kept).
  installed() {
    dpkg-query -W -f='${db:Status-Status} ${Package}=${Version}\n' tictactoe-gpio tictactoe-gpio-web 2>/dev/null \
      | awk '$1 == "installed" {print $2}' | xargs
  }
  ready() {
    wait_active -1
    for _ in $(seq 1 60); do tictactoe status >/dev/null 2>&1 && break; sleep 0.5; done
  }
  board() {
    echo "\"shown\":\"$(shown)\",\"history\":\"$(tictactoe history --json 2>/dev/null | sha256sum | cut -c1-16)\",\
\"games\":$(tictactoe history --json 2>/dev/null | grep -c '"outcome"'),\
\"digest\":\"$(tictactoe check-state --json 2>/dev/null | grep -o '"digest":"[0-9a-f]*"' | cut -d'"' -f4)\",\
\"live_digest\":\"$(tictactoe status --json 2>/dev/null | grep -o '"digest" *: *"[0-9a-f]*"' | cut -d'"' -f4)\",\
\"config_kept\":$(grep -c '^computer_think_ms = 0$' /etc/tictactoe/tictactoe.toml),\
\"versions\":\"$(installed)\""
  }
  publish repo-previous
  install -d -m 0755 /etc/apt/keyrings && install -m 0644 "$repo/tictactoe-gpio.gpg" /etc/apt/keyrings/tictactoe-gpio.gpg
  printf 'Types: deb\nURIs: file:%s\nSuites: trixie\nComponents: main\nSigned-By: /etc/apt/keyrings/tictactoe-gpio.gpg\n' "$repo" \
    > /etc/apt/sources.list.d/tictactoe-gpio.sources
  apt-get update -q >/tmp/repo-update.log 2>&1
  update_status=$?
  apt-get install -y -q tictactoe-gpio tictactoe-gpio-web >/tmp/previous.log 2>&1
  previous_status=$?
  # The same repository under a key it was not signed with (Debian's archive key): apt refuses
  # it, on lists of its own so that the Pi's stay as they are.
  mkdir -p /tmp/wrong-key/parts /tmp/wrong-key/lists/partial
  sed 's|^Signed-By: .*|Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg|' /etc/apt/sources.list.d/tictactoe-gpio.sources \
    > /tmp/wrong-key/parts/tictactoe-gpio.sources
  apt-get update -q -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=/tmp/wrong-key/parts \
    -o Dir::State::Lists=/tmp/wrong-key/lists >/tmp/wrong-key.log 2>&1
  report "{\"scenario\":\"repository-added\",\"update_status\":$update_status,\
\"update_warnings\":$(grep -c '^[WE]:' /tmp/repo-update.log),\"previous_status\":$previous_status,\
\"wrong_key_refused\":$(grep -c 'NO_PUBKEY\|is not signed' /tmp/wrong-key.log),\
\"candidate\":\"$(apt-cache policy tictactoe-gpio | sed -n 's/^ *Candidate: //p')\",\
\"versions\":\"$(installed)\"}"
  sed "s/^/@@L repository: /" /tmp/repo-update.log | tail -5
  ready
  sed -i 's/^computer_think_ms = .*/computer_think_ms = 0/' /etc/tictactoe/tictactoe.toml
  systemctl restart tictactoe.service
  ready
  played=$("$payload/gpio-sim-harness" api-games /run/tictactoe/board.sock 150 2>/tmp/api-games.log)
  # The learner plays O (it answers at once): three games and one move of a fourth, under way.
  tictactoe opponent learner >/dev/null 2>&1
  for game in 1 2 3; do
    for cell in 5 1 9 3 7 2 8 4 6; do tictactoe press $cell >/dev/null 2>&1; sleep 0.3; done
    tictactoe new-game >/dev/null 2>&1; sleep 0.3
  done
  for cell in 5 1 9 3 7; do tictactoe press $cell >/dev/null 2>&1 && break; done
  sleep 1
  report "{\"scenario\":\"played-previous\",\"played\":\"$played\",$(board)}"

  # The next release published; the Pi upgrades as the README says.
  publish repo-current
  pid=$(prop MainPID)
  apt-get update -q >/tmp/repo-update.log 2>&1
  apt upgrade -y -q >/tmp/upgrade.log 2>&1
  upgrade_status=$?
  ready
  report "{\"scenario\":\"upgraded-from-previous\",\"status\":$upgrade_status,\
\"restarted\":\"$([[ $(prop MainPID) != "$pid" ]] && echo yes || echo no)\",\"active\":\"$(systemctl is-active tictactoe.service)\",\
\"web_active\":\"$(systemctl is-active tictactoe-web.service)\",\"restarts\":$(prop NRestarts),$(board),\
\"database\":\"$(exists /var/lib/tictactoe/board.sqlite3)\",\"state_imported\":\"$(exists /var/lib/tictactoe/state.json.imported)\",\
\"history_imported\":\"$(exists /var/lib/tictactoe/history.jsonl.imported)\",\"old_state\":\"$(exists /var/lib/tictactoe/state.json)\",\
\"prompted\":$(grep -c 'Configuration file' /tmp/upgrade.log)}"
  journalctl -u tictactoe.service -o cat --no-pager | grep -E "imported|kept /var" | sed 's/^/@@J /'
  sed "s/^/@@L upgrade: /" /tmp/upgrade.log | tail -12

  # Back to the previous release: it runs, on an empty board, and leaves the database alone.
  previous_version=$(dpkg-deb -f "$(ls "$repo"/pool/main/t/tictactoe-gpio/tictactoe-gpio_*_arm64.deb | sort -V | head -1)" Version)
  apt-get install -y -q --allow-downgrades "tictactoe-gpio=$previous_version" "tictactoe-gpio-web=$previous_version" \
    >/tmp/downgrade.log 2>&1
  downgrade_status=$?
  ready
  database_after_stop=$(sha256sum /var/lib/tictactoe/board.sqlite3 | cut -c1-16)
  tictactoe press 5 >/dev/null 2>&1; sleep 1
  report "{\"scenario\":\"downgraded\",\"status\":$downgrade_status,\"active\":\"$(systemctl is-active tictactoe.service)\",\
\"shown\":\"$(shown)\",\"versions\":\"$(installed)\",\
\"said\":$(grep -c "cannot read the board's memory" /tmp/downgrade.log),\
\"database_untouched\":\"$([[ $(sha256sum /var/lib/tictactoe/board.sqlite3 | cut -c1-16) == "$database_after_stop" ]] && echo yes || echo no)\",\
\"its_state\":\"$(exists /var/lib/tictactoe/state.json)\"}"
  sed "s/^/@@L downgrade: /" /tmp/downgrade.log | tail -12
  apt upgrade -y -q >/tmp/upgrade-again.log 2>&1
  status=$?
  ready
  report "{\"scenario\":\"upgraded-again\",\"status\":$status,$(board),\
\"kept_aside\":$(ls /var/lib/tictactoe/ | grep -c 'not-imported'),\"prompted\":$(grep -c 'Configuration file' /tmp/upgrade-again.log)}"

  # Removed, then installed again: the same board.
  apt-get remove -y -q tictactoe-gpio >/tmp/remove-upgraded.log 2>&1
  status=$?
  report "{\"scenario\":\"removed-upgraded\",\"status\":$status,\"binary\":\"$(exists /usr/bin/tictactoe)\",\
\"database\":\"$(exists /var/lib/private/tictactoe/board.sqlite3)\",\"config_kept\":$(grep -c '^computer_think_ms = 0$' /etc/tictactoe/tictactoe.toml)}"
  apt-get install -y -q tictactoe-gpio >/tmp/reinstall-upgraded.log 2>&1
  status=$?
  ready
  report "{\"scenario\":\"installed-again\",\"status\":$status,\"active\":\"$(systemctl is-active tictactoe.service)\",$(board)}"
  apt-get purge -y -q tictactoe-gpio >/tmp/purge-upgraded.log 2>&1
  status=$?
  report "{\"scenario\":\"purged-upgraded\",\"status\":$status,\"state\":\"$(exists /var/lib/private/tictactoe)\",\
\"config\":\"$(exists /etc/tictactoe)\",\"binary\":\"$(exists /usr/bin/tictactoe)\"}"
  for step in remove-upgraded reinstall-upgraded purge-upgraded; do sed "s/^/@@L $step: /" "/tmp/$step.log" | tail -6; done
fi
report "{\"scenario\":\"done\"}"
systemctl poweroff --force --force
