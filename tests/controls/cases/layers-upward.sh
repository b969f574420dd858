#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A lower layer including an upper one's header (member I/O reaching up
# into management): scripts/check-layers.sh, run on a copy of the tree
# with such a file added, must name it.
#@ expect ^hw/megaraid/member/member-control\.c: layer member includes hw/megaraid/mgmt/mgmt-ops\.h of layer mgmt above it$
mkdir -p "$CONTROL_TMP/t/include"
cp -r hw "$CONTROL_TMP/t/"
cp -r include/hw "$CONTROL_TMP/t/include/"
printf '#include "qemu/osdep.h"\n#include "hw/megaraid/mgmt/mgmt-ops.h"\n' \
    > "$CONTROL_TMP/t/hw/megaraid/member/member-control.c"
scripts/check-layers.sh "$CONTROL_TMP/t"
