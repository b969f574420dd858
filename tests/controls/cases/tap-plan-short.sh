#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A TAP stream cut short (plan 1..3, two results, status 0: a binary that
# exited in the middle): count_tap must fail it.
#@ expect count: cut: plan says 3 tests, 2 reported
. scripts/lib-count.sh
printf '1..3\nok 1 /a\nok 2 /b\n' > "$CONTROL_TMP/cut.tap"
count_tap "$CONTROL_TMP/cut.tap" cut 0
