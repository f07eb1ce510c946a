#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# NETLINK_RDMA fuzzing: with ib_core, two fake HCAs and (when built) iw_cm
# loaded, tools/testing/rdma/nlfuzz sends random and malformed messages
# to every client and op, first as root, then as nobody (uid 65534,
# without CAP_NET_ADMIN, where every admin-only op must be refused).
# Each run sends every strategy of nlfuzz.  Afterwards: no splat in the
# kernel log, the stack unloads, and after a reload Debian's rdma tool
# lists the devices.  Leaks are the guest's final kmemleak check, which
# names this scenario for an object allocated while it ran (one scan here
# could not report them: kmemleak reports an object at the second scan
# that finds it unreferenced).
#
# The seed is printed; "nlfuzz.seed=N" on the kernel command line
# (RDMA_VM_APPEND) replays a run.  Documentation/testing.rst, "nlfuzz".
# needs: /usr/bin/rdma
# timeout: 600 3600

. /testbed/lib/ktap.sh

NLFUZZ=/testbed/bin/nlfuzz
# As root every op does its work (about 6 ms a datagram under TCG on
# 2026-11-27's machine, alone: 317 s for 50000); as nobody most stop at
# the permission check.  The seed changes with every run, so the runs add
# up to more than one run's share of the space.  Each run starts with the
# sweep (every op of a client index, plain and dump): the full tier
# (make check-full) sweeps all 64 indexes and sends 100000 datagrams of
# each run; the quick tier (make check) sweeps the indexes 0..7 (the
# valid ones, 0..5, and two past them: every index past the valid ones
# ends at the same check of the dispatch, and the random datagrams reach
# all 64) and sends a random sample after it, a fresh seed each run.
ROOT_COUNT=$(tier_pick 2000 100000)
USER_COUNT=$(tier_pick 3000 100000)
SWEEP=$(tier_pick 8 64)
MIN_TOTAL=$((ROOT_COUNT + USER_COUNT))
# the fuzzer stops by itself after this long, well inside the timeout
RUN_LIMIT=$(tier_pick 500 3000)

seed=$(sed -n 's/.*nlfuzz\.seed=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$seed" ] || seed=$(($(date +%s) % 1000000))

# the guest's clock: now = seconds since boot (a fraction cut off)
uptime_s() {
	local u r
	read -r u r </proc/uptime
	now=${u%.*}
}
stamp() {
	local u r
	read -r u r </proc/uptime
	ktap_diag "at $u s: $*"
}

has_module() {
	local l
	while read -r l; do
		case "$l" in
		*"/$1.ko:"*) return 0 ;;
		esac
	done <"/lib/modules/$(uname -r)/modules.dep"
	return 1
}

# ours_loaded: loaded = the modules of ours in /proc/modules, newest
# first, each followed by a blank; core = those of them among
# rdma_fake_hca, iw_cm and ib_core
[ -n "${TESTBED_OURS+set}" ] || . /testbed/config
ours_loaded() {
	local m rest
	loaded=
	core=
	while read -r m rest; do
		case " $TESTBED_OURS " in
		*" $m "*) loaded="$loaded$m " ;;
		*) continue ;;
		esac
		case $m in
		rdma_fake_hca | iw_cm | ib_core) core="$core$m " ;;
		esac
	done </proc/modules
}

# Every module of ours goes, not only those load_stack() loaded: a fuzzed
# "rdma link add" may have autoloaded a link driver (siw, rdma_loop).
# The last reference of a netlink dump on ib_core is dropped by a work
# item after the fuzzer's socket is gone, so rmmod may find ib_core busy
# (EAGAIN) for a moment: rounds every 0.2 s, 10 s at most, before giving
# up.
unload_stack() {
	local m tries=0
	ours_loaded
	while [ -n "$core" ]; do
		for m in $loaded; do
			rmmod "$m" 2>/dev/null
		done
		ours_loaded
		[ -n "$core" ] || break
		tries=$((tries + 1))
		[ $tries -ge 50 ] && break
		ktap_nap 0.2
	done
	if [ -n "$core" ]; then
		echo "still loaded: $loaded" >&2
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

# quote_file FILE: FILE's lines as diagnostic lines
quote_file() {
	local l
	while IFS= read -r l; do
		printf '# %s\n' "$l"
	done <"$1"
}

# summary FILE: of nlfuzz's output in FILE, sent = the datagrams its
# summary counts (0 without one), rows = the rows of its strategy table,
# zero = the strategies it sent no datagram of (each after a blank)
summary() {
	local k n rest in=0
	sent=0
	rows=0
	zero=
	while read -r k n rest; do
		case "$k $n" in
		"nlfuzz: summary:")
			sent=${rest#*, uid *, }
			sent=${sent%% datagrams*}
			;;
		"strategy datagrams") in=1 ;;
		"client name") in=0 ;;
		*)
			[ $in = 1 ] || continue
			rows=$((rows + 1))
			[ "$n" = 0 ] && zero="$zero $k"
			;;
		esac
	done <"$1"
}

client_index() {
	case $1 in
	IWCM) echo 2 ;;
	LS) echo 4 ;;
	NLDEV) echo 5 ;;
	*) echo "?" ;;
	esac
}

splats() {
	dmesg | grep -E 'WARNING:|BUG:|KASAN:|UBSAN:|Oops|general protection|refcount_t:|ODEBUG:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|Call Trace:'
}

ktap_plan 11
ktap_diag "seed $seed (replay: RDMA_VM_APPEND=nlfuzz.seed=$seed)"

unload_stack >/dev/null 2>&1
splats_before=$(splats | wc -l)
if load_stack; then
	ktap_pass "ib_core, iw_cm (if built) and rdma_fake_hca devices=2 load"
else
	ktap_fail "ib_core, iw_cm (if built) and rdma_fake_hca devices=2 load"
fi
ours_loaded
ktap_diag "modules: $core"

if [ ! -x $NLFUZZ ]; then
	ktap_fail "nlfuzz present" "no $NLFUZZ: did vm-run.sh build it?"
else
	ktap_pass "nlfuzz present"
fi

# Valid client indexes without a client in this kernel make it run
# modprobe for every message (a quarter of a second under TCG): they get
# one in a hundred of their messages (-R).  Which clients are there is
# known from what is loaded: ib_core answers NLDEV and LS (the SA's
# local service, core/ib_core/sa/sa_ls.c), iw_cm IWCM.
present="NLDEV LS"
case " $core " in *" iw_cm "*) present="$present IWCM" ;; esac
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
stamp "fuzzing"
uptime_s
start=$now
$NLFUZZ -s "$seed" -c $ROOT_COUNT -S $SWEEP $ropt -t $RUN_LIMIT -m 5000 \
	>/tmp/nlfuzz.root 2>&1 &
rpid=$!
$NLFUZZ -s "$useed" -c $USER_COUNT -S $SWEEP $ropt -u 65534 -t $RUN_LIMIT \
	-m 5000 >/tmp/nlfuzz.user 2>&1
urc=$?
wait $rpid
rrc=$?
uptime_s
fuzz_end=$now
ktap_diag "both runs: $((fuzz_end - start)) s"
quote_file /tmp/nlfuzz.root
if [ $rrc -eq 0 ]; then
	ktap_pass "nlfuzz as root"
else
	ktap_fail "nlfuzz as root" "exit status $rrc"
fi
quote_file /tmp/nlfuzz.user
if [ $urc -eq 0 ]; then
	ktap_pass "nlfuzz as uid 65534"
else
	ktap_fail "nlfuzz as uid 65534" "exit status $urc"
fi
# the user run's lines: who it ran as, and its admin probe
ident=
probes=
while IFS= read -r l; do
	case "$l" in
	"nlfuzz: uid "*) ident=$l ;;
	"  admin-probe "*) probes="$probes${l#  admin-probe }$KTAP_NL" ;;
	esac
done </tmp/nlfuzz.user
if [ "$ident" = "nlfuzz: uid 65534 gid 65534, CAP_NET_ADMIN no" ]; then
	ktap_pass "unprivileged run lacks CAP_NET_ADMIN"
else
	ktap_fail "unprivileged run lacks CAP_NET_ADMIN" "$ident"
fi

# Without CAP_NET_ADMIN, every admin-only op of a client that is there
# must answer EPERM, and none may be accepted (nlfuzz fails on that too).
# "absent": the client has no callback for the op (the kernel only sends
# it, like the port mapper's REMOVE_MAPPING, or it is not written yet);
# dispatch says so, by extack, before it looks at permissions.  Every
# client that is there must refuse at least one op with EPERM: a probe
# that got no EPERM at all is what a broken permission check looks like.
name="admin-only ops of present clients refused with EPERM"
bad=
for cl in $present; do
	n=0
	while read -r c op res; do
		[ "$c" = "$cl" ] || continue
		case $res in
		EPERM) n=$((n + 1)) ;;
		absent) ;;
		*) bad="$bad $cl $op: $res;" ;;
		esac
	done <<EOF
$probes
EOF
	ktap_diag "$cl: $n admin-only ops answered EPERM"
	[ "$n" -gt 0 ] || bad="$bad $cl: no op answered EPERM;"
done
if [ -z "$bad" ]; then
	ktap_pass "$name"
else
	ktap_fail "$name" "$bad"
fi

# what the summaries count: the datagrams, and those of each strategy
# (a run without a summary, or with a strategy it sent none of, fails)
summary /tmp/nlfuzz.root
total=$sent
missing=
[ $rows -gt 0 ] || missing=" root: no summary;"
[ -z "$zero" ] || missing="$missing root:$zero;"
summary /tmp/nlfuzz.user
total=$((total + sent))
[ $rows -gt 0 ] || missing="$missing uid 65534: no summary;"
[ -z "$zero" ] || missing="$missing uid 65534:$zero;"
if [ "$total" -ge $MIN_TOTAL ]; then
	ktap_diag "$total datagrams sent"
	ktap_pass "at least $MIN_TOTAL datagrams sent"
else
	ktap_fail "at least $MIN_TOTAL datagrams sent" "only $total"
fi
if [ -z "$missing" ]; then
	ktap_pass "both runs sent datagrams of every strategy"
else
	ktap_fail "both runs sent datagrams of every strategy" "none of:$missing"
fi

new=$(splats | tail -n +$((splats_before + 1)))
if [ -z "$new" ]; then
	ktap_pass "no kernel splat while fuzzing"
else
	ktap_fail "no kernel splat while fuzzing" "seed $seed: $(echo "$new" | head -n 3)"
fi

stamp "unload"
# Whatever the fuzzing renamed, moved or deleted goes with a reload.
if out=$(unload_stack 2>&1); then
	ktap_pass "the stack unloads after fuzzing"
else
	ktap_fail "the stack unloads after fuzzing" "$out"
fi

# The real rdma tool on a fresh stack (ib_core comes with rdma_fake_hca).
stamp "reload"
modprobe rdma_fake_hca devices=2
out=$(rdma dev show 2>&1)
ktap_quote "$out"
case "$out" in
*" fake0:"*" fake1:"* | *" fake1:"*" fake0:"*)
	ktap_pass "rdma dev show lists fake0 and fake1 after fuzzing"
	;;
*)
	ktap_fail "rdma dev show lists fake0 and fake1 after fuzzing"
	;;
esac
unload_stack >/dev/null 2>&1

stamp "done"
ktap_finish
