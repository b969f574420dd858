#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# lib-raid.sh's RAID_PREFILL (raid-kill's prepare): megaraid-img write
# fails (as it did when the prefill piped its data without --length):
# the prepare must fail, never go on with all-zero VDs.
#@ expect ^raid host: raid_host_group rr: prefill: megaraid-img write failed
. tests/controls/lib.sh
. tests/controls/lib-host.sh
# shellcheck disable=SC2016
host_wrap_img '[ "$1" != write ] || { echo "megaraid-img write: control failure" >&2; exit 1; }
exec "$real" "$@"'
w=$(host_work w)
host_cmd raid-kill prepare "$w"
