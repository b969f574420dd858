#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A two-phase test with a WARN splat in the first phase's dmesg dump only;
# the last phase is clean.  The scan covers every phase.
#@ expect log scan in phase 1: <4>.*WARNING: CPU: 1 PID: 9 at fs/phase-one\.c
. tests/controls/lib.sh
control_fake_image
# shellcheck disable=SC2016
control_fake_qemu 'if [ "$phase" = 1 ]; then
    dump "<4>[    4.000000] WARNING: CPU: 1 PID: 9 at fs/phase-one.c:7 one+0x1/0x2"
    verdict 0
else
    clean_end
fi'
control_run_fake twophase '#@ phases 2' 'true'
