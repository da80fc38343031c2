#!/usr/bin/env bash
# Builds the three packages for Debian 13 / Raspberry Pi OS Trixie from the release binaries with
# Swift's static standard library, made by Debian's own Swift 6.0.3 in the trixie build
# environment (cross-compiled for arm64), stripped:
#   tictactoe-gpio_<version>_<arch>.deb      the board: the tictactoe binary, the systemd units,
#                                            the udev rule, the default configuration as a
#                                            conffile, the docs and the maintainer scripts;
#   tictactoe-gpio-web_<version>_<arch>.deb  the web view: tictactoe-web, its unit, the page and
#                                            an Avahi service file; Depends on the board's;
#   tictactoe-gpio-network_<version>_<arch>.deb  the link to an MQTT broker: tictactoe-network,
#                                            its unit (installed disabled), its user, the access
#                                            list for the broker; Depends on the board's.
# Each one's Depends comes from dpkg-shlibdeps on its binary.
#
# Usage: packaging/make-deb.sh [arm64] [OUTPUT_DIR]
#   -> prints the paths of the board's .deb, the web view's and, on the last line, the link's
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:-arm64}
out=${2:-$root/dist}
cache=${TICTACTOE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tictactoe-gpio}
trixie=("$root/packaging/in-trixie.sh")
mkdir -p "$cache" "$out"

version=$(sed -n '1s/^tictactoe-gpio (\([^)]*\)).*/\1/p' "$root/packaging/debian/changelog")
program_version=$(sed -n 's/^ *public static let current = "\(.*\)"$/\1/p' "$root/Sources/Shared/Basics/ProgramVersion.swift")
if [[ -z $version || $version != "$program_version" ]]; then
  echo "make-deb: packaging/debian/changelog says '$version' but the program says '$program_version'; make them agree" >&2
  exit 65
fi

echo "make-deb: building the $arch release binaries with Debian's Swift" >&2
start=$SECONDS
# Only the Pi's architecture: that is the package the tests install with apt and run under
# systemd (the arm64 appliance), and one that is not tested is not shipped.
if [[ $arch != arm64 ]]; then
  echo "make-deb: packages are made for the Raspberry Pi (arm64), not '$arch'; elsewhere, make install builds from source" >&2
  exit 64
fi
strip=aarch64-linux-gnu-strip
command -v "$strip" >/dev/null || { echo "make-deb: $strip is missing (make setup-tests installs it)" >&2; exit 69; }
work=$(mktemp -d "$root/.build-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
bin_dir=$(bash "$root/packaging/build-arm64.sh" --into "$work/bin" --product tictactoe --product tictactoe-web --product tictactoe-network)
echo "make-deb: built in $((SECONDS - start)) s" >&2

package=tictactoe-gpio_${version}_${arch}
stage=$work/$package
doc=$stage/usr/share/doc/tictactoe-gpio

# The built program $1, stripped, into the package staged at $2.
install_program() {
  "$strip" --strip-all --remove-section=.comment --remove-section=.note -o "$work/$1" "$bin_dir/$1"
  install -D -m 0755 "$work/$1" "$2/usr/bin/$1"
}

install -d "$stage/DEBIAN" "$doc"
install_program tictactoe "$stage"
# The same unit as `make install`'s, with the package's paths.
sed -e 's|/usr/local/bin/tictactoe|/usr/bin/tictactoe|g' \
    -e 's|file:///usr/local/share/doc/tictactoe/README.md|man:tictactoe(1) file:///usr/share/doc/tictactoe-gpio/README.md.gz|' \
    -e 's|Installed by `make install` (see the README).|Installed by the tictactoe-gpio package.|' \
    "$root/systemd/tictactoe.service" > "$work/tictactoe.service"
install -D -m 0644 "$work/tictactoe.service" "$stage/usr/lib/systemd/system/tictactoe.service"
sed -e 's|file:///usr/local/share/doc/tictactoe/docs/API.md|man:tictactoe(1) file:///usr/share/doc/tictactoe-gpio/docs/API.md.gz|' \
    -e 's|Installed by `make install` (see the README).|Installed by the tictactoe-gpio package.|' \
    "$root/systemd/tictactoe.socket" > "$work/tictactoe.socket"
install -D -m 0644 "$work/tictactoe.socket" "$stage/usr/lib/systemd/system/tictactoe.socket"
install -D -m 0644 "$root/systemd/60-tictactoe-gpio.rules" "$stage/usr/lib/udev/rules.d/60-tictactoe-gpio.rules"
install -D -m 0644 "$root/packaging/debian/sysusers.conf" "$stage/usr/lib/sysusers.d/tictactoe-gpio.conf"
install -D -m 0644 "$root/Hardware/tictactoe.toml" "$stage/etc/tictactoe/tictactoe.toml"
install -D -m 0644 "$root/packaging/tictactoe.1" "$stage/usr/share/man/man1/tictactoe.1"
gzip -9n "$stage/usr/share/man/man1/tictactoe.1"
install -m 0644 "$root/README.md" "$doc/README.md"
install -m 0644 "$root/Hardware/README.md" "$doc/hardware.md"
install -m 0644 "$root/CHANGELOG.md" "$doc/CHANGELOG.md"
# The makers' documents (the developers' stay in the source).
install -D -m 0644 -t "$doc/docs" "$root/docs/PLAYING.md" "$root/docs/SERVICE.md" "$root/docs/CONFIGURATION.md" \
  "$root/docs/API.md" "$root/docs/RELEASES.md"
install -m 0644 "$root/Hardware/header.md" "$root/Hardware/wiring.png" "$root/Hardware/wiring.svg" "$doc/"
gzip -9n "$doc/README.md" "$doc/hardware.md" "$doc/CHANGELOG.md" "$doc/wiring.svg" "$doc"/docs/*.md
install -m 0644 "$root/packaging/debian/copyright" "$doc/copyright"
install -D -m 0644 "$root/packaging/debian/lintian-overrides" "$stage/usr/share/lintian/overrides/tictactoe-gpio"
# A native package (no Debian revision): its changelog is changelog.gz.
install -m 0644 "$root/packaging/debian/changelog" "$doc/changelog"
gzip -9n "$doc/changelog"
install -m 0755 "$root/packaging/debian/postinst" "$root/packaging/debian/prerm" "$root/packaging/debian/postrm" "$stage/DEBIAN/"
install -m 0644 "$root/packaging/debian/conffiles" "$stage/DEBIAN/"

# Makes the .deb of the package staged in $1 from its control template $2, its Depends from
# dpkg-shlibdeps on its binary $3 (ELF dependencies and symbol versions, per the symbols files of
# trixie's own libraries). Prints its path.
finish() {
  local stage=$1 template=$2 binary=$3 name depends installed_size deb
  name=$(basename "$stage")
  mkdir -p "$work/debian"
  printf 'Source: tictactoe-gpio\n\nPackage: %s\nArchitecture: %s\n' "${name%%_*}" "$arch" > "$work/debian/control"
  depends=$("${trixie[@]}" bash -c 'cd "$1" && dpkg-shlibdeps -O "$2"' _ "$work" "$stage/$binary" |
    sed -n 's/^shlibs:Depends=//p')
  [[ -n $depends ]] || { echo "make-deb: dpkg-shlibdeps found no dependencies for $binary" >&2; exit 70; }
  rm -rf "$work/debian"

  (cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum > DEBIAN/md5sums)
  installed_size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
  sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@DEPENDS@|$depends|" \
      -e "s|@INSTALLED_SIZE@|$installed_size|" "$template" > "$stage/DEBIAN/control"

  find "$stage" -type d -exec chmod 0755 {} +
  # Reproducible: every file dated by the changelog's newest entry.
  find "$stage" -exec touch --no-dereference -d "@$epoch" {} +
  deb=$out/$name.deb
  # The same staged tree always makes the same package (every file dated as above, owners root):
  # one made before is copied from the cache rather than compressed again, as when the appliance
  # and power-cut runs package what the package suite just built.
  local key kept
  key=$( (cd "$stage" && find . -print0 | LC_ALL=C sort -z |
    tar --null --no-recursion -T - --numeric-owner --owner=0 --group=0 -cf -) | sha256sum | cut -c1-16)
  kept=$cache/debs/$name-$key.deb
  if [[ -f $kept ]]; then
    cp "$kept" "$deb"
  else
    SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >&2
    mkdir -p "$cache/debs"
    cp "$deb" "$kept.part" && mv "$kept.part" "$kept"
    # The last few are all a run reuses.
    ls -t "$cache"/debs/*.deb | tail -n +7 | xargs -r rm -f
  fi
  echo "make-deb: $(basename "$deb"), $(du -k "$deb" | cut -f1) KB, installed $installed_size KB; binary $(du -k "$stage/$binary" | cut -f1) KB stripped; Depends: $depends" >&2
  echo "$deb"
}

epoch=$(date -d "$(sed -n 's/^ -- .*>  //p' "$root/packaging/debian/changelog" | head -1)" +%s)
finish "$stage" "$root/packaging/debian/control.in" usr/bin/tictactoe

# Stages the package $1 (tictactoe-gpio-NAME) of the companion program $2 beside the board's,
# with what every companion has: its binary, its unit from systemd/$2.service with the package's
# paths (and the extra sed expressions in $4 onwards), its man page, its document docs/$3 in its
# doc folder, the copyright, the changelog, its lintian overrides and maintainer scripts from
# packaging/NAME/. Leaves $stage and $doc set for what is its own.
stage_companion() {
  local package=$1 program=$2 document=$3 folder=$root/packaging/${1#tictactoe-gpio-}
  shift 3
  stage=$work/${package}_${version}_${arch}
  doc=$stage/usr/share/doc/$package
  install -d "$stage/DEBIAN" "$doc"
  install_program "$program" "$stage"
  sed -e "s|/usr/local/bin/$program|/usr/bin/$program|g" "$@" \
      -e "s|file:///usr/local/share/doc/tictactoe/docs/$document|man:$program(1) file:///usr/share/doc/$package/$document.gz|" \
      -e "s|Installed by \`make install\` (see the README).|Installed by the $package package.|" \
      "$root/systemd/$program.service" > "$work/$program.service"
  install -D -m 0644 "$work/$program.service" "$stage/usr/lib/systemd/system/$program.service"
  install -D -m 0644 "$root/packaging/$program.1" "$stage/usr/share/man/man1/$program.1"
  gzip -9n "$stage/usr/share/man/man1/$program.1"
  install -m 0644 "$root/docs/$document" "$doc/$document"
  gzip -9n "$doc/$document"
  install -m 0644 "$root/packaging/debian/copyright" "$doc/copyright"
  install -m 0644 "$root/packaging/debian/changelog" "$doc/changelog"
  gzip -9n "$doc/changelog"
  install -D -m 0644 "$folder/lintian-overrides" "$stage/usr/share/lintian/overrides/$package"
  install -m 0755 "$folder/postinst" "$folder/prerm" "$folder/postrm" "$stage/DEBIAN/"
}

# The web view's package: the page's files by name (nothing else of web/ is served).
stage_companion tictactoe-gpio-web tictactoe-web WEB.md -e 's|/usr/local/share/tictactoe/web|/usr/share/tictactoe-gpio/web|g'
install -D -m 0644 -t "$stage/usr/share/tictactoe-gpio/web" \
  "$root/web/index.html" "$root/web/board.css" "$root/web/board.js" "$root/web/icon.svg" \
  "$root/web/manifest.webmanifest" "$root/web/icon-192.png" "$root/web/icon-512.png"
install -D -m 0644 "$root/packaging/web/avahi.service" "$stage/etc/avahi/services/tictactoe-gpio-web.service"
install -m 0644 "$root/packaging/web/conffiles" "$stage/DEBIAN/"
finish "$stage" "$root/packaging/web/control.in" usr/bin/tictactoe-web

# The link to an MQTT broker's package: disabled until the owner sets the broker and enables it.
stage_companion tictactoe-gpio-network tictactoe-network NETWORK.md
install -D -m 0644 "$root/packaging/network/sysusers.conf" "$stage/usr/lib/sysusers.d/tictactoe-gpio-network.conf"
install -m 0644 "$root/Hardware/mosquitto/tictactoe.acl" "$doc/tictactoe.acl"
finish "$stage" "$root/packaging/network/control.in" usr/bin/tictactoe-network
