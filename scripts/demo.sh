#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The demo: installs what is missing (Debian packages), builds QEMU with the
# project's devices and a guest from Debian's own 6.12 kernel, then boots it
# under TCG with a MegaRAID 9670W-16i holding 16 NVMe drives in JBOD.  The
# guest's unmodified mpi3mr driver binds; the console shows the driver's
# log, lsscsi with the 16 drives, and a fio verify and ext4 round trip.
#
#   scripts/demo.sh [--kernel 6.1|6.12]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=6.12
[ "${1:-}" = "--kernel" ] && kernel=$2

"$top/scripts/setup.sh"
"$top/scripts/build-qemu.sh"
"$top/tests/guest/build-image.sh" "$kernel"

echo "== Booting Debian's $kernel kernel with megaraid-9600 and 16 NVMe drives"
"$top/tests/guest/run.sh" --kernel "$kernel" --test mr9600-nvme16 --verbose
echo "== Demo finished: the guest's mpi3mr drove all 16 drives"
