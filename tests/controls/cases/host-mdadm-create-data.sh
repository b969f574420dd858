#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-mdadm-create's host check: both mirrors of the RAID 1 set hold the
# same wrong bytes (consistent, so megaraid-img check passes): the read
# back must differ from the reference data, and the check must say so.
#@ expect ^raid-mdadm-create --host-check: c1: megaraid-img reads mdadm's raid1 back different from the reference data
. tests/controls/lib.sh
. tests/controls/lib-host.sh
host_mdadm_bad_copy
host_poke "$HOST_BAD/c1m0.img" 1048576
host_poke "$HOST_BAD/c1m1.img" 1048576
host_cmd raid-mdadm-create check "$HOST_BAD"
