#!/usr/bin/env bash
# Makes everything the test suites cache per machine, keyed by its inputs, in the order the suites
# need them: the trixie build environment, the arm64 sysroot, libgpiod 2, the appliance's offline
# .debs, the two test kernels and the appliance image. Each is made once (its maker holds a
# lock, so a suite that needs one while this makes it waits for it, and then finds it made).
#
# make test runs this in the background beside the host's own stages. Downloads and unpacking
# mostly wait on the network and the disk, so they run at normal priority; what compiles (the
# kernels) or emulates (the image's second stage) runs at the idle priority, on what the
# foreground leaves of the processors, and at full speed once a suite waits for it.
#
# Usage: scripts/caches.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${TICTACTOE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tictactoe-gpio}
mkdir -p "$cache"

step() {
  local name=$1 started=$SECONDS
  shift
  "$@" >/dev/null
  echo "caches: $name ready after $((SECONDS - started)) s"
}
idle() { chrt --idle 0 "$@"; }

step "the trixie build environment" bash "$root/packaging/trixie-root.sh" "$cache"
step "the arm64 sysroot" bash "$root/packaging/arm64-sysroot.sh" "$cache"
step "libgpiod 2" bash "$root/vm/fetch-libgpiod2.sh" "$cache/libgpiod2"
step "the appliance's .debs" bash "$root/vm/appliance/fetch-debs.sh" "$cache"
step "the x86_64 kernel" idle bash "$root/vm/build-kernel.sh" "$cache" tiny
step "the arm64 kernel" idle bash "$root/vm/build-kernel.sh" "$cache" arm64
step "the appliance image" idle bash "$root/vm/appliance/make-image.sh" "$cache" "$(bash "$root/vm/build-kernel.sh" "$cache" arm64)"
