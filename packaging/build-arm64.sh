#!/usr/bin/env bash
# Builds products for Raspberry Pi OS Trixie (arm64) with Debian 13's own Swift, cross-compiling
# in the trixie build environment against the cached arm64 sysroot, release mode with Swift's
# static standard library and full RELRO (Debian's hardening default). Copies the products'
# binaries into DIR while it still holds the build folder's lock (two suites may build beside
# each other) and prints DIR.
#
# Usage: packaging/build-arm64.sh --into DIR [SWIFT BUILD OPTION ...] --product NAME [--product NAME ...]
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
into=""
while (($#)); do
  case $1 in
    --product) products+=("$2"); shift 2 ;;
    --into) into=$2; shift 2 ;;
    *) options+=("$1"); shift ;;
  esac
done
[[ -n $into ]] || { echo "build-arm64: say where the binaries go: --into DIR" >&2; exit 64; }
# One build at a time in the scratch folder (the appliance and power-cut suites make their
# payloads side by side).
source "$root/scripts/lock.sh"
take_lock "$cache/.lock-build-arm64-$(echo "$root" | sha256sum | cut -c1-16)"
for product in "${products[@]}"; do
  bash "$root/packaging/in-trixie.sh" "${build[@]}" "${options[@]}" --product "$product" >&2
done
bin=$(bash "$root/packaging/in-trixie.sh" "${build[@]}" --show-bin-path)
mkdir -p "$into"
for product in "${products[@]}"; do cp "$bin/$product" "$into/$product"; done
echo "$into"
