# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# Host side of the guest tests whose host part (their --host-prepare or
# --host-check branch, run by run.sh's "#@ prepare" and "#@ check")
# checks images with megaraid-img: the megaraid-img to use, and failures
# that say which test and which step.  Sourced in the checkout (sh).

# host_part WHAT: starts a host part: hfail now ends it saying WHAT, and
# img is the megaraid-img to use (tests/guest/host-megaraid-img.sh), or
# the part fails so.
host_part() {
    HOST_PART=$1
    # shellcheck disable=SC2034 # img: for the test that sources this file
    img=$(tests/guest/host-megaraid-img.sh) ||
        hfail "no megaraid-img (tests/guest/host-megaraid-img.sh failed)"
}

# hfail MESSAGE...: ends the host part with "WHAT: MESSAGE" on stderr.
hfail() {
    echo "$HOST_PART: $*" >&2
    exit 1
}
