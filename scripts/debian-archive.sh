#!/usr/bin/env bash
# Prints the Debian archive address to build from: $DEBIAN_ARCHIVE if set, else the first one
# this machine's apt already uses for a Debian suite (the same archive serves bookworm,
# bookworm-backports and trixie). The project's scripts make private apt configurations and
# root file systems from it, and never name a host themselves.
set -euo pipefail
if [[ -n ${DEBIAN_ARCHIVE:-} ]]; then
  echo "$DEBIAN_ARCHIVE"
  exit 0
fi
suites='bullseye|bookworm|trixie|forky|sid'
uri=$(
  { cat /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } |
    awk -v suites="$suites" '
      /^URIs:/ { uri = $2 }
      /^Suites:/ { for (i = 2; i <= NF; i++) if ($i ~ "^(" suites ")$") { print uri; exit } }'
)
[[ -n $uri ]] || uri=$({ cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true; } |
  awk -v suites="$suites" '$1 == "deb" && $3 ~ "^(" suites ")$" { print $2; exit }')
if [[ -z $uri ]]; then
  echo "debian-archive: this machine's apt uses no Debian archive (Ubuntu, say); name one: DEBIAN_ARCHIVE=http://<a Debian mirror>/debian" >&2
  exit 69
fi
echo "$uri"
