#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-mdadm-assemble's host prepare compares each set it made with the
# reference data: a megaraid-img whose write leaves a corrupted byte on
# the RAID 0's first member must make the prepare fail.
#@ expect ^raid-mdadm-assemble --host-prepare: r0: raid0 made by megaraid-img reads back different from the reference data
. tests/controls/lib.sh
. tests/controls/lib-host.sh
# shellcheck disable=SC2016
host_wrap_img '"$real" "$@" || exit
case "$1 $*" in
write*/r0m0.img*)
    printf CONTROL-CORRUPT! | dd of="${*: -2:1}" bs=1 seek=100 conv=notrunc status=none ;;
esac'
w=$(host_work w)
host_cmd raid-mdadm-assemble prepare "$w"
