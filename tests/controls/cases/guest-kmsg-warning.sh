#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End to end on a real guest (6.12): a throwaway test writes a WARN-looking
# line to /dev/kmsg at warn level (below the quiet console's level: only
# init's dmesg dump carries it to the host) and passes with verdict 0.
# The real run.sh must fail the run on its log scan.
#@ guest
#@ timeout 900
#@ expect ^    <[0-9]+>.*WARNING: CPU: 0 PID: 1 at tests/controls/guest-kmsg-warning
. tests/controls/lib.sh
t=$(control_guest_test kmsg-warning '#@ timeout 600' \
    'echo "<4>WARNING: CPU: 0 PID: 1 at tests/controls/guest-kmsg-warning.c:1 control+0x0/0x0" > /dev/kmsg' \
    'log "wrote a warning to /dev/kmsg"')
tests/guest/run.sh --kernel 6.12 --script "$t"
