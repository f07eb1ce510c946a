#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Compare the user ABI of our uapi/rdma headers with a Linux kernel's.

Driven by uapi-abi-check.sh, which documents the method; in short, for each
header:

 1. Both copies (ours and the kernel's) are run through "gcc -E -dD".  The
    line markers tell which text came from the header itself; from that
    text a small C declaration parser collects the enum constants, the
    macros, the enum/struct/union tags, the typedefs and every member path
    of every struct (nested and anonymous members included).  The kernel's
    list is the reference; names missing from ours, or present only in
    ours, are differences.
 2. Macros are sorted, on the kernel side, into integer constant
    expressions (a probe compile: usable as an array size at file scope),
    integer function-like macros (the same probe with integer arguments),
    and the rest (checked for presence only).  The include guard is left
    out: headers_install renames it.
 3. One C program per side prints, for every name, its value, size and
    signedness (constants), size and alignment (types), offset, size and
    element signedness (members).  It is compiled once against our uapi/
    and once against the kernel's; the two outputs are compared line by
    line.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

CC = os.environ.get("CC", "gcc")
CFLAGS = ["-std=gnu11"]

# Headers every probe and check program sees before the one under test.
# <linux/netlink.h> gives RDMA_NLA_TYPE_MASK the NLA_F_* bits it needs.
PRELUDE = "#include <linux/types.h>\n#include <linux/netlink.h>\n"

# Argument tuples used to evaluate integer function-like macros: plain
# integers, chosen so that every bit field of RDMA_NL_GET_* is exercised
# (values past the field widths included).
ARG_SETS = {
    1: [("0",), ("1",), ("0x3ff",), ("0x400",), ("0x1403",), ("0xfc00",),
        ("0xffff",), ("0x10000",), ("0x12345",)],
    2: [("0", "0"), ("2", "1"), ("3", "7"), ("4", "9"), ("5", "0x3ff"),
        ("63", "1"), ("1", "0x400"), ("64", "0"), ("0x41", "0x7ff")],
    3: [("0", "0", "0"), ("1", "2", "3"), ("7", "5", "3")],
}

TOKEN_RE = re.compile(r"""
      [A-Za-z_]\w*
    | 0[xX][0-9a-fA-F]+[uUlL]*
    | \d+[uUlL]*
    | "(?:\\.|[^"\\])*"
    | '(?:\\.|[^'\\])*'
    | ->|<<|>>|<=|>=|==|!=|&&|\|\|
    | \S
""", re.X)
IDENT_RE = re.compile(r"^[A-Za-z_]\w*$")
LINEMARK_RE = re.compile(r'^#\s*(\d+)\s+"((?:\\.|[^"\\])*)"')
DEFINE_RE = re.compile(r"^#\s*define\s+([A-Za-z_]\w*)(\(([^)]*)\))?(.*)$")
KEYWORDS = {"struct", "union", "enum", "typedef", "const", "volatile",
            "unsigned", "signed", "int", "long", "short", "char", "void",
            "__attribute__", "__extension__", "sizeof"}


def die(msg):
    print("uapi-abi: error: " + msg, file=sys.stderr)
    sys.exit(2)


def run(cmd, src=None):
    return subprocess.run(cmd, input=src, capture_output=True, text=True)


# --------------------------------------------------------------------------
# Collecting the declarations of one header
# --------------------------------------------------------------------------

def header_text(incdirs, hdr, path):
    """Preprocess "#include <rdma/hdr>" and return (code, defines) taken
    from `path` only.  defines: list of (name, params or None, body)."""
    src = "#include <rdma/%s>\n" % hdr
    cmd = [CC, "-E", "-dD", "-x", "c"] + CFLAGS + \
        ["-I" + d for d in incdirs] + ["-"]
    r = run(cmd, src)
    if r.returncode:
        die("cannot preprocess %s:\n%s" % (hdr, r.stderr))
    want = os.path.realpath(path)
    cur = None
    seen = False
    code, defines = [], []
    for line in r.stdout.splitlines():
        m = LINEMARK_RE.match(line)
        if m:
            cur = os.path.realpath(m.group(2)) if not m.group(2).startswith("<") else m.group(2)
            if cur == want:
                seen = True
            continue
        if cur != want:
            continue
        if line.startswith("#"):
            d = DEFINE_RE.match(line)
            if d:
                params = None
                if d.group(2) is not None:
                    params = [p.strip() for p in d.group(3).split(",") if p.strip()]
                defines.append((d.group(1), params, d.group(4).strip()))
            continue
        code.append(line)
    if not seen:
        die("<rdma/%s> did not resolve to %s" % (hdr, path))
    return "\n".join(code), defines


def tokenize(text):
    return [t for t in TOKEN_RE.findall(text) if t != "__extension__"]


def skip_balanced(toks, i):
    """toks[i] is an opening bracket; return the index after its match."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    while i < len(toks):
        t = toks[i]
        if t in pairs:
            stack.append(pairs[t])
        elif stack and t == stack[-1]:
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    die("unbalanced brackets")


def split_top(toks, sep):
    """Split a token list at depth-0 separators."""
    out, cur, depth = [], [], 0
    for t in toks:
        if t in "([{":
            depth += 1
        elif t in ")]}":
            depth -= 1
        if t == sep and depth == 0:
            out.append(cur)
            cur = []
        else:
            cur.append(t)
    out.append(cur)
    return out


def until_semicolon(toks, i):
    """Return (tokens up to the depth-0 ';', index after it)."""
    j = i
    while toks[j] != ";":
        j = skip_balanced(toks, j) if toks[j] in "([{" else j + 1
    return toks[i:j], j + 1


def declarator(piece):
    """Name and shape of one declarator: (name, shape) with shape one of
    'scalar', 'array', 'flex', 'bitfield'."""
    name, shape, k = None, "scalar", 0
    while k < len(piece):
        t = piece[k]
        if t == "__attribute__":
            k = skip_balanced(piece, k + 1)
            continue
        if t == "[":
            if name is None:
                break
            if shape == "scalar":
                shape = "flex" if piece[k + 1] == "]" else "array"
            k = skip_balanced(piece, k)
            continue
        if t == ":":
            shape = "bitfield"
            break
        if t == "(":
            k = skip_balanced(piece, k)
            continue
        if IDENT_RE.match(t) and shape == "scalar":
            name = t
        k += 1
    return name, shape


class Header:
    def __init__(self):
        self.consts = []      # enum constants, in order
        self.enums = []       # enum tags
        self.aggs = []        # (kind, tag, members)
        self.typedefs = []
        self.macros = []      # (name, params, body)


def parse_body(toks, i):
    """toks[i] == '{' of a struct/union; return (members, index after '}').
    Member: (path, shape, scalar_elem)."""
    members = []
    i += 1
    while toks[i] != "}":
        t = toks[i]
        if t in ("struct", "union", "enum"):
            j = i + 1
            if IDENT_RE.match(toks[j]):
                j += 1
            sub = None
            if toks[j] == "{":
                if t == "enum":
                    j = skip_balanced(toks, j)
                else:
                    sub, j = parse_body(toks, j)
            decl, j = until_semicolon(toks, j)
            pieces = [p for p in split_top(decl, ",") if p]
            if not pieces and sub is not None:
                members += sub              # anonymous struct/union
            for p in pieces:
                name, shape = declarator(p)
                scalar = t == "enum"
                members.append((name, shape, scalar))
                if sub is not None and shape == "scalar":
                    members += [(name + "." + m[0], m[1], m[2]) for m in sub]
            i = j
            continue
        decl, j = until_semicolon(toks, i)
        for p in split_top(decl, ","):
            name, shape = declarator(p)
            if name:
                members.append((name, shape, True))
        i = j
    return members, i + 1


def parse_enum(toks, i, hdr):
    """toks[i] == '{'; return index after '}'."""
    end = skip_balanced(toks, i)
    for piece in split_top(toks[i + 1:end - 1], ","):
        if piece:
            hdr.consts.append(piece[0])
    return end


def parse_header(code, defines):
    hdr = Header()
    toks = tokenize(code)
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "typedef":
            decl, j = until_semicolon(toks, i)
            k = 1
            if decl[k] in ("struct", "union", "enum"):
                kind = decl[k]
                k += 1
                tag = None
                if IDENT_RE.match(decl[k]):
                    tag = decl[k]
                    k += 1
                if k < len(decl) and decl[k] == "{":
                    if kind == "enum":
                        e = parse_enum(decl, k, hdr)
                        if tag:
                            hdr.enums.append(tag)
                    else:
                        mem, e = parse_body(decl, k)
                        if tag:
                            hdr.aggs.append((kind, tag, mem))
                    decl = decl[:k] + decl[e:]
            name = None
            k = 0
            while k < len(decl):
                if decl[k] == "__attribute__":
                    k = skip_balanced(decl, k + 1)
                    continue
                if decl[k] in "([":
                    k = skip_balanced(decl, k)
                    continue
                if IDENT_RE.match(decl[k]) and decl[k] not in KEYWORDS:
                    name = decl[k]
                k += 1
            if name:
                hdr.typedefs.append(name)
            i = j
        elif t in ("struct", "union", "enum") and i + 1 < len(toks):
            j = i + 1
            tag = None
            if IDENT_RE.match(toks[j]):
                tag = toks[j]
                j += 1
            if j < len(toks) and toks[j] == "{":
                if t == "enum":
                    j = parse_enum(toks, j, hdr)
                    if tag:
                        hdr.enums.append(tag)
                else:
                    mem, j = parse_body(toks, j)
                    if tag:
                        hdr.aggs.append((t, tag, mem))
            i = j
        elif t == "{":
            i = skip_balanced(toks, i)
        else:
            i += 1
    hdr.macros = defines
    return hdr


def include_guard(path):
    with open(path, errors="replace") as f:
        text = f.read()
    m = re.search(r"^\s*#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+\1\b", text, re.M)
    return m.group(1) if m else None


# --------------------------------------------------------------------------
# The check program
# --------------------------------------------------------------------------

def compiles(incdirs, hdr, extra):
    src = PRELUDE + "#include <rdma/%s>\n%s\n" % (hdr, extra)
    cmd = [CC, "-fsyntax-only", "-x", "c"] + CFLAGS + \
        ["-I" + d for d in incdirs] + ["-"]
    return run(cmd, src).returncode == 0


def classify_macros(kinc, hdr_name, hdr, guard):
    """Return a list of check items for the macros of the kernel header."""
    items = []
    for name, params, body in hdr.macros:
        if name == guard:
            continue
        if params is None:
            # "* 0": an integer only (a string literal is checked for
            # presence)
            probe = "static char probe[((%s) * 0 + 1)];" % name
            if compiles([kinc], hdr_name, probe):
                items.append(("macro", name, name))
            else:
                items.append(("defined", name, None))
            continue
        sets = ARG_SETS.get(len(params))
        if sets:
            expr = "%s(%s)" % (name, ", ".join(sets[0]))
            probe = "static char probe[((%s) * 0 + 1)];" % expr
            if compiles([kinc], hdr_name, probe):
                for args in sets:
                    expr = "%s(%s)" % (name, ", ".join(args))
                    items.append(("macro", expr, expr))
                continue
        items.append(("defined", name, None))
    return items


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def program(hdr_name, items):
    out = [PRELUDE, "#include <rdma/%s>\n" % hdr_name,
           "#include <stdio.h>\n#include <stddef.h>\n\n",
           "#define ISNEG(x) ((x) * 0 - 1 < 0)\n",
           "#define TYPE_SIGNED(x) ((__typeof__(x))-1 < (__typeof__(x))0)\n",
           "int main(void)\n{\n"]
    for kind, key, arg in items:
        k = c_str(kind + " " + key)
        if kind in ("const", "macro"):
            out.append('\tprintf("%%s\\t= %%llu signed=%%d size=%%zu\\n", %s, '
                       '(unsigned long long)(%s), ISNEG(%s), sizeof(%s));\n'
                       % (k, arg, arg, arg))
        elif kind == "defined":
            out.append("#ifdef %s\n\tprintf(\"%%s\\tdefined\\n\", %s);\n#endif\n"
                       % (key, c_str(kind + " " + key)))
        elif kind == "enum":
            out.append('\tprintf("%%s\\tsize=%%zu\\n", %s, sizeof(enum %s));\n'
                       % (k, key))
        elif kind in ("struct", "union", "typedef"):
            t = key if kind == "typedef" else kind + " " + key
            out.append('\tprintf("%%s\\tsize=%%zu align=%%zu\\n", %s, '
                       'sizeof(%s), _Alignof(%s));\n' % (k, t, t))
        elif kind == "member":
            t, path, shape, scalar = arg
            obj = "((%s *)0)->%s" % (t, path)
            if shape == "bitfield":
                out.append('\tprintf("%%s\\tbitfield\\n", %s);\n' % k)
                continue
            fields = ["offset=%zu"]
            vals = ["offsetof(%s, %s)" % (t, path)]
            if shape == "flex":
                fields.append("elem=%zu")
                vals.append("sizeof(%s[0])" % obj)
            else:
                fields.append("size=%zu")
                vals.append("sizeof(%s)" % obj)
            if scalar:      # of the element, for arrays
                elem = obj + "[0]" if shape in ("array", "flex") else obj
                fields.append("signed=%d")
                vals.append("TYPE_SIGNED(%s)" % elem)
            out.append('\tprintf("%%s\\t%s\\n", %s, %s);\n'
                       % (" ".join(fields), k, ", ".join(vals)))
    out.append("\treturn 0;\n}\n")
    return "".join(out)


def build_and_run(workdir, tag, incdirs, src):
    cfile = os.path.join(workdir, tag + ".c")
    exe = os.path.join(workdir, tag)
    with open(cfile, "w") as f:
        f.write(src)
    r = run([CC, "-o", exe, cfile] + CFLAGS + ["-I" + d for d in incdirs])
    if r.returncode:
        return None, brief(r.stderr)
    r = run([exe])
    if r.returncode:
        return None, "%s exited with %d" % (exe, r.returncode)
    return r.stdout.splitlines(), None


def items_of(hdr, macro_items):
    items = [("const", c, c) for c in hdr.consts]
    items += macro_items
    items += [("enum", e, None) for e in hdr.enums]
    items += [("typedef", t, None) for t in hdr.typedefs]
    for kind, tag, members in hdr.aggs:
        items.append((kind, tag, None))
        t = kind + " " + tag
        for path, shape, scalar in members:
            items.append(("member", t + "." + path, (t, path, shape, scalar)))
    return items


def names_of(hdr, guard):
    """Every name the header declares, for the presence comparison."""
    names = set("const " + c for c in hdr.consts)
    names |= set("macro " + m[0] for m in hdr.macros if m[0] != guard)
    names |= set("enum " + e for e in hdr.enums)
    names |= set("typedef " + t for t in hdr.typedefs)
    for kind, tag, members in hdr.aggs:
        names.add("%s %s" % (kind, tag))
        names |= set("member %s %s.%s" % (kind, tag, m[0]) for m in members)
    return names


def check_header(args, hdr_name, workdir):
    ours_path = os.path.join(args.ours, "rdma", hdr_name)
    kern_path = os.path.join(args.kernel, "rdma", hdr_name)
    if not os.path.isfile(kern_path):
        die("kernel header %s not found" % kern_path)
    if not os.path.isfile(ours_path):
        print("uapi-abi: %s: missing from our tree" % hdr_name)
        return 0, 0, 1
    ours_inc = [args.ours, args.kernel]
    kern_inc = [args.kernel]

    kguard, oguard = include_guard(kern_path), include_guard(ours_path)
    khdr = parse_header(*header_text(kern_inc, hdr_name, kern_path))
    ohdr = parse_header(*header_text(ours_inc, hdr_name, ours_path))

    diffs = 0
    kn, on = names_of(khdr, kguard), names_of(ohdr, oguard)
    for n in sorted(kn - on):
        print("uapi-abi: %s: %s: missing from ours" % (hdr_name, n))
        diffs += 1
    for n in sorted(on - kn):
        print("uapi-abi: %s: %s: only in ours" % (hdr_name, n))
        diffs += 1

    # Our header must not drag in the kernel's copy of any checked header.
    r = run([CC, "-M", "-x", "c"] + CFLAGS + ["-I" + d for d in ours_inc] +
            ["-"], PRELUDE + "#include <rdma/%s>\n" % hdr_name)
    deps = r.stdout.replace("\\\n", " ").split()
    for h in args.headers:
        kp = os.path.realpath(os.path.join(args.kernel, "rdma", h))
        if any(os.path.realpath(d) == kp for d in deps if d.endswith(".h")):
            print("uapi-abi: %s: pulls in the kernel's %s" % (hdr_name, kp))
            diffs += 1

    items = items_of(khdr, classify_macros(args.kernel, hdr_name, khdr, kguard))
    # Leave out what ours lacks (reported above) so the rest still builds.
    items = [it for it in items if item_name(it) in on]

    # a header of a subfolder (hfi/hfi1_ioctl.h) names a flat work file
    stem = hdr_name[:-2].replace("/", "_")
    kout, err = build_and_run(workdir, "kern-" + stem, kern_inc,
                              program(hdr_name, items))
    if kout is None:
        die("check program does not build against the kernel headers:\n" + err)
    oout, err = build_and_run(workdir, "ours-" + stem, ours_inc,
                              program(hdr_name, items))
    if oout is None:
        print("uapi-abi: %s: check program does not build against ours:\n%s"
              % (hdr_name, err))
        return 0, 0, diffs + 1

    kmap = dict(split_line(line) for line in kout)
    omap = dict(split_line(line) for line in oout)
    if len(kmap) != len(kout) or len(omap) != len(oout):
        die("%s: the check program printed a name twice" % hdr_name)
    for key in kmap:
        if key not in omap:
            print("uapi-abi: %s: %s: missing from ours" % (hdr_name, key))
            diffs += 1
        elif kmap[key] != omap[key]:
            print("uapi-abi: %s: %s: kernel %s, ours %s"
                  % (hdr_name, key, kmap[key], omap[key]))
            diffs += 1
    for key in omap:
        if key not in kmap:
            print("uapi-abi: %s: %s: only in ours" % (hdr_name, key))
            diffs += 1

    nconst = sum(1 for it in items if it[0] in ("const", "macro", "defined"))
    nmemb = sum(1 for it in items if it[0] == "member")
    if args.verbose:
        print("uapi-abi: %s: %d constants, %d members, %d types"
              % (hdr_name, nconst, nmemb, len(items) - nconst - nmemb))
    if not kout or nconst + nmemb == 0:
        print("uapi-abi: %s: nothing checked" % hdr_name)
        diffs += 1
    return nconst, nmemb, diffs


def item_name(it):
    kind, key, arg = it
    if kind in ("macro", "defined"):
        return "macro " + key.split("(")[0]
    if kind == "member":
        t, path = arg[0], arg[1]
        return "member %s.%s" % (t, path)
    return "%s %s" % (kind, key)


def brief(text, lines=12):
    """The first lines of a compiler's complaint."""
    t = text.splitlines()
    more = "\n  ... (%d more lines)" % (len(t) - lines) if len(t) > lines else ""
    return "\n".join(t[:lines]) + more


def split_line(line):
    """'kind name<TAB>values' -> ('kind name', 'values')."""
    k, _, v = line.partition("\t")
    return k, v


def standalone(args, hdr_name):
    """The header must build on its own, with warnings as errors."""
    src = "#include <rdma/%s>\n" % hdr_name
    cmd = [CC, "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-x", "c",
           "-I" + args.ours, "-I" + args.kernel, "-"]
    r = run(cmd, src)
    if r.returncode:
        print("uapi-abi: %s: does not build standalone:\n%s"
              % (hdr_name, brief(r.stderr)))
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True, help="our uapi directory")
    ap.add_argument("--kernel", required=True,
                    help="kernel uapi directory (include/uapi or headers_install)")
    ap.add_argument("--keep", help="keep generated files in this directory")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("headers", nargs="+")
    args = ap.parse_args()
    args.ours = os.path.abspath(args.ours)
    args.kernel = os.path.abspath(args.kernel)

    total_c = total_m = total_d = 0
    with tempfile.TemporaryDirectory(prefix="uapi-abi.") as tmp:
        workdir = args.keep or tmp
        os.makedirs(workdir, exist_ok=True)
        for h in args.headers:
            total_d += standalone(args, h)
            c, m, d = check_header(args, h, workdir)
            total_c += c
            total_m += m
            total_d += d
    if total_c == 0 or total_m == 0:
        total_d += 1
        print("uapi-abi: nothing was checked")
    print("uapi-abi: %d headers, %d constants, %d struct members checked, "
          "%d differences" % (len(args.headers), total_c, total_m, total_d))
    return 1 if total_d else 0


if __name__ == "__main__":
    sys.exit(main())
