#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Debian's opensm and infiniband-diags on the loop fabric: three managed
# loop devices (port 1 in INIT, LID 0) cabled to the emulated switch's
# ports 1, 2 and 3.  The real opensm, bound to loop0 through ib_umad,
# sweeps the subnet (directed-route SMPs through rdmavt's SMA and the
# switch's), hands out LIDs and brings the ports to ACTIVE; sysfs,
# "rdma link", ibstat, sminfo, smpquery (LID-routed and directed
# route), ibnetdiscover, perfquery and saquery (GetTable answered with
# RMPP by opensm's SA through the kernel's RMPP) are then checked field
# by field against what the fabric is.  The diags run on loop1 (not the
# SM's port), so their MADs cross the switch.  opensm is killed, then
# everything unloads without a splat or a leak.
# needs: /usr/sbin/opensm /usr/sbin/ibstat /usr/sbin/sminfo
# needs: /usr/sbin/smpquery /usr/sbin/ibnetdiscover /usr/sbin/saquery
# needs: /usr/sbin/perfquery /usr/bin/rdma
# timeout: 900

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

IB=/sys/class/infiniband
SW_GUID=0x02fa4e0200000001
OSM_LOG=/tmp/opensm.log
# the diags' local port: loop1's port 1
DIAG="-C loop1 -P 1"


# sysfs value of port 1 of device $1, attribute $2 ("4: ACTIVE" -> ACTIVE,
# "0x3" -> 3)
port_attr() {
	local v
	v=$(cat $IB/"$1"/ports/1/"$2" 2>/dev/null)
	case "$2" in
	state | phys_state) echo "${v#*: }" ;;
	*) printf '%d\n' "$v" ;;
	esac
}

# "02fa:4e01:0000:0100" -> "0x02fa4e0100000100"
node_guid() {
	echo "0x$(tr -d ':' <$IB/"$1"/node_guid)"
}

# the port GUID: the lower half of GID 0
port_guid() {
	echo "0x$(cut -d: -f5-8 <$IB/"$1"/ports/1/gids/0 | tr -d ':')"
}

# the value of "Name:......value" in smpquery's or perfquery's output
field() {
	echo "$1" | sed -n "s/^$2:\.*//p" | head -n 1
}

# saquery's "		name.....value"
sa_field() {
	echo "$1" | sed -n "s/^[[:space:]]*$2\.*//p"
}

# Compare: check NAME GOT WANT; failures collect in $bad.
bad=
check() {
	[ "$2" = "$3" ] || bad="$bad $1='$2'(want '$3')"
}

# report NAME OUTPUT: pass when $bad is empty, else fail with the
# output as diagnostics
report() {
	if [ -z "$bad" ]; then
		ktap_pass "$1"
	else
		echo "$2" | sed 's/^/# /'
		ktap_fail "$1" "$bad"
	fi
	bad=
}

dump_osm_log() {
	[ -f $OSM_LOG ] || return
	echo "# opensm log (errors, then the last 40 lines):"
	grep -E ' ERR [0-9A-F]+:' $OSM_LOG | head -n 40 | sed 's/^/# /'
	tail -n 40 $OSM_LOG | sed 's/^/# /'
}

ktap_plan 26
# each case's start in the kernel log too: the console shows where a
# run stands (ttyS1 gets the KTAP only when a case ends)
step() {
	echo "72-opensm: $*" >/dev/kmsg
}
health_mark

# 1
step "case 1"
ktap_test "rdma_loop (3 managed devices) and ib_umad load" sh -c \
	'modprobe rdma_loop devices=3 managed=1 && modprobe ib_umad'

# 2: managed ports wait for an SM
step "case 2"
for d in loop0 loop1 loop2; do
	check "$d.state" "$(port_attr $d state)" INIT
	check "$d.phys_state" "$(port_attr $d phys_state)" LinkUp
	check "$d.lid" "$(port_attr $d lid)" 0
	check "$d.sm_lid" "$(port_attr $d sm_lid)" 0
done
report "ports start in INIT with LID 0" "$(ls -l $IB/)"

# 3: opensm on loop0
step "case 3"
mkdir -p /var/cache/opensm /etc/opensm /var/log /run
rm -f $OSM_LOG
SM_GUID=$(port_guid loop0)
# -d 2: flush the log after every line (opensm flushes only after an
# error or a SYS line otherwise, and "SUBNET UP" is an INFO line)
opensm -d 2 -g "$SM_GUID" -f $OSM_LOG </dev/null >/tmp/opensm.out 2>&1 &
osm_pid=$!
# up to 180 s by the clock (an iteration takes seconds under TCG)
t0=$(date +%s)
i=0
while [ $i -lt 180 ]; do
	n=0
	for d in loop0 loop1 loop2; do
		[ "$(port_attr $d state)" = ACTIVE ] && n=$((n + 1))
	done
	[ $n = 3 ] && grep -q 'SUBNET UP' $OSM_LOG 2>/dev/null && break
	sleep 1
	i=$(($(date +%s) - t0))
done
up=$(grep -c 'SUBNET UP' $OSM_LOG 2>/dev/null)
if [ $n = 3 ] && [ "${up:-0}" -gt 0 ] && kill -0 $osm_pid 2>/dev/null; then
	ktap_pass "opensm brings the three ports to ACTIVE, SUBNET UP (${i}s)"
else
	sed 's/^/# /' /tmp/opensm.out
	dump_osm_log
	ktap_fail "opensm brings the three ports to ACTIVE, SUBNET UP (${i}s)" \
		"$n ACTIVE, SUBNET UP logged ${up:-0} time(s)"
fi

# 4: sysfs
step "case 4"
SM_LID=$(port_attr loop0 lid)
L0=$(port_attr loop0 lid)
L1=$(port_attr loop1 lid)
L2=$(port_attr loop2 lid)
for d in loop0 loop1 loop2; do
	check "$d.state" "$(port_attr $d state)" ACTIVE
	check "$d.phys_state" "$(port_attr $d phys_state)" LinkUp
	check "$d.sm_lid" "$(port_attr $d sm_lid)" "$SM_LID"
	l=$(port_attr $d lid)
	[ "$l" -ge 1 ] && [ "$l" -lt 49152 ] || bad="$bad $d.lid=$l"
done
[ "$L0" != "$L1" ] && [ "$L0" != "$L2" ] && [ "$L1" != "$L2" ] ||
	bad="$bad lids $L0 $L1 $L2 not distinct"
report "sysfs: ACTIVE, distinct LIDs ($L0 $L1 $L2), SM LID $SM_LID" \
	"$(grep . $IB/*/ports/1/state $IB/*/ports/1/lid $IB/*/ports/1/sm_lid)"

# 5: rdma link
step "case 5"
out=$(rdma link show 2>&1)
for d in loop0 loop1 loop2; do
	l=$(port_attr $d lid)
	echo "$out" | grep -q "^link $d/1 .* lid $l sm_lid $SM_LID lmc 0 state ACTIVE physical_state LINK_UP" ||
		bad="$bad $d"
done
report "rdma link show: LIDs, SM LID, ACTIVE, LINK_UP" "$out"

# 6: ibstat
step "case 6"
for d in loop0 loop1 loop2; do
	out=$(ibstat $d 1 2>&1)
	check "$d.State" "$(echo "$out" | sed -n 's/^State: //p')" Active
	check "$d.Physical" "$(echo "$out" | sed -n 's/^Physical state: //p')" LinkUp
	check "$d.Base_lid" "$(echo "$out" | sed -n 's/^Base lid: //p')" "$(port_attr $d lid)"
	check "$d.SM_lid" "$(echo "$out" | sed -n 's/^SM lid: //p')" "$SM_LID"
	check "$d.Port_GUID" "$(echo "$out" | sed -n 's/^Port GUID: //p')" "$(port_guid $d)"
	check "$d.Link_layer" "$(echo "$out" | sed -n 's/^Link layer: //p')" InfiniBand
done
report "ibstat: Active, LinkUp, Base lid, SM lid, Port GUID" "$(ibstat 2>&1)"

# 7: sminfo (LID-routed SubnGet(SMInfo) from loop1 to the SM's port)
step "case 7"
out=$(sminfo $DIAG 2>&1)
want="sminfo: sm lid $SM_LID sm guid $(printf '0x%x' "$SM_GUID"), activity count"
case "$out" in
"$want"*" state 3 SMINFO_MASTER") ;;
*) bad="wanted '$want ... state 3 SMINFO_MASTER'" ;;
esac
report "sminfo: the SM's LID, GUID, MASTER" "$out"

# 8: smpquery nodeinfo by LID
step "case 8"
for d in loop0 loop2; do
	l=$(port_attr $d lid)
	out=$(smpquery $DIAG nodeinfo "$l" 2>&1)
	check "$d.NodeType" "$(field "$out" NodeType)" "Channel Adapter"
	check "$d.NumPorts" "$(field "$out" NumPorts)" 1
	check "$d.Guid" "$(field "$out" Guid)" "$(node_guid $d)"
	check "$d.PortGuid" "$(field "$out" PortGuid)" "$(port_guid $d)"
	check "$d.LocalPort" "$(field "$out" LocalPort)" 1
done
report "smpquery nodeinfo LID: type, GUIDs, port" "$out"

# 9: smpquery portinfo by LID
step "case 9"
out=$(smpquery $DIAG portinfo "$L2" 1 2>&1)
check Lid "$(field "$out" Lid)" "$L2"
check SMLid "$(field "$out" SMLid)" "$SM_LID"
check LinkState "$(field "$out" LinkState)" Active
check PhysLinkState "$(field "$out" PhysLinkState)" LinkUp
check LMC "$(field "$out" LMC)" 0
check NeighborMTU "$(field "$out" NeighborMTU)" 4096
check SubnetTimeout "$(field "$out" SubnetTimeout)" 18
check LinkSpeedExtActive "$(field "$out" LinkSpeedExtActive)" "25.78125 Gbps"
report "smpquery portinfo LID 1: LID, SM LID, Active" "$out"

# 10, 11: directed route through the switch
step "case 10, 11"
out=$(smpquery -C loop0 -P 1 -D nodeinfo 0,1 2>&1)
check NodeType "$(field "$out" NodeType)" Switch
check Guid "$(field "$out" Guid)" $SW_GUID
check NumPorts "$(field "$out" NumPorts)" 8
# loop0 was created first: switch port 1
check LocalPort "$(field "$out" LocalPort)" 1
report "smpquery -D nodeinfo 0,1: the switch, reached on port 1" "$out"
out=$(smpquery -C loop0 -P 1 -D nodeinfo 0,1,3 2>&1)
check NodeType "$(field "$out" NodeType)" "Channel Adapter"
check Guid "$(field "$out" Guid)" "$(node_guid loop2)"
report "smpquery -D nodeinfo 0,1,3: loop2 behind switch port 3" "$out"

# 12: the switch's ports, as opensm left them (its Sets carry
# SMSupportsExtendedSpeeds in the attribute modifier)
step "case 12"
for p in 1 2 3; do
	out=$(smpquery -C loop0 -P 1 -D portinfo 0,1 $p 2>&1)
	check "p$p.LinkState" "$(field "$out" LinkState)" Active
	check "p$p.PhysLinkState" "$(field "$out" PhysLinkState)" LinkUp
	check "p$p.NeighborMTU" "$(field "$out" NeighborMTU)" 4096
	check "p$p.LinkSpeedExtActive" "$(field "$out" LinkSpeedExtActive)" "25.78125 Gbps"
	# opensm writes "all supported" (LinkSpeedExtEnabled 31, the
	# others 15 or 255): what is supported reads back
	check "p$p.LinkSpeedExtEnabled" "$(field "$out" LinkSpeedExtEnabled)" \
		"14.0625 Gbps or 25.78125 Gbps"
	check "p$p.LinkSpeedEnabled" "$(field "$out" LinkSpeedEnabled)" \
		"2.5 Gbps or 5.0 Gbps or 10.0 Gbps"
	check "p$p.LinkWidthEnabled" "$(field "$out" LinkWidthEnabled)" "1X or 4X"
done
report "smpquery -D portinfo 0,1 1..3: the switch's ports as opensm set them" "$out"

# 13: ibnetdiscover
step "case 13"
out=$(ibnetdiscover $DIAG 2>&1)
SW_LID=$(echo "$out" | sed -n 's/^Switch.*base port 0 lid \([0-9]*\) lmc 0$/\1/p')
check switches "$(echo "$out" | grep -c '^Switch')" 1
check cas "$(echo "$out" | grep -c '^Ca')" 3
check switch_line "$(echo "$out" | grep '^Switch' | cut -f1,2)" \
	"$(printf 'Switch\t8 "S-02fa4e0200000001"')"
p=1
for d in loop0 loop1 loop2; do
	g=$(node_guid $d)
	g=${g#0x}
	# ibnetdiscover prints port GUIDs without leading zeros
	pg=$(printf '%x' "$(port_guid $d)")
	l=$(port_attr $d lid)
	# the switch's side of the cable, then the CA's
	echo "$out" | grep -qF "[$p]	\"H-$g\"[1]($pg) 		# \"rdma_loop\" lid $l 4xEDR" ||
		bad="$bad switch-port-$p"
	echo "$out" | grep -qF "[1]($pg) 	\"S-${SW_GUID#0x}\"[$p]		# lid $l lmc 0 \"rdma_loop switch\" lid $SW_LID 4xEDR" ||
		bad="$bad $d-port-1"
	p=$((p + 1))
done
[ -n "$SW_LID" ] || bad="$bad no-switch-lid"
report "ibnetdiscover: 1 switch, 3 CAs on ports 1..3, 4xEDR both ends" "$out"

# 14: LID-routed SMP to the switch's own LID
step "case 14"
out=$(smpquery $DIAG nodeinfo "${SW_LID:-0}" 2>&1)
check NodeType "$(field "$out" NodeType)" Switch
check Guid "$(field "$out" Guid)" $SW_GUID
check LocalPort "$(field "$out" LocalPort)" 2
report "smpquery nodeinfo <switch LID>: answered on port 2 (loop1's)" "$out"

# 15: perfquery, and the counters grow with MAD traffic
step "case 15"
out=$(perfquery $DIAG "$L0" 1 2>&1)
check PortSelect "$(field "$out" PortSelect)" 1
x1=$(field "$out" PortXmitPkts)
r1=$(field "$out" PortRcvPkts)
d1=$(field "$out" PortRcvData)
for i in 1 2 3 4 5; do
	smpquery $DIAG nodeinfo "$L0" >/dev/null 2>&1
done
out2=$(perfquery $DIAG "$L0" 1 2>&1)
x2=$(field "$out2" PortXmitPkts)
r2=$(field "$out2" PortRcvPkts)
d2=$(field "$out2" PortRcvData)
# five SMPs in and five answers out, plus the perfquery in between
[ -n "$r1" ] && [ -n "$r2" ] && [ "$r2" -ge $((r1 + 6)) ] || bad="$bad rcv $r1->$r2"
[ -n "$x1" ] && [ -n "$x2" ] && [ "$x2" -ge $((x1 + 6)) ] || bad="$bad xmit $x1->$x2"
# every MAD packet is LRH+BTH+DETH+256+ICRC = 288 bytes, 72 words
[ -n "$d1" ] && [ -n "$d2" ] && [ $((d2 - d1)) -ge $(((r2 - r1) * 72)) ] ||
	bad="$bad rcvdata $d1->$d2"
report "perfquery LID 1: PortCounters grow with MADs ($r1->$r2 packets in)" "$out2"

# 16: the switch's PMA at its LID: its port 1 (loop0's cable) counts
# what loop0's port counted, sent and received swapped; -x reads the
# extended counters, -R clears them
step "case 16"
dev=$(perfquery $DIAG "$L0" 1 2>&1)
out=$(perfquery $DIAG "${SW_LID:-0}" 1 2>&1)
check PortSelect "$(field "$out" PortSelect)" 1
dx=$(field "$dev" PortXmitPkts)
dr=$(field "$dev" PortRcvPkts)
sx=$(field "$out" PortXmitPkts)
sr=$(field "$out" PortRcvPkts)
# read second, the switch's side saw at least as much, and at most the
# few MADs in between (the reads, opensm's sweeps) more
[ -n "$dx" ] && [ -n "$sr" ] && [ "$dx" -gt 0 ] && [ "$sr" -ge "$dx" ] &&
	[ $((sr - dx)) -le 40 ] || bad="$bad PortRcvPkts=$sr(loop0 sent $dx)"
[ -n "$dr" ] && [ -n "$sx" ] && [ "$dr" -gt 0 ] && [ "$sx" -ge "$dr" ] &&
	[ $((sx - dr)) -le 40 ] || bad="$bad PortXmitPkts=$sx(loop0 got $dr)"
ext=$(perfquery -x $DIAG "${SW_LID:-0}" 1 2>&1)
u=$(field "$ext" PortUnicastRcvPkts)
[ -n "$u" ] && [ "$u" -ge "$sr" ] || bad="$bad PortUnicastRcvPkts=$u"
perfquery -R $DIAG "${SW_LID:-0}" 1 >/dev/null 2>&1 || bad="$bad reset-failed"
out2=$(perfquery $DIAG "${SW_LID:-0}" 1 2>&1)
r2=$(field "$out2" PortRcvPkts)
[ -n "$r2" ] && [ "$r2" -lt 10 ] || bad="$bad after-reset=$r2"
report "perfquery <switch LID> 1: loop0's counters mirrored, -x, -R" "$dev$out$ext$out2"

# 17, 18: saquery NodeRecords (GetTable, RMPP answer)
step "case 17, 18"
out=$(saquery $DIAG NR 2>&1)
check records "$(echo "$out" | grep -c 'NodeRecord dump')" 4
for d in loop0 loop1 loop2; do
	echo "$out" | grep -q "node_guid\.*$(node_guid $d)$" || bad="$bad $d"
	echo "$out" | grep -q "lid\.*$(port_attr $d lid)$" || bad="$bad $d.lid"
done
echo "$out" | grep -q "node_guid\.*$SW_GUID$" || bad="$bad switch"
report "saquery NR: 4 NodeRecords, GUIDs and LIDs" "$out"
out=$(saquery $DIAG NR "$L2" 2>&1)
check records "$(echo "$out" | grep -c 'NodeRecord dump')" 1
check lid "$(sa_field "$out" lid)" "$L2"
check node_guid "$(sa_field "$out" node_guid)" "$(node_guid loop2)"
check port_guid "$(sa_field "$out" port_guid)" "$(port_guid loop2)"
check node_type "$(sa_field "$out" node_type)" "Channel Adapter"
report "saquery NR LID: one NodeRecord" "$out"

# 19, 20: PathRecords
step "case 19, 20"
out=$(saquery $DIAG --src-to-dst "$L0:$L2" 2>&1)
check records "$(echo "$out" | grep -c 'PathRecord dump')" 1
check slid "$(sa_field "$out" slid)" "$L0"
check dlid "$(sa_field "$out" dlid)" "$L2"
check sgid "$(sa_field "$out" sgid)" "fe80::2fa:4e01:0:101"
check dgid "$(sa_field "$out" dgid)" "fe80::2fa:4e01:0:301"
check pkey "$(sa_field "$out" pkey)" 0xFFFF
# exactly 4096, exactly 100 Gb/s (4X EDR)
check mtu "$(sa_field "$out" mtu)" 0x85
check rate "$(sa_field "$out" rate)" 0x90
report "saquery --src-to-dst: PathRecord LID $L0 to $L2" "$out"
out=$(saquery $DIAG PR 2>&1)
# every ordered pair of the four ports
check records "$(echo "$out" | grep -c 'PathRecord dump')" 16
report "saquery PR: 16 PathRecords" "$(echo "$out" | head -n 40)"

# 21: ServiceRecords (none registered: an empty table) and ClassPortInfo
step "case 21"
out=$(saquery $DIAG SR 2>&1)
rc=$?
check rc "$rc" 0
check records "$(echo "$out" | grep -c 'ServiceRecord dump')" 0
out2=$(saquery $DIAG CPI 2>&1)
check base_version "$(sa_field "$out2" 'Base version')" 1
check class_version "$(sa_field "$out2" 'Class version')" 2
report "saquery SR (empty table), saquery CPI" "$out$out2"

# 22: opensm stops
step "case 22"
kill $osm_pid 2>/dev/null
i=0
while kill -0 $osm_pid 2>/dev/null && [ $i -lt 30 ]; do
	sleep 1
	i=$((i + 1))
done
if kill -0 $osm_pid 2>/dev/null; then
	kill -9 $osm_pid
	ktap_fail "opensm exits on SIGTERM" "still running after 30 s"
else
	errs=$(grep -E ' ERR [0-9A-F]+:' $OSM_LOG)
	if [ -z "$errs" ]; then
		ktap_pass "opensm exits on SIGTERM, no error in its log"
	else
		dump_osm_log
		ktap_fail "opensm exits on SIGTERM, no error in its log" \
			"$(echo "$errs" | head -n 3)"
	fi
fi
wait $osm_pid 2>/dev/null

# 23: IsSM went with issm0's file
step "case 23"
cm=$(printf '%d' "$(cat $IB/loop0/ports/1/cap_mask)")
if [ $((cm & 2)) = 0 ]; then
	ktap_pass "IsSM cleared when opensm closed issm0"
else
	ktap_fail "IsSM cleared when opensm closed issm0" "cap_mask $cm"
fi

# 24
step "case 24"
unload_all() {
	rmmod ib_umad && rmmod rdma_loop && rmmod rdmavt && rmmod_settle ib_core
}
ktap_test "ib_umad, rdma_loop, rdmavt and ib_core unload" unload_all

# 25, 26
step "case 25, 26"
health_check
ktap_finish
