#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# docs/management.md's walkthrough is real output: this script keeps it
# so.  The walkthrough (from "## Walkthrough" to the next "## ") is the
# single source of what runs in the guest:
#
#   - a fenced block whose first line is "$ COMMAND" runs COMMAND, and
#     its output (without mrcli's CLI Version / Operating system lines)
#     is the rest of the block;
#   - "<!-- doc-run: SHELL -->" runs SHELL silently (a wait, a fill);
#   - "<!-- doc-run: volatile -->" before a block: its output depends on
#     the host's speed; it is regenerated but not compared by --check.
#
#   gen-management-doc.py --script DOC OUT      the guest's command list
#   gen-management-doc.py --write LOG DOC       DOC's outputs from a run
#   gen-management-doc.py --check LOG DOC       exit 1 if DOC is stale
#
# LOG is the serial log of tests/guest/tests/management-doc.sh, where
# each command's output stands between @@DOC-BEGIN N@@ and @@DOC-END N
# STATUS@@.  --check compares with GUIDs and digits masked (progress,
# times, sequence numbers and the VD's GUID move from run to run) and
# fails naming the step.
import re
import sys

RUN = re.compile(r'^<!-- doc-run: (.*) -->$')


def walkthrough(lines):
    start = next(i for i, x in enumerate(lines)
                 if x.startswith('## Walkthrough'))
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].startswith('## ')), len(lines))
    return start, end


def items(lines):
    """(kind, line index, text, volatile): kind 'cmd' or 'run'."""
    start, end = walkthrough(lines)
    out, volatile = [], False
    i = start
    while i < end:
        m = RUN.match(lines[i].strip())
        if m and m.group(1) == 'volatile':
            volatile = True
        elif m:
            out.append(('run', i, m.group(1), False))
        elif lines[i].startswith('```') and i + 1 < end and \
                lines[i + 1].startswith('$ '):
            out.append(('cmd', i + 1, lines[i + 1][2:], volatile))
            volatile = False
            while i + 1 < end and not lines[i + 1].startswith('```'):
                i += 1
            i += 1
        elif lines[i].startswith('```'):
            volatile = False
            while i + 1 < end and not lines[i + 1].startswith('```'):
                i += 1
            i += 1
        i += 1
    return out


def outputs(log):
    got, cur, n = {}, None, None
    for line in open(log, errors='replace').read().split('\n'):
        line = line.rstrip('\r')
        m = re.match(r'^@@DOC-BEGIN (\d+)@@$', line)
        if m:
            n, cur = int(m.group(1)), []
            continue
        if re.match(r'^@@DOC-END \d+ \d+@@$', line) and cur is not None:
            got[n] = [x for x in cur
                      if not x.startswith(('CLI Version', 'Operating system'))]
            cur = None
            continue
        if cur is not None:
            cur.append(line)
    return got


def render(lines, got):
    """DOC with every command block's output replaced by the run's."""
    out, cmds = [], [it for it in items(lines) if it[0] == 'cmd']
    at = {it[1]: k for k, it in enumerate(cmds)}
    i = 0
    while i < len(lines):
        out.append(lines[i])
        if i in at:
            k = at[i]
            if k not in got:
                raise SystemExit('gen-management-doc: no output for step %d '
                                 '(%s) in the log' % (k, cmds[k][2]))
            out.extend(got[k])
            while not lines[i + 1].startswith('```'):
                i += 1
        i += 1
    return out


def mask(text):
    """Run-dependent values out: GUIDs (hex), then every number."""
    return re.sub(r'\d+', 'N', re.sub(r'\b[0-9a-f]{16,}\b', 'GUID', text))


def main():
    mode = sys.argv[1]
    if mode == '--script':
        lines = open(sys.argv[2]).read().split('\n')
        with open(sys.argv[3], 'w') as f:
            k = 0
            for kind, _, text, _ in items(lines):
                if kind == 'cmd':
                    f.write('cmd %d %s\n' % (k, text))
                    k += 1
                else:
                    f.write('run %s\n' % text)
        return 0
    log, doc = sys.argv[2], sys.argv[3]
    lines = open(doc).read().split('\n')
    got = outputs(log)
    new = render(lines, got)
    if mode == '--write':
        open(doc, 'w').write('\n'.join(new))
        return 0
    cmds = [it for it in items(lines) if it[0] == 'cmd']
    stale = 0
    for k, (_, idx, text, volatile) in enumerate(cmds):
        if volatile:
            continue
        j = idx + 1
        old = []
        while not lines[j].startswith('```'):
            old.append(lines[j])
            j += 1
        if mask('\n'.join(old)) != mask('\n'.join(got.get(k, []))):
            stale += 1
            print('docs/management.md line %d: "$ %s" shows other output '
                  'than the guest run:' % (idx + 1, text))
            for x in got.get(k, ['(no output in the log)']):
                print('    ' + x)
    if stale:
        print('gen-management-doc: %d stale step(s); regenerate with '
              'scripts/gen-management-doc.py --write LOG docs/management.md'
              % stale)
        return 1
    print('gen-management-doc: %d steps match the guest run' % len(cmds))
    return 0


if __name__ == '__main__':
    sys.exit(main())
