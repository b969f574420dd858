#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# QEMU fails an assertion and aborts at shutdown after the guest printed
# its dmesg dump and verdict 0: run.sh must fail the run on QEMU's status.
#@ expect QEMU exit status 134 after verdict 0
. tests/controls/lib.sh
control_fake_image
control_fake_qemu 'clean_end
kill -ABRT $$'
control_run_fake abort 'true'
