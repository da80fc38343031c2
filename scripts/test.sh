#!/usr/bin/env bash
# make test: every layer of tests, in stages, each timed (scripts/stages.sh), with what the later
# stages need made per machine (scripts/caches.sh: the trixie root, the kernels, the appliance
# image, ...) in the background from the start, so that downloads and the emulated machines'
# making overlap the host's own builds and tests. The host's stages come first, the emulated
# machines last. At the end, a table of the stages and their minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
# .ci/run keeps one table for its whole run and prints it; alone, this run's table is new.
[[ -n ${STAGE_TIMES:-} ]] && own_table=no || own_table=yes
[[ $own_table == no ]] || rm -f test-results/stage-times.tsv
# Every layer runs here, whatever a quick run left in the environment (make quick).
unset TEST_LAYERS
source scripts/stages.sh
make=(make --no-print-directory SWIFT="${SWIFT:-swift}")

stage setup "${make[@]}" setup-tests
background caches bash scripts/caches.sh
stage unit-tests "${make[@]}" unit-test
stage fuzz "${make[@]}" fuzz
stage sanitize "${make[@]}" sanitize
stage spectral "${make[@]}" spectral-test
stage storage "${make[@]}" storage-test
stage browser "${make[@]}" browser-test
stage hostile "${make[@]}" hostile-test
stage trixie-unit-tests "${make[@]}" trixie-unit-test
stage packages "${make[@]}" package-test
stage real-kernel "${make[@]}" kernel-test
# Two emulated machines at once: the appliance VM keeps about one and a half of the two cores
# busy, and the power cuts' VM takes what it leaves (both read the LEDs from the kernel's record,
# which a busy host does not distort).
background power-cuts "${make[@]}" power-cut-test
stage appliance "${make[@]}" appliance-test
await power-cuts
await caches
[[ $own_table == no ]] || stage_table
