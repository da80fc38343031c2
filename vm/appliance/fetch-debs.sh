#!/usr/bin/env bash
# The packages' libraries a fresh Debian 13 arm64 system may lack, with all they need, for the
# appliance's offline apt source: libgpiod3 and libqrencode4, the packages' own; dmsetup and
# e2fsprogs, the crash points' tools (the test's, not the packages'). Downloaded once and
# cached, keyed by this script and the download script.
#
# Usage: vm/appliance/fetch-debs.sh CACHE_DIR   -> prints the folder of .debs
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:?usage: fetch-debs.sh CACHE_DIR}
libraries=(libgpiod3 libqrencode4 dmsetup e2fsprogs)
debs=$cache/appliance-debs-$( (cat "$0" "$here/../../scripts/download-debs.sh") | sha256sum | cut -c1-16)
mkdir -p "$cache"
source "$here/../../scripts/lock.sh"
take_lock "$cache/.lock-appliance-debs"
if [[ ! -f $debs/.complete ]]; then
  rm -rf "$cache"/appliance-debs-*
  bash "$here/../../scripts/download-debs.sh" --with-dependencies arm64 trixie "$debs" "${libraries[@]}" >&2
  touch "$debs/.complete"
fi
echo "$debs"
