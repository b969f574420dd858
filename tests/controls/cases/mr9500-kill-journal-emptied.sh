#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-kill on megaraid-9500 with the controller's cache journal swapped
# for an empty one between the SIGKILL and the restart (phase 2's
# controller is given a new, blank journal drive): the
# acknowledged writes that only the journal held are gone, and the real
# phase 2 check must say so.  The test runs from a throwaway copy of
# raid-kill.sh whose "#@" header lines alone differ (checked below).
#@ expect acknowledged write [0-9]+ lost
#@ guest
#@ timeout 1200
. tests/controls/lib.sh
real=tests/guest/tests/raid-kill.sh
mkdir -p "$CONTROL_TMP/tests"
copy=$CONTROL_TMP/tests/raid-kill.sh
# Phase 1 keeps the test's arguments; phase 2 gets them with the journal
# drive on a new, blank file.
sed 's|^#@ qemu-args @WORK@/qemu-p1.args$|#@ prepare sed "s,file.filename=[^ ,]*/journal.bin,file.filename=@WORK@/journal-empty.bin," @WORK@/qemu-p1.args > @WORK@/qemu-p1-empty.args \&\& grep -q journal-empty.bin @WORK@/qemu-p1-empty.args \&\& truncate -s 512M @WORK@/journal-empty.bin\
#@ qemu-args@1 @WORK@/qemu-p1.args\
#@ qemu-args@2 @WORK@/qemu-p1-empty.args|' "$real" > "$copy"
grep -q '^#@ qemu-args@2 @WORK@/qemu-p1-empty.args$' "$copy" ||
    { echo "control: raid-kill.sh's header changed: cannot swap the journal"; exit 2; }
if ! diff <(grep -v '^#@' "$real") <(grep -v '^#@' "$copy") > /dev/null; then
    echo "control: the copy differs from raid-kill.sh beyond its header"
    exit 2
fi
tests/guest/run.sh --kernel 6.12 --script "$copy" --controller megaraid-9500 \
    --verbose
