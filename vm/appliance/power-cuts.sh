#!/bin/bash
# Test VM only (the arm64 appliance, power-cut run): runs at every boot. The host cuts the power
# (QEMU's system_reset: no sync, the page cache lost, whatever the guest was doing) at instants
# of its choosing; this script says what came back after each cut, then plays until the next.
# It reports ("@@ {json}") and cues the host ("@@H cut-window"); the host (vm/test_power_cuts.py)
# judges, knowing which lines it had read when it cut.
#
# Each report of the board's state gives its cells (".XO" in reading order) and `saves`, the
# count of saves on disk the service reports: a state reported "durable" was flushed, with its
# directory, before the line was written.
#
# What the board is doing when the next cut comes goes in blocks of five boots, each block a
# seeded order of play, play, a restart, a package upgrade (or the way back: the payload's
# upgrade/ folder holds the same package under a higher version) and a boot, so that even the
# eight cuts of every CI run see each.
set -uo pipefail
payload=$(cd "$(dirname "$0")" && pwd)
. "$payload/common.sh"
. "$payload/power-cuts.conf"  # seed=
notes=/var/lib/power-cuts
mkdir -p "$notes"
# Boots, counted on the disk (flushed at once, before anything else is played this boot).
boots=$(( $(cat "$notes/boots" 2>/dev/null || echo 0) + 1 ))
echo "$boots" > "$notes/boots"; sync "$notes/boots"; sync "$notes"
# The cells' button lines in reading order (Hardware/tictactoe.toml's defaults).
lines=(4 17 27 22 5 6 13 19 26)

one_line() { paste -sd'|' | sed 's/"/\\"/g'; }
status_json() { tictactoe status --json 2>/dev/null | tr -d ' \n'; }
cells_of() { grep -o '"cells":\[[^]]*\]' <<<"$1" | sed 's/"cells":\[//; s/\]//; s/""/./g; s/"//g; s/,//g'; }
saves_of() { grep -o '"saves":[0-9]*' <<<"$1" | cut -d: -f2; }
outcome_of() { grep -o '"outcome":"[a-z-]*"' <<<"$1" | cut -d'"' -f4; }
turn_of() { grep -o '"turn":"[XO]"' <<<"$1" | cut -d'"' -f4; }
board() {  # the board as a JSON fragment: "cells":"…","saves":N (null when it did not answer)
  local json saves; json=$(status_json); saves=$(saves_of "$json")
  echo "\"cells\":\"$(cells_of "$json")\",\"saves\":${saves:-null}"
}
# Until the service answers with a state whose cells differ from $1 (a press shown), or 10 s.
wait_shown() {
  local json
  for _ in $(seq 1 100); do
    json=$(status_json); [[ -n $json && $(cells_of "$json") != "$1" ]] && return 0; sleep 0.1
  done
  return 1
}
# Until the service reports more than $1 saves on disk, or 20 s.
wait_durable() {
  local json
  for _ in $(seq 1 200); do
    json=$(status_json); [[ -n $json && $(saves_of "$json") -gt $1 ]] && return 0; sleep 0.1
  done
  return 1
}

if [[ $boots == 1 ]]; then
  # Once: the package, as a maker installs it, and the header chip made at every boot before
  # the service starts (on a Pi the kernel makes it).
  offline_apt
  install -m 0755 "$payload/make-gpio-sim.sh" /usr/local/sbin/make-gpio-sim.sh
  cat > /etc/systemd/system/gpio-sim-header.service <<'UNIT'
[Unit]
Description=gpio-sim header chip (test VM only)
Before=tictactoe.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/sbin/make-gpio-sim.sh

[Install]
WantedBy=multi-user.target
UNIT
  mkdir -p /etc/systemd/system/tictactoe.service.d
  printf '[Unit]\nRequires=gpio-sim-header.service\nAfter=gpio-sim-header.service\n' \
    > /etc/systemd/system/tictactoe.service.d/gpio-sim.conf
  systemctl daemon-reload
  systemctl enable --now gpio-sim-header.service
  apt-get install -y -q "$(ls "$payload"/tictactoe-gpio_*_arm64.deb)" >/tmp/install.log 2>&1
  status=$?
  wait_active -1
  report "{\"scenario\":\"power-cuts-installed\",\"status\":$status,\"active\":\"$(systemctl is-active tictactoe.service)\"}"
  sync
else
  # After a cut: the service must come up by itself; what did it restore, and what did the file
  # system and the journal say? A cut in the middle of dpkg's work leaves it for
  # `dpkg --configure -a`, as dpkg itself says at the next apt command, or, cut mid-unpack, for
  # the install run again: done, and said.
  waited=0
  until [[ $(systemctl is-active tictactoe.service) == active ]] && [[ -n $(status_json) ]] || ((waited >= 360)); do
    sleep 0.5; waited=$((waited + 1))
  done
  by_itself=$(systemctl is-active tictactoe.service)
  audit=$(dpkg --audit 2>&1 | one_line)
  repair=none
  if [[ -n $audit ]]; then
    # A package cut mid-unpack is left half-installed ("must be reinstalled", dpkg says), which
    # configuring cannot finish: the maker runs the install that was cut short again.
    repair=configure
    dpkg --configure -a >/tmp/configure.log 2>&1
    if [[ -n $(dpkg --audit 2>&1) && -s $notes/installing ]]; then
      repair=configure+reinstall
      # --reinstall: the half-installed package may already carry the version being installed,
      # which apt can take for done (after a cut during a downgrade the plain install left it
      # half-installed).
      apt-get install -y -q --reinstall --allow-downgrades "$(cat "$notes/installing")" >/tmp/reinstall.log 2>&1
    fi
    if [[ -n $(dpkg --audit 2>&1) ]]; then repair="failed: $(dpkg --audit 2>&1 | one_line)"; fi
    until [[ $(systemctl is-active tictactoe.service) == active ]] && [[ -n $(status_json) ]] || ((waited >= 720)); do
      sleep 0.5; waited=$((waited + 1))
    done
  fi
  state=/var/lib/tictactoe
  # The board's memory as the board reads it at its start, every row checked: 0 when it could
  # use it.
  tictactoe check-state >/dev/null 2>&1; check_state=$?
  report "{\"scenario\":\"after-cut\",\"check_state\":$check_state,\"boot\":$boots,\"active\":\"$(systemctl is-active tictactoe.service)\",\
\"by_itself\":\"$by_itself\",\"dpkg_audit\":\"$audit\",\"repair\":\"$repair\",\
\"version\":\"$(dpkg-query -W -f='${Version}' tictactoe-gpio)\",\
\"waited_s\":$((waited / 2)),\"restarts\":$(prop NRestarts),$(board),\
\"leftovers\":$(find -L $state -maxdepth 1 -name '*.tmp*' 2>/dev/null | wc -l),\
\"set_aside\":$(find -L $state -maxdepth 1 -name '*corrupt*' 2>/dev/null | wc -l),\
\"ext4_errors\":$(dmesg | grep -c 'EXT4-fs error'),\"ext4\":\"$(dmesg | grep 'EXT4-fs' | one_line)\",\
\"journal\":\"$(journalctl -b -u tictactoe.service -o cat | grep -E 'saved game|removed|corrupt|moved it|could not|failed|dropped|cut short' | one_line)\"}"
fi

# The next cut: what the board is doing when it comes, chosen by the seed and the boot.
RANDOM=$((seed * 977 + (boots - 1) / 5))
kinds=(play play restart upgrade boot)
for i in 4 3 2 1; do j=$((RANDOM % (i + 1))); k=${kinds[i]}; kinds[i]=${kinds[j]}; kinds[j]=$k; done
kind=${kinds[$(((boots - 1) % 5))]}
RANDOM=$((seed * 977 + boots))
. /run/gpio-sim.env
tool() { local command=$1; shift; "$payload/gpio-sim-harness" tool "$command" "$DEVICE" "$CHIP" "$@"; }
if [[ $kind == play ]]; then
  # Playing: a press at a time; each shown, then durable; a finished game replaced by a new one.
  json=$(status_json)
  if [[ $(outcome_of "$json") != playing ]]; then
    saves=$(saves_of "$json"); tictactoe new-game >/dev/null 2>&1; wait_durable "$saves"
  fi
  report "{\"scenario\":\"cut-window\",\"kind\":\"play\",$(board)}"
  echo "@@H cut-window"
  while true; do
    json=$(status_json); cells=$(cells_of "$json"); saves=$(saves_of "$json")
    # Each press is reported with the state it makes before it is made: the board may show it
    # (and save it) before this script sees it.
    if [[ $(outcome_of "$json") != playing ]]; then
      report "{\"scenario\":\"new-game\",\"next\":\".........\"}"
      tictactoe new-game >/dev/null 2>&1
    else
      empty=(); for i in {0..8}; do [[ ${cells:$i:1} == . ]] && empty+=("$i"); done
      cell=${empty[$((RANDOM % ${#empty[@]}))]}
      next=${cells:0:$cell}$(turn_of "$json")${cells:$((cell + 1))}
      report "{\"scenario\":\"tap\",\"cell\":$cell,\"next\":\"$next\"}"
      tool tap "${lines[$cell]}"
    fi
    wait_shown "$cells" && report "{\"scenario\":\"shown\",\"cells\":\"$(cells_of "$(status_json)")\"}"
    wait_durable "$saves" && report "{\"scenario\":\"durable\",$(board)}"
    sleep "0.$((RANDOM % 5))"
  done
elif [[ $kind == restart ]]; then
  # The service restarting: its stop (the last save) and its start (the restore).
  report "{\"scenario\":\"cut-window\",\"kind\":\"restart\",$(board)}"
  echo "@@H cut-window"
  systemctl restart tictactoe.service
  report "{\"scenario\":\"restarted\",$(board)}"
elif [[ $kind == upgrade ]]; then
  # apt upgrading the package (or taking it back to the first version): dpkg unpacks, the
  # maintainer scripts stop and restart the service, the game is saved and restored.
  installed=$(dpkg-query -W -f='${Version}' tictactoe-gpio)
  if [[ -n $(ls "$payload"/upgrade/tictactoe-gpio_"${installed//:/%3a}"_arm64.deb 2>/dev/null) ]]; then
    deb=$(ls "$payload"/tictactoe-gpio_*_arm64.deb); way=downgrade
  else
    deb=$(ls "$payload"/upgrade/tictactoe-gpio_*_arm64.deb); way=upgrade
  fi
  report "{\"scenario\":\"cut-window\",\"kind\":\"upgrade\",\"way\":\"$way\",\"from\":\"$installed\",$(board)}"
  echo "@@H cut-window"
  # What is being installed, on disk first: after a cut the install can be run again.
  echo "$deb" > "$notes/installing"; sync "$notes/installing"
  started=$(date +%s%N)
  apt-get install -y -q --allow-downgrades "$deb" >/tmp/upgrade.log 2>&1
  status=$?
  : > "$notes/installing"; sync "$notes/installing"
  report "{\"scenario\":\"upgraded\",\"status\":$status,\"ms\":$(( ($(date +%s%N) - started) / 1000000 )),\
\"version\":\"$(dpkg-query -W -f='${Version}' tictactoe-gpio)\",$(board)}"
else
  # At rest: the host cuts now and again during the next boot, while the service starts.
  report "{\"scenario\":\"cut-window\",\"kind\":\"boot\",$(board)}"
  echo "@@H cut-window"
fi
sleep infinity
