#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Our soft-iWARP against upstream's, across the wire, with either stack on
# either guest.  Both halves of this file run at once (guest/wire.sh).
# Part 1: guest 1 runs our stack (siw, iw_cm, rdma_cm, the verbs benchmark
# built against our include/), guest 2 upstream's (the same benchmark
# source built against upstream's headers).  Then each guest unloads its
# stack completely and loads the other one in the same boot
# (guest/stack.sh), and part 2 runs with the stacks the other way round.
# In each part: a siw device on eth0 of each guest, which Debian's rdma
# tool shows, and two connections through each side's rdma_cm, each
# moving SENDs, RDMA WRITEs and READs of 8 B, 4 KiB and 64 KiB with their
# data checked ("verify: ok" on the client, a clean end on the server):
# once our side passive and upstream's active, once the other way.  In
# part 1 a third connection has our side active with gso_seg_limit=0:
# upstream's responder echoes the GSO bit of our request, so ours sends
# FPDUs over one MSS, which upstream's siw must take.
# needs: /usr/bin/rdma
# timeout: 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh
. /testbed/lib/wire.sh

B=/sys/kernel/debug/verbs_bench
PORT=18525
# LAT RATE CPU DEPTH: a few operations of each kind, not a measurement.
SMALL="2 4 2 2"

# The largest drv_mulpdu of our siw0's QPs, polled into $1 every 0.3 s
# until $2 exists.
watch_mulpdu() {
	local m max=0
	while [ ! -e "$2" ]; do
		for m in $(rdma -dd res show qp link siw0/1 |
			   sed -n 's/.* drv_mulpdu \([0-9]*\).*/\1/p'); do
			[ "$m" -gt "$max" ] && max=$m
		done
		echo "$max" >"$1"
		sleep 0.3
	done
}

# conn NAME SERVER_GUEST [gso]: the benchmark's server on SERVER_GUEST,
# its client on the other guest, over siw0.  With gso, our side (the
# client) runs with gso_seg_limit=0 and must cut FPDUs over one MSS.
conn() {
	local name=$1 server=$2 gso=${3:-} out rc=0 wp mulpdu=
	if ! wire_sync "$name"; then
		ktap_fail "$name" "the other guest did not come to the connection"
		return
	fi
	if [ "$WIRE_SELF" = "$server" ]; then
		# The server's write returns once its client has gone.
		echo "server siw0 $PORT" >$B/run || rc=$?
		out=$(cat $B/server_results)
	else
		if [ -n "$gso" ]; then
			echo 0 >/sys/module/siw/parameters/gso_seg_limit
			rm -f /tmp/gso.done
			watch_mulpdu /tmp/gso.max /tmp/gso.done &
			wp=$!
		fi
		sleep 1
		echo "client siw0 $WIRE_PEER_IP $PORT $SMALL" >$B/run || rc=$?
		out=$(cat $B/results)
		if [ -n "$gso" ]; then
			: >/tmp/gso.done
			wait $wp
			echo 1 >/sys/module/siw/parameters/gso_seg_limit
			mulpdu=$(cat /tmp/gso.max)
			ktap_diag "largest MULPDU seen: $mulpdu (one MSS: 1442)"
		fi
	fi
	echo "$out" | sed 's/^/# /'
	if [ $rc -ne 0 ]; then
		ktap_fail "$name" "the run failed (status $rc)"
	elif [ -n "$mulpdu" ] && [ "$mulpdu" -le 1442 ]; then
		ktap_fail "$name" "no FPDU over one MSS (largest MULPDU $mulpdu)"
	elif [ "$WIRE_SELF" != "$server" ] &&
	     ! echo "$out" | grep -q '^verify: ok'; then
		ktap_fail "$name" "no 'verify: ok' in the results"
	else
		ktap_pass "$name"
	fi
}

# load STACK: STACK's modules and the benchmark built against it.
load() {
	if [ "$1" = ours ]; then
		stack_load ours siw rdma_cm rdma_verbs_bench
	else
		stack_load upstream && stack_insmod rdma_verbs_bench
	fi
}

# part N OURS_GUEST: one part with our stack on guest OURS_GUEST.
part() {
	local n=$1 ours=$2 mine theirs
	if [ "$WIRE_SELF" = "$ours" ]; then
		mine=ours
	else
		mine=upstream
	fi
	theirs=$((3 - ours))
	ktap_test "part $n: $mine stack loads (siw, rdma_cm, the benchmark)" \
		load $mine
	ktap_test "part $n: both guests are up (sync over the wire)" \
		wire_sync "part $n: stacks up"
	ktap_test "part $n: rdma link add siw0 type siw netdev eth0" \
		rdma link add siw0 type siw netdev eth0
	ktap_has "part $n: rdma link show: siw0/1 on eth0" \
		"^link siw0/1 .*netdev eth0" rdma link show
	# Our siw stands on rdmavt, upstream's does not.
	if [ $mine = ours ]; then
		ktap_test "part $n: siw0 is our siw (on rdmavt)" \
			grep -q "^rdmavt " /proc/modules
	else
		ktap_test "part $n: siw0 is upstream's siw (no rdmavt)" \
			sh -c '! grep -q "^rdmavt " /proc/modules'
	fi
	conn "part $n: ours passive (guest $ours), upstream active: data checked" "$ours"
	conn "part $n: upstream passive (guest $theirs), ours active: data checked" "$theirs"
	if [ $n = 1 ]; then
		conn "part 1: upstream passive, ours active with gso_seg_limit 0: data checked" \
			"$theirs" gso
	fi
	wire_sync "part $n: done" || ktap_diag "the other half did not finish part $n"
	ktap_test "part $n: rdma link delete siw0" rdma link delete siw0
	ktap_test "part $n: the $mine stack unloads completely" stack_unload
}

ktap_plan 20
part 1 1
ktap_test "ping $WIRE_PEER_IP over the wire" ping -c 1 -W 5 "$WIRE_PEER_IP"
# The swap: the other stack on each guest, in the same boot.
part 2 2
ktap_finish
