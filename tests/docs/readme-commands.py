#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs the command lines of README.md (and of the other pages given) as
# they are written, so that an example that does not run fails the suite.
# A shell block runs when the line before its fence is
#
#   <!-- test: commands -->
#
# The marked blocks of one page run in order, in one fresh directory in
# which build/ is the tree's build folder: README's paths
# (build/qemu/qemu-system-x86_64, build/core/megaraid-img) work as given.
# Each command must exit 0 within its timeout.  A qemu-system-x86_64
# command runs with only "-S -qmp unix:SOCKET,server=on,wait=off" added
# (the vCPU stopped, a socket of the test's own); the comment lines after
# it that read
#
#   #   qom-set PATH PROPERTY VALUE
#   #   qom-get PATH PROPERTY [-> "STRING" [within N s] | -> MIN..MAX |
#                           -> any words]
#   #   (qemu) HMP-COMMAND [-> "TEXT"]
#
# are sent over QMP, and a qom-get's value must be the STRING or lie in
# MIN..MAX when the comment says so ("within N s": read again until it
# is the STRING, for at most N seconds), an HMP command's output hold
# TEXT.  Then the test quits QEMU over QMP:
# it must exit 0, and print on stderr exactly the lines the block's
# comments announce as
#
#   # QEMU prints: TEXT
#
# (nothing else: no stray warning; and each announced line does appear).
#
#   tests/docs/readme-commands.py [--keep DIR] TOP [PAGE.md...]
#
# prints TAP.  --keep DIR runs the (one) page in DIR and leaves the files
# its commands made there, for a test that goes on from them (the guest
# step of docs/first-five-minutes.md).
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
from qmp import Qmp  # noqa: E402 (tests/lib/qmp.py)

MARK = '<!-- test: commands -->'
CMD_TIMEOUT = 180
FAILED = []
QEMU_TIMEOUT = 30


def blocks(path):
    """The marked shell blocks of a page: (line number, [lines])."""
    out = []
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        if lines[i].strip() == MARK and i + 1 < len(lines) and \
                lines[i + 1].startswith('```'):
            start = i + 2
            j = start
            while j < len(lines) and not lines[j].startswith('```'):
                j += 1
            out.append((start + 1, lines[start:j]))
            i = j
        i += 1
    return out


def logical(lines):
    """Join continuation lines; keep comments apart."""
    cmds, cur = [], ''
    for line in lines:
        if not cur and line.lstrip().startswith('#'):
            cmds.append(line.strip())
            continue
        if line.rstrip().endswith('\\'):
            cur += line.rstrip()[:-1] + ' '
            continue
        cur += line
        if cur.strip():
            cmds.append(cur.strip())
        cur = ''
    if cur.strip():
        cmds.append(cur.strip())
    return cmds


def qmp_step(qmp, comment):
    """One '#   qom-set/get ...' comment; None when it is not one."""
    h = re.match(r'#\s+\(qemu\)\s+(.*?)\s*(?:->\s*(".*"))?\s*$', comment)
    if h:
        r = qmp.cmd('human-monitor-command', **{'command-line': h.group(1)})
        if 'error' in r:
            return '%s: %s' % (comment, r['error']['desc'])
        if h.group(2) and json.loads(h.group(2)) not in r['return']:
            return '%s: prints %s' % (comment, json.dumps(r['return']))
        return ''
    m = re.match(r'#\s+(qom-set|qom-get)\s+(\S+)\s+(\S+)(.*)$', comment)
    if not m:
        return None
    verb, path, prop, rest = m.groups()
    rest = rest.strip()
    if verb == 'qom-set':
        value = rest.split()[0]
        r = qmp.cmd('qom-set', path=path, property=prop, value=value)
        if 'error' in r:
            return '%s: %s' % (comment, r['error']['desc'])
        return ''
    want = re.match(r'->\s*(.*)$', rest)
    want = want.group(1).strip() if want else ''
    within = re.match(r'^(".*")\s+within\s+(\d+)\s*s\b', want)
    deadline = time.monotonic() + (int(within.group(2)) if within else 0)
    while True:
        r = qmp.cmd('qom-get', path=path, property=prop)
        if 'error' in r:
            return '%s: %s' % (comment, r['error']['desc'])
        got = r['return']
        if not within or json.dumps(got) == within.group(1) or \
                time.monotonic() > deadline:
            break
        time.sleep(0.5)
    rng = re.match(r'^(-?\d+)\.\.(-?\d+)$', want)
    if want.startswith('"'):
        if json.dumps(got) != want.split()[0]:
            return '%s: reads %s' % (comment, json.dumps(got))
    elif rng:
        if not isinstance(got, int) or \
                not int(rng.group(1)) <= got <= int(rng.group(2)):
            return '%s: reads %s' % (comment, json.dumps(got))
    return ''


def run_qemu(cmd, comments, cwd, sock):
    """The QEMU command with its QMP steps; an error message or ''."""
    err_path = os.path.join(cwd, 'qemu.stderr')
    with open(err_path, 'w') as err:
        p = subprocess.Popen(['bash', '-c', 'exec %s -S -qmp unix:%s,'
                              'server=on,wait=off' % (cmd, sock)],
                             cwd=cwd, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=err)
    problem = ''
    try:
        qmp = Qmp(sock, QEMU_TIMEOUT)
        for c in comments:
            problem = qmp_step(qmp, c) or ''
            if problem:
                break
        qmp.cmd('quit')
        qmp.close()
    except (OSError, RuntimeError, ValueError) as e:
        problem = 'QMP: %s' % e
    try:
        rc = p.wait(QEMU_TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        rc = 'killed after %d s' % QEMU_TIMEOUT
    stderr = open(err_path).read().strip()
    os.unlink(err_path)
    announced = [m.group(1).strip() for m in
                 (re.match(r'#\s*QEMU prints:\s*(.*)$', c) for c in comments)
                 if m]
    lines = [x for x in stderr.split('\n') if x.strip()]
    stray = [x for x in lines if not any(a in x for a in announced)]
    unseen = [a for a in announced if not any(a in x for x in lines)]
    stderr = '; '.join(stray)
    if not problem and unseen:
        problem = 'announced but not printed: %s' % '; '.join(unseen)
    if os.path.exists(sock):
        os.unlink(sock)
    if problem:
        return problem + (' (stderr: %s)' % stderr if stderr else '')
    if rc != 0:
        return 'exit status %s: %s' % (rc, stderr)
    if stderr:
        return 'stderr: %s' % stderr
    return ''


def run_page(top, page, n, keep=None):
    """Run a page's marked blocks; returns the next test number."""
    bl = blocks(page)
    name = os.path.relpath(page, top)
    if not bl:
        n += 1
        FAILED.append(n)
        print('not ok %d - %s: no block marked "%s"' % (n, name, MARK))
        return n
    tmp = keep or tempfile.mkdtemp(prefix='readme-commands-')
    os.makedirs(tmp, exist_ok=True)
    os.symlink(os.path.join(top, 'build'), os.path.join(tmp, 'build'))
    sock = os.path.join(tmp, 'test-qmp.sock')
    try:
        for line, lines in bl:
            cmds = logical(lines)
            for i, cmd in enumerate(cmds):
                if cmd.startswith('#'):
                    continue
                first = cmd.split()[0]
                t0 = time.monotonic()
                if first.endswith('qemu-system-x86_64'):
                    comments = []
                    for c in cmds[i + 1:]:
                        if not c.startswith('#'):
                            break
                        comments.append(c)
                    problem = run_qemu(cmd, comments, tmp, sock)
                    what = '%s line %d: QEMU (%d QMP steps)' % \
                        (name, line, sum(1 for c in comments
                                         if re.match(r'#\s+(qom-|\(qemu\))',
                                                     c)))
                else:
                    try:
                        r = subprocess.run(['bash', '-c', cmd], cwd=tmp,
                                           stdin=subprocess.DEVNULL,
                                           capture_output=True, text=True,
                                           timeout=CMD_TIMEOUT)
                        problem = '' if r.returncode == 0 else \
                            'exit status %d: %s' % \
                            (r.returncode, (r.stderr or r.stdout).strip())
                    except subprocess.TimeoutExpired:
                        problem = 'no exit after %d s' % CMD_TIMEOUT
                    what = '%s line %d: %s' % (name, line, ' '.join(
                        cmd.split()[:3]))
                n += 1
                dt = time.monotonic() - t0
                if problem:
                    FAILED.append(n)
                    print('not ok %d - %s: %s' % (n, what, problem))
                else:
                    print('ok %d - %s (%.1f s)' % (n, what, dt))
                sys.stdout.flush()
    finally:
        if keep:
            os.unlink(os.path.join(tmp, 'build'))
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return n


def main():
    args = sys.argv[1:]
    keep = None
    if args[:1] == ['--keep']:
        keep = os.path.abspath(args[1])
        args = args[2:]
    top = os.path.abspath(args[0])
    pages = args[1:] or [os.path.join(top, 'README.md')]
    if keep and len(pages) != 1:
        sys.exit('readme-commands.py: --keep takes one page')
    n = 0
    for page in pages:
        n = run_page(top, os.path.abspath(page), n, keep)
    print('1..%d' % n)
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
