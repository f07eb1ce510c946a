#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Benchmark (make bench-compare, never make check): the verbs benchmark
# (rdma_verbs_bench, one source built against each stack) on upstream's
# rdma_rxe and siw over dummy interfaces, on our loop devices and our rxe
# and siw on dummy interfaces, and the same figures for kernel TCP over that
# interface, several rounds
# interleaved in one boot: each round loads one stack, runs, unloads it
# completely and loads the other (guest/stack.sh); odd rounds start with
# upstream, even ones with ours.  Prints every figure as
#   cmp ROUND STACK DEVICE vb-result TRANSPORT DRIVER OP SIZE METRIC VALUE
# for bench/compare.py, which makes the side-by-side table.
# Parameters from the kernel command line (run-bench-compare.sh):
#   bench_compare.rounds=N  bench_compare.args=LAT,RATE,CPU,DEPTH
# needs: /usr/bin/rdma
# timeout: 3000

. /testbed/lib/stack.sh

B=/sys/kernel/debug/verbs_bench
arg() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^bench_compare\.$1=//p" | tr ',' ' '
}
ROUNDS=$(arg rounds)
ROUNDS=${ROUNDS:-3}
ARGS=$(arg args)
# TCP takes LAT RATE DEPTH (no CPU figures).
TCP_ARGS=$(echo "$ARGS" | awk 'NF == 4 { print $1, $2, $4 }')

echo "bench-compare: kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPU(s)"
dbg=""
grep -qw kasan_report /proc/kallsyms && dbg="$dbg KASAN"
grep -qw lock_acquire /proc/kallsyms && dbg="$dbg lockdep"
grep -qw kmemleak_alloc /proc/kallsyms && dbg="$dbg kmemleak"
echo "bench-compare: debug options:${dbg:- none}"
echo "bench-compare: clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "bench-compare: $ROUNDS round(s), LAT RATE CPU DEPTH = ${ARGS:-defaults}"

FAILED=0

# run ROUND STACK DEVICE COMMAND: one run of the benchmark, its figures
# tagged; the table of the run goes to the log too (indented).
run() {
	local round=$1 stack=$2 dev=$3 cmd=$4 t0 t1
	t0=$(cut -d' ' -f1 /proc/uptime)
	if ! echo "$cmd" >$B/run; then
		echo "bench-compare: round $round $stack $dev: '$cmd' failed"
		FAILED=$((FAILED + 1))
	fi
	t1=$(cut -d' ' -f1 /proc/uptime)
	sed 's/^/    /' $B/results
	grep '^vb-result ' $B/results | sed "s/^/cmp $round $stack $dev /"
	grep -q '^verify: ok' $B/results ||
		{ echo "bench-compare: round $round $stack $dev: data not verified"; FAILED=$((FAILED + 1)); }
	echo "bench-compare: round $round $stack $dev took $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s"
}

# Two dummy interfaces: rxe0 on d0, siw0 on d1 (rdma_cm picks the device
# by IP address, so each kind has an address of its own).
dummy_up() {
	ip link add d0 type dummy && ip addr add 10.77.0.1/24 dev d0 &&
		ip link set d0 up &&
		ip link add d1 type dummy && ip addr add 10.78.0.1/24 dev d1 &&
		ip link set d1 up
}

dummy_down() {
	ip link del d0 2>/dev/null
	ip link del d1 2>/dev/null
}

upstream_round() {
	local r=$1
	stack_load upstream && stack_insmod rdma_verbs_bench && dummy_up &&
		rdma link add rxe0 type rxe netdev d0 &&
		rdma link add siw0 type siw netdev d1 || {
		echo "bench-compare: round $r: upstream's stack did not come up"
		FAILED=$((FAILED + 1))
		stack_unload
		dummy_down
		return
	}
	run "$r" upstream rxe0 "pair rxe0 rxe0 $ARGS"
	run "$r" upstream siw0 "pair siw0 siw0 $ARGS"
	run "$r" tcp lo "tcp-pair $TCP_ARGS"
	stack_unload || FAILED=$((FAILED + 1))
	dummy_down
}

# Ours: two loop devices, and rxe0 on d0 and siw0 on d1 as upstream's.
ours_round() {
	local r=$1
	stack_load ours ib_core && modprobe rdma_loop devices=2 &&
		modprobe siw && modprobe rdma_rxe &&
		modprobe rdma_verbs_bench && dummy_up &&
		rdma link add rxe0 type rxe netdev d0 &&
		rdma link add siw0 type siw netdev d1 || {
		echo "bench-compare: round $r: our stack did not come up"
		FAILED=$((FAILED + 1))
		stack_unload
		dummy_down
		return
	}
	run "$r" ours loop0 "pair loop0 loop1 $ARGS"
	run "$r" ours rxe0 "pair rxe0 rxe0 $ARGS"
	run "$r" ours siw0 "pair siw0 siw0 $ARGS"
	rdma link delete rxe0 || FAILED=$((FAILED + 1))
	rdma link delete siw0 || FAILED=$((FAILED + 1))
	stack_unload || FAILED=$((FAILED + 1))
	dummy_down
}

r=1
while [ $r -le "$ROUNDS" ]; do
	if [ $((r % 2)) = 1 ]; then
		upstream_round $r
		ours_round $r
	else
		ours_round $r
		upstream_round $r
	fi
	r=$((r + 1))
done
echo "bench-compare: finished, $FAILED problem(s)"
[ $FAILED = 0 ]
