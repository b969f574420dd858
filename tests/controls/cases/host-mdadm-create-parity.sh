#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-mdadm-create's host check on the drive images a guest's mdadm left
# (made here as another controller's DDF sets): it passes on the intact
# set, and must fail on megaraid-img check when one byte of a RAID 5
# member is corrupted.
#@ expect ^raid-mdadm-create --host-check: c5: megaraid-img check of mdadm's raid5 failed \(status 3
. tests/controls/lib.sh
. tests/controls/lib-host.sh
host_mdadm_bad_copy
host_poke "$HOST_BAD/c5m1.img" 4096
host_cmd raid-mdadm-create check "$HOST_BAD"
