#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# IP over InfiniBand (ib_ipoib) between two managed loop ports that
# opensm brings ACTIVE; opensm's partitions give the default P_Key and
# 0x8001, each with its IPoIB broadcast group.  ib0 (loop0) goes to
# network namespace A and ib1 (loop1) to B, so traffic between them
# crosses the loop fabric, not the host's loopback.  Checked: the
# user-visible surface (link type, 20-byte address with the connected
# mode flag, broadcast address from the P_Key, sysfs mode/pkey/umcast,
# ip -d's ipoib attributes), carrier off while the port waits for its SM
# and on once the broadcast group is joined (its MTU applied), ARP and
# IPv6 neighbour discovery (ping both ways), a TCP transfer.  Connected
# mode (sysfs and rtnl): MTU 65520, large pings and TCP on RC
# connections that the IB CM sets up (its counters); B back to datagram
# (its connection taken down, A's still accepted); ICMP "fragmentation
# needed" / "packet too big" for a peer without connections.  P_Key
# children made through rtnl and through sysfs create_child (without
# SRQ: cm_srq=0) pinging over 0x8001, in datagram and in connected mode
# (connections on rings of their own), one made in connected mode,
# delete_child; then ib_ipoib unloads with every interface up and A
# connected, loads again, and the RDMA devices go from under the open
# interfaces.
# needs: /usr/sbin/opensm /usr/bin/ip /usr/bin/rdma
# timeout: 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

IB=/sys/class/infiniband
OSM_LOG=/tmp/opensm.log
PARTS=/tmp/partitions.conf
BCAST_FFFF=00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff
# TCP transfers: over datagrams (2044-byte packets: 60 to 170 KiB/s in
# the VM) and on a connection
DG_KB=$(tier_pick 64 4096)
CM_KB=$(tier_pick 1024 16384)
# ICMP payload of the large pings (connected mode's MTU takes 65492)
PING_SIZE=$(tier_pick 30000 65000)

# iproute2's ip (busybox's, first in PATH, has no netns or ipoib)
ip() {
	/usr/bin/ip "$@"
}

step() {
	echo "76-ipoib: $*" >/dev/kmsg
}

uptime_s() {
	local u r
	read -r u r </proc/uptime
	s=${u%.*}
}

# inns NS CMD...: CMD in network namespace NS (with its own sysfs)
inns() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@"
}

# carrier_on NS DEV: DEV (up) has its carrier; in a namespace from the
# link's flags (LOWER_UP: "ip -n" costs no mount namespace and sysfs of
# its own, as "ip netns exec" does)
carrier_on() {
	local c
	if [ "$1" = - ]; then
		read -r c 2>/dev/null </sys/class/net/"$2"/carrier
		[ "$c" = 1 ]
	else
		case "$(ip -n "$1" -o link show dev "$2" 2>/dev/null)" in
		*"<"*LOWER_UP*">"*) return 0 ;;
		esac
		return 1
	fi
}

# wait_carrier NS DEV SECONDS: DEV's carrier is 1 within SECONDS
wait_carrier() {
	local t0
	uptime_s
	t0=$s
	while :; do
		carrier_on "$1" "$2" && return 0
		uptime_s
		[ $((s - t0)) -ge "$3" ] && return 1
		ktap_nap 0.1
	done
}

# port_active DEV
port_active() {
	local v
	read -r v 2>/dev/null <$IB/$1/ports/1/state
	case "$v" in
	*ACTIVE*) return 0 ;;
	esac
	return 1
}

dump_osm_log() {
	[ -f $OSM_LOG ] || return
	echo "# opensm log (errors, then the last 30 lines):"
	grep -E ' ERR [0-9A-F]+:' $OSM_LOG | head -n 20 | sed 's/^/# /'
	tail -n 30 $OSM_LOG | sed 's/^/# /'
}

# rd FILE: FILE's first line (a read, not a cat: no process to start)
rd() {
	local v
	read -r v <"$1" && echo "$v"
}

bad=
check() {
	[ "$2" = "$3" ] || bad="$bad $1='$2'(want '$3')"
}

report() {
	if [ -z "$bad" ]; then
		ktap_pass "$1"
	else
		[ -n "$2" ] && ktap_quote "$2"
		ktap_fail "$1" "$bad"
	fi
	bad=
}

ktap_plan 27
health_mark

# 1
step "case 1"
ktap_test "rdma_loop (2 managed devices), ib_umad and ib_ipoib load" sh -c \
	'modprobe rdma_loop devices=2 managed=1 && modprobe ib_umad &&
	 modprobe ib_ipoib'

# 2: the net devices and what they show
step "case 2"
N=/sys/class/net
for d in ib0 ib1; do
	[ -d $N/$d ] || bad="$bad no-$d"
done
if [ -z "$bad" ]; then
	check type "$(rd $N/ib0/type)" 32
	check addr_len "$(rd $N/ib0/addr_len)" 20
	check broadcast "$(rd $N/ib0/broadcast)" $BCAST_FFFF
	check mode "$(rd $N/ib0/mode)" datagram
	check pkey "$(rd $N/ib0/pkey)" 0xffff
	check umcast "$(rd $N/ib0/umcast)" 0
	# byte 0 of the address: connected mode offered (the loop has the CM)
	read -r a <$N/ib0/address
	check rc-flag "${a%%:*}" 80
	# bytes 4..19: the port's GID 0
	g=$(echo "${a#??:??:??:??:}" | tr -d :)
	read -r gid <$IB/loop0/ports/1/gids/0
	check gid "$g" "$(echo "$gid" | tr -d :)"
	read -r a1 <$N/ib1/address
	read -r gid1 <$IB/loop1/ports/1/gids/0
	check gid1 "$(echo "${a1#??:??:??:??:}" | tr -d :)" \
		"$(echo "$gid1" | tr -d :)"
fi
report "ib0 and ib1: ARPHRD_INFINIBAND, 20-byte address with the RC flag and the port GID, broadcast of P_Key 0xffff, datagram mode" \
	"$(ip -d link show 2>&1)"

# 3: no carrier before the SM
step "case 3"
# (ip -b: one process for several commands; each start of the dynamic
# /usr/bin/ip costs about half a second under TCG)
printf 'link set ib0 up\nlink set ib1 up\n' | ip -b -
ktap_nap 1
check carrier0 "$(rd $N/ib0/carrier)" 0
check carrier1 "$(rd $N/ib1/carrier)" 0
report "up before the SM: no carrier (port in INIT)" "$(ip link show 2>&1)"

# 4: opensm with two IPoIB partitions
step "case 4"
mkdir -p /var/cache/opensm /etc/opensm /var/log /run
cat >$PARTS <<PEOF
Default=0x7fff, ipoib, mtu=4 : ALL=full;
P8001=0x8001, ipoib, mtu=4 : ALL=full;
PEOF
read -r gid <$IB/loop0/ports/1/gids/0
SM_GUID=0x$(echo "$gid" | cut -d: -f5-8 | tr -d :)
opensm -d 2 -g "$SM_GUID" -P $PARTS -f $OSM_LOG </dev/null \
	>/tmp/opensm.out 2>&1 &
osm_pid=$!
uptime_s
t0=$s
while :; do
	port_active loop0 && port_active loop1 &&
		grep -q 'SUBNET UP' $OSM_LOG 2>/dev/null && break
	uptime_s
	[ $((s - t0)) -ge 120 ] && break
	ktap_nap 0.2
done
pk=
for i in 0 1 2 3; do
	read -r v 2>/dev/null <$IB/loop1/ports/1/pkeys/$i && pk="$pk $v"
done
if port_active loop0 && port_active loop1; then
	case " $pk " in
	*" 0x8001 "*) ktap_pass "opensm: ports ACTIVE, P_Key 0x8001 in the table ($((s - t0))s)" ;;
	*) ktap_fail "opensm: ports ACTIVE, P_Key 0x8001 in the table ($((s - t0))s)" "pkeys:$pk" ;;
	esac
else
	dump_osm_log
	ktap_fail "opensm: ports ACTIVE, P_Key 0x8001 in the table ($((s - t0))s)" "not ACTIVE"
fi

# 5: the port events restart the interfaces, the broadcast group joins
step "case 5"
wait_carrier - ib0 30 || bad="$bad ib0-no-carrier"
wait_carrier - ib1 30 || bad="$bad ib1-no-carrier"
# the broadcast group's MTU (2048: mtu=4) less the 4-byte header,
# applied after the join (within 10 s)
i=0
while [ "$(rd $N/ib0/mtu)" != 2044 ] && [ $i -lt 100 ]; do
	ktap_nap 0.1
	i=$((i + 1))
done
check mtu "$(rd $N/ib0/mtu)" 2044
report "carrier on once the broadcast group is joined, MTU 2044 from it" \
	"$(ip link show 2>&1; dmesg | grep -i ipoib | tail -n 20)"

# 6: into two namespaces, addresses, up
step "case 6"
# ns_up NS DEV V4 V6: DEV in NS addressed and up, and NS's lo
ns_up() {
	ip -n "$1" -b - <<NEOF
addr add $3/24 dev $2
addr add $4/64 dev $2 nodad
link set lo up
link set $2 up
NEOF
}
setup_ns() {
	ip netns add A && ip netns add B &&
	printf 'link set ib0 netns A\nlink set ib1 netns B\n' | ip -b - &&
	step "case 6: moved" &&
	ns_up A ib0 10.77.0.1 fd77::1 && ns_up B ib1 10.77.0.2 fd77::2 &&
	step "case 6: up" &&
	wait_carrier A ib0 30 && wait_carrier B ib1 30
}
ktap_test "ib0 in namespace A, ib1 in B, addressed and up, carrier on" \
	setup_ns

# 7, 8: ARP over IB, both ways
step "case 7"
ktap_test "ping A -> B (ARP over IB)" inns A ping -c 2 -A -W 5 10.77.0.2
ktap_test "ping B -> A" inns B ping -c 2 -A -W 5 10.77.0.1

# 9: the neighbour entry holds the peer's IPoIB address
step "case 9"
nb=$(ip -n A neigh show 10.77.0.2 dev ib0 2>&1)
a1b=$(inns B cat /sys/class/net/ib1/address)
case "$nb" in
*"lladdr $a1b "*) ktap_pass "A's ARP entry for B is ib1's 20-byte address" ;;
*) ktap_quote "$nb"; ktap_fail "A's ARP entry for B is ib1's 20-byte address" "want $a1b" ;;
esac

# 10: IPv6 neighbour discovery (solicited-node groups joined through the SA)
step "case 10"
ktap_test "ping fd77::2 from A (IPv6 neighbour discovery over IB)" \
	inns A ping -6 -c 2 -A -W 5 fd77::2

# 11: TCP
step "case 11"
running_pid() {
	local a b st r
	read -r a b st r 2>/dev/null </proc/"$1"/stat || return 1
	[ "$st" != Z ]
}
# nc_listening: the nc that tcp_xfer starts in B listens on port 5001
# (0x1389) within 30 s: its socket in LISTEN (0A) in /proc/PID/net/tcp
# or tcp6, which show the namespace of process PID
nc_listening() {
	local i=0 pid l f
	while [ $i -lt 300 ]; do
		pid=
		read -r pid 2>/dev/null </tmp/nc.pid
		if [ -n "$pid" ]; then
			for f in /proc/"$pid"/net/tcp /proc/"$pid"/net/tcp6; do
				while read -r l; do
					case "$l" in
					*:1389" "*:0000" 0A "*) return 0 ;;
					esac
				done 2>/dev/null <"$f"
			done
		fi
		ktap_nap 0.1
		i=$((i + 1))
	done
	return 1
}

# tcp_xfer KB: KB KiB from A to B's nc on 10.77.0.2, intact (md5 of
# what was sent and of what arrived); /tmp/rxstat gets the packets and
# bytes ib1 received meanwhile
tcp_xfer() {
	local got want i
	head -c $(($1 * 1024)) /dev/urandom >/tmp/tx &&
		md5sum </tmp/tx >/tmp/tx.md5 || return 1
	rm -f /tmp/rx /tmp/rxstat /tmp/nc.pid
	[ -p /tmp/ncin ] || mkfifo /tmp/ncin
	# the listener's stdin never ends: it stops at the sender's EOF.
	# Nothing of it on the output this check's caller reads (a listener
	# left behind by a failed transfer must not hold the scenario)
	/usr/bin/ip netns exec B sh -c 'S=/sys/class/net/ib1/statistics
		read -r p0 <$S/rx_packets; read -r b0 <$S/rx_bytes
		nc -l -p 5001 <>/tmp/ncin >/tmp/rx 2>/tmp/ncl.err &
		echo $! >/tmp/nc.pid
		wait $!
		read -r p1 <$S/rx_packets; read -r b1 <$S/rx_bytes
		echo $((p1 - p0)) $((b1 - b0)) >/tmp/rxstat' \
		</dev/null >/dev/null 2>&1 &
	if ! nc_listening; then
		echo "no listener on B's port 5001 within 30 s"
		read -r i </tmp/nc.pid && kill "$i" 2>/dev/null
		return 1
	fi
	if ! inns A timeout $((30 + $1 / 16)) nc 10.77.0.2 5001 </tmp/tx; then
		read -r i </tmp/nc.pid && kill "$i" 2>/dev/null
		return 1
	fi
	i=0
	while [ ! -s /tmp/rxstat ] && [ $i -lt 300 ]; do
		ktap_nap 0.2
		i=$((i + 1))
	done
	read -r want </tmp/tx.md5
	got=$(md5sum </tmp/rx)
	echo "sent $1 KiB, md5 $want; received: md5 $got"
	[ "$got" = "$want" ]
}
# intact, and in at least as many packets as 2044-byte datagrams take:
# DG_KB KiB is several windows of such segments (the initial congestion
# window is 10 of them)
tcp_xfer $DG_KB >/tmp/tcp.out 2>&1 || bad="$bad transfer"
read -r rxp rxb 2>/dev/null </tmp/rxstat
[ "${rxp:-0}" -ge $((DG_KB * 1024 / 2044)) ] ||
	bad="$bad ${rxb:-?}-bytes-in-${rxp:-?}-packets"
report "TCP: ${DG_KB} KiB A -> B arrive intact, in datagram-sized segments" \
	"$(cat /tmp/tcp.out /tmp/ncl.err 2>/dev/null)"

# cmc DEV GROUP MSG: $cmv, the IB CM's count of a message type on the
# loop device's port (-1 when there is none)
cmc() {
	read -r cmv 2>/dev/null <$IB/$1/ports/1/$2/$3 || cmv=-1
}

# ping_rx NS DEV ADDR SIZE: one ping of SIZE bytes from NS; prints how
# many packets DEV received meanwhile, or "lost"
ping_rx() {
	inns "$1" sh -c 'S=/sys/class/net/$1/statistics
		read -r a <$S/rx_packets
		ping -c 1 -s $3 -W 5 $2 >/dev/null 2>&1 || { echo lost; exit; }
		read -r b <$S/rx_packets
		echo $((b - a))' - "$2" "$3" "$4"
}

# 12: connected mode, through sysfs in A (and an unknown mode refused
# there) and rtnl in B
step "case 12"
cmc loop0 cm_tx_msgs req
req0=$cmv
cmc loop1 cm_tx_msgs req
req1=$cmv
a=$(inns A sh -c 'F=/sys/class/net/ib0
	echo connected >$F/mode || echo refused
	read -r m <$F/mode; read -r u <$F/mtu; echo $m $u
	echo bogus >$F/mode' 2>&1)
o=$(ip -n B link set ib1 type ipoib mode connected 2>&1 &&
	ip -n B -d link show ib1 2>&1)
case "$a" in "connected 65520$KTAP_NL"*"nvalid argument"*) ;; *) bad="$bad A:sysfs" ;; esac
case "$o" in *" mtu 65520 "*"ipoib pkey 0xffff mode connected "*) ;; *) bad="$bad B:rtnl" ;; esac
report "connected mode (sysfs in A, rtnl in B): mode, ip -d, MTU 65520; an unknown mode refused (EINVAL)" \
	"$a$KTAP_NL$o"

# 13: large pings both ways on connections: one REQ from each side,
# and each reply arrives in one packet (a datagram takes 15 fragments)
step "case 13"
ra=$(ping_rx A ib0 10.77.0.2 $PING_SIZE)
rb=$(ping_rx B ib1 10.77.0.1 $PING_SIZE)
case "$ra $rb" in [1-3]" "[1-3]) ;; *) bad="$bad received:A=$ra,B=$rb" ;; esac
cmc loop0 cm_tx_msgs req
[ "$cmv" -gt "$req0" ] || bad="$bad no-REQ-from-A"
cmc loop1 cm_tx_msgs req
[ "$cmv" -gt "$req1" ] || bad="$bad no-REQ-from-B"
cmc loop1 cm_rx_msgs rtu
[ "$cmv" -gt 0 ] || bad="$bad no-RTU-at-B"
report "ping -s $PING_SIZE both ways on RC connections (REQ from each side, one packet per reply)"

# 14: TCP on the connection, in segments larger than a datagram takes
step "case 14"
tcp_xfer $CM_KB >/tmp/tcp.out 2>&1 || bad="$bad transfer"
read -r rxp rxb 2>/dev/null </tmp/rxstat
[ "${rxp:-0}" -gt 0 ] && [ $((rxb / rxp)) -gt 2044 ] ||
	bad="$bad ${rxb:-?}-bytes-in-${rxp:-?}-packets"
report "TCP: ${CM_KB} KiB A -> B intact in connected mode, packets above the datagram MTU" \
	"$(cat /tmp/tcp.out /tmp/ncl.err 2>/dev/null)"

# 15: B back to datagram (sysfs): the broadcast group's MTU, B's
# connection taken down (its DREQ); A, still connected, keeps sending on
# its own connection (B accepts in either mode), B answers in fragments
step "case 15"
cmc loop1 cm_tx_msgs dreq
dreq1=$cmv
b=$(inns B sh -c 'F=/sys/class/net/ib1
	echo datagram >$F/mode; read -r m <$F/mode; read -r u <$F/mtu
	echo $m $u' 2>&1)
check B "$b" "datagram 2044"
i=0
cmc loop1 cm_tx_msgs dreq
while [ "$cmv" -le "$dreq1" ] && [ $i -lt 50 ]; do
	ktap_nap 0.2
	cmc loop1 cm_tx_msgs dreq
	i=$((i + 1))
done
[ "$cmv" -gt "$dreq1" ] || bad="$bad no-DREQ-from-B"
cmc loop1 cm_tx_msgs req
req1=$cmv
ra=$(ping_rx A ib0 10.77.0.2 $PING_SIZE)
case "$ra" in lost|[0-9]) bad="$bad A-received-$ra" ;; esac
cmc loop1 cm_tx_msgs req
check no-REQ-from-B "$cmv" "$req1"
report "B back to datagram (sysfs): MTU 2044, its connection taken down; A's still carries, B answers in fragments ($ra)" \
	"$b"

# 16: a peer without connections (A's neighbour entries for B without
# the flag): a packet too large for a datagram is not sent but comes
# back as ICMP, and the PMTU drops to the broadcast group's MTU (the
# fragmented datagrams that follow are case 15's)
step "case 16"
# (a1b: ib1's address, from case 9)
nocm="00${a1b#??}"
o=$(ip -n A -b - 2>&1 <<NEOF
neigh replace 10.77.0.2 lladdr $nocm dev ib0 nud permanent
neigh replace fd77::2 lladdr $nocm dev ib0 nud permanent
NEOF
)
a=$(inns A sh -c 'S=/sys/class/net/ib0/statistics
	read -r e0 <$S/tx_errors
	ping -c 1 -s 30000 -W 1 10.77.0.2 >/dev/null 2>&1 && echo "went4"
	ping -6 -c 1 -s 30000 -W 1 fd77::2 >/dev/null 2>&1 && echo "went6"
	/usr/bin/ip route get 10.77.0.2; /usr/bin/ip -6 route get fd77::2
	read -r e1 <$S/tx_errors; echo "errors $((e1 - e0))"' 2>&1)
ip -n A -b - >/dev/null 2>&1 <<NEOF
neigh del 10.77.0.2 dev ib0
neigh del fd77::2 dev ib0
NEOF
case "$a" in *went4*) bad="$bad ipv4" ;; esac
case "$a" in *went6*) bad="$bad ipv6" ;; esac
case "$a" in *"10.77.0.2 "*" mtu 2044"*"fd77::2 "*" mtu 2044"*) ;; *) bad="$bad no-pmtu" ;; esac
case "$a" in *"errors "[2-9]*) ;; *) bad="$bad tx_errors" ;; esac
report "a peer without the RC flag: not sent, ICMP frag needed / packet too big, PMTU 2044" \
	"$o$KTAP_NL$a"

# 17: ip -d and umcast
step "case 17"
# (one "ip netns exec" for all of it: each costs a mount namespace)
d=$(inns A sh -c 'F=/sys/class/net/ib0/umcast
	echo 1 >$F; read -r u <$F; echo "umcast set: $u"
	/usr/bin/ip -d link show ib0
	echo 0 >$F; read -r u <$F; echo "umcast cleared: $u"' 2>&1)
case "$d" in *"ipoib pkey 0xffff mode connected umcast 0001 "*) ;; *) bad="$bad ip-d" ;; esac
case "$d" in *"umcast set: 1$KTAP_NL"*) ;; *) bad="$bad umcast-set" ;; esac
case "$d" in *"umcast cleared: 0") ;; *) bad="$bad umcast-cleared" ;; esac
report "ip -d link: ipoib pkey, mode, umcast; umcast set and cleared" "$d"

# 18: children on P_Key 0x8001: rtnl in A, sysfs create_child in B;
# made without a shared receive queue, so that their connections in
# case 21 receive on rings of their own
step "case 18"
echo 0 >/sys/module/ib_ipoib/parameters/cm_srq
mk_children() {
	ip -n A -b - <<NEOF &&
link add link ib0 name ib0.8001 type ipoib pkey 0x8001
addr add 10.78.0.1/24 dev ib0.8001
link set ib0.8001 up
NEOF
	inns B sh -c 'echo 0x8001 >/sys/class/net/ib1/create_child' &&
	printf 'addr add 10.78.0.2/24 dev ib1.8001\nlink set ib1.8001 up\n' |
		ip -n B -b - &&
	wait_carrier A ib0.8001 30 && wait_carrier B ib1.8001 30
}
ktap_test "P_Key 0x8001 children (ip link add ... type ipoib; create_child) come up" \
	mk_children
echo 1 >/sys/module/ib_ipoib/parameters/cm_srq

# 19
step "case 19"
# one SRQ on loop0: ib0's (ib0.8001 has none)
r=$(rdma res show loop0 2>&1)
case "$r " in *" srq 1 "*) ;; *) bad="$bad srq:$r" ;; esac
a=$(inns A sh -c 'F=/sys/class/net/ib0.8001
	read -r p <$F/pkey; read -r b <$F/broadcast; echo $p $b' 2>&1)
check pkey+bcast "$a" \
	"0x8001 00:ff:ff:ff:ff:12:40:1b:80:01:00:00:00:00:00:00:ff:ff:ff:ff"
check parent "$(inns B cat /sys/class/net/ib1.8001/parent)" ib1
l=$(ip -n A -o link show ib0.8001 2>&1)
case "$l" in *"ib0.8001@ib0"*) ;; *) bad="$bad no-@ib0" ;; esac
report "children: pkey 0x8001, parent, broadcast of 0x8001, linked to ib0, no SRQ (cm_srq=0)" "$l"

# 20
step "case 20"
ktap_test "ping over P_Key 0x8001, A -> B" inns A ping -c 2 -A -W 5 10.78.0.2

# 21: the children in connected mode (rtnl in A, sysfs in B), a large
# ping on their connections; a child made in connected mode
step "case 21"
cmc loop1 cm_tx_msgs req
req1=$cmv
o=$(ip -n A link set ib0.8001 type ipoib mode connected 2>&1) ||
	bad="$bad rtnl"
b=$(inns B sh -c 'F=/sys/class/net/ib1.8001
	echo connected >$F/mode; read -r m <$F/mode; read -r u <$F/mtu
	read -r a <$F/statistics/rx_packets
	ping -c 1 -s $1 -W 5 10.78.0.1 >/dev/null 2>&1 || echo lost
	read -r b <$F/statistics/rx_packets
	echo $m $u $((b - a))' - $PING_SIZE 2>&1)
case "$b" in "connected 65520 "[1-3]) ;; *) bad="$bad B:$b" ;; esac
cmc loop1 cm_tx_msgs req
[ "$cmv" -gt "$req1" ] || bad="$bad no-REQ"
d=$(ip -n A -d -b - 2>&1 <<NEOF
link add link ib0 name ib0.8002 type ipoib pkey 0x8002 mode connected
link show ib0.8002
link del ib0.8002
NEOF
)
case "$d" in *" mtu 65520 "*"ipoib pkey 0x8002 mode connected "*) ;; *) bad="$bad ip-link-add" ;; esac
report "P_Key 0x8001 children in connected mode: ping -s $PING_SIZE on a connection; ip link add ... mode connected" \
	"$o$KTAP_NL$b$KTAP_NL$d"

# 22: refusals
step "case 22"
o1=$(inns B sh -c 'echo 0x8001 >/sys/class/net/ib1/create_child' 2>&1)
r1=$?
o2=$(ip -n A link add link ib0.8001 name ib0.x type ipoib pkey 0x8002 2>&1)
r2=$?
o3=$(inns B sh -c 'echo 0x8000 >/sys/class/net/ib1/create_child' 2>&1)
r3=$?
[ $r1 != 0 ] && case "$o1" in *"not unique"*) ;; *) false ;; esac ||
	bad="$bad dup"
[ $r2 != 0 ] && case "$o2" in *"cannot have children"*) ;; *) false ;; esac ||
	bad="$bad child-of-child"
[ $r3 != 0 ] && case "$o3" in *"nvalid argument"*) ;; *) false ;; esac ||
	bad="$bad pkey-8000"
report "refused: a second 0x8001 child (ENOTUNIQ), a child of a child, P_Key 0x8000 (EINVAL)" \
	"$o1$KTAP_NL$o2$KTAP_NL$o3"

# 23: delete_child
step "case 23"
inns B sh -c 'echo 0x8001 >/sys/class/net/ib1/delete_child'
rc=$?
l=$(ip -n B -o link show 2>&1)
case "$l" in *ib1.8001*) bad="$bad still-there" ;; esac
[ $rc = 0 ] || bad="$bad rc=$rc"
report "delete_child removes ib1.8001" "$l"

# 24: unload with everything up (ib0 and ib0.8001 in A, ib1 in B), A's
# connection to B established
step "case 24"
rmmod ib_ipoib
rc=$?
la=$(ip -n A -o link show 2>&1)
lb=$(ip -n B -o link show 2>&1)
[ $rc = 0 ] || bad="$bad rmmod=$rc"
case "$la$lb" in *ib[01]*) bad="$bad left" ;; esac
report "rmmod ib_ipoib with its interfaces up and connected: none left" "$la$KTAP_NL$lb"

# 25: again, then the RDMA devices go from under the open interfaces
step "case 25"
dev_gone() {
	modprobe ib_ipoib &&
		printf 'link set ib0 up\nlink set ib1 up\n' | ip -b - &&
		wait_carrier - ib0 30 && wait_carrier - ib1 30 || return 1
	# (this runs in a subshell: opensm is not its child to wait for)
	kill $osm_pid
	i=0
	while running_pid $osm_pid && [ $i -lt 300 ]; do
		ktap_nap 0.1
		i=$((i + 1))
	done
	step "case 25: opensm gone"
	rmmod ib_umad && rmmod rdma_loop || return 1
	! ls -d /sys/class/net/ib0 /sys/class/net/ib1 2>/dev/null
}
ktap_test "ib_ipoib again; the loop devices removed under ib0 and ib1 (up)" \
	dev_gone

# 26
step "case 26"
unload_all() {
	printf 'netns del A\nnetns del B\n' | ip -force -b -
	rmmod ib_ipoib && rmmod ib_cm && rmmod rdmavt && rmmod ib_uverbs && rmmod_settle ib_core
}
ktap_test "ib_ipoib, ib_cm, rdmavt and ib_core unload" unload_all

# 27
step "case 27"
health_check
ktap_finish
