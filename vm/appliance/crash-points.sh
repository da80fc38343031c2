#!/bin/bash
# Test VM only (the arm64 appliance): a power cut at every flush, block level. The service's
# state directory is put on a file system whose every write and flush the kernel's log-writes
# target records, a game is played through gpio-sim, and the log is then replayed onto a copy of
# the file system as it was at the start, stopping at each flush (and each forced write): there
# crash-point-check.sh mounts what a power cut at that instant would have left (the kernel
# replays ext4's journal, as a Pi's would at boot) and reads the saved game as the board would.
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
mount -o noatime /dev/mapper/statelog /var/lib/private/tictactoe
systemctl start tictactoe.service
wait_active -1

status_json() { tictactoe status --json 2>/dev/null | tr -d ' \n'; }
cells_of() { grep -o '"cells":\[[^]]*\]' <<<"$1" | sed 's/"cells":\[//; s/\]//; s/""/./g; s/"//g; s/,//g'; }
saves_of() { grep -o '"saves":[0-9]*' <<<"$1" | cut -d: -f2; }
outcome_of() { grep -o '"outcome":"[a-z-]*"' <<<"$1" | cut -d'"' -f4; }
# Until the board shows cells other than $1 and has saved more than $2 times (20 s at most).
wait_saved() {
  local json
  for _ in $(seq 1 200); do
    json=$(status_json)
    [[ $(cells_of "$json") != "$1" && $(saves_of "$json") -gt $2 ]] && return 0
    sleep 0.1
  done
  return 1
}
lines=(4 17 27 22 5 6 13 19 26)  # the cells' button lines, reading order
# The states the board showed, in order (the first: the new board it starts with); a mark
# "durable-N" in the log says the Nth was on disk.
shown=("\"$(cells_of "$(status_json)")\"") durable=0
# A whole game (the cells in a fixed order, each taken when free), a new game, one more move;
# each state marked in the log once the board says it is on disk.
for round in game new-game move; do
  while true; do
    json=$(status_json) cells=$(cells_of "$json") saves=$(saves_of "$json")
    if [[ $round == new-game ]]; then
      tictactoe new-game >/dev/null 2>&1
    else
      for cell in 4 0 2 6 3 5 1 7 8; do [[ ${cells:$cell:1} == . ]] && break; done
      tool tap "${lines[$cell]}"
    fi
    if wait_saved "$cells" "$saves"; then
      now=$(cells_of "$(status_json)")
      shown+=("\"$now\"")
      dmsetup message statelog 0 mark "durable-$((${#shown[@]} - 1))"
      durable=$((durable + 1))
    fi
    [[ $round == game && $(outcome_of "$(status_json)") == playing ]] || break
  done
done
systemctl stop tictactoe.service
dmsetup message statelog 0 mark stopped
umount /var/lib/private/tictactoe
dmsetup remove --noudevsync statelog
report "{\"scenario\":\"crash-points-game\",\"shown\":[$(IFS=,; echo "${shown[*]}")],\"durable_marks\":$durable}"

started=$(date +%s)
mkdir -p /mnt/crash
"$payload/gpio-sim-harness" write-log "$log_disk" "$REPLAY_DISK" "$payload/crash-point-check.sh"
report "{\"scenario\":\"crash-points-replayed\",\"status\":$?,\"seconds\":$(( $(date +%s) - started ))}"

systemctl start tictactoe.service
wait_active -1
