#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A UBSAN report in the dmesg dump of a run with verdict 0; the test allows
# an unrelated mpi3mr message, which must not hide it.
#@ expect log scan: .*UBSAN: array-index-out-of-bounds
. tests/controls/lib.sh
control_fake_image
control_fake_qemu 'dump "<3>[    5.000000] mpi3mr0: fake allowed message" \
  "<3>[    9.300000] UBSAN: array-index-out-of-bounds in drivers/scsi/mpi3mr/mpi3mr_os.c:99:5" \
  "<3>[    9.300001] index 17 is out of range for type '"'"'u8 [16]'"'"'"
verdict 0'
control_run_fake ubsan '#@ allow mpi3mr0: fake allowed message' 'true'
