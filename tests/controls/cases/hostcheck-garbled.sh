#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A HOSTCHECK line garbled on the console (a kernel message cut into it):
# its image comparison must not be dropped silently.
#@ expect host check: 2 HOSTCHECK lines but 1 parse
. tests/controls/lib.sh
control_fake_image
sum=$(head -c 65536 /dev/zero | sha256sum | cut -d' ' -f1)
# The run's own disk image must match for the good line; d0 is 64 KiB of
# mkdisk.py's pattern, so compute its sum the way the guest would.
tests/guest/mkdisk.py d0 64K "$CONTROL_TMP/d0.img"
good=$(sha256sum < "$CONTROL_TMP/d0.img" | cut -d' ' -f1)
control_fake_qemu "echo \"@@MRSIM-HOSTCHECK \$token d0 65536 $good@@\"
echo \"@@MRSIM-HOSTCHECK \$token d0 655[    7.1] sd 0:0:0:0: oops36 $sum@@\"
clean_end"
control_run_fake garbled '#@ disk d0 64K' 'true'
