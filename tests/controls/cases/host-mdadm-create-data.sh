#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-mdadm-create's host check: both mirrors of the RAID 1 set hold the
# same wrong bytes (consistent, so megaraid-img check passes): the read
# back must differ from the reference data, and the check must say so.
#@ expect ^raid-mdadm-create --host-check: c1: megaraid-img reads mdadm's raid1 back different from the reference data
. tests/controls/lib.sh
. tests/controls/lib-host.sh
good=$(host_work good)
bad=$(host_work bad)
host_mdadm_sets "$good"
cp -a "$good/." "$bad/"
host_setup "the host check on intact sets" host_cmd raid-mdadm-create check "$good"
host_poke "$bad/c1m0.img" 1048576
host_poke "$bad/c1m1.img" 1048576
host_cmd raid-mdadm-create check "$bad"
