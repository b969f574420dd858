# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Guest helpers of the MFI tool tests (mfi-tools, mfi-tools-probe):
# Debian's unmodified mfiutil and megasasctl, run through run_tool
# (lib-mrcli.sh, sourced first).

for t in mfiutil megasasctl; do
    command -v $t > /dev/null || fail "$t is not installed (build-image.sh)"
done

# mf ARGS...: mfiutil ARGS must succeed; its output in MF_OUT.
mf() {
    run_tool MF_OUT mfiutil "$@"
}

# mf_has ERE WHAT: the last mfiutil output has a line matching ERE.
mf_has() {
    echo "$MF_OUT" | grep -qE "$1" || fail "mfiutil: $2 (no line matching $1)"
}

# ms: megasasctl (every adapter, VD and drive); its output in MS_OUT.
ms() {
    run_tool MS_OUT megasasctl
}
