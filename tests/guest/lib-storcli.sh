# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The guest side of the storcli tests (tests/storcli-v1.sh, storcli v1's
# storcli64 on a megaraid-9500; tests/storcli-v2.sh, storcli2 on a
# megaraid-9600): one scenario, run in either dialect.  mrcli, installed
# as the dialect's tool, makes a RAID 5 over the three drives and is run
# with every command line the prometheus-node-exporter-collectors
# collector (storcli.py) runs, in three states (optimal; drive 1 failed,
# degraded, no spare; drive 1 rebuilding), between markers the host's
# storcli-replay.py reads.  What differs between the dialects is in
# storcli_dialect.

# shellcheck source=tests/guest/lib-mrcli.sh
. /mrsim/lib-mrcli.sh

# storcli_dialect v1|v2: the dialect's tool and the lines only it prints.
#   ST_TOOL       the tool as the collector finds it
#   ST_NAME       its name in the log
#   ST_CTRL_ROW   the start of controller 0's row in "show J"
#   ST_LEVELS     the name of "/c0 show all"'s line of RAID levels
#   ST_PD_FAILED  drive 1's row in "/c0/e252/s1 show J" once it failed
storcli_dialect() {
    case "$1" in
    v1)
        ST_TOOL=/opt/MegaRAID/storcli/storcli64
        ST_CTRL_ROW='{"Ctl":0,"Model":"[^"-][^"]*"'
        ST_LEVELS="RAID Level Supported"
        ST_PD_FAILED='"EID:Slt":"252:1","DID":[0-9]*,"State":"Offln"'
        ;;
    v2)
        ST_TOOL=/opt/MegaRAID/storcli2/storcli2
        ST_CTRL_ROW='{"Ctrl":0,"Product Name":"[^"-][^"]*"'
        ST_LEVELS="Supported RAID Levels"
        ST_PD_FAILED='"EID:Slt":"252:1","PID":[0-9]*,"State":"Conf","Status":"Offline"'
        ;;
    *) fail "storcli_dialect: no dialect '$1' (v1 or v2)" ;;
    esac
    ST_NAME=${ST_TOOL##*/}
}

# st ARGS...: the dialect's tool with ARGS must succeed; its output in
# ST_OUT.
st() {
    local rc=0
    echo "# $ST_NAME $*"
    ST_OUT=$("$ST_TOOL" "$@" 2>&1) || rc=$?
    echo "$ST_OUT"
    [ $rc = 0 ] || fail "$ST_NAME $* failed (exit status $rc)"
}

# st_has PATTERN MESSAGE: the last st's output has a line matching the
# grep PATTERN, or the test fails with MESSAGE.
st_has() {
    echo "$ST_OUT" | grep -q "$1" || fail "$2"
}

# storcli_capture STATE: the collector's command lines, as it builds
# them, between the markers of STATE.
storcli_capture() {
    local cmd rc out
    for cmd in "/cALL show all J" "/cALL/eALL/sALL show all J"; do
        rc=0
        # shellcheck disable=SC2086
        out=$("$ST_TOOL" $cmd nolog 2>/dev/null) || rc=$?
        [ $rc = 0 ] || fail "$ST_NAME $cmd nolog: exit status $rc"
        echo "@@STORCLI-BEGIN $1|$cmd nolog@@"
        echo "$out"
        echo "@@STORCLI-END@@"
        # the same document for the schema check
        MR_JSON=$out
        mr_json_log
    done
}

# storcli_vd_state: the state of VD 0 in "/c0/v0 show J"
storcli_vd_state() {
    "$ST_TOOL" /c0/v0 show J | sed -n 's/.*"DG\/VD":"0\/0","TYPE":"[^"]*","State":"\([A-Za-z]*\)".*/\1/p'
}

# storcli_scenario v1|v2: the whole guest side of tests/storcli-DIALECT.sh.
storcli_scenario() {
    local n rc t want D=/machine/peripheral

    storcli_dialect "$1"
    if [ ! -L "$ST_TOOL" ] || [ ! -x "$ST_TOOL" ]; then
        fail "$ST_TOOL is not installed (build-image.sh)"
    fi
    for n in /usr/sbin/storcli /usr/sbin/storcli64 /usr/sbin/perccli64 \
             /usr/sbin/storcli2 /opt/MegaRAID/storcli2/storcli2; do
        [ -x "$n" ] || fail "$n is not installed"
    done

    mr_guest_start 3

    echo "== a slow rebuild, so that the rebuilding state can be captured"
    st /c0 set rebuildrate=1 J
    st /c0 add vd type=raid5 drives=252:0-2 J
    st /c0/v0 show J
    echo "== the overview without a controller"
    st show J nolog
    st_has '"Number of Controllers" : 1' "show: not one controller"
    st_has "$ST_CTRL_ROW" "show: no row for controller 0"
    st show ctrlcount J
    st_has '"Controller Count" : 1' "show ctrlcount"
    echo "== the text output: storcli's key = value lines and closing status"
    st /c0 show all
    for want in "^Status = Success$" "^Basics :$" "^Version :$" \
                "^Driver Name = $(ctrl_driver)$" "^Physical Drives = 3$" \
                "^Virtual Drives = 1$" \
                "^$ST_LEVELS = RAID0, RAID1, RAID5, RAID6, RAID10, RAID50, RAID60$"; do
        st_has "$want" "/c0 show all: no line $want"
    done
    rc=0
    "$ST_TOOL" /c0 frob > /tmp/frob.out 2> /tmp/frob.err || rc=$?
    [ $rc = 2 ] || fail "/c0 frob: exit status $rc, not 2"
    grep -q "^Description = Un-supported command$" /tmp/frob.out ||
        fail "/c0 frob: not storcli's failure document"
    [ -s /tmp/frob.err ] || fail "/c0 frob: nothing on stderr"
    qom_set $D/d0 temperature 33
    qom_set $D/d1 temperature 41
    qom_set $D/d1 other-errors 2
    qom_set $D/d2 media-errors 1
    storcli_capture optimal

    echo "== drive 1 fails: degraded, no spare"
    st /c0/e252/s1 set offline J
    t=0
    while [ "$(storcli_vd_state)" != Dgrd ]; do
        t=$((t + 1)); [ $t -lt 60 ] || fail "VD 0 not Dgrd after drive 1 failed"
        sleep 1
    done
    st /c0/e252/s1 show J
    st_has "$ST_PD_FAILED" "/c0/e252/s1 show: drive 1 is not shown failed"
    if [ "$1" = v1 ]; then
        st /c0/vall show J
        st_has '"DG/VD":"0/0","TYPE":"RAID5","State":"Dgrd"' \
            "/c0/vall show: VD 0 is not Dgrd"
    fi
    qom_set $D/d1 temperature 52
    qom_set $D/d1 predictive-failures 1
    qom_set $D/d1 smart-alert true
    storcli_capture degraded

    echo "== drive 1 rebuilds"
    st /c0/e252/s1 start rebuild J
    st /c0/e252/s1 show rebuild J
    st_has '"Status":"In progress"' "the rebuild of drive 1 is not in progress"
    qom_set $D/d2 media-errors 4
    storcli_capture rebuilding
    st /c0/e252/s1 show rebuild J
    st_has '"Status":"In progress"' \
        "the rebuild of drive 1 ended before the capture was complete"
}
