#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Takes a page's guest step apart for a guest test that runs it as
# written: the QEMU arguments of its "tests/guest/run.sh ... --shell --
# ARGS" block (with $PWD replaced by the folder holding the images the
# earlier steps made) and the command lines of the shell block that
# follows it, to be typed in the guest.
#
#   tests/docs/doc-guest-step.py PAGE.md IMAGE-DIR ARGS-OUT STEPS-OUT
#
# ARGS-OUT gets the arguments, one a line (run.sh's "#@ qemu-args");
# STEPS-OUT one guest command a line, its comment dropped.  It exits 1,
# naming the page, when the page has no such pair of blocks.
import shlex
import sys


def sh_blocks(path):
    """The page's ```sh blocks, each a list of lines."""
    out, cur = [], None
    for line in open(path, encoding='utf-8').read().split('\n'):
        if cur is None:
            if line.strip() == '```sh':
                cur = []
        elif line.startswith('```'):
            out.append(cur)
            cur = None
        else:
            cur.append(line)
    return out


def joined(lines):
    return ' '.join(x.rstrip().rstrip('\\') for x in lines)


def main():
    page, images, args_out, steps_out = sys.argv[1:5]
    bl = sh_blocks(page)
    for i, b in enumerate(bl):
        words = shlex.split(joined(b), comments=True)
        if words[:1] != ['tests/guest/run.sh'] or '--shell' not in words \
                or '--' not in words or i + 1 >= len(bl):
            continue
        qemu = words[words.index('--') + 1:]
        with open(args_out, 'w') as f:
            for w in qemu:
                f.write(w.replace('$PWD', images) + '\n')
        with open(steps_out, 'w') as f:
            for line in bl[i + 1]:
                cmd = line.split('#', 1)[0].strip()
                if cmd:
                    f.write(cmd + '\n')
        return 0
    sys.exit('%s: no "tests/guest/run.sh ... --shell -- ARGS" block '
             'followed by a guest block' % page)


if __name__ == '__main__':
    sys.exit(main())
