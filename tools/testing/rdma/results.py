#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Results step of the RDMA test bed.

Reads what vm-run.sh left in <repo>/.testbed/:

  console.log  ttyS0, the kernel console: KUnit KTAP (one document per
               KUnit module, between "rdma-testbed: kunit-*" markers),
               splats, the kmemleak report and the completion marker
  ktap.log     ttyS1, one KTAP document: a subtest per scenario, then
               modules_unloaded and kmemleak_clean
  nonce        the random part of this run's completion marker
  vm.rc        exit status of QEMU under timeout(1), 124 = time limit

KTAP is parsed with the kernel's own parser, $KDIR/tools/testing/kunit/
kunit_parser.py (the module behind "kunit.py parse"), after this script
strips the printk timestamps, so the two sources read the same way.

Counting: every leaf of a KTAP tree is one test (a parameterised KUnit
case counts once per parameter).  A node that reports "not ok" without a
failing leaf below it counts as one more failure, so does a KUnit module
that fails to load or unload, each splat, a run that did not reach the
completion marker, and a run where no KUnit case and no scenario ran.
Static checks run by check.sh come in as --static NAME=pass|fail|skip.

The last line is "N passed, N failed" (", N skipped" when some were), and
the exit status is 1 when anything failed, 0 otherwise.
"""

import argparse
import io
import os
import re
import subprocess
import sys

MARK = 'rdma-testbed: '
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
        j = i + 1
        while j < n and MARK not in console[j]:
            j += 1
        chunk = console[i + 1:j]
        loaded = end = None
        for k in range(j, min(n, j + 2000)):
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
                      ['rmmod of the module or of its dependencies failed'])
        i = j
    return ran


def scenario_results(parser, path, tally):
    if not os.path.isfile(path):
        tally.add('ttyS1', 'ktap', 'fail', [f'{path} is missing'])
        return 0
    lines = read_lines(path)
    if not any(l.startswith('KTAP version') for l in lines):
        tally.add('ttyS1', 'ktap', 'fail', ['no KTAP on ttyS1'])
        return 0
    ran = 0
    missing = 0
    for name, st, detail in parse_ktap(parser, lines):
        top = name.split('.', 1)[0]
        if re.fullmatch(r'<case \d+ missing>', name):
            missing += 1        # the VM ended before it: reported once below
            continue
        tally.add('Integration', name, st, detail)
        if top not in ('modules_unloaded', 'kmemleak_clean', 'ktap'):
            ran += 1
    if missing:
        tally.add('Integration', 'not run', 'fail',
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


def find_splats(console):
    """Groups of console lines, each one splat with some context."""
    kl_begin = kl_end = None
    for k, line in enumerate(console):
        if MARK + 'kmemleak-report-begin' in line:
            kl_begin = k
        if MARK + 'kmemleak-report-end' in line:
            kl_end = k
    groups = []
    covered = -1
    for i, raw in enumerate(console):
        if i <= covered or MARK in raw:
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


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--dir', required=True, help='the .testbed folder')
    ap.add_argument('--kdir', default=os.environ.get('KDIR'),
                    help='kernel tree (for kunit_parser.py)')
    ap.add_argument('--static', action='append', default=[],
                    metavar='NAME=pass|fail|skip',
                    help='result of a check made outside the VM')
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

    splats = []
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
        con_path = os.path.join(args.dir, 'console.log')
        console = read_lines(con_path) if os.path.isfile(con_path) else []
        try:
            nonce = open(os.path.join(args.dir, 'nonce')).read().strip()
        except OSError:
            nonce = None
        try:
            vm_rc = open(os.path.join(args.dir, 'vm.rc')).read().strip()
        except OSError:
            vm_rc = '?'
        marker = f'{MARK}RDMA-TESTBED-COMPLETE {nonce}'
        finished = bool(nonce) and any(marker in l for l in console)

        ran = 0
        if not args.demo:
            ran += kunit_results(parser, [strip_ts(l) for l in console], tally)
            ran += scenario_results(parser, os.path.join(args.dir, 'ktap.log'),
                                    tally)
            if ran == 0:
                tally.add('VM', 'tests ran', 'fail',
                          ['no KUnit case and no scenario ran'])
        if not finished:
            why = {'124': f'time limit hit (vm.rc {vm_rc})',
                   '?': 'the VM did not run'}.get(
                       vm_rc, f'crash or early exit (vm.rc {vm_rc})')
            tally.add('VM', 'completion marker', 'fail',
                      [f'no completion marker: {why}', 'last console lines:'] +
                      [strip_ts(l) for l in console if l.strip()][-30:])
        splats = find_splats(console)
        for g in splats:
            if not g['kmemleak'] or args.demo:
                tally.add('Splats', g['title'], 'fail',
                          [f'during {g["context"]}'])
        if args.verbose:
            print_section('kunit_parser output')
            print(parser_out.getvalue(), end='')

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
        console_lines = read_lines(os.path.join(args.dir, 'console.log'))
        modmap = ModuleMap(console_lines, args.dir)
        for n, g in enumerate(splats, 1):
            print(paint(f'--- splat {n}: {g["title"]}', '1;31'))
            print(f'    during {g["context"]}, console.log lines '
                  f'{g["start"] + 1}-{g["end"]}')
            body = console_lines[g['start']:g['end']]
            if len(body) > 200:
                body = body[:200] + [f'... ({len(body) - 200} more lines)']
            for l in body:
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

    passed, failed, skipped = (tally.count('pass'), tally.count('fail'),
                               tally.count('skip'))
    print()
    print(f'{passed} passed, {failed} failed' +
          (f', {skipped} skipped' if skipped else ''))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
