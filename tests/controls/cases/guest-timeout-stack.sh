#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A guest that never gives a verdict (QEMU stand-in that sleeps): run.sh
# must stop it at the test's timeout, call the run a timeout, and show
# where QEMU was (its main thread's stack, by gdb, from QEMU's -pidfile),
# which is all a CI log keeps of a hang.
#@ expect ran out of time \(5s\): QEMU main thread: [_a-zA-Z]*clock_nanosleep <
. tests/controls/lib.sh
control_fake_image
control_fake_qemu '
pidf=""; prev=""
for a; do [ "$prev" != -pidfile ] || pidf=$a; prev=$a; done
[ -n "$pidf" ] || { echo "stand-in: no -pidfile"; exit 1; }
echo $$ > "$pidf"
exec sleep 600'
control_run_fake hang '#@ timeout 5' 'true'
rc=$?
# run.sh's 124 (timeout) would read as this case's own timeout
[ $rc != 124 ] || rc=1
exit $rc
