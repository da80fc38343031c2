#!/bin/bash
# Test VM only (the arm64 appliance): a power cut at every flush, block level. The service's
# state directory is put on a file system whose every write and flush the kernel's log-writes
# target records, a game is played through gpio-sim against the matchbox learner (chosen through
# the API socket; it learns, and its boxes are saved, as the game ends), the service restarted
# (the same learner must come back), and the log is then replayed onto a copy of
# the file system as it was at the start, stopping at each flush (and each forced write): there
# crash-point-check.sh mounts what a power cut at that instant would have left (the kernel
# replays ext4's journal, as a Pi's would at boot) and reads the saved game and learner as the
# board would.
# Reports "@@ {json}" lines; the host (vm/test_appliance.py) judges. Sourced by appliance-test.sh,
# whose helpers (report, tool, prop, wait_active) it uses; the package is installed and running.
disk() {  # the virtio disk the host gave this serial number
  local device
  for device in /sys/block/vd*; do
    if [[ $(cat "$device/serial" 2>/dev/null) == "$1" ]]; then echo "/dev/${device##*/}"; return; fi
  done
}
state_disk=$(disk cpstate) log_disk=$(disk cplog)
export REPLAY_DISK=$(disk cpreplay) SCRATCH_DISK=$(disk cpscratch)
apt-get install -y -q dmsetup e2fsprogs >/tmp/crash-tools.log 2>&1
tools=$?
# The state file system as a Pi's root is made (Debian's mke2fs defaults), its inode tables
# written now rather than by the kernel's lazy initialisation in the middle of the game; the
# replay starts from a copy of it.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 -L state "$state_disk"
dd if="$state_disk" of="$REPLAY_DISK" bs=1M conv=fsync status=none
dmsetup create --noudevsync statelog --table "0 $(blockdev --getsz "$state_disk") log-writes $state_disk $log_disk"
dmsetup mknodes statelog
report "{\"scenario\":\"crash-points-setup\",\"tools\":$tools,\"state\":\"$state_disk\",\"log\":\"$log_disk\",\
\"replay\":\"$REPLAY_DISK\",\"scratch\":\"$SCRATCH_DISK\",\"target\":\"$(dmsetup table statelog 2>&1)\"}"

systemctl stop tictactoe.service
# DynamicUser: the service's state directory is /var/lib/private/tictactoe.
state_dir=/var/lib/private/tictactoe
mount -o noatime /dev/mapper/statelog "$state_dir"
# The learner "thinks" 3 s before each move (600 ms by default): time enough to see X's move
# saved before the learner answers it (its read-back may still come late on a slow VM: the host
# allows for that). Put back after the game.
config=/etc/tictactoe/tictactoe.toml
cp "$config" /tmp/config-before-crash-points.toml
sed -i 's/^computer_think_ms = .*/computer_think_ms = 3000/' "$config"
# What the configuration says now: the host checks the edit took (a renamed key would not).
think_ms=$(grep -o '^computer_think_ms = [0-9]*' "$config" | grep -o '[0-9]*$')
systemctl start tictactoe.service
wait_active -1

status_json() { tictactoe status --json 2>/dev/null | tr -d ' \n'; }
cells_of() { grep -o '"cells":\[[^]]*\]' <<<"$1" | sed 's/"cells":\[//; s/\]//; s/""/./g; s/"//g; s/,//g'; }
saves_of() { grep -o '"saves":[0-9]*' <<<"$1" | cut -d: -f2; }
outcome_of() { grep -o '"outcome":"[a-z-]*"' <<<"$1" | cut -d'"' -f4; }
# The learner in a status's or a check-state's JSON (null if none): the API's record and box,
# or check-state's record, boxes and beads' digest (not the score against it, also "learner").
learner_of() { grep -o '"learner":{[^}]*"games":[^}]*}' <<<"$1" | head -1 | sed 's/^"learner"://' | grep . || echo null; }
# Until the board shows cells other than $1 and has saved more than $2 times (20 s at most);
# $seen is then the status that showed it.
wait_saved() {
  for _ in $(seq 1 200); do
    seen=$(status_json)
    [[ $(cells_of "$seen") != "$1" && $(saves_of "$seen") -gt $2 ]] && return 0
    sleep 0.1
  done
  return 1
}
lines=(4 17 27 22 5 6 13 19 26)  # the cells' button lines, reading order
# The states the board showed, in order (the first: the new board it starts with); a mark
# "durable-N" in the log says the Nth was on disk. With each, the learner the API showed and the
# one the live state file held once the state was said saved (read by check-state, as the crash
# points are), with the cells that file held.
shown=() learners=() durable=0
record() {  # the state in the status $1, said saved
  local live
  live=$(tictactoe check-state --state-dir "$state_dir" --json 2>/dev/null | tr -d ' \n')
  shown+=("\"$(cells_of "$1")\"")
  learners+=("{\"status\":$(learner_of "$1"),\"live_cells\":\"$(cells_of "$live")\",\"live\":$(learner_of "$live")}")
}
# From an action until the board waits for X (or the game is over): each state it shows is
# recorded and marked in the log once the board says it is on disk; the learner's answer (O)
# comes after its think time.
follow() {  # $1 $2: the cells and saves before the action
  local cells=$1 saves=$2
  while wait_saved "$cells" "$saves"; do
    record "$seen"
    dmsetup message statelog 0 mark "durable-$((${#shown[@]} - 1))"
    durable=$((durable + 1))
    cells=$(cells_of "$seen") saves=$(saves_of "$seen")
    [[ $(outcome_of "$seen") == playing && $seen == *'"turn":"O"'* ]] || return 0
  done
}
# The matchbox learner plays O, chosen through the API socket: a new game, saved; if the
# learner starts, its move follows.
saves=$(saves_of "$(status_json)")
tictactoe opponent learner >/dev/null 2>&1
for _ in $(seq 1 200); do
  seen=$(status_json)
  [[ $(saves_of "$seen") -gt $saves ]] && break
  sleep 0.1
done
record "$seen"
[[ $seen == *'"turn":"O"'* ]] && follow "$(cells_of "$seen")" "$(saves_of "$seen")"
# A whole game (X takes the cells in a fixed order, each when free; the learner answers), which
# the learner learns from as it ends, a new game, one more move of X's and the learner's answer.
for round in game new-game move; do
  for _ in $(seq 1 9); do  # a game has at most five moves of X's
    json=$(status_json) cells=$(cells_of "$json") saves=$(saves_of "$json")
    if [[ $round == new-game ]]; then
      tictactoe new-game >/dev/null 2>&1
    else
      for cell in 4 0 2 6 3 5 1 7 8; do [[ ${cells:$cell:1} == . ]] && break; done
      tool tap "${lines[$cell]}"
    fi
    follow "$cells" "$saves"
    [[ $round == game && $(outcome_of "$(status_json)") == playing ]] || break
  done
done
report "{\"scenario\":\"crash-points-game\",\"shown\":[$(IFS=,; echo "${shown[*]}")],\"durable_marks\":$durable,\
\"think_ms\":${think_ms:-0},\"learners\":[$(IFS=,; echo "${learners[*]}")]}"
# A restart resumes the same learner: the API's status before and after.
before=$(status_json)
systemctl restart tictactoe.service
wait_active -1
after=$(status_json)
report "{\"scenario\":\"learner-restarted\",\"before\":$(learner_of "$before"),\"after\":$(learner_of "$after"),\
\"cells_before\":\"$(cells_of "$before")\",\"cells_after\":\"$(cells_of "$after")\",\"opponent_after\":\"$(grep -o '"opponent":"[a-z0-9-]*"' <<<"$after" | cut -d'"' -f4)\",\
\"live\":$(learner_of "$(tictactoe check-state --state-dir "$state_dir" --json 2>/dev/null | tr -d ' \n')")}"
systemctl stop tictactoe.service
dmsetup message statelog 0 mark stopped
umount "$state_dir"
cp /tmp/config-before-crash-points.toml "$config"
dmsetup remove --noudevsync statelog

started=$(date +%s)
mkdir -p /mnt/crash
"$payload/gpio-sim-harness" write-log "$log_disk" "$REPLAY_DISK" "$payload/crash-point-check.sh"
report "{\"scenario\":\"crash-points-replayed\",\"status\":$?,\"seconds\":$(( $(date +%s) - started ))}"

systemctl start tictactoe.service
wait_active -1
