#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A two-phase test whose first boot gives verdict 0 but QEMU then exits
# with status 1 (not a kill the guest asked for); the second phase is
# clean.  Every phase's QEMU status counts, not only the last one's.
#@ expect QEMU exit status 1 in phase 1 after verdict 0
. tests/controls/lib.sh
control_fake_image
# shellcheck disable=SC2016
control_fake_qemu 'clean_end
[ "$phase" != 1 ] || exit 1'
control_run_fake twophase '#@ phases 2' 'true'
