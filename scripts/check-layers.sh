#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Checks the device tree's doors (docs/dev/architecture.md): each
# personality (hw/megaraid/mpi3/, hw/megaraid/fusion/) includes only its
# own headers and the firmware core's public ones (include/hw/megaraid/);
# a public header includes no core-private header; the core includes no
# personality header; and a core layer includes headers only from the
# layers below it (the order is LAYERS, top first), so the layers have no
# circle.  Prints one line per violation and "check-layers: N violations";
# exits 1 if there is any.
#
#   scripts/check-layers.sh [TOP]
#
# TOP is the checkout to check (default: this script's); the negative
# control tests/controls/cases/layers-* runs it on a copy with a bad include.
set -uo pipefail
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
hw="$top/hw/megaraid"
pub="$top/include/hw/megaraid"
personalities="mpi3 fusion"
# Core layers, top first.  A layer may include the headers of any layer
# after it in this list, never of one before it.  The order is the call
# order (docs/dev/firmware-core.md):
#  - bay/ (megaraid-drive) sits high: it assembles the drive device from
#    the layers below (fault properties of target/, RAID state of array/,
#    timing properties of timing/); what the data path needs of a drive
#    (its media errors) is in member/, a drive's fault stage in target/.
#  - timing/ is above member/ and below the array, cache and jobs: it
#    reads the write policy, the cache's dirty state and a job's progress
#    through MRArrayHooks.timing.
#  - member/ is the lowest array layer (member I/O, media errors) and
#    holds the leaf types header (array-types.h) all array layers share.
LAYERS="core bay qmp mgmt target array jobs cache timing member evlog"
# Public headers of one personality's host interface: not for the core.
personality_pub="mpi3.h mfi.h"

n=0
violation() {
    echo "$1: $2"
    n=$((n + 1))
}

rank() {
    local i=0 l
    for l in $LAYERS; do
        [ "$l" = "$1" ] && { echo $i; return; }
        i=$((i + 1))
    done
    echo -1
}

# The quoted includes of FILE, one per line.
includes() {
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"
}

for d in "$hw"/*/; do
    room=$(basename "$d")
    case " $personalities " in *" $room "*) kind=personality ;; *) kind=core ;; esac
    if [ $kind = core ] && [ "$(rank "$room")" = -1 ]; then
        violation "hw/megaraid/$room" "a folder that is neither a personality nor a layer in LAYERS"
        continue
    fi
    for f in "$d"*.[ch]; do
        [ -e "$f" ] || continue
        rel=${f#"$top"/}
        while read -r h; do
            case $h in
            hw/megaraid/*/*)
                other=$(echo "$h" | cut -d/ -f3)
                [ "$other" = "$room" ] && continue
                if [ $kind = personality ]; then
                    violation "$rel" "includes $h, a header private to hw/megaraid/$other"
                    continue
                fi
                case " $personalities " in *" $other "*)
                    violation "$rel" "the core includes $h, a personality's header"
                    continue ;;
                esac
                ro=$(rank "$other")
                if [ "$ro" = -1 ]; then
                    violation "$rel" "includes $h from an unknown folder"
                elif [ "$ro" -le "$(rank "$room")" ]; then
                    violation "$rel" "layer $room includes $h of layer $other above it"
                fi
                ;;
            hw/megaraid/*)
                b=${h#hw/megaraid/}
                if [ ! -e "$pub/$b" ]; then
                    violation "$rel" "includes $h, which is not a public header (include/hw/megaraid/)"
                elif [ $kind = core ]; then
                    case " $personality_pub " in *" $b "*)
                        violation "$rel" "the core includes $h, a personality's host interface" ;;
                    esac
                fi
                ;;
            */*) ;;     # QEMU's and the RAID core's (include/raid/) headers
            *)
                [ -e "$d$h" ] ||
                    violation "$rel" "includes \"$h\", which is not in its own folder"
                ;;
            esac
        done < <(includes "$f")
    done
done

for f in "$pub"/*.h; do
    rel=${f#"$top"/}
    while read -r h; do
        case $h in
        hw/megaraid/*/*)
            violation "$rel" "a public header includes $h, a core-private header" ;;
        hw/megaraid/*) ;;
        */*) ;;
        *)  violation "$rel" "a public header includes \"$h\" by a relative name" ;;
        esac
    done < <(includes "$f")
done

echo "check-layers: $n violations"
[ $n = 0 ]
