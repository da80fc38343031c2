#!/usr/bin/env bash
# Instructions per press and per scan step, counted by callgrind on a release build: the
# full stack and the imperative baseline on the counting chip, and their ratio. Only the code
# inside PressCount's `measured` is counted. Instructions do not vary with the machine's load,
# so this ratio holds where wall-time figures wander (docs/BENCHMARKS.md). Then the same work
# timed by a plain loop, without package-benchmark around it. Every figure goes to
# Benchmarks/results/instructions.json (or $RESULTS), which docs/BENCHMARKS.md is rendered from
# (`make docs`); then the guard holds them to Benchmarks/budgets.txt.
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
swift=${SWIFT:-swift}
runs=${RUNS:-20000}
results=${RESULTS:-results/instructions.json}
context=$(bash ../scripts/bench-context.sh)

"$swift" build -c release --product PressCount >/dev/null
binary="$("$swift" build -c release --show-bin-path)/PressCount"
# Valgrind 3.19 (Debian 12) cannot read the DWARF 5 the Swift compiler writes: count on a copy
# without debug information (the symbols stay, so the counted function is still found).
copy=$(mktemp) counted=$(mktemp -d)
trap 'rm -f "$copy"; rm -rf "$counted"' EXIT
cp "$binary" "$copy"
chmod +x "$copy"
strip --strip-debug "$copy"

count() {
    local report
    report=$(valgrind --tool=callgrind --toggle-collect='*measured*' --callgrind-out-file="$counted/$1.callgrind" \
        "$copy" "$1" "$2" 2>&1 >/dev/null)
    local total
    total=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' <<<"$report")
    if [[ -z "$total" ]]; then
        echo "bench-instructions: callgrind gave no count for '$1'; its report:" >&2
        echo "$report" >&2
        exit 1
    fi
    echo $((total / $2))
}

# Every count, as many at once as the machine has cores: valgrind runs a program on one core at
# a time, and instruction counts do not depend on what else runs. Each count into its own file;
# one that failed has said why and left its file empty.
served_runs=$(( runs / 10 ))
for job in full:$runs imperative:$runs scan:$runs scan-dim:$runs move:$runs o-to-start:$runs \
        served-0:$served_runs served-1:$served_runs served-32:$served_runs; do
    while (( $(jobs -rp | wc -l) >= $(nproc) )); do wait -n || true; done
    (count "${job%%:*}" "${job##*:}" > "$counted/${job%%:*}") &
done
wait
counted() {
    local value
    value=$(cat "$counted/$1")
    [[ -n $value ]] || { echo "bench-instructions: no count for '$1'" >&2; exit 1; }
    echo "$value"
}
full=$(counted full)
imperative=$(counted imperative)
echo "instructions per press, counting chip ($runs presses, callgrind):"
echo "  (a′) full stack:   $full"
echo "  (b′) imperative:   $imperative"
awk -v a="$full" -v b="$imperative" 'BEGIN { printf "  (a′) / (b′):       %.2f×\n", a / b }'
echo "instructions per scan step, an X and an O lit: $(counted scan) colour only, $(counted scan-dim) with O dim"
echo "instructions per move of the perfect computer, over every position in play: $(counted move)"
# A new game with O to start (the default marks): nothing lit but O's dim status LED. Each run
# is a millisecond of virtual time.
echo "instructions per second, a new game with O to start (only O's status LED lit, dim): $(( $(counted o-to-start) * 1000 ))"
# Allocations per press: the calls of malloc callgrind saw inside `measured`.
allocations=$(callgrind_annotate --tree=caller "$counted/full.callgrind" 2>/dev/null | awk '
    /^$/ { calls = 0; next }
    /^ *[0-9,]+ .* < / { if (match($0, /\(([0-9,]+)x\)/)) { n = substr($0, RSTART + 1, RLENGTH - 3); gsub(",", "", n); calls += n } }
    /\*  .*:malloc \[/ { total += calls }
    END { print total + 0 }')
awk -v a="$allocations" -v n="$runs" 'BEGIN { printf "allocations per press, full stack: %.2f\n", a / n }'
# The board's API beside the board: what the game loop does per press with 0, 1 and 32 clients
# watching (the goal: the same within 10%; serialising and writing are the server's thread's).
echo "instructions per press on the game loop with the API served ($served_runs presses, callgrind):"
for watchers in 0 1 32; do
    echo "  $watchers watching: $(counted "served-$watchers")"
done
# The same work timed by a plain loop (no benchmark harness): a second view of the wall time.
# Each line: "KIND: N runs (checksum C); wall time p50 A ns, p90 B ns, p99 D ns", kept as JSON too.
wall=()
plain() {
    local line
    line=$("$binary" "$1" "$2")
    echo "  $line"
    wall+=("$(sed -n 's/^\([a-z0-9-]*\): \([0-9]*\) runs.*p50 \([0-9]*\) ns, p90 \([0-9]*\) ns, p99 \([0-9]*\) ns$/"\1": {"runs": \2, "p50": \3, "p90": \4, "p99": \5}/p' <<<"$line")")
}
echo "wall time, plain loop ($runs runs):"
for kind in full imperative scan scan-dim move o-to-start; do plain "$kind" "$runs"; done
# The board's API, outside package-benchmark (its malloc interposer does not survive other
# threads allocating: see GameLoop.swift): the press with 0, 1 and 32 clients watching, and a
# press sent on the socket until a watcher has its state (goal: p99 within 1 ms).
echo "wall time with the API served, plain loop ($served_runs runs):"
for watchers in 0 1 32; do plain "served-$watchers" "$served_runs"; done
plain latency "$served_runs"

# The results file: instructions per run of each kind (a press, a scan step, a move, a
# millisecond of virtual time for o-to-start), allocations per press, the plain loop's times.
joined() { local IFS=,; echo "$*"; }
instructions=()
for kind in full imperative scan scan-dim move o-to-start served-0 served-1 served-32; do
    instructions+=("\"$kind\": $(counted "$kind")")
done
mkdir -p "$(dirname "$results")"
{
    echo "{"
    echo "  \"measured\": $context,"
    echo "  \"runs\": $runs,"
    echo "  \"served-runs\": $served_runs,"
    echo "  \"instructions\": {$(joined "${instructions[@]}")},"
    echo "  \"allocations-per-press\": $(awk -v a="$allocations" -v n="$runs" 'BEGIN { printf "%.2f", a / n }'),"
    echo "  \"wall-time-ns\": {$(joined "${wall[@]}")}"
    echo "}"
} > "$results"
echo "results: Benchmarks/$results"

# The guard: every figure against its budget (Benchmarks/budgets.txt); over any, make bench fails.
budget() { awk -v name="$1" '$1 == name { print $2 }' budgets.txt; }
over=0
check() {
    local name=$1 value=$2 limit
    limit=$(budget "$name")
    [[ -n $limit ]] || { echo "bench-instructions: no budget for $name in Benchmarks/budgets.txt" >&2; exit 1; }
    if awk -v v="$value" -v l="$limit" 'BEGIN { exit !(v > l) }'; then
        echo "  $name: $value, OVER its budget of $limit"
        over=1
    else
        echo "  $name: $value, within its budget of $limit"
    fi
}
echo "the guard (Benchmarks/budgets.txt):"
check press-ratio "$(awk -v a="$full" -v b="$imperative" 'BEGIN { printf "%.2f", a / b }')"
check press "$full"
check press-allocations "$(awk -v a="$allocations" -v n="$runs" 'BEGIN { printf "%.2f", a / n }')"
check scan "$(counted scan)"
check move "$(counted move)"
if (( over )); then
    echo "bench-instructions: the hot path is over its budget: find what made it slower (callgrind_annotate on a PressCount run), or, if the cost is worth it, raise the budget in Benchmarks/budgets.txt and say why in the commit" >&2
    exit 1
fi
