#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# rdma-core's own test suite, pyverbs' tests as Debian ships them
# (python3-pyverbs: /usr/share/doc/rdma-core/tests, run_tests.py), run
# unmodified on each device kind against upstream's stack and then ours
# in one boot: upstream's rxe and siw, then ours' rxe, siw and loop
# device (upstream has no loop driver).  Each run's verbose output is
# counted per test module (passed, failed, skipped, errors) and printed
# as "pyverbs-module:" lines, each test's result as a "pyverbs-test:"
# line; tools/testing/rdma/pyverbs_table.py prints the side-by-side
# table from the KTAP log and lists by name the tests that upstream
# passes and ours does not.  The cases: the suite ran on each
# stack x device and reported tests (an interpreter that never got to
# unittest's summary, a timeout or a crash fails it); for rxe and siw,
# ours passes every test that upstream passes on the same kind of
# device (a regression fails it, naming the tests).
# The quick tier (make check) runs the modules of the basic objects
# (device, PD) on rxe with each stack and asserts that the
# suite ran; the regressions it sees are diagnostics there
# ("pyverbs-lost:" lines), not cases: the comparison is asserted by the
# full tier, which runs every module on every device, and asserts that
# ours passes tests.test_odp on rxe and the loop device (upstream's
# software drivers have no ODP: it skips them).  (Ours loses tests today: make check stays green
# while that work goes on, make check-full shows it.)
# needs: /usr/bin/rdma /usr/bin/ip
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav34.so
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/libipathverbs-rdmav34.so
# needs: /etc/libibverbs.d/siw.driver /etc/libibverbs.d/rxe.driver
# needs: /etc/libibverbs.d/ipathverbs.driver
# needs-tree: /usr/lib/python3.11 /usr/lib/python3/dist-packages/pyverbs
# needs-tree: /usr/share/doc/rdma-core/tests
# needs-tree-exclude: test idlelib tkinter turtledemo ensurepip lib2to3
# needs-tree-exclude: config-3.11-x86_64-linux-gnu pydoc_data distutils
# needs-tree-exclude: venv sqlite3 curses dbm site-packages asyncio
# needs-tree-exclude: xmlrpc wsgiref email xml http html zoneinfo tomllib
# needs-tree-exclude: *.opt-1.pyc *.opt-2.pyc _test*.so xxlimited*.so
# needs-tree-exclude: _xx*.so _sqlite3*.so _curses*.so _dbm*.so _gdbm*.so
# needs-tree-exclude: _tkinter*.so readline*.so audioop*.so ossaudiodev*.so
# needs-tree-exclude: _ssl*.so _hashlib*.so nis*.so _crypt*.so _asyncio*.so
# needs-tree-exclude: _decimal*.so _codecs_*.so _multibytecodec*.so
# needs-tree-exclude: _zoneinfo*.so _pydecimal.* pydoc.* doctest.* pdb.*
# needs-tree-exclude: mailbox.* turtle.* tarfile.* imaplib.* smtpd.*
# needs-tree-exclude: nntplib.* ftplib.* ctypes/macholib unittest/test
# needs-tree-exclude: cp[0-9]* mac_* iso8859_* *jis* euc_* gb[0-9k]* big5*
# needs-tree-exclude: hz.* johab.* koi8_* kz1048.* ptcp154.* iso2022_*
# timeout: 900 5000

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

IP=/usr/bin/ip
PV=/tmp/pyverbs
# Debian's interpreter through libpython (tools/testing/rdma/pyrun): the
# initramfs then carries it once, not also as /usr/bin/python3
PY=/testbed/bin/pyrun
TESTS_SRC=/usr/share/doc/rdma-core/tests
# unittest names of the modules to run (empty: all of them);
# "pyverbs.modules=A,B" on the kernel command line (RDMA_VM_APPEND) runs
# those instead, to look at one closely
MODULES=$(tier_pick "tests.test_device tests.test_pd" "")
PICK=$(sed -n 's/.*pyverbs\.modules=\([A-Za-z0-9_.,]*\).*/\1/p' /proc/cmdline)
[ -z "$PICK" ] || MODULES=$(echo "$PICK" | tr , ' ')
# seconds one run_tests.py may take
RUN_LIMIT=$(tier_pick 240 900)
# The tests draw QP capabilities, create flags and sizes at random
# (Python's random, unseeded): every test starts from a seed made of the
# run's seed and its name, so both stacks meet the same draws in the
# same test and a test skipped by an unlucky draw on one side is skipped
# on the other.  A new seed each boot; "pyverbs.seed=N" on the kernel
# command line (RDMA_VM_APPEND) replays one.
SEED=$(sed -n 's/.*pyverbs\.seed=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$SEED" ] || SEED=$(($(date +%s) % 1000000))
SEEDED='import os, random, runpy, sys, unittest
seed = sys.argv[1]
run = unittest.TestCase.run
def seeded(self, result=None):
    random.seed(seed + ":" + self.id())
    return run(self, result)
unittest.TestCase.run = seeded
sys.argv = ["run_tests.py"] + sys.argv[2:]
runpy.run_path(os.path.abspath("run_tests.py"), run_name="__main__")'

# the devices the suite runs on, upstream's and ours
DEVS_UP=$(tier_pick pvrxe0 "pvrxe0 pvsiw0")
DEVS_OURS=$(tier_pick pvrxe0 "pvrxe0 pvsiw0 pvloop0")

# quick: rxe on each stack; full: upstream rxe, siw; ours rxe, siw, loop;
# the full tier's comparisons and its tests.test_odp on ours' rxe and loop
ktap_plan $(tier_pick 7 14)

# Debian ships most test files gzip'ed: a folder the interpreter can
# import from, with the package name run_tests.py gives it ("tests").
prepare() {
	[ -x $PY ] || { echo "no $PY: did vm-run.sh build it?"; return 1; }
	rm -rf $PV && mkdir -p $PV/tests && cp -r $TESTS_SRC/. $PV/tests/ &&
		gunzip $PV/tests/*.gz && [ -f $PV/tests/run_tests.py ] &&
		$IP link add pv0 type dummy && $IP link set pv0 up &&
		$IP addr add 10.86.0.1/24 dev pv0 &&
		$IP link add pv1 type dummy && $IP link set pv1 up &&
		$IP addr add 10.86.1.1/24 dev pv1
}

# links STACK: the devices of the stack loaded (pvrxe0, pvsiw0, and on
# ours pvloop0)
links() {
	rdma link add pvrxe0 type rxe netdev pv0 &&
		rdma link add pvsiw0 type siw netdev pv1 || return 1
	[ "$1" = ours ] || return 0
	rdma link add pvloop0 type loop netdev lo
}

# The verbose output of unittest, counted: "T ID STATUS" per test and
# "M MODULE PASS FAIL SKIP ERROR" per module, "R N" for its "Ran N
# tests" line (absent when it never got there), "W ID LINE" with the
# last line of a failed or erred test's traceback (its exception).  A
# test's result comes after " ... " on its line or alone on a later one
# (a docstring line or the test's own output between); the summary,
# from the first line of "=", has the tracebacks.
count() {
	awk '
	function done(st) {
		if (id == "")
			return
		split(id, p, ".")
		mod = p[2]
		mods[mod] = 1
		n[mod, st]++
		print "T", id, st
		id = ""
	}
	/^={20,}$/ || /^-{20,}$/ {
		summary = 1
		if (tb == 2 && last != "")
			print "W", wid, substr(last, 1, 200)
		tb = (tb == 1 && /^-/) ? 2 : 0
		next
	}
	summary && /^(ERROR|FAIL): / {
		if (match($0, /\(tests\.[^)]*\)/)) {
			wid = substr($0, RSTART + 1, RLENGTH - 2)
			tb = 1
			last = ""
		}
		next
	}
	summary {
		if (tb == 2 && $0 != "")
			last = $0
		if ($0 ~ /^Ran [0-9]+ tests? in /)
			ran = $2
		next
	}
	{
		line = $0
		if (match(line, /\(tests\.[A-Za-z0-9_]+\.[A-Za-z0-9_]+\.[A-Za-z0-9_]+\)/)) {
			id = substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, RSTART + RLENGTH)
		}
		if (line ~ /(^|\.\.\. )ok$/ || line ~ /(^|\.\.\. )expected failure$/)
			done("pass")
		else if (line ~ /(^|\.\.\. )FAIL$/ || line ~ /(^|\.\.\. )unexpected success$/)
			done("fail")
		else if (line ~ /(^|\.\.\. )ERROR$/)
			done("error")
		else if (line ~ /(^|\.\.\. )skipped/)
			done("skip")
	}
	/^Ran [0-9]+ tests? in / { ran = $2 }
	END {
		for (m in mods)
			print "M", m, n[m, "pass"] + 0, n[m, "fail"] + 0, n[m, "skip"] + 0, n[m, "error"] + 0
		if (ran != "")
			print "R", ran
	}' "$1"
}

# suite STACK DEV: run_tests.py on DEV, its counts printed as diagnostics
# ("pyverbs-module: STACK DEV MODULE pass=P fail=F skip=S error=E" and
# "pyverbs-test: STACK DEV ID STATUS"), the passed tests' names kept in
# $PV/STACK-DEV.pass; a case for the run itself.
suite() {
	local stack=$1 dev=$2 out=$PV/$1-$2 rc ran t0 t1 tag kind id st m p f s e
	t0=$(date +%s)
	(cd $PV/tests && timeout "$RUN_LIMIT" $PY -c "$SEEDED" "$SEED" \
		--dev "$dev" -v $MODULES) >"$out.log" 2>&1
	rc=$?
	t1=$(date +%s)
	count "$out.log" >"$out.count"
	ran=
	: >"$out.pass"
	while read -r kind id st m p f s e; do
		case "$kind" in
		T)
			echo "# pyverbs-test: $stack $dev $id $st"
			[ "$st" = pass ] && echo "$id" >>"$out.pass"
			;;
		R) ran=$id ;;
		esac
	done <"$out.count"
	# why each failed or erred test did (its exception's line)
	while read -r kind id st; do
		[ "$kind" = W ] && echo "# pyverbs-why: $stack $dev $id $st"
	done <"$out.count"
	# modules in name order (awk's for-in has none)
	sort -k2 "$out.count" | while read -r kind m p f s e; do
		[ "$kind" = M ] &&
			echo "# pyverbs-module: $stack $dev $m pass=$p fail=$f skip=$s error=$e"
	done
	tag="run_tests.py ran on $stack $dev"
	echo "# $tag: exit $rc, ${ran:-no} tests reported, $((t1 - t0)) s"
	# unittest exits 0 or 1 (failures); a timeout (124), a signal or an
	# interpreter that fails to start is none of these
	if [ -n "$ran" ] && [ "$ran" -gt 0 ] && { [ $rc -eq 0 ] || [ $rc -eq 1 ]; }; then
		ktap_pass "$tag and reported $ran tests"
	else
		ktap_quote "$(tail -n 15 "$out.log")" "$stack $dev: "
		ktap_fail "$tag and reported tests" "exit $rc, Ran '${ran:-}'"
	fi
}

# compare DEV: the tests upstream passed on DEV that ours did not pass,
# as "pyverbs-lost:" lines; a case in the full tier.
compare() {
	local dev=$1 lost
	# (by file name: with ours' list empty, FNR == NR would hold for both)
	lost=$(awk 'FILENAME == ARGV[1] { ours[$0] = 1; next } !($0 in ours)' \
		"$PV/ours-$dev.pass" "$PV/upstream-$dev.pass")
	[ -n "$lost" ] && ktap_quote "$lost" "pyverbs-lost: $dev "
	echo "# pyverbs-compare: $dev upstream passed $(wc -l <"$PV/upstream-$dev.pass"), ours lost $(echo "${lost:+$lost}" | grep -c .)"
	[ "${RDMA_TIER:-quick}" = full ] || return 0
	if [ ! -s "$PV/upstream-$dev.pass" ]; then
		ktap_fail "ours passes every test upstream passes on $dev" \
			"upstream passed no test on $dev: nothing to compare"
	elif [ -z "$lost" ]; then
		ktap_pass "ours passes every test upstream passes on $dev ($(wc -l <"$PV/upstream-$dev.pass"))"
	else
		ktap_fail "ours passes every test upstream passes on $dev" \
			"$(echo "$lost" | wc -l) of $(wc -l <"$PV/upstream-$dev.pass") regressed"
	fi
}

# odp DEV: ours serves on-demand paging MRs on DEV, which upstream
# 6.12's software drivers do not: rdma-core's tests.test_odp passes
# there, some test at least, none failed or erred (a case in the full
# tier, which runs the module)
odp() {
	local dev=$1 tag="ours passes rdma-core's tests.test_odp on $1" p f s e
	[ "${RDMA_TIER:-quick}" = full ] || return 0
	# "M test_odp PASS FAIL SKIP ERROR"
	set -- $(grep '^M test_odp ' "$PV/ours-$dev.count")
	p=${3:-0} f=${4:-} s=${5:-} e=${6:-}
	if [ "$p" -gt 0 ] && [ "$f" = 0 ] && [ "$e" = 0 ]; then
		ktap_pass "$tag ($p passed, $s skipped)"
	else
		ktap_fail "$tag" "passed $p failed ${f:-?} erred ${e:-?}"
	fi
}

ktap_diag "seed $SEED"
ktap_test "test files unpacked, net devices pv0 and pv1 with addresses" prepare

if stack_load upstream ib_core ib_cm iw_cm rdma_cm ib_uverbs rdma_ucm rdma_rxe siw &&
	links upstream; then
	ktap_pass "upstream's stack with devices pvrxe0 and pvsiw0"
else
	ktap_fail "upstream's stack with devices pvrxe0 and pvsiw0"
fi
for d in $DEVS_UP; do
	suite upstream $d
done
ktap_test "upstream's stack unloads completely" stack_unload

if stack_load ours rdma_rxe siw rdma_loop ib_uverbs rdma_cm && links ours; then
	ktap_pass "our stack with devices pvrxe0, pvsiw0 and pvloop0"
else
	ktap_fail "our stack with devices pvrxe0, pvsiw0 and pvloop0"
fi
# rdma_ucm (librdmacm's kernel side) when ours has it: without it the
# suite's rdma_cm tests do not pass, which the comparison shows
modprobe rdma_ucm 2>/dev/null || echo "# our stack has no rdma_ucm"
for d in $DEVS_OURS; do
	suite ours $d
done
for d in $DEVS_UP; do
	compare $d
done
# siw's RC tests need a connection manager (iWARP): pyverbs skips them
for d in pvrxe0 pvloop0; do
	odp $d
done
ktap_test "our stack unloads completely" stack_unload
$IP link del pv0
$IP link del pv1

ktap_finish
