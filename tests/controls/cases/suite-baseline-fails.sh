#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A failing baseline run (virtio-scsi: QEMU's controller, not ours) is
# counted apart from the product's runs, and still fails the suite and
# scripts/test.sh's baseline stage (count_summary of the suite's output).
#@ expect count: guest baseline: summary|== guest baseline: 0 passed, 1 failed
. tests/controls/lib.sh
. scripts/lib-count.sh
control_fake_image
control_fake_qemu 'case "$*" in
*mrsim.test=virtio-scsi*) dump; verdict 3 ;;
*) clean_end ;;
esac'
control_guest_test virtio-scsi 'true' > /dev/null
control_guest_test mr9600-fake 'true' > /dev/null
MRSIM_GUEST_TESTS="$CONTROL_TMP/tests" tests/guest/run-suite.sh --kernel 6.12 \
    > "$CONTROL_TMP/suite.log"
rc=$?
cat "$CONTROL_TMP/suite.log"
[ $rc != 0 ] || { echo "control: run-suite.sh exited 0"; exit 0; }
# The product's count is clean; the baseline stage is not.
count_summary "$CONTROL_TMP/suite.log" guest "" "" || exit 0
stage_add guest
count_summary "$CONTROL_TMP/suite.log" "guest baseline" "BASELINE " "baseline: "
stage_add "guest baseline"
[ "$TOTAL_FAIL" = 1 ] || exit 0
exit 1
