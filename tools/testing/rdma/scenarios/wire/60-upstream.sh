#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The bed itself: upstream's stack on both guests (both halves of this
# file run at once: guest/wire.sh).  An rxe (RoCE v2) device on the wire's
# eth0 of each guest, and two connections through upstream's rdma_cm
# that move data and check it:
#   - in the kernel (the full tier): the verbs benchmark (rdma_verbs_bench built against
#     upstream's headers) serves on guest 1 and runs a short client on
#     guest 2 (a few SENDs, RDMA WRITEs and READs of 8 B, 4 KiB and
#     64 KiB, each checked: "verify: ok"; the server's half passes when
#     its run ends without error once the client has gone);
#   - from user space: Debian's rping (librdmacm, libibverbs and its rxe
#     provider over upstream's ib_uverbs and rdma_ucm), server on guest 1,
#     client on guest 2, with its data check (-V).
# Upstream's siw is on the wire in 62-siw-interop.sh, against ours, in
# both roles (upstream siw on both sides is what "make bench-compare-wire"
# runs).  Then everything unloads.
# needs: /usr/bin/rdma /usr/bin/rping
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
# needs: /etc/libibverbs.d/rxe.driver
# timeout: 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh
. /testbed/lib/wire.sh

B=/sys/kernel/debug/verbs_bench
PORT=18515
RPING_PORT=7174
# LAT RATE CPU DEPTH: a few operations of each kind, not a measurement.
# CPU 0 in the quick tier: no CPU table, one connection a run instead of
# five (the CPU table makes a connection for each of four poll contexts).
SMALL=$(tier_pick "2 4 0 2" "2 4 2 2")
# The quick tier (make check) loads only the modules of upstream's stack
# that rxe and rping need (no ib_umad, no siw: each module loaded and
# unloaded costs seconds under TCG with the debug kernel), pings once and
# has rping move 3 messages, and leaves the kernel's connection out
# (66-rxe-interop runs the same benchmark over upstream's rxe and
# rdma_cm, against ours); the full tier (make check-full) loads the
# whole stack, pings 3 times, has rping move 10 and makes the kernel's
# connection between the two upstream stacks too.
UPSTREAM_MODULES=$(tier_pick "ib_core ib_cm iw_cm rdma_cm ib_uverbs rdma_ucm rdma_rxe" "")
PINGS=$(tier_pick 1 3)
RPINGS=$(tier_pick 3 10)
KERNEL_CONN=$(tier_pick no yes)

# kernel_conn NAME DEV: the verbs benchmark's two halves over DEV.
kernel_conn() {
	local name=$1 dev=$2 out rc=0
	if ! wire_sync "$dev: kernel connection"; then
		ktap_fail "$name" "the other guest did not come to the connection"
		return
	fi
	if [ "$WIRE_SELF" = 1 ]; then
		# The server's write returns once its client has gone.
		echo "server $dev $PORT" >$B/run || rc=$?
		out=$(cat $B/server_results)
	else
		# no wait for the server to listen: the client retries a
		# refused connect (VB_CONNECT_RETRY_S)
		echo "client $dev $WIRE_PEER_IP $PORT $SMALL" >$B/run || rc=$?
		out=$(cat $B/results)
	fi
	echo "$out" | sed 's/^/# /'
	if [ $rc -ne 0 ]; then
		ktap_fail "$name" "the run failed (status $rc)"
	elif [ "$WIRE_SELF" = 2 ] && ! echo "$out" | grep -q '^verify: ok'; then
		ktap_fail "$name" "no 'verify: ok' in the results"
	else
		ktap_pass "$name"
	fi
}

# rping_conn NAME: Debian's rping, server on guest 1, client on guest 2;
# each side checks the data it received (-V) and exits 0 when all went.
# The server starts before the two meet, so that it listens by the time
# the client comes; a client that came too early (rejected: nothing
# listens yet, no data moved) tries again, for up to 30 s.
rping_conn() {
	local name=$1 rc=0 out pid tries=0
	if [ "$WIRE_SELF" = 1 ]; then
		timeout 60 rping -s -a "$WIRE_SELF_IP" -p $RPING_PORT -C $RPINGS \
			-S 128 -V -v >/tmp/rping.out 2>&1 &
		pid=$!
	fi
	if ! wire_sync "rping $name"; then
		[ -n "$pid" ] && kill "$pid" 2>/dev/null
		ktap_fail "$name" "the other guest did not come to rping"
		return
	fi
	if [ "$WIRE_SELF" = 1 ]; then
		wait "$pid" || rc=$?
		out=$(cat /tmp/rping.out)
	else
		while :; do
			rc=0
			out=$(timeout 60 rping -c -a "$WIRE_PEER_IP" -p $RPING_PORT \
				-C $RPINGS -S 128 -V -v 2>&1) || rc=$?
			[ $rc -eq 0 ] && break
			case "$out" in *"ping data"*) break ;; esac
			tries=$((tries + 1))
			[ $tries -ge 60 ] && break
			ktap_nap 0.5
		done
		[ $tries -gt 0 ] && ktap_diag "rping: $tries attempt(s) before the server listened"
	fi
	echo "$out" | tail -n 4 | sed 's/^/# /'
	if [ $rc -ne 0 ]; then
		ktap_fail "$name" "rping exited with $rc"
	elif [ "$(echo "$out" | grep -c 'ping data')" -lt $RPINGS ]; then
		ktap_fail "$name" "fewer than $RPINGS 'ping data' lines"
	else
		ktap_pass "$name"
	fi
}

# kind DRIVER DEV WHAT: one device of DRIVER on eth0, both connections,
# the device deleted.
kind() {
	local drv=$1 dev=$2 what=$3
	ktap_test "rdma link add $dev type $drv netdev eth0" \
		rdma link add "$dev" type "$drv" netdev eth0
	[ "$KERNEL_CONN" = yes ] &&
		kernel_conn "$dev: $what connection in the kernel across the wire" "$dev"
	rping_conn "$dev: rping ($what) across the wire"
	wire_sync "$dev: done" || ktap_diag "the other half did not finish $dev"
	ktap_test "rdma link delete $dev" rdma link delete "$dev"
}

ktap_plan "$(tier_pick 7 9)"
ktap_test "upstream's stack loads (${UPSTREAM_MODULES:-all of it})" \
	stack_load upstream $UPSTREAM_MODULES
[ "$KERNEL_CONN" = yes ] &&
	ktap_test "rdma_verbs_bench (built against upstream) loads" \
		stack_insmod rdma_verbs_bench
ktap_test "both guests are up (sync over the wire)" wire_sync "stacks up"
ktap_test "ping $WIRE_PEER_IP over the wire" ping -c $PINGS -W 5 "$WIRE_PEER_IP"
kind rxe rxe0 RoCE
ktap_test "the stack unloads completely" stack_unload
ktap_finish
