#!/usr/bin/env bash
# The packages of the previous release, for the appliance's upgrade test: that release's sources
# (the tag vm/appliance/previous-release names, at the commit it names) built and packaged by
# that release's own make-deb.sh (its control files, maintainer scripts and units), in today's
# build environment: today's scripts that make the trixie root and the arm64 sysroot are copied
# over that release's (the roots only gain libraries from one release to the next), so the
# cached roots serve both. Made once (a release build, several minutes) and cached by the commit
# and those scripts.
#
# Usage: vm/appliance/previous-release.sh CACHE_DIR   -> prints the folder of the two .debs
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${1:?usage: previous-release.sh CACHE_DIR}
read -r tag commit < <(grep -v '^#' "$here/previous-release" | head -1)
if tagged=$(git -C "$root" rev-parse -q --verify "refs/tags/$tag^{commit}"); then
  [[ $tagged == "$commit" ]] || {
    echo "previous-release: tag $tag names $tagged, not $commit as vm/appliance/previous-release says; correct one of them" >&2
    exit 65
  }
fi
environment=(packaging/trixie-root.sh packaging/arm64-sysroot.sh scripts/download-debs.sh scripts/debian-archive.sh scripts/lock.sh)
# Keyed by this script too: how the packages are made and kept is part of what is cached.
key=$( (echo "$commit"; cd "$root" && cat "${environment[@]}" vm/appliance/previous-release.sh) | sha256sum | cut -c1-16)
out=$cache/previous-release-$key
mkdir -p "$cache"
source "$root/scripts/lock.sh"
take_lock "$cache/.lock-previous-release"
if [[ -f $out/.complete ]]; then
  echo "$out/debs"
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
echo "previous-release: building the packages of $tag ($commit), once" >&2
bash "$tree/packaging/make-deb.sh" arm64 "$out/debs" >&2
# The sources and their build folder are gigabytes: only the packages are kept.
touch "$out/.complete"
echo "$out/debs"
