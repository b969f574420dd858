#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo: installs what is missing (Debian packages), builds QEMU with the
# project's devices and a guest from Debian's own 6.12 kernel, then boots it
# under TCG with a MegaRAID 9670W-16i holding a RAID 5 virtual disk over 8
# NVMe drives plus a hot spare (made with megaraid-img).  The guest's
# unmodified mpi3mr driver shows the VD; the console shows fio verify on
# it, a drive failed from the host, the rebuild onto the spare with its
# progress, and the VD optimal again with its data intact.
# (scripts/demo.sh --jbod: the earlier demo, 16 NVMe drives in JBOD;
# --boot-vd: OVMF boots a small Debian system installed on a RAID 5 VD
# through the controller's option ROM, a member fails under it, the spare
# rebuilds, and it boots again from the rebuilt VD: tests/uefi/boot-linux.sh.)
#
#   scripts/demo.sh [--kernel 6.1|6.12|7.2] [--jbod | --boot-vd]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=6.12
test=raid-demo
while [ $# -gt 0 ]; do
    case "$1" in
    --kernel) kernel=$2; shift 2 ;;
    --jbod)   test=mr9600-nvme16; shift ;;
    --boot-vd) test=boot-vd; shift ;;
    *) echo "usage: $0 [--kernel 6.1|6.12|7.2] [--jbod | --boot-vd]" >&2
       exit 2 ;;
    esac
done

"$top/scripts/setup.sh"
"$top/scripts/build-qemu.sh"
"$top/tests/guest/build-image.sh" "$kernel"

if [ "$test" = boot-vd ]; then
    ninja -C "$top/build/core" megaraid-img >/dev/null 2>&1 ||
        { meson setup "$top/build/core" >/dev/null &&
          ninja -C "$top/build/core" megaraid-img >/dev/null; }
    echo "== OVMF -> megaraid-9600's option ROM -> GRUB -> Debian's $kernel kernel, root on a RAID 5 VD"
    "$top/tests/uefi/boot-linux.sh" "$kernel"
    echo "== Demo finished: booted from the VD, rebuilt under the running system, booted again"
elif [ "$test" = raid-demo ]; then
    echo "== Booting Debian's $kernel kernel with megaraid-9600: RAID 5 over 8 NVMe drives + a hot spare"
    "$top/tests/guest/run.sh" --kernel "$kernel" --test raid-demo --verbose
    echo "== Demo finished: a drive failed, the spare was rebuilt, the VD is optimal"
else
    echo "== Booting Debian's $kernel kernel with megaraid-9600 and 16 NVMe drives"
    "$top/tests/guest/run.sh" --kernel "$kernel" --test mr9600-nvme16 --verbose
    echo "== Demo finished: the guest's mpi3mr drove all 16 drives"
fi
