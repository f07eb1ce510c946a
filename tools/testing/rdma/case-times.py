#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The slowest cases of a run's scenarios, from the guests' kernel logs.

ktap.sh writes "ktap-mark SCENARIO N NAME" to /dev/kmsg where a
scenario's plan starts (N 0, no NAME) and where each case ends; a case
took the time between its mark and the one before it in the same
scenario.  The seconds are the guest's clock (slow under TCG on a busy
host: compare cases of one run, not runs).

    case-times.py [--top N] [.testbed]
"""
import argparse
import os
import re
import sys

LINE = re.compile(r'^\[\s*(\d+\.\d+)\]\s*ktap-mark (\S+) (\d+) ?(.*)$')


def cases(path):
    """(seconds, scenario, number, name) of each case in a console log."""
    last = {}
    out = []
    with open(path, errors='replace') as f:
        for raw in f:
            m = LINE.match(raw.rstrip('\n'))
            if not m:
                continue
            t, scen, num, name = float(m[1]), m[2], int(m[3]), m[4]
            if num and scen in last:
                out.append((t - last[scen], scen, num, name))
            last[scen] = t
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('dir', nargs='?', default='.testbed')
    ap.add_argument('--top', type=int, default=30)
    args = ap.parse_args()
    rows = []
    for g in sorted(os.listdir(args.dir)):
        log = os.path.join(args.dir, g, 'console.log')
        if g.startswith('guest-') and os.path.isfile(log):
            rows += [(s, f'{sc} [{g}]', n, name)
                     for s, sc, n, name in cases(log)]
    if not rows:
        print(f'case-times: no ktap-mark in {args.dir}/guest-*/console.log',
              file=sys.stderr)
        return 1
    per = {}
    for s, sc, _, _ in rows:
        per[sc] = per.get(sc, 0) + s
    print(f'{"s":>7}  case')
    for s, sc, n, name in sorted(rows, reverse=True)[:args.top]:
        print(f'{s:7.1f}  {sc} {n} {name}')
    print(f'\n{"s":>7}  scenario (sum of its cases)')
    for sc, s in sorted(per.items(), key=lambda x: -x[1]):
        print(f'{s:7.1f}  {sc}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
