#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host side of guest-requested QEMU monitor commands (hot plug tests):
# follows a guest's serial log and, for every line
#   @@MRSIM-QMP <token> <json command>@@
# sends the command to QEMU's QMP socket, in order, and appends
#   QMP-RELAY <command> -> <reply>
# to a side log.  The guest observes the effect itself (a disk appears or
# goes away); the relay only carries commands.
#
#   qmp-relay.py SERIAL_LOG QMP_SOCKET TOKEN RELAY_LOG
import json
import os
import re
import socket
import sys
import time


def connect(path, deadline):
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.1)


def main():
    log_path, sock_path, token, out_path = sys.argv[1:5]
    marker = re.compile(r'@@MRSIM-QMP ' + re.escape(token) + r' (.*?)@@')
    out = open(out_path, 'a', buffering=1)
    sock = connect(sock_path, time.time() + 60)
    f = sock.makefile('rw')
    json.loads(f.readline())                    # greeting
    f.write(json.dumps({'execute': 'qmp_capabilities'}) + '\n')
    f.flush()
    f.readline()

    def reply():
        while True:
            line = f.readline()
            if not line:
                return None
            msg = json.loads(line)
            if 'event' not in msg:
                return msg

    while not os.path.exists(log_path):
        time.sleep(0.1)
    pos = 0
    pending = ''
    while True:
        with open(log_path, 'r', errors='replace') as lf:
            lf.seek(pos)
            data = lf.read()
            pos = lf.tell()
        if data:
            pending += data
            lines = pending.split('\n')
            pending = lines.pop()
            for line in lines:
                m = marker.search(line.replace('\r', ''))
                if not m:
                    continue
                cmd = m.group(1)
                try:
                    f.write(json.dumps(json.loads(cmd)) + '\n')
                    f.flush()
                    out.write('QMP-RELAY %s -> %s\n' % (cmd, json.dumps(reply())))
                except (OSError, ValueError) as e:
                    out.write('QMP-RELAY %s -> error %s\n' % (cmd, e))
                    return
        else:
            time.sleep(0.1)


if __name__ == '__main__':
    try:
        main()
    except (OSError, BrokenPipeError):
        pass
