# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# docs/management.md's walkthrough, run as written: the host part turns
# the page into a command list (scripts/gen-management-doc.py --script),
# the guest runs it in order on five blank 64 MiB NVMe drives and prints
# each command's output between markers, and the host check fails when
# the committed page shows other output than this run
# (gen-management-doc.py --check; --write regenerates the page).
#@ kernels 6.12
#@ timeout 1200
#@ mem 1024
#@ smp 2
#@ prepare bash tests/guest/tests/management-doc.sh --host-prepare @WORK@ @GUEST@
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ allow ^qemu-system-x86_64: warning: megaraid: drive in slot [123] failed \(set offline by the host\)$
#@ check python3 scripts/gen-management-doc.py --check @WORK@/serial.log docs/management.md

# ---- host part ----
if [ "${1:-}" = --host-prepare ]; then
    set -euo pipefail
    . tests/guest/lib-mrcli.sh
    mrcli_host_prepare "$2" nvme 5 64M
    python3 scripts/gen-management-doc.py --script docs/management.md \
        "$3/doc-steps"
    exit 0
fi

# ---- guest part ----
. /mrsim/lib-mrcli.sh

mr_guest_start 5
[ -s /mrsim/doc-steps ] || fail "no command list from docs/management.md"
while read -r kind rest; do
    case $kind in
    cmd)
        n=${rest%% *}
        cmd=${rest#* }
        echo "@@DOC-BEGIN $n@@"
        rc=0
        sh -c "$cmd" 2>&1 || rc=$?
        echo "@@DOC-END $n $rc@@"
        ;;
    run)
        log "doc-run: $rest"
        sh -c "$rest" > /tmp/doc-run.out 2>&1 ||
            { cat /tmp/doc-run.out; fail "doc-run failed: $rest"; }
        ;;
    esac
done < /mrsim/doc-steps
