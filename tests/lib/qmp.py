#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A small QMP client for the host-side tests (tests/docs, tests/uefi):
# connects as soon as QEMU's socket is there, negotiates capabilities, and
# sends commands, returning each one's reply (events in between are
# skipped).  As a command:
#
#   tests/lib/qmp.py SOCKET JSON-COMMAND...
#
# sends each command in turn and prints each reply on a line of its own.
import json
import socket
import sys
import time


class Qmp:
    def __init__(self, path, timeout):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                if time.monotonic() > deadline:
                    raise RuntimeError('no QMP socket after %d s' % timeout)
                time.sleep(0.1)
        self.s.settimeout(timeout)
        self.f = self.s.makefile('rw')
        json.loads(self.f.readline())          # the greeting
        self.cmd('qmp_capabilities')

    def send(self, command):
        """Send one command (a dict); its reply."""
        self.f.write(json.dumps(command) + '\n')
        self.f.flush()
        while True:
            line = self.f.readline()
            if not line:
                raise RuntimeError('QMP connection closed')
            r = json.loads(line)
            if 'return' in r or 'error' in r:
                return r

    def cmd(self, name, **args):
        return self.send({'execute': name, 'arguments': args})

    def close(self):
        self.f.close()
        self.s.close()


def main():
    q = Qmp(sys.argv[1], 10)
    for c in sys.argv[2:]:
        print(json.dumps(q.send(json.loads(c))), flush=True)
    q.close()


if __name__ == '__main__':
    main()
