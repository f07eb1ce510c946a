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
# FPDUs over one MSS, which upstream's siw must take.  In part 2 our siw
# is loaded again with mpa_crc_required=1 for two more connections, one
# each way: CRC32c on every FPDU in both directions (upstream's side
# follows the C bit).  Not peer_to_peer=1: upstream's responder takes our
# RTR, but its siw_rtr_data_ready() then takes sk_callback_lock with
# write_lock_bh() in softirq, and lockdep reports an inconsistent lock
# state in upstream's siw (Documentation/upstream.rst).
# needs: /usr/bin/rdma
# timeout: 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh
. /testbed/lib/wire.sh

B=/sys/kernel/debug/verbs_bench
PORT=18525
# LAT RATE CPU DEPTH: a few operations of each kind, not a measurement.
# CPU 0 in the quick tier: no CPU table, one connection a run instead of
# five (the CPU table makes a connection for each of four poll contexts).
SMALL=$(tier_pick "2 4 0 2" "2 4 2 2")

# watch_drv NAME OUT DONE: the largest value of siw's driver attribute
# NAME of our siw0's QPs ("rdma res show qp -dd"), polled into OUT every
# 0.3 s until DONE exists.
watch_drv() {
	local m max=0
	while [ ! -e "$3" ]; do
		for m in $(rdma -dd res show qp link siw0/1 |
			   sed -n "s/.* drv_$1 \\([0-9]*\\).*/\\1/p"); do
			[ "$m" -gt "$max" ] && max=$m
		done
		echo "$max" >"$2"
		sleep 0.3
	done
}

# conn NAME SERVER_GUEST [gso|crc]: the benchmark's server on
# SERVER_GUEST, its client on the other guest, over siw0.  With gso, our
# side (the client) runs with gso_seg_limit=0 and must cut FPDUs over one
# MSS; with crc, our side (either role, loaded with mpa_crc_required=1)
# must have CRC on its QP.
conn() {
	local name=$1 server=$2 opt=${3:-} out rc=0 wp= seen=
	if ! wire_sync "$name"; then
		ktap_fail "$name" "the other guest did not come to the connection"
		return
	fi
	# our side watches its QP while the connection runs
	rm -f /tmp/drv.done /tmp/drv.max
	case "$opt" in
	gso)
		if [ "$WIRE_SELF" != "$server" ]; then
			echo 0 >/sys/module/siw/parameters/gso_seg_limit
			watch_drv mulpdu /tmp/drv.max /tmp/drv.done &
			wp=$!
		fi ;;
	crc)
		if [ "$(stack_current)" = ours ]; then
			watch_drv mpa_crc /tmp/drv.max /tmp/drv.done &
			wp=$!
		fi ;;
	esac
	if [ "$WIRE_SELF" = "$server" ]; then
		# The server's write returns once its client has gone.
		echo "server siw0 $PORT" >$B/run || rc=$?
		out=$(cat $B/server_results)
	else
		# no wait for the server to listen: the client retries a
		# refused connect (VB_CONNECT_RETRY_S)
		echo "client siw0 $WIRE_PEER_IP $PORT $SMALL" >$B/run || rc=$?
		out=$(cat $B/results)
	fi
	if [ -n "$wp" ]; then
		: >/tmp/drv.done
		wait $wp
		seen=$(cat /tmp/drv.max)
		[ "$opt" = gso ] &&
			echo 1 >/sys/module/siw/parameters/gso_seg_limit
		ktap_diag "our QP's largest drv_$([ "$opt" = gso ] && echo mulpdu || echo mpa_crc): $seen"
	fi
	echo "$out" | sed 's/^/# /'
	if [ $rc -ne 0 ]; then
		ktap_fail "$name" "the run failed (status $rc)"
	elif [ "$opt" = gso ] && [ -n "$seen" ] && [ "$seen" -le 1442 ]; then
		ktap_fail "$name" "no FPDU over one MSS (largest MULPDU $seen, one MSS: 1442)"
	elif [ "$opt" = crc ] && [ -n "$wp" ] && [ "$seen" != 1 ]; then
		ktap_fail "$name" "our QP has no CRC (drv_mpa_crc $seen)"
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
		stack_load upstream $UPSTREAM_MODULES &&
			stack_insmod rdma_verbs_bench
	fi
}

# relink ours|upstream: ours makes siw0 again from a siw loaded with
# mpa_crc_required=1 (a read-only parameter); upstream's
# keeps its siw0.  Both sides sync after it.
relink() {
	local rc=0
	if [ "$1" = ours ]; then
		rdma link delete siw0 && rmmod siw &&
			modprobe siw mpa_crc_required=1 &&
			rdma link add siw0 type siw netdev eth0 || rc=1
	fi
	wire_sync "relinked" || rc=1
	return $rc
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
		[ "$VARIANTS" = yes ] &&
			conn "part 1: upstream passive, ours active with gso_seg_limit 0: data checked" \
				"$theirs" gso
	else
		# ours again with MPA CRC required (upstream has it as a
		# constant, off): CRC32c on every FPDU both ways
		ktap_test "part 2: $mine siw0 again (ours: mpa_crc_required=1)" \
			relink $mine
		conn "part 2: ours passive with CRC, upstream active: data checked" \
			"$ours" crc
		conn "part 2: upstream passive, ours active with CRC: data checked" \
			"$theirs" crc
	fi
	wire_sync "part $n: done" || ktap_diag "the other half did not finish part $n"
	ktap_test "part $n: rdma link delete siw0" rdma link delete siw0
	ktap_test "part $n: the $mine stack unloads completely" stack_unload
}

# The quick tier (make check) runs part 1 without its GSO connection:
# upstream's siw against ours in each direction, one connection each,
# data checked.  The full tier (make check-full) adds the GSO connection
# and part 2 (the swap, CRC both ways).
VARIANTS=$(tier_pick no yes)
# Upstream's side loads only what siw and rdma_cm need in the quick tier
# (ib_uverbs too: upstream's siw calls its ib_umem_get(); no rxe, no
# rdma_ucm, no umad: each module loaded and unloaded costs seconds under
# TCG with the debug kernel), its whole stack in the full tier.
UPSTREAM_MODULES=$(tier_pick "ib_core ib_cm iw_cm rdma_cm ib_uverbs siw" "")
ktap_plan "$(tier_pick 10 23)"
part 1 1
ktap_test "ping $WIRE_PEER_IP over the wire" ping -c 1 -W 5 "$WIRE_PEER_IP"
# The swap: the other stack on each guest, in the same boot.
[ "$VARIANTS" = yes ] && part 2 2
ktap_finish
