#!/usr/bin/env bash
# Prints the Debian archive address this machine's apt already uses (the first one that serves
# bookworm; the same archive serves bookworm-backports and trixie), so that the project's scripts
# can make private apt configurations and root file systems without naming a host themselves.
set -euo pipefail
uri=$(
  { cat /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } |
    awk '/^URIs:/ { uri = $2 } /^Suites:/ && / bookworm( |$)/ { print uri; exit }'
)
[[ -n $uri ]] || uri=$({ cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true; } |
  awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }')
if [[ -z $uri ]]; then
  echo "debian-archive: no Debian archive serving bookworm in the apt sources; the build environments need one" >&2
  exit 69
fi
echo "$uri"
