# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Shared by the RAID tests (tests/raid-*.sh, mrcli-*.sh, mr9500-*.sh),
# on both sides:
#
# - host (the tests' --host-prepare, bash, in the checkout): drive groups
#   made with megaraid-img, the QEMU arguments that put them behind
#   megaraid-9600 or megaraid-9500 controllers (phase 1) or on virtio-scsi
#   for mdadm (phase 2), and /mrsim/raid-layout, which tells the guest
#   what to expect;
# - guest (run.sh packs this file into the initramfs): the VDs as SCSI
#   disks, QMP over the relay's serial port (qom-get/qom-set, SIGKILL of
#   QEMU), values carried to the next phase, parallel fio, checksums.
#
# The controller under test is $MRSIM_CTRL (run.sh --controller, from a
# test's "#@ controllers" line; megaraid-9600 when unset).  What differs
# between the controllers' drivers (driver name, its log, the VDs'
# INQUIRY product) is a function of lib-mr9600.sh / lib-mr9500.sh,
# reached through the ctrl_* functions below.
#
# Layout file, one line per controller or VD, key=value words:
#   ctrl c1 pci=0000:00:10.0
#   vd r5 ctrl=c1 index=0 level=raid5 bytes=N strip=65536 spans=1
#       members=r5-m0,r5-m1,r5-m2 spares=r5-s0 iface=nvme
#       [prefill_md5=MD5: the host filled the VD with this data]
# Drive NAME-mI / NAME-sJ is QOM /machine/peripheral/NAME-mI on the
# controller's bus, backed by -drive id=b-NAME-mI (image NAME-mI.img).

# ==== host side ====
#
# The host functions run in the tests' --host-prepare branches, which set
# errexit; all the same each step checks its own result and ends the
# prepare command with "raid host: WHAT failed" (rh_die), so that no
# failure depends on the caller's shell options.

# rh_die MESSAGE...: a host step failed; ends the prepare command.
rh_die() {
    echo "raid host: $*" >&2
    exit 1
}

# raid_host_begin WORK: starts the QEMU argument files
# (WORK/qemu-all.args for every phase, qemu-p1.args, qemu-p2.args) and the
# layout file.
raid_host_begin() {
    RH_WORK=$1
    RH_LAYOUT=$1/cpio/mrsim/raid-layout
    [ -d "$RH_WORK/cpio/mrsim" ] ||
        rh_die "raid_host_begin: no folder $RH_WORK/cpio/mrsim (run.sh makes it)"
    RH_IMG=$(tests/guest/host-megaraid-img.sh) ||
        rh_die "raid_host_begin: no megaraid-img (tests/guest/host-megaraid-img.sh failed)"
    : > "$RH_WORK/qemu-all.args"
    : > "$RH_WORK/qemu-p1.args"
    : > "$RH_WORK/qemu-p2.args"
    : > "$RH_LAYOUT"
    RH_ADDR=16
    RH_VSCSI=0
}

# raid_host_pel_tool: builds tests/guest/pel-tool.c statically into the
# guest's /mrsim (after raid_host_begin).
raid_host_pel_tool() {
    cc -static -O2 -Wall -Werror -Itools/mrcli \
        -o "$RH_WORK/cpio/mrsim/pel-tool" tests/guest/pel-tool.c \
        tools/mrcli/bsg.c || rh_die "cannot build pel-tool"
}

# raid_host_ctrl ID [PROPERTIES]: a $RAID_CTRL_TYPE (default: the run's
# controller, $MRSIM_CTRL, else megaraid-9600) at the next PCI slot of
# pcie.0 (from 10h); the groups that follow go behind it.
raid_host_ctrl() {
    local pci
    [ -n "${RH_WORK:-}" ] || rh_die "raid_host_ctrl $1: raid_host_begin first"
    pci=$(printf '0000:00:%02x.0' "$RH_ADDR")
    printf -- '-device %s,id=%s,addr=0x%x%s\n' \
        "${RAID_CTRL_TYPE:-${MRSIM_CTRL:-megaraid-9600}}" "$1" "$RH_ADDR" \
        "${2:+,$2}" >> "$RH_WORK/qemu-p1.args"
    echo "ctrl $1 pci=$pci" >> "$RH_LAYOUT"
    RH_ADDR=$((RH_ADDR + 1))
    RH_CTRL=$1
    RH_SLOT=0
    RH_VDS=0
}

# raid_host_state_drive NODE FILE SIZE: the controller's own state (its
# journal=, event-log= or config-nvram=) on a raw, sparse FILE of SIZE
# (truncate(1) sizes; made when missing, blank: the controller formats
# it), the -blockdev node NODE, in every phase (qemu-p1.args, which the
# kill tests' phase 2 reuses, so that it finds what phase 1 left).  The
# property's value is NODE.
raid_host_state_drive() {
    [ -n "${RH_WORK:-}" ] || rh_die "raid_host_state_drive $1: raid_host_begin first"
    [ -f "$2" ] || truncate -s "$3" "$2" ||
        rh_die "raid_host_state_drive $1: cannot make $2 ($3)"
    echo "-blockdev driver=raw,node-name=$1,file.driver=file,file.filename=$2" \
        >> "$RH_WORK/qemu-p1.args"
}

# raid_host_drive ID IFACE: -drive b-ID on ID.img (every phase) and a
# megaraid-drive ID in the next slot of the current controller (phase 1).
# With $RAID_NBD_SOCKET set, b-ID is instead the NBD export named ID on
# that unix socket (its protocol node nbd-ID), which the test serves from
# ID.img (tests/raid-nbd.sh starts qemu-storage-daemon).
raid_host_drive() {
    [ -f "$RH_WORK/$1.img" ] || rh_die "raid_host_drive $1: no image $RH_WORK/$1.img"
    if [ -n "${RAID_NBD_SOCKET:-}" ]; then
        echo "-drive if=none,id=b-$1,format=raw,file.driver=nbd,file.server.type=unix,file.server.path=$RAID_NBD_SOCKET,file.export=$1,file.node-name=nbd-$1" \
            >> "$RH_WORK/qemu-all.args"
    else
        echo "-drive if=none,id=b-$1,format=raw,file=$RH_WORK/$1.img" \
            >> "$RH_WORK/qemu-all.args"
    fi
    echo "-device megaraid-drive,id=$1,bus=$RH_CTRL.0,slot=$RH_SLOT,drive=b-$1,interface=$2" \
        >> "$RH_WORK/qemu-p1.args"
    RH_SLOT=$((RH_SLOT + 1))
}

# raid_host_prefill NAME BYTES IMAGE...: fills VD 0 of the images (BYTES
# long) with random data through megaraid-img and reads it all back: the
# VD must hold exactly that data (never zeros left by a write that did
# nothing).  Sets RH_PREFILL_MD5 to the data's MD5 (as vd_sum computes
# it in the guest).
raid_host_prefill() {
    local name=$1 bytes=$2 data back got rc
    shift 2
    data=$RH_WORK/$name.prefill
    back=$RH_WORK/$name.prefill-back
    rm -f "$data" "$back"
    head -c "$bytes" /dev/urandom > "$data" ||
        rh_die "raid_host_group $name: prefill: no random data"
    got=$(stat -c %s "$data")
    [ "$got" = "$bytes" ] ||
        rh_die "raid_host_group $name: prefill: $got bytes of random data, not $bytes"
    rc=0
    "$RH_IMG" write -i "$data" "$@" || rc=$?
    [ $rc = 0 ] ||
        rh_die "raid_host_group $name: prefill: megaraid-img write failed (status $rc)"
    rc=0
    "$RH_IMG" read -O "$back" "$@" || rc=$?
    [ $rc = 0 ] ||
        rh_die "raid_host_group $name: prefill: megaraid-img read failed (status $rc)"
    cmp -s "$data" "$back" ||
        rh_die "raid_host_group $name: prefill: the VD does not read back the $bytes bytes written"
    RH_PREFILL_MD5=$(md5sum < "$data" | cut -d' ' -f1)
    [ ${#RH_PREFILL_MD5} = 32 ] ||
        rh_die "raid_host_group $name: prefill: md5sum of the data failed"
    rm -f "$data" "$back"
    echo "raid_host_group $name: prefilled with $bytes random bytes, read back identical"
}

# raid_host_group NAME LEVEL IFACE MEMBERS SPARES [SPANS] [create options]:
# a drive group of MEMBERS drives (NAME-m0...) and SPARES global hot
# spares (NAME-s0...) of $RAID_DRIVE_SIZE (default 32M), strip 64 KiB,
# with one VD named NAME filling it (with random data, checked, if
# $RAID_PREFILL is set); its drives go behind the current controller, in
# slot order members then spares.
raid_host_group() {
    local name=$1 level=$2 iface=$3 nm=$4 ns=$5 spans=${6:-} out sectors
    local i members=() spares=() spare_opts=() mlist="" slist="" rc prefill
    shift 5
    [ $# -eq 0 ] || shift
    [ -n "${RH_CTRL:-}" ] || rh_die "raid_host_group $name: raid_host_ctrl first"
    for ((i = 0; i < nm; i++)); do
        members+=("$RH_WORK/$name-m$i.img")
        mlist="$mlist,$name-m$i"
    done
    for ((i = 0; i < ns; i++)); do
        spares+=("$RH_WORK/$name-s$i.img")
        spare_opts+=(--hot-spare "$RH_WORK/$name-s$i.img")
        slist="$slist,$name-s$i"
    done
    rc=0
    out=$("$RH_IMG" create -l "$level" -s 64 ${spans:+--spans "$spans"} \
          --drive-size "${RAID_DRIVE_SIZE:-32M}" -n "$name" \
          ${spare_opts[@]+"${spare_opts[@]}"} "$@" "${members[@]}") || rc=$?
    echo "$out"
    [ $rc = 0 ] ||
        rh_die "raid_host_group $name: megaraid-img create -l $level failed (status $rc)"
    sectors=$(echo "$out" | sed -n 's/^created VD .* \([0-9][0-9]*\) sectors$/\1/p')
    [ -n "$sectors" ] || rh_die "raid_host_group $name: no VD size in '$out'"
    prefill=""
    if [ -n "${RAID_PREFILL:-}" ]; then
        raid_host_prefill "$name" $((sectors * 512)) "${members[@]}" \
            ${spares[@]+"${spares[@]}"}
        prefill=" prefill_md5=$RH_PREFILL_MD5"
    fi
    for ((i = 0; i < nm; i++)); do
        raid_host_drive "$name-m$i" "$iface"
    done
    for ((i = 0; i < ns; i++)); do
        raid_host_drive "$name-s$i" "$iface"
    done
    echo "vd $name ctrl=$RH_CTRL index=$RH_VDS level=$level" \
         "bytes=$((sectors * 512)) strip=65536 spans=${spans:-0}" \
         "members=${mlist#,} spares=${slist#,} iface=$iface$prefill" \
         >> "$RH_LAYOUT"
    RH_VDS=$((RH_VDS + 1))
}

# raid_host_blank ID SIZE: a blank image with its -drive b-ID (for a
# device_add of a replacement drive).
raid_host_blank() {
    rm -f "$RH_WORK/$1.img"
    truncate -s "$2" "$RH_WORK/$1.img" ||
        rh_die "raid_host_blank $1: truncate -s $2 failed"
    echo "-drive if=none,id=b-$1,format=raw,file=$RH_WORK/$1.img" \
        >> "$RH_WORK/qemu-all.args"
}

# raid_host_members NAME: the member drive IDs of VD NAME in the layout
# file, one a line.
raid_host_members() {
    local line
    line=$(grep "^vd $1 " "$RH_LAYOUT") ||
        rh_die "raid_host_members $1: no VD $1 in $RH_LAYOUT"
    line=${line#* members=}
    line=${line%% *}
    [ -n "$line" ] || rh_die "raid_host_members $1: VD $1 has no members"
    echo "$line" | tr ',' '\n'
}

# raid_host_virtio ID...: in phase 2 the drive images ID.img are SCSI
# disks with serial ID on a virtio-scsi controller (for mdadm).
raid_host_virtio() {
    local id
    [ $# -gt 0 ] || rh_die "raid_host_virtio: no drives given"
    if [ "$RH_VSCSI" = 0 ]; then
        echo "-device virtio-scsi-pci,id=vscsi" >> "$RH_WORK/qemu-p2.args"
        RH_VSCSI=1
    fi
    for id in "$@"; do
        [ -f "$RH_WORK/$id.img" ] || rh_die "raid_host_virtio $id: no image $RH_WORK/$id.img"
        echo "-device scsi-hd,bus=vscsi.0,drive=b-$id,serial=$id" \
            >> "$RH_WORK/qemu-p2.args"
    done
}

# ==== guest side ====

RAID_LAYOUT=/mrsim/raid-layout

# ---- the controller under test ----

RAID_CTRL=${MRSIM_CTRL:-megaraid-9600}
RAID_MR=mr${RAID_CTRL#megaraid-}
# Its helpers (mr9600_*, mr9500_*), in the guest.
# shellcheck disable=SC1090
[ ! -f "/mrsim/lib-$RAID_MR.sh" ] || . "/mrsim/lib-$RAID_MR.sh"

# ctrl_is N: the run's controller is megaraid-N.
ctrl_is() {
    [ "$RAID_CTRL" = "megaraid-$1" ]
}

# ctrl_driver: the Linux driver of the controller (mpi3mr, megaraid_sas).
ctrl_driver() {
    "${RAID_MR}_driver"
}

# ctrl_driver_log [ALLOW-ERE]: the driver finished its bring-up and logged
# no failure but lines matching ALLOW-ERE.
ctrl_driver_log() {
    "${RAID_MR}_driver_log" "$@"
}

# ctrl_mgmt_wait: the node mrcli reaches the controller through is there
# (mpi3mr's BSG node; megaraid_sas' ioctl node mrcli makes itself).
ctrl_mgmt_wait() {
    "${RAID_MR}_mgmt_wait"
}

# ctrl_vd_key VD: after mrcli "/c0/vVD show all" (MR_JSON), what names VD
# VD's disk in the driver's own view; ctrl_key_disk KEY: that disk, or
# nothing.
ctrl_vd_key() {
    "${RAID_MR}_vd_key" "$@"
}
ctrl_key_disk() {
    "${RAID_MR}_key_disk" "$@"
}

# ctrl_vd_rescan: a VD made through mrcli is no disk after 30 s: what a
# user of the driver would do then (megaraid_sas: a SCSI host scan, said
# in the log; mpi3mr: nothing, the wait goes on).
ctrl_vd_rescan() {
    "${RAID_MR}_vd_rescan"
}

# ctrl_vd_vendor / ctrl_vd_product: the INQUIRY vendor and product of
# the controller's VDs (its default model's).
ctrl_vd_vendor() {
    "${RAID_MR}_vd_vendor"
}
ctrl_vd_product() {
    "${RAID_MR}_vd_product"
}

# layout_attr KIND NAME KEY: a value from the layout file.
layout_attr() {
    grep "^$1 $2 " "$RAID_LAYOUT" | tr ' ' '\n' | sed -n "s/^$3=//p"
}

vd_names() {
    sed -n 's/^vd \([^ ]*\) .*/\1/p' "$RAID_LAYOUT"
}

# vd_attr NAME KEY; vd_member NAME I; vd_spare NAME I
vd_attr() {
    layout_attr vd "$1" "$2"
}
vd_member() {
    vd_attr "$1" members | cut -d, -f$(($2 + 1))
}
vd_spare() {
    vd_attr "$1" spares | cut -d, -f$(($2 + 1))
}

# ---- QMP through the relay's port (run.sh "#@ qmp") ----

# The port stays open for the whole test: every open of a 16550 clears its
# FIFO, and the replies must arrive in order.  (Only in the guest, where
# /init sets MRSIM_TOKEN.)
RAID_QMP=0
if [ -n "${MRSIM_TOKEN:-}" ] && [ -c /dev/ttyS1 ] &&
   exec 7<>/dev/ttyS1 2>/dev/null; then
    if stty 115200 raw -echo <&7 2>/dev/null; then
        RAID_QMP=1
    else
        exec 7<&-
    fi
fi

# qmp_call JSON-OBJECT: sends a QMP command through the relay and sets
# QMP_REPLY to its reply (one line of JSON); fails the test when no reply
# comes within 60 s.
qmp_call() {
    local n id line
    [ "$RAID_QMP" = 1 ] ||
        fail "no QMP port (/dev/ttyS1): the test needs '#@ qmp'"
    n=$(($(cat /tmp/qmp-seq 2>/dev/null || echo 0) + 1))
    echo "$n" > /tmp/qmp-seq
    id="g$n"
    printf '%s\n' "${1%\}},\"id\":\"$id\"}" >&7
    while IFS= read -r -t 60 line <&7; do
        case "$line" in
        *"\"id\": \"$id\""*) QMP_REPLY=$line; return 0 ;;
        esac
    done
    fail "no QMP reply to $1"
}

# qom_get PATH PROPERTY: sets QOM to the value (a string without quotes,
# or a number); fails the test on an error reply.
qom_get() {
    qmp_call "{\"execute\":\"qom-get\",\"arguments\":{\"path\":\"$1\",\"property\":\"$2\"}}"
    case "$QMP_REPLY" in
    *'"error": '*) fail "qom-get $1 $2: $QMP_REPLY" ;;
    *'"return": "'*)
        QOM=${QMP_REPLY#*'"return": "'}
        QOM=${QOM%%\"*}
        ;;
    *'"return": '*)
        QOM=${QMP_REPLY#*'"return": '}
        QOM=${QOM%%[,\}]*}
        ;;
    *) fail "qom-get $1 $2: $QMP_REPLY" ;;
    esac
}

# qom_set PATH PROPERTY JSON-VALUE: fails the test on an error reply.
qom_set() {
    qmp_call "{\"execute\":\"qom-set\",\"arguments\":{\"path\":\"$1\",\"property\":\"$2\",\"value\":$3}}"
    case "$QMP_REPLY" in
    *'"error": '*) fail "qom-set $1 $2=$3: $QMP_REPLY" ;;
    *'"return": {}'*) log "qom-set $1 $2=$3" ;;
    *) fail "qom-set $1 $2=$3: $QMP_REPLY" ;;
    esac
}

# qom_set_refused PATH PROPERTY JSON-VALUE: the device must refuse it.
qom_set_refused() {
    qmp_call "{\"execute\":\"qom-set\",\"arguments\":{\"path\":\"$1\",\"property\":\"$2\",\"value\":$3}}"
    case "$QMP_REPLY" in
    *'"error": '*) log "qom-set $1 $2=$3 refused: $QMP_REPLY" ;;
    *) fail "qom-set $1 $2=$3 was accepted: $QMP_REPLY" ;;
    esac
}

# qmp_ok JSON-OBJECT: a command that must succeed.
qmp_ok() {
    qmp_call "$1"
    case "$QMP_REPLY" in
    *'"error": '*) fail "QMP $1: $QMP_REPLY" ;;
    *'"return": '*) ;;
    *) fail "QMP $1: $QMP_REPLY" ;;
    esac
}

# qemu_kill: the relay kills QEMU with SIGKILL; never returns.
qemu_kill() {
    [ "$RAID_QMP" = 1 ] || fail "no QMP port: qemu_kill needs '#@ qmp'"
    log "asking the host to kill QEMU with SIGKILL"
    printf '%s\n' '{"execute":"mrsim-kill"}' >&7
    sleep 60
    fail "QEMU is still running 60 s after the kill request"
}

# carry NAME VALUE: NAME=VALUE in the next phases' environment (run.sh
# "#@ phases"; VALUE without ' and @).
carry() {
    echo "@@MRSIM-CARRY $MRSIM_TOKEN $1=$2@@"
}

# ---- the controller's objects ----

# vd_qom NAME PROPERTY: QOM of the VD's controller property vdN-PROPERTY.
vd_qom() {
    qom_get "/machine/peripheral/$(vd_attr "$1" ctrl)" \
        "vd$(vd_attr "$1" index)-$2"
}

# drive_qom ID PROPERTY / drive_set ID PROPERTY JSON-VALUE
drive_qom() {
    qom_get "/machine/peripheral/$1" "$2"
}
drive_set() {
    qom_set "/machine/peripheral/$1" "$2" "$3"
}

# expect_vd NAME PROPERTY EXTENDED-REGEX
expect_vd() {
    vd_qom "$1" "$2"
    assert_match "VD $1 $2" "$3" "$QOM"
}

# expect_drive ID PROPERTY EXTENDED-REGEX
expect_drive() {
    drive_qom "$1" "$2"
    assert_match "drive $1 $2" "$3" "$QOM"
}

# drive_insert ID CTRL SLOT IFACE: device_add of megaraid-drive ID (backed
# by -drive b-ID, e.g. from raid_host_blank) in SLOT of controller CTRL.
drive_insert() {
    qmp_ok "{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"megaraid-drive\",\"id\":\"$1\",\"bus\":\"$2.0\",\"slot\":$3,\"drive\":\"b-$1\",\"interface\":\"$4\"}}"
    log "drive $1 inserted in slot $3 of $2 ($4)"
}

# drive_gone ID [SECONDS]: waits until the drive's QOM object is gone
# (after device_del).
drive_gone() {
    local t=$((${2:-60} * 5))
    while [ $t -gt 0 ]; do
        qmp_call "{\"execute\":\"qom-get\",\"arguments\":{\"path\":\"/machine/peripheral/$1\",\"property\":\"type\"}}"
        case "$QMP_REPLY" in
        *'"error": '*) log "drive $1 is gone"; return 0 ;;
        esac
        sleep 0.2
        t=$((t - 1))
    done
    fail "drive $1 still exists after device_del"
}

# wait_optimal SECONDS NAME...: every VD named is optimal with no job;
# prints the state, job and progress of those that are not every 5 s.
wait_optimal() {
    local limit=$1 start now last=0 n pending
    shift
    start=$(cut -d. -f1 /proc/uptime)
    while :; do
        pending=""
        for n in "$@"; do
            vd_qom "$n" state
            local st=$QOM
            vd_qom "$n" job
            local job=$QOM
            if [ "$st" != optimal ] || [ "$job" != none ]; then
                pending="$pending $n"
                now=$(cut -d. -f1 /proc/uptime)
                if [ $((now - last)) -ge 5 ]; then
                    vd_qom "$n" progress
                    log "VD $n: $st, job $job, $QOM%"
                fi
            fi
        done
        now=$(cut -d. -f1 /proc/uptime)
        [ $((now - last)) -lt 5 ] || last=$now
        [ -n "$pending" ] || break
        [ $((now - start)) -lt "$limit" ] ||
            fail "VDs not optimal after ${limit}s:$pending"
        sleep 1
    done
    log "VDs optimal: $*"
}

# ---- the VDs as SCSI disks ----

# ctrl_disks CTRL: the /dev/sdX behind controller CTRL, in target order,
# one a line as "TARGET /dev/sdX".
ctrl_disks() {
    local pci b path hctl
    pci=$(layout_attr ctrl "$1" pci)
    for b in /sys/block/sd*; do
        [ -e "$b" ] || continue
        path=$(readlink -f "$b/device")
        case "$path" in */"$pci"/*) ;; *) continue ;; esac
        hctl=${path##*/}
        echo "$(echo "$hctl" | cut -d: -f3) /dev/${b##*/}"
    done | sort -n
}

# vd_disk NAME: the VD's disk, the index-th disk of its controller
# (nothing while there is none).
vd_disk() {
    ctrl_disks "$(vd_attr "$1" ctrl)" |
        sed -n "$(($(vd_attr "$1" index) + 1))s/^[0-9]* //p"
}

# wait_vds [SECONDS]: every VD of the layout is a disk (vd_disk); the map
# goes to /tmp/raid-devs for vd_dev.
wait_vds() {
    wait_named VDs vd_names vd_disk /tmp/raid-devs "${1:-}"
}

# vd_dev NAME: /dev/sdX of the VD (after wait_vds).
vd_dev() {
    sed -n "s/^$1 //p" /tmp/raid-devs
}

# vd_data_drives NAME: drives holding data in one row (all spans).
vd_data_drives() {
    local n spans w
    n=$(vd_attr "$1" members | tr ',' '\n' | wc -l)
    spans=$(vd_attr "$1" spans)
    [ "$spans" != 0 ] || spans=1
    case "$(vd_attr "$1" level)" in
    raid10) spans=$((n / 2)) ;;
    esac
    w=$((n / spans))
    case "$(vd_attr "$1" level)" in
    raid0) echo "$n" ;;
    raid1) echo 1 ;;
    raid10) echo "$spans" ;;
    raid5|raid50) echo $(((w - 1) * spans)) ;;
    raid6|raid60) echo $(((w - 2) * spans)) ;;
    esac
}

# check_vd NAME: the VD's disk is a virtual disk of the card (INQUIRY
# vendor RAID_VENDOR, product RAID_PRODUCT; default the controller's,
# ctrl_vd_vendor and ctrl_vd_product: BROADCOM MR9670W-16i, DELL PERC
# H755N Front)
# of the expected size whose block limits give the full stripe as optimal
# transfer length.
check_vd() {
    local dev inq v p bytes bl otl want di
    dev=$(vd_dev "$1")
    [ -n "$dev" ] || fail "VD $1 has no disk"
    inq=$(sg_inq "$dev") || fail "sg_inq $dev (VD $1) failed"
    v=$(echo "$inq" | sed -n 's/^ *Vendor identification: *//p' | trim)
    p=$(echo "$inq" | sed -n 's/^ *Product identification: *//p' | trim)
    assert_eq "INQUIRY vendor of VD $1 ($dev)" "${RAID_VENDOR:-$(ctrl_vd_vendor)}" "$v"
    assert_eq "INQUIRY product of VD $1 ($dev)" "${RAID_PRODUCT:-$(ctrl_vd_product)}" "$p"
    bytes=$(blockdev --getsize64 "$dev")
    assert_eq "size of VD $1 ($dev)" "$(vd_attr "$1" bytes)" "$bytes"
    bl=$(blockdev --getss "$dev")
    otl=$(sg_vpd -p bl "$dev" 2>/dev/null |
          sed -n 's/^ *Optimal transfer length: *\([0-9]*\).*/\1/p')
    # The full stripe; none for RAID 1 (no striping); one strip when a
    # full stripe exceeds the 1 MiB the controller moves per request.
    want=$(($(vd_attr "$1" strip) * $(vd_data_drives "$1")))
    [ "$want" -le 1048576 ] || want=$(vd_attr "$1" strip)
    [ "$(vd_attr "$1" level)" != raid1 ] || want=0
    want=$((want / bl))
    assert_eq "optimal transfer length of VD $1 ($dev, blocks)" "$want" "$otl"
    # Device Identification: sg3_utils' strict parser takes the volume's
    # name without complaint, and it is a 16-byte NAA 6 (600605b...).
    di=$(sg_vpd -p di "$dev" 2>&1) || fail "sg_vpd -p di $dev (VD $1) failed"
    if echo "$di" | grep -qiE 'unexpected|malformed|bad |error|truncat'; then
        echo "$di"
        fail "sg_vpd complains about the identification page of VD $1 ($dev)"
    fi
    echo "$di" | grep -qE '^ +0x600605b[0-9a-f]{25}$' || {
        echo "$di"; fail "VD $1 ($dev) has no 16-byte NAA 6 name"; }
    log "VD $1 = $dev: $v $p, $(vd_attr "$1" level), $bytes bytes, full stripe $otl blocks"
}

# check_hidden CTRL: the controller shows its VDs and nothing else (array
# members and hot spares are hidden).
check_hidden() {
    local want got
    want=$(grep -c "^vd .* ctrl=$1 " "$RAID_LAYOUT")
    got=$(ctrl_disks "$1" | wc -l)
    [ "$got" = "$want" ] || { lsscsi; fail "controller $1 shows $got disks, not its $want VDs"; }
}

# vd_sum NAME [MIB]: sets SUM to the MD5 (quicker than SHA-256 under TCG)
# of the VD's first MIB MiB (default: all of it), read with O_DIRECT;
# fails on a read error.
vd_sum() {
    local dev rc
    dev=$(vd_dev "$1")
    if [ -n "${2:-}" ]; then
        SUM=$({ dd if="$dev" bs=1M count="$2" iflag=direct 2>/tmp/sum.err
                echo $? > /tmp/sum.rc; } | md5sum | cut -d' ' -f1)
    else
        SUM=$({ dd if="$dev" bs=1M iflag=direct 2>/tmp/sum.err
                echo $? > /tmp/sum.rc; } | md5sum | cut -d' ' -f1)
    fi
    rc=$(cat /tmp/sum.rc)
    [ "$rc" = 0 ] || { cat /tmp/sum.err; fail "reading VD $1 ($dev) failed"; }
}

# fio_start NAME SIZE [ARGS...]: fio random write + crc32c verify of the
# VD's first SIZE in the background (see fio_wait).
fio_start() {
    local n=$1 sz=$2
    shift 2
    ( fio_verify "$(vd_dev "$n")" "$sz" "$@" > "/tmp/fio-$n.out" 2>&1
      echo $? > "/tmp/fio-$n.rc" ) &
    echo $! > "/tmp/fio-$n.pid"
    rm -f "/tmp/fio-$n.rc"
}

# fio_running NAME: its fio has not finished yet.
fio_running() {
    [ ! -f "/tmp/fio-$1.rc" ]
}

# fio_wait NAME...: each fio passed: exit 0, no error, no verify mismatch.
fio_wait() {
    local n
    wait
    for n in "$@"; do
        sed "s/^/[$n] /" "/tmp/fio-$n.out"
        assert_eq "fio verify on VD $n: exit status" 0 "$(cat "/tmp/fio-$n.rc" 2>/dev/null)"
    done
    log "fio verify passed on: $*"
}

# sd_wce DEV: the WCE bit of the caching mode page, from MODE SENSE(6)
# with block descriptors disabled, as the device answers now.
sd_wce() {
    local bytes hdr off
    bytes=$(sg_modes -6 -d -p 8 -r "$1" 2>/dev/null | od -An -v -tu1 | tr -s ' \n' '  ')
    [ -n "$bytes" ] || fail "MODE SENSE of the caching page of $1 failed"
    # shellcheck disable=SC2086
    set -- $bytes
    hdr=$4                      # block descriptor length
    off=$((4 + hdr + 2 + 1))    # 1-based: flags byte of the page
    eval "echo \$(( (\${$off} >> 2) & 1 ))"
}

# ==== the drive failure scenario (raid-fail-offline, raid-fail-pull) ====

# RAID 1/5/6/10/50/60 with global hot spares, one controller per group
# (members, then spares, in slots from 0), and which members fail first
# and second: one (two for RAID 6/60, in the same span), then different
# original members whose data can only come from the drives rebuilt
# first (the RAID 1/10 mirror partner, the same RAID 5/6 span).
FAIL_VDS="f1 f5 f6 f10 f50 f60"
# On megaraid-9500 the RAID 1 and RAID 5 only, the two groups its former
# copy of the pull test ran: with six megaraid-9500 controllers probing at
# once, CI saw megaraid_sas wait in vain for an INQUIRY's reply once
# (docs/megaraid-9500.md, "Not there yet").
if [ "${MRSIM_CTRL:-}" = megaraid-9500 ]; then
    FAIL_VDS="f1 f5"
fi
fail_first() {
    case "$1" in f6|f60) echo "0 1" ;; *) echo 0 ;; esac
}
fail_second() {
    case "$1" in f6|f60) echo "2 3" ;; *) echo 1 ;; esac
}

# raid_host_fail_groups: the groups above, behind controllers c-NAME
# whose rebuild rate starts at 1 %, so that the rebuilds run alongside
# fio and their states can be seen (at the default 30 % a 32 MiB drive
# rebuilds in a fraction of a second); copyback off: a blank drive put
# into a bay a spare took over stays unconfigured (storcli-lab has the
# copyback).
raid_host_fail_groups() {
    local r=rebuild-rate=1,copyback=off RAID_PREFILL=1 n
    for n in $FAIL_VDS; do
        raid_host_ctrl "c-$n" $r
        case $n in
        f1)  raid_host_group f1 raid1 nvme 2 1 ;;
        f5)  raid_host_group f5 raid5 nvme 3 1 ;;
        f6)  raid_host_group f6 raid6 sas 4 2 ;;
        f10) raid_host_group f10 raid10 nvme 4 1 ;;
        f50) raid_host_group f50 raid50 sas 6 1 2 ;;
        f60) raid_host_group f60 raid60 nvme 8 2 2 ;;
        esac
    done
}

# fail_drive METHOD ID: "offline" (qom-set state) or "pull" (device_del).
fail_drive() {
    case "$1" in
    offline) drive_set "$2" state '"offline"' ;;
    pull)
        qmp_ok "{\"execute\":\"device_del\",\"arguments\":{\"id\":\"$2\"}}"
        drive_gone "$2"
        ;;
    esac
}

# expect_failed METHOD ID: the drive is out of the array.
expect_failed() {
    [ "$1" = pull ] || expect_drive "$2" state '^(offline|unconfigured-bad)$'
}

# raid_fail_test METHOD: during fio verify on every VD, members fail
# (first round); fio passes, the hot spares take over and the rebuilds
# finish; then different original members fail (second round) and every
# VD still reads exactly what it held.
raid_fail_test() {
    local m=$1 n i d st
    for n in $FAIL_VDS; do
        check_hidden "$(vd_attr "$n" ctrl)"
        check_vd "$n"
        expect_vd "$n" state '^optimal$'
        for i in 0 1; do
            d=$(vd_spare "$n" $i)
            [ -z "$d" ] || expect_drive "$d" state '^hot-spare$'
        done
    done

    # First round, under fio (writes held to 768 KiB/s: 32 s or more, while
    # the drives fail).  Each VD's fio starts just before its drives fail,
    # so that however slow the host makes the QMP calls of the VDs before
    # it, it is still running then.
    for n in $FAIL_VDS; do
        fio_start "$n" 24M --rate=,768k
        sleep 1
        # shellcheck disable=SC2046
        set -- $(fail_first "$n")
        fail_drive "$m" "$(vd_member "$n" "$1")"
        if [ $# = 2 ]; then
            expect_vd "$n" state '^partially-degraded$'
            fail_drive "$m" "$(vd_member "$n" "$2")"
        fi
        fio_running "$n" ||
            fail "fio on $n ended before its drives failed: make it longer"
        # (at 1 % even a RAID 1 takes seconds to rebuild)
        expect_vd "$n" state '^degraded$'
        expect_vd "$n" job '^rebuild$'
    done
    for n in $FAIL_VDS; do
        for i in $(fail_first "$n"); do
            expect_failed "$m" "$(vd_member "$n" "$i")"
        done
        for i in 0 1; do
            d=$(vd_spare "$n" $i)
            [ -z "$d" ] || expect_drive "$d" state '^(rebuild|online)$'
        done
    done
    # shellcheck disable=SC2086
    fio_wait $FAIL_VDS
    # Read everything (most rebuilds still run), then let them finish.
    for n in $FAIL_VDS; do
        vd_sum "$n"
        eval "SUM0_$n=$SUM"
    done
    for n in $FAIL_VDS; do
        vd_qom "$n" progress
        log "VD $n: rebuild at $QOM%; rebuild-rate 1 -> 100"
        qom_set "/machine/peripheral/$(vd_attr "$n" ctrl)" rebuild-rate 100
    done
    # shellcheck disable=SC2086
    wait_optimal 600 $FAIL_VDS
    for n in $FAIL_VDS; do
        for i in 0 1; do
            d=$(vd_spare "$n" $i)
            [ -z "$d" ] || expect_drive "$d" state '^online$'
            [ -z "$d" ] || expect_drive "$d" rebuild-progress '^-1$'
        done
    done
    log "first round ($m): fio passed, the spares are rebuilt"

    # Second round: the rebuilt drives must hold the right data.
    for n in $FAIL_VDS; do
        for i in $(fail_second "$n"); do
            fail_drive "$m" "$(vd_member "$n" "$i")"
        done
        expect_vd "$n" state '^degraded$'
        vd_sum "$n"
        assert_eq "VD $n read through its rebuilt drives" "$(eval echo "\$SUM0_$n")" "$SUM"
    done
    log "second round ($m): every VD reads back through its rebuilt drives"
}
