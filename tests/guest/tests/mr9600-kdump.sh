# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 under a kdump kernel's mpi3mr (7.2): with reset_devices
# on the command line the driver resets the IOC it finds, asks for one
# MSI-X vector (admin and I/O share it: one operational queue pair) and
# caps the host's outstanding I/O at 128 (MPI3MR_HOST_IOS_KDUMP); the
# JBOD disk comes up and fio crc32c verification at iodepth 32 passes;
# a clean log.
#@ kernels 7.2
#@ timeout 600
#@ mem 1024
#@ smp 2
#@ append reset_devices
#@ prepare truncate -s 64M @WORK@/d0.img
#@ qemu -drive if=none,id=b0,format=raw,file=@WORK@/d0.img
#@ qemu -device megaraid-9600,id=c0
#@ qemu -device megaraid-drive,id=j0,bus=c0.0,slot=0,drive=b0,interface=sas,model=KDUMPJBOD0

. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

need_driver mpi3mr
grep -qw reset_devices /proc/cmdline || fail "reset_devices is not on the command line"
h=""
for t in $(seq 60); do
    for s in /sys/class/scsi_host/host*; do
        [ "$(cat "$s/proc_name" 2>/dev/null)" = mpi3mr ] && h=$s
    done
    mr9600_find_disks KDUMPJBOD0
    [ -z "$JB" ] || [ -z "$h" ] || break
    sleep 1
done
[ -n "$JB" ] || { lsscsi; fail "no JBOD disk KDUMPJBOD0"; }
assert_eq "op_req_q_count (one vector)" 1 "$(cat "$h/op_req_q_count")"
can=$(cat "$h/can_queue")
[ "$can" -le 128 ] || fail "can_queue $can: a kdump kernel's driver takes 128 at most"
nvec=$(grep -c "mpi3mr0-msix" /proc/interrupts)
[ "$nvec" = 1 ] || { grep mpi3mr /proc/interrupts; fail "$nvec MSI-X vectors, not 1"; }
fio_verify "$JB" 16M --iodepth=32
check_dmesg
log "a kdump kernel's mpi3mr runs on one vector with 128 I/Os and verifies"
