#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Our soft-iWARP against upstream's, across the wire: guest 1 runs our
# stack (siw, iw_cm, rdma_cm, the verbs benchmark built against our
# include/), guest 2 upstream's (the same benchmark source built against
# upstream's headers).  Both halves of this file run at once
# (guest/wire.sh).  Two connections through each side's rdma_cm, each
# moving SENDs, RDMA WRITEs and READs of 8 B, 4 KiB and 64 KiB with their
# data checked ("verify: ok" on the client, a clean end on the server):
#   1. ours passive (server on guest 1), upstream active (client on 2);
#   2. upstream passive (server on guest 2), ours active (client on 1).
# Then both stacks unload completely.
# needs: /usr/bin/rdma
# timeout: 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh
. /testbed/lib/wire.sh

B=/sys/kernel/debug/verbs_bench
PORT=18525
# LAT RATE CPU DEPTH: a few operations of each kind, not a measurement.
SMALL="2 4 2 2"

# conn NAME SERVER_GUEST: the benchmark's server on SERVER_GUEST, its
# client on the other guest, over siw0.
conn() {
	local name=$1 server=$2 out rc=0
	if ! wire_sync "$name"; then
		ktap_fail "$name" "the other guest did not come to the connection"
		return
	fi
	if [ "$WIRE_SELF" = "$server" ]; then
		# The server's write returns once its client has gone.
		echo "server siw0 $PORT" >$B/run || rc=$?
		out=$(cat $B/server_results)
	else
		sleep 1
		echo "client siw0 $WIRE_PEER_IP $PORT $SMALL" >$B/run || rc=$?
		out=$(cat $B/results)
	fi
	echo "$out" | sed 's/^/# /'
	if [ $rc -ne 0 ]; then
		ktap_fail "$name" "the run failed (status $rc)"
	elif [ "$WIRE_SELF" != "$server" ] &&
	     ! echo "$out" | grep -q '^verify: ok'; then
		ktap_fail "$name" "no 'verify: ok' in the results"
	else
		ktap_pass "$name"
	fi
}

if [ "$WIRE_SELF" = 1 ]; then
	ktap_plan 8
	ktap_test "our stack loads (siw, rdma_cm, the benchmark)" \
		stack_load ours siw rdma_cm rdma_verbs_bench
else
	ktap_plan 9
	ktap_test "upstream's stack loads" stack_load upstream
	ktap_test "rdma_verbs_bench (built against upstream) loads" \
		stack_insmod rdma_verbs_bench
fi
ktap_test "both guests are up (sync over the wire)" wire_sync "stacks up"
ktap_test "rdma link add siw0 type siw netdev eth0" \
	rdma link add siw0 type siw netdev eth0
# Our siw stands on rdmavt, upstream's does not: each guest runs its own.
if [ "$WIRE_SELF" = 1 ]; then
	ktap_test "siw0 is our siw (on rdmavt)" grep -q "^rdmavt " /proc/modules
else
	ktap_test "siw0 is upstream's siw (no rdmavt)" \
		sh -c '! grep -q "^rdmavt " /proc/modules'
fi
conn "ours passive, upstream active: data checked" 1
conn "upstream passive, ours active: data checked" 2
wire_sync "done" || ktap_diag "the other half did not finish"
ktap_test "rdma link delete siw0" rdma link delete siw0
ktap_test "the stack unloads completely" stack_unload
ktap_finish
