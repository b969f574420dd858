# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# megaraid-9600 with PCI revision 0: the driver then uses contiguous
# operational queues and 4096-entry reply queues (and validates UNMAP for
# NVMe targets itself).  Two NVMe and one SAS drive: identity, fio with
# crc32c verification on all three at once, ext4, images hold what the
# guest reads.
#@ timeout 600
#@ mem 1024
#@ smp 2
#@ disk c0 32M vendor=NVMe product=MR-CONTIG-0 serial=SCONT0
#@ disk c1 32M vendor=NVMe product=MR-CONTIG-1 serial=SCONT1
#@ disk c2 32M vendor=SEAGATE product=MRCONTSAS2 serial=SCONT2
#@ qemu -device megaraid-9600,id=raid0,revision=0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=0,drive=c0,interface=nvme,model=MR-CONTIG-0,serial=SCONT0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=1,drive=c1,interface=nvme,model=MR-CONTIG-1,serial=SCONT1
#@ qemu -device megaraid-drive,bus=raid0.0,slot=2,drive=c2,interface=sas,vendor=SEAGATE,model=MRCONTSAS2,serial=SCONT2
# The controller's driver log: probe and port enable without errors.
mr9600_driver_log() {
    _m=$(dmesg | grep -i mpi3mr)
    echo "$_m" | grep -q 'controller initialization completed successfully' ||
        { echo "$_m"; fail "mpi3mr did not complete initialization"; }
    echo "$_m" | grep -q 'port enable is successfully completed' ||
        { echo "$_m"; fail "mpi3mr port enable did not complete"; }
    _bad=$(echo "$_m" | grep -iE 'fail|error|mismatch|timed out|not supported|unexpected|is not handled|critical|unrecoverable|fault code|faulted|in fault' |
           grep -vE "${1:-^\$}")
    [ -z "$_bad" ] || { echo "$_m"; fail "mpi3mr logged errors: $_bad"; }
    echo "$_m" | sed 's/^/dmesg: /'
    log "mpi3mr log clean"
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

mr9600_jbod_suite() {
    need_driver mpi3mr
    wait_disks 120
    check_disks
    mr9600_driver_log
    mr9600_fio_parallel 3
    fs_roundtrip "$(disk_dev "$(disk_names | head -n 1)")"
    for _n in $(disk_names); do
        host_expect "$_n" "$(disk_dev "$_n")"
    done
    check_dmesg ""
}

mr9600_jbod_suite
