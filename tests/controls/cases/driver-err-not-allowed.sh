#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An err-level mpi3mr line in the dmesg dump that no "#@ allow" line of the
# test names (it allows a neighbouring message): the run must fail, and
# the same run with the message allowed must pass (else the scan fails
# everything and proves nothing).
#@ expect log scan: <3>.*mpi3mr0: issue_reset_ioc: fake failure
. tests/controls/lib.sh
control_fake_image
control_fake_qemu 'dump "<3>[    5.000000] mpi3mr0: issue_reset_ioc: fake failure" \
  "<6>[    5.000001] mpi3mr0: an info line is no error"
verdict 0'
if ! control_run_fake allowed '#@ allow mpi3mr0: issue_reset_ioc: fake failure' 'true' \
        > "$CONTROL_TMP/allowed.out" 2>&1; then
    echo "control: the run with the message allowed failed too:"
    cat "$CONTROL_TMP/allowed.out"
    exit 0
fi
control_run_fake errline '#@ allow mpi3mr0: some other message' 'true'
