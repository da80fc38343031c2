#!/usr/bin/env bash
# make fuzz: every parser's fuzz target (Harness/FuzzTargets) run by libFuzzer for SECONDS each,
# built with AddressSanitizer, from the committed corpus (fuzz/corpus/TARGET) and dictionary
# (fuzz/dictionaries/TARGET.dict); then the TOML the configuration target accepted, held to
# Python's tomllib (fuzz/toml_differential.py).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     (default: 8 seconds each, every target)
#   JOBS=2 scripts/fuzz.sh 3600               (two targets at a time: the long run on 2 cores)
#
# What libFuzzer adds to a corpus stays in test-results/fuzz/corpus/TARGET (the next run starts
# from it). A finding is kept in test-results/fuzz/findings/ and fails the run, and every later
# one until it is fixed (each run replays the findings kept first, and drops those that pass);
# the table of executions, edges and findings is test-results/fuzz/summary.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
seconds=${1:-8}
shift || true
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: SECONDS must be a whole number of seconds, 1 or more (it is \"$seconds\")" >&2; exit 64; }
jobs=${JOBS:-1}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: JOBS must be a whole number of targets run at a time, 1 or more (it is \"$jobs\")" >&2; exit 64; }

# Each target once, in the order given: two runs of one target side by side would share its corpus.
mapfile -t targets < <(printf '%s\n' "$@" | awk 'NF && !seen[$0]++')
[[ ${#targets[@]} -gt 0 ]] || mapfile -t targets < <(ls fuzz/corpus)
for target in "${targets[@]}"; do
  [[ -d fuzz/corpus/$target ]] || { echo "fuzz.sh: no target \"$target\"; the targets are $(ls fuzz/corpus | xargs)" >&2; exit 64; }
done

echo "== building the fuzz targets with libFuzzer and AddressSanitizer, optimised (.build-fuzz)"
# SwiftPM's --sanitize=fuzzer links libFuzzer but, in an incremental build, does not always pass
# the coverage instrumentation to every module: -Xswiftc asks it of each (a run checks it got edges).
# Optimised as the programs ship (their preconditions and overflow checks stay): a debug build runs
# the targets at about half the speed (docs/TESTING.md).
"$SWIFT" build -c release --product fuzz --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
  --scratch-path .build-fuzz
# The same targets without libFuzzer, to replay a finding and to print documents for tomllib.
"$SWIFT" build --product fuzz
fuzzer=.build-fuzz/release/fuzz replay=.build/debug/fuzz

results=test-results/fuzz
mkdir -p "$results/findings" "$results/logs"
summary=$results/summary.tsv
printf 'target\tseconds\texecutions\texecutions_per_second\tedges\tfeatures\tcorpus\tfindings\n' > "$summary"
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
export LSAN_OPTIONS="suppressions=$PWD/sanitize/leak.supp:print_suppressions=0"
# In memory where the machine has it: the state targets write a folder for each input.
state=$(mktemp -d -p "$( [[ -d /dev/shm && -w /dev/shm ]] && echo /dev/shm || echo "${TMPDIR:-/tmp}")")
trap 'rm -rf "$state"' EXIT
found=0

# One target's run: its report goes to logs/TARGET.report, its row to logs/TARGET.row, and
# logs/TARGET.found exists when it found a fault (written so that runs side by side do not mix).
fuzz_target() {
  local target=$1 work=$results/corpus/$1 log=$results/logs/$1.log report=$results/logs/$1.report
  mkdir -p "$work"
  local dictionary=()
  [[ -f fuzz/dictionaries/$target.dict ]] && dictionary=(-dict="fuzz/dictionaries/$target.dict")
  : > "$log"
  # A finding kept from an earlier run fails this one until it passes.
  for kept in "$results/findings/$target-"*; do
    [[ -f $kept ]] || continue
    if FUZZ_TARGET=$target TMPDIR=$state "$fuzzer" "$kept" >> "$log" 2>&1; then rm -f "$kept"; fi
  done
  local status=0
  # The state targets write their files under TMPDIR: a folder this run removes.
  # Inputs up to 64 KiB: past every limit a reader holds (a request head's 8 KiB, a line's 4 KiB),
  # so that the limits themselves are fuzzed; a database's seeds are larger.
  FUZZ_TARGET=$target TMPDIR=$state "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -max_len=65536 -len_control=200 -artifact_prefix="$results/findings/$target-" "${dictionary[@]}" "$work" "fuzz/corpus/$target" \
    >> "$log" 2>&1 || status=$?
  local executions per_second last edges features corpus findings
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  per_second=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  edges=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
  features=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
  corpus=$(find "$work" -type f | wc -l)
  findings=$(find "$results/findings" -name "$target-*" -type f | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$seconds" "${executions:-0}" "${per_second:-0}" "${edges:-0}" "${features:-0}" "$corpus" "$findings" \
    > "$results/logs/$target.row"
  {
    echo "== $target: $seconds s"
    echo "   ${executions:-0} executions (${per_second:-0} a second), ${edges:-0} edges, ${features:-0} features, $corpus inputs kept"
    if [[ $status != 0 || $findings != 0 ]]; then
      touch "$results/logs/$target.found"
      grep -E '^(fuzz: |==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' "$log" | head -20 || true
      echo "   FOUND (libFuzzer exited $status): the input is in $results/findings/; replay it as the run did with"
      echo "   FUZZ_TARGET=$target $fuzzer $results/findings/$target-… (or $replay $target FILE, without the sanitizer);"
      echo "   once fixed, add it to fuzz/corpus/$target/ as regression-<what it was>"
    elif [[ ${executions:-0} -lt 1 || ${edges:-0} -lt 1 ]]; then
      touch "$results/logs/$target.found"
      echo "   NOTHING MEASURED: libFuzzer ran ${executions:-0} inputs over ${edges:-0} edges: is .build-fuzz instrumented? (its log: $log)"
    fi
  } > "$report"
}

# JOBS targets at a time, each on a core of its own: past the cores, each only runs slower.
running=0
for target in "${targets[@]}"; do
  # What an earlier run left is not this one's: a target that leaves no report failed.
  rm -f "$results/logs/$target."{report,row,found}
  # A job's status is not needed here (its files say how it went), and must not stop the loop.
  if [[ $running -ge $jobs ]]; then wait -n || true; running=$((running - 1)); fi
  echo "== $target: $seconds s (log: $results/logs/$target.log)"
  fuzz_target "$target" &
  running=$((running + 1))
done
wait || true
for target in "${targets[@]}"; do
  if [[ ! -f $results/logs/$target.report || ! -f $results/logs/$target.row ]]; then
    found=$((found + 1))
    echo "== $target: its run ended before it reported (its log: $results/logs/$target.log)"
    continue
  fi
  cat "$results/logs/$target.report"
  cat "$results/logs/$target.row" >> "$summary"
  [[ ! -e $results/logs/$target.found ]] || found=$((found + 1))
done

if [[ " ${targets[*]} " == *" configuration "* ]]; then
  echo "== configuration: what this reader accepts, read by Python's tomllib"
  # Each file tomllib reads otherwise is kept as a finding, as a crash is.
  "$replay" configuration --json fuzz/corpus/configuration "$results/corpus/configuration" \
    | python3 fuzz/toml_differential.py "$results/findings/configuration-tomllib-" || found=$((found + 1))
fi
column -t -s $'\t' "$summary"
[[ $found == 0 ]] || { echo "fuzz.sh: $found targets found a fault (above)" >&2; exit 1; }
