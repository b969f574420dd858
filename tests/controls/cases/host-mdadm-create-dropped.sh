#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-mdadm-create's host check: one drive of the RAID 6 set is replaced
# by a blank image (dropped from the set): the VD is not optimal, and the
# check must fail on it.
#@ expect ^raid-mdadm-create --host-check: c6: no VD 'mc6': RAID6, optimal in megaraid-img show
. tests/controls/lib.sh
. tests/controls/lib-host.sh
bad=$(host_work bad)
host_mdadm_sets "$bad"
rm "$bad/c6m3.img"
truncate -s 40M "$bad/c6m3.img"
host_cmd raid-mdadm-create check "$bad"
