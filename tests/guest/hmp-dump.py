#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Asks a running QEMU, through its human monitor socket, for the state of
# its virtual CPUs and local APICs, and prints the answers, each line
# prefixed with "hmp: ".  run.sh calls it when a guest stops taking timer
# ticks or runs out of time: whether a halted vCPU had an interrupt
# pending in its APIC, a timer armed, or interrupts disabled tells a lost
# wakeup in TCG from a guest that waits for the device.
#
#   hmp-dump.py HMP_SOCKET NCPUS
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


def main():
    path, ncpus = sys.argv[1], int(sys.argv[2])
    commands = ["info cpus"]
    for cpu in range(ncpus):
        commands += ["cpu %d" % cpu, "info lapic",
                     "info registers"]
    commands += ["info irq"]
    deadline = time.monotonic() + 20
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.connect(path)
            read_until_prompt(sock, deadline)
            for cmd in commands:
                sock.sendall(cmd.encode() + b"\n")
                out = read_until_prompt(sock, deadline)
                print("hmp: (qemu) " + cmd)
                for line in out.decode(errors="replace").splitlines():
                    line = line.rstrip("\r")
                    # The monitor echoes the command with terminal escapes.
                    if line and cmd not in line and keep(cmd, line):
                        print("hmp: " + line)
    except BrokenPipeError:
        return 1
    except (OSError, TimeoutError, ConnectionError) as err:
        print("hmp: no answer from %s: %s" % (path, err))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
