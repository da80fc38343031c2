#!/usr/bin/env bash
# The maker's signed apt repository: a folder of static files any web host can serve, from which
# a Raspberry Pi (Raspberry Pi OS Trixie, arm64) installs the packages with apt and upgrades them
# with `apt upgrade`. Made by Debian's own tools: apt-ftparchive indexes, gpg signs (InRelease and
# Release.gpg), apt checks the signature against the key the repository publishes beside it.
#
#   repo.sh key                 make the signing key, once (make repo-key)
#   repo.sh build FOLDER DEB... add the packages to the repository in FOLDER (made if new), index
#                               and sign it (make repo)
#
# The key lives in a GnuPG home outside the project, $REPO_KEY_HOME
# (~/.config/tictactoe-gpio/repo-key unless set); it is never written into the repository's
# folder or into git: only its public half is, as tictactoe-gpio.gpg (what apt's Signed-By names)
# and tictactoe-gpio.asc.
#
# Every version ever added stays in pool/ and in the index, so a Pi can go back a version with
# `apt install tictactoe-gpio=VERSION`; a published version never changes (apt's caches and any
# mirror hold the first one), so adding a package whose file is there with other contents is
# refused. The index is made beside the published one and swapped in, so an interrupted run
# leaves the repository as it was.
#
# Exit status: 0 done; 64 usage; 65 a package refused (not ours, not arm64, or a published version
# with other contents) or a repository signed by another key; 66 a package file missing;
# 78 no signing key (or several and REPO_KEY not set).
set -euo pipefail

suite=trixie
component=main
arch=arm64
ours=(tictactoe-gpio tictactoe-gpio-web)
key_home=${REPO_KEY_HOME:-${XDG_CONFIG_HOME:-$HOME/.config}/tictactoe-gpio/repo-key}

fail() { local status=$1; shift; echo "repo: $*" >&2; exit "$status"; }
gpg_() { gpg --homedir "$key_home" --batch --quiet "$@"; }
# The agent gpg starts for a home of its own is stopped when we are done with it.
stop_agent() { gpgconf --homedir "$key_home" --kill gpg-agent 2>/dev/null || true; }

# The fingerprints of the secret keys in the key's home, one a line.
secret_keys() {
  [[ -d $key_home ]] || return 0
  gpg_ --with-colons --list-secret-keys 2>/dev/null | awk -F: '$1 == "sec" {primary = 1; next} $1 == "fpr" && primary {print $10; primary = 0}' || true
}

make_key() {
  local existing
  existing=$(secret_keys)
  if [[ -n $existing ]]; then
    echo "repo: $key_home already holds the signing key $(head -1 <<<"$existing"); make repo signs with it" >&2
    return 0
  fi
  install -d -m 0700 "$key_home"
  trap stop_agent EXIT
  # Ed25519, no expiry, no passphrase: make repo runs unattended. Keep the folder as you would a
  # password (back it up: a repository signed by a new key makes every Pi refuse it until its
  # owner fetches the new key); `gpg --homedir DIR --passwd FINGERPRINT` adds a passphrase, which
  # gpg then asks for at every make repo.
  gpg_ --passphrase '' --quick-generate-key "${REPO_KEY_NAME:-tictactoe-gpio repository} <${REPO_KEY_EMAIL:-repository@tictactoe-gpio.invalid}>" \
    ed25519 sign never
  echo "repo: made the signing key $(secret_keys | head -1) in $key_home; back this folder up" >&2
}

signing_key() {
  local keys count
  keys=$(secret_keys)
  count=$(grep -c . <<<"$keys" || true)
  if [[ $count -eq 0 ]]; then
    fail 78 "no signing key in $key_home: make one with 'make repo-key' (once, then back the folder up), or set REPO_KEY_HOME to the GnuPG home that holds yours"
  fi
  if [[ -n ${REPO_KEY:-} ]]; then
    grep -qix "$REPO_KEY" <<<"$keys" || fail 78 "REPO_KEY=$REPO_KEY is not a secret key in $key_home (it has: $(paste -sd' ' <<<"$keys"))"
    echo "${REPO_KEY^^}"
  elif [[ $count -gt 1 ]]; then
    fail 78 "$key_home holds $count secret keys ($(paste -sd' ' <<<"$keys")): set REPO_KEY to the fingerprint to sign with"
  else
    echo "$keys"
  fi
}

# What dpkg-deb says a field of package $1 is.
field() { dpkg-deb -f "$1" "$2" 2>/dev/null; }

build() {
  local repo=$1; shift
  [[ $# -gt 0 ]] || fail 64 "usage: repo.sh build FOLDER DEB... (make repo adds the packages make deb made)"
  local deb
  for deb in "$@"; do
    [[ -f $deb ]] || fail 66 "no package $deb: make it with 'make deb' first"
    local package architecture version
    package=$(field "$deb" Package) || fail 65 "$deb is not a Debian package (dpkg-deb cannot read it)"
    architecture=$(field "$deb" Architecture)
    version=$(field "$deb" Version)
    [[ " ${ours[*]} " == *" $package "* ]] || fail 65 "$deb is $package, not one of this repository's packages (${ours[*]})"
    [[ $architecture == "$arch" ]] || fail 65 "$deb is for $architecture; this repository is for $arch (Raspberry Pi OS Trixie, 64-bit)"
    [[ -n $version ]] || fail 65 "$deb has no version"
  done

  local fingerprint
  fingerprint=$(signing_key)
  trap stop_agent EXIT
  mkdir -p "$repo"
  repo=$(cd "$repo" && pwd)
  exec 9<"$repo"
  flock -n 9 || fail 75 "another make repo is writing $repo; try again when it is done"

  # A repository its users already trust under one key is never re-signed by another.
  if [[ -f $repo/tictactoe-gpio.gpg ]]; then
    local published
    published=$(gpg --batch --quiet --with-colons --show-keys "$repo/tictactoe-gpio.gpg" 2>/dev/null | awk -F: '$1 == "fpr" {print $10; exit}')
    [[ $published == "$fingerprint" ]] || fail 65 "$repo is signed by the key $published, and $key_home holds $fingerprint: every Pi that added this repository trusts $published alone. Sign with that key (REPO_KEY_HOME), or make a new repository folder and have every Pi fetch its key again"
  fi

  # A run stopped between the swap's two renames left the published index aside: put it back.
  if [[ ! -d $repo/dists && -d $repo/dists.old ]]; then mv "$repo/dists.old" "$repo/dists"; fi
  rm -rf "$repo/dists.new" "$repo/dists.old"

  # Every package checked before any is added, so a refusal adds none.
  local targets=()
  for deb in "$@"; do
    local package version target
    package=$(field "$deb" Package); version=$(field "$deb" Version)
    target=$repo/pool/$component/${package:0:1}/$package/${package}_${version//:/%3a}_${arch}.deb
    if [[ -f $target ]] && ! cmp -s "$deb" "$target"; then
      fail 65 "$package $version is published already with other contents, and a published version never changes (apt's caches and mirrors hold the first): raise the version (Sources/Shared/Basics/ProgramVersion.swift and packaging/debian/changelog) and make deb again"
    fi
    targets+=("$target")
  done
  local i
  for i in "${!targets[@]}"; do
    if [[ ! -f ${targets[$i]} ]]; then
      mkdir -p "$(dirname "${targets[$i]}")"
      cp "${@:$((i + 1)):1}" "${targets[$i]}.part"
      mv "${targets[$i]}.part" "${targets[$i]}"
    fi
  done

  local new=$repo/dists.new
  local binary=$new/$suite/$component/binary-$arch
  mkdir -p "$binary"
  (cd "$repo" && apt-ftparchive --arch "$arch" packages "pool/$component") > "$binary/Packages"
  gzip -9n < "$binary/Packages" > "$binary/Packages.gz"
  xz -9 < "$binary/Packages" > "$binary/Packages.xz"
  local release=(
    -o "APT::FTPArchive::Release::Origin=tictactoe-gpio"
    -o "APT::FTPArchive::Release::Label=tictactoe-gpio"
    -o "APT::FTPArchive::Release::Suite=$suite"
    -o "APT::FTPArchive::Release::Codename=$suite"
    -o "APT::FTPArchive::Release::Architectures=$arch"
    -o "APT::FTPArchive::Release::Components=$component"
    -o "APT::FTPArchive::Release::Description=tictactoe-gpio for Raspberry Pi OS Trixie (64-bit)"
  )
  apt-ftparchive "${release[@]}" release "$new/$suite" > "$repo/.Release"
  mv "$repo/.Release" "$new/$suite/Release"
  gpg_ --local-user "$fingerprint!" --clearsign -o "$new/$suite/InRelease" "$new/$suite/Release"
  gpg_ --local-user "$fingerprint!" --armor --detach-sign -o "$new/$suite/Release.gpg" "$new/$suite/Release"
  # The public key, checked to be the one that signed, for apt's Signed-By.
  gpg_ --export "$fingerprint" > "$repo/.key.gpg"
  gpgv --keyring "$repo/.key.gpg" "$new/$suite/InRelease" 2>/dev/null \
    || fail 65 "the index signed with $fingerprint does not verify against its exported public key"
  mv "$repo/.key.gpg" "$repo/tictactoe-gpio.gpg"
  gpg_ --armor --export "$fingerprint" > "$repo/tictactoe-gpio.asc"

  if [[ -d $repo/dists ]]; then mv "$repo/dists" "$repo/dists.old"; fi
  mv "$new" "$repo/dists"
  rm -rf "$repo/dists.old"
  local listed
  listed=$(grep -c '^Package:' "$repo/dists/$suite/$component/binary-$arch/Packages" || true)
  echo "repo: $repo holds $listed packages for $suite/$arch, signed by $fingerprint" >&2
  echo "$repo"
}

case ${1:-} in
  key) make_key ;;
  build) shift; [[ $# -ge 1 ]] || fail 64 "usage: repo.sh build FOLDER DEB..."; build "$@" ;;
  *) fail 64 "usage: repo.sh key | repo.sh build FOLDER DEB..." ;;
esac
