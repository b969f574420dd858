#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Builds QEMU with the project's devices: fetches Debian's QEMU source if
# needed, links the project's directories into it, applies the hook patch,
# configures x86_64-softmmu with the project's device list and builds with
# ninja (ccache is picked up by meson).  Output: build/qemu/.
#
#   scripts/build-qemu.sh [ninja targets...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
src="$top/build/qemu-src"
bld="$top/build/qemu"

# One build at a time in this tree (helpers, tests and CI share it).
mkdir -p "$top/build"
exec 9>"$top/build/.qemu-build.lock"
flock 9

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
for f in "$top"/tests/qtest/*.[ch]; do
    [ -e "$f" ] && link "$f" "$src/tests/qtest/$(basename "$f")"
done
link "$top/configs/devices/x86_64-softmmu.mak" \
     "$src/configs/devices/x86_64-softmmu/megaraid.mak"

if [ ! -f "$src/.megaraid-hooked" ]; then
    patch -d "$src" -p1 --forward --quiet < "$top/configs/hook.patch"
    touch "$src/.megaraid-hooked"
fi

# ccache through its compiler links: QEMU's configure names the compiler
# itself, so meson's own ccache detection does not apply.
if [ -d /usr/lib/ccache ]; then
    export PATH="/usr/lib/ccache:$PATH"
fi

if [ ! -f "$bld/build.ninja" ]; then
    mkdir -p "$bld"
    (cd "$bld" && "$src/configure" \
        --python=/usr/bin/python3 \
        --target-list=x86_64-softmmu \
        --without-default-devices \
        --with-devices-x86_64=megaraid \
        --without-default-features \
        --enable-tcg --enable-kvm --enable-slirp --enable-linux-aio \
        --enable-linux-io-uring --enable-tools \
        --disable-docs --disable-werror --disable-install-blobs \
        --extra-cflags=-g1)
fi

if [ $# -eq 0 ]; then
    set -- qemu-system-x86_64 qemu-img
fi
ninja -C "$bld" "$@"
