# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 through mpi3mr's own sysfs attributes (7.2; 6.1 has
# neither reply_qfull_count nor fwfault_count): the host's version_fw
# (IOC FACTS' firmware version as the driver formats it, the same as QOM
# firmware-version), fw_queue_depth (FACTS MaxOutstandingRequests: the
# max-requests property, here 1024), op_req_q_count and
# reply_queue_count (one pair a vCPU), reply_qfull_count and
# fwfault_count 0, adp_state operational (1), logging_level written and
# read back; each disk's device_handle (1 + slot), persistent_id (the
# handle minus one, also its SCSI target id), sas_address (Device page
# 0's SASAddress: the drive's QOM wwn), a SAS disk's
# sas_ncq_prio_supported 0 and a SATA disk's 0 with sas_ncq_prio_enable
# refused (the drives report no NCQ priority).  A clean kernel log.
#@ kernels 7.2
#@ timeout 600
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare truncate -s 32M @WORK@/d0.img @WORK@/d1.img
#@ qemu -device megaraid-9600,id=c0,max-requests=1024
#@ qemu -drive if=none,id=b0,format=raw,file=@WORK@/d0.img
#@ qemu -device megaraid-drive,id=j0,bus=c0.0,slot=0,drive=b0,interface=sas,model=SYSFSSAS0
#@ qemu -drive if=none,id=b1,format=raw,file=@WORK@/d1.img
#@ qemu -device megaraid-drive,id=j1,bus=c0.0,slot=3,drive=b1,interface=sata,model=SYSFSSATA1
#@ allow mpi3mr[0-9]+: logging_level=00000010h

. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

need_driver mpi3mr
shost=""
for h in /sys/class/scsi_host/host*; do
    [ "$(cat "$h/proc_name" 2>/dev/null)" = mpi3mr ] && shost=$h
done
[ -n "$shost" ] || fail "no mpi3mr SCSI host"

# hattr NAME: the host attribute's value.
hattr() {
    [ -r "$shost/$1" ] || fail "no host attribute $1 in $shost"
    cat "$shost/$1"
}

echo "== host attributes"
qom_get /machine/peripheral/c0 firmware-version
# QOM: gen.minor.phase.minor-build; the driver: gen.minor.phase.minor.customer-build
want=$(echo "$QOM" | awk -F'[.-]' '{ printf "%d.%d.%d.%d.%05d-%05d", $1, $2, $3, $4, 0, $5 }')
assert_eq "version_fw" "$want" "$(hattr version_fw)"
assert_eq "fw_queue_depth (max-requests)" 1024 "$(hattr fw_queue_depth)"
assert_eq "op_req_q_count" "$(nproc)" "$(hattr op_req_q_count)"
assert_eq "reply_queue_count" "$(nproc)" "$(hattr reply_queue_count)"
assert_eq "reply_qfull_count" 0 "$(hattr reply_qfull_count)"
assert_eq "fwfault_count" 0 "$(hattr fwfault_count)"
assert_eq "adp_state (operational)" 1 "$(hattr adp_state)"
echo 0x10 > "$shost/logging_level" || fail "logging_level cannot be written"
assert_eq "logging_level" 00000010h "$(hattr logging_level)"
echo 0 > "$shost/logging_level"

echo "== device attributes"
# disk_of MODEL: the sysfs device of the disk whose model is MODEL.
disk_of() {
    local d t
    for t in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        for d in /sys/class/scsi_device/*/device; do
            if [ "$(cat "$d/model" 2>/dev/null | tr -d ' ')" = "$1" ]; then
                echo "$d"
                return 0
            fi
        done
        sleep 1
    done
    return 1
}
for spec in "j0 SYSFSSAS0 0" "j1 SYSFSSATA1 3"; do
    set -- $spec
    dev=$(disk_of "$2") || { lsscsi; fail "no disk with model $2"; }
    hctl=$(basename "$(readlink -f "$dev")")
    log "$1 ($2) is $hctl"
    handle=$((1 + $3))
    assert_eq "$1 device_handle" "$(printf '0x%04x' $handle)" \
        "$(cat "$dev/device_handle")"
    assert_eq "$1 persistent_id" $((handle - 1)) "$(cat "$dev/persistent_id")"
    tgt=$(echo "$hctl" | cut -d: -f3)
    assert_eq "$1 SCSI target id (its persistent id)" $((handle - 1)) "$tgt"
    qom_get "/machine/peripheral/$1" wwn
    assert_eq "$1 sas_address (its wwn)" "$(printf '0x%016x' "$QOM")" \
        "$(cat "$dev/sas_address")"
    assert_eq "$1 sas_ncq_prio_supported" 0 \
        "$(cat "$dev/sas_ncq_prio_supported")"
done
if echo 1 > "$dev/sas_ncq_prio_enable" 2>/dev/null; then
    fail "sas_ncq_prio_enable=1 taken for a drive without NCQ priority"
fi
assert_eq "j1 sas_ncq_prio_enable" 0 "$(cat "$dev/sas_ncq_prio_enable")"
check_dmesg
log "mpi3mr's host and device attributes read what the device reports"
