# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The storcli lab of issue 22, written only in storcli commands (storcli2
# on megaraid-9600 / mpi3mr, storcli64 on megaraid-9500 / megaraid_sas):
# create a RAID 5 with a global hot spare, fail a member and watch the
# rebuild onto the spare to its end; the harness pulls the failed drive
# and puts a blank one into its bay (QMP device_del / device_add): the
# card copies the spare back onto it (watched with show copyback, paused
# and resumed), then the new drive is the member and the spare a spare
# again; the spare removed and copied onto by hand from a member
# (replace replacedrive=), which is then failed and its place taken by
# the drive that was replaced (insert dg= array= row=, a rebuild); locate
# a drive (start/stop, seen by QOM and query-megaraid); set
# the VD's cache policy; delete the VD.  What the guest wrote before the
# failure and during the copyback reads back at the end.  QOM confirms
# each storcli state on the device's side.
#@ controllers megaraid-9600 megaraid-9500
#@ kernels 6.12
#@ kernels@9500 6.12
#@ timeout 1500
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/storcli-lab.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ allow ^qemu-system-x86_64: warning: megaraid: drive in slot [13] failed \(set offline by the host\)$

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-mrcli.sh
    mrcli_host_prepare "$2" sas 4 64M
    raid_host_blank new1 64M
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-mrcli.sh

if ctrl_is 9500; then
    S=/usr/sbin/storcli64
else
    S=/usr/sbin/storcli2
fi
[ -x "$S" ] || fail "$S is not installed (build-image.sh)"
E=252

# st ARGS...: $S ARGS J must succeed; its JSON in ST_OUT.
st() {
    local rc=0
    echo "# $(basename "$S") $* J"
    ST_OUT=$("$S" "$@" J 2>&1) || rc=$?
    echo "$ST_OUT"
    [ $rc = 0 ] || fail "$(basename "$S") $* failed (exit status $rc)"
    case "$ST_OUT" in
    *'"Status":"Success"'*|*'"Status" : "Success"'*) ;;
    *) fail "$(basename "$S") $*: no Success status" ;;
    esac
}

# has TEXT: the last document holds TEXT (JSON, no spaces around ':')
has() {
    case "$ST_OUT" in
    *"$1"*) return 0 ;;
    esac
    return 1
}

# job_status JOB SLOT: JS to the Status of "show JOB" (rebuild, copyback)
# of the drive
job_status() {
    st "/c0/e$E/s$2" show "$1"
    JS=$(echo "$ST_OUT" | sed -n 's/.*"Status":"\(In progress\|Paused\|Waiting\|Not in progress\)".*/\1/p' | head -1)
    [ -n "$JS" ] || fail "show $1 of slot $2: no Status row"
}

# wait_job_end JOB SLOT: until "show JOB" of the drive is not in progress
# (at most 600 s)
wait_job_end() {
    local t=600

    while job_status "$1" "$2"; [ "$JS" != "Not in progress" ]; do
        t=$((t - 1))
        [ $t -gt 0 ] || fail "the $1 of $E:$2 did not end"
        sleep 1
    done
}

# scsi_settle: until the guest's set of SCSI disks has not changed for
# 3 s (at most 30 s).  A drive that becomes unconfigured good is a JBOD
# disk on the 9500 (megaraid_sas scans it in and reads its partition
# table): using it in an array before that is over fails the scan's reads,
# which the log scan would rightly count as I/O errors.
scsi_settle() {
    local t=0 same=0 last="" now

    while [ $same -lt 3 ] && [ $t -lt 30 ]; do
        now=$(ls /sys/class/scsi_disk 2>/dev/null | tr '\n' ' ')
        if [ "$now" = "$last" ]; then
            same=$((same + 1))
        else
            same=0
            last=$now
        fi
        sleep 1
        t=$((t + 1))
    done
}

mr_guest_start 4
CTRL=/machine/peripheral/raid0
qom_get "$CTRL" copyback
assert_eq "the controller's copyback (default)" true "$QOM"

echo "== create a RAID 5 over 252:0-2, a global hot spare 252:3"
st /c0 show
st /c0 set rebuildrate=5
st /c0 add vd type=raid5 drives=$E:0-2
st "/c0/e$E/s3" add hotsparedrive
st /c0/v0 show
has '"Optl"' || fail "the new VD is not optimal"
expect_drive d3 state '^hot-spare$'
mr_vd_dev 0
DEV=$MR_DEV
dd if=/dev/urandom of=/tmp/a bs=1M count=8 2>/dev/null
dd if=/tmp/a of="$DEV" bs=1M oflag=direct 2>/dev/null || fail "write to $DEV"
dd if=/dev/urandom of=/tmp/b bs=1M count=4 2>/dev/null

echo "== fail 252:1: the spare is rebuilt in its place"
st "/c0/e$E/s1" set offline
st /c0/v0 show
has '"Dgrd"' || fail "VD 0 is not degraded after the failure"
job_status rebuild 3
assert_eq "rebuild of 252:3" "In progress" "$JS"
expect_drive d3 state '^rebuild$'
st /c0 set rebuildrate=100
wait_job_end rebuild 3
st /c0/v0 show
has '"Optl"' || fail "VD 0 is not optimal after the rebuild"
expect_drive d3 state '^online$'
expect_drive d1 state '^unconfigured-bad$'

echo "== replace 252:1: pulled, a blank drive in its bay: copyback"
st /c0 set rebuildrate=2
qmp_ok '{"execute":"device_del","arguments":{"id":"d1"}}'
drive_gone d1
# a new drive: its own serial number and WWN (one with the failed
# drive's identity would be that drive back, still unconfigured bad)
qmp_ok '{"execute":"device_add","arguments":{"driver":"megaraid-drive","id":"new1","bus":"raid0.0","slot":1,"drive":"b-new1","interface":"sas","serial":"LABNEW0001","wwn":5764607523034234881}}'
t=120
while :; do
    drive_qom new1 state
    [ "$QOM" = copyback ] && break
    t=$((t - 1))
    [ $t -gt 0 ] || fail "the new drive is $QOM, not copyback"
    sleep 0.5
done
job_status copyback 1
assert_eq "copyback onto 252:1" "In progress" "$JS"
job_status copyback 3
assert_eq "copyback from 252:3" "In progress" "$JS"
st "/c0/e$E/s1" show
has '"Cpybck"' || has '"Copyback"' || fail "252:1 is not shown in copyback"
# written while the copy runs: must be on the new drive too
dd if=/tmp/b of="$DEV" bs=1M seek=20 oflag=direct 2>/dev/null ||
    fail "write to $DEV during the copyback"
st "/c0/e$E/s1" pause copyback
job_status copyback 1
assert_eq "copyback paused" "Paused" "$JS"
st "/c0/e$E/s1" resume copyback
job_status copyback 1
[ "$JS" != Paused ] || fail "the copyback is still paused after resume"
st /c0 set rebuildrate=100
wait_job_end copyback 1
expect_drive new1 state '^online$'
expect_drive d3 state '^hot-spare$'
st "/c0/e$E/s3" show
has '"GHS"' || fail "252:3 is not a global hot spare again"
st /c0/v0 show
has '"Optl"' || fail "VD 0 is not optimal after the copyback"
qom_get "$CTRL" vd0-job
assert_eq "VD 0's job" none "$QOM"
dd if="$DEV" of=/tmp/a2 bs=1M count=8 iflag=direct 2>/dev/null ||
    fail "read of $DEV"
dd if="$DEV" of=/tmp/b2 bs=1M skip=20 count=4 iflag=direct 2>/dev/null ||
    fail "read of $DEV"
cmp /tmp/a /tmp/a2 ||
    fail "VD 0 does not read back what was written before the failure"
cmp /tmp/b /tmp/b2 ||
    fail "VD 0 does not read back what was written during the copyback"

echo "== replace by hand: 252:3 (the spare, removed) takes 252:0's place"
st "/c0/e$E/s3" delete hotsparedrive
expect_drive d3 state '^unconfigured-good$'
scsi_settle
st "/c0/e$E/s0" replace replacedrive=$E:3
job_status copyback 3
[ "$JS" != "Not in progress" ] || expect_drive d3 state '^online$'
wait_job_end copyback 3
expect_drive d3 state '^online$'
expect_drive d0 state '^unconfigured-good$'
scsi_settle
st /c0/v0 show
has '"Optl"' || fail "VD 0 is not optimal after the replace"
st "/c0/e$E/s0" show
has '"UGood"' || has '"UConf"' ||
    fail "252:0 is not unconfigured-good after the replace"

echo "== insert: 252:3 fails, 252:0 goes into its place and is rebuilt"
st /c0 show all
row=$(echo "$ST_OUT" | sed -n "s/.*\"Row\":\([0-9]*\),\"EID:Slot\":\"$E:3\".*/\1/p" |
      head -1)
[ -n "$row" ] || fail "no row of 252:3 in the TOPOLOGY table"
st "/c0/e$E/s3" set offline
st /c0/v0 show
has '"Dgrd"' || fail "VD 0 is not degraded after 252:3 failed"
st "/c0/e$E/s0" insert dg=0 array=0 row="$row"
wait_job_end rebuild 0
expect_drive d0 state '^online$'
st /c0/v0 show
has '"Optl"' || fail "VD 0 is not optimal after the insert's rebuild"
dd if="$DEV" of=/tmp/a3 bs=1M count=8 iflag=direct 2>/dev/null ||
    fail "read of $DEV"
cmp /tmp/a /tmp/a3 ||
    fail "VD 0 does not read back after the replace and the insert"

echo "== locate 252:2"
st "/c0/e$E/s2" start locate
expect_drive d2 locate '^true$'
qmp_call '{"execute":"query-megaraid"}'
case "$QMP_REPLY" in
*'"locate": true'*) ;;
*) fail "query-megaraid shows no drive locating: $QMP_REPLY" ;;
esac
st "/c0/e$E/s2" stop locate
expect_drive d2 locate '^false$'
qmp_call '{"execute":"query-megaraid"}'
case "$QMP_REPLY" in
*'"locate": true'*) fail "query-megaraid still shows a drive locating" ;;
esac

echo "== cache policy, then delete"
st /c0/v0 set wrcache=wt rdcache=nora
has '"WT"' || fail "set wrcache=wt: not WT"
qom_get "$CTRL" vd0-write-policy
assert_match "VD 0 write policy" '^write-through$' "$QOM"
st /c0/v0 set name=lab5
has '"lab5"' || fail "set name=lab5: not in the reply"
st /c0/v0 show
has '"lab5"' || fail "/c0/v0 show: the name lab5 is not there"
st /c0/v0 del force
t=60
while [ -b "$DEV" ] && [ -n "$(ctrl_key_disk "$MR_HANDLE")" ]; do
    t=$((t - 1))
    [ $t -gt 0 ] || fail "the disk of VD 0 is still there"
    sleep 1
done
st /c0 show
log "storcli lab done"
