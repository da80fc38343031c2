#!/usr/bin/env bash
# Downloads Debian packages of one architecture and suite into a folder, through a private apt
# configuration read from the machine's own archive address: the machine's apt sources and state
# are never touched. With --with-dependencies, everything they depend on as well (the folder is
# then an offline archive apt can install them from on a system that has none of it).
#
# Usage: scripts/download-debs.sh [--with-dependencies] ARCH SUITE DEST_DIR PACKAGE...
set -euo pipefail
closure=no
if [[ ${1:-} == --with-dependencies ]]; then closure=yes; shift; fi
arch=${1:?usage: download-debs.sh ARCH SUITE DEST_DIR PACKAGE...}
suite=${2:?usage: download-debs.sh ARCH SUITE DEST_DIR PACKAGE...}
dest=${3:?usage: download-debs.sh ARCH SUITE DEST_DIR PACKAGE...}
shift 3
uri=$(bash "$(dirname "$0")/debian-archive.sh")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$dest"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
echo "deb [arch=$arch signed-by=$keyring] $uri $suite main" > "$work/sources.list"
apt_opts=(
  -o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=-"
  -o "Dir::State::Lists=$work/lists" -o "Dir::State::Status=/dev/null" -o "APT::Get::List-Cleanup=0"
  -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
  -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root"
)
apt-get "${apt_opts[@]}" update -qq
packages=("$@")
if [[ $closure == yes ]]; then
  # Depends and Pre-Depends, recursively; virtual packages (<name>) are provided by real ones
  # the recursion also lists.
  mapfile -t packages < <(apt-cache "${apt_opts[@]}" depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances "$@" | grep -v -e '^ ' -e '^<' | sort -u)
fi
(cd "$dest" && apt-get "${apt_opts[@]}" download -qq "${packages[@]/%/:$arch}")
