#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""How the check run's work is split between the guests, and what it costs.

One algorithm for two users:

  vm-run.sh      writes each guest's plan (/testbed/plan.N) with
                 "plan.py split"
  budget check   "plan.py budget" computes the expected wall time of a
                 run from the measured durations, as the guests would split
                 the items, and fails when it is over the budget

The durations file (tools/testing/rdma/durations for the quick tier that
make check runs, durations-full for make check-full) has lines
"KIND NAME SECONDS": KIND kunit (a KUnit module), scenario (a scenario,
without .sh; a wire scenario once per guest as NAME.guestN), boot (the
kernel's boot up to init), final (the unload and the kmemleak scan at the
end) and step (a step of make check outside the VM: the build and the
other steps before the guests start).  An item without a line costs
DEFAULT seconds.  "make durations" refreshes the file from a run
(results.py writes .testbed/durations in the same format).

Split: wire scenarios go first to guests 1 and 2 both (they meet over the
wire); then the other items, the costliest first, each to the guest with
the least work so far.
"""
import argparse
import os
import sys

DEFAULT = 60.0


def read_durations(path):
    known = {}
    if path and os.path.isfile(path):
        for line in open(path):
            w = line.split()
            if len(w) == 3 and not line.startswith('#'):
                try:
                    known[(w[0], w[1])] = float(w[2])
                except ValueError:
                    pass
    return known


def item_seconds(known, kind, name, guest):
    """The seconds of a plan line (kind, name) of guest GUEST (from 1) by
    the durations: a wire scenario's are its half's (NAME.guestN)."""
    if kind == 'kunit':
        return known.get(('kunit', name), DEFAULT)
    name = name[:-3] if name.endswith('.sh') else name
    if kind == 'wire':
        name = f'{name}.guest{guest}'
    return known.get(('scenario', name), DEFAULT)


def split(guests, known, kunit, scenarios, wire):
    """kunit: [(name, deps)]; scenarios, wire: file names (NAME.sh).
    Returns ([[(kind, name, deps)] per guest], [seconds per guest])."""
    items = [('kunit', name, deps) for name, deps in kunit]
    items += [('scenario', s, '') for s in scenarios if s not in wire]

    def cost(it):
        return item_seconds(known, it[0], it[1], 0)

    load = [0.0] * guests
    plan = [[] for _ in range(guests)]
    for s in sorted(wire):
        for g in range(min(guests, 2)):
            load[g] += item_seconds(known, 'wire', s, g + 1)
            plan[g].append(('wire', s, ''))
        if guests == 1:
            plan[0].append(('wire', s, ''))
    for it in sorted(items, key=lambda it: (-cost(it), it[1])):
        g = load.index(min(load))
        plan[g].append(it)
        load[g] += cost(it)
    order = {'wire': 0, 'kunit': 1, 'scenario': 2}
    for g in range(guests):
        # Wire scenarios first, then KUnit modules, then the scenarios,
        # each in name order, except that KUnit modules go by their
        # dependencies first: the guest keeps what the next module needs
        # loaded.
        plan[g].sort(key=lambda it: (order[it[0]],
                                     it[2] if it[0] == 'kunit' else '', it[1]))
    return plan, load


def cmd_split(args):
    known = read_durations(args.durations)
    kunit = []
    for line in open(args.kunit_list):
        w = line.split()
        if w:
            kunit.append((w[0], ' '.join(w[1:])))
    wire = args.wire.split()
    scen = [os.path.basename(s) for s in args.scenarios]
    plan, load = split(args.guests, known, kunit, scen, wire)
    for g in range(args.guests):
        with open(os.path.join(args.dest, f'plan.{g + 1}'), 'w') as f:
            for kind, name, deps in plan[g]:
                f.write(f'{kind} {name} {deps}'.rstrip() + '\n')
        # the seconds each of those lines takes by the durations, line
        # for line: the guest stretches its time limits by how far
        # behind them it runs
        with open(os.path.join(args.dest, f'plan.{g + 1}.secs'), 'w') as f:
            for kind, name, _ in plan[g]:
                f.write(f'{int(item_seconds(known, kind, name, g + 1))}\n')
        print(f'vm-run: guest {g + 1}: {len(plan[g])} item(s), about '
              f'{int(load[g])}s of work by {os.path.basename(args.durations)}',
              file=sys.stderr)
    return 0


def kunit_modules(repo):
    """Names of the KUnit modules the build makes (<suite>_kunit), from
    the Kbuild files: what vm-run.sh would find in modules.order."""
    import re
    names = set()
    for root, _, files in os.walk(repo):
        if '/.' in root or root.startswith(os.path.join(repo, '.')):
            continue
        for f in files:
            if f != 'Kbuild':
                continue
            text = open(os.path.join(root, f)).read().replace('\\\n', ' ')
            for m in re.finditer(r'obj-\$\(CONFIG_[A-Z0-9_]*KUNIT[A-Z0-9_]*\)'
                                 r'\s*\+?=\s*([^\n]*)', text):
                for o in m.group(1).split():
                    if o.endswith('_kunit.o'):
                        names.add(o[:-2].replace('-', '_'))
    return sorted(names)


def cmd_budget(args):
    known = read_durations(args.durations)
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.abspath(os.path.join(here, '..', '..', '..'))
    sdir = os.path.join(here, 'scenarios')
    scen = sorted(f for f in os.listdir(sdir) if f.endswith('.sh'))
    wire = sorted(f for f in os.listdir(os.path.join(sdir, 'wire'))
                  if f.endswith('.sh'))
    kunit = [(m, '') for m in kunit_modules(repo)]
    plan, load = split(args.guests, known, kunit, scen + wire, wire)
    boot = known.get(('boot', 'kernel'), 25.0)
    final = known.get(('final', 'unload+kmemleak'), 15.0)
    steps = sum(v for (k, _), v in known.items() if k == 'step')
    guest_wall = [boot + l + final for l in load]
    slow = max(range(args.guests), key=lambda g: guest_wall[g])
    total = steps + guest_wall[slow]
    ratio = guest_wall[slow] / boot
    missing = [n for k, n, _ in
               [it for p in plan for it in p]
               if (k, n[:-3] if n.endswith('.sh') else n) not in known
               and k != 'wire']
    print(f'budget: {len(kunit)} KUnit modules, {len(scen)} '
          f'scenarios, {len(wire)} wire scenarios on {args.guests} guests '
          f'by {os.path.relpath(args.durations, repo)}')
    for g in range(args.guests):
        print(f'  guest {g + 1}: {guest_wall[g]:6.0f} s (boot {boot:.0f} + '
              f'items {load[g]:.0f} + final {final:.0f}), '
              f'{len(plan[g])} items')
    print(f'  steps before the guests: {steps:.0f} s')
    print(f'  expected wall time: {total:.0f} s ({total / 60:.1f} min), '
          f'budget {args.budget:.0f} s ({args.budget / 60:.1f} min)')
    print(f'  slowest guest over its boot: {ratio:.1f}' +
          (f', budget {args.ratio:.1f}' if args.ratio else ''))
    if missing:
        print(f'  no measured duration (counted as {DEFAULT:.0f} s): '
              + ', '.join(sorted(missing)))
    over = []
    if total > args.budget:
        over.append(f'expected {total:.0f} s is over the budget of '
                    f'{args.budget:.0f} s')
    if args.ratio and ratio > args.ratio:
        over.append(f'slowest guest over its boot {ratio:.1f} is over '
                    f'{args.ratio:.1f}')
    if over:
        def key(k, n, g):
            if k == 'wire':
                return ('scenario', f'{n[:-3]}.guest{g + 1}')
            return (k, n[:-3] if n.endswith('.sh') else n)
        heavy = sorted(((known.get(key(k, n, g), DEFAULT), k, n, g)
                        for g in range(args.guests)
                        for k, n, _ in plan[g]), reverse=True)
        print('budget: FAIL: ' + '; '.join(over))
        print('  the heaviest items:')
        for secs, k, n, g in heavy[:8]:
            print(f'    {secs:6.0f} s  {k} {n} (guest {g + 1})')
        print('  an issue that adds tests pays for them with speed '
              'elsewhere (Documentation/testing.rst, "Time budget")')
        return 1
    print('budget: ok')
    return 0


def cmd_refresh(args):
    """Merge a run's measured durations into the tier's file: the items
    the run measured get its figures, the others keep theirs."""
    new = read_durations(args.measured)
    if not new:
        print(f'durations: nothing measured in {args.measured}',
              file=sys.stderr)
        return 1
    lines = open(args.durations).read().splitlines() \
        if os.path.isfile(args.durations) else []
    out, seen = [], set()
    for line in lines:
        w = line.split()
        if len(w) == 3 and not line.startswith('#') and (w[0], w[1]) in new:
            out.append(f'{w[0]} {w[1]} {new[(w[0], w[1])]:.0f}')
            seen.add((w[0], w[1]))
        else:
            out.append(line)
    added = sorted(k for k in new if k not in seen)
    out += [f'{k} {n} {new[(k, n)]:.0f}' for k, n in added]
    with open(args.durations, 'w') as f:
        f.write('\n'.join(out) + '\n')
    print(f'durations: {len(seen)} updated, {len(added)} added in '
          f'{args.durations}')
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    sp = sub.add_parser('split', help="write each guest's plan")
    sp.add_argument('guests', type=int)
    sp.add_argument('durations')
    sp.add_argument('kunit_list')
    sp.add_argument('dest')
    sp.add_argument('wire', help='wire scenario file names, space-separated')
    sp.add_argument('scenarios', nargs='*')
    sp.set_defaults(func=cmd_split)
    bp = sub.add_parser('budget', help='expected wall time against the budget')
    bp.add_argument('--durations', required=True)
    bp.add_argument('--guests', type=int, default=2)
    bp.add_argument('--budget', type=float, required=True,
                    help='seconds of the whole run')
    bp.add_argument('--ratio', type=float, default=0,
                    help='slowest guest wall time over its boot (0: not checked)')
    bp.set_defaults(func=cmd_budget)
    rp = sub.add_parser('refresh', help="merge a run's durations into a file")
    rp.add_argument('measured', help='.testbed/durations of a run')
    rp.add_argument('durations', help="the tier's durations file")
    rp.set_defaults(func=cmd_refresh)
    args = ap.parse_args()
    return args.func(args)


if __name__ == '__main__':
    sys.exit(main())
