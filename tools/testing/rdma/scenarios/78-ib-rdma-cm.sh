#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# rdma_cm over InfiniBand, as a kernel ULP meets it on real hardware: two
# managed loop ports that opensm brings ACTIVE, IPoIB on each (ib0
# 10.78.0.1 on loop0, ib1 10.78.0.2 on loop1), connections made by IP
# address.  ib1 sits in network namespace B for the test ULP's clients,
# so their address resolution asks ARP over IPoIB; the listener is in the
# initial namespace.  Checked:
#   - rdma_test_cm connects from B to ib0's address and moves data with
#     SEND, RDMA READ and RDMA WRITE (every payload compared): the route
#     from opensm's SA (its path record, logged by the client: not the
#     responder's MTU 1024 and packet lifetime 17), the ends on loop1
#     and loop0;
#   - UD: a SIDR request for the server's QP number and Q_Key, then
#     datagrams echoed through address handles made from them;
#   - again with the route from the local service (RDMA_NL_LS): the
#     lsresponder answers the path query with a working record of its
#     own, which the connection then carries;
#   - churn: clients destroyed at random points of their lives, after
#     which only the listener is left;
#   - the kernel's own nvme-rdma and nvmet-rdma (built against our
#     include/) over IPoIB addresses with Debian's nvme-cli: ib1 back in
#     the initial namespace, the host bound to 10.78.0.2 (-w) reaching
#     the target on 10.78.0.1, blocks written with O_DIRECT read back
#     identical on both sides, then disconnected;
#   - loop0 deleted under two held connections: every end is freed (the
#     listener and the server's ends through DEVICE_REMOVAL, the clients
#     through DISCONNECTED);
#   - everything unloads; no splat (leaks are the final kmemleak scan's).
# needs: /usr/sbin/opensm /usr/bin/ip /usr/bin/rdma /usr/sbin/nvme
# timeout: 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh
. /testbed/lib/tcm.sh
. /testbed/lib/nvmf.sh

IB=/sys/class/infiniband
N=/sys/class/net
LSR=/testbed/bin/lsresponder
OSM_LOG=/tmp/opensm.log
A=10.78.0.1
B=10.78.0.2
CHURN=$(tier_pick 8 48)
NQN=nqn.2026-11.org.rdma-testbed:nvmf-ib
NVMF_BLOCKS=$(tier_pick "4 0
128 1024" "4 0
128 1024
1024 4096")
IMG=/tmp/nvmf-ib.img

# iproute2's ip (busybox's, first in PATH, has no netns or ipoib)
ip() {
	/usr/bin/ip "$@"
}

step() {
	echo "78-ib-rdma-cm: $*" >/dev/kmsg
}

uptime_s() {
	local u r
	read -r u r </proc/uptime
	s=${u%.*}
}

# running PID: PID is a process that has not exited (a zombie has)
running() {
	local a b st r
	read -r a b st r 2>/dev/null </proc/"$1"/stat || return 1
	[ "$st" != Z ]
}
port_active() {
	local v
	read -r v 2>/dev/null <$IB/$1/ports/1/state
	case "$v" in *ACTIVE*) return 0 ;; esac
	return 1
}
# carrier NS|- DEV: DEV (up) has its carrier; in a namespace from the
# link's flags (LOWER_UP: "ip -n" costs no mount namespace and sysfs of
# its own, as "ip netns exec" does)
carrier() {
	local c
	if [ "$1" = - ]; then
		read -r c 2>/dev/null <$N/"$2"/carrier
		[ "$c" = 1 ]
	else
		case "$(ip -n "$1" -o link show dev "$2" 2>/dev/null)" in
		*"<"*LOWER_UP*">"*) return 0 ;;
		esac
		return 1
	fi
}

ktap_plan 13
health_mark

# 1
step "case 1: load"
ktap_test "rdma_loop (2 managed devices), ib_umad, ib_ipoib, rdma_cm and rdma_test_cm load" \
	sh -c 'modprobe rdma_loop devices=2 managed=1 && modprobe ib_umad &&
	       modprobe ib_ipoib && modprobe rdma_cm && modprobe rdma_test_cm'

# 2: opensm, IPoIB up on both ports, ib1 in B
step "case 2: subnet"
subnet_up() {
	local t0 gid guid
	mkdir -p /var/cache/opensm /etc/opensm /var/log /run
	echo "Default=0x7fff, ipoib, mtu=4 : ALL=full;" >/tmp/partitions.conf
	read -r gid <$IB/loop0/ports/1/gids/0
	guid=0x$(echo "$gid" | cut -d: -f5-8 | tr -d :)
	opensm -d 2 -g "$guid" -P /tmp/partitions.conf -f $OSM_LOG \
		</dev/null >/tmp/opensm.out 2>&1 &
	echo $! >/tmp/opensm.pid
	ktap_wait 120 eval 'port_active loop0 && port_active loop1' ||
		return 1
	step "case 2: ports ACTIVE"
	# (ip -b: one process for several commands; each start of the
	# dynamic /usr/bin/ip costs about half a second under TCG)
	ip netns add B &&
		ip -b - <<NEOF &&
link set ib1 netns B
addr add $A/24 dev ib0
link set ib0 up
NEOF
		ip -n B -b - <<NEOF &&
addr add $B/24 dev ib1
link set lo up
link set ib1 up
NEOF
		ktap_wait 30 carrier - ib0 && ktap_wait 30 carrier B ib1 &&
		ip netns exec B ping -c 1 -W 5 $A >/dev/null
}
if subnet_up; then
	ktap_pass "opensm: loop0 and loop1 ACTIVE; ib0 ($A) and ib1 ($B, in B) up, ping over IPoIB"
else
	ktap_quote "$(grep -E ' ERR [0-9A-F]+:' $OSM_LOG 2>/dev/null | head -n 10)"
	ktap_fail "opensm: loop0 and loop1 ACTIVE; ib0 ($A) and ib1 ($B, in B) up, ping over IPoIB" \
		"$(ip -o link show 2>&1 | tr '\n' '|')"
fi

# 3: a connection with the SA's route
step "case 3: sa route"
tcm - clear
if tcm - listen $A 7471 && tcm B connect $B $A 7471 &&
   tcm_log_has "client connected $B:" && tcm_log_has "to $A:7471 on loop1" &&
   tcm_log_has "server accepted $A:7471 from $B:" &&
   tcm_log_has "client data checked" && tcm_log_has "client done" &&
   tcm_log_has "client path sl " &&
   ! tcm_log_has "packet_life_time 17"; then
	ktap_diag "$(tcm_log_line 'client path')"
	ktap_pass "B -> $A:7471: route from the SA, SEND, READ, WRITE of 1..65536 bytes checked, disconnected"
else
	tcm_fail "B -> $A:7471: route from the SA, SEND, READ, WRITE of 1..65536 bytes checked, disconnected"
fi

# 4: UD through SIDR; the server answers through address handles made
# from the datagrams; then the RC listener alone again
step "case 4: ud"
ib_ud() {
	tcm - udlisten $A 7472 && tcm - clear &&
		tcm B udconnect $B $A 7472 &&
		tcm_log_has "server accepted ud $A:7472 from $B:" &&
		tcm_log_has "client ud send 1024 ok" && tcm_log_has "client done" &&
		tcm - unlisten && tcm - listen $A 7471
}
if ib_ud; then
	ktap_diag "$(tcm_log_line 'client ud server qpn')"
	ktap_pass "UD: SIDR request and reply B -> $A:7472, datagrams of 1, 64, 1024 bytes echoed and checked"
else
	tcm_fail "UD: SIDR request and reply B -> $A:7472, datagrams of 1, 64, 1024 bytes echoed and checked"
fi

# 5: the same with the route from the local service
step "case 5: ls route"
ls_route() {
	local pid rc=1
	: >/tmp/lsr.out
	$LSR fabric >/tmp/lsr.out 2>&1 &
	pid=$!
	ktap_wait 5 grep -q listening /tmp/lsr.out || { kill $pid; return 1; }
	tcm - clear
	tcm B connect $B $A 7471 &&
		tcm_log_has "client done" &&
		tcm_log_has "client path sl 0 mtu 1024 packet_life_time 17" &&
		grep -q "^request seq .* dev loop1 port 1 " /tmp/lsr.out &&
		rc=0
	kill $pid
	wait $pid 2>/dev/null
	return $rc
}
if ls_route; then
	ktap_pass "again with the path from the local service (RDMA_NL_LS): its record carries the connection"
else
	ktap_quote "$(cat /tmp/lsr.out)" "lsresponder: "
	tcm_fail "again with the path from the local service (RDMA_NL_LS): its record carries the connection"
fi

# 6: churn
step "case 6: churn"
tcm - clear
if tcm B churn $B $A 7471 $CHURN && tcm_log_has "churn done $CHURN stops" &&
   ktap_wait 20 tcm_status_is "ids 1 listeners 1 connections 0 pds 0 cqs 0 qps 0 buffers 0 "; then
	ktap_diag "$(tcm_log_line 'churn done')"
	ktap_pass "churn: $CHURN clients destroyed at random points; only the listener is left"
else
	ktap_fail "churn: $CHURN clients destroyed at random points; only the listener is left" \
		"$(grep -e churn -e error $TCM_D/log | tr '\n' '|') status: $(tr '\n' ' ' <$TCM_D/status)"
fi

# 7-10: nvme-rdma over IPoIB, all in the initial namespace
step "case 7: nvme setup"
# Back in one namespace, both addresses are local and the kernel would
# route $B -> $A through lo (nvme-rdma and nvmet-rdma use the initial
# namespace only).  The test kernel has no policy routing, so host
# routes take the place of the two local ones: $A by ib1 (the host's
# address resolution asks ARP on ib1, and ib0 answers it as a proxy:
# forwarding on, proxy ARP without delay) and $B by ib0 (the way back
# the request's listener checks: rdma_cm's validation of the interface).
# Both addresses stay on their interfaces, which is what binding them
# needs; the routes go with the devices, split_undo puts the sysctls
# back.
SYSV=/proc/sys/net/ipv4
split_routes() {
	echo 1 >$SYSV/ip_forward &&
		echo 1 >$SYSV/conf/ib0/proxy_arp &&
		echo 0 >$SYSV/neigh/ib0/proxy_delay &&
		echo 1 >$SYSV/conf/ib0/accept_local &&
		echo 0 >$SYSV/conf/all/rp_filter &&
		ip -b - <<NEOF
route add $A/32 dev ib1 src $B
route add $B/32 dev ib0 src $A
route del local $A dev ib0 table local
route del local $B dev ib1 table local
NEOF
}
split_undo() {
	echo 0 >$SYSV/ip_forward
	echo 0 >$SYSV/conf/ib0/proxy_arp 2>/dev/null
}
ib1_home() {
	ip -n B link set ib1 netns 1 && ip netns del B &&
		printf 'addr add %s/24 dev ib1\nlink set ib1 up\n' $B | ip -b - &&
		ktap_wait 30 carrier - ib1 && split_routes &&
		ip route get $A from $B | grep -q ' dev ib1 '
}
nvme_target() {
	nvmf_configfs &&
		dd if=/dev/zero of=$IMG bs=1M seek=16 count=0 2>/dev/null &&
		losetup /dev/loop0 $IMG &&
		nvmf_subsys_add $NQN /dev/loop0 &&
		nvmf_port_add $NQN rdma $A 4420
}
nvme_setup() {
	ib1_home && modprobe nvmet_rdma && modprobe nvme_rdma && nvme_target
}
ktap_test "ib1 back in the initial namespace; nvmet-rdma and nvme-rdma load; target on $A:4420" \
	nvme_setup
nvme_io() {
	local n mine
	nvmf_connect rdma $NQN $A 4420 -w $B || return 1
	ktap_wait 60 nvmf_ns_ready || return 1
	n=$(nvmf_ns)
	# the host's QPs on loop1 (made through rdma_create_qp(), they are
	# rdma_cm's in restrack, as upstream's are)
	rdma res show qp link loop1/1 | grep -q 'type RC .*comm \[rdma_cm\]' || {
		echo "no host QP on loop1"
		return 1
	}
	nvmf_write_blocks "/dev/$n" || return 1
	mine=$(nvmf_sums /dev/loop0)
	echo "target sums $mine"
	[ "$mine" = "$(cat /tmp/nvmf.sums)" ]
}
step "case 8: nvme io"
ktap_test "nvme connect -a $A -w $B: blocks written with O_DIRECT read back identical on the host and in the target's device" \
	nvme_io
# the target's QPs on loop0 (IPoIB's and the GSI QP are there too)
target_qps() { rdma res show qp link loop0/1 | grep -q 'type RC .*comm \[rdma_cm\]'; }
nvme_down() {
	target_qps || { rdma res show qp link loop0/1; return 1; }
	nvme disconnect -n $NQN >/dev/null &&
		ktap_wait 30 eval '! target_qps'
}
step "case 9: nvme disconnect"
ktap_test "nvme disconnect: the target's queues on loop0 are gone" nvme_down
nvme_unload() {
	nvmf_port_remove $NQN && nvmf_subsys_remove $NQN &&
		losetup -d /dev/loop0 && rm -f $IMG &&
		rmmod nvme_rdma && rmmod nvmet_rdma
}
step "case 10: nvme unload"
ktap_test "target removed; nvme-rdma and nvmet-rdma unload" nvme_unload

# 11: loop0 deleted under held connections (opensm stopped before: the
# ports stay ACTIVE, and opensm, whose port this is, took more than 30 s
# to end on SIGTERM once its device had gone)
step "case 11: device removal"
osm_stop() {
	local pid
	read -r pid </tmp/opensm.pid
	kill "$pid" 2>/dev/null
	# opensm is this shell's child: a zombie once it exits
	ktap_wait 30 eval '! running $pid' || {
		kill -9 "$pid"
		echo "opensm still running 30 s after SIGTERM"
		return 1
	}
	wait "$pid" 2>/dev/null
}
removal() {
	tcm - clear
	tcm - hold $B $A 7471 && tcm - hold $B $A 7471 || return 1
	tcm_status_is "ids 5 listeners 1 connections 4 pds 4 cqs 4 qps 4 buffers 12 " || {
		echo "held: $(tr '\n' ' ' <$TCM_D/status)"
		return 1
	}
	# the connections cross the fabric: their server ends on loop0
	[ "$(rdma res show qp link loop0/1 | grep -c 'type RC ')" = 2 ] || {
		rdma res show qp link loop0/1
		return 1
	}
	osm_stop || return 1
	rdma link delete loop0 &&
		ktap_wait 30 tcm_status_is "$TCM_ZERO"
}
if removal; then
	ktap_pass "rdma link delete loop0 under two held connections: every end freed"
else
	ktap_fail "rdma link delete loop0 under two held connections: every end freed" \
		"status: $(tr '\n' ' ' <$TCM_D/status) log: $(tr '\n' '|' <$TCM_D/log)"
fi

# 12
step "case 12: unload"
unload_all() {
	split_undo 2>/dev/null
	rmmod rdma_test_cm && rmmod ib_ipoib && step "unload: ib_ipoib gone" &&
		stack_unload
}
ktap_test "rdma_test_cm, ib_ipoib and the whole stack unload" unload_all

# 13
step "case 13"
health_check
ktap_finish
