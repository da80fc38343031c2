#!/usr/bin/env bash
# The packages' libraries a fresh Debian 13 arm64 system may lack, with all they need, for the
# appliance's offline apt source: libgpiod3 and libqrencode4, the packages' own, libmosquitto1,
# the MQTT link's (with the OpenSSL it needs), and libsqlite3-0,
# the board's database (every Debian 13 has it already: util-linux pre-depends on liblastlog2-2,
# which needs it; here so that the package's Depends never rest on that); dmsetup and e2fsprogs,
# the crash points' tools, and sqlite3, SQLite's shell for looking into the board's database
# inside the VM (`apt-get install sqlite3` once the offline source is set up): the test's, not
# the packages'. Downloaded once and cached, keyed by this script and the download script.
#
# Usage: vm/appliance/fetch-debs.sh CACHE_DIR   -> prints the folder of .debs
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:?usage: fetch-debs.sh CACHE_DIR}
libraries=(libgpiod3 libqrencode4 libmosquitto1 libsqlite3-0 dmsetup e2fsprogs sqlite3)
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
