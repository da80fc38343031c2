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
# Exit status: 0 done; 64 usage; 65 a package refused (not ours, not arm64, a published version
# with other contents, or a published file damaged), a repository signed by another key, a key
# inside the repository's folder, or gpg unable to sign; 66 a package file missing; 73 the
# repository's folder cannot be made or written; 75 another make repo is writing the same folder;
# 78 no usable signing key (or several and REPO_KEY not set).
set -euo pipefail
# Published files must be readable by the web server, whatever the caller's umask.
umask 022
unset CDPATH

suite=trixie
component=main
arch=arm64
ours=(tictactoe-gpio tictactoe-gpio-web tictactoe-gpio-network)
key_home=${REPO_KEY_HOME:-${XDG_CONFIG_HOME:-$HOME/.config}/tictactoe-gpio/repo-key}

fail() { local status=$1; shift; echo "repo: $*" >&2; exit "$status"; }
gpg_() { gpg --homedir "$key_home" --batch --quiet "$@"; }
# The agent gpg starts for the key's home is stopped when we are done with it, unless that home
# is the maker's own GnuPG home, whose agent (perhaps their SSH agent too) is theirs.
keep_agent=no
note_agent() {
  local own=${GNUPGHOME:-$HOME/.gnupg}
  if [[ $(realpath -m -- "$key_home") == "$(realpath -m -- "$own")" ]]; then keep_agent=yes; fi
  trap stop_agent EXIT
}
stop_agent() {
  # What a refused or failed run leaves of its own in the folder goes with it.
  if [[ -n $scratch_in ]]; then rm -f "$scratch_in/.key.gpg" "$scratch_in/.Release" "$scratch_in/.ftparchive.log"; fi
  [[ $keep_agent == yes ]] || gpgconf --homedir "$key_home" --kill gpg-agent 2>/dev/null || true
}
scratch_in=

# The fingerprints of the secret keys in the key's home that can sign (not expired, revoked or
# disabled), one a line.
secret_keys() {
  [[ -d $key_home ]] || return 0
  gpg_ --with-colons --list-secret-keys 2>/dev/null \
    | awk -F: '$1 == "sec" {usable = ($2 !~ /[erd]/ && $12 ~ /S/); primary = 1; next}
               $1 == "fpr" && primary {if (usable) print $10; primary = 0}' || true
}

make_key() {
  local existing
  existing=$(secret_keys)
  if [[ -n $existing ]]; then
    echo "repo: $key_home already holds the signing key $(head -1 <<<"$existing"); make repo signs with it" >&2
    return 0
  fi
  install -d -m 0700 "$key_home"
  # Ed25519, no expiry, no passphrase: make repo runs unattended. Keep the folder as you would a
  # password (back it up: a repository signed by a new key makes every Pi refuse it until its
  # owner fetches the new key); `gpg --homedir DIR --passwd FINGERPRINT` adds a passphrase, which
  # gpg then asks for at every make repo.
  gpg_ --passphrase '' --quick-generate-key "${REPO_KEY_NAME:-tictactoe-gpio repository} <${REPO_KEY_EMAIL:-repository@tictactoe-gpio.invalid}>" \
    ed25519 sign never
  echo "repo: made the signing key $(secret_keys | head -1) in $key_home; back this folder up, and give this fingerprint to whoever adds the repository" >&2
}

signing_key() {
  local keys count
  keys=$(secret_keys)
  count=$(grep -c . <<<"$keys" || true)
  if [[ $count -eq 0 ]]; then
    fail 78 "no usable signing key in $key_home (none, or expired or revoked): make one with 'make repo-key' (once, then back the folder up), or set REPO_KEY_HOME to the GnuPG home that holds yours"
  fi
  if [[ -n ${REPO_KEY:-} ]]; then
    grep -qixF -- "$REPO_KEY" <<<"$keys" || fail 78 "REPO_KEY=$REPO_KEY is not a secret key in $key_home (it has: $(paste -sd' ' <<<"$keys"))"
    echo "${REPO_KEY^^}"
  elif [[ $count -gt 1 ]]; then
    fail 78 "$key_home holds $count secret keys ($(paste -sd' ' <<<"$keys")): set REPO_KEY to the fingerprint to sign with"
  else
    echo "$keys"
  fi
}

is_ours() { local name; for name in "${ours[@]}"; do [[ $1 == "$name" ]] && return 0; done; return 1; }

# What dpkg-deb says a field of package $1 is.
field() { dpkg-deb -f "$1" "$2" 2>/dev/null; }

# Whether path $1 is $2 or inside it (both resolved, whether or not they exist yet).
inside() { local a b; a=$(realpath -m -- "$1"); b=$(realpath -m -- "$2"); [[ $a == "$b" || $a == "$b"/* ]]; }

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
    is_ours "$package" || fail 65 "$deb is '$package', not one of this repository's packages (${ours[*]})"
    [[ $architecture == "$arch" ]] || fail 65 "$deb is for '$architecture'; this repository is for $arch (Raspberry Pi OS Trixie, 64-bit)"
    # Debian's syntax, which also keeps the version out of the pool's paths' way.
    [[ $version =~ ^([0-9]+:)?[0-9][A-Za-z0-9.+~]*(-[A-Za-z0-9.+~]+)?$ ]] || fail 65 "$deb has no valid Debian version ('$version')"
  done
  # The secret key never lands where the folder is published from.
  if inside "$key_home" "$repo" || inside "$repo" "$key_home"; then
    fail 65 "the signing key's home $key_home and the repository's folder $repo are one inside the other: publishing the folder would publish the secret key. Keep them apart (REPO=, REPO_KEY_HOME=)"
  fi
  [[ ! -e $repo || -d $repo ]] || fail 73 "$repo is not a folder: name a folder for the repository (REPO=)"

  local fingerprint
  fingerprint=$(signing_key)
  mkdir -p -- "$repo" 2>/dev/null && [[ -w $repo ]] || fail 73 "cannot make or write the folder $repo: name one you can write (REPO=)"
  repo=$(cd -- "$repo" && pwd)
  exec 9<"$repo"
  flock -n 9 || fail 75 "another make repo is writing $repo; try again when it is done"
  scratch_in=$repo

  # A repository its users already trust under one key is never re-signed by another: its
  # published key and its published index must both be this key's.
  gpg_ --export "$fingerprint" > "$repo/.key.gpg"
  if [[ -e $repo/tictactoe-gpio.gpg ]]; then
    local published
    published=$(gpg_ --with-colons --show-keys "$repo/tictactoe-gpio.gpg" 2>/dev/null | awk -F: '$1 == "fpr" {print $10; exit}' || true)
    [[ -n $published ]] || fail 65 "$repo/tictactoe-gpio.gpg is no key gpg can read: put back the published one (tictactoe-gpio.asc beside it, or your copy) before adding packages"
    [[ $published == "$fingerprint" ]] || fail 65 "$repo is signed by the key $published, and $key_home holds $fingerprint: every Pi that added this repository trusts $published alone. Sign with that key (REPO_KEY_HOME), or make a new repository folder and have every Pi fetch its key again"
  fi
  if [[ -f $repo/dists/$suite/InRelease ]] && ! gpgv --keyring "$repo/.key.gpg" "$repo/dists/$suite/InRelease" >/dev/null 2>&1; then
    fail 65 "$repo's index is not signed by $fingerprint (another key, or damaged): sign with the key its Pis trust (REPO_KEY_HOME), or make a new repository folder"
  fi

  # A run stopped between the swap's two renames left the published index aside: put it back.
  if [[ ! -d $repo/dists && -d $repo/dists.old ]]; then mv "$repo/dists.old" "$repo/dists"; fi
  rm -rf "$repo/dists.new" "$repo/dists.old"
  find "$repo/pool" -name '*.part' -delete 2>/dev/null || true

  # Every package checked before any is added, so a refusal adds none.
  local targets=() sources=()
  for deb in "$@"; do
    local package version target i
    package=$(field "$deb" Package); version=$(field "$deb" Version)
    target=$repo/pool/$component/${package:0:1}/$package/${package}_${version#*:}_${arch}.deb
    if [[ -f $target ]] && ! cmp -s -- "$deb" "$target"; then
      field "$target" Package >/dev/null || fail 65 "the published $target is damaged (not a package any more): put the original back, or delete it and add it again"
      fail 65 "$package $version is published already with other contents, and a published version never changes (apt's caches and mirrors hold the first): raise the version (Sources/Shared/Basics/ProgramVersion.swift and packaging/debian/changelog) and make deb again"
    fi
    for i in "${!targets[@]}"; do
      if [[ ${targets[$i]} == "$target" ]] && ! cmp -s -- "$deb" "${sources[$i]}"; then
        fail 65 "$deb and ${sources[$i]} are both $package $version with other contents: add one of them"
      fi
    done
    targets+=("$target"); sources+=("$deb")
  done
  for i in "${!targets[@]}"; do
    if [[ ! -f ${targets[$i]} ]]; then
      mkdir -p "$(dirname "${targets[$i]}")"
      cp -- "${sources[$i]}" "${targets[$i]}.part" || fail 73 "cannot copy ${sources[$i]} into $repo (disk full?); nothing published changed"
      sync -- "${targets[$i]}.part"
      mv "${targets[$i]}.part" "${targets[$i]}"
    fi
  done

  local new=$repo/dists.new
  local binary=$new/$suite/$component/binary-$arch
  mkdir -p "$binary"
  # Every package in the pool indexed, or nothing published changes.
  (cd "$repo" && apt-ftparchive --arch "$arch" packages "pool/$component") > "$binary/Packages" 2> "$repo/.ftparchive.log" \
    || fail 73 "apt-ftparchive could not index $repo: $(tail -1 "$repo/.ftparchive.log")"
  local pooled listed
  pooled=$(find "$repo/pool" -name '*.deb' | wc -l)
  listed=$(grep -c '^Package:' "$binary/Packages" || true)
  if grep -q '^E:' "$repo/.ftparchive.log" || [[ $pooled -ne $listed ]]; then
    fail 65 "$repo/pool holds $pooled packages but apt-ftparchive indexed $listed ($(grep '^E:' "$repo/.ftparchive.log" | head -1)): a published file is damaged; put it back or delete it. Nothing published changed"
  fi
  rm -f "$repo/.ftparchive.log"
  gzip -9n < "$binary/Packages" > "$binary/Packages.gz"
  xz -6 < "$binary/Packages" > "$binary/Packages.xz"
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
  local signing="gpg could not sign with $fingerprint (a passphrase and no terminal to ask it on? an expired key?); nothing published changed"
  gpg_ --local-user "$fingerprint!" --clearsign -o "$new/$suite/InRelease" "$new/$suite/Release" || fail 65 "$signing"
  gpg_ --local-user "$fingerprint!" --armor --detach-sign -o "$new/$suite/Release.gpg" "$new/$suite/Release" || fail 65 "$signing"
  # The public key, checked to be the one that signed, for apt's Signed-By.
  gpgv --keyring "$repo/.key.gpg" "$new/$suite/InRelease" >/dev/null 2>&1 \
    || fail 65 "the index signed with $fingerprint does not verify against its exported public key"
  sync -f "$new" 2>/dev/null || sync
  mv "$repo/.key.gpg" "$repo/tictactoe-gpio.gpg"
  gpg_ --armor --export "$fingerprint" > "$repo/tictactoe-gpio.asc"

  if [[ -d $repo/dists ]]; then mv "$repo/dists" "$repo/dists.old"; fi
  mv "$new" "$repo/dists"
  rm -rf "$repo/dists.old"
  echo "repo: $repo holds $listed packages for $suite/$arch, signed by $fingerprint" >&2
  echo "$repo"
}

# Before any gpg call, which may start the agent.
note_agent
case ${1:-} in
  key) make_key ;;
  build) shift; [[ $# -ge 1 ]] || fail 64 "usage: repo.sh build FOLDER DEB..."; build "$@" ;;
  *) fail 64 "usage: repo.sh key | repo.sh build FOLDER DEB..." ;;
esac
