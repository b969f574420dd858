#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A verdict 0 without the dmesg dump before it (an init that lost its dump
# would blind the warning scan): the run must fail.
#@ expect no complete dmesg dump before the verdict
. tests/controls/lib.sh
control_fake_image
control_fake_qemu 'verdict 0'
control_run_fake nodump 'true'
