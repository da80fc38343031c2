#!/bin/bash
# Test VM only: one crash point of crash-points.sh, run by `gpio-sim-harness write-log` with the
# replay disk holding what a power cut at that instant would have left (CRASH_POINT, LOG_ENTRY,
# LOG_KIND and LOG_MARK say where). The disk is copied (mounting it replays the journal, which
# must not change the copy the next point starts from), mounted by the kernel, read by the
# board's own `check-state`, and checked by e2fsck after. Reports; the host judges.
set -uo pipefail
dd if="$REPLAY_DISK" of="$SCRATCH_DISK" bs=1M status=none
errors_before=$(dmesg | grep -c 'EXT4-fs error')
recoveries_before=$(dmesg | grep -c 'recovery complete')
found=null check=null
mount -o noatime "$SCRATCH_DISK" /mnt/crash 2>/tmp/crash-mount.log
mounted=$?
if [[ $mounted == 0 ]]; then
  found=$(tictactoe check-state --state-dir /mnt/crash --json 2>/tmp/crash-check.log)
  check=$?
  [[ -n $found ]] || found=null
  umount /mnt/crash
fi
e2fsck -fn "$SCRATCH_DISK" >/tmp/crash-fsck.log 2>&1
fsck=$?
echo "@@ {\"scenario\":\"crash-point\",\"point\":$CRASH_POINT,\"entry\":$LOG_ENTRY,\"kind\":\"$LOG_KIND\",\"mark\":\"$LOG_MARK\",\
\"mounted\":$mounted,\"check\":$check,\"found\":$found,\"fsck\":$fsck,\
\"journal_replayed\":$(( $(dmesg | grep -c 'recovery complete') - recoveries_before )),\
\"ext4_errors\":$(( $(dmesg | grep -c 'EXT4-fs error') - errors_before )),\
\"mount_said\":\"$(paste -sd'|' /tmp/crash-mount.log | sed 's/"/\\"/g')\"}"
