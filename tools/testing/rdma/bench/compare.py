#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Side-by-side table of make bench-compare.

Reads the "cmp ROUND STACK DEVICE vb-result TRANSPORT DRIVER OP SIZE METRIC
VALUE"
lines that bench/vm/30-compare.sh (one guest) or 31-compare-wire.sh (two
guests) print, and prints one table: for each figure the median over the
rounds of each column (stack and device) with its spread (max - min, in
percent of the median), and the ratio ours / other for the pairs that
ratio_pairs() names (our siw0 against upstream's siw0, ours against TCP,
the loop devices against everything).
A ratio below 1 means ours has the smaller figure: better for a latency
or a CPU cost, worse for a rate or a bandwidth.  A report, never a
verdict: the exit status only says whether there was anything to read.

    compare.py LOG [LOG...]
"""
import statistics
import sys

METRICS = [
    ('lat_med_us', 'latency median', 'us', 'lower'),
    ('lat_p99_us', 'latency p99', 'us', 'lower'),
    ('rate_kops', 'message rate', 'kops/s', 'higher'),
    ('bw_mbs', 'bandwidth', 'MB/s', 'higher'),
    ('cpu_us_per_compl', 'CPU per completion', 'us', 'lower'),
    ('cpu_net_us_per_compl', 'CPU per completion, net', 'us', 'lower'),
]
OPS = ['SEND', 'RDMA_WRITE', 'RDMA_READ']


def size_label(size):
    n = int(size)
    if n >= 1024 and n % 1024 == 0:
        return f'{n // 1024} KiB'
    return f'{n} B'


def read(paths):
    data = {}           # (column, op, size, metric) -> [values]
    columns = []
    for path in paths:
        try:
            lines = open(path, errors='replace').read().splitlines()
        except OSError as e:
            print(f'compare: {e}', file=sys.stderr)
            continue
        for line in lines:
            w = line.strip().split()
            if len(w) != 11 or w[0] != 'cmp' or w[4] != 'vb-result':
                continue
            _, _, stack, dev, _, _, _, op, size, metric, value = w
            try:
                v = float(value)
            except ValueError:
                continue
            col = f'{stack} {dev}'
            if col not in columns:
                columns.append(col)
            data.setdefault((col, op, size, metric), []).append(v)
    return data, columns


def order_columns(columns):
    ours = [c for c in columns if c.startswith('ours ')]
    rest = [c for c in columns if not c.startswith('ours ')]
    return ours + sorted(rest, key=lambda c: (c.startswith('tcp '), c))


def ratio_pairs(ours, others):
    """(ours, other) column pairs that get a ratio: a driver against
    upstream's driver of the same device name (siw0 and siw0; siw0+gso,
    ours with an option, and siw0 too), every ours
    column against TCP, and the loop devices (no upstream twin) against
    every other column."""
    pairs = []
    for o in ours:
        # "siw0+gso": our siw0 with an option, against upstream's siw0
        odev = o.split()[1].split('+')[0]
        for c in others:
            cstack, cdev = c.split()
            if odev.startswith('loop') or cstack == 'tcp' or cdev == odev:
                pairs.append((o, c))
    return pairs


def cell(vals):
    if not vals:
        return '-'
    med = statistics.median(vals)
    spread = (max(vals) - min(vals)) / med * 100 if med else 0.0
    return f'{med:.4g} ±{spread:.0f}%'


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    data, columns = read(sys.argv[1:])
    if not data:
        print('compare: no "cmp ... vb-result" line in ' + ' '.join(sys.argv[1:]))
        return 1
    columns = order_columns(columns)
    ours = [c for c in columns if c.startswith('ours ')]
    others = [c for c in columns if not c.startswith('ours ')]
    rounds = max(len(v) for v in data.values())
    pairs = ratio_pairs(ours, others)
    rows = []
    keys = sorted({(op, size, metric) for (_, op, size, metric) in data},
                  key=lambda k: ([m[0] for m in METRICS].index(k[2])
                                 if k[2] in [m[0] for m in METRICS] else 99,
                                 OPS.index(k[0]) if k[0] in OPS else 9, k[0],
                                 int(k[1]) if k[1].isdigit() else 0))
    for op, size, metric in keys:
        info = next((m for m in METRICS if m[0] == metric),
                    (metric, metric, '', ''))
        label = f'{info[1]} ({info[2]}) {op}'
        if not metric.startswith('cpu_'):
            label += f' {size_label(size)}'
        row = [label]
        meds = {}
        for c in columns:
            vals = data.get((c, op, size, metric), [])
            row.append(cell(vals))
            if vals:
                meds[c] = statistics.median(vals)
        for o, c in pairs:
            if o in meds and c in meds and meds[c]:
                row.append(f'{meds[o] / meds[c]:.2f}')
            else:
                row.append('-')
        rows.append(row)
    head = ['figure (median of rounds ±spread)'] + columns
    head += [f'{o.split()[1]}/{c}' for o, c in pairs]
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    print(f'{rounds} round(s); ratio = ours / other (below 1: ours smaller)')
    print('  '.join(h.ljust(widths[i]) if i == 0 else h.rjust(widths[i])
                    for i, h in enumerate(head)))
    for r in rows:
        print('  '.join(x.ljust(widths[i]) if i == 0 else x.rjust(widths[i])
                        for i, x in enumerate(r)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
