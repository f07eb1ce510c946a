#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Results step of the RDMA test bed.

Reads what vm-run.sh left in <repo>/.testbed/ (in check mode, in each
guest's folder guest-N/; the guests share nonce and initramfs/):

  console.log  ttyS0, the kernel console: KUnit KTAP (one document per
               KUnit module, between "rdma-testbed: kunit-*" markers),
               splats, the kmemleak report and the completion marker
  ktap.log     ttyS1, one KTAP document: a subtest per scenario, then
               modules_unloaded and kmemleak_clean
  capture.log  ttyS2, the packet captures that scenarios declare and send
               (guest/capture.sh), decoded by tshark: capture.py
  nonce        the random part of this run's completion marker
  vm.rc        exit status of QEMU under timeout(1), 124 = time limit

KTAP is parsed with the kernel's own parser, $KDIR/tools/testing/kunit/
kunit_parser.py (the module behind "kunit.py parse"), after this script
strips the printk timestamps, so the two sources read the same way.

Counting: every leaf of a KTAP tree is one test (a parameterised KUnit
case counts once per parameter).  A node that reports "not ok" without a
failing leaf below it counts as one more failure, so does a KUnit module
that fails to load or unload, each splat, a run that did not reach the
completion marker, each task dump (the guest dumps every task's stack
when a time limit hits) and a run where no KUnit case and no scenario
ran.  Static checks run by check.sh come in as --static NAME=pass|fail|skip
and the time they took as --time NAME=SECONDS.

Before the tally, a table says where the time went: the steps outside
the VM, each guest, and in each guest each KUnit module and scenario
(from the printk time stamps of the markers).  The same per-item times go
to <dir>/durations, the format of tools/testing/rdma/durations that
vm-run.sh splits the work by.

The last line is "N passed, N failed" (", N skipped" when some were), and
the exit status is 1 when anything failed, 0 otherwise.
"""

import argparse
import io
import os
import re
import subprocess
import sys

import capture

MARK = 'rdma-testbed: '
# where a scenario's case ends (ktap.sh's ktap_mark; names are free text)
CASE_MARK = 'ktap-mark '
# The steps of check.sh that run before the guests start (the static
# checks run beside them): their time adds to the guests' in the budget.
BEFORE_GUESTS = ('build', 'upstream-build', 'nvme-build')
TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\] ?')
ANSI = re.compile(r'\x1b(\[[0-9;?]*[A-Za-z]|c)')

# A splat starts at any line matching one of these.
SPLAT_PATTERNS = [
    r'WARNING:',
    r'BUG:',
    r'KASAN:',
    r'UBSAN:',
    r'possible circular locking',
    r'possible recursive locking',
    r'inconsistent lock state',
    r'INFO: suspicious RCU usage',
    r'INFO: task .* blocked for more than',
    r'rcu: INFO: .*(stall|detected)',
    r'ODEBUG:',
    r'unreferenced object',
    r'refcount_t:',
    r'\bOops\b',
    r'general protection fault',
    r'kernel BUG at',
    r'Kernel panic',
    r'Call Trace:',
]
SPLAT = re.compile('|'.join(SPLAT_PATTERNS))
# A splat's report ends at one of these (inclusive) ...
SPLAT_END = re.compile(r'---\[ end trace|^={40,}$|</TASK>|---\[ end Kernel panic')
RULER = re.compile(r'^={40,}$')
# ... or after this many lines when no end line comes.
SPLAT_MAX = 80
SPLAT_DEFAULT = 25

COLOR = sys.stdout.isatty()


def paint(text, code):
    return f'\033[{code}m{text}\033[0m' if COLOR else text


def status_word(st):
    return {'pass': paint('PASS', '1;32'), 'fail': paint('FAIL', '1;31'),
            'skip': paint('SKIP', '1;33')}[st]


class Tally:
    def __init__(self):
        self.results = []   # (section, name, status, detail lines)

    def add(self, section, name, st, detail=()):
        self.results.append((section, name, st, list(detail)))

    def count(self, st):
        return sum(1 for r in self.results if r[2] == st)

    def failures(self):
        return [r for r in self.results if r[2] == 'fail']


def read_lines(path):
    with open(path, 'rb') as f:
        text = f.read().decode('utf-8', errors='replace')
    out = []
    for line in text.split('\n'):
        line = ANSI.sub('', line.rstrip('\r').replace('\r', ''))
        out.append(line)
    return out


def strip_ts(line):
    return TIMESTAMP.sub('', line)


def load_parser(kdir):
    path = os.path.join(kdir, 'tools', 'testing', 'kunit')
    if not os.path.isfile(os.path.join(path, 'kunit_parser.py')):
        sys.exit(f'results: no kunit_parser.py in {path} (is KDIR right?)')
    sys.path.insert(0, path)
    import kunit_parser
    import kunit_printer
    # Keep the parser's own running commentary; we print our own listing
    # and show the parser's text only for verbose runs.
    buf = io.StringIO()
    kunit_parser.stdout = kunit_printer.Printer(buf)
    return kunit_parser, buf


def walk(parser, test, path, out, num=1):
    """Leaves as (name, status, log); failed parents as extra failures."""
    S = parser.TestStatus
    name = test.name or f'<case {num} missing>'
    here = path + [name] if name != 'main' else path
    if not test.subtests:
        if test.status == S.SUCCESS:
            st = 'pass'
        elif test.status == S.SKIPPED:
            st = 'skip'
        else:
            st = 'fail'
        detail = [l.strip() for l in test.log if l.strip()]
        if test.status == S.TEST_CRASHED:
            detail.append('(no result line: crashed or cut off)')
        elif test.status == S.NO_TESTS:
            detail.append('(no tests in it)')
        elif test.status == S.FAILURE_TO_PARSE_TESTS:
            detail.append('(KTAP could not be parsed)')
        out.append(('.'.join(here), st, detail))
        return st == 'fail'
    failed = False
    for num, sub in enumerate(test.subtests, 1):
        failed |= walk(parser, sub, here, out, num)
    if not test.ok_status() and not failed:
        detail = [l.strip() for l in test.log if l.strip()]
        out.append(('.'.join(here) or 'ktap', 'fail',
                    detail + [f'(reported {test.status.name} without a '
                              'failing case)']))
        failed = True
    return failed


def parse_ktap(parser, lines):
    test = parser.parse_run_tests(lines)
    out = []
    if test.status in (parser.TestStatus.FAILURE_TO_PARSE_TESTS,
                       parser.TestStatus.NO_TESTS) and not test.subtests:
        out.append(('ktap', 'fail', [f'no tests parsed ({test.status.name})']))
        return out
    walk(parser, test, [], out)
    return out


def kunit_results(parser, console, tally):
    """KTAP of each KUnit module, between its begin and loaded markers."""
    ran = 0
    i = 0
    n = len(console)
    while i < n:
        line = console[i]
        if MARK + 'kunit-begin ' not in line:
            i += 1
            continue
        mod = line.split(MARK + 'kunit-begin ', 1)[1].strip()
        # Up to the module's own next marker; other markers in between
        # (load addresses, "sections ...") are left out of its KTAP.
        j = i + 1
        while j < n and not re.search(MARK + r'kunit-(begin|loaded|end) ',
                                      console[j]):
            j += 1
        chunk = [l for l in console[i + 1:j] if MARK not in l]
        loaded = end = None
        left = []
        for k in range(j, min(n, j + 2000)):
            m = re.search(MARK + r'kunit-left (\S+): (.*)', console[k])
            if m and m.group(1) == mod:
                left.append(m.group(2))
            m = re.search(MARK + r'kunit-loaded (\S+) rc=(\d+)', console[k])
            if m and m.group(1) == mod:
                loaded = int(m.group(2))
            m = re.search(MARK + r'kunit-end (\S+) rc=\d+ unload=(\d+)',
                          console[k])
            if m and m.group(1) == mod:
                end = int(m.group(2))
                break
            if MARK + 'kunit-begin ' in console[k]:
                break
        section = f'KUnit {mod}'
        if any('KTAP version' in l for l in chunk):
            results = parse_ktap(parser, chunk)
            any_fail = False
            for name, st, detail in results:
                tally.add(section, name, st, detail)
                any_fail |= st == 'fail'
                ran += st != 'skip'
            if loaded and not any_fail:
                tally.add(section, f'{mod} (modprobe)', 'fail',
                          [f'modprobe exited with {loaded}'])
        else:
            why = ('modprobe exited with %d' % loaded if loaded is not None
                   else 'the VM ended while loading it')
            tally.add(section, f'{mod} (load)', 'fail',
                      [f'no KTAP output: {why}'] +
                      [l for l in chunk if l.strip()][-15:])
        if end:
            tally.add(section, f'{mod} (unload)', 'fail',
                      left or ['rmmod of the module or of its dependencies '
                               'failed'])
        i = j
    return ran


def scenario_results(parser, path, tally, prefix=''):
    if not os.path.isfile(path):
        tally.add('ttyS1', prefix + 'ktap', 'fail', [f'{path} is missing'])
        return 0
    lines = read_lines(path)
    if not any(l.startswith('KTAP version') for l in lines):
        tally.add('ttyS1', prefix + 'ktap', 'fail', ['no KTAP on ttyS1'])
        return 0
    ran = 0
    missing = 0
    for name, st, detail in parse_ktap(parser, lines):
        top = name.split('.', 1)[0]
        if re.fullmatch(r'<case \d+ missing>', name):
            missing += 1        # the VM ended before it: reported once below
            continue
        if top in ('modules_unloaded', 'kmemleak_clean', 'ktap'):
            name = prefix + name
        else:
            ran += 1
        tally.add('Integration', name, st, detail)
    if missing:
        tally.add('Integration', prefix + 'not run', 'fail',
                  [f'{missing} planned test(s) did not run: the VM ended early'])
    return ran


def context_of(console, idx):
    """The test that was running at console line idx, from the markers."""
    for k in range(idx, -1, -1):
        m = re.search(MARK + r'(kunit-begin|scenario-begin|demo-begin|'
                      r'bench-begin) (\S+)',
                      console[k])
        if m:
            return f'{m.group(1).split("-")[0]} {m.group(2)}'
        m = re.search(MARK + r'(kunit-end|scenario-end|demo-end|bench-end|'
                      r'kmemleak-scan|init:)', console[k])
        if m:
            return {'init:': 'boot / init', 'kmemleak-scan': 'kmemleak scan'}.get(
                m.group(1), f'between tests (after {strip_ts(console[k])})')
    return 'boot'


def task_dumps(console):
    """(begin, end, why) of each task dump the guest asked for."""
    dumps = []
    for k, line in enumerate(console):
        if MARK + 'task-dump-begin' in line:
            why = line.split(MARK + 'task-dump-begin', 1)[1].strip()
            end = next((j for j in range(k + 1, len(console))
                        if MARK + 'task-dump-end' in console[j]), len(console))
            dumps.append((k, end, why))
    return dumps


def blocked_tasks(lines):
    """The part of a sysrq-t dump about tasks in state D (blocked)."""
    out = []
    keep = False
    for raw in lines:
        line = strip_ts(raw)
        m = re.match(r'task:(\S+)\s+state:(\S)', line.strip())
        if m:
            keep = m.group(2) == 'D'
        elif re.match(r'(Sched Debug|runnable tasks|NMI backtrace)', line.strip()):
            keep = False
        if keep:
            out.append(line)
    return out


def find_splats(console):
    """Groups of console lines, each one splat with some context."""
    kl_begin = kl_end = None
    for k, line in enumerate(console):
        if MARK + 'kmemleak-report-begin' in line:
            kl_begin = k
        if MARK + 'kmemleak-report-end' in line:
            kl_end = k
    in_dump = set()
    for b, e, _ in task_dumps(console):
        in_dump.update(range(b, e + 1))
    groups = []
    covered = -1
    for i, raw in enumerate(console):
        if i <= covered or MARK in raw or CASE_MARK in raw or \
                i in in_dump:
            continue
        line = strip_ts(raw)
        if not SPLAT.search(line):
            continue
        in_report = kl_begin is not None and kl_begin < i and \
            (kl_end is None or i < kl_end)
        if in_report:
            end = kl_end if kl_end is not None else len(console)
            groups.append({'start': kl_begin + 1, 'end': end, 'title':
                           'kmemleak report: ' + line.strip(),
                           'kmemleak': True,
                           'context': 'kmemleak scan after all tests'})
            covered = end
            continue
        start = max(i - 3, covered + 1)
        end = None
        # KASAN and UBSAN frame their report with lines of '=': it ends
        # at the second one, not at the first </TASK>.
        framed = i > 0 and RULER.match(strip_ts(console[i - 1]).strip())
        stop = RULER if framed else SPLAT_END
        for k in range(i, min(len(console), i + SPLAT_MAX * (3 if framed else 1))):
            if k > i and stop.search(strip_ts(console[k]).strip()):
                end = k + 1
                break
        if end is None:
            end = min(len(console), i + SPLAT_DEFAULT)
        elif not framed and '</TASK>' in console[end - 1]:
            # A WARN goes on with lockdep's irq event stamps and its
            # "---[ end trace" line: take them when they come soon.
            for k in range(end, min(len(console), end + 12)):
                if '---[ end trace' in console[k]:
                    end = k + 1
                    break
        groups.append({'start': start, 'end': end, 'title': line.strip(),
                       'kmemleak': False, 'context': context_of(console, i)})
        covered = end - 1
    return groups


class ModuleMap:
    """Names raw addresses in reports with the help of the load addresses
    that guest/init logs ("rdma-testbed: sections NAME .text=0x...")
    and the symbol tables of the .ko files that went into the VM."""

    def __init__(self, console, workdir):
        self.loads = []     # (module, section, base)
        for line in console:
            if MARK + 'sections ' not in line:
                continue
            words = line.split(MARK + 'sections ', 1)[1].split()
            for w in words[1:]:
                sec, _, addr = w.partition('=')
                try:
                    self.loads.append((words[0], sec, int(addr, 16)))
                except ValueError:
                    pass
        self.kos = {}
        root = os.path.join(workdir, 'initramfs', 'lib', 'modules')
        for dirpath, _, files in os.walk(root):
            for f in files:
                if f.endswith('.ko'):
                    self.kos[f[:-3].replace('-', '_')] = os.path.join(dirpath, f)
        self.elf = {}

    def _read_elf(self, mod):
        if mod in self.elf:
            return self.elf[mod]
        sections, symbols = {}, {}
        ko = self.kos.get(mod)
        if ko:
            try:
                out = subprocess.run(['readelf', '-SW', ko], capture_output=True,
                                     text=True).stdout
                for m in re.finditer(r'\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+'
                                     r'[0-9a-f]+\s+([0-9a-f]+)', out):
                    sections[m.group(2)] = (int(m.group(1)), int(m.group(3), 16))
                out = subprocess.run(['readelf', '-sW', ko], capture_output=True,
                                     text=True).stdout
                for m in re.finditer(r'^\s*\d+: ([0-9a-f]+)\s+(\d+)\s+FUNC\s+\S+\s+\S+\s+'
                                     r'(\d+)\s+(\S+)$', out, re.M):
                    symbols.setdefault(int(m.group(3)), []).append(
                        (int(m.group(1), 16), int(m.group(2)), m.group(4)))
            except OSError:
                pass
        self.elf[mod] = (sections, symbols)
        return self.elf[mod]

    def name(self, addr):
        found = []
        for mod, sec, base in self.loads:
            sections, symbols = self._read_elf(mod)
            if sec not in sections:
                continue
            idx, size = sections[sec]
            off = addr - base
            if not 0 <= off < size:
                continue
            where = f'{sec}+{off:#x}'
            for value, length, sym in symbols.get(idx, []):
                if value <= off < value + max(length, 1):
                    where = f'{sym}+{off - value:#x}/{length:#x} ({where})'
                    break
            text = f'{where} [{mod}]'
            if text not in found:
                found.append(text)
        return ' or '.join(found)

    def annotate(self, line):
        """The line, with ' <= name' after a raw module address."""
        if not self.loads:
            return line
        m = re.search(r'(?:^|\s)(?:\? )?(0xffffffff[0-9a-f]{8})\s*$', line)
        if not m:
            return line
        named = self.name(int(m.group(1), 16))
        return f'{line}   <= {named}' if named else line


def print_section(title):
    print()
    print(paint(f'=== {title} ===', '1'))


def item_stats(raw_console):
    """{(kind, name): {busy, idle, procs, loads}} from the guest's
    item-stats markers: guest CPU centiseconds busy and idle over the
    item (summed over the vCPUs), processes started, modules loaded."""
    out = {}
    for raw in raw_console:
        if MARK + 'item-stats ' not in raw:
            continue
        w = raw.split(MARK + 'item-stats ', 1)[1].split()
        if len(w) < 3:
            continue
        vals = {}
        for kv in w[2:]:
            k, _, v = kv.partition('=')
            try:
                vals[k] = int(v)
            except ValueError:
                pass
        out[(w[0], w[1])] = vals
    return out


def item_times(raw_console):
    """[(kind, name, seconds)] of each KUnit module and scenario, from the
    printk time stamps of their begin and end markers, and the boot and
    the final checks as items of their own."""
    stamp = re.compile(r'^\[\s*(\d+\.\d+)\]')
    begin = {}
    out = []
    first = last = kl = None
    for raw in raw_console:
        m = stamp.match(raw)
        if not m or MARK not in raw:
            continue
        t = float(m.group(1))
        text = raw.split(MARK, 1)[1]
        w = text.split()
        if not w:
            continue
        if w[0] == 'init:' and first is None:
            first = t
            out.append(('boot', 'kernel', t))
        last = t
        if w[0] in ('kunit-begin', 'scenario-begin') and len(w) > 1:
            begin[(w[0].split('-')[0], w[1])] = t
        elif w[0] in ('kunit-end', 'scenario-end') and len(w) > 1:
            key = (w[0].split('-')[0], w[1])
            if key in begin:
                out.append((key[0], key[1], t - begin.pop(key)))
        elif w[0] == 'kmemleak-scan':
            kl = t
        elif w[0] == 'RDMA-TESTBED-COMPLETE' and kl is not None:
            out.append(('final', 'unload+kmemleak', t - kl))
    for (kind, name), t in begin.items():
        if last is not None:
            out.append((kind, name + ' (unfinished)', last - t))
    return out


def leak_items(raw_console):
    """{console line index of an 'unreferenced object' line: the item
    that was running when the object was allocated}.  kmemleak's report
    gives each object's allocation jiffies ("comm ..., pid N, jiffies
    J"); the guest's two "clock ktime=S jiffies=N" markers turn jiffies
    into its monotonic clock (jiffies follow it: they are its tick, or
    its clocksource), and the item-stats markers give each item's span
    on that clock (up=BEGIN-END, from /proc/uptime)."""
    clock = []          # (monotonic seconds, jiffies)
    spans = []          # (begin, end, 'kind name')
    objects = []        # (line index, jiffies)
    obj = None
    for i, raw in enumerate(raw_console):
        if MARK in raw:
            w = raw.split(MARK, 1)[1].split()
            kv = dict(x.split('=', 1) for x in w[1:] if '=' in x)
            try:
                if w and w[0] == 'clock':
                    # the debug header prints ktime in milliseconds
                    clock.append((float(kv['ktime']) / 1000,
                                  int(kv['jiffies'])))
                elif w and w[0] == 'item-stats' and len(w) > 2 and 'up' in kv:
                    b, _, e = kv['up'].partition('-')
                    what = {'final': 'the final unload and kmemleak scans',
                            'boot': 'the boot'}.get(w[1], f'{w[1]} {w[2]}')
                    spans.append((float(b), float(e), what))
            except (KeyError, ValueError):
                pass
            continue
        line = strip_ts(raw).strip()
        if line.startswith('unreferenced object '):
            obj = i
        elif obj is not None:
            mj = re.match(r'comm ".*", pid \d+, jiffies (\d+)', line)
            if mj:
                objects.append((obj, int(mj.group(1))))
            obj = None
    if len(clock) < 2 or clock[-1][0] <= clock[0][0]:
        return {}
    (k0, j0), (k1, j1) = clock[0], clock[-1]
    hz = (j1 - j0) / (k1 - k0)
    if hz <= 0:
        return {}
    out = {}
    for idx, jif in objects:
        t = k0 + (jif - j0) / hz
        what = next((w for b, e, w in spans if b <= t <= e), None)
        if what is None:
            before = [(e, w) for b, e, w in spans if e < t]
            what = f'between items (after {max(before)[1]})' if before \
                else 'the boot'
        out[idx] = f'{what} (at {t:.1f} s of uptime)'
    return out


def vm_results(parser, gdir, label, tally, args):
    """Results of one guest: KUnit, scenarios, completion, splats, dumps.
    Returns (tests that ran, splats, item times)."""
    con_path = os.path.join(gdir, 'console.log')
    raw = read_lines(con_path) if os.path.isfile(con_path) else []
    console = raw
    try:
        nonce = open(os.path.join(args.dir, 'nonce')).read().strip()
    except OSError:
        nonce = None
    try:
        vm_rc = open(os.path.join(gdir, 'vm.rc')).read().strip()
    except OSError:
        vm_rc = '?'
    marker = f'{MARK}RDMA-TESTBED-COMPLETE {nonce}'
    finished = bool(nonce) and any(marker in l for l in console)
    prefix = f'{label}: ' if label else ''
    vm_section = f'VM ({label})' if label else 'VM'

    ran = 0
    if not args.demo:
        ran += kunit_results(parser, [strip_ts(l) for l in console], tally)
        ran += scenario_results(parser, os.path.join(gdir, 'ktap.log'),
                                tally, prefix)
        # the packet captures of its scenarios (ttyS2), through tshark
        capture.results(gdir, os.path.join(args.dir, 'initramfs'),
                        lambda name, st, detail:
                        tally.add(f'Captures ({label or "VM"})', name, st,
                                  detail))
    if not finished:
        why = {'124': f'time limit hit (vm.rc {vm_rc})',
               '?': 'the VM did not run'}.get(
                   vm_rc, f'crash or early exit (vm.rc {vm_rc})')
        tally.add(vm_section, 'completion marker', 'fail',
                  [f'no completion marker: {why}', 'last console lines:'] +
                  [strip_ts(l) for l in console if l.strip()][-30:])
    for b, e, why in task_dumps(console):
        blocked = blocked_tasks(console[b + 1:e])
        tally.add(vm_section, f'task dump: {why}', 'fail',
                  [f'console.log lines {b + 1}-{e + 1} ({gdir}); tasks '
                   'blocked (state D):'] + (blocked[:120] or ['none']))
    splats = find_splats(console)
    leaks = leak_items(raw)
    for g in splats:
        g['console'] = con_path
        g['label'] = label
        if g['kmemleak']:
            g['leaks'] = {k: v for k, v in leaks.items()
                          if g['start'] <= k < g['end']}
            count = {}
            for what in g['leaks'].values():
                what = what.rsplit(' (at ', 1)[0]
                count[what] = count.get(what, 0) + 1
            if count:
                named = ', '.join(f'{w} ({n})' for w, n in count.items())
                g['context'] += f'; objects allocated during {named}'
                for r in tally.results:
                    if r[1].startswith(prefix + 'kmemleak_clean') and \
                            r[2] == 'fail':
                        r[3].append(f'unreferenced objects allocated during '
                                    f'{named}')
        if not g['kmemleak'] or args.demo:
            tally.add('Splats', g['title'], 'fail',
                      [f'during {g["context"]}' + (f' ({label})' if label else '')])
    return ran, splats, item_times(raw), item_stats(raw)


def print_times(rows, guest_times, profile_path=None):
    """The table of where the time went: the steps outside the VM, then
    per guest each item's wall seconds (guest clock), the guest CPU time
    it kept busy and left idle (seconds summed over the vCPUs, and the busy
    share), the processes it started and the modules it loaded.  The same
    rows go to profile_path, tab-separated."""
    print_section('Where the time went (seconds)')
    for name, secs in rows:
        print(f'{secs:8.0f}  {name}')
    prof = []
    for label, items, wall, stats in guest_times:
        scale = stats.get('scale')
        print(f'{wall:8.0f}  {label} (wall clock on the host' +
              (f'; the guest\'s seconds below are scaled by {scale:.2f} '
               'to the host\'s)' if scale else ')') if wall is not None
              else f'       -  {label}')
        print(f'{"wall":>12}  {"busy":>6} {"idle":>6} {"busy%":>5} '
              f'{"procs":>6} {"loads":>5}  item')
        tot = {'busy': 0, 'idle': 0, 'procs': 0, 'loads': 0}
        for kind, name, secs in sorted(items, key=lambda x: -x[2]):
            st = stats.get((kind, name.replace(' (unfinished)', '')))
            if st is None and kind == 'boot':
                st = stats.get(('boot', 'kernel'))
            if st:
                busy, idle = st.get('busy', 0) / 100, st.get('idle', 0) / 100
                share = 100 * busy / (busy + idle) if busy + idle else 0
                for k in tot:
                    tot[k] += st.get(k, 0)
                print(f'{secs:12.0f}  {busy:6.0f} {idle:6.0f} {share:4.0f}% '
                      f'{st.get("procs", 0):6d} {st.get("loads", 0):5d}  '
                      f'{kind} {name}')
                prof.append((label, kind, name, secs, busy, idle,
                             st.get('procs', 0), st.get('loads', 0)))
            else:
                print(f'{secs:12.0f}  {"-":>6} {"-":>6} {"-":>5} {"-":>6} '
                      f'{"-":>5}  {kind} {name}')
                prof.append((label, kind, name, secs, '', '', '', ''))
        busy, idle = tot['busy'] / 100, tot['idle'] / 100
        if busy + idle:
            print(f'{"":12}  {busy:6.0f} {idle:6.0f} '
                  f'{100 * busy / (busy + idle):4.0f}% {tot["procs"]:6d} '
                  f'{tot["loads"]:5d}  (all items)')
    # The budget's ratio, which travels between machines of different
    # speed: the slowest guest's wall time over its kernel's boot.
    ratios = []
    for label, items, wall, _ in guest_times:
        boot = [secs for kind, _, secs in items if kind == 'boot']
        if wall and boot and boot[0] > 0:
            ratios.append((wall / boot[0], label, wall, boot[0]))
    if ratios:
        r, label, wall, boot = max(ratios)
        print(f'slowest guest over its boot: {wall:.0f} s / {boot:.0f} s = '
              f'{r:.1f} ({label})')
    if profile_path:
        with open(profile_path, 'w') as f:
            f.write('# guest\tkind\tname\twall_s\tbusy_s\tidle_s\tprocs\tloads\n')
            for r in prof:
                f.write('\t'.join(f'{x:.0f}' if isinstance(x, float) else str(x)
                                  for x in r) + '\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--dir', required=True, help='the .testbed folder')
    ap.add_argument('--kdir', default=os.environ.get('KDIR'),
                    help='kernel tree (for kunit_parser.py)')
    ap.add_argument('--static', action='append', default=[],
                    metavar='NAME=pass|fail|skip',
                    help='result of a check made outside the VM')
    ap.add_argument('--time', action='append', default=[],
                    metavar='NAME=SECONDS',
                    help='time a step outside the VM took')
    ap.add_argument('--no-vm', metavar='REASON',
                    help='the VM did not run; count that as a failure')
    ap.add_argument('--demo', action='store_true',
                    help='demo run: only the completion marker and splats')
    ap.add_argument('--label', default='demo',
                    help='name of the run in the last line of a --demo run')
    ap.add_argument('-v', '--verbose', action='store_true',
                    help="also print the KTAP parser's own output")
    args = ap.parse_args()

    tally = Tally()
    for item in args.static:
        name, _, st = item.partition('=')
        if st not in ('pass', 'fail', 'skip'):
            sys.exit(f'results: bad --static {item}')
        tally.add('Static checks', name, st)
    times = []
    for item in args.time:
        name, _, secs = item.partition('=')
        try:
            times.append((name, float(secs)))
        except ValueError:
            sys.exit(f'results: bad --time {item}')

    splats = []
    guest_times = []
    if args.no_vm:
        tally.add('VM', 'vm', 'fail', [f'not run: {args.no_vm}'])
    else:
        # A demo or bench run parses no KTAP: KDIR may be a distribution's
        # headers, which have no kunit_parser.py (distro-run.sh).
        if args.demo:
            parser, parser_out = None, io.StringIO()
        elif not args.kdir:
            sys.exit('results: set KDIR or pass --kdir')
        else:
            parser, parser_out = load_parser(args.kdir)
        gdirs = sorted((d for d in os.listdir(args.dir)
                        if re.fullmatch(r'guest-\d+', d)),
                       key=lambda d: int(d.split('-')[1]))
        if not gdirs:
            targets = [(args.dir, '')]
        else:
            targets = [(os.path.join(args.dir, d), d.replace('-', ' '))
                       for d in gdirs]
        ran = 0
        for gdir, label in targets:
            r, sp, items, stats = vm_results(parser, gdir, label, tally, args)
            ran += r
            splats += sp
            wall = None
            try:
                wall = float(open(os.path.join(gdir, 'wall')).read())
            except (OSError, ValueError):
                pass
            # The guest's clock runs slow under TCG on a busy host: its
            # items' seconds are scaled to the host's, so that they add up
            # to the guest's wall time (what the budget is about).
            span = max((t for k, _, t in items if k == 'boot'), default=0) + \
                sum(t for k, _, t in items if k != 'boot')
            if wall and span > 0:
                scale = wall / span
                items = [(k, n, t * scale) for k, n, t in items]
                stats = dict(stats)
                stats['scale'] = scale
            guest_times.append((label or 'VM', items, wall, stats))
        if not args.demo and ran == 0:
            tally.add('VM', 'tests ran', 'fail',
                      ['no KUnit case and no scenario ran'])
        if args.verbose:
            print_section('kunit_parser output')
            print(parser_out.getvalue(), end='')
        if not args.demo:
            # The format plan.py reads: every item, the boot and the
            # final checks (the slowest guest's) and the steps before the
            # guests start; "make durations" merges it into the tier's file.
            with open(os.path.join(args.dir, 'durations'), 'w') as f:
                f.write('# kind name seconds, measured by results.py\n')
                worst = {}
                for _, items, _, _ in guest_times:
                    for kind, name, secs in items:
                        if ' ' in name:
                            continue
                        if kind in ('kunit', 'scenario'):
                            f.write(f'{kind} {name} {secs:.0f}\n')
                        elif kind in ('boot', 'final'):
                            worst[(kind, name)] = max(
                                secs, worst.get((kind, name), 0))
                for (kind, name), secs in sorted(worst.items()):
                    f.write(f'{kind} {name} {secs:.0f}\n')
                for name, secs in times:
                    if name in BEFORE_GUESTS:
                        f.write(f'step {name} {secs:.0f}\n')

    # Listing, section by section in the order results arrived.
    section = None
    for sec, name, st, detail in tally.results:
        if sec == 'Splats':
            continue
        if sec != section:
            print_section(sec)
            section = sec
        print(f'{status_word(st)}  {name}')
        if st == 'fail':
            for d in detail:
                print(f'        {d}')

    if splats:
        print_section(f'Splats ({len(splats)})')
        cache = {}
        for n, g in enumerate(splats, 1):
            path = g['console']
            if path not in cache:
                lines = read_lines(path)
                cache[path] = (lines, ModuleMap(lines, args.dir))
            console_lines, modmap = cache[path]
            where = f'{g["label"]} ' if g['label'] else ''
            print(paint(f'--- splat {n}: {g["title"]}', '1;31'))
            print(f'    during {g["context"]}, {where}console.log lines '
                  f'{g["start"] + 1}-{g["end"]}')
            body = console_lines[g['start']:g['end']]
            if len(body) > 200:
                body = body[:200] + [f'... ({len(body) - 200} more lines)']
            leaks = g.get('leaks', {})
            for k, l in enumerate(body, g['start']):
                if k in leaks:
                    l = f'{l}   <= allocated during {leaks[k]}'
                print(f'    {modmap.annotate(l)}')

    fails = tally.failures()
    if fails:
        print_section('Failures')
        for sec, name, _, detail in fails:
            first = detail[0] if detail else ''
            print(f'{status_word("fail")}  {sec}: {name}'
                  + (f'  ({first})' if first and sec != 'Splats' else ''))

    if args.demo:
        print()
        print(f'{args.label}: ' + ('finished cleanly' if not fails else
                          f'{len(fails)} problem(s)'))
        return 1 if fails else 0

    if times or guest_times:
        print_times(times, guest_times,
                    None if args.no_vm else os.path.join(args.dir, 'profile'))

    passed, failed, skipped = (tally.count('pass'), tally.count('fail'),
                               tally.count('skip'))
    print()
    print(f'{passed} passed, {failed} failed' +
          (f', {skipped} skipped' if skipped else ''))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
