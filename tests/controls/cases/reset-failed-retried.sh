#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A controller reset that failed, followed by a retry that succeeded:
# mr9600-reset's reset check (lib-mr9600.sh's mr9600_resets_ok, the real
# guest helper, sourced with lib.sh) must fail on this kernel log, which
# stands in for dmesg.
#@ expect a controller reset failed
cd "$CONTROL_TMP" || exit 2
cat > dmesg.txt <<'EOL'
[   20.100000] mpi3mr0: controller reset is triggered by sysfs
[   21.200000] mpi3mr0: controller reset is failed
[   22.300000] mpi3mr0: controller reset is triggered by sysfs
[   23.400000] mpi3mr0: controller reset is successful
EOL
bash -c '
dmesg() { cat "$CONTROL_TMP/dmesg.txt"; }
. "$CONTROL_TOP/tests/guest/lib.sh"
. "$CONTROL_TOP/tests/guest/lib-mr9600.sh"
mr9600_resets_ok 1'
