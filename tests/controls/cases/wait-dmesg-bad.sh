#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The guests' kernel log wait (lib.sh wait_dmesg, which the OCR and task
# management tests wait with), run on the host with only dmesg faked: a
# log with the awaited line must return at once, and a log where the
# driver gave up the controller must fail at once naming the line (else
# such a test would wait out its whole limit, or pass on a bad reset).
#@ expect while waiting for a successful OCR: .*megaraid_sas .*killing adapter
set -u
cd "$CONTROL_TOP" || exit 0

# The wait over a fake kernel log ($1: its lines), as a bash script.
# shellcheck disable=SC2016 # expanded by that bash
waiter='
    lines=$1
    dmesg() { printf "%s\n" "$lines"; }
    . tests/guest/lib.sh
    wait_dmesg "Reset successful for scsi" "killing adapter|Reset failed" \
        120 "a successful OCR"
    echo "waited $WAITED"
'

if ! timeout 10 bash -c "$waiter" wait_on \
        'megaraid_sas 0000:00:10.0: Reset successful for scsi0.' \
        > "$CONTROL_TMP/good.out" 2>&1 ||
   ! grep -q '^waited 0$' "$CONTROL_TMP/good.out"; then
    echo "control: the awaited line did not end the wait at once:"
    cat "$CONTROL_TMP/good.out"
    exit 0
fi
timeout 10 bash -c "$waiter" wait_on \
    "$(printf '%s\n' 'megaraid_sas 0000:00:10.0: resetting fusion adapter scsi0.' \
        'megaraid_sas 0000:00:10.0: killing adapter scsi0')"
st=$?
[ "$st" != 124 ] || { echo "control: the wait did not end at the bad line"; exit 0; }
exit "$st"
