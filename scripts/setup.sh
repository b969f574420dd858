#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Installs everything the project needs on a Debian 12 (bookworm) machine,
# as root.  Idempotent: a second run installs nothing.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive

"$top/scripts/apt-sources.sh"

# QEMU build (the overlay) and the standalone core build.
pkgs=(
    build-essential ccache ninja-build pkg-config flex bison
    python3-venv dpkg-dev patch cpio xz-utils zstd
    libglib2.0-dev libpixman-1-dev libslirp-dev libaio-dev liburing-dev
    libfdt-dev zlib1g-dev libisal-dev
    seabios qemu-system-data
    clang libclang-rt-14-dev mdadm
    man-db groff-base
    gnu-efi ovmf mtools dosfstools fdisk grub-efi-amd64-bin grub-common
)
# (gnu-efi: the option ROM's UEFI driver; ovmf, mtools, dosfstools, fdisk,
# grub-efi-amd64-bin: its boot tests, tests/uefi/)
bpo=(meson python3-pycotap)

missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing+=("$p")
done
for p in "${bpo[@]}"; do
    # meson >= 1.5 is needed by QEMU 10.0: bookworm's own 1.0 is too old.
    v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
    case "$v" in *bpo*) ;; *) missing+=("$p/bookworm-backports") ;; esac
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -q -o DPkg::Lock::Timeout=600
    apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}"
fi

# The tools' man pages (docs/man): man megaraid-img, mrcli, raidsim.
install -d /usr/local/share/man/man1
install -m 644 "$top"/docs/man/*.1 /usr/local/share/man/man1/

# Parts' own dependencies (guest harness, RAID core tools).
for s in "$top"/scripts/setup-*-deps.sh; do
    [ -x "$s" ] && "$s"
done
exit 0
