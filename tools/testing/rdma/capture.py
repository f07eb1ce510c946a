#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Packet captures of the guests, decoded by Debian's tshark.

A scenario takes a capture with guest/capture.sh (rdmacap in the
guest), which sends it to the guest's ttyS2: vm-run.sh keeps that port
in <guest dir>/capture.log, a stream of

    rdma-capture SCENARIO NAME BYTES\\n<BYTES bytes of pcap, gzipped>

The scenario declares each capture in a header line,

    # capture: NAME [guest=N] [min=FRAMES] [expect=KIND,KIND...] [from=each]

(guest=N: only the half on guest N of a wire scenario takes it;
from=each: every sender sent each expected kind, not only some).  For
every scenario in a guest's plan (.testbed/initramfs/testbed/plan.N)
that did not skip, each declared capture is expected: one that is
missing or empty fails.  Each capture that came gives four results:

  decoded      tshark decodes at least FRAMES frames (default 20) from
               each of at least two senders as InfiniBand (RoCE v2,
               UDP port 4791, or RoCE v1, Ethertype 0x8915)
  clean        no frame is malformed (_ws.malformed) and none has an
               expert item of severity Error.  tshark runs with the
               protocols that have heuristic dissectors of the
               InfiniBand payload off (SMB Direct, RPC-over-RDMA, iSER,
               NVMe-oF, SDP, ...): the
               payloads are test data, which RPC-over-RDMA's heuristic
               took for its own and found malformed
  icrc         every RoCE frame's ICRC is right.  Wireshark 4.0 (Debian
               bookworm's) only shows the ICRC (infiniband.invariant.crc):
               it has no preference to check it and no expert item for a
               bad one.  This script computes it as IBTA Annex A17 (v2)
               and A16 (v1) say (CRC-32 over 8 bytes of ones in place of
               the LRH, the IP or GRH header with TOS/traffic class, flow
               label, TTL/hop limit and header checksum as ones, the UDP
               header with its checksum as ones, the BTH with its Resv8a
               byte as ones, the rest up to the ICRC) and checks that the
               value tshark shows is the one it computed from the frame's
               last four bytes.  A copy of a good frame with one bit
               flipped must fail the computation (the check can fail)
  opcodes      the expected kinds came (with from=each: each from every
               sender): send (RC
               SEND FIRST, MIDDLE, LAST, ONLY), write (RDMA WRITE FIRST,
               MIDDLE, LAST, ONLY), read (RDMA READ REQUEST and RESPONSE
               FIRST, MIDDLE, LAST, ONLY), ack (ACKNOWLEDGE), ud (UD SEND
               ONLY); cm: the CM's REQ, REP, RTU, DREQ and DREP in MADs
               on QP1 (from any sender)

results.py calls results(); "capture.py FILE.pcap [--min N] [--expect
KINDS]" checks one file by hand.
"""

import argparse
import gzip
import os
import re
import struct
import subprocess
import sys
import zlib

ROCE_V2_PORT = 4791
ETH_P_ROCE_V1 = 0x8915
ERROR_SEVERITY = 0x00800000     # PI_ERROR

OPCODES = {
    'send': {0: 'RC SEND FIRST', 1: 'RC SEND MIDDLE', 2: 'RC SEND LAST',
             4: 'RC SEND ONLY'},
    'write': {6: 'RC RDMA WRITE FIRST', 7: 'RC RDMA WRITE MIDDLE',
              8: 'RC RDMA WRITE LAST', 10: 'RC RDMA WRITE ONLY'},
    'read': {12: 'RC RDMA READ REQUEST', 13: 'RC RDMA READ RESPONSE FIRST',
             14: 'RC RDMA READ RESPONSE MIDDLE',
             15: 'RC RDMA READ RESPONSE LAST',
             16: 'RC RDMA READ RESPONSE ONLY'},
    'ack': {17: 'RC ACKNOWLEDGE'},
    'ud': {0x64: 'UD SEND ONLY'},
}
CM_CLASS = 0x07
CM_ATTRS = {0x10: 'REQ', 0x13: 'REP', 0x14: 'RTU', 0x15: 'DREQ',
            0x16: 'DREP'}
KINDS = list(OPCODES) + ['cm']

FIELDS = ['frame.number', 'eth.src', 'frame.protocols',
          'infiniband.bth.opcode', 'infiniband.invariant.crc',
          '_ws.malformed', '_ws.expert.severity', '_ws.expert.message',
          'infiniband.mad.mgmtclass', 'infiniband.mad.attributeid']


def read_pcap(data):
    """[(frame number, bytes)] of a classic pcap stream."""
    if len(data) < 24:
        raise ValueError(f'{len(data)} bytes: no pcap header')
    magic = data[:4]
    if magic == b'\xd4\xc3\xb2\xa1':
        end = '<'
    elif magic == b'\xa1\xb2\xc3\xd4':
        end = '>'
    else:
        raise ValueError(f'not a pcap stream (magic {magic.hex()})')
    if struct.unpack(end + 'I', data[20:24])[0] != 1:
        raise ValueError('not LINKTYPE_ETHERNET')
    frames, off = [], 24
    while off < len(data):
        if off + 16 > len(data):
            raise ValueError(f'a record header cut at byte {off}')
        incl = struct.unpack(end + 'I', data[off + 8:off + 12])[0]
        off += 16
        if off + incl > len(data):
            raise ValueError(f'frame {len(frames) + 1} cut at byte {off}')
        frames.append((len(frames) + 1, data[off:off + incl]))
        off += incl
    return frames


def roce_parts(f):
    """(kind, masked header, BTH onwards up to the ICRC, ICRC bytes) of a
    RoCE frame, None for another frame; kind is 'v2' or 'v1'."""
    off = 12
    if len(f) < off + 2:
        return None
    typ = struct.unpack('>H', f[off:off + 2])[0]
    off += 2
    while typ in (0x8100, 0x88a8) and len(f) >= off + 4:
        typ = struct.unpack('>H', f[off + 2:off + 4])[0]
        off += 4
    if typ == 0x0800:
        ip = bytearray(f[off:off + 20])
        if len(ip) < 20 or ip[9] != 17:
            return None
        ihl = (ip[0] & 0xf) * 4
        total = struct.unpack('>H', ip[2:4])[0]
        ip = bytearray(f[off:off + ihl])
        ip[1] = 0xff                    # TOS
        ip[8] = 0xff                    # TTL
        ip[10:12] = b'\xff\xff'         # header checksum
        udp_off, end, kind = off + ihl, off + total, 'v2'
        hdr = bytes(ip)
    elif typ == 0x86dd or typ == ETH_P_ROCE_V1:
        ip = bytearray(f[off:off + 40])
        if len(ip) < 40 or (typ == 0x86dd and ip[6] != 17):
            return None
        ip[0] |= 0x0f                   # traffic class and flow label
        ip[1:4] = b'\xff\xff\xff'
        ip[7] = 0xff                    # hop limit
        end = off + 40 + struct.unpack('>H', ip[4:6])[0]
        hdr = bytes(ip)
        if typ == ETH_P_ROCE_V1:
            bth = off + 40
            if end > len(f) or end - bth < 12 + 4:
                return None
            return ('v1', hdr, f[bth:end - 4], f[end - 4:end])
        udp_off, kind = off + 40, 'v2'
    else:
        return None
    udp = bytearray(f[udp_off:udp_off + 8])
    if len(udp) < 8 or struct.unpack('>H', udp[2:4])[0] != ROCE_V2_PORT:
        return None
    udp[6:8] = b'\xff\xff'              # UDP checksum
    bth = udp_off + 8
    if end > len(f) or end - bth < 12 + 4:
        return None
    return (kind, hdr + bytes(udp), f[bth:end - 4], f[end - 4:end])


def icrc(masked_hdr, rest):
    """The ICRC of a packet: CRC-32 over 8 bytes of ones (the LRH's
    place), the masked headers and the BTH (Resv8a as ones) onwards."""
    b = bytearray(rest)
    b[4] = 0xff
    return zlib.crc32(b'\xff' * 8 + masked_hdr + bytes(b))


HEURISTICS = []


def payload_heuristics():
    """--disable-protocol options for the protocols with a heuristic
    dissector of the InfiniBand payload: the payloads of our scenarios are test data, which
    some of them take for their protocol (RPC-over-RDMA took 8-byte SENDs
    of the verbs benchmark) and then find malformed."""
    if not HEURISTICS:
        try:
            p = subprocess.run(['tshark', '-G', 'heuristic-decodes'],
                               capture_output=True, text=True, timeout=120)
            for line in p.stdout.splitlines():
                w = line.split('\t')
                # the protocols (not Ethernet's, which EoIB goes to)
                if len(w) >= 2 and w[0] == 'infiniband.payload' and \
                        w[1] != 'ethertype':
                    HEURISTICS.extend(['--disable-protocol', w[1]])
        except (OSError, subprocess.TimeoutExpired):
            pass
    return HEURISTICS


def run_tshark(path):
    cmd = ['tshark', '-r', path, '-n', '-o', f'infiniband.rroce.port:{ROCE_V2_PORT}',
           '-T', 'fields', '-E', 'separator=/t', '-E', 'occurrence=a',
           '-E', 'aggregator=|'] + payload_heuristics()
    for f in FIELDS:
        cmd += ['-e', f]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except FileNotFoundError:
        return None, 'tshark is not installed (Debian package tshark; prepare-kernel.sh installs it)'
    except subprocess.TimeoutExpired:
        return None, 'tshark took more than 300 s'
    if p.returncode != 0:
        err = [l for l in p.stderr.splitlines() if 'dangerous' not in l]
        return None, f'tshark exited with {p.returncode}: ' + ' '.join(err[-3:])
    rows = []
    for line in p.stdout.splitlines():
        v = line.split('\t')
        v += [''] * (len(FIELDS) - len(v))
        rows.append(dict(zip(FIELDS, v)))
    return rows, None


def num(s):
    try:
        return int(s, 0)
    except ValueError:
        return None


def check(path, min_frames=20, expect=(), each=False):
    """[(name, 'pass'|'fail', detail lines)] of one pcap file."""
    out = []
    try:
        data = open(path, 'rb').read()
        frames = read_pcap(data)
    except (OSError, ValueError) as e:
        return [('decoded', 'fail', [f'{path}: {e}'])]
    rows, err = run_tshark(path)
    if rows is None:
        return [('decoded', 'fail', [err])]

    # decoded: per sender, frames tshark decodes as InfiniBand
    ib = [r for r in rows if ':infiniband' in r['frame.protocols']]
    per_sender = {}
    for r in ib:
        per_sender[r['eth.src']] = per_sender.get(r['eth.src'], 0) + 1
    summary = ', '.join(f'{n} from {s}' for s, n in sorted(per_sender.items()))
    name = f'decoded as InfiniBand: {len(ib)} of {len(rows)} frames ({summary or "none"})'
    low = [s for s, n in per_sender.items() if n < min_frames]
    if len(per_sender) < 2 or low:
        out.append((name, 'fail',
                    [f'at least {min_frames} InfiniBand frames from each of '
                     f'two senders expected; {path}']))
    else:
        out.append((name, 'pass', []))

    # clean: no malformed frame, no expert error
    bad = []
    for r in rows:
        sev = [num(s) for s in r['_ws.expert.severity'].split('|') if s]
        if r['_ws.malformed'] or any(s is not None and s >= ERROR_SEVERITY
                                     for s in sev):
            bad.append(f'frame {r["frame.number"]} ({r["frame.protocols"]}): '
                       f'{r["_ws.expert.message"] or "malformed"}')
    name = 'no malformed frame, no expert error'
    out.append((name, 'fail' if bad else 'pass',
                [f'{len(bad)} frame(s) of {len(rows)}:'] + bad[:20] +
                [f'(tshark -r {path} -V shows them)'] if bad else []))

    # icrc: computed here, compared with the frame and with tshark
    shown = {num(r['frame.number']): r['infiniband.invariant.crc']
             for r in rows}
    bad, checked, sample = [], 0, None
    for n, f in frames:
        parts = roce_parts(f)
        if parts is None:
            continue
        kind, hdr, rest, tail = parts
        checked += 1
        want = icrc(hdr, rest)
        got = struct.unpack('<I', tail)[0]
        ts = num(shown.get(n, '').split('|')[0] or 'x')
        if got != want:
            bad.append(f'frame {n} (RoCE {kind}, BTH opcode {rest[0]}, '
                       f'from {f[6:12].hex(":")}): ICRC {got:#010x}, '
                       f'computed {want:#010x}')
        elif ts != struct.unpack('>I', tail)[0]:
            bad.append(f'frame {n}: tshark shows the ICRC as '
                       f'{shown.get(n) or "nothing"}, the frame ends in '
                       f'{tail.hex()}')
        elif sample is None:
            sample = (hdr, rest, got)
    caught = True
    if sample is not None:
        hdr, rest, got = sample
        flipped = bytearray(rest)
        flipped[len(flipped) // 2] ^= 0x10
        caught = icrc(hdr, bytes(flipped)) != got
    name = f'every ICRC right ({checked} RoCE frames)'
    if bad:
        out.append((name, 'fail', [f'{len(bad)} bad ICRC(s):'] + bad[:20]))
    elif not checked:
        out.append((name, 'fail', ['no RoCE frame in the capture']))
    elif not caught:
        out.append((name, 'fail', ['a good frame with a bit flipped still '
                                   'passes: the check cannot fail']))
    else:
        out.append((name, 'pass', []))

    # opcodes: each expected kind from every sender
    if expect:
        seen = {}
        cm = set()
        for r in ib:
            ops = {num(o) for o in r['infiniband.bth.opcode'].split('|') if o}
            seen.setdefault(r['eth.src'], set()).update(ops)
            classes = [num(c) for c in r['infiniband.mad.mgmtclass'].split('|') if c]
            attrs = [num(a) for a in r['infiniband.mad.attributeid'].split('|') if a]
            if CM_CLASS in classes:
                cm.update(CM_ATTRS.get(a, f'attribute {a:#x}')
                          for a in attrs if a is not None)
        missing = []
        for k in expect:
            if k == 'cm':
                for a in CM_ATTRS.values():
                    if a not in cm:
                        missing.append(f'CM {a}: no MAD on QP1')
                continue
            if each:
                for s in sorted(seen):
                    for op, text in OPCODES[k].items():
                        if op not in seen[s]:
                            missing.append(f'{text} ({op}) from {s}')
                continue
            every = set().union(*seen.values()) if seen else set()
            for op, text in OPCODES[k].items():
                if op not in every:
                    missing.append(f'{text} ({op}) from no sender')
        name = f'opcodes: {" ".join(expect)}' + \
            (' from each end' if each else '')
        out.append((name, 'fail' if missing else 'pass',
                    [f'{len(missing)} missing:'] + missing[:30] if missing else []))
    return out


def parse_header(path):
    """The '# capture:' lines of a scenario: [(name, options)]."""
    caps = []
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return caps
    for line in lines:
        m = re.match(r'#\s*capture:\s*(\S+)(.*)', line)
        if not m:
            continue
        opts = dict(w.split('=', 1) for w in m.group(2).split() if '=' in w)
        caps.append((m.group(1), opts))
    return caps


def split_stream(path, outdir):
    """{(scenario, name): pcap path} of a guest's capture.log, and the
    problems found in it."""
    got, problems = {}, []
    try:
        data = open(path, 'rb').read()
    except OSError:
        return got, problems
    off = 0
    while off < len(data):
        nl = data.find(b'\n', off)
        m = re.fullmatch(rb'rdma-capture (\S+) (\S+) (\d+)',
                         data[off:nl] if nl >= 0 else b'')
        if not m:
            problems.append(f'{path}: no "rdma-capture" line at byte {off}')
            break
        scen, name = m.group(1).decode(), m.group(2).decode()
        size = int(m.group(3))
        body = data[nl + 1:nl + 1 + size]
        if len(body) < size:
            problems.append(f'{path}: capture {scen} {name} cut: '
                            f'{len(body)} of {size} bytes')
        if body[:2] == b'\x1f\x8b':
            try:
                body = gzip.decompress(body)
            except (OSError, EOFError) as e:
                problems.append(f'{path}: capture {scen} {name}: {e}')
        out = os.path.join(outdir, f'capture-{scen}-{name}.pcap')
        with open(out, 'wb') as f:
            f.write(body)
        got[(scen, name)] = out
        off = nl + 1 + size
    return got, problems


def skipped(ktap_path):
    """Names of the scenarios that skipped as a whole."""
    out = set()
    try:
        for line in open(ktap_path, errors='replace'):
            m = re.match(r'ok \d+ (\S+) # SKIP', line.strip('\r\n'))
            if m:
                out.add(m.group(1))
    except OSError:
        pass
    return out


def results(gdir, staging, add):
    """Checks of one guest's captures; add(name, status, detail)."""
    m = re.search(r'guest-(\d+)$', gdir)
    guest = m.group(1) if m else '1'
    plan = os.path.join(staging, 'testbed', f'plan.{guest}')
    expected = []
    try:
        lines = open(plan).read().splitlines()
    except OSError:
        lines = []
    skip = skipped(os.path.join(gdir, 'ktap.log'))
    for line in lines:
        w = line.split()
        if len(w) < 2 or w[0] not in ('scenario', 'wire'):
            continue
        base = os.path.basename(w[1])[:-len('.sh')]
        scen = f'{base}.guest{guest}' if w[0] == 'wire' else base
        if scen in skip:
            continue
        sub = 'wire' if w[0] == 'wire' else ''
        for name, opts in parse_header(os.path.join(staging, 'testbed',
                                                    'scenarios', sub, w[1])):
            if w[0] == 'wire' and opts.get('guest', guest) != guest:
                continue
            expected.append((scen, name, opts))
    got, problems = split_stream(os.path.join(gdir, 'capture.log'), gdir)
    for p in problems:
        add('capture.log', 'fail', [p])
    for scen, name, opts in expected:
        label = f'{scen}: capture {name}'
        path = got.pop((scen, name), None)
        if path is None or os.path.getsize(path) <= 24:
            add(f'{label}', 'fail',
                ['expected (its "# capture:" line) but ' +
                 ('missing from capture.log (ttyS2)' if path is None
                  else 'empty')])
            continue
        expect = [k for k in opts.get('expect', '').split(',') if k]
        for n, st, detail in check(path, int(opts.get('min', 20)), expect,
                                   opts.get('from') == 'each'):
            add(f'{label}: {n}', st, detail)
    for (scen, name), path in sorted(got.items()):
        add(f'{scen}: capture {name}', 'fail',
            [f'{path} came but no scenario of this guest declares it '
             '("# capture:" line)'])


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('pcap')
    ap.add_argument('--min', type=int, default=20,
                    help='InfiniBand frames expected from each sender')
    ap.add_argument('--expect', default='',
                    help=f'comma list of kinds: {",".join(KINDS)}')
    ap.add_argument('--each', action='store_true',
                    help='each kind from every sender')
    args = ap.parse_args()
    expect = [k for k in args.expect.split(',') if k]
    for k in expect:
        if k not in KINDS:
            sys.exit(f'capture: unknown kind {k} ({",".join(KINDS)})')
    failed = 0
    for name, st, detail in check(args.pcap, args.min, expect, args.each):
        print(f'{st.upper()}  {name}')
        for d in detail:
            print(f'        {d}')
        failed += st == 'fail'
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
