#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Builds the option ROM's UEFI driver with Debian's gnu-efi (no edk2):
# each C file compiled position-independent with the Microsoft x64 ABI for
# EFI calls, linked with gnu-efi's start-up code and linker script, turned
# into a PE32+ boot service driver by objcopy, and wrapped as a PCI
# expansion ROM (scripts/mk-efirom.py).  Also builds the test application
# tests/uefi/blkio-app.c when asked.
#
#   firmware/uefi/build.sh OUT-DIR [--app]
#
# Outputs: OUT-DIR/megaraid-9600-efi.rom and megaraid-9500-efi.rom (the
# same driver, megaraid-efi.efi, under each controller's PCI ids),
# OUT-DIR/blkio-app.efi
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: build.sh OUT-DIR [--app]}
app=${2:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)

lds=/usr/lib/elf_x86_64_efi.lds
crt0=/usr/lib/crt0-efi-x86_64.o
if [ ! -f "$lds" ] || [ ! -f "$crt0" ]; then
    echo "build.sh: gnu-efi is not installed (apt-get install gnu-efi)" >&2
    exit 1
fi
cflags=(-O2 -g0 -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter
        -fpic -fshort-wchar -ffreestanding -fno-stack-protector
        -fno-strict-aliasing -fno-builtin -mno-red-zone -maccumulate-outgoing-args
        -DGNU_EFI_USE_MS_ABI -I/usr/include/efi -I/usr/include/efi/x86_64
        -I"$top/include" -ffile-prefix-map="$top"=.)

# build NAME TARGET SOURCES...: NAME.efi of the given objcopy target
build() {
    local name=$1 target=$2 objs=()
    shift 2
    for src in "$@"; do
        local o
        o="$out/$(basename "${src%.c}").o"
        gcc "${cflags[@]}" -c "$src" -o "$o"
        objs+=("$o")
    done
    ld -nostdlib -znocombreloc -T "$lds" -shared -Bsymbolic \
        --build-id=none -L/usr/lib "$crt0" "${objs[@]}" -lefi -lgnuefi \
        -o "$out/$name.so"
    objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
        -j .rela -j .rel.* -j .rela.* -j .reloc --target "$target" \
        "$out/$name.so" "$out/$name.efi"
}

src=$top/firmware/uefi
# One driver for both controllers, wrapped once per device id.
build megaraid-efi efi-bsdrv-x86_64 "$src/driver.c" "$src/ioc.c" \
    "$src/fusion.c" "$src/passthru.c"
"$top/scripts/mk-efirom.py" --vendor 0x1000 --device 0x00a5 \
    --class 0x010400 "$out/megaraid-efi.efi" "$out/megaraid-9600-efi.rom"
"$top/scripts/mk-efirom.py" --vendor 0x1000 --device 0x10e2 \
    --class 0x010400 "$out/megaraid-efi.efi" "$out/megaraid-9500-efi.rom"
if [ "$app" = --app ]; then
    build blkio-app efi-app-x86_64 "$top/tests/uefi/blkio-app.c"
fi
