#!/usr/bin/env bash
# Runs a command inside the trixie build environment (packaging/trixie-root.sh), in the
# project's own directory, with Debian 13's Swift on PATH.
#
# Everything it mounts lives in a private mount namespace (unshare -m), so nothing outlives the
# command, whatever way it ends: /proc, /dev, a fresh /tmp, the project at the same path as here,
# the project's cache folder (read-only: the arm64 sysroot lives there), and the machine's local
# Swift package copies with the git rule that points at them.
#
# With TRIXIE_THROWAWAY=1 the root file system is seen through an overlay on a tmpfs: the
# command may install and remove packages, and the cached tree is left as it was.
#
# Usage: packaging/in-trixie.sh COMMAND [ARG ...]
set -euo pipefail
if [[ $(id -u) -ne 0 ]]; then
  echo "$(basename "$0"): the trixie build environment needs root (debootstrap, chroot, mounts); run it with sudo" >&2
  exit 77
fi
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${TICTACTOE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tictactoe-gpio}
tree=$(bash "$root/packaging/trixie-root.sh" "$cache")
(($#)) || { echo "usage: in-trixie.sh COMMAND [ARG ...]" >&2; exit 64; }

# Git's url.*.insteadOf rules (a local mirror of the package registry, where there is one).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gitconfig=$work/gitconfig
git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null | while read -r key value; do
  git config --file "$gitconfig" --add "$key" "$value"
done || true
mirrors=$(git config --file "$gitconfig" --get-regexp '^url\.' 2>/dev/null | sed -E 's/^url\.(.*)\.insteadof .*/\1/' | sort -u || true)

unshare -m --propagation private bash -euo pipefail -c '
  tree=$1 root=$2 gitconfig=$3 mirrors=$4 cache=$5 throwaway=$6; shift 6
  if [[ $throwaway == 1 ]]; then
    scratch=$(dirname "$gitconfig")/overlay
    mkdir "$scratch"
    mount -t tmpfs tmpfs "$scratch"
    mkdir "$scratch/upper" "$scratch/work" "$scratch/merged"
    mount -t overlay overlay -o "lowerdir=$tree,upperdir=$scratch/upper,workdir=$scratch/work" "$scratch/merged"
    tree=$scratch/merged
  fi
  mount -t proc proc "$tree/proc"
  mount --rbind /dev "$tree/dev"
  mount -t tmpfs tmpfs "$tree/tmp"
  mkdir -p "$tree$root" "$tree/tmp/home"
  mount --bind "$root" "$tree$root"
  mkdir -p "$tree$cache"
  mount --bind -o ro "$cache" "$tree$cache"
  cp "$gitconfig" "$tree/tmp/home/.gitconfig"
  for mirror in $mirrors; do
    if [[ $mirror == /* && -d $mirror ]]; then
      mkdir -p "$tree$mirror"
      mount --bind -o ro "$mirror" "$tree$mirror"
    fi
  done
  exec chroot "$tree" /usr/bin/env -i HOME=/tmp/home PATH=/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 \
    TERM="${TERM:-dumb}" CI="${CI:-}" bash -c "cd \"\$0\" && exec \"\$@\"" "$root" "$@"
' in-trixie "$tree" "$root" "$gitconfig" "$mirrors" "$cache" "${TRIXIE_THROWAWAY:-0}" "$@"
