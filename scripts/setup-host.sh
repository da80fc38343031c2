#!/usr/bin/env bash
# Installs what building tictactoe-gpio needs on a Debian 12 machine (run as root, or with sudo
# available), and checks for the Swift toolchain. Installs nothing when everything is present.
#
#   setup-host.sh               building and playing here (needs Swift 6.0 or newer on PATH)
#   setup-host.sh --packaging   make deb: Debian 13's own Swift in a trixie root (no Swift here)
#   setup-host.sh --tests       make test: all of the above and the emulated machines
#   setup-host.sh --bench       make bench: building here, and valgrind to count instructions
set -euo pipefail
mode=${1:-}

codename=$( (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") || true)
case $codename in
  trixie)
    # Debian 13 / Raspberry Pi OS Trixie: the distribution's own Swift 6.0.3, which pulls in
    # neither the C library's headers (the linker's crt files) nor the C++ headers the build
    # needs; libgpiod 2.2 (v2 API) and its tools; libqrencode for the page's address as a QR code;
    # SQLite (libsqlite3-dev, found by pkg-config as sqlite3) for the board's database; libmosquitto
    # for the link to an MQTT broker (tictactoe-network).
    packages=(swiftlang libc6-dev libstdc++-14-dev git make pkg-config libgpiod-dev gpiod libqrencode-dev libsqlite3-dev libmosquitto-dev)
    ;;
  *)
    # Debian 12 (and the default): the Swift toolchain's own runtime and linker needs (swift.org's
    # list, less what this project does not use), git for SwiftPM, libgpiod 1.6 (v1 API) and its
    # tools, libqrencode for the page's address as a QR code, SQLite's headers (libsqlite3-dev,
    # found by pkg-config as sqlite3) for the board's database, libmosquitto for the link to an MQTT
    # broker (tictactoe-network).
    packages=(
      binutils git libc6-dev libgcc-12-dev libstdc++-12-dev libxml2-dev zlib1g-dev
      libncurses-dev libsqlite3-0 libedit2 tzdata pkg-config libgpiod-dev gpiod libqrencode-dev libsqlite3-dev
      libmosquitto-dev
    )
    ;;
esac
packaging=(
  # the trixie build environment (debootstrap, a private mount namespace), the arm64 binary's
  # tools (strip, readelf) and the package's (dpkg-deb), the arm64 smoke run, and the signed
  # apt repository (make repo: apt-ftparchive, gpg).
  debootstrap debian-archive-keyring util-linux binutils-aarch64-linux-gnu dpkg-dev qemu-user-static
  apt-utils gnupg
)
if [[ $mode == --packaging ]]; then
  packages=("${packaging[@]}")
fi
if [[ $mode == --bench ]]; then
  # callgrind counts the instructions of a press (scripts/bench-instructions.sh); the web view
  # is timed in a real browser (browser/bench_page.py), built as the package ships it, with a
  # static Swift standard library; two boards play through a real broker (browser/bench_network.py).
  packages+=(valgrind chromium python3-websocket mosquitto mosquitto-clients)
fi
if [[ $mode == --tests ]]; then
  packages+=("${packaging[@]}")
  # and for the real-kernel suite: the kernel source and what builds it, busybox, QEMU.
  packages+=(
    linux-source-6.12 make gcc flex bison bc libelf-dev libssl-dev cpio xz-utils gzip
    busybox-static qemu-system-x86
    # and for the arm64 appliance: systemd-analyze, the cross compiler for its kernel, QEMU's
    # arm64 machine, a Debian root file system and ext4 images.
    systemd gcc-aarch64-linux-gnu qemu-system-arm debootstrap e2fsprogs
    # and the storage suite: a crash injected at each system call of a save, and its cost counted;
    # a vfat file system (no hard links), by the kernel or in user space where it has no vfat.
    strace dosfstools fusefat
    # and python3 (3.11 or newer), whose tomllib the TOML reader's tests compare with.
    python3
    # and the page's tests: a real browser, driven over the DevTools protocol (a WebSocket).
    chromium python3-websocket
    # and the link's: a real broker with its clients, and openssl for the test's TLS certificates.
    mosquitto mosquitto-clients openssl
  )
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# make deb needs no Swift here: it builds with Debian 13's own, in the trixie root.
[[ $mode == --packaging ]] && exit 0

if ! command -v swift >/dev/null; then
  for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
    if [[ -x $candidate/swift ]]; then
      echo "setup: swift is in $candidate but not on PATH; add it: export PATH=\"$candidate:\$PATH\"" >&2
      exit 69
    fi
  done
  echo "setup: no Swift toolchain found. Install Swift 6.0 or newer (swift.org's Debian 12 build, or Debian 13's swiftlang) and put it on PATH." >&2
  exit 69
fi

version=$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -1)
major=${version%%.*}; minor=${version#*.}
if [[ -z $version ]] || ((major < 6)); then
  echo "setup: Swift ${version:-unknown} found; tictactoe-gpio needs Swift 6.0 or newer." >&2
  exit 69
fi

# The Python that runs the tests is the first python3 on PATH, which need not be Debian's (whose
# python3-websocket apt installed above): give it what it lacks from PyPI.
python_needs=()
if [[ $mode == --tests ]]; then python_needs+=("pytest:pytest" "websocket:websocket-client"); fi
if [[ $mode == --bench ]]; then python_needs+=("websocket:websocket-client"); fi
for need in "${python_needs[@]}"; do
  if ! python3 -c "import ${need%%:*}" >/dev/null 2>&1; then
    echo "setup: installing ${need#*:} for $(command -v python3)"
    python3 -m pip install --quiet "${need#*:}"
  fi
done
# The spectral tables' test compares with colour-science, pinned by hash with its numpy.
if [[ $mode == --tests ]] && ! python3 -c "import colour.colorimetry" >/dev/null 2>&1; then
  echo "setup: installing colour-science for $(command -v python3)"
  python3 -m pip install --quiet --require-hashes -r "$(dirname "$0")/../spectral/requirements.txt"
fi
# axe-core for the page's accessibility test (browser/test_access.py): the wheel that ships it,
# downloaded (not installed) by hash into the cache the test reads it from.
axe_cache="${XDG_CACHE_HOME:-$HOME/.cache}/tictactoe-gpio/axe"
if [[ $mode == --tests ]] && ! compgen -G "$axe_cache/axe_playwright_python-*.whl" >/dev/null; then
  echo "setup: downloading axe-core (axe-playwright-python's wheel) into $axe_cache"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes -d "$axe_cache" \
    -r "$(dirname "$0")/../browser/axe-requirements.txt"
fi
# The page's share tests read its QR codes back with zxing-cpp, pinned by hash.
if [[ $mode == --tests ]] && ! python3 -c "import zxingcpp" >/dev/null 2>&1; then
  echo "setup: installing zxing-cpp for $(command -v python3)"
  python3 -m pip install --quiet --require-hashes -r "$(dirname "$0")/../browser/zxing-requirements.txt"
fi
