#!/usr/bin/env bash
# The game loop's benchmarks (package-benchmark, Benchmarks/Benchmarks/GameLoop, release build),
# all in one process so that their ratios hold on a noisy machine. Prints package-benchmark's
# tables and keeps each benchmark's wall time (p50, p99) and allocations (p50, the most) in
# Benchmarks/results/game-loop.json (or $RESULTS), which docs/BENCHMARKS.md is rendered from
# (`make docs`).
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
swift=${SWIFT:-swift}
results=${RESULTS:-results/game-loop.json}
context=$(bash ../scripts/bench-context.sh)
tables=$(mktemp)
trap 'rm -f "$tables"' EXIT

"$swift" package --disable-sandbox benchmark --no-progress --format markdown | tee "$tables"

mkdir -p "$(dirname "$results")"
CONTEXT=$context python3 - "$tables" "$results" <<'PYTHON'
"""package-benchmark's markdown tables, one per benchmark ("### NAME", then rows
"| Metric (unit) * | p0 | p25 | p50 | p75 | p90 | p99 | p100 | Samples |"), as JSON."""
import json
import os
import re
import sys

NANOSECONDS = {"ns": 1, "μs": 1_000, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}
tables, results = sys.argv[1], sys.argv[2]
benchmarks, name = {}, None
for line in open(tables, encoding="utf-8"):
    heading = re.match(r"^### (.+?)\s*$", line)
    if heading:
        name = heading.group(1).strip()
        continue
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if name is None or len(cells) != 9 or not cells[1].replace("-", "").isdigit():
        continue
    metric, (p0, p25, p50, p75, p90, p99, p100, samples) = cells[0].rstrip(" *"), [float(c) for c in cells[1:]]
    entry = benchmarks.setdefault(name, {"samples": int(samples)})
    if metric.startswith("Time (wall clock)"):
        unit = re.search(r"\((ns|μs|us|ms|s)\)$", metric)
        scale = NANOSECONDS[unit.group(1)] if unit else 1
        entry["wall-time-ns"] = {"p50": round(p50 * scale), "p99": round(p99 * scale)}
    elif metric.startswith("Malloc (total)"):
        entry["mallocs"] = {"p50": int(p50), "max": int(p100)}
    else:
        entry[metric] = {"p50": round(p50), "max": round(p100)}
if not benchmarks:
    sys.exit("bench-game-loop: no benchmark tables found in package-benchmark's output")
with open(results, "w", encoding="utf-8") as file:
    json.dump({"measured": json.loads(os.environ["CONTEXT"]), "benchmarks": benchmarks}, file, indent=2, ensure_ascii=False)
    file.write("\n")
print(f"results: Benchmarks/{results} ({len(benchmarks)} benchmarks)")
PYTHON
