#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Drives the full boot test (tests/uefi/boot-linux.sh built the drives in
# WORK): QEMU with OVMF and megaraid-9600 booting from the RAID 5 VD; on
# the console, the driver's banner, GRUB, the initramfs mounting the root
# from the VD and the root's init writing files; meanwhile, over QMP, a
# member failed, the hot spare's rebuild followed to the end, then a reset;
# the second boot checks the files.  Prints one TAP line per check.
#
#   boot-linux.py TOP WORK KERNEL-RELEASE [CONTROLLER]
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from qmp import Qmp  # noqa: E402 (tests/lib/qmp.py)

top, work, krel = sys.argv[1:4]
model = sys.argv[4] if len(sys.argv) > 4 else "megaraid-9600"
# the boot driver's banner, the OS driver, and what that driver says when
# it finds the controller as the boot driver left it
banner, driver, handed_back = {
    "megaraid-9600": (r"MegaRAID 9600 \(MPI3\) boot driver", "mpi3mr",
                      r"controller is in reset state during detection"),
    "megaraid-9500": (r"MegaRAID 9500 \(Fusion\) boot driver",
                      "megaraid_sas", r"FW now in Ready state|"
                      r"Waiting for FW to come to ready state"),
}[model]
log_path = os.path.join(work, "console.log")
results = []


def check(ok, what):
    results.append(ok)
    print("%s - %s" % ("ok" if ok else "not ok", what), flush=True)
    return ok


def qom_get(q, path, prop):
    return q.cmd("qom-get", path=path, property=prop).get("return")


def console():
    try:
        with open(log_path, "rb") as f:
            return f.read().decode("latin-1").replace("\r", "")
    except OSError:
        return ""


def wait_console(pattern, timeout, start=0):
    """The first match of pattern after offset start, within timeout s."""
    deadline = time.time() + timeout
    rx = re.compile(pattern)
    while time.time() < deadline:
        m = rx.search(console(), start)
        if m:
            return m
        if qemu.poll() is not None:
            return rx.search(console(), start)
        time.sleep(0.5)
    return None


def dmesg_of(boot_at):
    text = console()[boot_at:]
    m = re.search(r"@@MRSIM-DMESG-BEGIN@@\n(.*?)@@MRSIM-DMESG-END@@", text,
                  re.S)
    return m.group(1) if m else ""


def check_dmesg(boot, at):
    # the root's init prints the kernel log right after its first line
    wait_console(r"@@MRSIM-DMESG-END@@", 60, at)
    kl = dmesg_of(at)
    mpi = [l for l in kl.splitlines() if driver in l]
    check(len(mpi) > 0, "boot %d: %s's kernel log is there (%d lines)" %
          (boot, driver, len(mpi)))
    # err and worse, and splats, anywhere in the kernel log
    bad = [l for l in kl.splitlines()
           if re.match(r"<[0-3]>", l) or
           re.search(r"WARNING:|UBSAN|BUG:|Call Trace", l)]
    check(not bad, "boot %d: no error line in the kernel log%s" %
          (boot, (": " + " | ".join(bad[:3])) if bad else ""))
    found = [l for l in mpi if re.search(handed_back, l)]
    check(len(found) > 0, "boot %d: %s found the controller as the boot "
          "driver left it (%s)" % (boot, driver,
                                   found[0].split("]", 1)[-1].strip()
                                   if found else "not said"))


vars_fd = os.path.join(work, "vars.fd")
shutil.copy("/usr/share/OVMF/OVMF_VARS_4M.fd", vars_fd)
qmp_path = os.path.join(work, "qmp.sock")
args = [os.path.join(top, "build/qemu/qemu-system-x86_64"),
        "-M", "q35", "-m", "1G", "-smp", "1", "-nodefaults",
        "-display", "none",
        "-L", os.path.join(top, "build/qemu/pc-bios"), "-L", "/usr/share/qemu",
        "-drive", "if=pflash,format=raw,unit=0,readonly=on,"
                  "file=/usr/share/OVMF/OVMF_CODE_4M.fd",
        "-drive", "if=pflash,format=raw,unit=1,file=" + vars_fd,
        "-serial", "file:" + log_path,
        "-qmp", "unix:%s,server=on,wait=off" % qmp_path,
        "-device", model + ",id=raid0,bootindex=0"]
for i, name in enumerate(["d0", "d1", "d2", "s"]):
    args += ["-drive", "if=none,id=%s,file=%s/%s.img,format=raw" %
             (name, work, name),
             "-device", "megaraid-drive,id=hd%d,bus=raid0.0,slot=%d,drive=%s" %
             (i, i, name)]
qemu = subprocess.Popen(args, stdout=open(os.path.join(work, "qemu.out"), "w"),
                        stderr=subprocess.STDOUT)
try:
    q = Qmp(qmp_path, 30)
    t0 = time.time()
    m = wait_console(banner + r": 1 disk\(s\); target 0: VD RAID 5 optimal",
                     120)
    check(m is not None, "the boot driver offers the RAID 5 VD")
    m = wait_console(r"MRSIM-ROOT-UP boot=1 root=(\S+)", 400)
    check(m is not None, "GRUB and Linux booted from the VD, root mounted "
          "from it (%s, %.0f s)" % (m.group(1) if m else "-",
                                   time.time() - t0))
    if m is None:
        raise RuntimeError("no first boot")
    boot1 = m.start()
    check_dmesg(1, boot1)
    m = wait_console(r"MRSIM-IO 3\n", 60, boot1)
    check(m is not None, "the running system writes to its root")
    q.cmd("qom-set", path="/machine/peripheral/hd1", property="state",
          value="offline")
    st = qom_get(q, "/machine/peripheral/raid0", "vd0-state")
    spare = qom_get(q, "/machine/peripheral/hd3", "state")
    check(st == "degraded" and spare == "rebuild",
          "a member failed under the running system: VD %s, spare %s" %
          (st, spare))
    deadline = time.time() + 600
    while time.time() < deadline and qemu.poll() is None:
        st = qom_get(q, "/machine/peripheral/raid0", "vd0-state")
        if st == "optimal":
            break
        time.sleep(2)
    io_before = len(re.findall(r"MRSIM-IO \d+\n", console()[boot1:]))
    check(st == "optimal", "the spare rebuilt the VD under the running "
          "system (%d files written by then)" % io_before)
    m = wait_console(r"MRSIM-IO %d\n" % (io_before + 2), 60, boot1)
    check(m is not None and "MRSIM-IO gave up" not in console()[boot1:],
          "the system still writes after the rebuild")
    reset_at = len(console())
    q.cmd("system_reset")
    m = wait_console(banner + r": 1 disk\(s\); target 0: VD RAID 5 optimal",
                     120, reset_at)
    check(m is not None, "after the reset the boot driver offers the "
          "rebuilt VD")
    m = wait_console(r"MRSIM-ROOT-UP boot=2", 400, reset_at)
    check(m is not None, "the machine booted again from the rebuilt VD")
    if m:
        check_dmesg(2, m.start())
    m = wait_console(r"MRSIM-VERIFY (PASS|FAIL)[^\n]*", 120, reset_at)
    check(m is not None and m.group(1) == "PASS",
          "every file written before the failure and during the rebuild "
          "reads back: %s" % (m.group(0) if m else "no verdict"))
    try:
        qemu.wait(60)
    except subprocess.TimeoutExpired:
        pass
    check(qemu.returncode == 0, "the system powered off (QEMU exit %s)" %
          qemu.returncode)
except (OSError, RuntimeError, ValueError) as e:
    check(False, "the run stopped: %s; console tail: %s" %
          (e, console()[-400:].replace("\n", " | ")))
finally:
    if qemu.poll() is None:
        qemu.kill()
        qemu.wait()
sys.exit(0 if all(results) else 1)
