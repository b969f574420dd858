# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Shared by the mrcli guest tests (tests/mrcli-*.sh), on both sides:
#
# - host (the tests' --host-prepare, bash, in the checkout): a
#   megaraid-9600 or megaraid-9500 (the run's controller, $MRSIM_CTRL)
#   with blank drives in its bays (no configuration: the guest makes
#   everything with mrcli);
# - guest: running mrcli (from the image, /usr/sbin/mrcli) with its output
#   in the log, its JSON output between markers that the host check
#   (tests/guest/mrcli-json-check.py) validates against
#   tests/guest/mrcli.schema.json after the run, and values read from that
#   JSON (one "key" : value per line, one table row per line).

# ==== host side ====

# mrcli_host_prepare WORK IFACE N SIZE [CTRL-PROPERTIES]: a controller
# raid0 with N blank drives d0..dN-1 of SIZE in slots 0..N-1.  A test
# that needs nothing else on the host calls it from its header:
#   #@ prepare . tests/guest/lib-mrcli.sh; mrcli_host_prepare @WORK@ sas 3 64M
# (run.sh runs it under bash -euo pipefail; ';', not '&&', keeps -e on
# inside the function).
mrcli_host_prepare() {
    local work=$1 iface=$2 n=$3 size=$4 props=${5:-} i
    . tests/guest/lib-raid.sh
    raid_host_begin "$work"
    raid_host_ctrl raid0 "$props"
    for ((i = 0; i < n; i++)); do
        rm -f "$work/d$i.img"
        truncate -s "$size" "$work/d$i.img" ||
            rh_die "mrcli_host_prepare: truncate -s $size $work/d$i.img failed"
        raid_host_drive "d$i" "$iface"
    done
}

# ==== guest side ====

# The controller's helpers (ctrl_*, lib-raid.sh): what differs between
# mpi3mr's BSG node and megaraid_sas' ioctl node, and how each driver
# names a VD's disk.
# shellcheck disable=SC1091
[ -n "${RAID_MR:-}" ] || [ ! -f /mrsim/lib-raid.sh ] || . /mrsim/lib-raid.sh

# run_tool VAR COMMAND ARGS...: runs COMMAND ARGS, shows it and its output
# (stdout and stderr), which goes into the variable VAR; the test fails
# unless it succeeds.
run_tool() {
    local var=$1 rc=0 out
    shift
    echo "# $*"
    out=$("$@" 2>&1) || rc=$?
    printf -v "$var" '%s' "$out"
    echo "$out"
    [ $rc = 0 ] || fail "$* failed (exit status $rc)"
}

# mr ARGS...: runs mrcli ARGS, shows the command and its output; the test
# fails unless it succeeds.  MR_OUT is the output.
mr() {
    run_tool MR_OUT mrcli "$@"
}

# mr_refused STATUS ARGS...: mrcli ARGS must fail with exit status STATUS
# (1 refused by the controller, 2 usage error) and a Failure document.
mr_refused() {
    local want=$1 rc=0
    shift
    echo "# mrcli $*   (must fail with status $want)"
    MR_OUT=$(mrcli "$@" 2>&1) || rc=$?
    echo "$MR_OUT"
    [ $rc = "$want" ] || fail "mrcli $*: exit status $rc, expected $want"
    echo "$MR_OUT" | grep -q '^Status = Failure$' ||
        fail "mrcli $*: no 'Status = Failure' in the output"
}

MR_JSON_N=0

# mr_json ARGS...: runs mrcli ARGS J; the JSON goes to the log between
# "@@MRCLI-JSON-BEGIN <label>@@" and "@@MRCLI-JSON-END <label>@@" for the
# host's schema check, and into MR_JSON.  The test fails unless mrcli
# succeeds.  A label ending in "-refused" marks a document that must say
# "Failure" (mr_json_refused).
mr_json() {
    _mr_json ok 0 "$@"
}

# mr_json_refused STATUS ARGS...: as mr_json, but mrcli must fail with
# exit status STATUS.
mr_json_refused() {
    local want=$1
    shift
    _mr_json refused "$want" "$@"
}

_mr_json() {
    local kind=$1 want=$2 rc=0 label
    shift 2
    MR_JSON_N=$((MR_JSON_N + 1))
    label="$MR_JSON_N-$kind"
    echo "# mrcli $* J"
    MR_JSON=$(mrcli "$@" J 2>/tmp/mrcli.err) || rc=$?
    echo "@@MRCLI-JSON-BEGIN $label@@"
    echo "$MR_JSON"
    echo "@@MRCLI-JSON-END $label@@"
    cat /tmp/mrcli.err
    [ $rc = "$want" ] || fail "mrcli $* J: exit status $rc, expected $want"
    if [ "$kind" = ok ]; then
        echo "$MR_JSON" | grep -q '^"Status" : "Success",$' ||
            fail "mrcli $* J: Status is not Success"
    else
        echo "$MR_JSON" | grep -q '^"Status" : "Failure",$' ||
            fail "mrcli $* J: Status is not Failure"
    fi
}

# mr_json_log: puts MR_JSON (a document of a command that succeeded, run
# some other way, e.g. in the background) between the markers as mr_json
# does.
mr_json_log() {
    MR_JSON_N=$((MR_JSON_N + 1))
    echo "@@MRCLI-JSON-BEGIN $MR_JSON_N-ok@@"
    echo "$MR_JSON"
    echo "@@MRCLI-JSON-END $MR_JSON_N-ok@@"
}

# mr_prop KEY: the value of "KEY" : value (first one) in MR_JSON, without
# quotes.
mr_prop() {
    echo "$MR_JSON" | sed -n -e "s/^\"$1\" : \"\(.*\)\",\{0,1\}\$/\1/p" \
        -e "s/^\"$1\" : \([^\",]*\),\{0,1\}\$/\1/p" | head -n 1
}

# mr_cell ROW-MATCH COLUMN: the value of COLUMN in the first table row of
# MR_JSON that contains ROW-MATCH (a fixed string, e.g. '"DG/VD":"0/1"').
mr_cell() {
    echo "$MR_JSON" | grep -F "$1" | head -n 1 |
        grep -o "\"$2\":\(\"[^\"]*\"\|[0-9-]*\)" | head -n 1 |
        sed 's/^"[^"]*"://; s/^"//; s/"$//'
}

# mr_quiet ARGS...: mrcli ARGS J into MR_JSON without logging it (for
# polling); the test fails unless mrcli succeeds.
mr_quiet() {
    local rc=0
    MR_JSON=$(mrcli "$@" J 2>&1) || rc=$?
    if [ $rc != 0 ]; then
        echo "$MR_JSON"
        fail "mrcli $* J failed (exit status $rc)"
    fi
}

# mr_vd_state VD: sets MR_STATE to the VD's state (Optl, Dgrd, Pdgd, OfLn).
mr_vd_state() {
    mr_quiet "/c0/v$1" show
    MR_STATE=$(mr_cell '"DG/VD":"' State)
    [ -n "$MR_STATE" ] || { echo "$MR_JSON"; fail "no state of VD $1"; }
}

# mr_pd_state SLOT: sets MR_STATE to the drive's state (Onln, Offln,
# UGood, UBad, Rbld, GHS, DHS, JBOD, ...).
mr_pd_state() {
    mr_quiet "/c0/e0/s$1" show
    MR_STATE=$(mr_cell "\"EID:Slt\":\"0:$1\"" State)
    [ -n "$MR_STATE" ] || { echo "$MR_JSON"; fail "no state of drive $1"; }
}

# mr_vd_dev VD [SECONDS]: the VD's disk, from mrcli's "OS Drive Name",
# once the driver has added it (after 30 s, ctrl_vd_rescan: what a user
# of that driver would do); sets MR_DEV, and MR_HANDLE to what finds
# the disk again (ctrl_vd_key: mpi3mr's device handle, megaraid_sas'
# channel:target).  The disk must be the one the driver's own view names
# (ctrl_key_disk).
mr_vd_dev() {
    local t=$((${2:-60} * 2)) d n=0
    while [ $t -gt 0 ]; do
        n=$((n + 1))
        [ $n != 60 ] || ctrl_vd_rescan
        MR_JSON=$(mrcli "/c0/v$1" show all J 2>/dev/null) || true
        MR_DEV=$(mr_prop "OS Drive Name")
        if [ -n "$MR_DEV" ] && [ "$MR_DEV" != - ] && [ -b "$MR_DEV" ]; then
            MR_HANDLE=$(ctrl_vd_key "$1")
            d=$(ctrl_key_disk "$MR_HANDLE")
            assert_eq "disk of VD $1 ($MR_HANDLE) against mrcli's OS Drive Name" \
                "$MR_DEV" "$d"
            log "VD $1 is $MR_DEV ($MR_HANDLE)"
            return 0
        fi
        sleep 0.5
        t=$((t - 1))
    done
    lsscsi
    fail "VD $1 did not appear as a disk"
}

# mr_wait_gone KEY [SECONDS]: no disk is the one KEY (from mr_vd_dev)
# names any more (the deleted VD's; its /dev name may go to a drive
# exposed again).
mr_wait_gone() {
    local t=$((${2:-60} * 5))
    while [ -n "$(ctrl_key_disk "$1")" ]; do
        t=$((t - 1))
        [ $t -gt 0 ] || { lsscsi; fail "the disk of $1 is still there after the VD was deleted"; }
        sleep 0.2
    done
    log "the disk of $1 is gone"
}

# mr_pd_settle SLOT: if the controller exposes the drive (an
# unconfigured drive is a disk of the host), waits until the kernel has
# added its disk and reads its first sector: hiding it again (a hot spare,
# a rebuild onto it) while the kernel still probes it fails that probe.
mr_pd_settle() {
    local t=120 dev
    while :; do
        mr_quiet "/c0/e0/s$1" show all
        [ "$(mr_prop 'Exposed to OS')" = Yes ] || return 0
        dev=$(mr_prop 'OS Drive Name')
        if [ -b "$dev" ] && dd if="$dev" of=/dev/null bs=4k count=1 \
                iflag=direct 2>/dev/null; then
            log "drive $1 is $dev"
            return 0
        fi
        t=$((t - 1))
        [ $t -gt 0 ] || fail "drive $1 is exposed but has no disk after 60 s"
        sleep 0.5
    done
}

# mr_settle_all N: mr_pd_settle for slots 0..N-1.
mr_settle_all() {
    local i
    for ((i = 0; i < $1; i++)); do
        mr_pd_settle "$i"
    done
}

# The guest part's start: the controller's driver bound, the node mrcli
# talks through there (ctrl_mgmt_wait), and the first N drives settled as
# the host's disks.
mr_guest_start() {
    need_driver "$(ctrl_driver)"
    ctrl_mgmt_wait
    mr_settle_all "$1"
}

# mr_wait_vd_state VD STATE [SECONDS]
mr_wait_vd_state() {
    local t=${3:-600}
    while :; do
        mr_vd_state "$1"
        [ "$MR_STATE" != "$2" ] || return 0
        t=$((t - 1))
        [ $t -gt 0 ] || fail "VD $1 is $MR_STATE, not $2, after ${3:-600} s"
        sleep 1
    done
}
