#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# rdma_ucm (/dev/infiniband/rdma_cm) with Debian's librdmacm (v44) and
# its programs, unmodified, through libibverbs and its providers (librxe,
# ipathverbs: the QPs are user space's, rdma_ucm hands librdmacm their
# attributes with INIT_QP_ATTR).  The servers run in the initial
# namespace, the clients in namespace B (their files opened there):
#   - the device node (mode 666) and its ABI version 4;
#   - over rxe (rxe0 on rv0 10.84.0.1, rxe1 on rv1 10.84.0.2 in B, a veth
#     pair): rping with its data check (-V), ucmatose (connections
#     migrated to another event channel with -m, ACK timeout -a and ToS
#     -t set), udaddy (UD through SIDR), mckey (a multicast group joined
#     by both through IGMP, datagrams from the sender in B);
#   - ucmatest: the user ABI by raw writes (every refusal and errno,
#     connections without QPs, MIGRATE_ID, the opener's namespace,
#     processes killed with ids open); ucmafuzz as root and as nobody;
#   - an rping client killed mid-stream: the server hears DISCONNECTED
#     and ends, no cm_id is left;
#   - rxe0 deleted under a listening rping and ucmatest's held ids
#     (a listener, a group): DEVICE_REMOVAL for each, -ENXIO, the ids
#     still destroyed;
#   - over InfiniBand (two managed loop ports, opensm's SA, IPoIB ib0
#     10.84.1.1 and ib1 10.84.1.2 in B): rping (its route from the SA)
#     and mckey (its group joined through the SA); the full tier adds
#     ucmatose, udaddy and ucmatest there;
#   - rdma_ucm cannot be removed while a file is open;
#   - everything unloads; no splat (leaks: the final kmemleak scan).
#   - over siw (siw0 on sv0 10.84.2.1, siw1 on sv1 10.84.2.2 in B, a
#     veth pair; libsiw's queues mapped into the processes): rping and
#     ucmatose (iWARP has no UD and no multicast); ucmatose's server
#     sends first, which a responder that waited for the initiator's
#     first FPDU outside a peer-to-peer setup would never do; and a
#     running rping's QPs show FPDUs their doorbell sent itself
#     (drv_tx_direct);
# wire/68-ucma-interop runs the programs against upstream's
# stack across the wire (full tier).
# needs: /usr/bin/ip /usr/bin/rdma
# needs: /usr/bin/rping /usr/bin/ucmatose /usr/bin/udaddy /usr/bin/mckey
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/libipathverbs-rdmav34.so
# needs: /etc/libibverbs.d/rxe.driver /etc/libibverbs.d/ipathverbs.driver
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav34.so
# needs: /etc/libibverbs.d/siw.driver
# needs: /usr/sbin/opensm
# timeout: 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

IB=/sys/class/infiniband
N=/sys/class/net
OSM_LOG=/tmp/opensm.log

ip() {
	/usr/bin/ip "$@"
}

# ucmafuzz's calls (about N a second under TCG); "ucmafuzz.seed=N" on
# the kernel command line (RDMA_VM_APPEND) replays a run
FUZZ_ROOT=$(tier_pick 3000 30000)
FUZZ_USER=$(tier_pick 1500 15000)
seed=$(sed -n 's/.*ucmafuzz\.seed=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$seed" ] || seed=$(($(date +%s) % 1000000))
ktap_diag "ucmafuzz seed $seed"

step() {
	echo "84-ucma: $*" >/dev/kmsg
}

ktap_plan $(tier_pick 25 28)
health_mark

step "load"
ktap_test "rdma_rxe and rdma_ucm load" \
	sh -c 'modprobe rdma_rxe && modprobe rdma_ucm'
ktap_test "/dev/infiniband/rdma_cm, abi 4" \
	sh -c 'ls -l /dev/infiniband/rdma_cm && cat /sys/class/misc/rdma_cm/abi_version'

# run_pair NAME SERVER... -- CLIENT...: the server (program NAME) in the
# initial namespace, the client in B once the server listens.  mckey's
# receiver has no listener to wait for: its sender is tried again (up to
# 20 times) while nothing was received.  A client that retried a server
# with a listener could meet it half-way (one connection accepted while
# the client already gave up on another): the server's accept then fails
# on an id its peer has left (CI saw "failure accepting: Invalid
# argument").
run_pair() {
	local name=$1 srv rc src out first= tries=0 max=20
	shift
	SRV=""
	while [ "$1" != -- ]; do SRV="$SRV $1"; shift; done
	shift
	step "$name: server$SRV"
	timeout 90 $SRV >/tmp/srv.out 2>&1 &
	srv=$!
	if [ "$name" != mckey ]; then
		max=1
		ktap_wait 30 cm_listening "$name" ||
			ktap_diag "$name: the server does not listen after 30 s"
	fi
	while :; do
		rc=0
		out=$(nsenter --net=/run/netns/B timeout 60 "$@" 2>&1) || rc=$?
		[ $rc = 0 ] && break
		[ -n "$first" ] || first=$out
		tries=$((tries + 1))
		[ $tries -ge $max ] && break
		case "$out" in *"ping data"* | *"data transfers"*) break ;; esac
		ktap_nap 0.5
	done
	wait $srv
	src=$?
	ktap_quote "$(tail -n 8 /tmp/srv.out)" "server: "
	ktap_quote "$(echo "$out" | tail -n 8)" "client: "
	[ $tries -gt 1 ] &&
		ktap_quote "$(echo "$first" | tail -n 8)" "client, first try: "
	ktap_diag "$name: client $rc server $src tries $tries"
	[ $rc = 0 ] && [ $src = 0 ]
}

# What each program moves, by tier
RPINGS=$(tier_pick 10 200)
TOSE_CONNS=$(tier_pick 2 4)
TOSE_MSGS=$(tier_pick 10 100)
UDADDY_CONNS=$(tier_pick 1 4)
UDADDY_MSGS=$(tier_pick 10 100)
MCKEY_MSGS=$(tier_pick 5 50)

# programs KIND A B [PROGRAM...]: Debian's programs over KIND (all four
# by default), the server on A, the client from B (in namespace B).  An
# iWARP kind (siw) names rping and ucmatose only: iWARP has no UD and no
# multicast.
programs() {
	local kind=$1 a=$2 b=$3 p
	shift 3
	for p in ${*:-rping ucmatose udaddy mckey}; do
		case $p in
		rping)
			ktap_test "rping -V, $RPINGS messages, over $kind" \
				run_pair rping \
				rping -s -a $a -C $RPINGS -S 128 -V -v -- \
				rping -c -a $a -C $RPINGS -S 128 -V -v
			;;
		ucmatose)
			ktap_test "ucmatose, $TOSE_CONNS connections migrated (-m), ack timeout and ToS set, over $kind" \
				run_pair ucmatose \
				ucmatose -b $a -c $TOSE_CONNS -C $TOSE_MSGS -- \
				ucmatose -s $a -c $TOSE_CONNS -C $TOSE_MSGS \
				-m -a 18 -t 32
			;;
		udaddy)
			ktap_test "udaddy, $UDADDY_CONNS connection(s), over $kind" \
				run_pair udaddy \
				udaddy -b $a -c $UDADDY_CONNS -C $UDADDY_MSGS -- \
				udaddy -s $a -c $UDADDY_CONNS -C $UDADDY_MSGS
			;;
		mckey)
			ktap_test "mckey, $MCKEY_MSGS messages, over $kind" \
				run_pair mckey \
				mckey -m 239.84.0.1 -b $a -C $MCKEY_MSGS -- \
				mckey -m 239.84.0.1 -b $b -s -C $MCKEY_MSGS
			;;
		esac
	done
}

A=10.84.0.1
B=10.84.0.2
rxe_up() {
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
		ip netns exec B ping -c 1 -W 5 $A >/dev/null
}
ktap_test "rxe0 on rv0 ($A), rxe1 on rv1 ($B, in B)" rxe_up
programs rxe $A $B

# siw through libsiw's mapped queues (iWARP: no UD, no multicast):
# siw0 on sv0 (10.84.2.1), siw1 on sv1 (10.84.2.2, in B), a veth pair
SA=10.84.2.1
SB=10.84.2.2
siw_up() {
	modprobe siw &&
		ip link add sv0 type veth peer name sv1 netns B &&
		ip addr add $SA/24 dev sv0 && ip link set sv0 up &&
		ip -n B addr add $SB/24 dev sv1 && ip -n B link set sv1 up &&
		rdma link add siw0 type siw netdev sv0 &&
		ip netns exec B rdma link add siw1 type siw netdev sv1 &&
		ip netns exec B ping -c 1 -W 5 $SA >/dev/null
}
ktap_test "siw0 on sv0 ($SA), siw1 on sv1 ($SB, in B)" siw_up
programs siw $SA $SB rping ucmatose
# A user QP's doorbell sends in its own context, as upstream's siw does
# in POST_SEND: the QPs of a running rping count such FPDUs
# (drv_tx_direct, rdma res show qp -dd).
direct_sent() {
	rdma -dd res show qp link siw0/1 | grep -qE " drv_tx_direct [1-9]"
}
tx_direct() {
	local srv cli ok=0
	timeout 120 rping -s -a $SA -p 7177 -v >/tmp/srv.out 2>&1 &
	srv=$!
	if ! ktap_wait 30 cm_listening rping 7177; then
		kill $srv
		cat /tmp/srv.out
		return 1
	fi
	nsenter --net=/run/netns/B rping -c -a $SA -p 7177 -v \
		>/tmp/cli.out 2>&1 &
	cli=$!
	ktap_wait 30 direct_sent && ok=1
	[ $ok = 1 ] || rdma -dd res show qp link siw0/1
	kill $cli $srv 2>/dev/null
	wait $cli $srv 2>/dev/null
	[ $ok = 1 ]
}
ktap_test "siw: a user QP's doorbell sends in its own context (drv_tx_direct)" \
	tx_direct
siw_down() {
	rdma link delete siw0 && rdma link delete siw1 && ip link del sv0
}
ktap_test "siw0 and siw1 deleted" siw_down

# The user ABI by raw writes (servers on A, clients from B)
ktap_tool "ucmatest over rxe" ucmatest $A B $B

# Random commands from workers killed at random points, as root and as
# nobody (the device is 0666: nobody may do all of it)
ktap_tool "ucmafuzz over rxe as root" ucmafuzz $A B $B $FUZZ_ROOT $seed
ktap_tool "ucmafuzz over rxe as nobody" \
	ucmafuzz $A B $B $FUZZ_USER $((seed + 1)) 65534

# running PID: PID is a process that has not exited (a zombie has)
running() {
	local a b st r
	read -r a b st r 2>/dev/null </proc/"$1"/stat || return 1
	[ "$st" != Z ]
}
# has FILE TEXT: a line of FILE holds TEXT (the shell's read: no process)
has() {
	local l
	while IFS= read -r l; do
		case "$l" in *"$2"*) return 0 ;; esac
	done <"$1"
	return 1
}
# no_cm_ids: "rdma resource show cm_id" lists nothing
no_cm_ids() {
	[ -z "$(rdma resource show cm_id 2>&1)" ]
}
# A client killed in the middle of its pings: the server hears
# DISCONNECTED and ends; nothing of either is left.
killed() {
	local srv cli
	timeout 120 rping -s -a $A -p 7175 -v >/tmp/srv.out 2>&1 &
	srv=$!
	if ! ktap_wait 30 cm_listening rping 7175; then
		kill $srv
		rdma resource show cm_id
		cat /tmp/srv.out
		return 1
	fi
	: >/tmp/cli.out
	nsenter --net=/run/netns/B rping -c -a $A -p 7175 -v \
		>/tmp/cli.out 2>&1 &
	cli=$!
	if ! ktap_wait 30 has /tmp/cli.out "ping data"; then
		kill $srv $cli
		cat /tmp/srv.out /tmp/cli.out
		return 1
	fi
	kill -9 $cli
	wait $cli
	ktap_wait 30 running_not $srv || {
		echo "the server still runs"
		kill $srv
		return 1
	}
	wait $srv
	echo "server: $(tail -n 1 /tmp/srv.out)"
	ktap_wait 10 no_cm_ids || { rdma resource show cm_id; return 1; }
}
running_not() {
	! running "$1"
}
ktap_test "rping client killed mid-stream: the server ends, no cm_id left" killed

# rxe0 deleted under a listener, an id with a group and a running rping:
# DEVICE_REMOVAL for each, their ids still destroyed (ucmatest hold)
removal() {
	local hold srv
	rm -f /tmp/hold.ready
	/testbed/bin/ucmatest hold $A /tmp/hold.ready >/tmp/hold.out 2>&1 &
	hold=$!
	timeout 60 rping -s -a $A -p 7176 -v >/tmp/srv.out 2>&1 &
	srv=$!
	if ! ktap_wait 30 test -e /tmp/hold.ready ||
	   ! ktap_wait 30 cm_listening rping 7176; then
		kill $hold $srv
		cat /tmp/hold.out /tmp/srv.out
		return 1
	fi
	rdma link delete rxe0 || return 1
	wait $hold
	rc=$?
	ktap_quote "$(cat /tmp/hold.out)" "hold: "
	wait $srv
	echo "rping server: $(tail -n 2 /tmp/srv.out | tr '\n' ' ')"
	[ $rc = 0 ] && has /tmp/srv.out "device removal" &&
		ktap_wait 10 no_cm_ids
}
ktap_test "rxe0 deleted under open ids: DEVICE_REMOVAL, the ids still destroyed" removal
rxe_down() {
	rdma link delete rxe1 && ip netns del B
}
ktap_test "rxe1 deleted" rxe_down

# InfiniBand: two managed loop ports, opensm, IPoIB
IA=10.84.1.1
IB_=10.84.1.2
port_active() {
	local v
	read -r v 2>/dev/null <$IB/$1/ports/1/state
	case "$v" in *ACTIVE*) return 0 ;; esac
	return 1
}
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
ib_up() {
	local gid guid
	modprobe rdma_loop devices=2 managed=1 && modprobe ib_umad &&
		modprobe ib_ipoib || return 1
	mkdir -p /var/cache/opensm /etc/opensm /var/log /run
	echo "Default=0x7fff, ipoib, mtu=4 : ALL=full;" >/tmp/partitions.conf
	read -r gid <$IB/loop0/ports/1/gids/0
	guid=0x$(echo "$gid" | cut -d: -f5-8 | tr -d :)
	opensm -d 2 -g "$guid" -P /tmp/partitions.conf -f $OSM_LOG \
		</dev/null >/tmp/opensm.out 2>&1 &
	echo $! >/tmp/opensm.pid
	ktap_wait 120 eval 'port_active loop0 && port_active loop1' ||
		return 1
	ip netns add B &&
		ip -b - <<NEOF &&
link set ib1 netns B
addr add $IA/24 dev ib0
link set ib0 up
NEOF
		ip -n B -b - <<NEOF &&
addr add $IB_/24 dev ib1
link set lo up
link set ib1 up
NEOF
		ktap_wait 30 carrier - ib0 && ktap_wait 30 carrier B ib1 &&
		ip netns exec B ping -c 1 -W 5 $IA >/dev/null
}
ktap_test "loop0 and loop1 ACTIVE under opensm, ib0 ($IA) and ib1 ($IB_, in B)" ib_up
# (the quick tier runs rping and mckey here, the SA's path records and
# multicast joins; ucmatose and udaddy run on rxe above, the kernel's UD
# over InfiniBand in 78-ib-rdma-cm)
programs "InfiniBand" $IA $IB_ \
	$(tier_pick "rping mckey" "rping ucmatose udaddy mckey")
[ "${RDMA_TIER:-quick}" = full ] &&
	ktap_tool "ucmatest over InfiniBand" ucmatest $IA B $IB_
ib_down() {
	local pid
	read -r pid </tmp/opensm.pid
	kill "$pid"
	wait "$pid"
	ip netns del B
}
ktap_test "opensm stops" ib_down

# An open file holds rdma_ucm
busy() {
	exec 3<>/dev/infiniband/rdma_cm || return 1
	if rmmod rdma_ucm 2>/dev/null; then
		echo "rmmod rdma_ucm succeeded with the file open"
		return 1
	fi
	exec 3>&-
	rmmod_settle rdma_ucm 5
}
ktap_test "rdma_ucm cannot go while a file is open, goes once it is closed" busy

ktap_test "unload" stack_unload
health_check
ktap_finish
