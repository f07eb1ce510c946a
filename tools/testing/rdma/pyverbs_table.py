#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Side-by-side table of rdma-core's pyverbs tests, upstream's stack and ours.

Reads the KTAP log of scenario 86-pyverbs (.testbed/guest-N/ktap.log):
its "pyverbs-module: STACK DEV MODULE pass=P fail=F skip=S error=E" and
"pyverbs-test: STACK DEV ID STATUS" lines.  Prints one row per test
module with passed/failed/skipped/errors of each stack x device, then
by name the tests that upstream passes on a device and ours does not
on the same device, each with the last line of ours' traceback ("pyverbs-why:"
lines), and, for the record, those ours passes and upstream does not.  Exit status 1 when there is such a regression, 2 when the
log has no pyverbs lines.

    python3 tools/testing/rdma/pyverbs_table.py .testbed/guest-1/ktap.log
"""

import argparse
import re
import sys

MODULE_RE = re.compile(r'pyverbs-module: (\S+) (\S+) (\S+) pass=(\d+) '
                       r'fail=(\d+) skip=(\d+) error=(\d+)')
TEST_RE = re.compile(r'pyverbs-test: (\S+) (\S+) (\S+) (pass|fail|skip|error)$')
WHY_RE = re.compile(r'pyverbs-why: (\S+) (\S+) (\S+) (.*)$')


def parse(path):
    """Per-module counts, per-test statuses and failure lines, by (stack, device)."""
    modules = {}
    tests = {}
    why = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = MODULE_RE.search(line)
            if m:
                key = (m.group(1), m.group(2))
                modules.setdefault(key, {})[m.group(3)] = \
                    tuple(int(m.group(i)) for i in range(4, 8))
                continue
            m = TEST_RE.search(line)
            if m:
                key = (m.group(1), m.group(2))
                tests.setdefault(key, {})[m.group(3)] = m.group(4)
                continue
            m = WHY_RE.search(line)
            if m:
                why.setdefault((m.group(1), m.group(2)), {})[m.group(3)] = \
                    m.group(4)
    return modules, tests, why


def kind(dev):
    """The device kind of a device name (pvrxe0: rxe)."""
    for k in ('rxe', 'siw', 'loop'):
        if k in dev:
            return k
    return dev


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('log', help='KTAP log of a run with 86-pyverbs')
    args = ap.parse_args()
    modules, tests, why = parse(args.log)
    if not modules and not tests:
        print(f'{args.log}: no pyverbs lines', file=sys.stderr)
        return 2

    order = {'upstream': 0, 'ours': 1}
    kinds = {'rxe': 0, 'siw': 1, 'loop': 2}
    cols = sorted(set(modules) | set(tests),
                  key=lambda k: (kinds.get(kind(k[1]), 3), kind(k[1]),
                                 order.get(k[0], 2), k))
    names = sorted({m for c in modules.values() for m in c})
    width = max([len('module')] + [len(n) for n in names])
    print('pass/fail/skip/error per test module')
    print(f'{"module":<{width}}  ' +
          '  '.join(f'{s + " " + kind(d):>16}' for s, d in cols))
    totals = {c: [0, 0, 0, 0] for c in cols}
    for name in names:
        cells = []
        for c in cols:
            v = modules.get(c, {}).get(name)
            if v is None:
                cells.append(f'{"-":>16}')
                continue
            totals[c] = [a + b for a, b in zip(totals[c], v)]
            cells.append(f'{"/".join(map(str, v)):>16}')
        print(f'{name:<{width}}  ' + '  '.join(cells))
    print(f'{"total":<{width}}  ' +
          '  '.join(f'{"/".join(map(str, totals[c])):>16}' for c in cols))

    regressed = 0
    for up in [c for c in cols if c[0] == 'upstream']:
        for ours in [c for c in cols if c[0] == 'ours' and
                     kind(c[1]) == kind(up[1])]:
            ut, ot = tests.get(up, {}), tests.get(ours, {})
            lost = sorted(t for t, s in ut.items()
                          if s == 'pass' and ot.get(t) != 'pass')
            gained = sorted(t for t, s in ot.items()
                            if s == 'pass' and ut.get(t) != 'pass')
            print()
            print(f'{kind(up[1])}: upstream passes {len(lost)} test(s) '
                  f'that ours does not')
            for t in lost:
                reason = why.get(ours, {}).get(t)
                print(f'  {t}: ours {ot.get(t, "not run")}, upstream pass' +
                      (f': {reason}' if reason else ''))
            if gained:
                print(f'{kind(up[1])}: ours passes {len(gained)} test(s) '
                      f'that upstream does not')
                for t in gained:
                    print(f'  {t}: upstream {ut.get(t, "not run")}, ours pass')
            regressed += len(lost)
    return 1 if regressed else 0


if __name__ == '__main__':
    sys.exit(main())
