# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Guest-side checks shared by the megaraid-9500 tests (tests/mr9500-*.sh).
# run.sh puts this file in the initramfs as /mrsim/lib-mr9500.sh next to
# lib.sh; tests source it.

# mr9500_driver_log [ALLOW-ERE]: megaraid_sas finished its probe (INIT
# adapter done) and logged nothing that reads as a failure, except lines
# matching ALLOW-ERE.
mr9500_driver_log() {
    driver_log megaraid_sas 'megaraid_sas|megasas' \
        'fail|error|invalid|timed out|not supported|unknown|(^|[^a-z])fault|killing|critical|pool empty|WARNING' \
        "${1:-^\$}" 'INIT adapter done'
}
