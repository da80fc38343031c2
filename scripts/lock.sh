# The lock every cache maker holds while it makes its part (sourced, not run): one maker at a
# time, whoever asks, and whoever asks later waits, then finds the part made.
#
#   take_lock FILE   takes FILE's lock for the rest of this script (its descriptor: $lock_fd,
#                    to be closed for children that may outlive the script: `cmd {lock_fd}>&-`)
#
# make test runs the makers in the background at the idle priority (scripts/caches.sh), where on
# a busy machine they may not run at all; so a maker that has to wait raises the one holding the
# lock, and everything it has started, to the normal priority first: a stage waiting for a part
# never waits for the machine to fall idle.

take_lock() {
  local file=$1 holder
  exec {lock_fd}<>"$file"
  if ! flock -n "$lock_fd"; then
    holder=$(tr -dc 0-9 < "$file" 2>/dev/null || true)
    [[ -n $holder ]] && lock_raise "$holder"
    flock "$lock_fd"
  fi
  # Who holds it, for the next one to wait.
  echo $$ > "$file"
}

# Raises process $1 and its descendants to the normal scheduling policy and priority.
lock_raise() {
  local child
  chrt --other --all-tasks --pid 0 "$1" >/dev/null 2>&1 || true
  renice -n 0 -p "$1" >/dev/null 2>&1 || true
  for child in $(pgrep -P "$1" 2>/dev/null); do lock_raise "$child"; done
}
