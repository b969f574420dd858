# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 drives pulled (device_del) from RAID 1, 5, 6, 10, 50 and
# 60, each with global hot spares: during fio verify one member of each
# is pulled (two of RAID 6/60); fio ends without errors or verify
# mismatches, the spares take over and rebuild until the VDs are optimal;
# then different original members are pulled and every VD still reads
# what it held, through the rebuilt drives.  Last, blank drives are
# inserted (device_add) in the slots of the second pulls: the controller
# rebuilds onto them and the VDs, optimal again, still hold their data.
# Runs on 6.12 and 7.2 (raid-fail-offline on 6.1 and 7.2).
#@ kernels 7.2
#@ timeout 1200
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/raid-fail-pull.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    raid_host_fail_groups
    for n in $FAIL_VDS; do
        for i in $(fail_second "$n"); do
            raid_host_blank "$n-n$i" 32M
        done
    done
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

need_driver mpi3mr
wait_vds 120
raid_fail_test pull

# Blank drives in the slots of the second pulls: rebuilds onto them.
for n in $FAIL_VDS; do
    for i in $(fail_second "$n"); do
        qmp_ok "{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"megaraid-drive\",\"id\":\"$n-n$i\",\"bus\":\"$(vd_attr "$n" ctrl).0\",\"slot\":$i,\"drive\":\"b-$n-n$i\",\"interface\":\"$(vd_attr "$n" iface)\"}}"
        expect_drive "$n-n$i" state '^(rebuild|online)$'
    done
done
# shellcheck disable=SC2086
wait_optimal 600 $FAIL_VDS
for n in $FAIL_VDS; do
    for i in $(fail_second "$n"); do
        expect_drive "$n-n$i" state '^online$'
    done
    vd_sum "$n"
    assert_eq "VD $n after the rebuild onto new drives" "$(eval echo "\$SUM0_$n")" "$SUM"
done
log "rebuilt onto the inserted drives; data unchanged"
# Pulled and inserted members log no errors (driver or kernel).
mr9600_driver_log ""
check_dmesg ""
