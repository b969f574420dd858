#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host side of the RAID guest tests: prints the path of the megaraid-img
# to use.  $MEGARAID_IMG when set; otherwise the standalone build's, which
# is set up and brought up to date first (as scripts/test.sh builds it).
set -euo pipefail
if [ -n "${MEGARAID_IMG:-}" ]; then
    echo "$MEGARAID_IMG"
    exit 0
fi
[ -f build/core/build.ninja ] || meson setup build/core > /dev/null
ninja -C build/core megaraid-img > /dev/null
echo build/core/megaraid-img
