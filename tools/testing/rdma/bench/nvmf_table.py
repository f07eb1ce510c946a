#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Table of make bench-nvmf.

Reads the "nvmf-result ROUND COLUMN TEST METRIC VALUE" lines that
bench/vm/32-nvmf-fio.sh prints on the host guest and prints, for each
fio job and metric, the median over the rounds of each column (ours,
upstream, tcp) with its spread (max - min, in percent of the median), and
the ratios ours / upstream and ours / tcp (above 1: ours moves more).
A report, never a verdict: the exit status only says whether there was
anything to read.

    nvmf_table.py LOG [LOG...]
"""
import statistics
import sys

COLUMNS = ['ours', 'upstream', 'tcp']
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
    head = ['figure'] + COLUMNS + ['ours/upstream', 'ours/tcp']
    rows = []
    for test, metric, label in ROWS:
        meds = {}
        row = [label]
        for c in COLUMNS:
            text, meds[c] = cell(vals.get((c, test, metric), []))
            row.append(text)
        for other in ('upstream', 'tcp'):
            if meds['ours'] and meds[other]:
                row.append(f'{meds["ours"] / meds[other]:.2f}')
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
