#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Builds QEMU with the project's devices: fetches Debian's QEMU source if
# needed, links the project's directories into it, applies the hook patch,
# configures x86_64-softmmu with the project's device list and builds with
# ninja through ccache; then builds megaraid-9600's option ROM
# (firmware/uefi) and puts it in the build's firmware folder.  Output:
# build/qemu/.
#
#   scripts/build-qemu.sh [ninja targets...]
#
# MRSIM_QEMU_BUILD names another build folder and MRSIM_QEMU_CONFIGURE adds
# configure options, e.g. for a sanitizer build of QEMU and the qtests:
#   MRSIM_QEMU_BUILD=build/qemu-asan \
#   MRSIM_QEMU_CONFIGURE="--enable-asan --enable-ubsan" \
#   scripts/build-qemu.sh qemu-system-x86_64 tests/qtest/megaraid-9600-test
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
src="$top/build/qemu-src"
bld="$top/${MRSIM_QEMU_BUILD:-build/qemu}"

# One build at a time in this tree (helpers, tests and CI share it).
mkdir -p "$top/build"
exec 9>"$top/build/.qemu-build.lock"
flock 9

# The hook patch is applied to a pristine tree: when it changes, unpack the
# source again (from the download cache) and re-apply it.
hook_sum=$(sha256sum "$top/configs/hook.patch" | cut -d' ' -f1)
if [ -f "$src/.megaraid-hooked" ] &&
   [ "$(cat "$src/.megaraid-hooked")" != "$hook_sum" ]; then
    echo "build-qemu: configs/hook.patch changed; unpacking QEMU again"
    rm -rf "$src"
fi
"$top/scripts/fetch-qemu.sh"

# Link the overlay.  Symlinks, so that editing a project file rebuilds
# only what depends on it.
link() {
    if [ "$(readlink "$2" 2>/dev/null)" != "$1" ]; then
        rm -rf "$2"
        ln -s "$1" "$2"
    fi
}
link "$top/hw/megaraid" "$src/hw/megaraid"
link "$top/hw/raid" "$src/hw/raid"
link "$top/include/hw/megaraid" "$src/include/hw/megaraid"
link "$top/include/raid" "$src/include/raid"
link "$top/tests/qtest" "$src/tests/qtest/megaraid"
link "$top/tests/unit-qemu" "$src/tests/megaraid-unit"
link "$top/qapi/megaraid.json" "$src/qapi/megaraid.json"
for f in "$top"/tests/qtest/*.[ch]; do
    [ -e "$f" ] && link "$f" "$src/tests/qtest/$(basename "$f")"
done
link "$top/configs/devices/x86_64-softmmu.mak" \
     "$src/configs/devices/x86_64-softmmu/megaraid.mak"

if [ ! -f "$src/.megaraid-hooked" ]; then
    patch -d "$src" -p1 --forward --quiet < "$top/configs/hook.patch"
    echo "$hook_sum" > "$src/.megaraid-hooked"
fi

# ccache through its compiler links: QEMU's configure names the compiler
# itself, so meson's own ccache detection does not apply.
# Paths are made relative to the checkout and the working directory is
# left out of the hash, so a fresh clone elsewhere (CI) hits the cache.
if [ -d /usr/lib/ccache ]; then
    export PATH="/usr/lib/ccache:$PATH"
    export CCACHE_BASEDIR="$top" CCACHE_NOHASHDIR=1
fi

if [ ! -f "$bld/build.ninja" ]; then
    mkdir -p "$bld"
    # shellcheck disable=SC2086 # MRSIM_QEMU_CONFIGURE is a list of options
    (cd "$bld" && "$src/configure" \
        --python=/usr/bin/python3 \
        --target-list=x86_64-softmmu \
        --without-default-devices \
        --with-devices-x86_64=megaraid \
        --without-default-features \
        --enable-tcg --enable-kvm --enable-slirp --enable-linux-aio \
        --enable-linux-io-uring --enable-tools \
        --disable-docs --disable-werror --disable-install-blobs \
        --extra-cflags=-g1 ${MRSIM_QEMU_CONFIGURE:-})
fi

# (qemu-storage-daemon serves drives over NBD: docs/networked-drives.md)
if [ $# -eq 0 ]; then
    set -- qemu-system-x86_64 qemu-img storage-daemon/qemu-storage-daemon
fi
ninja -C "$bld" "$@"

# The controllers' option ROMs (firmware/uefi: the UEFI boot driver), where
# this QEMU looks its firmware files up: their default romfiles.
"$top/firmware/uefi/build.sh" "$top/build/rom" >/dev/null
for rom in megaraid-9600-efi.rom megaraid-9500-efi.rom; do
    install -D -m 0644 "$top/build/rom/$rom" \
        "$bld/qemu-bundle/usr/local/share/qemu/$rom"
done
