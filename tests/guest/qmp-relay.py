#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host side of guest-requested QEMU monitor commands (run.sh's "#@ qmp").
# Two ways in:
#
# - the console: for every line
#       @@MRSIM-QMP <token> <json command>@@
#   of the guest's serial log, the command goes to QEMU's QMP socket, in
#   order; the reply only goes to the side log (hot plug tests, which see
#   the effect themselves);
# - the guest's second serial port (ttyS1, a socket chardev): every line
#   the guest writes there is a QMP command in JSON, and its reply goes
#   back on the same line-per-message channel (lib-raid.sh's qmp_call
#   matches replies by the command's "id").  One command of the relay's
#   own: {"execute": "mrsim-kill"} sends SIGKILL to QEMU (its -pidfile) and
#   leaves a flag file, for tests of what survives a killed QEMU.
#
# Everything is appended to the side log as "QMP-RELAY <command> -> <reply>".
#
#   qmp-relay.py SERIAL_LOG QMP_SOCKET TOKEN RELAY_LOG
#                [CHANNEL_SOCKET PIDFILE KILL_FLAG]
import json
import os
import re
import select
import signal
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
            s.close()
            if time.time() > deadline:
                raise
            time.sleep(0.1)


class Qmp:
    def __init__(self, path):
        self.sock = connect(path, time.time() + 60)
        self.f = self.sock.makefile('rw')
        json.loads(self.f.readline())               # greeting
        self.command({'execute': 'qmp_capabilities'})

    def command(self, cmd):
        self.f.write(json.dumps(cmd) + '\n')
        self.f.flush()
        while True:
            line = self.f.readline()
            if not line:
                raise OSError('QMP connection closed')
            msg = json.loads(line)
            if 'event' not in msg:
                return msg


def main():
    log_path, sock_path, token, out_path = sys.argv[1:5]
    chan_path = pidfile = kill_flag = None
    if len(sys.argv) >= 8:
        chan_path, pidfile, kill_flag = sys.argv[5:8]
    marker = re.compile(r'@@MRSIM-QMP ' + re.escape(token) + r' (.*?)@@')
    out = open(out_path, 'a', buffering=1)
    qmp = Qmp(sock_path)
    chan = None
    if chan_path:
        chan = connect(chan_path, time.time() + 60)

    def kill_qemu():
        with open(pidfile) as pf:
            pid = int(pf.read().strip())
        with open(kill_flag, 'w') as kf:
            kf.write('%d\n' % pid)
        os.kill(pid, signal.SIGKILL)
        out.write('QMP-RELAY mrsim-kill -> SIGKILL to QEMU pid %d\n' % pid)

    def run(text, from_guest_port):
        try:
            cmd = json.loads(text)
        except ValueError as e:
            reply = {'error': {'class': 'MrsimRelayError',
                               'desc': 'not JSON: %s' % e}}
            out.write('QMP-RELAY %s -> %s\n' % (text, json.dumps(reply)))
            return reply
        if cmd.get('execute') == 'mrsim-kill' and from_guest_port:
            kill_qemu()
            return None
        reply = qmp.command(cmd)
        out.write('QMP-RELAY %s -> %s\n' % (text, json.dumps(reply)))
        return reply

    while not os.path.exists(log_path):
        time.sleep(0.1)
    pos = 0
    pending = ''
    chan_pending = b''
    while True:
        # The guest's port first: a reply there is what a guest waits for.
        if chan is not None:
            ready, _, _ = select.select([chan], [], [], 0.1)
            if ready:
                data = chan.recv(65536)
                if not data:
                    chan.close()
                    chan = None
                    continue
                chan_pending += data
                while b'\n' in chan_pending:
                    line, chan_pending = chan_pending.split(b'\n', 1)
                    text = line.decode('utf-8', 'replace').strip('\r\x00 ')
                    if not text:
                        continue
                    reply = run(text, True)
                    if reply is not None:
                        chan.sendall(json.dumps(reply).encode() + b'\n')
                continue
        else:
            time.sleep(0.1)
        with open(log_path, 'r', errors='replace') as lf:
            lf.seek(pos)
            data = lf.read()
            pos = lf.tell()
        if not data:
            continue
        pending += data
        lines = pending.split('\n')
        pending = lines.pop()
        for line in lines:
            m = marker.search(line.replace('\r', ''))
            if m:
                run(m.group(1), False)


if __name__ == '__main__':
    try:
        main()
    except (OSError, BrokenPipeError, ValueError):
        pass
