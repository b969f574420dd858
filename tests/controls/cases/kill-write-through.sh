#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-kill with the CacheVault failed before the writers start (the real
# test, switch MRSIM_CONTROL_KILL_WRITE_THROUGH=1): the VD runs
# write-through, nothing acknowledged is left only in the cache or journal
# when QEMU is killed, so the test's "dirty at the kill" check must fail
# (a cache that destages before acknowledging would pass the data check).
#@ expect no acknowledged write was held only in the cache and journal before the kill
#@ guest
#@ timeout 1200
tests/guest/run.sh --kernel 6.12 --test raid-kill --verbose \
    --env MRSIM_CONTROL_KILL_WRITE_THROUGH=1
