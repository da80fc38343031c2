# Timed stages, for make test (scripts/test.sh) and .ci/run: sourced, not run.
#
#   stage NAME COMMAND...       runs COMMAND in the foreground, its output as it comes, and
#                               keeps how long it took and how busy the processors were
#   background NAME COMMAND...  starts COMMAND beside the stages, its output to
#                               test-results/logs/NAME.log (stopped if the run ends first)
#   await NAME                  waits for a background command and shows its log
#   stage_table                 prints every stage kept so far
#
# Each stage is one line of $STAGE_TIMES (test-results/stage-times.tsv unless set): name,
# seconds, how many of the processors were busy on average (from /proc/stat), and how it ended.
# The first stage that fails ends the run, with the table.

stages_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STAGE_TIMES=${STAGE_TIMES:-$stages_root/test-results/stage-times.tsv}
stage_logs=$stages_root/test-results/logs
mkdir -p "$(dirname "$STAGE_TIMES")" "$stage_logs"
declare -A stage_background=()

# Processor time spent busy and in all, in clock ticks, since boot.
stage_cpu() {
  local _ user nice system idle iowait irq softirq steal
  read -r _ user nice system idle iowait irq softirq steal _ < /proc/stat
  echo "$((user + nice + system + irq + softirq + steal)) $((user + nice + system + idle + iowait + irq + softirq + steal))"
}

# NAME SECONDS BUSY_BEFORE TOTAL_BEFORE STATUS: one line of the table.
stage_keep() {
  local busy total cores
  read -r busy total < <(stage_cpu)
  cores=$(nproc)
  printf '%s\t%d\t%s\t%s\n' "$1" "$2" \
    "$(awk -v b=$((busy - $3)) -v t=$((total - $4)) -v c="$cores" 'BEGIN { printf "%.1f", (t > 0 ? c * b / t : 0) }')" \
    "$([[ $5 == 0 ]] && echo passed || echo "failed ($5)")" >> "$STAGE_TIMES"
}

stage() {
  local name=$1 started=$SECONDS status=0 busy total
  shift
  read -r busy total < <(stage_cpu)
  echo "=== stage $name: $*"
  "$@" || status=$?
  stage_keep "$name" $((SECONDS - started)) "$busy" "$total" "$status"
  if ((status)); then
    stage_table
    exit "$status"
  fi
}

# Each background command runs in a process group of its own, which is stopped (every process
# in it) when the run ends before it was awaited: a stage failed, or the run was interrupted.
background() {
  local name=$1
  shift
  echo "=== background $name: $* (log: test-results/logs/$name.log)"
  set -m
  (
    started=$SECONDS
    read -r busy total < <(stage_cpu)
    status=0
    "$@" > "$stage_logs/$name.log" 2>&1 || status=$?
    stage_keep "$name (beside)" $((SECONDS - started)) "$busy" "$total" "$status"
    exit "$status"
  ) &
  stage_background[$name]=$!
  set +m
  trap stage_stop_background EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

stage_stop_background() {
  local name
  for name in "${!stage_background[@]}"; do
    echo "=== background $name stopped: the run ended before it did"
    kill -TERM -- "-${stage_background[$name]}" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}

await() {
  local name=$1 status=0
  [[ -n ${stage_background[$name]:-} ]] || return 0
  wait "${stage_background[$name]}" || status=$?
  unset "stage_background[$name]"
  echo "=== background $name $( ((status)) && echo "failed ($status)" || echo finished); its log:"
  cat "$stage_logs/$name.log"
  if ((status)); then
    stage_table
    exit "$status"
  fi
}

stage_table() {
  [[ -f $STAGE_TIMES ]] || return 0
  echo
  echo "stage                          minutes  cores busy  result"
  awk -F '\t' '{ printf "%-30s %7.1f  %10s  %s\n", $1, $2 / 60, $3, $4 }' "$STAGE_TIMES"
  echo "(a stage \"beside\" ran beside the others; cores busy counts the whole machine's)"
}
