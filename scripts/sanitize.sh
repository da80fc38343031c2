#!/usr/bin/env bash
# make sanitize: the unit, simulation and process tests (every layer, as make unit-test runs them)
# built and run under ThreadSanitizer, then under AddressSanitizer, each in a build folder of its
# own. Every process the tests start (the tictactoe and tictactoe-web binaries among them) is
# built the same way and writes any report to test-results/sanitize/<sanitizer>.<pid>; a run
# passes only if the tests pass and no process wrote one. Suppressions, each with its reason:
# sanitize/thread.supp and sanitize/address.supp.
#
#   scripts/sanitize.sh [thread|address]...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
sanitizers=("$@")
[[ ${#sanitizers[@]} -gt 0 ]] || sanitizers=(thread address)
reports=$PWD/test-results/sanitize
failed=()
# What went wrong under each sanitizer, said again at the very end: CI shows a run's last lines,
# and the address run's thousand lines would otherwise hide the thread run's report.
summary=()

for sanitizer in "${sanitizers[@]}"; do
  case $sanitizer in
    thread)
      # Protected is a POSIX mutex in this build, which the sanitizer sees (Sources/Shared/Basics/Protected.swift).
      flags=(--sanitize=thread -Xswiftc -DSANITIZE_THREAD)
      export TSAN_OPTIONS="log_path=$reports/thread suppressions=$PWD/sanitize/thread.supp second_deadlock_stack=1 history_size=4"
      ;;
    address)
      flags=(--sanitize=address)
      export ASAN_OPTIONS="log_path=$reports/address suppressions=$PWD/sanitize/address.supp detect_leaks=1 strict_string_checks=1 detect_stack_use_after_return=1"
      export LSAN_OPTIONS="suppressions=$PWD/sanitize/leak.supp print_suppressions=0"
      ;;
    *) echo "sanitize.sh: no sanitizer \"$sanitizer\"; give thread or address" >&2; exit 64 ;;
  esac
  scratch=.build-$sanitizer
  rm -f "$reports/$sanitizer".*
  mkdir -p "$reports"
  echo "== $sanitizer: building the tests into $scratch"
  "$SWIFT" build --build-tests "${flags[@]}" --scratch-path "$scratch"
  echo "== $sanitizer: running every test"
  status=0
  output=$reports/$sanitizer-tests.log
  env -u TEST_LAYERS "$SWIFT" test --skip-build "${flags[@]}" --scratch-path "$scratch" 2>&1 | tee "$output" || status=$?
  mapfile -t written < <(find "$reports" -maxdepth 1 -name "$sanitizer.*" -size +0 | sort)
  for report in "${written[@]}"; do
    echo "---- $report"
    cat "$report"
  done
  if [[ $status != 0 || ${#written[@]} -gt 0 ]]; then
    echo "== $sanitizer: FAILED (tests exited $status; ${#written[@]} processes wrote a report, above)"
    failed+=("$sanitizer")
    summary+=("== $sanitizer: tests exited $status; failed tests and reports:")
    mapfile -t -O "${#summary[@]}" summary < <(grep -a -E "^✘|Issue recorded|Fatal error|Test .* failed" "$output" | cut -c1-300 | head -40)
    for report in "${written[@]}"; do
      summary+=("-- $report")
      mapfile -t -O "${#summary[@]}" summary < <(grep -a -E "WARNING: |SUMMARY: |^    #[0-4] " "$report" | cut -c1-300 | head -30)
    done
  else
    echo "== $sanitizer: clean (every test passed, no report)"
  fi
done
[[ ${#failed[@]} == 0 ]] || {
  printf '%s\n' "${summary[@]}" >&2
  echo "sanitize.sh: not clean under ${failed[*]}" >&2
  exit 1
}
