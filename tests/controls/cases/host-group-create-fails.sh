#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-levels' host prepare: megaraid-img create fails for the last drive
# group (RAID 60): the prepare must fail, naming the group, not go on with
# a layout that lacks it.
#@ expect ^raid host: raid_host_group r60: megaraid-img create -l raid60 failed \(status 1\)
. tests/controls/lib.sh
. tests/controls/lib-host.sh
# shellcheck disable=SC2016
host_wrap_img 'if [ "$1" = create ] && [[ " $* " == *" raid60 "* ]]; then
    echo "megaraid-img create: control failure" >&2
    exit 1
fi
exec "$real" "$@"'
w=$(host_work w)
host_cmd raid-levels prepare "$w"
