#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-mdadm-assemble's host prepare checks that the RAID 6 rebuild
# stopped where it asked: a megaraid-img that runs one row more must make
# the prepare fail.
#@ expect ^raid-mdadm-assemble --host-prepare: r6r: the rebuild did not stop at
. tests/controls/lib.sh
. tests/controls/lib-host.sh
# shellcheck disable=SC2016
host_wrap_img 'args=()
for a; do
    [ "$a" != 10 ] || [ "${args[-1]:-}" != --max-rows ] || a=11
    args+=("$a")
done
exec "$real" "${args[@]}"'
w=$(host_work w)
host_cmd raid-mdadm-assemble prepare "$w"
