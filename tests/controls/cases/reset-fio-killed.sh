#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mr9600-reset with fio killed just before the host reset (the real test,
# switch MRSIM_CONTROL_RESET_KILL_FIO=1): "host reset with I/O running"
# must fail, as no I/O is running when the reset comes.
#@ expect fio was not running during the host reset
#@ guest
#@ timeout 1200
tests/guest/run.sh --kernel 6.12 --test mr9600-reset --verbose \
    --env MRSIM_CONTROL_RESET_KILL_FIO=1
