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
# Beside it, user space: Debian's perftest (ib_send_lat, ib_read_lat,
# ib_write_bw) between two processes on rxe0 (librxe; the QPs connected
# over TCP, RoCE v2) and on siw0 (libsiw; through rdma_cm, -R, which
# needs rdma_ucm), the figures in columns DEVICE-user.  perftest takes
# its clock from the CPU's frequency, which under TCG it sometimes
# cannot calibrate ("Can't produce a report"): such a run is tried
# again, twice at most.
# Parameters from the kernel command line (run-bench-compare.sh):
#   bench_compare.rounds=N  bench_compare.args=LAT,RATE,CPU,DEPTH
# needs: /usr/bin/rdma /usr/bin/ib_send_lat /usr/bin/ib_read_lat
# needs: /usr/bin/ib_write_bw
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav34.so
# needs: /etc/libibverbs.d/rxe.driver /etc/libibverbs.d/siw.driver
# timeout: 3000

. /testbed/lib/stack.sh
# tcp_listening
. /testbed/lib/ktap.sh

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

# perf_once PROG DEV ADDR ARGS...: PROG's server and client on DEV
# (the client towards ADDR), the client's output on stdout; status 0
# when both ended well.
PERF_PORT=18600
perf_once() {
	local prog=$1 dev=$2 addr=$3 srv n=0 out rc
	shift 3
	PERF_PORT=$((PERF_PORT + 1))
	"$prog" -d "$dev" -p $PERF_PORT -F "$@" >/tmp/perf.server 2>&1 &
	srv=$!
	# -R listens on rdma_cm, not TCP: give the server its moment
	while [ $n -lt 100 ] && ! tcp_listening $PERF_PORT; do
		case " $* " in *" -R "*) [ $n -ge 20 ] && break ;; esac
		sleep 0.1
		n=$((n + 1))
	done
	out=$("$prog" -d "$dev" -p $PERF_PORT -F "$@" "$addr" 2>&1)
	rc=$?
	wait $srv || rc=1
	echo "$out"
	[ $rc = 0 ] || sed 's/^/server: /' /tmp/perf.server
	return $rc
}

# perf ROUND STACK DEV ADDR OP METRICS PROG ARGS...: perftest's figures
# as "cmp" lines.  METRICS: lat (typical and 99 % of a latency run) or
# bw (average bandwidth and message rate).
perf() {
	local round=$1 stack=$2 dev=$3 addr=$4 op=$5 kind=$6 prog=$7 try out
	shift 7
	for try in 1 2 3; do
		out=$(perf_once "$prog" "$dev" "$addr" "$@") && break
		echo "bench-compare: round $round $stack $dev: $prog $* failed (try $try)"
		echo "$out" | tail -12 | sed 's/^/    /'
		out=
	done
	if [ -z "$out" ]; then
		FAILED=$((FAILED + 1))
		return
	fi
	echo "$out" | sed -n '/^ *#bytes/,$p' | sed 's/^/    /'
	echo "$out" | awk -v pre="cmp $round $stack $dev-user vb-result perftest $dev $op" -v kind="$kind" '
		/^ *#bytes/ { table = 1; next }
		table && $1 ~ /^[0-9]+$/ {
			if (kind == "lat") {
				print pre, $1, "lat_med_us", $5
				print pre, $1, "lat_p99_us", $8
			} else {
				print pre, $1, "bw_mbs", $4
				print pre, $1, "rate_kops", $5 * 1000
			}
			table = 0
		}'
}

# gid_of DEV IP: the index of DEV's RoCE v2 GID of IPv4 address IP.
gid_of() {
	local want i g t
	want=$(echo "$2" | awk -F. '{ printf "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x", $1, $2, $3, $4 }')
	for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		g=
		read -r g <"/sys/class/infiniband/$1/ports/1/gids/$i" 2>/dev/null
		[ "$g" = "$want" ] || continue
		t=
		read -r t <"/sys/class/infiniband/$1/ports/1/gid_attrs/types/$i" 2>/dev/null
		[ "$t" = "RoCE v2" ] && echo "$i" && return 0
	done
	echo 0
}

# user_runs ROUND STACK: perftest on rxe0 and siw0.
PERF_N=$(arg perf_iters)
PERF_N=${PERF_N:-2000}
user_runs() {
	local r=$1 stack=$2 gx
	gx=$(gid_of rxe0 10.77.0.1)
	perf "$r" "$stack" rxe0 10.77.0.1 SEND lat ib_send_lat -x "$gx" -n "$PERF_N" -s 8
	perf "$r" "$stack" rxe0 10.77.0.1 SEND lat ib_send_lat -x "$gx" -n "$PERF_N" -s 4096
	perf "$r" "$stack" rxe0 10.77.0.1 RDMA_READ lat ib_read_lat -x "$gx" -n "$PERF_N" -s 8
	perf "$r" "$stack" rxe0 10.77.0.1 RDMA_WRITE bw ib_write_bw -x "$gx" -n "$PERF_N" -s 65536
	if [ -c /dev/infiniband/rdma_cm ]; then
		perf "$r" "$stack" siw0 10.78.0.1 SEND lat ib_send_lat -R -n "$PERF_N" -s 8
		perf "$r" "$stack" siw0 10.78.0.1 RDMA_WRITE bw ib_write_bw -R -n "$PERF_N" -s 65536
	else
		echo "bench-compare: round $r $stack: no /dev/infiniband/rdma_cm, no perftest on siw0"
	fi
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
	user_runs "$r" upstream
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
	modprobe rdma_ucm 2>/dev/null
	user_runs "$r" ours
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
