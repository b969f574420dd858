#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest panics right after its verdict 0 (panic=-1 -no-reboot: QEMU
# exits at once, status 0, before run.sh's watch loop sees the panic):
# the scan of the whole log after exit must catch it.
#@ expect log scan: Kernel panic - not syncing
. tests/controls/lib.sh
control_fake_image
control_fake_qemu 'clean_end
echo "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000000"'
control_run_fake panic 'true'
