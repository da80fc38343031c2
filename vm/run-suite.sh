#!/usr/bin/env bash
# Runs the real-kernel suite once, against one libgpiod generation, and prints the path of the
# VM's console log (the host test reads the "@@ {json}" lines in it).
#
#   vm/run-suite.sh v1   # Debian 12's libgpiod 1.6.3 (libgpiod-dev)
#   vm/run-suite.sh v2   # libgpiod 2.1.3 from bookworm-backports, unpacked into a local prefix
#
# Steps: build the kernel (cached), build the real binary and the harness with a static Swift
# standard library against that libgpiod, pack them with busybox, the shared libraries ldd lists
# and libgpiod's gpiomon/gpioinfo into an initramfs, and boot it in QEMU under TCG.
set -euo pipefail
generation=${1:?usage: run-suite.sh v1|v2}
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${TICTACTOE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tictactoe-gpio}
mkdir -p "$cache"
kernel=$(bash "$root/vm/build-kernel.sh" "$cache")

# One scratch folder for both generations, shared with make bench's release build (the same
# options): only what links libgpiod (its shim, KernelGPIO and the tictactoe program) differs
# between them, so each build recompiles those and reuses the rest. The harness reports the
# library each binary is using, and the test checks it.
scratch=$root/.build-static
tools=/usr/bin
libpath=""
case $generation in
  v1) export PKG_CONFIG_PATH="" ;;
  v2)
    prefix=$cache/libgpiod2
    bash "$root/vm/fetch-libgpiod2.sh" "$prefix" >&2
    # libqrencode's and SQLite's own .pc files put -L/usr/lib/<triplet> on the link line ahead of
    # libgpiod 2's folder, where Debian 12's libgpiod 1 would then be found first: entries without
    # the -L (the linker finds both in its default folders) let libgpiod 2's folder come first.
    overrides=$(mktemp -d)
    for entry in libqrencode:qrencode sqlite3:sqlite3; do
      name=${entry%%:*}
      printf 'Name: %s\nDescription: %s without -L\nVersion: %s\nCflags:\nLibs: -l%s\n' "$name" "$name" \
        "$(PKG_CONFIG_PATH= pkg-config --modversion "$name")" "${entry#*:}" >"$overrides/$name.pc"
    done
    export PKG_CONFIG_PATH=$overrides:$prefix/pkgconfig
    libpath=$(cat "$prefix/libdir")
    tools=$prefix/root/usr/bin
    ;;
  *) echo "run-suite: say v1 or v2" >&2; exit 64 ;;
esac

echo "run-suite: building tictactoe and the harness against libgpiod $(pkg-config --modversion libgpiod)" >&2
(cd "$root" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" \
  --product tictactoe >&2 && swift build -c release --static-swift-stdlib --scratch-path "$scratch" \
  --product gpio-sim-harness >&2)
bin=$scratch/release

image=$(mktemp -d)
trap 'rm -rf "$image" "${overrides:-}"' EXIT
mkdir -p "$image"/{bin,dev,proc,sys,tmp,etc}
cp /bin/busybox "$image/bin/busybox"
cp "$bin/tictactoe" "$bin/gpio-sim-harness" "$image/bin/"
cp "$tools/gpiomon" "$tools/gpioinfo" "$image/bin/"
cp "$root/vm/init.sh" "$image/init"
chmod +x "$image/init"
echo "$generation" > "$image/etc/libgpiod-generation"
cp "$root/vm/game-script.json" "$image/etc/game-script.json"
# Every shared library the programs need, at the path the loader expects it.
for program in "$image"/bin/tictactoe "$image"/bin/gpio-sim-harness "$image"/bin/gpiomon "$image"/bin/gpioinfo; do
  LD_LIBRARY_PATH=$libpath ldd "$program" | awk '/=>/ { print $3 } /^\t\// { print $1 }' | while read -r lib; do
    [[ -n $lib && -e $lib ]] || continue
    target=$image$lib
    if [[ -n $libpath && $lib == "$libpath"/* ]]; then target=$image/lib/x86_64-linux-gnu/$(basename "$lib"); fi
    mkdir -p "$(dirname "$target")"
    cp -L "$lib" "$target"
  done
done
initramfs=$cache/initramfs-$generation.gz
(cd "$image" && find . | cpio -o -H newc --quiet | gzip -1 > "$initramfs")

# The guest's TSC is the host's (TCG): its rate, measured here, spares the guest calibrating it
# against the emulated PIT, which fails on a busy host and leaves the guest a 4 ms clock.
tsc_khz=$cache/tsc-khz-$generation
cc -O2 -o "$tsc_khz" "$root/vm/tsc-khz.c"
khz=$("$tsc_khz")

log=$cache/console-$generation.log
echo "run-suite: booting (TCG); the console goes to $log" >&2
started=$(date +%s)
timeout 900 qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -kernel "$kernel" -initrd "$initramfs" \
  -append "console=ttyS0 panic=-1 quiet tsc=reliable tsc_early_khz=$khz" -display none -monitor none -serial "file:$log" -no-reboot
echo "run-suite: the VM ran for $(( $(date +%s) - started )) s" >&2
echo "$log"
