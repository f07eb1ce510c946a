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
#   - RoCE v1: both ports' default_roce_mode set to "IB/RoCE v1" through
#     rdma_cm's configfs, the same connection and data again, and not
#     one UDP datagram came (Ethertype 0x8915 frames only); then v2 back;
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

D=/sys/kernel/debug/rdma_test_cm
CFS=/sys/kernel/config
# iproute2's (busybox's has no netem)
TC=/usr/sbin/tc
A=10.79.0.1
B=10.79.0.2
CHURN=$(tier_pick 8 48)
ZERO="ids 0 listeners 0 connections 0 pds 0 cqs 0 qps 0 buffers 0 "

# iproute2's ip (busybox's, first in PATH, has no netns)
ip() {
	/usr/bin/ip "$@"
}

step() {
	echo "79-rxe-rdma-cm: $*" >/dev/kmsg
}

# wait_until SECONDS COMMAND...: COMMAND succeeds within SECONDS
wait_until() {
	local t=$(($1 * 10))
	shift
	while [ $t -gt 0 ]; do
		"$@" 2>/dev/null && return 0
		ktap_nap 0.1
		t=$((t - 1))
	done
	return 1
}

# tcm NS|- COMMAND...: a command of rdma_test_cm, written from NS
tcm() {
	local ns=$1
	shift
	if [ "$ns" = - ]; then
		echo "$*" >$D/cmd
	else
		# the network namespace only ("ip netns exec" also mounts a
		# sysfs of its own, without debugfs below it)
		nsenter --net=/run/netns/"$ns" sh -c "echo $* >$D/cmd"
	fi
}
log_has() { grep -qF -- "$1" $D/log; }
log_line() { grep -F -- "$1" $D/log | tail -n 1; }
status_is() {
	local l v=
	while IFS= read -r l; do
		v="$v$l "
	done <$D/status
	[ "$v" = "$1" ]
}
tcm_fail() {
	ktap_fail "$1" "$(tr '\n' '|' <$D/log)"
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

ktap_plan 10
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
		rdma link add rxe0 type rxe netdev rv0 &&
		ip netns exec B rdma link add rxe1 type rxe netdev rv1 &&
		wait_until 30 port_active rxe0 && wait_until 30 port_active rxe1 &&
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
	log_has "client connected $B:" && log_has "to $A:7471 on rxe1" &&
		log_has "server accepted $A:7471 from $B:" &&
		log_has "client data checked" && log_has "client done" &&
		log_has "client path sl 0 mtu 1024 " || return 1
	echo "udp in $u0 -> $u1, rxe0 sent_pkts $(stat rxe0 sent_pkts) rcvd_pkts $(stat rxe0 rcvd_pkts)"
	[ "$u1" -gt $((u0 + 20)) ] &&
		[ "$(stat rxe0 sent_pkts)" -gt 20 ] &&
		[ "$(stat rxe0 rcvd_pkts)" -gt 20 ] &&
		[ "$(stat rxe1 sent_pkts)" -gt 20 ]
}
if out=$(v2_conn 2>&1); then
	ktap_diag "$(log_line 'client path') $out"
	ktap_pass "RoCE v2: B -> $A:7471, SEND, READ, WRITE of 1..65536 bytes checked over UDP, disconnected; rdma statistic counts the packets"
else
	ktap_quote "$out"
	tcm_fail "RoCE v2: B -> $A:7471, SEND, READ, WRITE of 1..65536 bytes checked over UDP, disconnected; rdma statistic counts the packets"
fi

# 4: RoCE v1
step "case 4: roce v1"
v1_conn() {
	local u0 u1
	mode "IB/RoCE v1" || return 1
	tcm - clear
	u0=$(udp_in)
	tcm B connect $B $A 7471 || return 1
	u1=$(udp_in)
	log_has "to $A:7471 on rxe1" && log_has "client data checked" &&
		log_has "client done" || return 1
	echo "udp in $u0 -> $u1"
	[ "$u1" = "$u0" ]
}
if out=$(v1_conn 2>&1); then
	ktap_pass "RoCE v1 (default_roce_mode of both ports): the same connection and data, not one UDP datagram"
else
	ktap_quote "$out"
	tcm_fail "RoCE v1 (default_roce_mode of both ports): the same connection and data, not one UDP datagram"
fi
# 5
ktap_test "default_roce_mode back to RoCE v2" mode "RoCE v2"

# 6: tc netem on both ends
step "case 6: netem"
NETEM="loss 4% duplicate 4% delay 1ms reorder 20% 50%"
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
	[ $rc = 0 ] && log_has "client data checked" &&
		log_has "client done" && [ "$r1" -gt "$r0" ]
}
if out=$(netem_conn 2>&1); then
	ktap_diag "$out"
	ktap_pass "tc netem ($NETEM) both ways: connection, SEND, READ, WRITE of 1..65536 bytes all complete and checked, the retries counted"
else
	ktap_quote "$out"
	tcm_fail "tc netem ($NETEM) both ways: connection, SEND, READ, WRITE of 1..65536 bytes all complete and checked, the retries counted"
fi

# 7: churn
step "case 7: churn"
tcm - clear
if tcm B churn $B $A 7471 $CHURN && log_has "churn done $CHURN stops" &&
   wait_until 20 status_is "ids 1 listeners 1 connections 0 pds 0 cqs 0 qps 0 buffers 0 "; then
	ktap_diag "$(log_line 'churn done')"
	ktap_pass "churn: $CHURN clients destroyed at random points; only the listener is left"
else
	ktap_fail "churn: $CHURN clients destroyed at random points; only the listener is left" \
		"$(grep -e churn -e error $D/log | tr '\n' '|') status: $(tr '\n' ' ' <$D/status)"
fi

# 8: rxe0 deleted under held connections
step "case 8: device removal"
removal() {
	tcm - clear
	tcm B hold $B $A 7471 && tcm B hold $B $A 7471 || return 1
	status_is "ids 5 listeners 1 connections 4 pds 4 cqs 4 qps 4 buffers 12 " || {
		echo "held: $(tr '\n' ' ' <$D/status)"
		return 1
	}
	[ "$(rdma res show qp link rxe0/1 | grep -c 'type RC ')" = 2 ] || {
		rdma res show qp link rxe0/1
		return 1
	}
	rdma link delete rxe0 &&
		wait_until 30 status_is "$ZERO"
}
if out=$(removal 2>&1); then
	ktap_pass "rdma link delete rxe0 under two held connections: every end freed"
else
	ktap_quote "$out"
	ktap_fail "rdma link delete rxe0 under two held connections: every end freed" \
		"status: $(tr '\n' ' ' <$D/status) log: $(tr '\n' '|' <$D/log)"
fi

# 9
step "case 9: unload"
unload_all() {
	rmdir $CFS/rdma_cm/rxe0 $CFS/rdma_cm/rxe1 2>/dev/null
	ip netns del B
	rmmod rdma_test_cm && stack_unload
}
ktap_test "rdma_test_cm, rdma_rxe and the whole stack unload" unload_all

# 10
step "case 10"
health_check
ktap_finish
