#!/usr/bin/env bash
# The arm64 side of a cross-compilation from x86_64 to Raspberry Pi OS Trixie: a sysroot of
# Debian 13 arm64 packages (C library, C++ runtime, libgpiod, libqrencode, SQLite, libmosquitto
# with the OpenSSL it needs, and Debian's own Swift runtime and static standard library from
# swiftlang:arm64), unpacked with dpkg-deb (foreign packages cannot be installed here), and a
# Swift SDK bundle around it for `swift build --swift-sdk`. No program links Foundation's
# networking, so no libcurl.
# Made once and cached, keyed by this script and the download script (a private apt
# configuration: the machine's sources are never changed).
#
# Usage: packaging/arm64-sysroot.sh CACHE_DIR   -> prints the folder that holds the SDK bundle
set -euo pipefail
cache=${1:?usage: arm64-sysroot.sh CACHE_DIR}
packages=(
  swiftlang libswiftlang libc6 libc6-dev libgcc-s1 libgcc-14-dev libstdc++6 libstdc++-14-dev
  libatomic1 libcrypt1 libcrypt-dev libgpiod3 libgpiod-dev libqrencode4 libqrencode-dev libsqlite3-0 libsqlite3-dev
  libmosquitto1 libmosquitto-dev libssl3t64 libzstd1
  linux-libc-dev zlib1g zlib1g-dev
)
key=$(cat "$0" "$(dirname "$0")/../scripts/download-debs.sh" | sha256sum | cut -c1-16)
sdks=$cache/arm64-sdk-$key
mkdir -p "$cache"
source "$(dirname "$0")/../scripts/lock.sh"
take_lock "$cache/.lock-arm64-sdk"
if [[ -f $sdks/.complete ]]; then
  echo "$sdks"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/swiftlang"
echo "arm64-sysroot: downloading ${#packages[@]} Debian 13 arm64 packages (once)" >&2
bash "$(dirname "$0")/../scripts/download-debs.sh" arm64 trixie "$work/debs" "${packages[@]}"

rm -rf "$cache"/arm64-sdk-*
bundle=$sdks/trixie-arm64.artifactbundle
sysroot=$bundle/trixie-arm64/sysroot
mkdir -p "$sysroot"
for deb in "$work"/debs/*.deb; do
  case $(basename "$deb") in
    # Only the target's runtime and libraries from the compiler package; its arm64 tools are not run.
    swiftlang_*) dpkg-deb -x "$deb" "$work/swiftlang" ;;
    *) dpkg-deb -x "$deb" "$sysroot" ;;
  esac
done
mkdir -p "$sysroot/usr/libexec/swift/lib"
for part in swift swift_static clang; do
  cp -a "$work/swiftlang/usr/libexec/swift/lib/$part" "$sysroot/usr/libexec/swift/lib/"
done
# Debian 13 has merged /usr; the linker's search paths and the crt files expect /lib as well.
[[ -e $sysroot/lib ]] || ln -s usr/lib "$sysroot/lib"

cat > "$bundle/info.json" <<'JSON'
{
  "schemaVersion": "1.0",
  "artifacts": {
    "trixie-arm64": {
      "type": "swiftSDK",
      "version": "6.0.3",
      "variants": [{ "path": "trixie-arm64" }]
    }
  }
}
JSON
cat > "$bundle/trixie-arm64/swift-sdk.json" <<'JSON'
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "aarch64-unknown-linux-gnu": {
      "sdkRootPath": "sysroot",
      "swiftResourcesPath": "sysroot/usr/libexec/swift/lib/swift",
      "swiftStaticResourcesPath": "sysroot/usr/libexec/swift/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
JSON
cat > "$bundle/trixie-arm64/toolset.json" <<'JSON'
{
  "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] },
  "cCompiler": { "extraCLIOptions": ["-fuse-ld=lld"] },
  "cxxCompiler": { "extraCLIOptions": ["-fuse-ld=lld"] }
}
JSON
touch "$sdks/.complete"
echo "$sdks"
