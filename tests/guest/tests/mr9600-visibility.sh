# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 device visibility, on every driver version: a JBOD disk
# made a hot spare (QOM state=hot-spare) leaves the guest's SCSI host, and
# comes back, readable, when it is released (state=unconfigured-good); a
# RAID 1 VD that loses both members goes offline and leaves the host too,
# while the JBOD disk stays.  The device sends DEVICE STATUS CHANGE
# (hidden / not hidden), which 6.1, 6.12 and 7.2 all act on (7.x ignores
# DEVICE INFO CHANGED), and the driver's hide handshake completes.
#@ kernels 6.1 6.12 7.2
#@ timeout 600
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/mr9600-visibility.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    raid_host_begin "$2"
    raid_host_ctrl c-v
    raid_host_group v1 raid1 sas 2 0
    # A blank drive after the members: an unconfigured-good JBOD disk.
    raid_host_blank j0 32M
    echo "-device megaraid-drive,id=j0,bus=c-v.0,slot=$RH_SLOT,drive=b-j0,interface=sas,model=VISJBOD0,serial=SVISJBOD0" \
        >> "$RH_WORK/qemu-p1.args"
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

# lsscsi_count WORD: lsscsi lines naming WORD.
lsscsi_count() {
    lsscsi | grep -c -- "$1"
}

# wait_lsscsi WHAT WORD N [SECONDS]: waits until lsscsi shows N lines with
# WORD (WHAT says what they are, for the messages).
wait_lsscsi() {
    local t=$((${4:-60} * 5))
    while [ $t -gt 0 ]; do
        if [ "$(lsscsi_count "$2")" = "$3" ]; then
            log "lsscsi: $3 x $1"
            return 0
        fi
        sleep 0.2
        t=$((t - 1))
    done
    lsscsi
    fail "lsscsi shows $(lsscsi_count "$2") x $1, not $3, after ${4:-60}s"
}

need_driver mpi3mr
wait_lsscsi "JBOD disk j0" VISJBOD0 1 120
wait_lsscsi "VD" MR9670W-16i 1 120
# (wait_vds takes the controller's first disk: here that is j0, slot 2)
echo "v1 $(lsscsi | awk '/MR9670W-16i/ { print $NF }')" > /tmp/raid-devs
check_vd v1
expect_drive j0 state '^unconfigured-good$'

# A JBOD disk made a hot spare leaves the host.
drive_set j0 state '"hot-spare"'
expect_drive j0 state '^hot-spare$'
wait_lsscsi "JBOD disk j0 (now a hot spare)" VISJBOD0 0
wait_lsscsi "VD" MR9670W-16i 1

# Released, it comes back and reads.
drive_set j0 state '"unconfigured-good"'
expect_drive j0 state '^unconfigured-good$'
wait_lsscsi "JBOD disk j0 (released)" VISJBOD0 1
j0=$(lsscsi | awk '/VISJBOD0/ { print $NF }')
case "$j0" in
/dev/sd*) ;;
*) lsscsi; fail "j0 has no disk node ($j0)" ;;
esac
assert_cmd "reading the released j0 ($j0)" \
    dd if="$j0" of=/dev/null bs=1M count=4 iflag=direct

# A VD that goes offline leaves the host; the JBOD disk stays.
drive_set v1-m0 state '"offline"'
expect_vd v1 state '^degraded$'
wait_lsscsi "VD (degraded)" MR9670W-16i 1
drive_set v1-m1 state '"offline"'
expect_vd v1 state '^offline$'
wait_lsscsi "VD (offline)" MR9670W-16i 0
wait_lsscsi "JBOD disk j0" VISJBOD0 1

# Every hide went through the driver's handshake without an error.
dmesg | grep -E 'mpi3mr[0-9]+: .*(handshake|Remov)' | sed 's/^/dmesg: /'
mr9600_driver_log ""
check_dmesg ""
log "hidden and shown again as the array changed"
