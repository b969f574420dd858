#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-mdadm-create's host check: the sets carry this controller's own
# metadata (as if megaraid-img, not mdadm, had made them): they are not
# foreign, and the check must refuse them.
#@ expect ^raid-mdadm-create --host-check: c1: megaraid-img does not see mdadm's set as foreign
. tests/controls/lib.sh
. tests/controls/lib-host.sh
bad=$(host_work bad)
host_mdadm_sets "$bad" MRSIM00000000001
host_cmd raid-mdadm-create check "$bad"
