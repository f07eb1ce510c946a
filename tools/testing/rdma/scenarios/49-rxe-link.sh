#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Soft-RoCE devices made with "rdma link add NAME type rxe netdev DEV"
# (module rdma_rxe): what Debian's rdma tool and sysfs show of them (node
# type CA, an Ethernet port on DEV whose state follows DEV, GIDs of both
# RoCE types from the core's GID management, the hardware counters), a
# bonding master's GIDs on its active slave's port only, the refusals,
# and the three ways a device goes: rdma link delete, DEV unregistered,
# rmmod.  Then rdmavt and ib_core, which rdma_rxe brought
# in, unload too.  Few processes: the network is one "ip -b" batch, sysfs
# is read by the shell, waits poll with a deadline.
# needs: /usr/bin/rdma /usr/bin/ip
# timeout: 300

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

# iproute2's: busybox's ip cannot name a veth peer
IP=/usr/bin/ip

CLASS=/sys/class/infiniband

# sysfs NAME FILE WANT: the sysfs attribute FILE of rxe0 reads WANT
sysfs() {
	local got=
	read -r got <"$CLASS/rxe0/$2" 2>/dev/null
	if [ "$got" = "$3" ]; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "$2 is '$got', want '$3'"
	fi
}

# gone DEV: DEV is not registered
gone() {
	[ ! -e "$CLASS/$1" ]
}

# gone_within NAME DEV: DEV leaves /sys/class/infiniband within 10 s
gone_within() {
	if ktap_wait 10 gone "$2"; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "$2 still registered"
	fi
}

# has_gid DEV GID TYPE: one of the first 8 GIDs of DEV's port (of 1024;
# the defaults and the first addresses') is GID with the type TYPE
has_gid() {
	local i g t
	for i in 0 1 2 3 4 5 6 7; do
		g=
		read -r g <"$CLASS/$1/ports/1/gids/$i" 2>/dev/null
		[ "$g" = "$2" ] || continue
		t=
		read -r t <"$CLASS/$1/ports/1/gid_attrs/types/$i" 2>/dev/null
		[ "$t" = "$3" ] && return 0
	done
	return 1
}

# gid_case NAME DEV GID TYPE: DEV's port has GID of TYPE within 10 s
gid_case() {
	if ktap_wait 10 has_gid "$2" "$3" "$4"; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "no GID $3 of type $4 on $2"
	fi
}

# no_gid DEV GID: no GID of DEV's port is GID, of either type
no_gid() {
	! has_gid "$1" "$2" "RoCE v2" && ! has_gid "$1" "$2" "IB/RoCE v1"
}

# gid_gone NAME DEV GID: GID leaves DEV's port within 10 s
gid_gone() {
	if ktap_wait 10 no_gid "$2" "$3"; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "GID $3 still on $2"
	fi
}

ktap_plan 34

cat >/tmp/rxe-link.batch <<EOF
link add rv0 type veth peer name rv1
link set rv0 up
link set rv1 up
link add rd0 type dummy
link set rd0 up
link add link rv1 name rv1.5 type vlan id 5
address add 10.78.0.1/24 dev rv0
EOF
ktap_test "veth pair rv0-rv1, dummy rd0, VLAN rv1.5" $IP -b /tmp/rxe-link.batch
read -r mac </sys/class/net/rv0/address

ktap_test "rdma_rxe loads" modprobe rdma_rxe
ktap_test "rdma link add rxe0 type rxe netdev rv0" \
	rdma link add rxe0 type rxe netdev rv0
ktap_has "rdma link show: rxe0/1 active on rv0" \
	"rxe0/1 state ACTIVE physical_state LINK_UP netdev rv0" rdma link show
ktap_has "rdma dev show: rxe0 is a CA" "^[0-9]+: rxe0: node_type ca" \
	rdma dev show rxe0
sysfs "sysfs: node type CA" node_type "1: CA"
sysfs "sysfs: Ethernet link layer" ports/1/link_layer "Ethernet"
sysfs "sysfs: port active" ports/1/state "4: ACTIVE"
# the node GUID is the MAC's EUI-64 (U/L bit flipped)
IFS=: read -r m1 m2 m3 m4 m5 m6 <<EOF
$mac
EOF
guid=$(printf '%02x%s:%sff:fe%s:%s%s' $((0x$m1 ^ 2)) "$m2" "$m3" "$m4" "$m5" "$m6")
sysfs "sysfs: node GUID from the MAC" node_guid "$guid"
# default GIDs: fe80::EUI-64, one of each type, at indices 0 and 1
ll="fe80:0000:0000:0000:${guid}"
gid_case "default GID, RoCE v1" rxe0 "$ll" "IB/RoCE v1"
gid_case "default GID, RoCE v2" rxe0 "$ll" "RoCE v2"
gid_case "GID of 10.78.0.1, RoCE v2" rxe0 "0000:0000:0000:0000:0000:ffff:0a4e:0001" \
	"RoCE v2"
gid_case "GID of 10.78.0.1, RoCE v1" rxe0 "0000:0000:0000:0000:0000:ffff:0a4e:0001" \
	"IB/RoCE v1"
cnt=
read -r cnt <"$CLASS/rxe0/ports/1/hw_counters/sent_pkts" 2>/dev/null
if [ -n "$cnt" ]; then
	ktap_pass "sysfs: hw_counters/sent_pkts"
else
	ktap_fail "sysfs: hw_counters/sent_pkts" "not readable"
fi

ktap_refused "a second device on rv0 is refused" \
	"Device exists already (name taken or net device in use)" \
	"File exists" rdma link add rxe1 type rxe netdev rv0
ktap_refused "a device on a VLAN is refused" \
	"The link type refused to create the device" \
	"Operation not permitted" rdma link add rxe1 type rxe netdev rv1.5
ktap_refused "a device on lo is refused" \
	"The link type refused to create the device" \
	"Invalid argument" rdma link add rxe1 type rxe netdev lo
ktap_refused "a name template is refused" "Invalid device name" \
	"Invalid argument" rdma link add "rxe%d" type rxe netdev rv1

$IP link set rv0 down
ktap_has "port follows rv0 down" "rxe0/1 state DOWN physical_state DISABLED" \
	rdma link show rxe0/1
$IP link set rv0 up
ktap_has "port follows rv0 up" "rxe0/1 state ACTIVE physical_state LINK_UP" \
	rdma link show rxe0/1

ktap_test "rdma link add rxe1 on a dummy device" \
	rdma link add rxe1 type rxe netdev rd0

ktap_test "rdma link delete rxe0" rdma link delete rxe0
gone_within "rxe0 is gone after rdma link delete" rxe0
ktap_test "rxe0 again on rv0 after the delete" \
	rdma link add rxe0 type rxe netdev rv0

if out=$($IP link del rv0 2>&1); then
	gone_within "rxe0 goes with its net device" rxe0
else
	ktap_fail "rxe0 goes with its net device" "ip link del rv0: $out"
fi
if [ -e "$CLASS/rxe1" ]; then
	ktap_pass "rxe1 stays while rd0 stays"
else
	ktap_fail "rxe1 stays while rd0 stays" "rxe1 is gone"
fi

# Bonding, active-backup: the bond's addresses are GIDs of the port whose
# net device is the active slave, never of an inactive slave's; a
# failover moves them, leaving the bond takes them away.
cat >/tmp/rxe-bond.batch <<EOF
link add rd1 type dummy
link add rb0 type bond mode active-backup
link set rd0 down
link set rd0 master rb0
link set rd1 master rb0
link set rb0 up
address add 10.49.0.1/24 dev rb0
EOF
ktap_test "bond rb0 over rd0 (rxe1) and rd1" $IP -b /tmp/rxe-bond.batch
bgid=0000:0000:0000:0000:0000:ffff:0a31:0001
gid_case "the bond's address is a GID of rxe1, rd0 active" rxe1 "$bgid" \
	"RoCE v2"
$IP link set rb0 type bond active_slave rd1
gid_gone "failover to rd1: rxe1 loses the bond's GIDs" rxe1 "$bgid"
$IP link set rb0 type bond active_slave rd0
gid_case "failover back to rd0: the bond's GID returns" rxe1 "$bgid" \
	"IB/RoCE v1"
$IP link set rd0 nomaster
gid_gone "rd0 leaves the bond: its GIDs go" rxe1 "$bgid"

ktap_test "rmmod rdma_rxe with rxe1 registered" rmmod rdma_rxe
gone_within "rxe1 is gone with the module" rxe1

# modprobe rdma_rxe brought rdmavt and ib_core in: leave nothing behind
unload_rest() {
	$IP link del rb0 && $IP link del rd1 && $IP link del rd0 &&
		rmmod rdmavt && rmmod ib_uverbs && rmmod_settle ib_core
}
ktap_test "rb0, rd1, rd0 deleted; rdmavt, ib_core unload" unload_rest
ktap_finish
