#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs one guest test: boots Debian's kernel with the test initramfs under
# TCG with the test's QEMU arguments, runs the test script inside and
# returns its verdict as the exit code (0 pass; the script's status when it
# failed; 122 a guest vCPU stuck, below; 124 timeout; 125 no verdict:
# panic, QEMU error, dirty log, host check).
#
# Stuck vCPU: every 10 s run.sh asks QEMU's monitor (hmp-dump.py --stuck)
# for vCPUs halted with interrupts enabled while their local APIC has a
# vector in service.  Linux halts only in its idle loop, with nothing in
# service, so such a vCPU never wakes again (every interrupt of its
# priority or lower waits behind the lost one); CI saw it about once in
# 80 runs under TCG, also with the guest told the TSC frequency, the device
# idle.  Seen twice in a row, the run stops at once with status 122 and
# the APIC dump in its log, instead of at its timeout.  run-suite.sh runs
# such a test once more and says so.
#
#   tests/guest/run.sh --kernel 6.1|6.12|7.2 (--test NAME | --script FILE)
#       [--controller megaraid-9600|megaraid-9500] [--timeout S] [--mem M] [--smp N] [--env NAME=VALUE]...
#       [--log FILE] [--append KERNEL-ARGS] [--verbose] [--shell]
#       [-- extra QEMU args]
#   tests/guest/run.sh --list-kernels     the kernels it knows, one a line
#   tests/guest/run.sh --list-controllers the controllers it knows
#
# A run passes only when, for every phase (boot), QEMU exited with status 0
# (a phase the guest had killed with SIGKILL excepted), and the last phase's
# verdict is 0, and the scan of every phase's whole log (serial console,
# QEMU's stderr, the guest's dmesg dump) after QEMU exited is clean, and
# the host checks pass.  The scan fails a run on any line matching
#   Kernel panic, Oops, BUG:, WARNING:, UBSAN, KASAN, Call Trace, general
#   protection, qemu-system-*: (QEMU's own errors and warnings), Assertion,
#   core dumped, AddressSanitizer, LeakSanitizer, runtime error
# and on every kernel message of level err or worse: "<0>" to "<3>" in the
# dmesg dump (dmesg -r) that tests/guest/init prints between its
# "@@MRSIM-DMESG-BEGIN/END token@@" markers after the test, and every
# kernel line ("[ seconds] ...") on the console outside it (the console is
# "quiet": err and worse only; warnings reach the host only through the
# dump, which must be there whenever a verdict is).  Lines a test
# legitimately causes are allowed by its "#@ allow ERE" lines (below), and
# a few platform messages by the platform_allows list; nothing else is.
#
# --test NAME runs tests/guest/tests/NAME.sh.  A test script declares, in
# comment lines starting with "#@":
#   #@ disk NAME SIZE [vendor=V] [product=P] [serial=S]
#         a raw image filled with tests/guest/mkdisk.py's pattern, attached
#         as -drive if=none,id=NAME; the words after SIZE are what the
#         guest should see (lib.sh's check_disk and friends read them)
#   #@ qemu ARGS...      QEMU arguments (@WORK@ is the run's work folder)
#   #@ timeout S | mem M | smp N     defaults for the options
#   #@ append ARGS...    more kernel command line arguments (as --append),
#         for every phase (e.g. reset_devices: a kdump kernel's)
#   #@ kernels K...      kernels the suite runs it on (default: all)
#   #@ controllers C...  the test runs once per controller named
#         (megaraid-9600, megaraid-9500; run-suite.sh runs each);
#         --controller C picks one (default: the first named).  The script
#         and its prepare/check commands see MRSIM_CTRL=C, and @CTRL@ in
#         qemu, prepare and check lines is C
#   #@ kernels@N K...    the kernels of controller megaraid-N's runs
#   #@ prepare CMD...    host shell command run in the checkout before QEMU
#         starts (@WORK@, @TOP@ substituted), e.g. to make drive images
#   #@ check CMD...      host shell command run after the guest passed;
#         if it fails, so does the test (e.g. read back what it wrote)
#   #@ qmp               QEMU gets a QMP socket; the guest sends monitor
#         commands by printing "@@MRSIM-QMP $MRSIM_TOKEN <json>@@" and
#         qmp-relay.py forwards them (hot plug tests), or writes them to
#         its second serial port /dev/ttyS1 and reads the replies there
#         (lib-raid.sh's qmp_call); {"execute":"mrsim-kill"} on ttyS1 has
#         the relay kill QEMU with SIGKILL
#   #@ phases N          N boots on the same disks and images (default 1);
#         the script sees MRSIM_PHASE=1..N.  Every phase but the last must
#         pass or end with a requested kill; the last one's verdict counts.
#         A guest line "@@MRSIM-CARRY $MRSIM_TOKEN NAME=VALUE@@" sets NAME
#         for the following phases (lib-raid.sh's carry)
#   #@ qemu@K ARGS...    QEMU arguments for phase K only
#   #@ qemu-args[@K] FILE  QEMU arguments read from FILE (whitespace
#         separated) once the prepare commands have written it
#   #@ allow ERE         a line of the log scan matching ERE (grep -E) is
#         not a failure.  One line per message, as narrow as that message
#         (e.g. "mpi3mr[0-9]+: .*SAS address .* not found" rather than
#         "mpi3mr"); a pattern that matches an empty line, "x" or "0" is
#         refused as too broad.  For all phases and kernels.
# @WORK@ in qemu, prepare and check lines is the run's work folder, @TOP@
# the checkout, @KERNEL@ the kernel; files a prepare command writes into
# @GUEST@ (@WORK@/cpio/mrsim) are in the guest's /mrsim.
# --env sets a variable for the test script (in /mrsim/env); --log FILE
# keeps a copy of the serial log.  Failing runs keep theirs in
# build/guest/logs/.
# QEMU defaults to build/qemu/qemu-system-x86_64; override with QEMU=.
# MRSIM_GUEST_IMG= replaces the image folder build/guest/KERNEL and
# MRSIM_GUEST_LOGS= the folder of failed runs' logs (negative controls run
# a fake QEMU with them, tests/controls/).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/guest"

usage() {
    sed -n '3,/^set -euo/s/^# \?//p' "$0" >&2
    exit 2
}

# The kernels this script can boot (run-suite.sh checks "#@ kernels" lines
# against them).
known_kernels=(6.1 6.12 7.2)
# The controllers a test's "#@ controllers" line can name.
known_controllers=(megaraid-9600 megaraid-9500)

kernel=""; test_name=""; script=""; ctrl=""; timeout=""; mem=""; smp=""; qmp=0
verbose=0; shell=0; envs=(); log_copy=""; kargs=""
while [ $# -gt 0 ]; do
    case "$1" in
    --kernel)  kernel=$2; shift 2 ;;
    --test)    test_name=$2; shift 2 ;;
    --script)  script=$2; shift 2 ;;
    --controller) ctrl=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --mem)     mem=$2; shift 2 ;;
    --smp)     smp=$2; shift 2 ;;
    --env)     envs+=("$2"); shift 2 ;;
    --log)     log_copy=$2; shift 2 ;;
    --append)  kargs="$kargs $2"; shift 2 ;;
    --verbose) verbose=1; shift ;;
    --shell)   shell=1; shift ;;
    --list-kernels) printf '%s\n' "${known_kernels[@]}"; exit 0 ;;
    --list-controllers) printf '%s\n' "${known_controllers[@]}"; exit 0 ;;
    --)        shift; break ;;
    -h|--help) usage ;;
    *)         echo "run.sh: unknown argument '$1'" >&2; usage ;;
    esac
done
extra=("$@")
case " ${known_kernels[*]} " in
*" $kernel "*) ;;
*) echo "run.sh: --kernel must be one of: ${known_kernels[*]} (not '$kernel')" >&2
   exit 2 ;;
esac
if [ -n "$test_name" ]; then
    script="$here/tests/$test_name.sh"
elif [ -n "$script" ]; then
    test_name=$(basename "$script" .sh)
elif [ $shell = 1 ]; then
    test_name=shell
else
    echo "run.sh: give --test NAME, --script FILE or --shell" >&2
    exit 2
fi
if [ -n "$script" ] && [ ! -f "$script" ]; then
    echo "run.sh: test script $script does not exist" >&2
    exit 2
fi
# The controller of the run: one the script's "#@ controllers" line names.
if [ -n "$script" ]; then
    ctrls=$(sed -n 's/^#@ *controllers\([[:space:]]\|$\)//p' "$script" |
            tr -s ' \t' '  ' | sed 's/^ //; s/ $//')
else
    ctrls=""
fi
if [ -n "$ctrls" ]; then
    for c in $ctrls; do
        case " ${known_controllers[*]} " in
        *" $c "*) ;;
        *) echo "run.sh: $script: '#@ controllers' names '$c'" \
                "(run.sh knows: ${known_controllers[*]})" >&2
           exit 2 ;;
        esac
    done
    # (the extra QEMU arguments are in extra already)
    # shellcheck disable=SC2086
    set -- $ctrls
    [ -n "$ctrl" ] || ctrl=$1
    case " $ctrls " in
    *" $ctrl "*) ;;
    *) echo "run.sh: --controller $ctrl: $script runs on $ctrls only" >&2
       exit 2 ;;
    esac
elif [ -n "$ctrl" ]; then
    echo "run.sh: --controller $ctrl: ${script:-the run} has no" \
         "'#@ controllers' line" >&2
    exit 2
fi
export MRSIM_CTRL=$ctrl
# The run's name in logs and result lines: TEST@9500 for a controller's.
label=$test_name${ctrl:+@${ctrl#megaraid-}}

QEMU=${QEMU:-$top/build/qemu/qemu-system-x86_64}
if [ ! -x "$QEMU" ]; then
    echo "run.sh: QEMU binary $QEMU not found; run scripts/build-qemu.sh" \
         "or set QEMU=" >&2
    exit 2
fi

img=${MRSIM_GUEST_IMG:-$top/build/guest/$kernel}
if [ -z "${MRSIM_IMAGE_READY:-}" ]; then
    "$here/build-image.sh" "$kernel"
fi

work="$top/build/guest/work/$kernel-$label-$$"
rm -rf "$work"
mkdir -p "$work/cpio/mrsim"
# shellcheck disable=SC2317
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

# Header of the test script.
drive_args=()
test_args=()
prepares=()
checks=()
allows=()               # "#@ allow" patterns of the log scan
arg_files=()            # "K FILE": qemu-args lines, read after prepare
phases=1
: > "$work/cpio/mrsim/disks"
# subst TEXT: the header's @...@ words replaced.
subst() {
    local t=$1
    t=${t//@WORK@/$work}
    t=${t//@TOP@/$top}
    t=${t//@KERNEL@/$kernel}
    t=${t//@CTRL@/$ctrl}
    t=${t//@GUEST@/$work/cpio/mrsim}
    printf '%s' "$t"
}
if [ -n "$script" ]; then
    while read -r key rest; do
        phase=0
        case "$key" in
        *@[0-9]*) phase=${key#*@}; key=${key%%@*} ;;
        esac
        case "$key" in
        disk)
            # shellcheck disable=SC2086
            set -- $rest
            [ $# -ge 2 ] || { echo "run.sh: $script: bad '#@ disk $rest'" >&2; exit 2; }
            name=$1 size=$2
            shift 2
            "$here/mkdisk.py" "$name" "$size" "$work/$name.img"
            bytes=$(stat -c %s "$work/$name.img")
            echo "name=$name size=$bytes $* pattern=1" >> "$work/cpio/mrsim/disks"
            drive_args+=(-drive "if=none,id=$name,format=raw,file=$work/$name.img")
            ;;
        qemu)
            if [ "$phase" = 0 ]; then
                # shellcheck disable=SC2207
                test_args+=($(subst "$rest"))
            else
                # shellcheck disable=SC2046
                printf '%s\n' $(subst "$rest") >> "$work/args@$phase"
            fi
            ;;
        qemu-args) arg_files+=("$phase $(subst "$rest")") ;;
        timeout) [ -n "$timeout" ] || timeout=$rest ;;
        mem)     [ -n "$mem" ] || mem=$rest ;;
        smp)     [ -n "$smp" ] || smp=$rest ;;
        kernels|controllers) ;;
        phases)
            case "$rest" in
            [1-9]) phases=$rest ;;
            *) echo "run.sh: $script: bad '#@ phases $rest' (1 to 9)" >&2; exit 2 ;;
            esac
            ;;
        prepare|check)
            rest=$(subst "$rest")
            if [ "$key" = prepare ]; then prepares+=("$rest"); else checks+=("$rest"); fi
            ;;
        qmp)     qmp=1 ;;
        append)  kargs="$kargs $(subst "$rest")" ;;
        allow)
            # Refuse what would allow everything (or is no valid ERE).
            for probe in "" x 0; do
                st=0
                printf '%s\n' "$probe" | grep -qE -- "$rest" 2>/dev/null || st=$?
                case $st in
                0) echo "run.sh: $script: '#@ allow $rest' is too broad" \
                        "(it matches '$probe'); allow single messages" >&2
                   exit 2 ;;
                2) echo "run.sh: $script: '#@ allow $rest' is no valid ERE" >&2
                   exit 2 ;;
                esac
            done
            allows+=("$rest")
            ;;
        *) echo "run.sh: $script: unknown header '#@ $key'" >&2; exit 2 ;;
        esac
    done < <(sed -n 's/^#@ *//p' "$script")
    cp "$script" "$work/cpio/mrsim/test.sh"
fi
cp "$here"/lib.sh "$here"/lib-*.sh "$work/cpio/mrsim/"
[ -z "$ctrl" ] || envs=("MRSIM_CTRL=$ctrl" ${envs[@]+"${envs[@]}"})
for e in ${envs[@]+"${envs[@]}"}; do
    case "$e" in
    [A-Za-z_]*=*) v=${e#*=}; printf "%s='%s'\n" "${e%%=*}" "${v//\'/\'\\\'\'}" ;;
    *) echo "run.sh: --env wants NAME=VALUE, not '$e'" >&2; exit 2 ;;
    esac
done > "$work/env.base"
timeout=${timeout:-180}
mem=${mem:-1024}
smp=${smp:-1}

for c in ${prepares[@]+"${prepares[@]}"}; do
    if ! (cd "$top" && bash -euo pipefail -c "$c") >> "$work/host.log" 2>&1; then
        tail -n 20 "$work/host.log" >&2
        echo "run: FAIL $kernel/$label: prepare '$c' failed"
        exit 125
    fi
done
for a in ${arg_files[@]+"${arg_files[@]}"}; do
    f=${a#* }
    if [ ! -f "$f" ]; then
        echo "run: FAIL $kernel/$label: no QEMU argument file $f" \
             "(#@ qemu-args)"
        exit 125
    fi
    if [ "${a%% *}" = 0 ]; then
        # shellcheck disable=SC2207
        test_args+=($(subst "$(cat "$f")"))
    else
        # shellcheck disable=SC2046
        printf '%s\n' $(subst "$(cat "$f")") >> "$work/args@${a%% *}"
    fi
done

token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
append="console=ttyS0 quiet panic=-1 mitigations=off"
# The IO-APIC timer check counts timer interrupts over a few busy-wait
# loops; when the host does not schedule the vCPU in time (TCG on a loaded
# host) it ends in "IO-APIC + timer doesn't work!" and a panic.  The timer
# of a virtual machine is known to work: skip the check.
append="$append no_timer_check"
append="$append mrsim.test=$test_name mrsim.token=$token"
# 7.2's clocksource watchdog reads the clock on another CPU and logs
# "Watchdog remote CPU N read timed out" when that vCPU's host thread was
# not scheduled in time (two TCG guests on 2 cores), then marks the TSC
# unstable.  TCG's TSC is one host-derived clock for every vCPU: declared
# reliable, it is not watched.
[ "$kernel" != 7.2 ] || append="$append tsc=reliable"
# The guest's TSC is the host's under TCG; a guest that calibrates it
# while its vCPU thread waits for a host core can be off by a factor of
# five (then its clock and every timeout it measures run that much fast):
# it is told the frequency instead (tsc-khz.c).
tsc_tool=$top/build/guest/tsc-khz
if [ ! -x "$tsc_tool" ] || [ "$here/tsc-khz.c" -nt "$tsc_tool" ]; then
    mkdir -p "$top/build/guest"
    cc -O2 -o "$tsc_tool.$$" "$here/tsc-khz.c" && mv "$tsc_tool.$$" "$tsc_tool"
fi
if tsc_khz=$("$tsc_tool"); then
    append="$append tsc_early_khz=$tsc_khz"
else
    echo "run.sh: could not measure the host TSC frequency; the guest" \
         "calibrates its own" >&2
fi
[ $shell = 0 ] || append="$append mrsim.shell=1"
append="$append$kargs"

# Firmware: qboot (from qemu-system-data) loads the kernel in a fraction of
# the time SeaBIOS takes under TCG (seconds against tens of seconds on a
# loaded machine); MRSIM_BIOS=seabios goes back to QEMU's default.
# The ELF kernel boots through PVH, skipping the kernel's decompression.
bios_args=(-bios /usr/share/qemu/qboot.rom)
kernel_file=$img/vmlinuz
[ ! -f "$img/vmlinux" ] || kernel_file=$img/vmlinux
[ "${MRSIM_BIOS:-qboot}" != seabios ] || bios_args=()

# make_initrd K: the image's initramfs plus, in a second uncompressed
# cpio, the test files with phase K's environment.
make_initrd() {
    { cat "$work/env.base"
      echo "MRSIM_PHASE=$1"
      cat "$work/carry" 2>/dev/null || true
    } > "$work/cpio/mrsim/env"
    (cd "$work/cpio" && find . | LC_ALL=C sort |
        cpio --quiet -o -H newc -R 0:0) > "$work/test.cpio"
    cat "$img/initrd.img" "$work/test.cpio" > "$work/initrd"
}

# qemu_args K: the QEMU command line of phase K, in qemu_cmd.
qemu_args() {
    local pargs=()
    [ ! -f "$work/args@$1" ] || mapfile -t pargs < "$work/args@$1"
    qemu_cmd=("$QEMU" -M q35 -accel tcg -cpu max -m "$mem" -smp "$smp"
        -L /usr/share/qemu -L /usr/share/seabios ${bios_args[@]+"${bios_args[@]}"}
        -nic none -vga none -display none -no-reboot
        -kernel "$kernel_file" -initrd "$work/initrd" -append "$append"
        ${drive_args[@]+"${drive_args[@]}"} ${test_args[@]+"${test_args[@]}"}
        ${pargs[@]+"${pargs[@]}"} ${extra[@]+"${extra[@]}"})
}

if [ $shell = 1 ]; then
    make_initrd 1
    qemu_args 1
    echo "run.sh: interactive guest; Ctrl-A x quits QEMU" >&2
    "${qemu_cmd[@]}" -serial mon:stdio
    exit $?
fi

# hang_report K: what QEMU was doing when phase K ran out of time (every
# thread's stack, by gdb, when it is installed), so that a hang found only
# in CI shows where it was.  The "run.sh: QEMU main thread:" line is the
# main loop's innermost frames, for summaries.
hang_report() {
    local pid bt
    pid=$(cat "$work/qemu.pid" 2>/dev/null)
    echo "==== run.sh: phase $1 ran out of time (${timeout}s); QEMU pid ${pid:-?}"
    if [ -z "$pid" ] || ! command -v gdb > /dev/null; then
        echo "run.sh: QEMU main thread: unknown (no pid or no gdb)"
        return 0
    fi
    bt=$(timeout 60 gdb -p "$pid" -batch -nx -ex 'set pagination off' \
             -ex 'thread apply all bt 20' 2>&1 | grep -E '^(Thread|#)')
    echo "$bt"
    python3 "$here/hmp-dump.py" "$work/hmp.sock" "$smp" || true
    echo "run.sh: QEMU main thread: $(echo "$bt" |
        awk '/^Thread 1 / { on = 1; next } /^Thread / { on = 0 }
             on && /^#/ { sub(/^#[0-9]+ +(0x[0-9a-f]+ in )?/, ""); sub(/ \(.*/, "");
                          printf "%s%s", (n++ ? " < " : ""), $0; if (n == 8) exit }')"
}

# guest_stall: a timer stall the guest kernel reported in the serial log
# (RCU: a CPU took no timer ticks), as a clause for the timeout line; with
# QEMU idle in the stacks above, it points at the guest's timers under TCG
# rather than at the device.
guest_stall() {
    local cpu
    cpu=$(grep -a -m1 -o 'Possible timer handling issue on cpu=[0-9]*' \
              "$plog" | sed 's/.*cpu=//') || true
    [ -z "$cpu" ] ||
        echo "; the guest kernel reported that its CPU $cpu took no timer" \
             "ticks (RCU stall)"
}

# run_phase K: one boot; sets plog (its serial log), qrc (QEMU's exit
# status through timeout), panicked and killed (the guest had the relay
# kill QEMU).
run_phase() {
    local k=$1 relay="" qpid tailpid=""
    plog="$work/serial-$k.log"
    make_initrd "$k"
    qemu_args "$k"
    : > "$plog"
    rm -f "$work/killed"
    rm -f "$work/qemu.pid" "$work/hmp.sock"
    qemu_cmd+=(-pidfile "$work/qemu.pid")
    if [ $qmp = 1 ]; then
        rm -f "$work/qmp.sock" "$work/port.sock"
        # shellcheck disable=SC2054
        qemu_cmd+=(-qmp "unix:$work/qmp.sock,server=on,wait=off"
            -chardev "socket,id=mrsim-port,path=$work/port.sock,server=on,wait=off"
            -device isa-serial,chardev=mrsim-port,index=1)
        python3 "$here/qmp-relay.py" "$plog" "$work/qmp.sock" "$token" \
            "$work/qmp-$k.log" "$work/port.sock" "$work/qemu.pid" \
            "$work/killed" &
        relay=$!
    fi
    set +e
    # (The subshell's stderr takes bash's notice of a SIGKILLed QEMU.)
    # The test's timeout is kept below (with a look at QEMU first);
    # timeout(1) is the backstop.
    ( timeout -k 5 $((timeout + 60)) "${qemu_cmd[@]}" -serial stdio \
        -monitor "unix:$work/hmp.sock,server=on,wait=off" \
        < /dev/null >> "$plog" 2>&1; exit $? ) 2>/dev/null &
    qpid=$!
    deadline=$((SECONDS + timeout))
    timed_out=0
    if [ $verbose = 1 ]; then
        tail -n +1 -f --pid=$qpid "$plog" &
        tailpid=$!
    fi
    # A guest that panics or reboots has no verdict to give: stop QEMU as
    # soon as the console says so, whatever the kernel then does.
    panicked=0
    stall_dumped=0
    stuck="" stuck_seen="" stuck_next=$((SECONDS + 20))
    while kill -0 $qpid 2>/dev/null; do
        # A vCPU halted with interrupts enabled while its APIC has a
        # vector in service never runs again (hmp-dump.py --stuck): seen
        # twice 10 s apart, the phase ends here rather than at its timeout.
        if [ $SECONDS -ge $stuck_next ]; then
            stuck_next=$((SECONDS + 10))
            now=$(python3 "$here/hmp-dump.py" --stuck "$work/hmp.sock" \
                      "$smp" 2>/dev/null | paste -sd ';' -) || now=""
            if [ -n "$now" ] && [ "$now" = "$stuck_seen" ]; then
                stuck=$now
                { echo "==== run.sh: phase $k: guest vCPU stuck ($now in" \
                       "service, halted, interrupts enabled) for 10 s"
                  python3 "$here/hmp-dump.py" "$work/hmp.sock" "$smp"
                } >> "$plog" 2>&1 || true
                kill -KILL "$(cat "$work/qemu.pid" 2>/dev/null)" 2>/dev/null ||
                    kill $qpid 2>/dev/null
                break
            fi
            stuck_seen=$now
        fi
        # A CPU without timer ticks: QEMU's view of the vCPUs and APICs
        # while it lasts (hmp-dump.py), once a phase.
        if [ $stall_dumped = 0 ] &&
           grep -aq 'Possible timer handling issue on cpu=' "$plog"; then
            stall_dumped=1
            { echo "==== run.sh: the guest reports a CPU without timer ticks"
              python3 "$here/hmp-dump.py" "$work/hmp.sock" "$smp"
            } >> "$plog" 2>&1 || true
        fi
        if grep -qE 'Kernel panic - not syncing|reboot: Restarting system' "$plog"; then
            sleep 1
            panicked=1
            kill $qpid 2>/dev/null
            break
        fi
        if [ $SECONDS -ge $deadline ]; then
            timed_out=1
            hang_report "$k" >> "$plog" 2>&1
            echo "run.sh: phase $k ran out of time (${timeout}s): $(grep -a \
                '^run.sh: QEMU main thread:' "$plog" | tail -n 1 |
                cut -c9-)$(guest_stall)" >&2
            kill -KILL "$(cat "$work/qemu.pid" 2>/dev/null)" 2>/dev/null ||
                kill $qpid 2>/dev/null
            break
        fi
        sleep 0.5
    done
    wait $qpid 2>/dev/null
    qrc=$?
    [ $timed_out = 0 ] || qrc=124
    [ -z "$tailpid" ] || wait "$tailpid"
    set -e
    killed=0
    [ ! -f "$work/killed" ] || killed=1
    if [ -n "$relay" ]; then
        kill "$relay" 2>/dev/null || true
        wait "$relay" 2>/dev/null || true
        cat "$work/qmp-$k.log" >> "$plog" 2>/dev/null || true
    fi
}

# verdict_of LOG: the guest's verdict line, empty if none.
verdict_of() {
    tr -d '\r' < "$1" |
        sed -n "s/.*@@MRSIM-VERDICT $token \([0-9]*\)@@.*/\1/p" | tail -n 1
}

# The log scan (see the header): what fails a run wherever it appears.
scan_bad='Kernel panic|Oops|BUG:|WARNING:|UBSAN|KASAN|Call Trace|general protection'
scan_bad="$scan_bad|qemu-system-[a-z0-9_]+:|Assertion|core dumped"
scan_bad="$scan_bad|AddressSanitizer|LeakSanitizer|runtime error"
# Allowed in every run: messages of the platform (q35, qboot, TCG), not of
# a driver under test, each a single message of one kernel.
platform_allows=(
    # 6.1 on q35 with qboot: the 8254 timer check at boot
    '\.\.MP-BIOS bug: 8254 timer not connected to IO-APIC$'
)
: > "$work/allow"
for a in "${platform_allows[@]}" ${allows[@]+"${allows[@]}"}; do
    printf '%s\n' "$a" >> "$work/allow"
done

# scan_log LOG VERDICT: the lines of one phase's log that fail the run
# (the "#@ allow" patterns applied), then, if the phase gave a verdict but
# no complete dmesg dump, a line saying so.
scan_log() {
    local counts
    counts=$(tr -d '\r' < "$1" | awk -v tok="$token" -v bad="$scan_bad" \
        -v out="$work/scan.raw" '
        BEGIN { printf "" > out }
        index($0, "@@MRSIM-DMESG-BEGIN " tok "@@") { dump = 1; b++; next }
        index($0, "@@MRSIM-DMESG-END " tok "@@") { dump = 0; e++; next }
        $0 ~ bad { print > out; next }
        # dmesg -r: "<N>" is facility * 8 + level; err is 3.
        dump && match($0, /^<[0-9]+>/) {
            n++
            if (substr($0, 2, RLENGTH - 2) % 8 <= 3) print > out
            next
        }
        # Outside the dump, a line opening with the kernel time stamp is
        # a kernel message the quiet console printed: err or worse (those
        # of a phase killed by SIGKILL, which has no dump, or after the
        # dump).  But for the power-off that ends every run.
        !dump && /^\[ *[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]\] / &&
            !/^\[ *[0-9.]+\] reboot: Power down$/ {
            print > out
        }
        END { print b + 0, e + 0, n + 0 }')
    grep -vE -f "$work/allow" "$work/scan.raw" || true
    if [ -n "$2" ] && { [ "${counts% *}" != "1 1" ] || [ "${counts##* }" = 0 ]; }; then
        echo "no complete dmesg dump before the verdict (BEGIN, END" \
             "markers and kernel lines: $counts; tests/guest/init prints it)"
    fi
}

log="$work/serial.log"
: > "$log"
start=$(date +%s.%N)
rc=0
why=""
k=1
while [ $k -le "$phases" ]; do
    run_phase "$k"
    if [ "$phases" -gt 1 ]; then
        echo "==== run.sh: phase $k of $phases ====" >> "$log"
    fi
    cat "$plog" >> "$log"
    verdict=$(verdict_of "$plog")
    where=""
    [ "$phases" = 1 ] || where=" in phase $k"
    if [ -n "$stuck" ]; then
        rc=122
        why="guest vCPU stuck$where: halted with interrupts enabled and"
        why="$why vector(s) in service in its APIC ($stuck): an interrupt"
        why="$why completion lost in QEMU's TCG, not the device's doing"
    elif [ $panicked = 1 ]; then
        rc=125; why="guest kernel panicked or rebooted$where"
    elif [ $k -lt "$phases" ] && [ $killed = 1 ]; then
        echo "==== run.sh: QEMU killed with SIGKILL as the guest asked ====" >> "$log"
    elif [ $killed = 1 ]; then
        rc=125; why="the guest had QEMU killed in its last phase"
    elif [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
        rc=124; why="timeout after ${timeout}s$where"
    elif [ -z "$verdict" ]; then
        rc=125; why="no verdict$where (QEMU exit $qrc; panic or QEMU error?)"
    elif [ "$verdict" != 0 ]; then
        rc=$verdict; why="test failed$where (status $verdict)"
    elif [ "$qrc" != 0 ]; then
        rc=125; why="QEMU exit status $qrc$where after verdict 0"
    fi
    # The whole log of the phase, however it ended.
    scan_log "$plog" "$verdict" > "$work/scan-$k"
    if [ -s "$work/scan-$k" ]; then
        { echo "==== run.sh: log scan of phase $k found:"
          cat "$work/scan-$k"; } >> "$log"
        echo "run.sh: log scan of phase $k found:" >&2
        head -n 20 "$work/scan-$k" | sed 's/^/    /' >&2
        if [ "$rc" = 0 ]; then
            rc=125
            why="log scan$where: $(head -n 1 "$work/scan-$k" | cut -c1-200)"
            n=$(wc -l < "$work/scan-$k")
            [ "$n" = 1 ] || why="$why (and $((n - 1)) more)"
        fi
    fi
    [ "$rc" = 0 ] || break
    # What the guest carries over to the next phases.
    tr -d '\r' < "$plog" |
        sed -n "s/.*@@MRSIM-CARRY $token \([A-Za-z_][A-Za-z0-9_]*\)=\([^@']*\)@@.*/\1='\2'/p" \
        >> "$work/carry"
    k=$((k + 1))
done
wall=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
boot=$(sed -n 's/.*MRSIM-BOOTED uptime=\([0-9.]*\).*/\1/p' "$log" | head -n 1)

if [ "$rc" = 0 ]; then
    # Host checks the guest asked for (in its last phase): the images hold
    # what it read.  Every HOSTCHECK line must parse: one garbled on the
    # console would otherwise drop its comparison unseen.
    tr -d '\r' < "$plog" |
        sed -n "s/.*@@MRSIM-HOSTCHECK $token \([^ ]*\) \([0-9]*\) \([0-9a-f]\{64\}\)@@.*/\1 \2 \3/p" \
        > "$work/hostchecks"
    marks=$(tr -d '\r' < "$plog" | grep -c "@@MRSIM-HOSTCHECK $token" || true)
    if [ "$marks" != "$(wc -l < "$work/hostchecks")" ]; then
        rc=125
        why="host check: $marks HOSTCHECK lines but $(wc -l < "$work/hostchecks") parse (garbled line?)"
        tr -d '\r' < "$plog" | grep "@@MRSIM-HOSTCHECK $token" >> "$log"
    fi
fi
if [ "$rc" = 0 ]; then
    while read -r name bytes sum; do
        f="$work/$name.img"
        if [ ! -f "$f" ]; then
            rc=125; why="host check: no image for disk '$name'"; break
        fi
        got=$(head -c "$bytes" "$f" | sha256sum | cut -d' ' -f1)
        if [ "$(stat -c %s "$f")" != "$bytes" ] || [ "$got" != "$sum" ]; then
            rc=125; why="host check: image of $name differs from what the guest read"
            echo "HOST-CHECK FAIL $name: guest $bytes bytes $sum, image" \
                 "$(stat -c %s "$f") bytes $got" >> "$log"
            break
        fi
        echo "HOST-CHECK ok $name $bytes bytes" >> "$log"
    done < "$work/hostchecks"
fi

if [ "$rc" = 0 ]; then
    for c in ${checks[@]+"${checks[@]}"}; do
        if ! (cd "$top" && bash -euo pipefail -c "$c") >> "$work/host.log" 2>&1; then
            rc=125; why="host check '$c' failed"
            cat "$work/host.log" >> "$log"
            break
        fi
    done
fi
[ -z "$log_copy" ] || cp "$log" "$log_copy"
if [ "$rc" = 0 ]; then
    echo "run: PASS $kernel/$label in ${wall}s (boot ${boot:-?}s)"
    exit 0
fi
logs=${MRSIM_GUEST_LOGS:-$top/build/guest/logs}
mkdir -p "$logs"
keep="$logs/$kernel-$label-$(date +%Y%m%d-%H%M%S).log"
cp "$log" "$keep"
if [ $verbose = 0 ]; then
    echo "---- last lines of the serial log ----" >&2
    tail -n 30 "$log" >&2
fi
echo "run: FAIL $kernel/$label in ${wall}s: $why"
echo "log: $keep"
exit "$rc"
