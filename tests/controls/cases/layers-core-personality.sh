#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The core reaching into a personality (the array including megaraid-9600's
# header): scripts/check-layers.sh, run on a copy of the tree with such a
# file added, must name it.
#@ expect ^hw/megaraid/array/array-control\.c: the core includes hw/megaraid/mpi3/mr9600\.h, a personality's header$
mkdir -p "$CONTROL_TMP/t/include"
cp -r hw "$CONTROL_TMP/t/"
cp -r include/hw "$CONTROL_TMP/t/include/"
printf '#include "qemu/osdep.h"\n#include "hw/megaraid/mpi3/mr9600.h"\n' \
    > "$CONTROL_TMP/t/hw/megaraid/array/array-control.c"
scripts/check-layers.sh "$CONTROL_TMP/t"
