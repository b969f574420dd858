#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A test that allows everything ("#@ allow .") must be refused.
#@ expect '#@ allow \.' is too broad
. tests/controls/lib.sh
control_fake_image
control_fake_qemu clean_end
control_run_fake broad '#@ allow .' 'true'
