# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# storcli2 for unmodified tools: mrcli installed as
# /opt/MegaRAID/storcli2/storcli2 on a megaraid-9600 (mpi3mr) with a
# RAID 5 over three NVMe drives.  Every command line Debian's
# prometheus-node-exporter-collectors storcli.py runs ("/cALL show all J
# nolog", "/cALL/eALL/sALL show all J nolog") is captured in three
# states: optimal; drive 1 failed (degraded, no spare); drive 1 rebuilding.
# The drives' health (temperature, error counts, SMART alert) is set
# through QOM and changes between the states.  On the host,
# tests/guest/storcli-replay.py --storcli2 checks storcli2's documents per
# state (State/Status pairs, VD states, the drives' counters) and that the
# unmodified collector, which knows only storcli v1's keys, runs to its
# end on them as on a real card; the documents are checked against
# storcli2.schema.json.
#@ controllers megaraid-9600
#@ kernels 6.12
#@ timeout 1200
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare . tests/guest/lib-mrcli.sh; mrcli_host_prepare @WORK@ nvme 3 64M
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ allow ^qemu-system-x86_64: warning: megaraid: drive in slot 1 failed \(set offline by the host\)$
#@ check python3 tests/guest/storcli-replay.py --storcli2 @WORK@/serial.log
#@ check python3 tests/guest/mrcli-json-check.py @WORK@/serial.log --min 6 --schema tests/guest/storcli2.schema.json

# The scenario is lib-storcli.sh's, in the v2 dialect.
# shellcheck source=tests/guest/lib-storcli.sh
. /mrsim/lib-storcli.sh
storcli_scenario v2
log "storcli2: the collector's command lines captured in 3 states"
