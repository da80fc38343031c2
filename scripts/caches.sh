#!/usr/bin/env bash
# Makes everything the test suites cache per machine, keyed by its inputs, in the order the suites
# need them: the trixie build environment, the arm64 sysroot, libgpiod 2, the appliance's offline
# .debs, the two test kernels, the appliance image and the previous release's packages. Each is made once (its maker holds a
# lock, so a suite that needs one while this makes it waits for it, and then finds it made).
#
# make test runs this in the background beside the host's own stages. Downloads and unpacking
# mostly wait on the network and the disk, so they run at normal priority; what compiles (the
# kernels) or emulates (the image's second stage) runs at the idle priority, on what the
# foreground leaves of the processors; a suite that needs one of them while it is being made
# raises it to the normal priority and waits (scripts/lock.sh). A part that fails here is said
# and left: the suite that needs it makes it again, and fails with the reason if it must.
#
# Usage: scripts/caches.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${TICTACTOE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tictactoe-gpio}
mkdir -p "$cache"

failed=0
step() {
  local name=$1 started=$SECONDS
  shift
  if "$@" >/dev/null; then
    echo "caches: $name ready after $((SECONDS - started)) s"
  else
    echo "caches: $name failed after $((SECONDS - started)) s (exit $?); the suite that needs it will make it again"
    failed=$((failed + 1))
    return 1
  fi
}
# At the idle priority where the system allows it (chrt's SCHED_IDLE), else at the lowest nice.
idle() {
  if chrt --idle 0 true 2>/dev/null; then chrt --idle 0 "$@"; else nice -n 19 "$@"; fi
}

step "the trixie build environment" bash "$root/packaging/trixie-root.sh" "$cache" || true
step "the arm64 sysroot" bash "$root/packaging/arm64-sysroot.sh" "$cache" || true
step "libgpiod 2" bash "$root/vm/fetch-libgpiod2.sh" "$cache/libgpiod2" || true
step "the appliance's .debs" bash "$root/vm/appliance/fetch-debs.sh" "$cache" || true
step "the x86_64 kernel" idle bash "$root/vm/build-kernel.sh" "$cache" tiny || true
if step "the arm64 kernel" idle bash "$root/vm/build-kernel.sh" "$cache" arm64; then
  # Made: this only names it.
  kernel=$(bash "$root/vm/build-kernel.sh" "$cache" arm64)
  step "the appliance image" idle bash "$root/vm/appliance/make-image.sh" "$cache" "$kernel" || true
fi
# The previous release's packages, built from its tag, for the appliance's upgrade test.
step "the previous release's packages" idle bash "$root/vm/appliance/previous-release.sh" "$cache" || true
echo "caches: done, $failed part(s) not made"
