#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# NETLINK_RDMA fuzzing: with ib_core, two fake HCAs and (when built) iw_cm
# loaded, tools/testing/rdma/nlfuzz sends random and malformed messages
# to every client and op, first as root, then as nobody (uid 65534,
# without CAP_NET_ADMIN, where every admin-only op must be refused).
# Afterwards: no splat in the kernel log, the stack unloads, kmemleak
# finds nothing, and after a reload Debian's rdma tool lists the devices.
#
# The seed is printed; "nlfuzz.seed=N" on the kernel command line
# (RDMA_VM_APPEND) replays a run.  Documentation/testing.rst, "nlfuzz".
# needs: /usr/bin/rdma
# timeout: 600 3600

. /testbed/lib/ktap.sh

NLFUZZ=/testbed/bin/nlfuzz
# As root every op does its work (about 6 ms a datagram under TCG on
# 2026-11-27's machine, alone: 317 s for 50000); as nobody most stop at
# the permission check (3 s for 50000).  The seed changes with every run,
# so the runs add up to more than one run's share of the space.  The
# quick tier (make check) sends a sample that reaches every client and op
# with a fresh seed each run; the full tier (make check-full) sends
# 100000 of each.
ROOT_COUNT=$(tier_pick 1500 100000)
USER_COUNT=$(tier_pick 10000 100000)
MIN_TOTAL=$((ROOT_COUNT + USER_COUNT))
# the fuzzer stops by itself after this long, well inside the timeout
RUN_LIMIT=$(tier_pick 500 3000)

seed=$(sed -n 's/.*nlfuzz\.seed=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$seed" ] || seed=$(($(date +%s) % 1000000))

has_module() {
	grep -q "/$1\.ko:" "/lib/modules/$(uname -r)/modules.dep"
}

# Every module of ours goes, not only those load_stack() loaded: a fuzzed
# "rdma link add" may have autoloaded a link driver (siw, rdma_loop).
# The last reference of a netlink dump on ib_core is dropped by a work
# item after the fuzzer's socket is gone, so rmmod may find ib_core busy
# (EAGAIN) for a moment: a few rounds, 10 s at most, before giving up.
[ -n "${TESTBED_OURS+set}" ] || . /testbed/config
unload_stack() {
	local m tries=0
	while grep -qE '^(rdma_fake_hca|iw_cm|ib_core) ' /proc/modules; do
		for m in $(cut -d' ' -f1 /proc/modules); do
			case " $TESTBED_OURS " in
			*" $m "*) rmmod "$m" 2>/dev/null ;;
			esac
		done
		tries=$((tries + 1))
		[ $tries -ge 10 ] && break
		grep -qE '^(rdma_fake_hca|iw_cm|ib_core) ' /proc/modules && sleep 1
	done
	if grep -qE '^(rdma_fake_hca|iw_cm|ib_core) ' /proc/modules; then
		grep -E "^($(echo $TESTBED_OURS | tr ' ' '|')) " /proc/modules >&2
		return 1
	fi
}

load_stack() {
	modprobe ib_core || return 1
	if has_module iw_cm; then
		modprobe iw_cm || return 1
	fi
	modprobe rdma_fake_hca devices=2
}

client_index() {
	case $1 in
	IWCM) echo 2 ;;
	LS) echo 4 ;;
	NLDEV) echo 5 ;;
	*) echo "?" ;;
	esac
}

# "nlfuzz: summary: seed S, uid U, N datagrams (...)" -> N, else 0
datagrams() {
	local n
	n=$(sed -n 's/^nlfuzz: summary: .*, \([0-9][0-9]*\) datagrams.*/\1/p' "$1")
	echo "${n:-0}"
}

splats() {
	dmesg | grep -E 'WARNING:|BUG:|KASAN:|UBSAN:|Oops|general protection|refcount_t:|ODEBUG:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|Call Trace:'
}

ktap_plan 11
ktap_diag "seed $seed (replay: RDMA_VM_APPEND=nlfuzz.seed=$seed)"

unload_stack >/dev/null 2>&1
splats_before=$(splats | wc -l)
# what earlier scans reported (no scan here: it takes long under TCG)
leaks_before=$(grep -c 'unreferenced object' /sys/kernel/debug/kmemleak 2>/dev/null)
leaks_before=${leaks_before:-0}
if load_stack; then
	ktap_pass "ib_core, iw_cm (if built) and rdma_fake_hca devices=2 load"
else
	ktap_fail "ib_core, iw_cm (if built) and rdma_fake_hca devices=2 load"
fi
ktap_diag "modules: $(grep -oE '^(ib_core|iw_cm|rdma_fake_hca) ' /proc/modules | tr -d '\n')"

if [ ! -x $NLFUZZ ]; then
	ktap_fail "nlfuzz present" "no $NLFUZZ: did vm-run.sh build it?"
else
	ktap_pass "nlfuzz present"
fi

# Valid client indexes without a client in this kernel make it run
# modprobe for every message (a quarter of a second under TCG): they get
# one in a hundred of their messages (-R).  Which clients are there is
# known from what is loaded, not guessed from the probe: NLDEV with
# ib_core, IWCM with iw_cm.  LS (SA paths to ibacm) has no client yet; it
# counts as there when it answers the probe with EPERM.
$NLFUZZ -c 0 -u 65534 -m 0 >/tmp/nlfuzz.probe 2>&1
present="NLDEV"
grep -q '^iw_cm ' /proc/modules && present="$present IWCM"
grep -qE "admin-probe LS +[A-Z_]+ +EPERM\$" /tmp/nlfuzz.probe &&
	present="$present LS"
rare=""
for c in 2:IWCM 4:LS 5:NLDEV; do
	case " $present " in *" ${c#*:} "*) ;; *) rare="$rare,${c%:*}" ;; esac
done
rare=${rare#,}
ktap_diag "clients there: $present; sent to rarely: ${rare:-none}"
ropt=""
[ -n "$rare" ] && ropt="-R $rare"

# root and nobody at the same time: the VM has two CPUs
useed=$((seed + 1))
start=$(date +%s)
$NLFUZZ -s "$seed" -c $ROOT_COUNT $ropt -t $RUN_LIMIT -m 5000 \
	>/tmp/nlfuzz.root 2>&1 &
rpid=$!
$NLFUZZ -s "$useed" -c $USER_COUNT $ropt -u 65534 -t $RUN_LIMIT -m 5000 \
	>/tmp/nlfuzz.user 2>&1
urc=$?
wait $rpid
rrc=$?
ktap_diag "both runs: $(($(date +%s) - start)) s"
sed 's/^/# /' /tmp/nlfuzz.root
if [ $rrc -eq 0 ]; then
	ktap_pass "nlfuzz as root"
else
	ktap_fail "nlfuzz as root" "exit status $rrc"
fi
sed 's/^/# /' /tmp/nlfuzz.user
if [ $urc -eq 0 ]; then
	ktap_pass "nlfuzz as uid 65534"
else
	ktap_fail "nlfuzz as uid 65534" "exit status $urc"
fi
if grep -q '^nlfuzz: uid 65534 gid 65534, CAP_NET_ADMIN no$' /tmp/nlfuzz.user; then
	ktap_pass "unprivileged run lacks CAP_NET_ADMIN"
else
	ktap_fail "unprivileged run lacks CAP_NET_ADMIN"
fi

# Without CAP_NET_ADMIN, every admin-only op of a client that is there
# must answer EPERM, and none may be accepted (nlfuzz fails on that too).
# "absent": the client has no callback for the op (the kernel only sends
# it, like the port mapper's REMOVE_MAPPING, or it is not written yet);
# dispatch says so, by extack, before it looks at permissions.  Every
# client that is there must refuse at least one op with EPERM: a probe
# that got no EPERM at all is what a broken permission check looks like.
name="admin-only ops of present clients refused with EPERM"
bad=$(grep -E '^ +admin-probe ' /tmp/nlfuzz.user | while read -r _ cl op res; do
	case " $present " in *" $cl "*) ;; *) continue ;; esac
	case $res in EPERM | absent) ;; *) echo "$cl $op: $res" ;; esac
done)
for cl in $present; do
	n=$(grep -cE "^ +admin-probe $cl +[A-Z_]+ +EPERM\$" /tmp/nlfuzz.user)
	ktap_diag "$cl: $n admin-only ops answered EPERM"
	[ "$n" -gt 0 ] || bad="$bad $cl: no op answered EPERM;"
done
if [ -z "$bad" ]; then
	ktap_pass "$name"
else
	ktap_fail "$name" "$bad"
fi

total=$(($(datagrams /tmp/nlfuzz.root) + $(datagrams /tmp/nlfuzz.user)))
if [ "$total" -ge $MIN_TOTAL ]; then
	ktap_diag "$total datagrams sent"
	ktap_pass "at least $MIN_TOTAL datagrams sent"
else
	ktap_fail "at least $MIN_TOTAL datagrams sent" "only $total"
fi

new=$(splats | tail -n +$((splats_before + 1)))
if [ -z "$new" ]; then
	ktap_pass "no kernel splat while fuzzing"
else
	ktap_fail "no kernel splat while fuzzing" "seed $seed: $(echo "$new" | head -n 3)"
fi

# Whatever the fuzzing renamed, moved or deleted goes with a reload.
if unload_stack; then
	ktap_pass "the stack unloads after fuzzing"
else
	ktap_fail "the stack unloads after fuzzing" \
		"still loaded: $(grep -oE '^(rdma_fake_hca|iw_cm|ib_core) ' /proc/modules | tr -d '\n')"
fi

kl=/sys/kernel/debug/kmemleak
if [ -w $kl ]; then
	# objects younger than 5 s are not reported yet; the report stays
	# for the final check of the init, so it is read, never cleared
	sleep 5
	echo scan >$kl
	leaks=$(($(grep -c 'unreferenced object' $kl) - leaks_before))
	if [ "$leaks" -eq 0 ]; then
		ktap_pass "kmemleak finds nothing after fuzzing"
	else
		ktap_fail "kmemleak finds nothing after fuzzing" \
			"$leaks unreferenced objects (see the console at the end)"
	fi
else
	ktap_fail "kmemleak finds nothing after fuzzing" "no $kl"
fi

# The real rdma tool on a fresh stack.
load_stack
out=$(rdma dev show 2>&1)
if echo "$out" | grep -q ' fake0:' && echo "$out" | grep -q ' fake1:'; then
	ktap_pass "rdma dev show lists fake0 and fake1 after fuzzing"
else
	ktap_fail "rdma dev show lists fake0 and fake1 after fuzzing" "$out"
fi
echo "$out" | sed 's/^/# /'

unload_stack >/dev/null 2>&1
ktap_finish
