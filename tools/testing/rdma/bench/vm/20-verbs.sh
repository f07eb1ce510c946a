#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Benchmark (run by "vm-run.sh bench", never by "make check"): latency,
# message rate and bandwidth of SEND, RDMA WRITE and RDMA READ between
# kernel RC QPs, the CPU per completion of each CQ poll context, and
# kernel TCP measured the same way, by rdma_verbs_bench
# (tools/testing/rdma/bench/vb_main.c has the method and the syntax).
#
# The stack is whichever the guest has: ours (rdma_loop is there) runs
# "pair loop0 loop1" over two loop devices; upstream's (rdma_rxe and siw,
# rdma_verbs_bench built with Kbuild.upstream) runs "pair rxe0 rxe0"
# (RoCE v2 on dummy d0, 10.0.0.1) and "pair siw0 siw0" (iWARP through
# rdma_cm on dummy d1, 10.0.1.1: rdma_cm takes the first device of a
# netdev, so each device has its own).  Then "tcp-pair" on 127.0.0.1.
#
# Kernel command line (run-verbs-bench.sh puts the first there):
#   verbs_bench.args=LAT,RATE,CPU,DEPTH   counts (else the defaults)
#   verbs_bench.stack=ours|upstream       which stack (else detected)
#   verbs_bench.runs=rdma,tcp             which runs (else both)
# Prints each run's report (tables, "vb-result" lines, "verify:");
# the exit status says whether every run was made, its data checked
# ok and everything unloaded again, never whether the numbers are good.
# needs: /usr/bin/rdma /usr/bin/ip
# timeout: 1400

B=/sys/kernel/debug/verbs_bench
KL=/sys/kernel/debug/kmemleak
IP=/usr/bin/ip

arg() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^verbs_bench\.$1=//p" |
		tr ',' ' '
}

ARGS=$(arg args)
STACK=$(arg stack)
RUNS=$(arg runs)
RUNS=${RUNS:-rdma tcp}
# shellcheck disable=SC2086
set -- $ARGS
TCPARGS=""
[ $# = 4 ] && TCPARGS="$1 $2 $4"
if [ -z "$STACK" ]; then
	if grep -q '/rdma_loop.ko:' "/lib/modules/$(uname -r)/modules.dep"; then
		STACK=ours
	else
		STACK=upstream
	fi
fi

echo "verbs benchmark: kernel $(uname -r)," \
	"$(grep -c ^processor /proc/cpuinfo) CPU(s)," \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
grep -qw hypervisor /proc/cpuinfo && echo "guest of QEMU (TCG: every instruction emulated)"
dbg=""
grep -qw kasan_report /proc/kallsyms && dbg="$dbg KASAN"
grep -qw lock_acquire /proc/kallsyms && dbg="$dbg lockdep"
grep -qw kmemleak_alloc /proc/kallsyms && dbg="$dbg kmemleak"
[ -n "$dbg" ] && echo "debug options:$dbg"
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "clocksource: $cs"
case "$cs" in
*jiffies*) echo "(times are in 4 ms steps: see run-verbs-bench.sh)" ;;
esac
echo "stack: $STACK; runs: $RUNS; counts: ${ARGS:-defaults}"

rc=0
# One run: the command, its report; a failed write or data check fails.
run() {
	echo
	echo "== verbs_bench: $*"
	start=$(cut -d' ' -f1 /proc/uptime)
	echo "$*" >$B/run || rc=1
	end=$(cut -d' ' -f1 /proc/uptime)
	cat $B/results
	grep -q '^verify: ok' $B/results || rc=1
	echo "(run took $(echo "$start $end" |
		awk '{ printf "%.1f", $2 - $1 }') s, guest clock)"
}

# A dummy netdev with an address and a software RDMA device on it.
link() {
	$IP link add "$1" type dummy &&
		$IP addr add "$2" dev "$1" &&
		$IP link set "$1" up &&
		rdma link add "$3" type "$4" netdev "$1"
}

setup_upstream() {
	modprobe rdma_rxe && modprobe siw && modprobe rdma_verbs_bench &&
		link d0 10.0.0.1/24 rxe0 rxe && link d1 10.0.1.1/24 siw0 siw
}

teardown_upstream() {
	rdma link delete rxe0 2>/dev/null
	rdma link delete siw0 2>/dev/null
	$IP link del d0 2>/dev/null
	$IP link del d1 2>/dev/null
}

case "$STACK" in
ours)
	modprobe rdma_loop devices=2 && modprobe rdma_verbs_bench || exit 1
	;;
upstream)
	setup_upstream || { rc=1; RUNS=""; }
	;;
*)
	echo "unknown stack $STACK"
	exit 1
	;;
esac
[ -w $KL ] && echo clear >$KL

for r in $RUNS; do
	case "$STACK:$r" in
	ours:rdma) run pair loop0 loop1 "$ARGS" ;;
	upstream:rdma)
		run pair rxe0 rxe0 "$ARGS"
		run pair siw0 siw0 "$ARGS"
		;;
	*:tcp) run tcp-pair "$TCPARGS" ;;
	esac
done

[ "$STACK" = upstream ] && teardown_upstream
for m in rdma_verbs_bench rdma_loop rdmavt rdma_rxe siw rdma_ucm rdma_cm \
	iw_cm ib_cm ib_umad ib_uverbs ib_core; do
	if grep -q "^$m " /proc/modules; then
		rmmod $m || rc=1
	fi
done
if [ -w $KL ]; then
	echo scan >$KL
	n=$(grep -c "unreferenced object" $KL)
	echo "kmemleak after unloading: $n unreferenced object(s)"
	[ "$n" = 0 ] || { cat $KL; rc=1; }
fi
exit $rc
