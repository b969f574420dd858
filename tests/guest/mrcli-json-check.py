#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host check of the mrcli guest tests: every JSON document the guest
# printed between "@@MRCLI-JSON-BEGIN <n>-<ok|refused>@@" and
# "@@MRCLI-JSON-END <same>@@" (tests/guest/lib-mrcli.sh's mr_json) must
# parse as strict JSON, validate against tests/guest/mrcli.schema.json,
# and say "Success" (label ...-ok) or "Failure" (...-refused).  Kernel
# console lines that came between its lines are dropped.  A block
# without its end marker, a label seen twice, or fewer documents than
# --min fail the check.
#
#   tests/guest/mrcli-json-check.py SERIAL-LOG [--min N] [--schema FILE]
import argparse
import json
import os
import re
import sys

import jsonschema

BEGIN = re.compile(r'@@MRCLI-JSON-BEGIN ([0-9]+-(ok|refused))@@')
END = re.compile(r'@@MRCLI-JSON-END ([0-9]+-(ok|refused))@@')
# A kernel message on the console (err and worse reach it) between lines.
KERNEL = re.compile(r'^\[ *[0-9]+\.[0-9]+\] ')


def blocks(path):
    """Yields (label, text) of each block; raises ValueError on a bad one."""
    label, lines = None, []
    with open(path, encoding='utf-8', errors='replace') as f:
        for raw in f:
            line = raw.replace('\r', '').rstrip('\n')
            b, e = BEGIN.search(line), END.search(line)
            if b:
                if label is not None:
                    raise ValueError(f'block {label} has no end marker')
                label, lines = b.group(1), []
            elif e:
                if e.group(1) != label:
                    raise ValueError(f'end marker {e.group(1)} without '
                                     f'its begin (open: {label})')
                yield label, '\n'.join(lines)
                label = None
            elif label is not None and not KERNEL.match(line):
                lines.append(line)
    if label is not None:
        raise ValueError(f'block {label} has no end marker')


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument('log')
    ap.add_argument('--min', type=int, default=1)
    ap.add_argument('--schema', default=os.path.join(here,
                                                     'mrcli.schema.json'))
    args = ap.parse_args()
    with open(args.schema, encoding='utf-8') as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    seen, bad = set(), 0

    def reject(_const):
        raise ValueError(f'not strict JSON: {_const}')

    try:
        for label, text in blocks(args.log):
            if label in seen:
                print(f'mrcli-json: {label}: label seen twice')
                bad += 1
                continue
            seen.add(label)
            try:
                doc = json.loads(text, parse_constant=reject)
            except ValueError as e:
                print(f'mrcli-json: {label}: does not parse: {e}')
                print(text[:2000])
                bad += 1
                continue
            errors = sorted(validator.iter_errors(doc), key=lambda e: e.path)
            for err in errors[:10]:
                where = '/'.join(str(p) for p in err.absolute_path)
                print(f'mrcli-json: {label}: {where}: {err.message}')
            if errors:
                bad += 1
                continue
            status = doc['Controllers'][0]['Command Status']['Status']
            want = 'Success' if label.endswith('-ok') else 'Failure'
            if status != want:
                print(f'mrcli-json: {label}: Status {status}, expected {want}')
                bad += 1
    except ValueError as e:
        print(f'mrcli-json: {e}')
        return 1
    if len(seen) < args.min:
        print(f'mrcli-json: {len(seen)} documents, expected at least '
              f'{args.min}')
        return 1
    print(f'mrcli-json: {len(seen)} documents, {bad} invalid')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
