# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# storcli v1 for unmodified tools: mrcli installed as
# /opt/MegaRAID/storcli/storcli64 on a megaraid-9500 (megaraid_sas) with a
# RAID 5 over three SAS drives.  Every command line Debian's
# prometheus-node-exporter-collectors storcli.py runs ("/cALL show all J
# nolog", "/cALL/eALL/sALL show all J nolog") is captured in three
# states: optimal; drive 1 failed (degraded, no spare); drive 1 rebuilding.
# The drives' health (temperature, error counts, SMART alert) is set
# through QOM and changes between the states.  On the host,
# tests/guest/storcli-replay.py runs the unmodified collector against a
# shim that returns the captured output per command line and checks its
# metrics; the documents are checked against storcli-v1.schema.json.
#@ controllers megaraid-9500
#@ kernels 6.12
#@ timeout 1200
#@ mem 1024
#@ smp 2
#@ qmp
#@ prepare . tests/guest/lib-mrcli.sh; mrcli_host_prepare @WORK@ sas 3 64M
#@ qemu-args @WORK@/qemu-all.args
#@ qemu-args @WORK@/qemu-p1.args
#@ allow ^qemu-system-x86_64: warning: megaraid: drive in slot 1 failed \(set offline by the host\)$
#@ check python3 tests/guest/storcli-replay.py @WORK@/serial.log
#@ check python3 tests/guest/mrcli-json-check.py @WORK@/serial.log --min 6 --schema tests/guest/storcli-v1.schema.json

# The scenario is lib-storcli.sh's, in the v1 dialect.
# shellcheck source=tests/guest/lib-storcli.sh
. /mrsim/lib-storcli.sh
storcli_scenario v1
log "storcli v1: the collector's command lines captured in 3 states"
