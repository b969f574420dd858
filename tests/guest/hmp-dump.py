#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Asks a running QEMU, through its human monitor socket, for the state of
# its virtual CPUs and local APICs.  run.sh calls it when a guest stops
# taking timer ticks or runs out of time: whether a halted vCPU had an
# interrupt pending in its APIC, a timer armed, or interrupts disabled
# tells a lost wakeup in TCG from a guest that waits for the device.
#
#   hmp-dump.py HMP_SOCKET NCPUS
#       prints the answers, each line prefixed with "hmp: "
#   hmp-dump.py --stuck HMP_SOCKET NCPUS
#       prints "CPU N: VECTORS" for every vCPU that is halted with
#       interrupts enabled while its APIC has vectors in service, and
#       exits 0 when there is one (1 when none, 2 when QEMU did not
#       answer).  Linux only halts in its idle loop, where nothing is in
#       service, so such a CPU never runs again: every interrupt of lower
#       or equal priority stays blocked behind a vector whose handler
#       never ran or whose end of interrupt was lost.  CI saw it under
#       TCG (6.12, megaraid-9500 probe: the timer vector 236 in service,
#       the driver's MSI-X vectors pending behind it, both vCPUs halted).
import re
import socket
import sys
import time

PROMPT = b"(qemu) "


def read_until_prompt(sock, deadline):
    data = b""
    while not data.endswith(PROMPT):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no monitor prompt")
        sock.settimeout(left)
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("monitor closed the connection")
        data += chunk
    return data[:-len(PROMPT)]


def keep(cmd, line):
    """Of "info registers", only the lines of the CPU's execution state."""
    if cmd != "info registers":
        return True
    return line.startswith(("CPU#", "RIP=", "CR0="))


def ask(path, commands):
    """[(command, [answer lines])] from the monitor at @path."""
    answers = []
    deadline = time.monotonic() + 20
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(path)
        read_until_prompt(sock, deadline)
        for cmd in commands:
            sock.sendall(cmd.encode() + b"\n")
            out = read_until_prompt(sock, deadline)
            lines = []
            for line in out.decode(errors="replace").splitlines():
                line = line.rstrip("\r")
                # The monitor echoes the command with terminal escapes.
                if line and cmd not in line:
                    lines.append(line)
            answers.append((cmd, lines))
    return answers


def per_cpu(ncpus):
    commands = []
    for cpu in range(ncpus):
        commands += ["cpu %d" % cpu, "info lapic", "info registers"]
    return commands


def stuck(path, ncpus):
    """CPUs halted with IF set and vectors in service: {cpu: "v v"}."""
    found = {}
    cpu = None
    isr = ""
    for cmd, lines in ask(path, per_cpu(ncpus)):
        if cmd.startswith("cpu "):
            cpu = int(cmd.split()[1])
        for line in lines:
            if cmd == "info lapic" and line.startswith("ISR"):
                isr = line[3:].strip()
            m = re.search(r"RFL=([0-9a-f]+) .* HLT=(\d)", line)
            if cmd == "info registers" and m:
                if_set = int(m.group(1), 16) & 0x200
                if m.group(2) == "1" and if_set and isr != "(none)":
                    found[cpu] = isr
    return found


def main():
    if sys.argv[1] == "--stuck":
        path, ncpus = sys.argv[2], int(sys.argv[3])
        try:
            found = stuck(path, ncpus)
        except (OSError, TimeoutError, ConnectionError):
            return 2
        for cpu, vectors in sorted(found.items()):
            print("CPU %d: %s" % (cpu, vectors))
        return 0 if found else 1
    path, ncpus = sys.argv[1], int(sys.argv[2])
    commands = ["info cpus"] + per_cpu(ncpus) + ["info irq"]
    try:
        answers = ask(path, commands)
    except (OSError, TimeoutError, ConnectionError) as err:
        print("hmp: no answer from %s: %s" % (path, err))
        return 1
    try:
        for cmd, lines in answers:
            print("hmp: (qemu) " + cmd)
            for line in lines:
                if keep(cmd, line):
                    print("hmp: " + line)
    except BrokenPipeError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
