#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A WARN splat (KERN_WARNING: not on the quiet console, only in the dmesg
# dump init prints before the verdict) in a run with verdict 0.
#@ expect log scan: <4>.*WARNING: CPU: 0 PID: 77 at drivers/scsi/mpi3mr
. tests/controls/lib.sh
control_fake_image
control_fake_qemu 'dump "<6>[    3.100000] mpi3mr0: controller is ready" \
  "<4>[    9.200000] ------------[ cut here ]------------" \
  "<4>[    9.200001] WARNING: CPU: 0 PID: 77 at drivers/scsi/mpi3mr/mpi3mr_fw.c:123 mpi3mr_fake+0x1/0x2 [mpi3mr]" \
  "<4>[    9.200009] ---[ end trace 0000000000000000 ]---"
verdict 0'
control_run_fake warn 'true'
