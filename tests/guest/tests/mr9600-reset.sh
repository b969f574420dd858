# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# megaraid-9600 resets: a SCSI host reset (sg_reset -H, which mpi3mr turns
# into a diag fault and soft reset of the controller) while fio with crc32c
# verification runs, then the driver is unloaded and loaded again; the
# drives come back each time with their data.
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ disk d0 64M vendor=NVMe product=MR-RESET-0 serial=SRESET0
#@ disk d1 64M vendor=SEAGATE product=MRSASR1 serial=SRESET1
#@ qemu -device megaraid-9600,id=raid0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=0,drive=d0,interface=nvme,model=MR-RESET-0,serial=SRESET0
#@ qemu -device megaraid-drive,bus=raid0.0,slot=1,drive=d1,interface=sas,vendor=SEAGATE,model=MRSASR1,serial=SRESET1
. /mrsim/lib-mr9600.sh

need_driver mpi3mr
wait_disks 120
check_disks
mr9600_driver_log

# LUN reset and target reset (task management through the admin queue).
dev=$(disk_dev d0)
for _d in "$dev" "$(disk_dev d1)"; do
    log "LUN reset and target reset through $_d"
    sg_reset -d "$_d" || fail "sg_reset -d $_d (LUN reset) failed"
    sg_reset -t "$_d" || fail "sg_reset -t $_d (target reset) failed"
done
dmesg | grep -q 'controller reset is triggered' &&
    fail "a LUN or target reset escalated to a controller reset"

# Host reset with I/O running.
( fio_verify "$dev" 32M --loops=6 > /tmp/fio.r 2>&1; echo $? > /tmp/fio.r.rc ) &
sleep 3
log "host reset through $dev"
sg_reset -H "$dev" || fail "sg_reset -H $dev failed"
wait
cat /tmp/fio.r
assert_eq "fio across the host reset" 0 "$(cat /tmp/fio.r.rc)"
dmesg | grep -q 'controller reset is successful' ||
    { dmesg | grep mpi3mr | tail -n 30; fail "no successful controller reset"; }
# fio has overwritten d0's pattern.
sed 's/^\(name=d0 .*\) pattern=1/\1 pattern=0/' /mrsim/disks > /tmp/disks
MRSIM_DISKS=/tmp/disks
wait_disks 60
check_disks

# Unload and load the driver.
assert_cmd "rmmod mpi3mr" rmmod mpi3mr
[ -z "$(ls /sys/block | grep '^sd')" ] || fail "disks left after rmmod: $(ls /sys/block)"
assert_cmd "modprobe mpi3mr" modprobe mpi3mr
need_driver mpi3mr
wait_disks 120
check_disks
for _n in $(disk_names); do
    host_expect "$_n" "$(disk_dev "$_n")"
done
mr9600_driver_log 'reset|snapdump|diag|fault code\(0x0000F000\)'
check_dmesg 'mpi3mr|[Hh]ost reset|(sd|scsi) [0-9:]+: .*[Rr]eset'
