#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-kill on megaraid-9600 with the controller's cache journal swapped for a
# blank one between the SIGKILL and the restart: the acknowledged writes
# that only the journal held are gone, and the real phase 2 check must say
# so (control_kill_empty_journal, lib.sh).
#@ expect acknowledged write [0-9]+ lost
#@ guest
#@ timeout 1200
. tests/controls/lib.sh
control_kill_empty_journal megaraid-9600
