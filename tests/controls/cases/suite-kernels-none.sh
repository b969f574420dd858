#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A "#@ kernels" line that names no kernel: the test would run nowhere.
#@ expect FAIL -/empty \('#@ kernels *' names no kernel
. tests/controls/lib.sh
control_fake_image
control_fake_qemu clean_end
control_guest_test good 'true' > /dev/null
control_guest_test empty '#@ kernels ' 'true' > /dev/null
MRSIM_GUEST_TESTS="$CONTROL_TMP/tests" tests/guest/run-suite.sh --kernel 6.12
