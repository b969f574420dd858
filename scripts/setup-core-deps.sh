#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Installs the Debian packages the standalone RAID core build needs
# (GLib, ISA-L, meson, ninja; gnuplot-nox for `raidsim --plot`).
# Idempotent: apt-get skips what is there.
set -e
pkgs="libglib2.0-dev libisal-dev meson ninja-build pkg-config gcc gnuplot-nox"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update
# shellcheck disable=SC2086
$SUDO apt-get install -y --no-install-recommends $missing
