#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Debian's perftest, unmodified, between two processes on one device:
# on rxe (rxe0 on the dummy pf0, 10.81.0.1; librxe; the QPs connected
# over TCP, RoCE v2 with the GID of pf0's address; each packet takes
# rxe's loopback) and on siw (siw0 on the dummy pf1, 10.81.1.1; libsiw;
# through rdma_cm, -R, as iWARP needs).  Each run must end well on both
# sides (exit status 0) and the client must print its result line (the
# size and iterations it was asked for); no figure is judged.
#   - quick tier: ib_write_bw with 5 messages of 64 KiB on rxe (64
#     packets each at pf0's MTU: a window of 128 PSNs in flight, more
#     than the responder drains under TCG within perftest's ACK timeout
#     of 67 ms, so spurious retries come; perftest's retry_cnt of 7
#     retries for ever, as on upstream's rxe), ib_send_lat and
#     ib_read_lat (50 iterations) on rxe, ib_write_bw -R (5 messages
#     of 64 KiB) on siw, ib_write_bw of 1000 64-byte messages with 512
#     in flight on rxe (deeper than rdmavt's window on librxe's queue);
#   - full tier, besides: 20 messages and 100 latency iterations,
#     ib_send_bw, ib_read_bw, ib_write_lat, ib_atomic_bw and
#     ib_atomic_lat on rxe, ib_write_bw -R, ib_send_bw -R and
#     ib_read_bw -R on rxe and on siw, ib_send_lat -R and ib_read_lat -R
#     on siw, 3000 messages with 512 in flight on both, and with
#     on-demand paging MRs on both sides (--odp, 5 messages): ib_write_bw -R,
#     ib_send_bw -R and ib_read_bw -R on siw, ib_send_bw and ib_read_bw
#     on rxe (perftest takes no --odp for atomics).
# rdma_rxe_rc's rxe_rc_retry_forever checks the retries themselves.
# The clock: the check kernel's guest has no TSC it trusts (its
# clocksource is jiffies), and perftest cannot calibrate the CPU's
# frequency from gettimeofday() in 4 ms steps.  -F lets a run go on
# without it (bandwidths are then printed as 0), -C reports latencies in
# cycles, which need no frequency; the benchmark (bench/vm/30-compare.sh)
# gives the guest the host's TSC instead.
# needs: /usr/bin/rdma /usr/bin/ip
# needs: /usr/bin/ib_write_bw /usr/bin/ib_send_bw /usr/bin/ib_read_bw
# needs: /usr/bin/ib_send_lat /usr/bin/ib_read_lat /usr/bin/ib_write_lat
# needs: /usr/bin/ib_atomic_bw /usr/bin/ib_atomic_lat
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav34.so
# needs: /etc/libibverbs.d/rxe.driver /etc/libibverbs.d/siw.driver
# timeout: 300 1200

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

CLASS=/sys/class/infiniband

ktap_plan $(tier_pick 9 27)

setup() {
	ip link add pf0 type dummy && ip addr add 10.81.0.1/24 dev pf0 &&
		ip link set pf0 up &&
		ip link add pf1 type dummy && ip addr add 10.81.1.1/24 dev pf1 &&
		ip link set pf1 up &&
		modprobe rdma_rxe && modprobe siw && modprobe ib_uverbs &&
		modprobe rdma_ucm &&
		rdma link add rxe0 type rxe netdev pf0 &&
		rdma link add siw0 type siw netdev pf1
}
ktap_test "rxe0 on pf0 and siw0 on pf1, ib_uverbs and rdma_ucm loaded" setup

# rxe_gid: the index of the RoCE v2 GID of 10.81.0.1 on rxe0
rxe_gid() {
	local i g t
	for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		g=
		read -r g <"$CLASS/rxe0/ports/1/gids/$i" 2>/dev/null
		[ "$g" = 0000:0000:0000:0000:0000:ffff:0a51:0001 ] || continue
		t=
		read -r t <"$CLASS/rxe0/ports/1/gid_attrs/types/$i" 2>/dev/null
		[ "$t" = "RoCE v2" ] && echo "$i" && return 0
	done
	return 1
}
GX=$(rxe_gid)
ktap_diag "rxe0: the RoCE v2 GID of 10.81.0.1 is index ${GX:-none}"
GX=${GX:-0}

# counters DEV: DEV's hardware counters that are not 0
counters() {
	local f v l=
	for f in "$CLASS/$1"/ports/1/hw_counters/*; do
		v=
		read -r v <"$f" 2>/dev/null
		[ "${v:-0}" = 0 ] || l="$l ${f##*/}=$v"
	done
	ktap_diag "$1 counters:${l:- none}"
}

# perf PROG DEV ADDR SIZE ITERS ARGS...: PROG's server and client on DEV
# (the client towards ADDR), SIZE bytes ITERS times; both must end well
# within LIMIT seconds and the client print the line of its result.
PORT=18810
perf() {
	local prog=$1 dev=$2 addr=$3 size=$4 iters=$5 srv cli n=0 rc src out
	shift 5
	PORT=$((PORT + 1))
	"$prog" -d "$dev" -p $PORT -F -s "$size" -n "$iters" "$@" \
		>/tmp/perf.server 2>&1 &
	srv=$!
	# -R listens on rdma_cm, not TCP: give the server its moment
	case " $* " in
	*" -R "*) ktap_nap 2 ;;
	*) ktap_wait 30 tcp_listening $PORT ;;
	esac
	"$prog" -d "$dev" -p $PORT -F -s "$size" -n "$iters" "$@" "$addr" \
		>/tmp/perf.client 2>&1 &
	cli=$!
	# both: the server may still be printing when its client ended
	while [ $n -lt $((LIMIT * 10)) ] &&
		{ [ -d /proc/$cli ] || [ -d /proc/$srv ]; }; do
		ktap_nap 0.1
		n=$((n + 1))
	done
	if [ -d /proc/$cli ] || [ -d /proc/$srv ]; then
		ktap_diag "$prog: still running after $LIMIT s, killed"
		ktap_quote "$(rdma -d resource show qp link "$dev/1" 2>&1)" "qp: "
		kill $cli $srv 2>/dev/null
	fi
	wait $cli
	rc=$?
	wait $srv
	src=$?
	out=$(cat /tmp/perf.client)
	ktap_quote "$(cat /tmp/perf.server)" "server: "
	ktap_quote "$out" "client: "
	# the counters after every run (they add up over the scenario):
	# retries and duplicates say where a slow run's time went
	counters "$dev"
	if [ $rc != 0 ] || [ $src != 0 ]; then
		ktap_diag "exit status: client $rc, server $src"
		return 1
	fi
	# the result: "SIZE ITERS figures..."
	echo "$out" | grep -Eq "^ *$size +$iters +[0-9.]+" && return 0
	ktap_diag "no result line \"$size $iters ...\""
	return 1
}

N=$(tier_pick 5 20)
NL=$(tier_pick 50 100)
NW=$(tier_pick 1000 3000)
LIMIT=$(tier_pick 120 300)
ktap_test "ib_write_bw on rxe0: 64 KiB messages" \
	perf ib_write_bw rxe0 10.81.0.1 65536 "$N" -x "$GX"
ktap_test "ib_send_lat on rxe0 (cycles)" \
	perf ib_send_lat rxe0 10.81.0.1 8 "$NL" -x "$GX" -C
ktap_test "ib_read_lat on rxe0 (cycles)" \
	perf ib_read_lat rxe0 10.81.0.1 8 "$NL" -x "$GX" -C
ktap_test "ib_write_bw -R on siw0: 64 KiB messages through rdma_cm" \
	perf ib_write_bw siw0 10.81.1.1 65536 "$N" -R
# a send queue deeper than rdmavt's window on it (RVT_DRV_SQ_WINDOW, 256):
# what the window has no room for waits in librxe's ring until requests
# retire, then rdmavt takes it
ktap_test "ib_write_bw on rxe0: 512 writes in flight (past rdmavt's window)" \
	perf ib_write_bw rxe0 10.81.0.1 64 "$NW" -x "$GX" -t 512
if [ "${RDMA_TIER:-quick}" = full ]; then
	ktap_test "ib_write_bw -R on siw0: 512 writes in flight" \
		perf ib_write_bw siw0 10.81.1.1 64 "$NW" -R -t 512
	ktap_test "ib_send_bw on rxe0: 64 KiB messages" \
		perf ib_send_bw rxe0 10.81.0.1 65536 "$N" -x "$GX"
	ktap_test "ib_read_bw on rxe0: 64 KiB messages" \
		perf ib_read_bw rxe0 10.81.0.1 65536 "$N" -x "$GX"
	ktap_test "ib_write_lat on rxe0 (cycles)" \
		perf ib_write_lat rxe0 10.81.0.1 8 "$NL" -x "$GX" -C
	ktap_test "ib_atomic_bw on rxe0" \
		perf ib_atomic_bw rxe0 10.81.0.1 8 "$N" -x "$GX"
	ktap_test "ib_atomic_lat on rxe0 (cycles)" \
		perf ib_atomic_lat rxe0 10.81.0.1 8 "$NL" -x "$GX" -C
	ktap_test "ib_write_bw -R on rxe0: 64 KiB messages through rdma_cm" \
		perf ib_write_bw rxe0 10.81.0.1 65536 "$N" -R
	ktap_test "ib_send_bw -R on rxe0: 64 KiB messages through rdma_cm" \
		perf ib_send_bw rxe0 10.81.0.1 65536 "$N" -R
	ktap_test "ib_read_bw -R on rxe0: 64 KiB messages through rdma_cm" \
		perf ib_read_bw rxe0 10.81.0.1 65536 "$N" -R
	ktap_test "ib_send_bw -R on siw0: 64 KiB messages" \
		perf ib_send_bw siw0 10.81.1.1 65536 "$N" -R
	ktap_test "ib_read_bw -R on siw0: 64 KiB messages" \
		perf ib_read_bw siw0 10.81.1.1 65536 "$N" -R
	ktap_test "ib_send_lat -R on siw0 (cycles)" \
		perf ib_send_lat siw0 10.81.1.1 8 "$NL" -R -C
	ktap_test "ib_read_lat -R on siw0 (cycles)" \
		perf ib_read_lat siw0 10.81.1.1 8 "$NL" -R -C
	# on-demand paging MRs (--odp) on both sides: the pages fault in
	# from the drivers' data paths (perftest refuses --odp for atomics);
	# 5 messages each, as the quick tier's runs: under a starved TCG
	# guest one run of 20 took 80 s of perftest's retries
	ktap_test "ib_write_bw -R --odp on siw0: 64 KiB messages, ODP MRs" \
		perf ib_write_bw siw0 10.81.1.1 65536 5 -R --odp
	ktap_test "ib_send_bw -R --odp on siw0: 64 KiB messages, ODP MRs" \
		perf ib_send_bw siw0 10.81.1.1 65536 5 -R --odp
	ktap_test "ib_read_bw -R --odp on siw0: 64 KiB messages, ODP MRs" \
		perf ib_read_bw siw0 10.81.1.1 65536 5 -R --odp
	ktap_test "ib_send_bw --odp on rxe0: 64 KiB messages, ODP MRs" \
		perf ib_send_bw rxe0 10.81.0.1 65536 5 -x "$GX" --odp
	ktap_test "ib_read_bw --odp on rxe0: 64 KiB messages, ODP MRs" \
		perf ib_read_bw rxe0 10.81.0.1 65536 5 -x "$GX" --odp
fi

left() {
	local l
	l=$(rdma resource show ctx 2>&1)
	[ -z "$l" ] || { ktap_quote "$l"; return 1; }
}
ktap_test "no user context left behind" left

teardown() {
	rdma link delete rxe0 && rdma link delete siw0 &&
		ip link del pf0 && ip link del pf1 && stack_unload
}
ktap_test "devices deleted, everything unloads" teardown
health_check
ktap_finish
