# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The short form of mfi-tools (which runs on 6.12) for the kernels whose
# megaraid_sas ioctl node differs: Debian's unmodified mfiutil and
# megasasctl on a megaraid-9500 with four blank SAS drives: the adapter
# and its RAID levels, the drives UNCONFIGURED GOOD, a RAID 1 by mfiutil
# create (a disk passing fio verify, megasasctl optimal), a member failed
# (FAILED in both tools, offline in QMP), the core's event log in
# mfiutil's, the volume deleted; a clean kernel log.
#@ controllers megaraid-9500
#@ kernels 6.1 7.2
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare . tests/guest/lib-mrcli.sh; mrcli_host_prepare @WORK@ sas 4 64M
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ allow ^qemu-system-x86_64: warning: megaraid: drive in slot 1 failed.*$

. /mrsim/lib-mrcli.sh
. /mrsim/lib-mfi.sh

mr_guest_start 4

mf show adapter
mf_has "RAID Levels: JBOD, RAID0, RAID1, RAID5, RAID6, RAID10, RAID50$" \
    "not the 9500's RAID levels"
mf show drives
for s in 0 1 2 3; do
    mf_has "^ *$s \(.*\) UNCONFIGURED GOOD " "drive $s is not UNCONFIGURED GOOD"
done

mf create raid1 0,1
mf show volumes
mf_has "RAID-1 .* OPTIMAL" "no optimal RAID 1"
mr_vd_dev 0
fio_verify "$MR_DEV" 2M
ms
echo "$MS_OUT" | grep -qiE "a0d0 .*RAID 1.*optimal" || fail "megasasctl: VD not optimal"

mf fail 1
mf show drives
mf_has "^ *1 \(.*\) FAILED " "drive 1 is not FAILED"
mr_pd_state 1
assert_eq "mrcli state of drive 1" Offln "$MR_STATE"
ms
echo "$MS_OUT" | grep -qE "a0e.s1 .* FAILED" || fail "megasasctl: drive 1 is not FAILED"
mf show events -c info
mf_has "Drive in slot 1: state online -> offline" "no state change of drive 1"
mr /c0 show events count=100
echo "$MR_OUT" | grep -qF "Drive in slot 1: state online -> offline" ||
    fail "mrcli has no state change of drive 1"

mf delete 0
mr_wait_gone "$MR_HANDLE"
mf show drives
if echo "$MF_OUT" | grep -qE "^ *1 \(.*\) UNCONFIGURED BAD "; then
    mf good 1
fi
mr_settle_all 4
check_dmesg
log "mfiutil and megasasctl on this kernel's megaraid_sas"
