#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel err line on the quiet console that no dmesg dump repeats (as in
# a phase the guest had killed, or after the dump): the scan must see the
# console's kernel lines too.
#@ expect log scan: \[ *12\.345678\] mpi3mr0: fake console-only error
. tests/controls/lib.sh
control_fake_image
control_fake_qemu 'echo "[   12.345678] mpi3mr0: fake console-only error"
clean_end
echo "[   13.000000] reboot: Power down"'
control_run_fake console 'true'
