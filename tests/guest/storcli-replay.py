#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host side of tests/guest/tests/storcli-v1.sh: replays what the guest's
# storcli64 printed for each of the collector's command lines (blocks
# "@@STORCLI-BEGIN STATE|ARGS@@ ... @@STORCLI-END@@" in the serial log)
# to the unmodified prometheus-node-exporter-collectors storcli.py
# (installed by scripts/setup-guest-deps.sh), through a shim called as its
# --storcli_path, and checks the metrics it prints: the controller, the
# VD with its real state, every drive with its state, temperature-related
# and error counters, and that they change between the states.
#
# With --storcli2 (tests/guest/tests/storcli-v2.sh) the captures are
# storcli2's documents: they are checked directly (the collector knows
# only storcli v1's keys; it must still run to its end on them, as it does
# on a real storcli2 card).
#
# The v1 captures are also run through the newest collector (Debian sid's
# storcli.py, unpacked by scripts/setup-guest-deps.sh), which adds drive
# temperatures, the CacheVault, the controller's health and clock skew.
#
#   tests/guest/storcli-replay.py [--storcli2] SERIAL-LOG [--collector PATH]
#                                 [--collector-newest PATH]
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

COLLECTOR = '/usr/share/prometheus-node-exporter-collectors/storcli.py'
NEWEST = '/usr/local/share/megaraid-sim/collectors-sid/storcli.py'
# the collectors run under the Debian interpreter their packages' modules
# (python3-prometheus-client) are installed for
PYTHON = '/usr/bin/python3' if os.path.exists('/usr/bin/python3') \
    else sys.executable

SHIM = '''#!/usr/bin/env python3
import json, sys
with open(%r) as f:
    table = json.load(f)
args = ' '.join(sys.argv[1:])
if args not in table:
    sys.stderr.write('storcli shim: no capture for %%r\\n' %% args)
    sys.exit(2)
sys.stdout.write(table[args])
'''


def captures(log):
    text = open(log, encoding='utf-8', errors='replace').read()
    text = text.replace('\r\n', '\n')
    states = {}
    for m in re.finditer(r'@@STORCLI-BEGIN ([a-z]+)\|([^@]*)@@\n(.*?)'
                         r'@@STORCLI-END@@', text, re.S):
        states.setdefault(m.group(1), {})[m.group(2)] = m.group(3)
    return states


def metrics(collector, table):
    with tempfile.TemporaryDirectory() as d:
        tf = os.path.join(d, 'table.json')
        with open(tf, 'w') as f:
            json.dump(table, f)
        shim = os.path.join(d, 'storcli64')
        with open(shim, 'w') as f:
            f.write(SHIM % tf)
        os.chmod(shim, 0o755)
        p = subprocess.run([PYTHON, collector, '--storcli_path',
                            shim], capture_output=True, text=True,
                           timeout=60)
    if p.returncode != 0:
        raise SystemExit('collector failed (%d): %s' % (p.returncode,
                                                         p.stderr))
    out = {}
    for line in p.stdout.splitlines():
        if line.startswith('#') or not line.strip():
            continue
        m = re.match(r'(\w+)\{(.*)\} (\S+)$', line)
        if not m:
            raise SystemExit('collector printed %r' % line)
        labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
        out.setdefault(m.group(1), []).append((labels, float(m.group(3))))
    return out, p.stdout


def one(ms, name, **want):
    hits = [(lb, v) for lb, v in ms.get(name, [])
            if all(lb.get(k) == str(x) for k, x in want.items())]
    if len(hits) != 1:
        raise AssertionError('%s%r: %d series, expected 1 (%r)' %
                             (name, want, len(hits), ms.get(name)))
    return hits[0]


def check_storcli2(st, collector):
    """storcli2's documents per state; the collector must not fail."""
    expect = {
        'optimal': ('Optl', 'Online', 41, 0, 1),
        'degraded': ('Dgrd', 'Offline', 52, 1, 1),
        'rebuilding': ('Dgrd', 'Rebuild', 52, 1, 4),
    }
    fails = 0
    for s, (vd, st1, temp1, pred1, media2) in expect.items():
        try:
            ctrl = json.loads(st[s]['/cALL show all J nolog'])
            pds = json.loads(st[s]['/cALL/eALL/sALL show all J nolog'])
            r = ctrl['Controllers'][0]['Response Data']
            assert r['Version']['Driver Name'] == 'mpi3mr', r['Version']
            assert isinstance(r['HwCfg']['Chip temperature(C)'], int)
            assert r['VD LIST'][0]['State'] == vd, r['VD LIST']
            assert r['Status']['VD Degraded Count'] == (vd == 'Dgrd')
            rows = {p['EID:Slt']: p for p in r['PD LIST']}
            assert sorted(rows) == ['252:0', '252:1', '252:2'], rows
            assert (rows['252:1']['State'], rows['252:1']['Status']) == \
                ('Conf', st1), rows['252:1']
            for k in ('252:0', '252:2'):
                assert (rows[k]['State'], rows[k]['Status']) == \
                    ('Conf', 'Online'), rows[k]
            dl = pds['Controllers'][0]['Response Data']['Drives List']
            info = {d['Drive Information']['EID:Slt']:
                    d['Drive Detailed Information'] for d in dl}
            assert sorted(info) == sorted(rows), info.keys()
            d1, d2 = info['252:1'], info['252:2']
            assert d1['Temperature(C)'] == temp1, d1
            assert d1['LU/NS Properties']['Other Error Count'] == 2, d1
            assert d1['LU/NS Properties']['Predictive Failure Count'] == \
                pred1, d1
            assert d2['LU/NS Properties']['Media Error Count'] == media2, d2
            assert d1['Serial Number'] and d1['WWN'] != 'NA', d1
            metrics(collector, st[s])
            print('storcli-replay: storcli2 %s: ok (VD %s, drive 1 Conf/%s)'
                  % (s, vd, st1))
        except (AssertionError, KeyError, ValueError) as e:
            fails += 1
            print('storcli-replay: storcli2 %s: FAIL: %r' % (s, e))
    return 1 if fails else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('log')
    ap.add_argument('--collector', default=COLLECTOR)
    ap.add_argument('--collector-newest', default=NEWEST)
    ap.add_argument('--storcli2', action='store_true')
    args = ap.parse_args()
    for c in (args.collector, args.collector_newest):
        if not os.path.isfile(c):
            print('storcli-replay: %s is missing (scripts/setup-guest-deps.sh '
                  'installs both prometheus-node-exporter-collectors)' % c)
            return 1
    st = captures(args.log)
    want_states = ['optimal', 'degraded', 'rebuilding']
    if sorted(st) != sorted(want_states):
        print('storcli-replay: captured states %r, expected %r' %
              (sorted(st), want_states))
        return 1
    if args.storcli2:
        return max(check_storcli2(st, args.collector),
                   check_storcli2(st, args.collector_newest))
    return max(check_v1(st, args.collector, 'bookworm', False),
               check_v1(st, args.collector_newest, 'newest', True))


def check_newest(ms, s):
    """What only the newest collector reads: drive temperatures, the
    CacheVault, the controller's health and its clock."""
    temps = {'optimal': (33, 41), 'degraded': (33, 52),
             'rebuilding': (33, 52)}[s]
    got = tuple(one(ms, 'megaraid_pd_temp_celsius', controller=0,
                    enclosure=252, slot=slot)[1] for slot in (0, 1))
    assert got == temps, 'drive temperatures %r, expected %r' % (got, temps)
    one(ms, 'megaraid_pd_temp_celsius', controller=0, enclosure=252, slot=2)
    healthy = one(ms, 'megaraid_healthy', controller=0)[1]
    assert healthy == (s == 'optimal'), 'healthy %r in %s' % (healthy, s)
    assert one(ms, 'megaraid_failed', controller=0)[1] == 0
    skew = one(ms, 'megaraid_time_difference', controller=0)[1]
    assert 0 <= skew < 60, 'controller clock %r s off' % skew
    assert one(ms, 'megaraid_cv_temperature', controller=0,
               cvidx=0)[1] == 28
    assert one(ms, 'megaraid_cv_state', controller=0, cvidx=0,
               state='optimal')[1] == 1
    for slot in range(3):
        assert one(ms, 'megaraid_pd_device_speed_gbps', controller=0,
                   enclosure=252, slot=slot)[1] > 0
        one(ms, 'megaraid_pd_commissioned_spare', controller=0,
            enclosure=252, slot=slot)


def check_v1(st, collector, name, newest):
    """storcli v1's documents per state through one collector."""
    want_states = ['optimal', 'degraded', 'rebuilding']
    # per state: VD state, drive 1 state, (temperature label not in
    # bookworm's collector) error counters of drives 1 and 2
    expect = {
        'optimal': ('Optl', 'Onln', 2, 0, 0, 1),
        'degraded': ('Dgrd', 'Offln', 2, 1, 1, 1),
        'rebuilding': ('Dgrd', 'Rbld', 2, 1, 1, 4),
    }
    fails = 0
    seen = {}
    for s in want_states:
        ms, text = metrics(collector, st[s])
        vd, pd1, other1, pred1, smart1, media2 = expect[s]
        try:
            one(ms, 'megaraid_controller_info', controller=0)
            one(ms, 'megaraid_temperature', controller=0)
            one(ms, 'megaraid_battery_backup_healthy', controller=0)
            assert one(ms, 'megaraid_virtual_drives', controller=0)[1] == 1
            one(ms, 'megaraid_vd_info', controller=0, DG=0, VG=0,
                type='RAID5', state=vd)
            assert one(ms, 'megaraid_physical_drives',
                       controller=0)[1] == 3
            for slot in range(3):
                state = pd1 if slot == 1 else 'Onln'
                lb, _ = one(ms, 'megaraid_pd_info', controller=0,
                            enclosure=252, slot=slot, state=state)
                assert lb.get('serial'), lb
                for c in ('pd_shield_counter', 'pd_media_errors',
                          'pd_other_errors', 'pd_predictive_errors',
                          'pd_smart_alerted', 'pd_link_speed_gbps'):
                    one(ms, 'megaraid_' + c, controller=0, enclosure=252,
                        slot=slot)
            got = (one(ms, 'megaraid_pd_other_errors', controller=0,
                       enclosure=252, slot=1)[1],
                   one(ms, 'megaraid_pd_predictive_errors', controller=0,
                       enclosure=252, slot=1)[1],
                   one(ms, 'megaraid_pd_smart_alerted', controller=0,
                       enclosure=252, slot=1)[1],
                   one(ms, 'megaraid_pd_media_errors', controller=0,
                       enclosure=252, slot=2)[1])
            assert got == (other1, pred1, smart1, media2), \
                'counters %r, expected %r' % (got, (other1, pred1, smart1,
                                                   media2))
            if newest:
                check_newest(ms, s)
            print('storcli-replay: %s %s: ok (VD %s, drive 1 %s, %d series)'
                  % (name, s, vd, pd1, sum(len(v) for v in ms.values())))
        except AssertionError as e:
            fails += 1
            print('storcli-replay: %s %s: FAIL: %s\n%s' % (name, s, e, text))
        seen[s] = text
    if len(set(seen.values())) != len(seen):
        fails += 1
        print('storcli-replay: %s: the metrics do not change between '
              'states' % name)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
