#!/usr/bin/env bash
# Where and when a benchmark ran, as one JSON object, for the results files `make bench` writes
# into Benchmarks/results/ (docs/BENCHMARKS.md's tables are rendered from them by `make docs`):
# the day (UTC), the commit measured, the Swift compiler, the machine's processors and its load
# average over the last minute as the run began. Figures are compared within one run, as ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
# "-modified" when what is measured differs from the commit: anything but the results and the
# documents a run itself rewrites.
commit=$(git describe --always 2>/dev/null || echo unknown)
if ! git diff --quiet HEAD -- . ':!Benchmarks/results' ':!docs' 2>/dev/null; then commit=$commit-modified; fi
version=$("$swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -1)
read -r load _ </proc/loadavg
printf '{"day": "%s", "commit": "%s", "swift": "%s", "processors": %d, "load": %s}\n' \
    "$(date -u +%F)" "$commit" "${version:-unknown}" "$(nproc)" "$load"
