#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Our soft-RoCE against upstream's rdma_rxe, across the wire, with either
# stack on either guest.  Both halves of this file run at once
# (guest/wire.sh).  Part 1: guest 1 runs our stack (rdma_rxe, rdma_cm,
# the verbs benchmark built against our include/), guest 2 upstream's
# (the same benchmark source built against upstream's headers).  Then
# each guest unloads its stack completely and loads the other one in the
# same boot (guest/stack.sh), and part 2 runs with the stacks the other
# way round.  In each part: an rxe device on eth0 of each guest, which
# Debian's rdma tool shows, and connections through each side's rdma_cm
# over RoCE v2 (upstream's rxe has no other encapsulation, so our side's
# rdma_cm must pick the UDP GID type), each moving SENDs, RDMA WRITEs and
# READs of 8 B, 4 KiB and 64 KiB with their data checked ("verify: ok" on
# the client, a clean end on the server): once our side passive and
# upstream's active, once the other way.  Our IB CM meets upstream's over
# QP1 (GSI over UDP), then the RC QPs carry the data: 4 KiB and 64 KiB
# are cut by the path MTU (1024 on the 1500-byte wire) into FIRST,
# MIDDLE and LAST packets and READ responses, acknowledged by coalesced
# ACKs, every packet's ICRC checked by the receiver.
#
# In user space, Debian's ibv_rc_pingpong runs between the guests on
# rxe0 through librxe (each stack's rxe user ABI: the queues mapped into
# the process, the doorbell), the received data checked, once with the
# server on each side; and with our side's buffer an on-demand paging MR
# (ibv_rc_pingpong -o), our server in the quick tier, our client too in
# the full tier.
#
# Guest 1 captures part 1 on eth0 (rdmacap, guest/capture.sh): RoCE
# frames only, at most 8 of each BTH opcode from each end and every MAD,
# so that the 64 KiB transfers leave a sample, not a megabyte to carry
# over the serial port.  On the host, Debian's tshark decodes both
# stacks' frames (capture.py): as InfiniBand, none malformed, every ICRC
# right, SEND, WRITE, READ and ACK from each end and the CM's MADs on
# QP1.
# needs: /usr/bin/rdma /usr/bin/ibv_rc_pingpong
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
# needs: /etc/libibverbs.d/rxe.driver
# timeout: 600
# capture: part1 guest=1 min=20 expect=send,write,read,ack,cm from=each

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh
. /testbed/lib/wire.sh
. /testbed/lib/capture.sh

B=/sys/kernel/debug/verbs_bench
PORT=18535
# LAT RATE CPU DEPTH: a few operations of each kind, not a measurement;
# the full tier's second connection each way keeps more in flight.
# CPU 0 in the quick tier: no CPU table, one connection a run instead of
# five (the CPU table makes a connection for each of four poll contexts).
SMALL=$(tier_pick "2 4 0 2" "2 4 2 2")
DEEP="4 32 4 8"

# conn NAME SERVER_GUEST [PARAMS]: the benchmark's server on
# SERVER_GUEST, its client on the other guest, over rxe0.
conn() {
	local name=$1 server=$2 params=${3:-$SMALL} out rc=0
	if ! wire_sync "$name"; then
		ktap_fail "$name" "the other guest did not come to the connection"
		return
	fi
	if [ "$WIRE_SELF" = "$server" ]; then
		# The server's write returns once its client has gone.
		echo "server rxe0 $PORT" >$B/run || rc=$?
		out=$(cat $B/server_results)
	else
		# no wait for the server to listen: the client retries a
		# refused connect (VB_CONNECT_RETRY_S)
		echo "client rxe0 $WIRE_PEER_IP $PORT $params" >$B/run || rc=$?
		out=$(cat $B/results)
	fi
	ktap_quote "$out"
	if [ $rc -ne 0 ]; then
		ktap_fail "$name" "the run failed (status $rc)"
	elif [ "$WIRE_SELF" != "$server" ] &&
	     ! echo "$out" | grep -q '^verify: ok'; then
		ktap_fail "$name" "no 'verify: ok' in the results"
	else
		ktap_pass "$name"
	fi
}

# wire_gid: the index of the RoCE v2 GID of this guest's wire address
# on rxe0.
wire_gid() {
	local i g t want
	want=$(printf '0000:0000:0000:0000:0000:ffff:0ad3:00%02x' "$WIRE_SELF")
	for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		g=
		read -r g <"/sys/class/infiniband/rxe0/ports/1/gids/$i" 2>/dev/null
		[ "$g" = "$want" ] || continue
		t=
		read -r t <"/sys/class/infiniband/rxe0/ports/1/gid_attrs/types/$i" \
			2>/dev/null
		[ "$t" = "RoCE v2" ] && echo "$i" && return 0
	done
	return 1
}

# upp NAME SERVER_GUEST [ODP]: Debian's ibv_rc_pingpong, its server on
# SERVER_GUEST and its client on the other guest, over rxe0, every
# received buffer checked (-c); both ends must finish every iteration.
# With ODP the side on our stack registers its buffer as an on-demand
# paging MR (-o; upstream 6.12's rxe has none): its pages come in as
# our rxe meets them, upstream's requester getting RNR NAKs meanwhile.
PP_PORT=18536
PP_ITERS=$(tier_pick 20 200)
upp() {
	local name=$1 server=$2 gidx out rc srv odp=
	[ "${3:-}" = ODP ] && [ "$MINE" = ours ] && odp=-o
	gidx=$(wire_gid) || { ktap_fail "$name" "no RoCE v2 GID of $WIRE_SELF_IP"; return; }
	if [ "$WIRE_SELF" = "$server" ]; then
		ibv_rc_pingpong -d rxe0 -g "$gidx" -p $PP_PORT -n $PP_ITERS -c \
			$odp >/tmp/upp.server 2>&1 &
		srv=$!
		ktap_wait 30 tcp_listening $PP_PORT ||
			ktap_diag "the server does not listen"
		if ! wire_sync "$name"; then
			kill $srv 2>/dev/null
			ktap_diag "the other guest did not come"
		fi
		wait $srv
		rc=$?
		out=$(cat /tmp/upp.server)
	else
		if ! wire_sync "$name"; then
			ktap_fail "$name" "the other guest did not come"
			return
		fi
		out=$(ibv_rc_pingpong -d rxe0 -g "$gidx" -p $PP_PORT \
			-n $PP_ITERS -c $odp "$WIRE_PEER_IP" 2>&1)
		rc=$?
	fi
	ktap_quote "$out"
	case "$rc:$out" in
	0:*"$PP_ITERS iters in"*) ktap_pass "$name" ;;
	*) ktap_fail "$name" "exit $rc" ;;
	esac
}

# load STACK: STACK's modules and the benchmark built against it.
load() {
	if [ "$1" = ours ]; then
		stack_load ours rdma_rxe rdma_cm rdma_verbs_bench
	else
		stack_load upstream $UPSTREAM_MODULES &&
			stack_insmod rdma_verbs_bench
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
	MINE=$mine
	ktap_test "part $n: $mine stack loads (rdma_rxe, rdma_cm, the benchmark)" \
		load $mine
	ktap_test "part $n: both guests are up (sync over the wire)" \
		wire_sync "part $n: stacks up"
	ktap_test "part $n: rdma link add rxe0 type rxe netdev eth0" \
		rdma link add rxe0 type rxe netdev eth0
	ktap_has "part $n: rdma link show: rxe0/1 on eth0" \
		"^link rxe0/1 .*netdev eth0" rdma link show
	# Our rxe stands on rdmavt, upstream's does not.
	if [ $mine = ours ]; then
		ktap_test "part $n: rxe0 is our rxe (on rdmavt)" \
			grep -q "^rdmavt " /proc/modules
	else
		ktap_test "part $n: rxe0 is upstream's rxe (no rdmavt)" \
			sh -c '! grep -q "^rdmavt " /proc/modules'
	fi
	[ "$n" = 1 ] && [ "$WIRE_SELF" = 1 ] &&
		capture_start part1 eth0 -r -q 8
	conn "part $n: ours passive (guest $ours), upstream active: data checked" "$ours"
	conn "part $n: upstream passive (guest $theirs), ours active: data checked" "$theirs"
	upp "part $n: ibv_rc_pingpong, server ours (guest $ours), client upstream's" "$ours"
	upp "part $n: ibv_rc_pingpong, server upstream's (guest $theirs), client ours" "$theirs"
	upp "part $n: ibv_rc_pingpong, server ours with an ODP MR (guest $ours), client upstream's" \
		"$ours" ODP
	if [ "$VARIANTS" = yes ]; then
		upp "part $n: ibv_rc_pingpong, server upstream's (guest $theirs), client ours with an ODP MR" \
			"$theirs" ODP
		conn "part $n: ours passive, upstream active, 8 in flight: data checked" \
			"$ours" "$DEEP"
		conn "part $n: upstream passive, ours active, 8 in flight: data checked" \
			"$theirs" "$DEEP"
	fi
	wire_sync "part $n: done" || ktap_diag "the other half did not finish part $n"
	[ "$n" = 1 ] && [ "$WIRE_SELF" = 1 ] && capture_stop part1
	ktap_test "part $n: rdma link delete rxe0" rdma link delete rxe0
	ktap_test "part $n: the $mine stack unloads completely" stack_unload
}

# The quick tier (make check) runs part 1: upstream's rxe against ours
# in each direction, one connection each, data checked.  The full tier
# (make check-full) adds a second connection each way with eight
# operations in flight, and part 2 (the swap).
VARIANTS=$(tier_pick no yes)
# Upstream's side loads only what rxe and rdma_cm need in the quick tier
# (ib_uverbs too: upstream's rxe calls its ib_umem_get(); no siw, no
# rdma_ucm, no umad: each module loaded and unloaded costs seconds under
# TCG with the debug kernel), its whole stack in the full tier.
UPSTREAM_MODULES=$(tier_pick "ib_core ib_cm iw_cm rdma_cm ib_uverbs rdma_rxe" "")
# guest 1 has three cases more: the capture of part 1
CAPTURE_CASES=0
[ "$WIRE_SELF" = 1 ] && CAPTURE_CASES=3
ktap_plan "$(($(tier_pick 13 31) + CAPTURE_CASES))"
part 1 1
ktap_test "ping $WIRE_PEER_IP over the wire" ping -c 1 -W 5 "$WIRE_PEER_IP"
# The swap: the other stack on each guest, in the same boot.
[ "$VARIANTS" = yes ] && part 2 2
ktap_finish
