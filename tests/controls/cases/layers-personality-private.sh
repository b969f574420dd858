#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A personality that includes a core-private header (the array's
# internals) instead of a public one: scripts/check-layers.sh, run on a
# copy of the tree with such a file added, must name it.
#@ expect ^hw/megaraid/fusion/mr9500-control\.c: includes hw/megaraid/array/array\.h, a header private to hw/megaraid/array$
mkdir -p "$CONTROL_TMP/t/include"
cp -r hw "$CONTROL_TMP/t/"
cp -r include/hw "$CONTROL_TMP/t/include/"
printf '#include "qemu/osdep.h"\n#include "hw/megaraid/array/array.h"\n' \
    > "$CONTROL_TMP/t/hw/megaraid/fusion/mr9500-control.c"
scripts/check-layers.sh "$CONTROL_TMP/t"
