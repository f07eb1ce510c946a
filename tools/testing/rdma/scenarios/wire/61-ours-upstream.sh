#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests on the wire, our stack on guest 1 and upstream's on guest 2
# (both halves of this file run at once: guest/wire.sh).  The guests reach
# each other over IP on the wire; on each side Debian's rdma tool sees the
# links of the stack that runs there: our loop devices (InfiniBand) on
# guest 1, upstream's rxe (RoCE) and siw (iWARP) on eth0 on guest 2.  Then
# each side unloads its stack completely and loads the other one in the
# same boot (guest/stack.sh), sees its links, and unloads it again.  Connections between the two
# stacks come with our soft-iWARP and soft-RoCE (the connection issues).
# needs: /usr/bin/rdma
# timeout: 400

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh
. /testbed/lib/wire.sh

ktap_plan 11
if [ "$WIRE_SELF" = 1 ]; then
	ktap_test "our stack loads (ib_core, rdma_loop with 1 device)" \
		stack_load ours ib_core
	ktap_test "rdma_loop devices=1" modprobe rdma_loop devices=1
else
	ktap_test "upstream's stack loads" stack_load upstream
	ktap_test "rdma link add rxe0 and siw0 on eth0" \
		sh -c 'rdma link add rxe0 type rxe netdev eth0 &&
		       rdma link add siw0 type siw netdev eth0'
fi
ktap_test "both guests are up (sync over the wire)" wire_sync "stacks up"
ktap_test "ping $WIRE_PEER_IP over the wire" ping -c 3 -W 5 "$WIRE_PEER_IP"
if [ "$WIRE_SELF" = 1 ]; then
	ktap_has "rdma link show: our loop0/1 is active" \
		"^link loop0/1 .*state ACTIVE" rdma link show
	ktap_has "loop0's port is InfiniBand" "^InfiniBand$" \
		cat /sys/class/infiniband/loop0/ports/1/link_layer
else
	ktap_has "rdma link show: rxe0/1 on eth0" \
		"^link rxe0/1 .*netdev eth0" rdma link show
	ktap_has "rdma link show: siw0/1 on eth0" \
		"^link siw0/1 .*netdev eth0" rdma link show
fi
wire_sync "links checked" || ktap_diag "the other half did not reach 'links checked'"
ktap_test "the stack unloads completely ($(stack_current))" stack_unload
# The swap: the other stack in the same boot.
if [ "$WIRE_SELF" = 1 ]; then
	ktap_test "then upstream's stack loads" stack_load upstream
	ktap_test "rdma link add rxe0 on eth0" \
		rdma link add rxe0 type rxe netdev eth0
	ktap_has "rdma link show: rxe0/1 on eth0 (upstream's)" \
		"^link rxe0/1 .*netdev eth0" rdma link show
else
	ktap_test "then our stack loads" stack_load ours ib_core
	ktap_test "rdma_loop devices=1" modprobe rdma_loop devices=1
	ktap_has "rdma link show: loop0/1 is active (ours)" \
		"^link loop0/1 .*state ACTIVE" rdma link show
fi
ktap_test "that stack unloads completely too ($(stack_current))" stack_unload
ktap_finish
