# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# megaraid-9600 with its drives on networked storage: a RAID 5 of four
# members and a global hot spare whose drives are NBD exports of a
# qemu-storage-daemon on a unix socket (the daemon opens the images; QEMU
# reaches them only over NBD).  The guest reads the data the host put on
# the VD, then, during fio verify, the link to one member is cut (QMP yank
# of its NBD connection): the member fails at its next I/O, the spare
# takes over and its rebuild, over NBD, completes; fio passes, and after a
# second member is set offline the VD still reads back what it held,
# through the rebuilt spare.  After the run the host checks what the
# daemon wrote: megaraid-img refuses the images while the daemon holds
# them, and once it has stopped reads the VD back (degraded, the spare
# online) with the guest's checksum.
#@ kernels 6.12
#@ timeout 900
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare bash tests/guest/tests/raid-nbd.sh --host-prepare @WORK@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ check bash tests/guest/tests/raid-nbd.sh --host-check @WORK@
# The controller's report of the member whose link was cut (slot 1).
#@ allow ^qemu-system-x86_64: warning: megaraid: drive in slot 1 failed \(I/O error\)$

NBD_DRIVES="n5-m0 n5-m1 n5-m2 n5-m3 n5-s0"

# ---- host part ----

# nbd_qsd: the path of qemu-storage-daemon ($QSD, or QEMU's build folder's,
# built there first when missing).
nbd_qsd() {
    local q=${QSD:-build/qemu/storage-daemon/qemu-storage-daemon}
    if [ ! -x "$q" ] && [ -z "${QSD:-}" ]; then
        scripts/build-qemu.sh storage-daemon/qemu-storage-daemon >&2 ||
            return 1
    fi
    [ -x "$q" ] || return 1
    echo "$q"
}

# nbd_run_pid: the run.sh this prepare belongs to (empty when run alone).
nbd_run_pid() {
    local p=$$
    while [ "$p" -gt 1 ]; do
        if tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null |
           grep -q 'tests/guest/run\.sh'; then
            echo "$p"
            return 0
        fi
        p=$(sed 's/.*) [A-Za-z] \([0-9]*\) .*/\1/' "/proc/$p/stat" 2>/dev/null) ||
            return 0
        [ -n "$p" ] || return 0
    done
}

if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-raid.sh
    work=$2
    raid_host_begin "$work"
    qsd=$(nbd_qsd) || rh_die "raid-nbd: no qemu-storage-daemon (scripts/build-qemu.sh storage-daemon/qemu-storage-daemon failed)"
    # (a unix socket path has at most 107 bytes)
    RAID_NBD_SOCKET=$work/nbd.sock
    [ ${#RAID_NBD_SOCKET} -lt 108 ] ||
        rh_die "raid-nbd: socket path $RAID_NBD_SOCKET is too long"
    # At 1 % the rebuild outlasts fio; the guest raises it after.
    raid_host_ctrl c-n5 rebuild-rate=1
    RAID_PREFILL=1 raid_host_group n5 raid5 nvme 4 1
    args=(--nbd-server "addr.type=unix,addr.path=$RAID_NBD_SOCKET")
    for id in $NBD_DRIVES; do
        args+=(--blockdev "driver=file,node-name=f-$id,filename=$work/$id.img"
               --export "type=nbd,id=e-$id,node-name=f-$id,name=$id,writable=on")
    done
    rm -f "$work/qsd.pid"
    "$qsd" "${args[@]}" --pidfile "$work/qsd.pid" --daemonize ||
        rh_die "raid-nbd: qemu-storage-daemon did not start"
    pid=$(cat "$work/qsd.pid")
    [ -S "$RAID_NBD_SOCKET" ] || rh_die "raid-nbd: no NBD socket $RAID_NBD_SOCKET"
    echo "raid-nbd: qemu-storage-daemon $pid serves $NBD_DRIVES on $RAID_NBD_SOCKET"
    # The daemon ends with the run (the check stops it when the guest
    # passed): a watcher stops it when run.sh has gone, or after 30 min.
    run=$(nbd_run_pid)
    (
        end=$((SECONDS + 1800))
        while [ $SECONDS -lt $end ] && kill -0 "$pid" 2>/dev/null &&
              { [ -z "$run" ] || kill -0 "$run" 2>/dev/null; }; do
            sleep 2
        done
        kill "$pid" 2>/dev/null || true
    ) < /dev/null > /dev/null 2>&1 &
    exit 0
fi

if [ "${1:-}" = --host-check ]; then
    set -euo pipefail
    work=$2
    . tests/guest/host-lib.sh
    host_part "raid-nbd --host-check"
    imgs=()
    for id in $NBD_DRIVES; do
        imgs+=("$work/$id.img")
    done
    pid=$(cat "$work/qsd.pid") || hfail "no $work/qsd.pid"
    kill -0 "$pid" || hfail "qemu-storage-daemon $pid has gone before the check"
    # The daemon holds the images: megaraid-img must keep off them.
    rc=0
    out=$("$img" fail -d "${imgs[2]}" "${imgs[@]}" 2>&1) || rc=$?
    echo "$out"
    [ $rc = 1 ] ||
        hfail "megaraid-img fail on images qemu-storage-daemon serves: status $rc, not 1"
    echo "$out" | grep -q "${imgs[0]}: Failed to get shared \"write\" lock" ||
        hfail "megaraid-img fail was refused without naming the image and the lock"
    kill "$pid"
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    ! kill -0 "$pid" 2>/dev/null || hfail "qemu-storage-daemon $pid did not stop"
    # What the daemon wrote: the controller's last configuration.
    "$img" show "${imgs[@]}"
    "$img" show --json "${imgs[@]}" > "$work/show.json" ||
        hfail "megaraid-img show failed"
    python3 - "$work/show.json" "$work" <<'EOF' || hfail "the images do not hold the configuration the guest left"
import json, sys
cfg = json.load(open(sys.argv[1]))
state = {d["file"].rsplit("/", 1)[-1]: d["state"] for d in cfg["drives"]
         if d["file"]}
vd = cfg["vds"][0]
want = {"n5-m0.img": ("offline", "unconfigured-bad"),
        "n5-m1.img": ("offline", "unconfigured-bad", "missing"),
        "n5-m2.img": ("online",), "n5-m3.img": ("online",),
        "n5-s0.img": ("online",)}
bad = [f"{f}: {state.get(f)}" for f, ok in want.items()
       if state.get(f) not in ok]
if vd["state"] != "degraded" or vd["job"]["kind"] != "none" or bad:
    print(f"VD {vd['state']}, job {vd['job']['kind']}; drives: {bad}")
    sys.exit(1)
print("raid-nbd: n5 degraded, n5-s0 online in n5-m1's place")
EOF
    want=$(sed -n 's/.*raid-nbd: n5 final md5 \([0-9a-f]\{32\}\).*/\1/p' "$work/serial.log" | tail -n 1)
    [ -n "$want" ] || hfail "the guest's final checksum is not in $work/serial.log"
    got=$("$img" read "${imgs[@]}" | md5sum | cut -d' ' -f1)
    [ "$got" = "$want" ] ||
        hfail "megaraid-img reads n5 as $got, the guest read $want"
    echo "raid-nbd: megaraid-img reads the VD the guest left ($got)"
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-raid.sh
. /mrsim/lib-mr9600.sh

need_driver mpi3mr
wait_vds 120
check_hidden c-n5
check_vd n5
expect_vd n5 state '^optimal$'
expect_drive n5-s0 state '^hot-spare$'
vd_sum n5
assert_eq "n5 over NBD holds the data the host wrote" \
    "$(vd_attr n5 prefill_md5)" "$SUM"
log "n5 reads the host's data over NBD"

# The link to n5-m1 is cut during fio verify (writes held to 768 KiB/s).
fio_start n5 24M --rate=,768k
sleep 2
qmp_ok '{"execute":"yank","arguments":{"instances":[{"type":"block-node","node-name":"nbd-n5-m1"}]}}'
log "NBD connection of n5-m1 cut (yank)"
st=online
for _ in $(seq 300); do
    drive_qom n5-m1 state
    st=$QOM
    [ "$st" = online ] || break
    sleep 0.2
done
assert_match "n5-m1 after its link was cut" '^(offline|unconfigured-bad)$' "$st"
log "n5-m1 failed: $st"
fio_running n5 || fail "fio on n5 ended before n5-m1 failed: make it longer"
expect_vd n5 state '^degraded$'
expect_vd n5 job '^rebuild$'
expect_drive n5-s0 state '^(rebuild|online)$'
fio_wait n5
vd_sum n5
sum0=$SUM
vd_qom n5 progress
log "n5: rebuild onto n5-s0 at $QOM%; rebuild-rate 1 -> 100"
qom_set /machine/peripheral/c-n5 rebuild-rate 100
wait_optimal 600 n5
expect_drive n5-s0 state '^online$'
expect_drive n5-s0 rebuild-progress '^-1$'
vd_sum n5
assert_eq "n5 after the rebuild over NBD" "$sum0" "$SUM"

# The rebuilt spare holds n5-m1's strips: lose another original member.
drive_set n5-m0 state '"offline"'
expect_vd n5 state '^degraded$'
vd_sum n5
assert_eq "n5 read through the rebuilt spare" "$sum0" "$SUM"
log "raid-nbd: n5 final md5 $SUM"
mr9600_driver_log ""
check_dmesg
