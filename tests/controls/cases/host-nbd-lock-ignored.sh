#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-nbd's host check: while qemu-storage-daemon serves the drive
# images, a megaraid-img that does not honour the image locks (its "fail"
# goes through) must fail the check.  The images and the daemon come from
# the test's own prepare command; no guest.
#@ expect ^raid-nbd --host-check: megaraid-img fail on images qemu-storage-daemon serves: status 0, not 1$
. tests/controls/lib.sh
. tests/controls/lib-host.sh
w=$(host_work w)
host_setup "raid-nbd --host-prepare" host_cmd raid-nbd prepare "$w"
trap 'kill "$(cat "$w/qsd.pid")" 2>/dev/null' EXIT
# shellcheck disable=SC2016
host_wrap_img '[ "$1" != fail ] || { echo "control: fail without the lock check"; exit 0; }
exec "$real" "$@"'
host_cmd raid-nbd check "$w"
