#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A guest suite whose output stops before its summary line (it died) and
# one whose summary disagrees with its result lines: scripts/test.sh's
# count_summary must fail both.
#@ expect count: guest: no 'N passed, N failed' line
. scripts/lib-count.sh
printf 'PASS 6.12/a\nFAIL 6.12/b (log: x)\n1 passed, 0 failed\n' > "$CONTROL_TMP/wrong.log"
count_summary "$CONTROL_TMP/wrong.log" guest && { echo "control: disagreeing summary accepted"; exit 0; }
printf 'PASS 6.12/a\nPASS 6.1/a\n' > "$CONTROL_TMP/cut.log"
count_summary "$CONTROL_TMP/cut.log" guest
