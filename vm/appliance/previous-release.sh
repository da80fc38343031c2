#!/usr/bin/env bash
# The board's package of the previous release, for the appliance's upgrade test: that release's
# sources (the commit vm/appliance/previous-release names) built and packaged by that release's
# own make-deb.sh (its control file, maintainer scripts and units), in today's build
# environment: today's scripts that make the trixie root and the arm64 sysroot are copied over
# that release's (the roots only gain libraries from one release to the next), so the cached
# roots serve both. Its version is marked "~previous", below today's package of the same number,
# which therefore upgrades it. Made once (a release build, several minutes) and cached by the
# commit and those scripts.
#
# Usage: vm/appliance/previous-release.sh CACHE_DIR   -> prints the path of the .deb
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${1:?usage: previous-release.sh CACHE_DIR}
commit=$(grep -v '^#' "$here/previous-release" | head -1)
environment=(packaging/trixie-root.sh packaging/arm64-sysroot.sh scripts/download-debs.sh scripts/debian-archive.sh scripts/lock.sh)
key=$( (echo "$commit"; cd "$root" && cat "${environment[@]}") | sha256sum | cut -c1-16)
out=$cache/previous-release-$key
if [[ -f $out/.complete ]]; then
  ls "$out"/tictactoe-gpio_*~previous_arm64.deb
  exit 0
fi
git -C "$root" cat-file -e "$commit^{commit}" 2>/dev/null || {
  echo "previous-release: commit $commit is not in this clone's history; fetch it (a shallow clone lacks it)" >&2
  exit 66
}
# Older builds (another commit or environment) are of no more use.
rm -rf "$cache"/previous-release-*
mkdir -p "$out"
# Outside the cache: the trixie environment mounts the cache read-only over whatever is inside it.
tree=$(mktemp -d "${TMPDIR:-/tmp}/previous-release.XXXXXX")
trap 'rm -rf "$tree"' EXIT
git -C "$root" archive "$commit" | tar -x -C "$tree"
for file in "${environment[@]}"; do cp "$root/$file" "$tree/$file"; done
echo "previous-release: building the board's package of $commit (once)" >&2
bash "$tree/packaging/make-deb.sh" arm64 "$out/built" >&2
deb=$(ls "$out"/built/tictactoe-gpio_*_arm64.deb)
unpacked=$out/unpacked
dpkg-deb -R "$deb" "$unpacked"
version=$(sed -n 's/^Version: //p' "$unpacked/DEBIAN/control")
sed -i "s/^Version: .*/Version: ${version}~previous/" "$unpacked/DEBIAN/control"
dpkg-deb --root-owner-group -Zxz -b "$unpacked" "$out/tictactoe-gpio_${version}~previous_arm64.deb" >/dev/null
# The sources and their build folder are gigabytes: only the package is kept.
rm -rf "$unpacked" "$out/built"
touch "$out/.complete"
ls "$out"/tictactoe-gpio_*~previous_arm64.deb
