#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The bed itself: upstream's stack on both guests (both halves of this
# file run at once: guest/wire.sh), an rxe and a siw device on the wire's
# eth0 on each side, and for each kind a connection through upstream's
# rdma_cm that moves data both ways and checks it: the verbs benchmark
# (rdma_verbs_bench built against upstream's headers) serves on guest 1
# and runs a short client on guest 2 (a few SENDs, RDMA WRITEs and READs
# of 8 B, 4 KiB and 64 KiB, each checked).  Then everything unloads.
# needs: /usr/bin/rdma
# timeout: 500

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh
. /testbed/lib/wire.sh

B=/sys/kernel/debug/verbs_bench
PORT=18515
# LAT RATE CPU DEPTH: a few operations of each kind, not a measurement.
SMALL="4 8 16 4"

# connect NAME DEV: the two halves of one connection over DEV.
connect() {
	local name=$1 dev=$2 out rc=0
	if ! wire_sync "$dev: connect"; then
		ktap_fail "$name" "the other guest did not come to the connection"
		return
	fi
	if [ "$WIRE_SELF" = 1 ]; then
		echo "server $dev $PORT" >$B/run || rc=$?
	else
		sleep 1
		echo "client $dev $WIRE_PEER_IP $PORT $SMALL" >$B/run || rc=$?
	fi
	out=$(cat $B/results)
	echo "$out" | sed 's/^/# /'
	if [ $rc -ne 0 ]; then
		ktap_fail "$name" "the run failed (status $rc)"
	elif ! echo "$out" | grep -q '^verify: ok'; then
		ktap_fail "$name" "no 'verify: ok' in the results"
	else
		ktap_pass "$name"
	fi
}

ktap_plan 8
ktap_test "upstream's stack loads" stack_load upstream
ktap_test "rdma_verbs_bench (built against upstream) loads" \
	stack_insmod rdma_verbs_bench
ktap_test "rdma link add rxe0 and siw0 on eth0" \
	sh -c 'rdma link add rxe0 type rxe netdev eth0 &&
	       rdma link add siw0 type siw netdev eth0'
ktap_test "both guests are up (sync over the wire)" wire_sync "stacks up"
ktap_test "ping $WIRE_PEER_IP over the wire" ping -c 3 -W 5 "$WIRE_PEER_IP"
connect "rxe0: RoCE connection across the wire moves data" rxe0
connect "siw0: iWARP connection across the wire moves data" siw0
wire_sync "done" || ktap_diag "the other half did not reach 'done'"
ktap_test "the stack unloads completely" stack_unload
ktap_finish
