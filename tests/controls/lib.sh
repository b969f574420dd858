# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Helpers for negative-control cases (tests/controls/cases/*.sh; sourced
# with ". tests/controls/lib.sh", the case runs in the checkout).  They
# build the broken inputs; the checks themselves are always the real ones.
# CONTROL_TMP is the case's scratch folder (tests/controls/run.sh makes it).

: "${CONTROL_TMP:?run cases through tests/controls/run.sh}"
CONTROL_TOP=${CONTROL_TOP:-$(pwd)}

# control_fake_image: a guest image folder run.sh takes (empty kernel and
# initramfs, for fake QEMUs that never boot them); exported to run.sh and
# run-suite.sh with build-image.sh skipped, and failing runs keep their
# logs in the scratch folder.
control_fake_image() {
    mkdir -p "$CONTROL_TMP/image" "$CONTROL_TMP/logs"
    : > "$CONTROL_TMP/image/vmlinuz"
    : > "$CONTROL_TMP/image/initrd.img"
    export MRSIM_GUEST_IMG="$CONTROL_TMP/image"
    export MRSIM_GUEST_LOGS="$CONTROL_TMP/logs"
    export MRSIM_IMAGE_READY=1
}

# control_fake_qemu [BODY]: writes a QEMU stand-in, $CONTROL_TMP/qemu, and
# exports QEMU= so that run.sh uses it.  BODY is bash run by the stand-in
# (default: a clean run with verdict 0) with $token (from -append), $phase
# (MRSIM_PHASE of this boot) and these functions:
#   booted             the guest's MRSIM-BOOTED line
#   verdict N          the verdict line, as tests/guest/init prints it
#   dump LINE...       the dmesg dump init prints before the verdict, with
#                      a kernel banner first; each LINE is "<L>text" with
#                      its syslog level, like dmesg -r
#   clean_end          dump (no extra lines) + verdict 0
# Whatever BODY prints to stdout or stderr is the serial log; its exit
# status is QEMU's.
control_fake_qemu() {
    local body=${1:-clean_end}
    {
        cat <<'EOS'
#!/bin/bash
# QEMU stand-in written by tests/controls/lib.sh.
append=""; prev=""
for a; do
    [ "$prev" != -append ] || append=$a
    prev=$a
done
token=$(printf '%s\n' "$append" | sed -n 's/.*mrsim\.token=\([0-9a-f]*\).*/\1/p')
initrd=""; prev=""
for a; do
    [ "$prev" != -initrd ] || initrd=$a
    prev=$a
done
# The phase, from the env file of the test cpio run.sh appends.
phase=$(grep -ao 'MRSIM_PHASE=[0-9]*' "$initrd" 2>/dev/null | tail -n 1 | cut -d= -f2)
booted() { echo "MRSIM-BOOTED uptime=1.00 kernel=fake"; }
verdict() { echo "@@MRSIM-VERDICT $token $1@@"; }
dump() {
    echo "@@MRSIM-DMESG-BEGIN $token@@"
    echo "<5>[    0.000000] Linux version 0.0-fake (control) #1 SMP"
    local l
    for l in "$@"; do echo "$l"; done
    echo "@@MRSIM-DMESG-END $token@@"
}
clean_end() { dump; verdict 0; }
booted
EOS
        printf '%s\n' "$body"
    } > "$CONTROL_TMP/qemu"
    chmod +x "$CONTROL_TMP/qemu"
    export QEMU="$CONTROL_TMP/qemu"
}

# control_guest_test NAME [HEADER-OR-SCRIPT-LINE...]: writes a throwaway
# guest test script $CONTROL_TMP/tests/NAME.sh with these lines and prints
# its path.
control_guest_test() {
    local name=$1
    shift
    mkdir -p "$CONTROL_TMP/tests"
    {
        echo "# throwaway test of control $CONTROL_NAME"
        printf '%s\n' "$@"
    } > "$CONTROL_TMP/tests/$name.sh"
    echo "$CONTROL_TMP/tests/$name.sh"
}

# control_run_fake NAME [HEADER-OR-SCRIPT-LINE...]: run.sh on a throwaway
# test with the fake image and the QEMU stand-in written before; returns
# run.sh's status.
control_run_fake() {
    local t
    t=$(control_guest_test "$@")
    "$CONTROL_TOP/tests/guest/run.sh" --kernel 6.12 --script "$t"
}

# control_kill_empty_journal CONTROLLER: raid-kill on CONTROLLER with its
# cache journal swapped for a blank one between the SIGKILL and the
# restart (phase 2's controller gets a new, blank journal drive), from a
# throwaway copy of raid-kill.sh whose "#@" header lines alone differ
# (checked here): the prepare and every line of the guest script are the
# real ones.  Returns run.sh's status.
control_kill_empty_journal() {
    local real=tests/guest/tests/raid-kill.sh
    local copy=$CONTROL_TMP/tests/raid-kill.sh

    mkdir -p "$CONTROL_TMP/tests"
    # Phase 1: the test's own arguments; phase 2: the same with the
    # controller's journal drive on a new, blank file.
    sed 's|^#@ qemu-args @WORK@/qemu-p1.args$|#@ prepare sed "s,file.filename=[^ ,]*/journal.bin,file.filename=@WORK@/journal-empty.bin," @WORK@/qemu-p1.args > @WORK@/qemu-p1-empty.args \&\& grep -q journal-empty.bin @WORK@/qemu-p1-empty.args \&\& truncate -s 512M @WORK@/journal-empty.bin\
#@ qemu-args@1 @WORK@/qemu-p1.args\
#@ qemu-args@2 @WORK@/qemu-p1-empty.args|' "$real" > "$copy"
    grep -q '^#@ qemu-args@2 @WORK@/qemu-p1-empty.args$' "$copy" ||
        { echo "control: raid-kill.sh's header changed: cannot swap the journal"; return 2; }
    if ! diff <(grep -v '^#@' "$real") <(grep -v '^#@' "$copy") > /dev/null; then
        echo "control: the copy differs from raid-kill.sh beyond its header"
        return 2
    fi
    tests/guest/run.sh --kernel 6.12 --script "$copy" --controller "$1" \
        --verbose
}

# control_tap_sample: builds tests/controls/tap-sample.c (a GLib test binary
# whose tests depend on CONTROL_TAP=none|skip|pass) and prints its path.
control_tap_sample() {
    local bin="$CONTROL_TMP/tap-sample"
    # shellcheck disable=SC2046
    cc -O0 -o "$bin" "$CONTROL_TOP/tests/controls/tap-sample.c" \
        $(pkg-config --cflags --libs glib-2.0) >&2 || return 1
    echo "$bin"
}

# control_ddf_fuzz_with SOURCE: tests/fuzz/ddf-fuzz.sh for 5 s, with a CC
# stand-in that builds the C file SOURCE (a broken fuzzer) instead of the
# DDF fuzzer; returns the script's status.
control_ddf_fuzz_with() {
    cat > "$CONTROL_TMP/cc" <<EOS
#!/bin/bash
# CC stand-in of control $CONTROL_NAME: builds $1 into the -o file.
out=""
while [ \$# -gt 0 ]; do
    [ "\$1" != -o ] || out=\$2
    shift
done
exec cc -o "\$out" "$1"
EOS
    chmod +x "$CONTROL_TMP/cc"
    CC="$CONTROL_TMP/cc" DDF_FUZZ_DIR="$CONTROL_TMP/fuzz" \
        "$CONTROL_TOP/tests/fuzz/ddf-fuzz.sh" 5
}
