#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A test whose "#@ controllers" line names a controller run.sh does not
# know ("megaraid-9660") must be a failure of the suite, not silently
# never run; a good test with the header runs once per controller, each
# result line naming it (real run.sh, fake QEMU).
#@ expect FAIL -/typo \('#@ controllers megaraid-9600 megaraid-9660' names controller 'megaraid-9660', which run\.sh does not know
. tests/controls/lib.sh
control_fake_image
control_fake_qemu clean_end
control_guest_test good '#@ controllers megaraid-9600 megaraid-9500' \
    '#@ kernels 6.12' 'true' > /dev/null
control_guest_test typo '#@ controllers megaraid-9600 megaraid-9660' \
    '#@ kernels 6.12' 'true' > /dev/null
MRSIM_GUEST_TESTS="$CONTROL_TMP/tests" tests/guest/run-suite.sh
