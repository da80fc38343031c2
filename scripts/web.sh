#!/usr/bin/env bash
# `make web`: the board in a browser on any Linux machine. Runs the simulated board headless
# (tictactoe simulate --serve) and the web view against it, prints the address to open, and
# stops both on Ctrl-C.
#
#   WEB_LISTEN=address:port   where the page is served (default 127.0.0.1:8080: this machine
#                             only; *:8080 lets a phone on the same network in)
#   ARGS="..."                more options for simulate (--opponent computer-4, --x-name ...)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
listen=${WEB_LISTEN:-127.0.0.1:8080}
cd "$root"
"$swift" build --product tictactoe
"$swift" build --product tictactoe-web
bin=$("$swift" build --show-bin-path)

folder=$(mktemp -d "${TMPDIR:-/tmp}/tictactoe-web.XXXXXX")
pids=()
stop() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$folder"
}
trap stop EXIT
trap 'exit 0' INT TERM

# shellcheck disable=SC2086 # ARGS is a list of options
"$bin/tictactoe" simulate --serve "$folder/board.sock" --state-dir "$folder/state" ${ARGS:-} &
pids+=($!)
for _ in $(seq 100); do
  [[ -S $folder/board.sock ]] && break
  kill -0 "${pids[0]}" 2>/dev/null || { echo "web: the simulated board did not start" >&2; exit 70; }
  sleep 0.1
done
"$bin/tictactoe-web" --socket "$folder/board.sock" --listen "$listen" --page "$root/web" &
pids+=($!)
host=${listen%:*}
[[ $host == "*" ]] && host=localhost
echo "web: open http://$host:${listen##*:}/ in a browser; in another terminal, watch the same board with:"
echo "web:   $bin/tictactoe watch --socket $folder/board.sock"
echo "web: Ctrl-C stops both."
# Whichever ends first (Ctrl-C, or the web view refusing its address) ends both.
wait -n "${pids[@]}"
