# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Guest-side checks shared by the megaraid-9500 tests (tests/mr9500-*.sh,
# and the RAID tests' megaraid-9500 runs through lib-raid.sh's ctrl_*).
# run.sh puts this file in the initramfs as /mrsim/lib-mr9500.sh next to
# lib.sh; tests source it.

# The controller's Linux driver, and its VDs' INQUIRY vendor and product
# (the default model's, the PERC H755N Front); lib-raid.sh's ctrl_*
# functions call them.
mr9500_driver() {
    echo megaraid_sas
}
mr9500_vd_vendor() {
    echo DELL
}
mr9500_vd_product() {
    echo PERC H755N Front
}

# What megaraid_sas prints about a successful online controller reset
# (the firmware fault it finds, the reset, the fast-path I/O it waits
# for): the OCR tests allow these lines and nothing else.
# shellcheck disable=SC2034 # used by the tests that source this file
MR9500_OCR_LINES='FW in FAULT state Fault code:0x5a5|resetting fusion adapter|Reset successful for scsi|Outstanding fastpath IOs'

# mr9500_ocr CTRL: firmware fault 0x5a5 injected into the controller at
# QOM path CTRL (QMP); megaraid_sas' watchdog (1 s) finds FAULT and
# resets the controller, successfully, within 120 s.
mr9500_ocr() {
    qom_set "$1" inject-fault '"0x5a5"'
    wait_dmesg 'Reset successful for scsi' 'killing adapter|Reset failed' 120 \
        "a successful OCR"
    log "OCR done after $((WAITED / 10)) s"
}

# mr9500_ocr_once CTRL: the controller counted one injected fault and
# the driver logged one successful reset.
mr9500_ocr_once() {
    qom_get "$1" faults-injected
    assert_eq "faults injected" 1 "$QOM"
    assert_eq "successful resets" 1 "$(dmesg | grep -c 'Reset successful for scsi')"
}

# mr9500_driver_log [ALLOW-ERE]: megaraid_sas finished its probe (INIT
# adapter done) and logged nothing that reads as a failure, except lines
# matching ALLOW-ERE.
mr9500_driver_log() {
    driver_log megaraid_sas 'megaraid_sas|megasas' \
        'fail|error|invalid|timed out|not supported|unknown|(^|[^a-z])fault|killing|critical|pool empty|WARNING' \
        "${1:-^\$}" 'INIT adapter done'
}

# mr9500_mgmt_wait: nothing to wait for: mrcli makes megaraid_sas' ioctl
# node (/dev/megaraid_sas_ioctl_node) itself, from /proc/devices.
mr9500_mgmt_wait() {
    :
}

# mr9500_vd_key VD: the VD's disk on megaraid_sas' LD channel: "2:VD"
# (channel 2, target id = the VD's index).
mr9500_vd_key() {
    echo "2:$1"
}

# mr9500_key_disk CHANNEL:TARGET: the sd disk at that channel and target
# of a megaraid_sas host, or nothing.
mr9500_key_disk() {
    local b r h
    for b in /sys/block/sd*; do
        [ -e "$b/device" ] || continue
        r=$(readlink -f "$b/device")
        h=${r##*/}
        h=${h%%:*}
        [ "$(cat "/sys/class/scsi_host/host$h/proc_name" 2>/dev/null)" = megaraid_sas ] ||
            continue
        [ "${r##*/}" != "$h:$1:0" ] || echo "/dev/${b##*/}"
    done
}

# mr9500_vd_rescan: megaraid_sas did not add a new LD's disk on the
# controller's event within 30 s: scan its SCSI hosts as a user would, and
# say so in the log (as the former mr9500-mrcli did).
mr9500_vd_rescan() {
    local h
    for h in /sys/class/scsi_host/host*; do
        [ "$(cat "$h/proc_name" 2>/dev/null)" = megaraid_sas ] || continue
        log "RESCAN: megaraid_sas did not add the new VD's disk in 30 s; scanning ${h##*/}"
        echo "- - -" > "$h/scan"
    done
}
