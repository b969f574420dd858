#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Adds the Debian archive lines the project needs on a bookworm machine:
# bookworm-backports (binaries and sources: meson, pycotap, linux 6.12,
# QEMU 10.0), trixie sources (QEMU 10.0.x) and sid (the newest kernel the
# guest suite boots, and its source), pinned so that only an explicit
# "-t sid" takes anything from it.  Idempotent.
set -eu
f=/etc/apt/sources.list.d/megaraid-sim.sources
if [ ! -f "$f" ]; then
    cat > "$f" <<'SRC'
Types: deb deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update -q -o DPkg::Lock::Timeout=600
fi

sid=/etc/apt/sources.list.d/megaraid-sim-sid.sources
if [ ! -f "$sid" ]; then
    cat > /etc/apt/preferences.d/megaraid-sim-sid <<'PIN'
Package: *
Pin: release n=sid
Pin-Priority: 1
PIN
    cat > "$sid" <<'SRC'
Types: deb deb-src
URIs: http://deb.debian.org/debian
Suites: sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update -q -o DPkg::Lock::Timeout=600
fi
