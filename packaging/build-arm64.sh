#!/usr/bin/env bash
# Builds products for Raspberry Pi OS Trixie (arm64) with Debian 13's own Swift, cross-compiling
# in the trixie build environment against the cached arm64 sysroot, release mode with Swift's
# static standard library and full RELRO (Debian's hardening default). Prints the folder that
# holds the binaries.
#
# Usage: packaging/build-arm64.sh [SWIFT BUILD OPTION ...] --product NAME [--product NAME ...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${TICTACTOE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tictactoe-gpio}
mkdir -p "$cache"
sdks=$(bash "$root/packaging/arm64-sysroot.sh" "$cache")
sysroot=$sdks/trixie-arm64.artifactbundle/trixie-arm64/sysroot
build=(env "PKG_CONFIG_SYSROOT_DIR=$sysroot" "PKG_CONFIG_LIBDIR=$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig"
  swift build -c release --static-swift-stdlib --swift-sdks-path "$sdks" --swift-sdk trixie-arm64
  --scratch-path .build-arm64 -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)
products=()
options=()
while (($#)); do
  if [[ $1 == --product ]]; then products+=("$2"); shift 2; else options+=("$1"); shift; fi
done
# One build at a time in the scratch folder (the appliance and power-cut suites make their
# payloads side by side).
exec {lock}>"$cache/.lock-build-arm64-$(echo "$root" | sha256sum | cut -c1-16)"
flock "$lock"
for product in "${products[@]}"; do
  bash "$root/packaging/in-trixie.sh" "${build[@]}" "${options[@]}" --product "$product" >&2
done
bash "$root/packaging/in-trixie.sh" "${build[@]}" --show-bin-path
