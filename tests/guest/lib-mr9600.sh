# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Guest-side checks shared by the megaraid-9600 tests (tests/mr9600-*.sh):
# the driver's log, fio verification on several drives at once, and the
# JBOD suite every drive mix goes through.  run.sh puts this file in the
# initramfs as /mrsim/lib-mr9600.sh next to lib.sh; tests source it.

# The controller's Linux driver, and its VDs' INQUIRY vendor and product
# (the default model's: BROADCOM MR9670W-16i); lib-raid.sh's ctrl_*
# functions call them.
mr9600_driver() {
    echo mpi3mr
}
mr9600_vd_vendor() {
    echo BROADCOM
}
mr9600_vd_product() {
    echo MR9670W-16i
}

# mr9600_mgmt_wait: mpi3mr's BSG node for mrcli (waits up to 60 s).
mr9600_mgmt_wait() {
    local t=0
    while [ ! -c /dev/bsg/mpi3mrctl0 ]; do
        t=$((t + 1))
        [ $t -lt 300 ] || fail "no /dev/bsg/mpi3mrctl0 after 60 s"
        sleep 0.2
    done
}

# mr9600_vd_key VD: the VD's MPI3 device handle, from mrcli's
# "/c0/vVD show all" in MR_JSON.
mr9600_vd_key() {
    mr_prop "Device Handle"
}

# mr9600_key_disk HANDLE: the sd disk whose mpi3mr device_handle is
# HANDLE (0x....), or nothing.
mr9600_key_disk() {
    local b h
    for b in /sys/block/sd*; do
        [ -e "$b/device/device_handle" ] || continue
        h=$(cat "$b/device/device_handle" 2>/dev/null) || continue
        [ $((h)) != $(($1)) ] || echo "/dev/${b##*/}"
    done
}

# mr9600_vd_rescan: mpi3mr adds a VD on the controller's event; no
# rescan, the wait goes on.
mr9600_vd_rescan() {
    :
}

# The controller's driver log: probe and port enable without errors.
mr9600_driver_log() {
    driver_log mpi3mr mpi3mr \
        'fail|error|mismatch|timed out|not supported|unexpected|is not handled|critical|unrecoverable|fault code|faulted|in fault' \
        "${1:-^\$}" 'controller initialization completed successfully' \
        'port enable is successfully completed'
}

# mr9600_reset_keeps CMD DEV: a host reset through disk DEV (sg_reset
# -H); once the driver's refresh after it has completed, CMD prints
# what it printed before (the SAS topology tests' transport objects).
mr9600_reset_keeps() {
    "$1" > /tmp/reset.before
    sg_reset -H "$2" || fail "sg_reset -H failed"
    wait_dmesg 'newly added devices after soft reset completed' \
        'unrecoverable|reset failed' 120 "the device refresh after the reset"
    "$1" > /tmp/reset.after
    diff /tmp/reset.before /tmp/reset.after ||
        fail "$1 differs after the host reset"
    log "$1 after the host reset as before ($(wc -l < /tmp/reset.after) lines)"
}

# fio with crc32c verification on the first N disks at once.
mr9600_fio_parallel() {
    _i=0
    for _n in $(disk_names | head -n "$1"); do
        ( fio_verify "$(disk_dev "$_n")" 8M > "/tmp/fio.$_i" 2>&1
          echo $? > "/tmp/fio.$_i.rc" ) &
        _i=$((_i + 1))
    done
    wait
    _j=0
    while [ $_j -lt $_i ]; do
        cat "/tmp/fio.$_j"
        assert_eq "fio job $_j exit status" 0 "$(cat /tmp/fio.$_j.rc)"
        _j=$((_j + 1))
    done
    log "fio verify on $_i disks at once ok"
}

# The JBOD suite: every drive appears with its identity and size, the
# driver log is clean, fio verifies on the first N drives at once (default
# 4), ext4 round trip, and the images hold what the guest read.
mr9600_jbod_suite() {
    need_driver mpi3mr
    wait_disks 120
    check_disks
    mr9600_driver_log
    mr9600_fio_parallel "${1:-4}"
    fs_roundtrip "$(disk_dev "$(disk_names | head -n 1)")"
    for _n in $(disk_names); do
        host_expect "$_n" "$(disk_dev "$_n")"
    done
    check_dmesg ""
}

# mr9600_resets_ok N: the driver logged exactly N controller resets and
# every one succeeded: N "controller reset is triggered", N "controller
# reset is successful", and no line saying a reset failed (a failed reset
# followed by a good retry fails the test too).
mr9600_resets_ok() {
    _m=$(dmesg | grep -E 'mpi3mr[0-9]+: ')
    _bad=$(echo "$_m" | grep -iE 'reset.*fail|fail.*reset')
    if [ -n "$_bad" ]; then
        echo "$_bad"
        fail "a controller reset failed"
    fi
    _trig=$(echo "$_m" | grep -c 'controller reset is triggered')
    _ok=$(echo "$_m" | grep -c 'controller reset is successful')
    if [ "$_trig" != "$1" ] || [ "$_ok" != "$1" ]; then
        echo "$_m" | grep -i reset
        fail "expected $1 controller reset(s), each successful: $_trig triggered, $_ok successful"
    fi
    log "$1 controller reset(s), each successful"
}

# ---- a JBOD drive and a RAID VD under fio (mr9600-faults, mr9600-aer) ----

# mr9600_find_disks JBOD-MODEL: JB and VD, the JBOD disk of that INQUIRY
# model and the VD (the default model's product), /dev/sdX or "".
mr9600_find_disks() {
    JB=""
    VD=""
    for _b in /sys/block/sd*; do
        [ -e "$_b/device/model" ] || continue
        _model=$(trim < "$_b/device/model")
        [ "$_model" != "$1" ] || JB=/dev/${_b##*/}
        [ "$_model" != MR9670W-16i ] || VD=/dev/${_b##*/}
    done
}

# mr9600_wait_jbod_vd JBOD-MODEL: waits (120 s) until both are there.
mr9600_wait_jbod_vd() {
    _t=0
    while mr9600_find_disks "$1"; [ -z "$JB" ] || [ -z "$VD" ]; do
        _t=$((_t + 1))
        [ $_t -lt 600 ] || { lsscsi; fail "JBOD ($JB) or VD ($VD) not found"; }
        sleep 0.2
    done
}

# mr9600_driver_resets: the controller resets the driver has started.
mr9600_driver_resets() {
    dmesg | grep -c 'mpi3mr[0-9]*: controller reset is triggered'
}

# mr9600_wait_resets N [SECONDS]: the driver has started N controller
# resets in all and finished as many successfully (within SECONDS, 120).
mr9600_wait_resets() {
    _t=0
    while [ "$(mr9600_driver_resets)" -lt "$1" ] ||
          [ "$(dmesg | grep -c 'mpi3mr[0-9]*: controller reset is successful')" -lt "$1" ]; do
        _t=$((_t + 1))
        [ $_t -lt $((${2:-120} * 10)) ] || fail "controller reset $1 did not happen or did not end"
        sleep 0.1
    done
}

# mr9600_device_resets QOM-PATH: prints the controller's ioc-resets.
mr9600_device_resets() {
    qom_get "$1" ioc-resets
    echo "$QOM"
}

# mr9600_fio_start [DISK...]: verifying writers (fio_verify 16M, plus the
# words of $MR9600_FIO_ARGS) on the disks (default: $JB and $VD), in the
# background; returns once I/O completes on each.
mr9600_fio_start() {
    FIO_DISKS=${*:-$JB $VD}
    for _d in $FIO_DISKS; do
        _n=${_d#/dev/}
        rm -f "/tmp/fio.$_n.rc"
        # shellcheck disable=SC2086 # a list of fio options
        ( fio_verify "$_d" 16M ${MR9600_FIO_ARGS:-} > "/tmp/fio.$_n" 2>&1
          echo $? > "/tmp/fio.$_n.rc" ) &
    done
    for _d in $FIO_DISKS; do
        wait_io_flowing "$_d" "/tmp/fio.${_d#/dev/}"
    done
}

# mr9600_fio_check WHAT: every writer of mr9600_fio_start ended and
# verified everything.
mr9600_fio_check() {
    wait
    for _d in $FIO_DISKS; do
        _n=${_d#/dev/}
        _rc=$(cat "/tmp/fio.$_n.rc")
        [ "$_rc" = 0 ] || { cat "/tmp/fio.$_n"; fail "$1: fio on $_d failed ($_rc)"; }
    done
    log "$1: fio verified on $FIO_DISKS"
}
