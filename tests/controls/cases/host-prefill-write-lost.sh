#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# lib-raid.sh's RAID_PREFILL (raid-kill's prepare): megaraid-img write
# reports success but writes nothing: the read back must show it and the
# prepare must fail.
#@ expect ^raid host: raid_host_group rr: prefill: the VD does not read back
. tests/controls/lib.sh
. tests/controls/lib-host.sh
# shellcheck disable=SC2016
host_wrap_img '[ "$1" != write ] || exit 0
exec "$real" "$@"'
w=$(host_work w)
host_cmd raid-kill prepare "$w"
