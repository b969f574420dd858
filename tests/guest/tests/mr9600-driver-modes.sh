# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 under mpi3mr's other queue set-ups (7.2, 4 vCPUs), each
# with fio crc32c verification on a JBOD disk and a clean log:
# phase 1, the defaults: one operational queue pair a vCPU; the driver
# reloaded with poll_queues=1 (one more queue pair, polled: the disk's
# io_poll is 1 and fio's io_uring hipri I/O completes through it) and
# with threaded_isr_poll=0; phase 2, msix-vectors=2: one vector for the
# admin queue and one for a single operational pair; phase 3,
# max-queues=2 and max-requests=128: two pairs, fw_queue_depth 128 and a
# host queue depth below it, fio at iodepth 64.
#@ kernels 7.2
#@ timeout 900
#@ mem 1024
#@ smp 4
#@ phases 3
#@ prepare truncate -s 64M @WORK@/d0.img
#@ qemu -drive if=none,id=b0,format=raw,file=@WORK@/d0.img
#@ qemu@1 -device megaraid-9600,id=c0
#@ qemu@2 -device megaraid-9600,id=c0,msix-vectors=2
#@ qemu@3 -device megaraid-9600,id=c0,max-queues=2,max-requests=128
#@ qemu@1 -device megaraid-drive,id=j0,bus=c0.0,slot=0,drive=b0,interface=sas,model=MODESJBOD0
#@ qemu@2 -device megaraid-drive,id=j0,bus=c0.0,slot=0,drive=b0,interface=sas,model=MODESJBOD0
#@ qemu@3 -device megaraid-drive,id=j0,bus=c0.0,slot=0,drive=b0,interface=sas,model=MODESJBOD0

. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

# host_attr NAME: the mpi3mr host's sysfs attribute NAME.
host_attr() {
    local h
    for h in /sys/class/scsi_host/host*; do
        if [ "$(cat "$h/proc_name" 2>/dev/null)" = mpi3mr ]; then
            cat "$h/$1"
            return 0
        fi
    done
    fail "no mpi3mr SCSI host"
}

# jbod: JB is the JBOD disk, waiting for it (60 s).
jbod() {
    local t
    for t in $(seq 60); do
        mr9600_find_disks MODESJBOD0
        [ -z "$JB" ] || return 0
        sleep 1
    done
    lsscsi
    fail "no JBOD disk MODESJBOD0"
}

# reload ARGS...: mpi3mr unloaded and loaded again with ARGS.
reload() {
    assert_cmd "rmmod mpi3mr" rmmod mpi3mr
    assert_cmd "modprobe mpi3mr $*" modprobe mpi3mr "$@"
    jbod
}

need_driver mpi3mr
jbod
case "$MRSIM_PHASE" in
1)
    assert_eq "op_req_q_count (a pair a vCPU)" "$(nproc)" \
        "$(host_attr op_req_q_count)"
    fio_verify "$JB" 16M
    reload poll_queues=1
    assert_eq "op_req_q_count with poll_queues=1" $(($(nproc) + 1)) \
        "$(host_attr op_req_q_count)"
    assert_eq "reply_queue_count with poll_queues=1" $(($(nproc) + 1)) \
        "$(host_attr reply_queue_count)"
    dev=${JB#/dev/}
    assert_eq "$dev io_poll" 1 "$(cat "/sys/block/$dev/queue/io_poll")"
    fio_verify "$JB" 16M --ioengine=io_uring --hipri=1
    reload threaded_isr_poll=0
    assert_eq "threaded_isr_poll" N \
        "$(cat /sys/module/mpi3mr/parameters/threaded_isr_poll)"
    fio_verify "$JB" 16M
    ;;
2)
    assert_eq "op_req_q_count with msix-vectors=2" 1 \
        "$(host_attr op_req_q_count)"
    fio_verify "$JB" 16M
    ;;
3)
    assert_eq "op_req_q_count with max-queues=2" 2 \
        "$(host_attr op_req_q_count)"
    assert_eq "fw_queue_depth with max-requests=128" 128 \
        "$(host_attr fw_queue_depth)"
    can=$(host_attr can_queue)
    [ "$can" -gt 0 ] && [ "$can" -lt 128 ] ||
        fail "can_queue $can is not below max-requests 128"
    fio_verify "$JB" 16M --iodepth=64
    ;;
esac
check_dmesg
log "phase $MRSIM_PHASE: the driver's queue set-up takes and I/O verifies"
