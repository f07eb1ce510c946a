#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# rdma_cm over soft-RoCE end to end, as a kernel ULP meets it: two rxe
# devices on the two ends of a veth pair, rxe0 on rv0 (10.79.0.1) in the
# initial namespace, rxe1 on rv1 (10.79.0.2) in namespace B, made there
# with "rdma link add".  The listener is in the initial namespace, the
# clients in B.  Checked:
#   - RoCE v2: rdma_test_cm connects from B to rxe0's address and moves
#     data with SEND, RDMA READ and RDMA WRITE of 1 to 65536 bytes (every
#     payload compared), both ends on their rxe devices; the route is
#     the local path record (SL 0, the port's MTU 1024); the packets
#     were UDP (the initial namespace's UDP InDatagrams grew) and Debian's
#     "rdma statistic" counts them on both devices;
#   - UD over RoCE v2: a UD id asks the server's QP number and Q_Key with
#     a SIDR request (the IB CM over QP1), then sends datagrams of 1 to
#     1024 bytes that the server echoes through an address handle made
#     from each datagram's GRH, every payload compared;
#   - RoCE v1: both ports' default_roce_mode set to "IB/RoCE v1" through
#     rdma_cm's configfs, the same connection, data and UD datagrams
#     again, and not one UDP datagram came (Ethertype 0x8915 frames
#     only); then v2 back;
#   - tc netem on both veth ends (loss, duplication, delay with
#     reordering): the connection and every transfer complete, checked,
#     and "rdma statistic" counts duplicates, sequence errors or retries;
#   - churn: clients destroyed at random points of their lives, after
#     which only the listener is left;
#   - rxe0 deleted under two held connections: every end is freed (the
#     listener and the server's ends through DEVICE_REMOVAL, the clients
#     through DISCONNECTED);
#   - everything unloads; no splat (leaks are the final kmemleak scan's).
# needs: /usr/bin/ip /usr/bin/rdma /usr/sbin/tc
# timeout: 300

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh
. /testbed/lib/tcm.sh

CFS=/sys/kernel/config
# iproute2's (busybox's has no netem)
TC=/usr/sbin/tc
A=10.79.0.1
B=10.79.0.2
CHURN=$(tier_pick 8 48)

# iproute2's ip (busybox's, first in PATH, has no netns)
ip() {
	/usr/bin/ip "$@"
}

step() {
	echo "79-rxe-rdma-cm: $*" >/dev/kmsg
}

# udp_in: the initial namespace's UDP InDatagrams
udp_in() {
	awk '$1 == "Udp:" && $2 ~ /^[0-9]+$/ { print $2; exit }' \
		/proc/net/snmp
}

# mode MODE: both ports' default_roce_mode
mode() {
	local d
	for d in rxe0 rxe1; do
		[ -d $CFS/rdma_cm/$d ] || mkdir $CFS/rdma_cm/$d || return 1
		echo "$1" >$CFS/rdma_cm/$d/ports/1/default_roce_mode ||
			return 1
	done
}

# stat DEV NAME: hardware counter NAME of DEV's port, as "rdma statistic"
# shows it
stat() {
	rdma statistic show link "$1"/1 |
		awk -v n="$2" '{ for (i = 1; i < NF; i++) if ($i == n) { print $(i + 1); exit } }'
}

# retries: what the transport did about lost, doubled and reordered
# packets, both devices summed
retries() {
	local d c n=0 v
	for d in rxe0 rxe1; do
		for c in duplicate_request out_of_seq_request rcvd_seq_err \
			 completer_retry_err; do
			v=$(stat $d $c)
			n=$((n + ${v:-0}))
		done
	done
	echo $n
}

port_active() {
	rdma link show "$1"/1 2>/dev/null | grep -q "state ACTIVE"
}

ktap_plan 11
health_mark

# 1
step "case 1: load"
ktap_test "rdma_rxe, rdma_cm and rdma_test_cm load" \
	sh -c 'modprobe rdma_rxe && modprobe rdma_cm &&
	       modprobe rdma_test_cm'

# 2: the veth pair, rv1 in B, an rxe device on each end
step "case 2: devices"
devices_up() {
	ip netns add B &&
		ip -b - <<NEOF &&
link add rv0 type veth peer name rv1 netns B
addr add $A/24 dev rv0
link set rv0 up
NEOF
		ip -n B -b - <<NEOF &&
addr add $B/24 dev rv1
link set lo up
link set rv1 up
NEOF
		step "case 2: veth up" &&
		rdma link add rxe0 type rxe netdev rv0 &&
		step "case 2: rxe0 added" &&
		ip netns exec B rdma link add rxe1 type rxe netdev rv1 &&
		step "case 2: rxe1 added" &&
		ktap_wait 30 port_active rxe0 && ktap_wait 30 port_active rxe1 &&
		step "case 2: both active" &&
		ip netns exec B ping -c 1 -W 5 $A >/dev/null
}
if devices_up; then
	ktap_pass "rxe0 on rv0 ($A), rxe1 on rv1 ($B, made in B): both ACTIVE, ping across"
else
	ktap_fail "rxe0 on rv0 ($A), rxe1 on rv1 ($B, made in B): both ACTIVE, ping across" \
		"$(rdma link show 2>&1 | tr '\n' '|')"
fi
grep -q " $CFS configfs " /proc/mounts || mount -t configfs none $CFS

# 3: RoCE v2
step "case 3: roce v2"
v2_conn() {
	local u0 u1
	tcm - listen $A 7471 || return 1
	tcm - clear
	u0=$(udp_in)
	tcm B connect $B $A 7471 || return 1
	u1=$(udp_in)
	tcm_log_has "client connected $B:" &&
		tcm_log_has "to $A:7471 on rxe1" &&
		tcm_log_has "server accepted $A:7471 from $B:" &&
		tcm_log_has "client data checked" && tcm_log_has "client done" &&
		tcm_log_has "client path sl 0 mtu 1024 " || return 1
	echo "udp in $u0 -> $u1, rxe0 sent_pkts $(stat rxe0 sent_pkts) rcvd_pkts $(stat rxe0 rcvd_pkts)"
	[ "$u1" -gt $((u0 + 20)) ] &&
		[ "$(stat rxe0 sent_pkts)" -gt 20 ] &&
		[ "$(stat rxe0 rcvd_pkts)" -gt 20 ] &&
		[ "$(stat rxe1 sent_pkts)" -gt 20 ]
}
if out=$(v2_conn 2>&1); then
	ktap_diag "$(tcm_log_line 'client path') $out"
	ktap_pass "RoCE v2: B -> $A:7471, SEND, READ, WRITE of 1..65536 bytes checked over UDP, disconnected; rdma statistic counts the packets"
else
	ktap_quote "$out"
	tcm_fail "RoCE v2: B -> $A:7471, SEND, READ, WRITE of 1..65536 bytes checked over UDP, disconnected; rdma statistic counts the packets"
fi

# 4: UD over RoCE v2, through SIDR
step "case 4: ud v2"
ud_conn() {
	tcm - udlisten $A 7472 || return 1
	tcm - clear
	tcm B udconnect $B $A 7472 || return 1
	tcm_log_has "server accepted ud $A:7472 from $B:" &&
		tcm_log_has "client ud server qpn " &&
		tcm_log_has "client ud send 1 ok" &&
		tcm_log_has "client ud send 64 ok" &&
		tcm_log_has "client ud send 1024 ok" && tcm_log_has "client done"
}
if ud_conn; then
	ktap_diag "$(tcm_log_line 'client ud server qpn')"
	ktap_pass "UD over RoCE v2: SIDR request and reply, datagrams of 1, 64, 1024 bytes echoed and checked"
else
	tcm_fail "UD over RoCE v2: SIDR request and reply, datagrams of 1, 64, 1024 bytes echoed and checked"
fi

# 5: RoCE v1
step "case 5: roce v1"
v1_conn() {
	local u0 u1
	mode "IB/RoCE v1" || return 1
	tcm - clear
	u0=$(udp_in)
	tcm B connect $B $A 7471 && tcm B udconnect $B $A 7472 || return 1
	u1=$(udp_in)
	tcm_log_has "to $A:7471 on rxe1" && tcm_log_has "client data checked" &&
		tcm_log_has "client ud send 1024 ok" &&
		[ "$(grep -c 'client done' $TCM_D/log)" = 2 ] || return 1
	echo "udp in $u0 -> $u1"
	[ "$u1" = "$u0" ]
}
if out=$(v1_conn 2>&1); then
	ktap_pass "RoCE v1 (default_roce_mode of both ports): the same connection, data and UD datagrams, not one UDP datagram"
else
	ktap_quote "$out"
	tcm_fail "RoCE v1 (default_roce_mode of both ports): the same connection, data and UD datagrams, not one UDP datagram"
fi
# 6: v2 again; the UD listener and its servers go (unlisten takes every
# listener, so the RC one comes back)
back_to_v2() {
	mode "RoCE v2" && tcm - unlisten && tcm - listen $A 7471 &&
		tcm_status_is "ids 1 listeners 1 connections 0 pds 0 cqs 0 qps 0 buffers 0 "
}
ktap_test "default_roce_mode back to RoCE v2; the UD servers freed" back_to_v2

# 7: tc netem on both ends
step "case 7: netem"
# the quick tier's faults at half the full tier's rates (which took a
# minute of the quick run)
NETEM=$(tier_pick "loss 2% duplicate 2% delay 1ms reorder 10% 50%" \
	"loss 4% duplicate 4% delay 1ms reorder 20% 50%")
netem_conn() {
	local rc r0 r1
	# the neighbours fresh first: an ARP lost to netem costs a second
	ip netns exec B ping -c 1 -W 5 $A >/dev/null || return 1
	$TC qdisc add dev rv0 root netem $NETEM &&
		ip netns exec B $TC qdisc add dev rv1 root netem $NETEM ||
		return 1
	tcm - clear
	r0=$(retries)
	tcm B connect $B $A 7471
	rc=$?
	r1=$(retries)
	echo "retries $r0 -> $r1"
	$TC -s qdisc show dev rv0 | tr '\n' ' '
	ip netns exec B $TC -s qdisc show dev rv1 | tr '\n' ' '
	$TC qdisc del dev rv0 root
	ip netns exec B $TC qdisc del dev rv1 root
	[ $rc = 0 ] && tcm_log_has "client data checked" &&
		tcm_log_has "client done" && [ "$r1" -gt "$r0" ]
}
if out=$(netem_conn 2>&1); then
	ktap_diag "$out"
	ktap_pass "tc netem ($NETEM) both ways: connection, SEND, READ, WRITE of 1..65536 bytes all complete and checked, the retries counted"
else
	ktap_quote "$out"
	tcm_fail "tc netem ($NETEM) both ways: connection, SEND, READ, WRITE of 1..65536 bytes all complete and checked, the retries counted"
fi

# 8: churn
step "case 8: churn"
tcm - clear
if tcm B churn $B $A 7471 $CHURN && tcm_log_has "churn done $CHURN stops" &&
   ktap_wait 20 tcm_status_is "ids 1 listeners 1 connections 0 pds 0 cqs 0 qps 0 buffers 0 "; then
	ktap_diag "$(tcm_log_line 'churn done')"
	ktap_pass "churn: $CHURN clients destroyed at random points; only the listener is left"
else
	ktap_fail "churn: $CHURN clients destroyed at random points; only the listener is left" \
		"$(grep -e churn -e error $TCM_D/log | tr '\n' '|') status: $(tr '\n' ' ' <$TCM_D/status)"
fi

# 9: rxe0 deleted under held connections
step "case 9: device removal"
removal() {
	tcm - clear
	tcm B hold $B $A 7471 && tcm B hold $B $A 7471 || return 1
	tcm_status_is "ids 5 listeners 1 connections 4 pds 4 cqs 4 qps 4 buffers 12 " || {
		echo "held: $(tr '\n' ' ' <$TCM_D/status)"
		return 1
	}
	[ "$(rdma res show qp link rxe0/1 | grep -c 'type RC ')" = 2 ] || {
		rdma res show qp link rxe0/1
		return 1
	}
	rdma link delete rxe0 &&
		ktap_wait 30 tcm_status_is "$TCM_ZERO"
}
if out=$(removal 2>&1); then
	ktap_pass "rdma link delete rxe0 under two held connections: every end freed"
else
	ktap_quote "$out"
	ktap_fail "rdma link delete rxe0 under two held connections: every end freed" \
		"status: $(tr '\n' ' ' <$TCM_D/status) log: $(tr '\n' '|' <$TCM_D/log)"
fi

# 10
step "case 10: unload"
unload_all() {
	rmdir $CFS/rdma_cm/rxe0 $CFS/rdma_cm/rxe1 2>/dev/null
	ip netns del B
	rmmod rdma_test_cm && stack_unload
}
ktap_test "rdma_test_cm, rdma_rxe and the whole stack unload" unload_all

# 11
step "case 11"
health_check
ktap_finish
