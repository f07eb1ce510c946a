#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Table of make bench-nvmf.

Reads the "nvmf-result ROUND COLUMN TEST METRIC VALUE" lines that
bench/vm/32-nvmf-fio.sh prints on the host guest and prints, for each
fio job and metric, the median over the rounds of each column (our and
upstream's stack over siw and over rxe, the kernel's NVMe/TCP) with its
spread (max - min, in percent of the median), and the ratios of ours to
upstream's over the same driver and to TCP (above 1: ours moves more).
Logs of before RoCE name the siw columns "ours" and "upstream".
A report, never a verdict: the exit status only says whether there was
anything to read.

    nvmf_table.py LOG [LOG...]
"""
import statistics
import sys

COLUMNS = ['ours-siw', 'upstream-siw', 'ours-rxe', 'upstream-rxe', 'tcp']
# the older logs' names
ALIASES = {'ours': 'ours-siw', 'upstream': 'upstream-siw'}
RATIOS = [('ours-siw', 'upstream-siw'), ('ours-rxe', 'upstream-rxe'),
          ('ours-siw', 'tcp'), ('ours-rxe', 'tcp')]
ROWS = [('randread-4k', 'iops', '4 KiB random read (IOPS)'),
        ('seqread-128k', 'bw_mbs', '128 KiB sequential read (MB/s)'),
        ('randread-4k', 'bw_mbs', '4 KiB random read (MB/s)'),
        ('seqread-128k', 'iops', '128 KiB sequential read (IOPS)')]


def read(paths):
    vals = {}
    rounds = set()
    for path in paths:
        with open(path, errors='replace') as f:
            for line in f:
                w = line.split()
                if len(w) != 6 or w[0] != 'nvmf-result':
                    continue
                _, rnd, col, test, metric, value = w
                col = ALIASES.get(col, col)
                try:
                    vals.setdefault((col, test, metric), []).append(float(value))
                except ValueError:
                    continue
                rounds.add(rnd)
    return vals, len(rounds)


def cell(values):
    if not values:
        return '-', None
    med = statistics.median(values)
    spread = (max(values) - min(values)) / med * 100 if med else 0
    return f'{med:.0f} ±{spread:.0f}%', med


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: nvmf_table.py LOG [LOG...]')
    vals, nrounds = read(sys.argv[1:])
    if not vals:
        print('nvmf_table: no nvmf-result lines')
        return 1
    cols = [c for c in COLUMNS
            if any(k[0] == c for k in vals)]
    ratios = [(a, b) for a, b in RATIOS if a in cols and b in cols]
    head = ['figure'] + cols + [f'{a}/{b}' for a, b in ratios]
    rows = []
    for test, metric, label in ROWS:
        meds = {}
        row = [label]
        for c in cols:
            text, meds[c] = cell(vals.get((c, test, metric), []))
            row.append(text)
        for a, b in ratios:
            if meds[a] and meds[b]:
                row.append(f'{meds[a] / meds[b]:.2f}')
            else:
                row.append('-')
        rows.append(row)
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    rule = '  '.join('=' * w for w in widths)
    print(f'NVMe over Fabrics, fio on the host guest: medians of {nrounds} round(s)')
    print(rule)
    print('  '.join(h.ljust(w) for h, w in zip(head, widths)))
    print(rule)
    for r in rows:
        print('  '.join(v.ljust(w) for v, w in zip(r, widths)))
    print(rule)
    return 0


if __name__ == '__main__':
    sys.exit(main())
