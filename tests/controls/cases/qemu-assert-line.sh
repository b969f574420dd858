#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# QEMU prints an assertion failure on stderr but exits 0 after verdict 0
# (e.g. a helper thread's report): the log scan of run.sh must see it.
#@ expect log scan: qemu-system-x86_64: .*Assertion
. tests/controls/lib.sh
control_fake_image
control_fake_qemu 'clean_end
echo "qemu-system-x86_64: ../hw/scsi/mpi3.c:42: mr_fake: Assertion \`req != NULL'"'"' failed." >&2'
control_run_fake assert 'true'
