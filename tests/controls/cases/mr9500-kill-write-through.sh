#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# raid-kill on megaraid-9500 with the CacheVault failed before the
# writers start (the real test, switch MRSIM_CONTROL_KILL_WRITE_THROUGH=1):
# the LD runs write-through, so nothing acknowledged is left only in the
# cache or the journal when QEMU is killed and the test's "dirty at the
# kill" check must fail (else a cache that destages before acknowledging
# would pass).
#@ expect no acknowledged write was held only in the cache and journal before the kill
#@ guest
#@ timeout 1200
tests/guest/run.sh --kernel 6.12 --test raid-kill \
    --controller megaraid-9500 --verbose \
    --env MRSIM_CONTROL_KILL_WRITE_THROUGH=1
