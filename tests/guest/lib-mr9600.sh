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
