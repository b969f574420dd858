#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A test whose "#@ kernels" line names a kernel run.sh does not know
# ("6.21") must be a failure of the suite, not silently never run.  A
# neighbouring good test runs (real run.sh, fake QEMU) and passes.
#@ expect FAIL -/typo \('#@ kernels 6\.1 6\.21' names kernel '6\.21', which run\.sh does not know
. tests/controls/lib.sh
control_fake_image
control_fake_qemu clean_end
control_guest_test good '#@ kernels 6.12' 'true' > /dev/null
control_guest_test typo '#@ kernels 6.1 6.21' 'true' > /dev/null
MRSIM_GUEST_TESTS="$CONTROL_TMP/tests" tests/guest/run-suite.sh
