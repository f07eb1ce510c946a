#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Our rdma_ucm and rxe against upstream's, across the wire, with Debian's
# librdmacm programs on each guest (both halves of this file run at once:
# guest/wire.sh).  Guest 1 runs our stack (rdma_rxe, rdma_ucm), guest 2
# upstream's (its rdma_ucm over its rdma_cm and rxe); an rxe device on
# eth0 of each.  Then, each way (the server on one guest, the client on
# the other): Debian's rping with its data check (-V), ucmatose (two
# connections) and udaddy (UD through SIDR).  librdmacm meets our
# rdma_ucm on one side and upstream's on the other; the CMs meet over
# QP1, the data goes over RC and UD QPs that librxe drives in user space
# on both.  Then both stacks unload.
#
# The full tier's (make check-full): the quick tier skips it (84-ucma
# runs the same programs in one guest).  siw is not here yet: its user
# verbs wait for siw's own queue mappings.
# needs: /usr/bin/rdma /usr/bin/rping /usr/bin/ucmatose /usr/bin/udaddy
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
# needs: /etc/libibverbs.d/rxe.driver
# timeout: 60 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh
. /testbed/lib/wire.sh

[ "${RDMA_TIER:-quick}" = full ] ||
	ktap_skip_all "the full tier's (make check-full); 84-ucma runs the programs in one guest"

RPINGS=50
UPSTREAM_MODULES="ib_core ib_cm iw_cm rdma_cm ib_uverbs rdma_ucm rdma_rxe"

# pair TAG NAME SERVER_GUEST SERVER... -- CLIENT...: the server on guest
# SERVER_GUEST (the two meet once it listens), the client on the other
# (CLIENT's "@PEER" is the server's address); each side passes when its
# program exits 0.  TAG, the same on both guests, names the meeting.  No
# client is tried again: one that retried could meet the server half-way
# (a connection accepted while the client gave up on another).
pair() {
	local tag=$1 name=$2 sg=$3 srv="" pid="" rc=0 out a
	shift 3
	while [ "$1" != -- ]; do srv="$srv $1"; shift; done
	shift
	if [ "$WIRE_SELF" = "$sg" ]; then
		timeout 120 $srv >/tmp/srv.out 2>&1 &
		pid=$!
		a=${srv# }
		ktap_wait 30 cm_listening "${a%% *}" ||
			ktap_diag "$name: the server does not listen after 30 s"
	fi
	if ! wire_sync "$tag"; then
		[ -n "$pid" ] && kill "$pid" 2>/dev/null
		ktap_fail "$name" "the other guest did not come"
		return
	fi
	if [ -n "$pid" ]; then
		wait "$pid" || rc=$?
		out=$(cat /tmp/srv.out)
	else
		set -- $(for a in "$@"; do
			[ "$a" = @PEER ] && a=$WIRE_PEER_IP
			echo "$a"
		done)
		out=$(timeout 90 "$@" 2>&1) || rc=$?
	fi
	ktap_quote "$(echo "$out" | tail -n 4)"
	wire_sync "$tag: done" || ktap_diag "the other half did not finish $tag"
	if [ $rc -ne 0 ]; then
		ktap_fail "$name" "exit $rc"
	else
		ktap_pass "$name"
	fi
}

if [ "$WIRE_SELF" = 1 ]; then
	MINE=ours
	THEIRS=upstream
else
	MINE=upstream
	THEIRS=ours
fi

ktap_plan 9
if [ "$WIRE_SELF" = 1 ]; then
	ktap_test "our stack loads (rdma_rxe, rdma_ucm)" \
		stack_load ours rdma_rxe rdma_ucm
else
	ktap_test "upstream's stack loads ($UPSTREAM_MODULES)" \
		stack_load upstream $UPSTREAM_MODULES
fi
ktap_test "rdma link add rxe0 type rxe netdev eth0" \
	rdma link add rxe0 type rxe netdev eth0

# guest 1 serves first (ours), then guest 2 (upstream's)
for sg in 1 2; do
	if [ "$sg" = "$WIRE_SELF" ]; then
		role="server ($MINE) to $THEIRS"
	else
		role="client ($MINE) of $THEIRS"
	fi
	pair "rping $sg" "rping -V, $RPINGS messages, guest $sg serves: $role" $sg \
		rping -s -a 10.211.0.$sg -C $RPINGS -S 128 -V -- \
		rping -c -a @PEER -C $RPINGS -S 128 -V
	pair "ucmatose $sg" "ucmatose, 2 connections, guest $sg serves: $role" $sg \
		ucmatose -b 10.211.0.$sg -c 2 -C 20 -- \
		ucmatose -s @PEER -c 2 -C 20
	pair "udaddy $sg" "udaddy, guest $sg serves: $role" $sg \
		udaddy -b 10.211.0.$sg -- udaddy -s @PEER
done

unload() {
	rdma link delete rxe0 && stack_unload
}
ktap_test "rxe0 deleted, the stack unloads completely" unload
ktap_finish
