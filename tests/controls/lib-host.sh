# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Helpers for the negative controls of the guest tests' host-side steps
# (the "#@ prepare" and "#@ check" commands of tests/guest/tests/*.sh, and
# lib-raid.sh's host functions).  Sourced by cases after lib.sh.  The
# commands run are the tests' own header lines, exactly as run.sh runs
# them; only their input is made here: drive images as a guest would have
# left them, or a megaraid-img stand-in that misbehaves.

# host_real_img: the path of the real megaraid-img (built if needed).
host_real_img() {
    tests/guest/host-megaraid-img.sh
}

# host_work NAME: a fresh work folder as run.sh makes it (WORK/cpio/mrsim);
# prints its path.
host_work() {
    local w="$CONTROL_TMP/$1"
    rm -rf "$w"
    mkdir -p "$w/cpio/mrsim"
    echo "$w"
}

# host_cmd TEST KIND WORK: runs the "#@ KIND" line(s) (prepare or check)
# of tests/guest/tests/TEST.sh on WORK the way run.sh does (in the
# checkout, bash -euo pipefail -c); stops at the first that fails and
# returns its status.
host_cmd() {
    local c rc=0 found=0
    while read -r c; do
        found=1
        c=${c//@WORK@/$3}
        c=${c//@TOP@/$CONTROL_TOP}
        c=${c//@GUEST@/$3/cpio/mrsim}
        (cd "$CONTROL_TOP" && bash -euo pipefail -c "$c") < /dev/null || rc=$?
        [ $rc = 0 ] || return $rc
    done < <(sed -n "s/^#@ *$2 //p" "$CONTROL_TOP/tests/guest/tests/$1.sh")
    if [ $found = 0 ]; then
        echo "control setup: $1 has no '#@ $2' line"
        exit 99
    fi
    return 0
}

# host_setup WHAT COMMAND...: a step of the control's own setup that must
# work (e.g. the check on intact input); on failure prints its output
# indented (so that it cannot match the case's expect line) and ends the
# case with status 99.
host_setup() {
    local what=$1 rc=0
    shift
    "$@" > "$CONTROL_TMP/setup.log" 2>&1 || rc=$?
    if [ $rc != 0 ]; then
        sed 's/^/    setup| /' "$CONTROL_TMP/setup.log"
        echo "control setup: $what failed (status $rc)"
        exit 99
    fi
}

# host_wrap_img BODY: a megaraid-img stand-in, exported as MEGARAID_IMG,
# that runs BODY (bash; "$@" are megaraid-img's arguments, $real the real
# binary; BODY decides whether and how to call it).
host_wrap_img() {
    local real
    real=$(host_real_img) || { echo "control setup: no megaraid-img"; exit 99; }
    {
        echo '#!/bin/bash'
        echo "# megaraid-img stand-in of control $CONTROL_NAME"
        printf 'real=%q\n' "$real"
        printf '%s\n' "$1"
    } > "$CONTROL_TMP/megaraid-img"
    chmod +x "$CONTROL_TMP/megaraid-img"
    export MEGARAID_IMG="$CONTROL_TMP/megaraid-img"
}

# host_mdadm_sets WORK [SERIAL]: what raid-mdadm-create's guest part
# leaves in WORK (its prepare command first, then each set of SETS as a
# DDF container of another controller, default serial MDADM00000000001,
# with a VD named mNAME holding the 8 MiB reference data); made with
# megaraid-img under that serial instead of the guest's mdadm.
host_mdadm_sets() {
    local w=$1 serial=${2:-MDADM00000000001} img sets set name level n i m
    img=$(host_real_img) || { echo "control setup: no megaraid-img"; exit 99; }
    host_setup "raid-mdadm-create --host-prepare" \
        host_cmd raid-mdadm-create prepare "$w"
    sets=$(sed -n 's/^SETS="\(.*\)"$/\1/p' \
           "$CONTROL_TOP/tests/guest/tests/raid-mdadm-create.sh")
    [ -n "$sets" ] || { echo "control setup: no SETS in raid-mdadm-create.sh"; exit 99; }
    for set in $sets; do
        name=${set%%:*}
        level=${set#*:}
        level=${level%%:*}
        n=${set##*:}
        m=()
        for ((i = 0; i < n; i++)); do
            m+=("$w/${name}m$i.img")
        done
        host_setup "megaraid-img create $name" "$img" create --serial "$serial" \
            -l "raid$level" -s 64 --size 8M --name "m$name" "${m[@]}"
        host_setup "megaraid-img write $name" "$img" write --serial "$serial" \
            -i "$w/ref.img" "${m[@]}"
    done
}

# host_mdadm_bad_copy: host_mdadm_sets in a work folder "good", on which
# raid-mdadm-create's host check must pass, and a copy of it in "bad" for
# the case to corrupt; sets HOST_BAD to the copy's path.
host_mdadm_bad_copy() {
    local good
    good=$(host_work good)
    HOST_BAD=$(host_work bad)
    host_mdadm_sets "$good"
    cp -a "$good/." "$HOST_BAD/"
    host_setup "the host check on intact sets" \
        host_cmd raid-mdadm-create check "$good"
}

# host_poke FILE OFFSET: overwrites 16 bytes of FILE at byte OFFSET.
host_poke() {
    printf 'CONTROL-CORRUPT!' |
        dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
