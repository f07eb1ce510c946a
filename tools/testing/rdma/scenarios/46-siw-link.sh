#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Soft-iWARP devices made with "rdma link add NAME type siw netdev DEV"
# (module siw): what Debian's rdma tool and sysfs show of them (node type
# RNIC, an Ethernet port on DEV whose state follows DEV, the MAC as GID
# and node GUID, the rate from DEV's link speed), the refusals, and the
# three ways a device goes: rdma link delete, DEV unregistered, rmmod.
# Then rdmavt and ib_core, which siw brought in, unload too.
# needs: /usr/bin/rdma /usr/bin/ip
# timeout: 300

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

# iproute2's: busybox's ip cannot name a veth peer
IP=/usr/bin/ip

CLASS=/sys/class/infiniband

# sysfs NAME FILE WANT: the sysfs attribute FILE of siw0 reads WANT
sysfs() {
	local got
	got=$(cat "$CLASS/siw0/$2" 2>&1)
	if [ "$got" = "$3" ]; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "$2 is '$got', want '$3'"
	fi
}

# gone_within NAME DEV: DEV leaves /sys/class/infiniband within 10 s
gone_within() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -e "$CLASS/$2" ] || break
		sleep 1
	done
	if [ -e "$CLASS/$2" ]; then
		ktap_fail "$1" "$2 still registered"
	else
		ktap_pass "$1"
	fi
}

ktap_plan 25

setup() {
	$IP link add sv0 type veth peer name sv1 &&
		$IP link set sv0 up && $IP link set sv1 up &&
		$IP link add sd0 type dummy && $IP link set sd0 up
}
ktap_test "veth pair sv0-sv1 and dummy sd0 up" setup
mac=$(cat /sys/class/net/sv0/address)

ktap_test "siw loads" modprobe siw
ktap_test "rdma link add siw0 type siw netdev sv0" \
	rdma link add siw0 type siw netdev sv0
ktap_has "rdma link show: siw0/1 active on sv0" \
	"siw0/1 state ACTIVE physical_state LINK_UP netdev sv0" rdma link show
ktap_has "rdma dev show: siw0 is an RNIC" "^[0-9]+: siw0: node_type rnic" \
	rdma dev show siw0
sysfs "sysfs: node type RNIC" node_type "4: RNIC"
sysfs "sysfs: Ethernet link layer" ports/1/link_layer "Ethernet"
sysfs "sysfs: node description" node_desc "Software iWARP stack"
# The GID is the MAC, zero-padded; the node GUID its EUI-64 (U/L bit flipped)
gid=$(echo "$mac" | awk -F: '{ printf "%s%s:%s%s:%s%s:0000:0000:0000:0000:0000", $1, $2, $3, $4, $5, $6 }')
sysfs "sysfs: GID 0 is the MAC of sv0" ports/1/gids/0 "$gid"
guid=$(echo "$mac" | awk -F: '{ b = 0; h = "0123456789abcdef"; for (i = 1; i <= 2; i++) b = b * 16 + index(h, substr($1, i, 1)) - 1; b = (b % 4 >= 2) ? b - 2 : b + 2; printf "%02x%s:%sff:fe%s:%s%s", b, $2, $3, $4, $5, $6 }')
sysfs "sysfs: node GUID from the MAC" node_guid "$guid"
# veth reports 10000 Mb/s without lanes: 1X FDR10
sysfs "sysfs: rate from the veth's speed" ports/1/rate "10 Gb/sec (1X FDR10)"

ktap_refused "a second siw device on sv0 is refused" \
	"Device exists already (name taken or net device in use)" \
	"File exists" rdma link add siw1 type siw netdev sv0
ktap_refused "a name template is refused" "Invalid device name" \
	"Invalid argument" rdma link add "siw%d" type siw netdev sv1

$IP link set sv0 down
ktap_has "port follows sv0 down" "siw0/1 state DOWN physical_state DISABLED" \
	rdma link show siw0/1
$IP link set sv0 up
ktap_has "port follows sv0 up" "siw0/1 state ACTIVE physical_state LINK_UP" \
	rdma link show siw0/1

# A net device that cannot tell its speed: 1 Gb/s, reported as 1X SDR
ktap_test "rdma link add siw2 on a dummy device" \
	rdma link add siw2 type siw netdev sd0
rate=$(cat "$CLASS/siw2/ports/1/rate" 2>&1)
if [ "$rate" = "2.5 Gb/sec (1X SDR)" ]; then
	ktap_pass "sysfs: rate of a device without a speed"
else
	ktap_fail "sysfs: rate of a device without a speed" "rate '$rate'"
fi

ktap_test "rdma link delete siw0" rdma link delete siw0
gone_within "siw0 is gone after rdma link delete" siw0
ktap_test "siw0 again on sv0 after the delete" \
	rdma link add siw0 type siw netdev sv0

if out=$($IP link del sv0 2>&1); then
	gone_within "siw0 goes with its net device" siw0
else
	ktap_fail "siw0 goes with its net device" "ip link del sv0: $out"
fi
if [ -e "$CLASS/siw2" ]; then
	ktap_pass "siw2 stays while sd0 stays"
else
	ktap_fail "siw2 stays while sd0 stays" "siw2 is gone"
fi

ktap_test "rmmod siw with siw2 registered" rmmod siw
gone_within "siw2 is gone with the module" siw2

# modprobe siw brought rdmavt and ib_core in: leave nothing behind
unload_rest() {
	$IP link del sd0 && rmmod rdmavt && rmmod ib_uverbs && rmmod_settle ib_core
}
ktap_test "sd0 deleted, rdmavt and ib_core unload" unload_rest
ktap_finish
