#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Static checks of the repository.
#
#   static-check.sh sparse      sparse over every object changed since
#                               found clean (make C=1 on those, or C=2)
#   static-check.sh checkpatch  checkpatch.pl --strict over our .c and .h
#   static-check.sh includes    our include/rdma and uapi/rdma headers win
#                               over the kernel's, and no object reaches a
#                               private header of another folder (from the
#                               kbuild .cmd files)
#   static-check.sh kerneldoc   every exported function has kernel-doc with
#                               Context: and (unless void) Return:, and
#                               scripts/kernel-doc -none -Wall finds nothing
#                               in our .c and .h
#
# Exit status: 0 clean, 1 findings, 2 could not check (e.g. the build
# failed, nothing to check).  KDIR defaults to the test kernel (prepare-kernel.sh).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
: "${KDIR:=$("$here/prepare-kernel.sh")}"
export KDIR

# checkpatch tests that we switch off, each for a reason that does not
# apply to code living outside a kernel tree.  Keep in sync with
# Documentation/testing.rst.
#   FILE_PATH_CHANGES: asks whether MAINTAINERS needs an update; we have
#     no MAINTAINERS file (only emitted for patches, listed for safety).
#   MACRO_ARG_REUSE, MACRO_ARG_PRECEDENCE: raised only by macros whose
#     shape is fixed kernel API (ib_alloc_device, rdma_for_each_port,
#     rdma_zalloc_drv_obj*, INIT_RDMA_OBJ_SIZE, SET_DEVICE_OP): they take
#     type and member names, which cannot be parenthesised or evaluated once.
#   CONST_STRUCT: struct ib_device embeds its ib_device_ops by value, as
#     upstream's does, and ib_set_device_ops() fills it in place.
#   MACRO_ARG_UNUSED: RDMA_UAPI_PTR(_type, _name) is user ABI; its type
#     argument documents the pointer and is unused by design.
#   COMPLEX_MACRO: the verbs ioctl's declaration macros of
#     <rdma/uverbs_ioctl.h> (DECLARE_UVERBS_OBJECT, DECLARE_UVERBS_WRITE,
#     UAPI_DEF_CHAIN_OBJ_TREE, UVERBS_ATTR_UHW) are kernel API that
#     expands to entries of an initializer list, which parentheses break.
#   ENOSYS: rdma_cm answers -ENOSYS where a port has no connection manager
#     and for iWARP multicast, as upstream's cma.c does: kernel API that
#     in-tree ULPs see, kept for parity (Documentation/core/rdma_cm.rst).
CHECKPATCH_IGNORE=FILE_PATH_CHANGES,MACRO_ARG_REUSE,MACRO_ARG_PRECEDENCE
CHECKPATCH_IGNORE=$CHECKPATCH_IGNORE,CONST_STRUCT,MACRO_ARG_UNUSED,ENOSYS
CHECKPATCH_IGNORE=$CHECKPATCH_IGNORE,COMPLEX_MACRO

say() { echo "static-check: $*"; }

# .c and .h files of the repository: tracked plus untracked, less what
# .gitignore names (build outputs such as *.mod.c) and the .testbed folder.
our_sources() {
	if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$repo" ls-files -co --exclude-standard -- '*.c' '*.h'
	else
		(cd "$repo" && find . -path ./.testbed -prune -o \
			\( -name '*.c' -o -name '*.h' \) -type f -print |
			sed 's|^\./||' | grep -v '\.mod\.c$')
	fi | grep -v '^\.testbed/' | sort
}

# sparse's verdict on an object depends on its source, the headers it
# includes, its flags, the kernel tree and sparse itself: an object found
# clean is remembered under a key of all of them (the in-repo headers
# and the flags from kbuild's .o.cmd, the repository's path left out),
# and a warm run checks only the objects whose key changed.  Nothing is
# remembered from a run with findings.
SPARSE_CACHE=${RDMA_TESTBED_CACHE:-$HOME/.cache/rdma-testbed}/sparse-clean

# "KEY OBJECT" for each object of ours built (OBJECT relative to the
# repository), on stdout.
sparse_keys() {
	python3 - "$repo" "$KDIR" "$(sparse --version 2>&1)" <<'EOF'
import hashlib, os, sys
repo, kdir, version = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3]
for root, dirs, files in os.walk(repo):
    dirs[:] = sorted(d for d in dirs if d not in ('.git', '.testbed'))
    for f in sorted(files):
        if not (f.startswith('.') and f.endswith('.o.cmd')) or \
                f.endswith('.mod.o.cmd'):
            continue
        lines = open(os.path.join(root, f), errors='replace').read().split('\n')
        h = hashlib.sha256()
        h.update(f'{version}\n{kdir}\n'.encode())
        deps = []
        indeps = False
        for line in lines:
            if line.startswith('savedcmd_'):
                h.update(line.replace(repo, '@').encode())
            elif line.startswith('source_'):
                deps.append(line.split(':=', 1)[1].strip())
            elif line.startswith('deps_'):
                indeps = True
            elif indeps:
                p = line.strip().rstrip('\\').strip()
                if not p:
                    indeps = False
                elif p.startswith(repo + '/'):
                    deps.append(p)
        for p in sorted(set(deps)):
            h.update(os.path.relpath(p, repo).encode() + b'\0')
            try:
                h.update(open(p, 'rb').read())
            except OSError:
                h.update(b'missing')
        obj = os.path.relpath(os.path.join(root, f[1:-4]), repo)
        print(h.hexdigest()[:40], obj)
EOF
}

do_sparse() {
	local log=$repo/.testbed/sparse.log keys=$repo/.testbed/sparse-keys
	local rc=0 prc=0 n stale k o c=2
	mkdir -p "$repo/.testbed"
	command -v sparse >/dev/null || { say "sparse is not installed"; return 2; }
	sparse_keys >"$keys"
	n=$(wc -l <"$keys")
	: >"$keys.stale"
	while read -r k o; do
		[ -e "$SPARSE_CACHE/$k" ] || echo "$k $o" >>"$keys.stale"
	done <"$keys"
	stale=$(wc -l <"$keys.stale")
	if [ "$n" -gt 0 ] && [ "$stale" -eq 0 ]; then
		say "sparse checked no file: $n file(s) clean, all unchanged since found clean"
		return 0
	fi
	# A few changed: rebuild those objects with C=1 (sparse over what is
	# compiled).  Many, or none built: C=2, sparse over every source
	# whether it is rebuilt or not.
	if [ "$stale" -gt 0 ] && [ $((stale * 2)) -le "$n" ]; then
		c=1
		while read -r k o; do
			rm -f "$repo/$o"
		done <"$keys.stale"
	fi
	# A clean MAKEFLAGS: "make -s check" would otherwise hide the CHECK lines.
	MAKEFLAGS='' make -j"$(nproc)" -C "$KDIR" M="$repo" C=$c CHECK=sparse \
		modules >"$log" 2>&1 || rc=$?
	python3 - "$log" "$KDIR" "$repo" "$rc" <<'EOF' || prc=$?
import os, re, sys
log, kdir, repo, rc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
diag = re.compile(r'^(\S+?):(\d+):(\d+): ?(.*)$')
ours = []
findings = 0
checked = 0
keep = False
for line in open(log, errors='replace'):
    line = line.rstrip('\n')
    if re.match(r'^\s+CHECK\s', line):
        checked += 1
    m = diag.match(line)
    if not m:
        keep = False
        continue
    path = m.group(1)
    if not os.path.isabs(path):
        path = os.path.join(kdir, path)
    path = os.path.realpath(path)
    rest = m.group(4)
    shown = os.path.relpath(path, repo) + line[len(m.group(1)):]
    if rest.startswith(('warning:', 'error:')):
        # gcc's own warnings end in [-Wname]: those belong to the build.
        keep = path.startswith(repo + '/') and \
            not re.search(r'\[-W[^\]]*\]$', line)
        if keep:
            findings += 1
            ours.append(shown)
    elif keep:
        ours.append(shown)      # sparse's "expected/got" lines
for l in ours:
    print(l)
if rc:
    print(f'static-check: the build failed (make exit status {rc}); see {log}')
    sys.exit(2)
if checked == 0:
    print('static-check: sparse checked no file (nothing built?)')
    sys.exit(2)
n = findings
print(f'static-check: sparse checked {checked} file(s), {n} finding(s) in our files')
sys.exit(1 if n else 0)
EOF
	if [ $prc -eq 0 ]; then
		mkdir -p "$SPARSE_CACHE"
		# C=2 checked them all: each is clean now
		if [ $c = 2 ]; then
			cp "$keys" "$keys.stale"
		fi
		while read -r k o; do
			: >"$SPARSE_CACHE/$k"
		done <"$keys.stale"
		if [ $c = 1 ]; then
			say "sparse: $n file(s) clean ($stale checked, the others unchanged since found clean)"
		fi
	fi
	return $prc
}

# checkpatch decides some rules by a file's place in the kernel tree (uapi
# headers may use C99 types and plain shifts, for instance), so it reads
# our files through a tree of symlinks where each sits where it would
# upstream: uapi/rdma -> include/uapi/rdma, include/rdma and include/kunit
# stay, the rest goes under drivers/infiniband.  Its messages name the
# repository paths.
in_tree_path() {
	case "$1" in
	uapi/rdma/*) echo "include/uapi/${1#uapi/}" ;;
	include/rdma/* | include/kunit/*) echo "$1" ;;
	*) echo "drivers/infiniband/$1" ;;
	esac
}

# checkpatch's verdict on a file depends only on the file, its path in
# the tree, checkpatch.pl itself and the tests we switch off: a file found
# clean once is remembered under a key of all four (outside the repo,
# beside the kernels), and a warm run checks only what changed.  Nothing
# is remembered from a run with findings.
CHECKPATCH_CACHE=${RDMA_TESTBED_CACHE:-$HOME/.cache/rdma-testbed}/checkpatch-clean

checkpatch_key() {
	{ printf '%s\n%s\n' "$2" "$CHECKPATCH_IGNORE"; cat "$KDIR/scripts/checkpatch.pl" "$1"; } |
		sha256sum | cut -c1-40
}

do_checkpatch() {
	local files=() keys=() f k n=0 rc=0 tree=$repo/.testbed/checkpatch-tree
	while IFS= read -r f; do
		n=$((n + 1))
		k=$(checkpatch_key "$repo/$f" "$(in_tree_path "$f")")
		[ -e "$CHECKPATCH_CACHE/$k" ] && continue
		files+=("$(in_tree_path "$f")")
		keys+=("$k")
	done < <(our_sources)
	if [ $n -eq 0 ]; then
		say "checkpatch: no .c or .h file to check"
		return 2
	fi
	if [ ${#files[@]} -eq 0 ]; then
		say "checkpatch: $n file(s) clean (all unchanged since found clean)"
		return 0
	fi
	rm -rf "$tree"
	mkdir -p "$tree/include/uapi" "$tree/drivers"
	ln -s "$repo/include/rdma" "$tree/include/rdma"
	ln -s "$repo/include/kunit" "$tree/include/kunit"
	ln -s "$repo/uapi/rdma" "$tree/include/uapi/rdma"
	ln -s "$repo" "$tree/drivers/infiniband"
	(cd "$tree" && "$KDIR/scripts/checkpatch.pl" --strict --no-tree \
		--show-types --quiet --ignore "$CHECKPATCH_IGNORE" \
		-f "${files[@]}") >"$repo/.testbed/checkpatch.log" 2>&1 || rc=$?
	sed -e 's@\(FILE: \|^\)include/uapi/rdma/@\1uapi/rdma/@' \
	    -e 's@\(FILE: \|^\)drivers/infiniband/@\1@' \
	    "$repo/.testbed/checkpatch.log"
	if [ $rc -eq 0 ]; then
		mkdir -p "$CHECKPATCH_CACHE"
		for k in "${keys[@]}"; do
			: >"$CHECKPATCH_CACHE/$k"
		done
		say "checkpatch: $n file(s) clean (${#files[@]} checked, the others unchanged since found clean)"
	else
		say "checkpatch: findings above (in ${#files[@]} file(s) checked)"
		rc=1
	fi
	return $rc
}

do_includes() {
	python3 - "$KDIR" "$repo" <<'EOF'
import glob, os, re, sys
kdir, repo = (os.path.realpath(p) for p in sys.argv[1:3])
kernel_rdma = (os.path.join(kdir, 'include', 'rdma') + '/',
               os.path.join(kdir, 'include', 'uapi', 'rdma') + '/')
our_rdma = (os.path.join(repo, 'include', 'rdma') + '/',)
our_uapi = (os.path.join(repo, 'uapi', 'rdma') + '/',)
cmds = []
for root, dirs, files in os.walk(repo):
    dirs[:] = [d for d in dirs if d not in ('.git', '.testbed')]
    cmds += [os.path.join(root, f) for f in files
             if f.startswith('.') and f.endswith('.o.cmd')
             and not f.endswith('.mod.o.cmd')]
if not cmds:
    print('static-check: includes: no object built in the repository')
    sys.exit(2)
our_public = tuple(os.path.join(repo, d) + '/' for d in ('include', 'uapi'))


def module_root(rel):
    """The folder of the module a repository path belongs to."""
    parts = rel.split('/')
    depth = {'core': 2, 'ulp': 2, 'tools': 4}.get(parts[0], 2)
    if parts[:2] == ['hw', 'sw']:
        depth = 3
    return '/'.join(parts[:depth])


# Interfaces between modules: a private header and the objects of other
# modules that may use it, with the reason.
SHARED = {
    # what ib_core exports for the other core modules only
    'core/ib_core/core_modules.h': ('core/',),
    # the layout of an rdma_cm id, which ib_core's resource tracking and
    # nldev report (upstream's nldev reads it too)
    'core/rdma_cm/cma_priv.h': ('core/ib_core/restrack.o',
                                'core/ib_core/netlink/nldev_res.o'),
}


def header_allowed(hdr, cmd, oroot, is_test):
    if module_root(hdr) == oroot:
        return True
    if is_test and hdr.startswith('core/') and oroot.startswith('core/'):
        return True
    obj = os.path.join(os.path.dirname(cmd),
                       os.path.basename(cmd)[1:-len('.cmd')])
    users = SHARED.get(hdr, ())
    return any(obj.startswith(u) if u.endswith('/') else obj == u
               for u in users)


bad = {}
private = {}
seen_ours = set()
seen_uapi = set()
for cmd in sorted(cmds):
    # A header of the repository outside include/ and uapi/ is private to
    # its module's folder (core/<module>/, hw/<driver>/, ulp/<ulp>/, a
    # folder of tools/testing/rdma/): objects anywhere in that folder may
    # use it, those of other modules may not, but for the interfaces
    # between modules named in SHARED.  A KUnit suite (an object of a
    # tests/ folder) may also look into the core modules its unit sits on.
    odir = os.path.dirname(cmd)
    oroot = module_root(os.path.relpath(odir, repo))
    is_test = '/tests' in '/' + os.path.relpath(odir, repo) + '/' or \
        os.path.relpath(odir, repo).endswith('/tests')
    text = open(cmd, errors='replace').read()
    text = re.sub(r'\$\(wildcard [^)]*\)', ' ', text)  # optional config deps
    for m in re.finditer(r'^deps_\S+ := \\\n((?:.*\\\n)*)', text, re.M):
        for tok in m.group(1).replace('\\\n', ' ').split():
            path = tok if os.path.isabs(tok) else os.path.join(kdir, tok)
            path = os.path.realpath(path)
            if path.startswith(kernel_rdma):
                bad.setdefault(os.path.relpath(cmd, repo), []).append(path)
            elif path.startswith(our_rdma):
                seen_ours.add(os.path.relpath(path, repo))
            elif path.startswith(our_uapi):
                seen_uapi.add(os.path.relpath(path, repo))
            if (path.startswith(repo + '/') and path.endswith('.h') and
                    not path.startswith(our_public) and
                    not header_allowed(os.path.relpath(path, repo),
                                       os.path.relpath(cmd, repo),
                                       oroot, is_test)):
                private.setdefault(os.path.relpath(cmd, repo),
                                   set()).add(os.path.relpath(path, repo))
status = 0
for cmd, paths in sorted(bad.items()):
    status = 1
    for p in sorted(set(paths)):
        print(f'{cmd}: uses the kernel\'s {p}')
for cmd, paths in sorted(private.items()):
    status = 1
    for p in sorted(paths):
        print(f'{cmd}: uses {p}, a private header of another folder')
if not seen_ours:
    status = 1
    print('static-check: includes: no object includes a header from '
          'include/rdma/ of the repository')
print(f'static-check: includes: {len(cmds)} object(s), '
      f'{len(seen_ours)} of our include/rdma and {len(seen_uapi)} of our '
      f'uapi/rdma headers used, {len(bad)} object(s) using the kernel\'s, '
      f'{len(private)} using a private header of another folder')
sys.exit(status)
EOF
}

# Structures of include/rdma whose kernel-doc describes the structure but
# not yet each member: kernel-doc's "member not described" findings for
# them are counted and shown, but do not fail the check, until their
# members are described (the rest of -Wall is enforced for them too).
KERNELDOC_MEMBERS_LATER='ib_device_ops ib_device_attr ib_device ib_qp_attr ib_port_attr'

do_kerneldoc() {
	local files=() f rc=0 log=$repo/.testbed/kernel-doc.log
	mkdir -p "$repo/.testbed"
	while IFS= read -r f; do
		files+=("$f")
	done < <(our_sources)
	if [ ${#files[@]} -eq 0 ]; then
		say "kerneldoc: no .c or .h file to check"
		return 2
	fi
	if [ ! -x "$KDIR/scripts/kernel-doc" ]; then
		say "kerneldoc: $KDIR/scripts/kernel-doc is missing"
		return 2
	fi
	# -Wall: parameters and members described, names that match the
	# prototype, a Return: section for every non-void function.
	(cd "$repo" && "$KDIR/scripts/kernel-doc" -none -Wall "${files[@]}") \
		>"$log" 2>&1 || rc=$?
	python3 - "$repo" "$log" "$rc" "$KERNELDOC_MEMBERS_LATER" \
		"${files[@]}" <<'EOF'
import os, re, sys
repo, log, rc, later = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    set(sys.argv[4].split())
files = sys.argv[5:]
findings = []
deferred = 0
for line in open(log, errors='replace'):
    line = line.rstrip('\n')
    if not line:
        continue
    m = re.search(r"member '[^']*' not described in '([^']*)'$", line)
    if m and m.group(1) in later:
        deferred += 1
        continue
    findings.append(line)
if rc and not findings:
    findings.append(f'static-check: kernel-doc failed (exit status {rc}); '
                    f'see {log}')

# Exported functions: EXPORT_SYMBOL, EXPORT_SYMBOL_GPL, their _NS forms
# and EXPORT_SYMBOL_IF_KUNIT (the test modules are callers too).  The
# kernel-doc block is looked for in the same file.  An export inside a
# macro body (a line continued with a backslash) names a macro argument,
# not a function: skipped.
export = re.compile(r'^EXPORT_SYMBOL(?:_GPL|_IF_KUNIT)?(?:_NS(?:_GPL)?)?\(\s*(\w+)')
block = re.compile(r'/\*\*[ \t]*\n(.*?)\*/', re.S)
exported = 0
for path in files:
    if not path.endswith('.c'):
        continue
    text = open(os.path.join(repo, path), errors='replace').read()
    lines = text.split('\n')
    names = []
    for i, l in enumerate(lines):
        m = export.match(l)
        if m and not (i and lines[i - 1].rstrip().endswith('\\')):
            names.append((m.group(1), i + 1))
    if not names:
        continue
    docs = {}
    for m in block.finditer(text):
        first = re.match(r'\s*\*\s*(\w+)(?:\(\))?\s*-', m.group(1))
        if first:
            docs[first.group(1)] = m.group(1)
    for name, lineno in names:
        # The definition: "<type> name(" at the start of a line, or the
        # name alone on its line after a type line (a call is indented).
        # None: not a function.
        d = re.search(r'^(?![ \t])([\w \t\*]*?)\b' + re.escape(name) +
                      r'\(', text, re.M)
        if not d:
            continue
        exported += 1
        rtype = d.group(1)
        if not rtype.strip():
            start = text.rfind('\n', 0, d.start() - 1)
            rtype = text[start + 1:d.start()]
        void = re.fullmatch(r'\s*(?:static\s+)?(?:inline\s+)?void\s*',
                            rtype) is not None
        where = f'{path}:{lineno}: {name}()'
        body = docs.get(name)
        if body is None:
            findings.append(f'{where}: exported without kernel-doc')
            continue
        missing = []
        if not re.search(r'^\s*\*\s*Context:', body, re.M):
            missing.append('Context:')
        if not void and not re.search(r'^\s*\*\s*Returns?:', body, re.M):
            missing.append('Return:')
        if missing:
            findings.append(f'{where}: kernel-doc without ' +
                            ' and '.join(missing))
for f in findings:
    print(f)
print(f'static-check: kerneldoc: {len(files)} file(s), {exported} exported '
      f'function(s), {len(findings)} finding(s); {deferred} undescribed '
      f'member(s) of {" ".join(sorted(later))} not counted yet')
sys.exit(1 if findings else 0)
EOF
}

case "${1:-}" in
sparse) do_sparse ;;
checkpatch) do_checkpatch ;;
includes) do_includes ;;
kerneldoc) do_kerneldoc ;;
*)
	echo "usage: $0 sparse|checkpatch|includes|kerneldoc" >&2
	exit 2
	;;
esac
