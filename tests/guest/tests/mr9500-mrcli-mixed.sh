# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# mrcli's controller numbering with both kinds in one guest: a
# megaraid-9600 (mpi3mr, one NVMe drive) and a megaraid-9500 (megaraid_sas,
# two SAS drives).  mrcli show lists two controllers, the mpi3mr one first;
# /c0 is the 9600 (one drive), /c1 the 9500 (two drives), /c2 fails with
# exit status 3 (no controller).
#@ kernels 6.1 6.12 7.2
#@ timeout 600
#@ mem 1024
#@ smp 2
#@ disk j0 32M
#@ disk j1 32M
#@ disk j2 32M
#@ qemu -device megaraid-9600,id=ra
#@ qemu -device megaraid-drive,bus=ra.0,slot=0,drive=j0,interface=nvme
#@ qemu -device megaraid-9500,id=rb
#@ qemu -device megaraid-drive,bus=rb.0,slot=0,drive=j1,interface=sas
#@ qemu -device megaraid-drive,bus=rb.0,slot=1,drive=j2,interface=sas
. /mrsim/lib-mrcli.sh
need_driver mpi3mr
need_driver megaraid_sas
t=0
while [ ! -c /dev/bsg/mpi3mrctl0 ]; do t=$((t+1)); [ $t -lt 300 ] || fail "no bsg"; sleep 0.2; done
# both drivers finish their probe
sleep 3
mr show
mr_json show
assert_eq "controllers" 2 "$(mr_prop 'Number of Controllers')"
mr /c0 show
echo "$MR_OUT" | grep -qE "Physical Drives *= 1$" || fail "/c0 is not the 9600"
mr /c1 show
echo "$MR_OUT" | grep -qE "Physical Drives *= 2$" || fail "/c1 is not the 9500"
rc=0; mrcli /c2 show > /tmp/o 2>&1 || rc=$?
cat /tmp/o
[ $rc = 3 ] || fail "/c2: exit $rc"
check_dmesg ""
log "mrcli numbering: /c0 mpi3mr, /c1 megaraid_sas"
