#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/unit/test-ddf.c's mdadm cross-checks on a host without mdadm
# (hidden in a private mount namespace): they must fail, not skip.
#@ expect mdadm is not installed .*: the mdadm cross-check cannot run
. tests/controls/lib.sh
. tests/controls/lib-host.sh
build=${CONTROL_CORE_BUILD:-build/core}
host_setup "build test-ddf in $build" \
    flock build/core.lock ninja -C "$build" test-ddf
host_setup "a mount namespace (unshare -m)" unshare -m true
# shellcheck disable=SC2016
cd "$CONTROL_TMP" &&
    unshare -m sh -c 'for m in /usr/sbin/mdadm /sbin/mdadm; do
            [ ! -e "$m" ] || mount --bind /dev/null "$m" || exit 99
        done
        PATH=/usr/bin:/bin exec "$1" -p /ddf/mdadm-states' \
        sh "$CONTROL_TOP/$build/test-ddf"
