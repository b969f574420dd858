# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# Helper library for guest test scripts (sourced by /init before
# /mrsim/test.sh; bash, whose PATH finds the real tools before busybox's
# applets: keep scripts POSIX sh all the same).  Assertions print what failed and end the
# test; the generic disk checks take the expected disks from /mrsim/disks,
# which tests/guest/run.sh writes from the test's "#@ disk" lines, one disk
# a line as key=value words:
#   name=d0 size=67108864 vendor=MRSIM product=DISK0 serial=SN0 pattern=1
# pattern=1: the disk is backed 1:1 by an image that run.sh filled with
# tests/guest/mkdisk.py's pattern (each 512-byte sector starts with
# "MRSIM-DISK <name> LBA <12-digit lba>").

MRSIM_DISKS=/mrsim/disks
# Variables from run.sh --env.
# shellcheck disable=SC1091
[ ! -f /mrsim/env ] || . /mrsim/env

log() {
    echo "[$(cut -d' ' -f1 /proc/uptime)] $*"
}

# fail MESSAGE...: the test has failed; ends the test script.
fail() {
    echo "FAIL: $*"
    exit 1
}

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() {
    [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}

# assert_match WHAT EXTENDED-REGEX ACTUAL
assert_match() {
    echo "$3" | grep -qE "$2" || fail "$1: '$3' does not match /$2/"
}

# assert_cmd DESCRIPTION COMMAND...: the command succeeds (its output is
# shown when it does not).
assert_cmd() {
    _desc=$1
    shift
    if ! _out=$("$@" 2>&1); then
        echo "$_out" | tail -n 40
        fail "$_desc: '$*' failed"
    fi
}

trim() {
    sed 's/^[[:space:]]*//; s/[[:space:]]*$//'
}

# md_stop DESC DEV: mdadm --stop DEV; retried for up to 5 s while md says
# the array is still in use (a reader that just closed it, such as
# e2fsck, can hold it a moment longer: "md: mdN still in use").
md_stop() {
    _i=0
    until _out=$(mdadm --stop "$2" 2>&1); do
        _i=$((_i + 1))
        if [ $_i -ge 10 ]; then
            echo "$_out" | tail -n 40
            fail "$1: 'mdadm --stop $2' failed"
        fi
        sleep 0.5
    done
}

# ---- modules and PCI drivers ----

# need_modules MODULE...: loads modules the image holds but does not load
# at boot (md_mod raid0 raid1 raid10 raid456).
need_modules() {
    assert_cmd "loading modules $*" modprobe -a "$@"
}

# need_driver DRIVER: at least one device (PCI, virtio, ...) is bound to
# DRIVER.
need_driver() {
    for _f in /sys/bus/*/drivers/"$1"/*; do
        if [ -L "$_f" ] && [ -e "$_f/driver" ]; then
            log "driver $1 bound to ${_f##*/}"
            return 0
        fi
    done
    lspci -nnk
    fail "no device bound to driver $1"
}

# ---- expected disks ----

disk_names() {
    sed -n 's/^name=\([^ ]*\).*/\1/p' "$MRSIM_DISKS"
}

# disk_attr NAME KEY: the expected value, empty if not given.
disk_attr() {
    grep "^name=$1 " "$MRSIM_DISKS" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# scsi_serial DEV: the unit serial number (VPD page 0x80) through SG_IO,
# empty if none.
scsi_serial() {
    sg_vpd -p sn "$1" 2>/dev/null | sed -n 's/^ *Unit serial number: *//p' |
        trim
}

# sysfs_serial SYSBLOCKDIR: the same from the kernel's copy of the page
# (cheap; used to find disks).
sysfs_serial() {
    [ -r "$1/device/vpd_pg80" ] || return 0
    tail -c +5 "$1/device/vpd_pg80" | tr -d '\000' | trim
}

# disk_dev NAME: prints /dev/sdX of the expected disk NAME, matched by
# serial when the disk line gives one, else by vendor, product and size.
# Returns 1 when no disk matches.  Once wait_disks has found every disk it
# answers from its map.
disk_dev() {
    if [ -f /tmp/mrsim-devs ]; then
        sed -n "s/^$1 //p" /tmp/mrsim-devs
        return 0
    fi
    _serial=$(disk_attr "$1" serial)
    _vendor=$(disk_attr "$1" vendor)
    _product=$(disk_attr "$1" product)
    _size=$(disk_attr "$1" size)
    for _b in /sys/block/sd*; do
        [ -e "$_b" ] || continue
        if [ -n "$_serial" ]; then
            [ "$(sysfs_serial "$_b")" = "$_serial" ] || continue
        else
            [ -z "$_vendor" ] || [ "$(trim < "$_b/device/vendor")" = "$_vendor" ] || continue
            [ -z "$_product" ] || [ "$(trim < "$_b/device/model")" = "$_product" ] || continue
            [ -z "$_size" ] || [ "$(($(cat "$_b/size") * 512))" = "$_size" ] || continue
        fi
        echo "/dev/${_b##*/}"
        return 0
    done
    return 1
}

# disks_only NAMES...: the expected disks are just these (drives pulled
# or inserted at run time).
disks_only() {
    : > /tmp/disks
    for _n in "$@"; do
        grep "^name=$_n " /mrsim/disks >> /tmp/disks
    done
    MRSIM_DISKS=/tmp/disks
}

# disk_gone NAME: wait until disk NAME has disappeared (60 s).
disk_gone() {
    rm -f /tmp/mrsim-devs       # disk_dev's cache of the disk map
    _t=300
    while disk_dev "$1" > /dev/null; do
        _t=$((_t - 1))
        [ $_t -gt 0 ] || { lsscsi; dmesg | tail -n 30; fail "disk $1 still present"; }
        sleep 0.2
    done
    log "disk $1 removed"
}

# disk_io_done DEV: requests the kernel completed on DEV (reads + writes).
disk_io_done() {
    awk '{ print $1 + $5 }' "/sys/block/${1#/dev/}/stat"
}

# wait_io_flowing DEV LOG: wait (60 s) until requests complete on DEV (a
# fio started in the background is under way); fails printing the file
# LOG (the fio's output) if none do.  A writer whose exit status is in
# LOG.rc already (mr9600_fio_start's) has run and ended: a short fio on a
# fast disk can finish while another disk's wait goes on; its caller's
# check reads the status.
wait_io_flowing() {
    _t=0
    while :; do
        [ ! -e "$2.rc" ] || return 0
        _a=$(disk_io_done "$1")
        sleep 0.5
        [ "$(disk_io_done "$1")" -le "$_a" ] || break
        _t=$((_t + 1))
        [ $_t -lt 120 ] || { cat "$2"; fail "fio did not start I/O on $1"; }
    done
}

# virtio_dev SERIAL: the virtio disk with that serial.
virtio_dev() {
    for _b in /sys/block/vd*; do
        if [ "$(cat "$_b/serial" 2>/dev/null)" = "$1" ]; then
            echo "/dev/${_b##*/}"
            return 0
        fi
    done
    ls /sys/block
    fail "no virtio disk with serial $1"
}

# qmp_send JSON: have the host send a QMP command (run.sh's "#@ qmp"
# relay), without waiting for its answer.
qmp_send() {
    echo "@@MRSIM-QMP $MRSIM_TOKEN $*@@"
}

# wait_named WHAT LIST FIND MAP [SECONDS]: every name the command LIST
# prints has a device, the one the command "FIND NAME" prints (nothing,
# or a failure, while it has none), within SECONDS (default 60); then the
# file MAP (removed first) holds a "NAME DEVICE" line a name and the log
# says "WHAT present: ...".  Else the test fails naming the missing ones.
wait_named() {
    rm -f "$4"
    _wt=$((${5:-60} * 5))
    while [ $_wt -gt 0 ]; do
        _wmissing=""
        _wmap=""
        for _wn in $($2); do
            if _wd=$($3 "$_wn") && [ -n "$_wd" ]; then
                _wmap="$_wmap$_wn $_wd
"
            else
                _wmissing="$_wmissing $_wn"
            fi
        done
        if [ -z "$_wmissing" ]; then
            printf '%s' "$_wmap" > "$4"
            log "$1 present: $(echo "$_wmap" | tr "\n" " ")"
            return 0
        fi
        sleep 0.2
        _wt=$((_wt - 1))
    done
    lsscsi -s
    fail "$1 not found:$_wmissing"
}

# wait_disks [SECONDS]: every expected disk has appeared (default 60 s).
wait_disks() {
    wait_named disks disk_names disk_dev /tmp/mrsim-devs "${1:-}"
}

# check_pattern NAME DEV: the sectors at the start, middle and end read
# back the image's known content.
check_pattern() {
    _sectors=$(($(blockdev --getsize64 "$2") / 512))
    for _lba in 0 1 $((_sectors / 2)) $((_sectors - 1)); do
        _want=$(printf 'MRSIM-DISK %s LBA %012d' "$1" "$_lba")
        _got=$(dd if="$2" bs=512 skip="$_lba" count=1 2>/dev/null | head -n 1)
        assert_eq "$1 ($2) content of LBA $_lba" "$_want" "$_got"
    done
}

# check_disk NAME: the disk NAME as seen through lsscsi, sg_inq, sg_readcap
# and sg_vpd agrees with its expected size, vendor, product and serial, and
# with the image's content when pattern=1.
check_disk() {
    _dev=$(disk_dev "$1") || fail "disk $1 not found"
    _vendor=$(disk_attr "$1" vendor)
    _product=$(disk_attr "$1" product)
    _serial=$(disk_attr "$1" serial)
    _size=$(disk_attr "$1" size)

    _l=$(lsscsi | tr '\t' ' ' | grep " $_dev *\$") ||
        { lsscsi; fail "lsscsi does not list $_dev"; }
    assert_match "lsscsi line of $_dev" '^\[[0-9]+:[0-9]+:[0-9]+:[0-9]+\] +disk ' "$_l"
    [ -z "$_vendor" ] || assert_match "lsscsi vendor of $_dev" " $_vendor " "$_l"
    [ -z "$_product" ] || assert_match "lsscsi product of $_dev" " $_product " "$_l"

    _inq=$(sg_inq "$_dev") || fail "sg_inq $_dev failed"
    _v=$(echo "$_inq" | sed -n 's/^ *Vendor identification: *//p' | trim)
    _p=$(echo "$_inq" | sed -n 's/^ *Product identification: *//p' | trim)
    [ -z "$_vendor" ] || assert_eq "sg_inq vendor of $_dev" "$_vendor" "$_v"
    [ -z "$_product" ] || assert_eq "sg_inq product of $_dev" "$_product" "$_p"
    [ -z "$_serial" ] || assert_eq "VPD serial of $_dev" "$_serial" "$(scsi_serial "$_dev")"

    _cap=$(sg_readcap "$_dev") || fail "sg_readcap $_dev failed"
    _blocks=$(echo "$_cap" | sed -n 's/.*Number of logical blocks=\([0-9]*\).*/\1/p')
    _bl=$(echo "$_cap" | sed -n 's/.*Logical block length=\([0-9]*\) bytes.*/\1/p')
    if [ -z "$_blocks" ] || [ -z "$_bl" ]; then
        echo "$_cap"
        fail "cannot parse sg_readcap $_dev"
    fi
    if [ -n "$_size" ]; then
        assert_eq "sg_readcap size of $_dev" "$_size" "$((_blocks * _bl))"
        assert_eq "block device size of $_dev" "$_size" "$(blockdev --getsize64 "$_dev")"
    fi
    [ "$(disk_attr "$1" pattern)" != 1 ] || check_pattern "$1" "$_dev"
    log "disk $1 = $_dev: $_v $_p serial '$_serial' $((_blocks * _bl)) bytes ok"
}

check_disks() {
    for _n in $(disk_names); do
        check_disk "$_n"
    done
}

# ---- I/O ----

# fio_run NAME ARGS...: runs fio with ARGS on top of direct libaio I/O and
# fails the test if fio fails or reports an error.
fio_run() {
    _name=$1
    shift
    _out=$(fio --name="$_name" --direct=1 --ioengine=libaio \
               --output-format=normal "$@" 2>&1)
    _rc=$?
    if [ $_rc -ne 0 ] || ! echo "$_out" | grep -q 'err= 0'; then
        echo "$_out" | tail -n 40
        fail "fio $_name ($*) failed, rc=$_rc"
    fi
    echo "$_out" | grep -E '^ *(read|write):' | sed "s/^ */fio $_name: /"
}

# fio_verify DEV [SIZE] [ARGS...]: random writes of 4K-64K blocks with
# crc32c verification of everything written (default 16M).
fio_verify() {
    _dev=$1
    _sz=${2:-16M}
    shift
    [ $# -eq 0 ] || shift
    fio_run verify --filename="$_dev" --rw=randwrite --bsrange=4k-64k \
        --iodepth=16 --size="$_sz" --verify=crc32c --verify_fatal=1 \
        --do_verify=1 "$@"
}

# fs_roundtrip DEV: mkfs.ext4, mount, write a file, remount with cold
# caches and compare its checksum, then e2fsck finds the filesystem clean.
fs_roundtrip() {
    assert_cmd "mkfs.ext4 $1" mkfs.ext4 -q -F "$1"
    mkdir -p /mnt/fs
    assert_cmd "mount $1" mount -t ext4 "$1" /mnt/fs
    dd if=/dev/urandom of=/tmp/fs-src bs=64k count=64 2>/dev/null
    _sum=$(sha256sum < /tmp/fs-src)
    cp /tmp/fs-src /mnt/fs/file || fail "writing a file to ext4 on $1"
    assert_cmd "umount $1" umount /mnt/fs
    echo 3 > /proc/sys/vm/drop_caches
    assert_cmd "remount $1" mount -t ext4 "$1" /mnt/fs
    assert_eq "checksum of the file on $1 after remount" "$_sum" \
        "$(sha256sum < /mnt/fs/file)"
    assert_cmd "umount $1" umount /mnt/fs
    assert_cmd "e2fsck $1" e2fsck -fn "$1"
    rm -f /tmp/fs-src
    log "ext4 round trip on $1 ok"
}

# host_expect NAME DEV: asks run.sh to check, after the guest is gone, that
# the image of disk NAME holds exactly what the guest reads from DEV.
host_expect() {
    sync
    echo 3 > /proc/sys/vm/drop_caches
    _bytes=$(blockdev --getsize64 "$2")
    _sum=$(sha256sum < "$2" | cut -d' ' -f1)
    echo "@@MRSIM-HOSTCHECK $MRSIM_TOKEN $1 $_bytes $_sum@@"
}

# ---- kernel log ----

# shellcheck disable=SC2120
# check_dmesg [ALLOWED-EXTENDED-REGEX]: the kernel logged no warning,
# oops, I/O error, command timeout, abort, error recovery or controller
# fault (lines matching the optional regex are allowed).  For a check at a
# point of the test; whatever the test calls, tests/guest/run.sh scans the
# whole kernel log (init's dmesg dump) after the guest is gone, with the
# test's "#@ allow" lines only.
check_dmesg() {
    _bad='WARNING:|BUG:|Oops|Call Trace|general protection|UBSAN|KASAN|segfault|I/O error|Buffer I/O|critical (medium|target|space|nexus) error|EXT4-fs (error|warning)|timing out command|timed out|tag#[0-9]+ (abort|timeout)|task abort|Device offlined|rejecting I/O|error recovery|hung_task|blocked for more than|[Oo]ut of memory|(^|[^a-z])fault(ed)?([^a-z]|$)|FAULT'
    _hits=$(dmesg | grep -E "$_bad" | grep -vE "${1:-^\$}")
    if [ -n "$_hits" ]; then
        echo "$_hits" | tail -n 40
        fail "kernel log has warnings or errors"
    fi
    log "kernel log clean"
}

# driver_log NAME LINES-ERE BAD-ERE ALLOW-ERE DONE-ERE...: the kernel log's
# lines of driver NAME (those matching LINES-ERE, any case) have a line
# matching each DONE-ERE (its bring-up finished) and none matching BAD-ERE
# (any case) unless it matches ALLOW-ERE; printed with a "dmesg: " prefix.
driver_log() {
    _dl_name=$1 _dl_bad=$3 _dl_allow=$4
    _m=$(dmesg | grep -iE "$2")
    shift 4
    for _dl_done in "$@"; do
        echo "$_m" | grep -qE "$_dl_done" ||
            { echo "$_m"; fail "$_dl_name never logged '$_dl_done'"; }
    done
    _bad=$(echo "$_m" | grep -iE "$_dl_bad" | grep -vE "$_dl_allow")
    [ -z "$_bad" ] || { echo "$_m"; fail "$_dl_name logged errors: $_bad"; }
    echo "$_m" | sed 's/^/dmesg: /'
    log "$_dl_name log clean"
}

# wait_dmesg GOOD-ERE BAD-ERE SECONDS WHAT: waits until a kernel log line
# matches GOOD-ERE; fails at once (with the storage drivers' last lines)
# when one matches BAD-ERE, and after SECONDS.  WAITED: the tenths of a
# second it waited.
wait_dmesg() {
    WAITED=0
    until dmesg | grep -qE "$1"; do
        if dmesg | grep -qE "$2"; then
            dmesg | grep -iE 'megaraid_sas|megasas|mpi3mr|sd [0-9]' |
                tail -n 40
            fail "while waiting for $4: $(dmesg | grep -E "$2" | tail -n 1)"
        fi
        WAITED=$((WAITED + 1))
        [ "$WAITED" -lt $(($3 * 10)) ] ||
            { dmesg | tail -n 40; fail "no $4 within $3 s"; }
        sleep 0.1
    done
}

# ---- composed checks ----

# scsi_baseline DRIVER: the baseline every SCSI-presenting controller
# passes with image-backed disks: DRIVER binds, every expected disk shows
# up with its identity and size, fio with crc32c verification passes on
# each, ext4 round trip on the first, the images hold what the guest reads,
# and the kernel log stays clean.
scsi_baseline() {
    need_driver "$1"
    wait_disks 60
    check_disks
    for _n in $(disk_names); do
        fio_verify "$(disk_dev "$_n")" "${MRSIM_FIO_SIZE:-16M}"
    done
    fs_roundtrip "$(disk_dev "$(disk_names | head -n 1)")"
    for _n in $(disk_names); do
        [ "$(disk_attr "$_n" pattern)" != 1 ] ||
            host_expect "$_n" "$(disk_dev "$_n")"
    done
    check_dmesg ""
}
