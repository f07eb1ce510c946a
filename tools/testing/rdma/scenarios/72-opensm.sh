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


# Every launch costs tens of milliseconds under TCG (50 ms a fork of the
# shell, 100 a busybox applet, 200 to 300 a diag tool): sysfs values are
# read by the shell, a tool's output of a few lines is parsed by the
# shell (which reads a byte a syscall, some 40 us each), a long one by
# one grep, and what only a failure needs is made only then.

# pa DEV ATTR: v = port 1's sysfs attribute ATTR of DEV ("4: ACTIVE" ->
# ACTIVE, "0x3" -> 3; empty when unreadable)
pa() {
	v=
	read -r v 2>/dev/null <$IB/"$1"/ports/1/"$2"
	[ -n "$v" ] || return 1
	case "$2" in
	state | phys_state) v=${v#*: } ;;
	*) v=$((v)) ;;
	esac
}

# ng DEV: g = DEV's node GUID ("02fa:4e01:0000:0100" -> 0x02fa4e0100000100)
ng() {
	local IFS=: x
	read -r x <$IB/"$1"/node_guid
	set -- $x
	g=0x$1$2$3$4
}

# pg DEV: g = the port GUID, the lower half of GID 0
pg() {
	local IFS=: x
	read -r x <$IB/"$1"/ports/1/gids/0
	set -- $x
	g=0x$5$6$7$8
}

# fields TEXT: for each line "NAME:....VALUE" of smpquery's or
# perfquery's output, F_NAME=VALUE (the first such line of each NAME,
# the dots after the colon dropped); the last call's F_ variables go.
F_SET=
fields() {
	local l k v d
	for k in $F_SET; do unset "F_$k"; done
	F_SET=
	while IFS= read -r l; do
		k=${l%%:*}
		case "$k" in
		"$l" | "" | *[!A-Za-z0-9_]*) continue ;;
		esac
		case " $F_SET " in
		*" $k "*) continue ;;
		esac
		v=${l#*:}
		d=${v%%[!.]*}
		eval "F_$k=\${v#\"\$d\"}"
		F_SET="$F_SET $k"
	done <<EOF
$1
EOF
}

# sa_field TEXT NAME: v = the value of each line "<blanks>NAME.....VALUE"
# of saquery's output (the values of several such lines, a line each)
sa_field() {
	local l x
	v=
	while read -r l; do
		case "$l" in
		"$2"*)
			x=${l#"$2"}
			x=${x#"${x%%[!.]*}"}
			v=${v:+$v$KTAP_NL}$x
			;;
		esac
	done <<EOF
$1
EOF
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
		ktap_quote "$2"
		ktap_fail "$1" "$bad"
	fi
	bad=
}

# report_run NAME COMMAND...: the same, the diagnostics COMMAND's output,
# which runs only on a failure
report_run() {
	local name=$1
	shift
	[ -z "$bad" ] || ktap_quote "$("$@" 2>&1)"
	report "$name" ""
}

# running PID: PID is there and has not exited (a child of this shell
# stays a zombie until it is waited for)
running() {
	local a b st r
	read -r a b st r 2>/dev/null </proc/"$1"/stat || return 1
	[ "$st" != Z ]
}

# count TEXT STRING: n = the lines of TEXT that hold STRING (one grep: the
# shell reads a byte a syscall, dearer than a launch beyond 2 KB)
count() {
	n=$(grep -cF -- "$2" <<EOF
$1
EOF
)
}

dump_osm_log() {
	[ -f $OSM_LOG ] || return
	echo "# opensm log (errors, then the last 40 lines):"
	grep -E ' ERR [0-9A-F]+:' $OSM_LOG | head -n 40 | sed 's/^/# /'
	tail -n 40 $OSM_LOG | sed 's/^/# /'
}

ktap_plan 25
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
	pa $d state; check "$d.state" "$v" INIT
	pa $d phys_state; check "$d.phys_state" "$v" LinkUp
	pa $d lid; check "$d.lid" "$v" 0
	pa $d sm_lid; check "$d.sm_lid" "$v" 0
done
report_run "ports start in INIT with LID 0" ls -l $IB/

# 3: opensm on loop0
step "case 3"
mkdir -p /var/cache/opensm /etc/opensm /var/log /run
rm -f $OSM_LOG
pg loop0
SM_GUID=$g
# -d 2: flush the log after every line (opensm flushes only after an
# error or a SYS line otherwise, and "SUBNET UP" is an INFO line)
opensm -d 2 -g "$SM_GUID" -f $OSM_LOG </dev/null >/tmp/opensm.out 2>&1 &
osm_pid=$!
# up to 180 s by the clock (an iteration takes seconds under TCG); a
# round reads the ports' states and naps in the shell, the log is
# searched once all three are ACTIVE
uptime_s() {
	local u r
	read -r u r </proc/uptime
	s=${u%.*}
}
uptime_s
t0=$s
i=0
while [ $i -lt 180 ]; do
	n=0
	for d in loop0 loop1 loop2; do
		pa $d state && [ "$v" = ACTIVE ] && n=$((n + 1))
	done
	[ $n = 3 ] && grep -q 'SUBNET UP' $OSM_LOG 2>/dev/null && break
	ktap_nap 0.5
	uptime_s
	i=$((s - t0))
done
up=$(grep -c 'SUBNET UP' $OSM_LOG 2>/dev/null)
if [ $n = 3 ] && [ "${up:-0}" -gt 0 ] && running $osm_pid; then
	ktap_pass "opensm brings the three ports to ACTIVE, SUBNET UP (${i}s)"
else
	sed 's/^/# /' /tmp/opensm.out
	dump_osm_log
	ktap_fail "opensm brings the three ports to ACTIVE, SUBNET UP (${i}s)" \
		"$n ACTIVE, SUBNET UP logged ${up:-0} time(s)"
fi

# 4: sysfs
step "case 4"
pa loop0 lid; SM_LID=$v
pa loop0 lid; L0=$v
pa loop1 lid; L1=$v
pa loop2 lid; L2=$v
for d in loop0 loop1 loop2; do
	pa $d state; check "$d.state" "$v" ACTIVE
	pa $d phys_state; check "$d.phys_state" "$v" LinkUp
	pa $d sm_lid; check "$d.sm_lid" "$v" "$SM_LID"
	pa $d lid
	[ "$v" -ge 1 ] && [ "$v" -lt 49152 ] || bad="$bad $d.lid=$v"
done
[ "$L0" != "$L1" ] && [ "$L0" != "$L2" ] && [ "$L1" != "$L2" ] ||
	bad="$bad lids $L0 $L1 $L2 not distinct"
report_run "sysfs: ACTIVE, distinct LIDs ($L0 $L1 $L2), SM LID $SM_LID" \
	grep . $IB/loop0/ports/1/state $IB/loop1/ports/1/state \
	$IB/loop2/ports/1/state $IB/loop0/ports/1/lid $IB/loop1/ports/1/lid \
	$IB/loop2/ports/1/lid $IB/loop0/ports/1/sm_lid \
	$IB/loop1/ports/1/sm_lid $IB/loop2/ports/1/sm_lid

# 5: rdma link
step "case 5"
out=$(rdma link show 2>&1)
for d in loop0 loop1 loop2; do
	pa $d lid
	# the line of $d/1, whole
	l=${KTAP_NL}$out$KTAP_NL
	case "$l" in
	*"${KTAP_NL}link $d/1 "*)
		l=${l#*"${KTAP_NL}link $d/1 "}
		l=${l%%"$KTAP_NL"*}
		case " $l" in
		*" lid $v sm_lid $SM_LID lmc 0 state ACTIVE physical_state LINK_UP"*) ;;
		*) bad="$bad $d" ;;
		esac
		;;
	*) bad="$bad $d" ;;
	esac
done
report "rdma link show: LIDs, SM LID, ACTIVE, LINK_UP" "$out"

# 6: ibstat, once for the three CAs: each port's section is the lines
# after "CA 'DEV'" up to the next CA
step "case 6"
out=$(ibstat 2>&1)
for d in loop0 loop1 loop2; do
	ca=
	unset i_st i_ph i_lid i_sm i_pg i_ll
	while read -r l; do
		case "$l" in
		"CA '"*) ca=${l#CA \'}; ca=${ca%\'} ;;
		esac
		[ "$ca" = $d ] || continue
		case "$l" in
		"State: "*) i_st=${l#*: } ;;
		"Physical state: "*) i_ph=${l#*: } ;;
		"Base lid: "*) i_lid=${l#*: } ;;
		"SM lid: "*) i_sm=${l#*: } ;;
		"Port GUID: "*) i_pg=${l#*: } ;;
		"Link layer: "*) i_ll=${l#*: } ;;
		esac
	done <<EOF
$out
EOF
	check "$d.State" "$i_st" Active
	check "$d.Physical" "$i_ph" LinkUp
	pa $d lid
	check "$d.Base_lid" "$i_lid" "$v"
	check "$d.SM_lid" "$i_sm" "$SM_LID"
	pg $d
	check "$d.Port_GUID" "$i_pg" "$g"
	check "$d.Link_layer" "$i_ll" InfiniBand
done
report "ibstat: Active, LinkUp, Base lid, SM lid, Port GUID" "$out"

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
	pa $d lid
	out=$(smpquery $DIAG nodeinfo "$v" 2>&1)
	fields "$out"
	check "$d.NodeType" "$F_NodeType" "Channel Adapter"
	check "$d.NumPorts" "$F_NumPorts" 1
	ng $d
	check "$d.Guid" "$F_Guid" "$g"
	pg $d
	check "$d.PortGuid" "$F_PortGuid" "$g"
	check "$d.LocalPort" "$F_LocalPort" 1
done
report "smpquery nodeinfo LID: type, GUIDs, port" "$out"

# 9: smpquery portinfo by LID
step "case 9"
out=$(smpquery $DIAG portinfo "$L2" 1 2>&1)
fields "$out"
check Lid "$F_Lid" "$L2"
check SMLid "$F_SMLid" "$SM_LID"
check LinkState "$F_LinkState" Active
check PhysLinkState "$F_PhysLinkState" LinkUp
check LMC "$F_LMC" 0
check NeighborMTU "$F_NeighborMTU" 4096
check SubnetTimeout "$F_SubnetTimeout" 18
check LinkSpeedExtActive "$F_LinkSpeedExtActive" "25.78125 Gbps"
report "smpquery portinfo LID 1: LID, SM LID, Active" "$out"

# 10, 11: directed route through the switch
step "case 10, 11"
out=$(smpquery -C loop0 -P 1 -D nodeinfo 0,1 2>&1)
fields "$out"
check NodeType "$F_NodeType" Switch
check Guid "$F_Guid" $SW_GUID
check NumPorts "$F_NumPorts" 8
# loop0 was created first: switch port 1
check LocalPort "$F_LocalPort" 1
report "smpquery -D nodeinfo 0,1: the switch, reached on port 1" "$out"
out=$(smpquery -C loop0 -P 1 -D nodeinfo 0,1,3 2>&1)
fields "$out"
check NodeType "$F_NodeType" "Channel Adapter"
ng loop2
check Guid "$F_Guid" "$g"
report "smpquery -D nodeinfo 0,1,3: loop2 behind switch port 3" "$out"

# 12: the switch's ports, as opensm left them (its Sets carry
# SMSupportsExtendedSpeeds in the attribute modifier)
step "case 12"
for p in 1 2 3; do
	out=$(smpquery -C loop0 -P 1 -D portinfo 0,1 $p 2>&1)
	fields "$out"
	check "p$p.LinkState" "$F_LinkState" Active
	check "p$p.PhysLinkState" "$F_PhysLinkState" LinkUp
	check "p$p.NeighborMTU" "$F_NeighborMTU" 4096
	check "p$p.LinkSpeedExtActive" "$F_LinkSpeedExtActive" "25.78125 Gbps"
	# opensm writes "all supported" (LinkSpeedExtEnabled 31, the
	# others 15 or 255): what is supported reads back
	check "p$p.LinkSpeedExtEnabled" "$F_LinkSpeedExtEnabled" \
		"14.0625 Gbps or 25.78125 Gbps"
	check "p$p.LinkSpeedEnabled" "$F_LinkSpeedEnabled" \
		"2.5 Gbps or 5.0 Gbps or 10.0 Gbps"
	check "p$p.LinkWidthEnabled" "$F_LinkWidthEnabled" "1X or 4X"
done
report "smpquery -D portinfo 0,1 1..3: the switch's ports as opensm set them" "$out"

# 13: ibnetdiscover
step "case 13"
out=$(ibnetdiscover $DIAG 2>&1)
TAB='	'
SW_LID=
sw_lines=0
sw_line=
cas=0
while IFS= read -r l; do
	case "$l" in
	Switch*)
		sw_lines=$((sw_lines + 1))
		# cut -f1,2: the first two tab-separated fields
		case "$l" in
		*"$TAB"*)
			x=${l#*"$TAB"}
			sw_line="${l%%"$TAB"*}$TAB${x%%"$TAB"*}"
			;;
		*) sw_line=$l ;;
		esac
		# "... base port 0 lid N lmc 0" at the end
		x=${l##*base port 0 lid }
		case "$x" in
		"$l") ;;
		*" lmc 0")
			x=${x% lmc 0}
			case "$x" in
			*[!0-9]*) ;;
			*) SW_LID=$x ;;
			esac
			;;
		esac
		;;
	Ca*) cas=$((cas + 1)) ;;
	esac
done <<EOF
$out
EOF
check switches "$sw_lines" 1
check cas "$cas" 3
check switch_line "$sw_line" 'Switch	8 "S-02fa4e0200000001"'
p=1
for d in loop0 loop1 loop2; do
	ng $d
	gh=${g#0x}
	pg $d
	# ibnetdiscover prints port GUIDs without leading zeros
	pgh=${g#0x}
	pgh=${pgh#"${pgh%%[!0]*}"}
	pa $d lid
	# the switch's side of the cable, then the CA's
	case "$out" in
	*"[$p]	\"H-$gh\"[1]($pgh) 		# \"rdma_loop\" lid $v 4xEDR"*) ;;
	*) bad="$bad switch-port-$p" ;;
	esac
	case "$out" in
	*"[1]($pgh) 	\"S-${SW_GUID#0x}\"[$p]		# lid $v lmc 0 \"rdma_loop switch\" lid $SW_LID 4xEDR"*) ;;
	*) bad="$bad $d-port-1" ;;
	esac
	p=$((p + 1))
done
[ -n "$SW_LID" ] || bad="$bad no-switch-lid"
report "ibnetdiscover: 1 switch, 3 CAs on ports 1..3, 4xEDR both ends" "$out"

# 14: LID-routed SMP to the switch's own LID
step "case 14"
out=$(smpquery $DIAG nodeinfo "${SW_LID:-0}" 2>&1)
fields "$out"
check NodeType "$F_NodeType" Switch
check Guid "$F_Guid" $SW_GUID
check LocalPort "$F_LocalPort" 2
report "smpquery nodeinfo <switch LID>: answered on port 2 (loop1's)" "$out"

# 15: perfquery, and the counters grow with MAD traffic
step "case 15"
out=$(perfquery $DIAG "$L0" 1 2>&1)
fields "$out"
check PortSelect "$F_PortSelect" 1
x1=$F_PortXmitPkts
r1=$F_PortRcvPkts
d1=$F_PortRcvData
SMPS=$(tier_pick 2 5)
i=0
while [ $i -lt $SMPS ]; do
	smpquery $DIAG nodeinfo "$L0" >/dev/null 2>&1
	i=$((i + 1))
done
out2=$(perfquery $DIAG "$L0" 1 2>&1)
fields "$out2"
x2=$F_PortXmitPkts
r2=$F_PortRcvPkts
d2=$F_PortRcvData
# $SMPS SMPs in and as many answers out, plus the perfquery in between
[ -n "$r1" ] && [ -n "$r2" ] && [ "$r2" -ge $((r1 + SMPS + 1)) ] || bad="$bad rcv $r1->$r2"
[ -n "$x1" ] && [ -n "$x2" ] && [ "$x2" -ge $((x1 + SMPS + 1)) ] || bad="$bad xmit $x1->$x2"
# every MAD packet is LRH+BTH+DETH+256+ICRC = 288 bytes, 72 words
[ -n "$d1" ] && [ -n "$d2" ] && [ $((d2 - d1)) -ge $(((r2 - r1) * 72)) ] ||
	bad="$bad rcvdata $d1->$d2"
report "perfquery LID 1: PortCounters grow with MADs ($r1->$r2 packets in)" "$out2"

# 16: the switch's PMA at its LID: its port 1 (loop0's cable) counts
# what loop0's port counted, sent and received swapped; -x reads the
# extended counters, -R clears them
step "case 16"
dev=$(perfquery $DIAG "$L0" 1 2>&1)
fields "$dev"
dx=$F_PortXmitPkts
dr=$F_PortRcvPkts
out=$(perfquery $DIAG "${SW_LID:-0}" 1 2>&1)
fields "$out"
check PortSelect "$F_PortSelect" 1
sx=$F_PortXmitPkts
sr=$F_PortRcvPkts
# read second, the switch's side saw at least as much, and at most the
# few MADs in between (the reads, opensm's sweeps) more
[ -n "$dx" ] && [ -n "$sr" ] && [ "$dx" -gt 0 ] && [ "$sr" -ge "$dx" ] &&
	[ $((sr - dx)) -le 40 ] || bad="$bad PortRcvPkts=$sr(loop0 sent $dx)"
[ -n "$dr" ] && [ -n "$sx" ] && [ "$dr" -gt 0 ] && [ "$sx" -ge "$dr" ] &&
	[ $((sx - dr)) -le 40 ] || bad="$bad PortXmitPkts=$sx(loop0 got $dr)"
ext=$(perfquery -x $DIAG "${SW_LID:-0}" 1 2>&1)
fields "$ext"
u=$F_PortUnicastRcvPkts
[ -n "$u" ] && [ "$u" -ge "$sr" ] || bad="$bad PortUnicastRcvPkts=$u"
perfquery -R $DIAG "${SW_LID:-0}" 1 >/dev/null 2>&1 || bad="$bad reset-failed"
out2=$(perfquery $DIAG "${SW_LID:-0}" 1 2>&1)
fields "$out2"
r2=$F_PortRcvPkts
[ -n "$r2" ] && [ "$r2" -lt 10 ] || bad="$bad after-reset=$r2"
report "perfquery <switch LID> 1: loop0's counters mirrored, -x, -R" "$dev$out$ext$out2"

# 17, 18: saquery NodeRecords (GetTable, RMPP answer)
step "case 17, 18"
out=$(saquery $DIAG NR 2>&1)
count "$out" 'NodeRecord dump'
check records "$n" 4
sa_field "$out" node_guid
guids=$KTAP_NL$v$KTAP_NL
sa_field "$out" lid
lids=$KTAP_NL$v$KTAP_NL
for d in loop0 loop1 loop2; do
	ng $d
	case "$guids" in
	*"$KTAP_NL$g$KTAP_NL"*) ;;
	*) bad="$bad $d" ;;
	esac
	pa $d lid
	case "$lids" in
	*"$KTAP_NL$v$KTAP_NL"*) ;;
	*) bad="$bad $d.lid" ;;
	esac
done
case "$guids" in
*"$KTAP_NL$SW_GUID$KTAP_NL"*) ;;
*) bad="$bad switch" ;;
esac
report "saquery NR: 4 NodeRecords, GUIDs and LIDs" "$out"
out=$(saquery $DIAG NR "$L2" 2>&1)
count "$out" 'NodeRecord dump'
check records "$n" 1
sa_field "$out" lid
check lid "$v" "$L2"
sa_field "$out" node_guid
ng loop2
check node_guid "$v" "$g"
sa_field "$out" port_guid
pg loop2
check port_guid "$v" "$g"
sa_field "$out" node_type
check node_type "$v" "Channel Adapter"
report "saquery NR LID: one NodeRecord" "$out"

# 19, 20: PathRecords
step "case 19, 20"
out=$(saquery $DIAG --src-to-dst "$L0:$L2" 2>&1)
count "$out" 'PathRecord dump'
check records "$n" 1
sa_field "$out" slid
check slid "$v" "$L0"
sa_field "$out" dlid
check dlid "$v" "$L2"
sa_field "$out" sgid
check sgid "$v" "fe80::2fa:4e01:0:101"
sa_field "$out" dgid
check dgid "$v" "fe80::2fa:4e01:0:301"
sa_field "$out" pkey
check pkey "$v" 0xFFFF
# exactly 4096, exactly 100 Gb/s (4X EDR)
sa_field "$out" mtu
check mtu "$v" 0x85
sa_field "$out" rate
check rate "$v" 0x90
report "saquery --src-to-dst: PathRecord LID $L0 to $L2" "$out"
out=$(saquery $DIAG PR 2>&1)
# every ordered pair of the four ports
count "$out" 'PathRecord dump'
check records "$n" 16
report_run "saquery PR: 16 PathRecords" eval 'echo "$out" | head -n 40'

# 21: ServiceRecords (none registered: an empty table) and ClassPortInfo
step "case 21"
out=$(saquery $DIAG SR 2>&1)
rc=$?
check rc "$rc" 0
count "$out" 'ServiceRecord dump'
check records "$n" 0
out2=$(saquery $DIAG CPI 2>&1)
sa_field "$out2" 'Base version'
check base_version "$v" 1
sa_field "$out2" 'Class version'
check class_version "$v" 2
report "saquery SR (empty table), saquery CPI" "$out$out2"

# 22: opensm stops
step "case 22"
kill $osm_pid 2>/dev/null
# up to 30 s; opensm is this shell's child: a zombie once it exits
i=0
while running $osm_pid && [ $i -lt 150 ]; do
	ktap_nap 0.2
	i=$((i + 1))
done
if running $osm_pid; then
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
read -r cm <$IB/loop0/ports/1/cap_mask
cm=$((cm))
if [ $((cm & 2)) = 0 ]; then
	ktap_pass "IsSM cleared when opensm closed issm0"
else
	ktap_fail "IsSM cleared when opensm closed issm0" "cap_mask $cm"
fi

# 24
step "case 24"
unload_all() {
	rmmod ib_umad && rmmod rdma_loop && rmmod rdmavt && rmmod ib_uverbs && rmmod_settle ib_core
}
ktap_test "ib_umad, rdma_loop, rdmavt and ib_core unload" unload_all

# 25, 26
step "case 25, 26"
health_check
ktap_finish
