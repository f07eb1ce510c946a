#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# rdma_cm connections over soft-iWARP between two network namespaces,
# made by a kernel ULP that uses only the public API (rdma_test_cm:
# resolve, connect, accept, SEND, RDMA WRITE and READ of 1 to 65536
# bytes with the payloads checked, disconnect), with and without the
# port mapper.
#
# Topology: the guest's initial namespace and namespace tcmns, joined by
# the veth pair vA (198.51.100.1, initial) - vB (198.51.100.2, tcmns); a
# siw device on each end (siwA, siwB; a siw device's sockets live in its
# net device's namespace).  Every rdma_cm id is made in the namespace of
# the process that writes the ULP's command.
#
# Why iwpmd runs in the initial namespace only: the port-mapper client
# of iw_cm, like upstream's, talks to the port mapper over NETLINK_RDMA
# of the initial namespace alone (other namespaces get nldev only,
# Documentation/core/netlink.rst), and iw_cm has one port-mapper client
# for all devices.  So there is one iwpmd, beside siwA, and siwA is the
# device made with port_map=1; siwB keeps IW_F_NO_PORT_MAP (an iwpmd in
# the initial namespace cannot reserve ports of tcmns's addresses).  The
# mapped connection is the one the port mapper exists for: a client on
# siwB connects to a listener on siwA.  iwpmd maps the listener's port
# (ADD_MAPPING: it binds a socket to hold port P, siwA listens on P), the
# client's QUERY_MAPPING makes iwpmd ask the port mapper of the
# listener's address over UDP port 3935 (itself: the address is local
# to it), which answers with P and sends the kernel the REMOTE_INFO that
# the listener's side uses; the client connects to P.  What iwpmd does
# when the remote address has no iwpmd (a listener in tcmns): it resends
# its request every second for 10 s and never answers the kernel, whose
# request ends after iw_cm.pm_timeout_ms with the unmapped addresses;
# that costs 10 s and is left out here.
#
# Covered: a connection each way without port mapping (listening
# sockets in the right namespace on the real port); with port_map=1 and
# Debian's iwpmd under strace: the listener on a mapped port that iwpmd
# reserved, a connection through it passing, the established sockets on
# the mapped port in /proc/net/tcp of both namespaces, iwpmd's UDP
# exchange on port 3935; iwpmd killed while a connect waits for it (a
# clean error or a connection, at once, nothing left behind); "rdma link
# delete" under an established connection, of the listener's device
# (DEVICE_REMOVAL on the server and the listener) and of the client's
# device (DEVICE_REMOVAL on the client), everything freed; a connection
# on unmapped ports after iwpmd is gone; the modules unload (kmemleak is
# asked after the run).
#
# Observability (before the port mapper): the first connection is
# recorded with the trace events of rdma_cm (system rdma_cma) and iw_cm
# through tracefs: the ids attached to siwA and siwB, their state
# changes, ESTABLISHED and DISCONNECTED through both handlers, iw_cm's
# state changes on both devices; with the events disabled again, the
# next connection adds nothing.  That next one is held: Debian's "rdma
# res show cm_id", plain and -j, run in the namespace of each id, lists
# the listener and both ends with the fields compared one by one to what
# the scenario set up (link, state, port space, kernel owner, addresses
# and ports, the client's port read from the ULP's log), filtered by dev
# and by state; the ends' entries go with the connection, the
# listener's with the listener.
# needs: /usr/bin/rdma /usr/bin/ip /usr/sbin/iwpmd /usr/bin/strace
# timeout: 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

IP=/usr/bin/ip
NS=tcmns
A=198.51.100.1
B=198.51.100.2
# the addresses as /proc/net/tcp prints them
AHEX=016433C6
BHEX=026433C6
D=/sys/kernel/debug/rdma_test_cm
ST=/sys/kernel/debug/iwpm/status
PM=/sys/module/siw/parameters/port_map
TRACE=/tmp/iwpmd-netns.strace

ktap_plan 52

# What runs in $NS runs in one shell there, started once (ns_start),
# not in an nsenter or "ip netns exec" each: ins TEXT has it run the
# shell command TEXT, its stdout to $NSO and its stderr to $NSE, and
# returns TEXT's status; ins_send and ins_wait are its two halves, for a
# command the scenario does not wait for at once.  $NS's /proc/net is
# that shell's (/proc/$nspid/net).
NSIN=/tmp/ns.in
NSOUT=/tmp/ns.out
NSO=/tmp/ns.o
NSE=/tmp/ns.e
ns_start() {
	mkfifo $NSIN $NSOUT || return 1
	nsenter --net=/run/netns/$NS sh -c '
		while IFS= read -r c; do
			eval "$c" >'$NSO' 2>'$NSE'
			echo "end $?"
		done' <$NSIN >$NSOUT &
	nspid=$!
	exec 7>$NSIN 8<$NSOUT
	# nsenter has entered $NS once its shell answers
	ins true
}
ins_send() { echo "$*" >&7; }
ins_wait() {
	local l
	IFS= read -r l <&8 || return 1
	return "${l#end }"
}
ins() {
	ins_send "$@"
	ins_wait
}
# nso [FILE]: FILE's ($NSO's) lines on stdout (cat without the process)
nso() {
	local l
	while IFS= read -r l; do
		printf '%s\n' "$l"
	done <"${1:-$NSO}"
}
# nsv: nv = $NSO's lines, as $(cat $NSO) would give them
nsv() {
	local l
	nv=
	while IFS= read -r l; do
		nv=${nv:+$nv$KTAP_NL}$l
	done <$NSO
}
# inns TEXT: ins TEXT, with its stdout and stderr on stdout and stderr
inns() {
	local rc
	ins "$@"
	rc=$?
	nso
	nso $NSE >&2
	return $rc
}
# tcm NS|- COMMAND...: one command of the ULP, from namespace NS or
# (-) the initial one; its status is the write's
tcm() {
	local ns=$1
	shift
	if [ "$ns" = - ]; then
		echo "$*" >$D/cmd
	else
		ins "echo $* >$D/cmd"
	fi
}
# A launch costs tens of milliseconds under TCG: files of a few lines
# (the ULP's status, /proc/net/tcp, the port mapper's status) are read by
# the shell, the ULP's log (whose every read copies it whole) by one cat,
# and the trace is searched by one awk for all its checks.

# bars TEXT: bv = TEXT's lines joined by '|' (tr '\n' '|')
bars() {
	local l
	bv=
	while IFS= read -r l; do
		bv="$bv$l|"
	done <<EOF
$1
EOF
}
log_has() { grep -qF -- "$1" $D/log; }
# status_is LINE: the ULP's status, its lines joined by blanks, is LINE
status_is() {
	local l v=
	while IFS= read -r l; do
		v="$v$l "
	done <$D/status
	[ "$v" = "$1" ]
}
ZERO="ids 0 listeners 0 connections 0 pds 0 cqs 0 qps 0 buffers 0 "
# wait_until SECONDS COMMAND...: poll every 0.2 s
wait_until() {
	local t=$(($1 * 5))
	shift
	while [ $t -gt 0 ]; do
		"$@" && return 0
		ktap_nap 0.2
		t=$((t - 1))
	done
	return 1
}
# tcp_socks NS|- STATE LADDR: socks = "LPORT RADDR:RPORT" of each socket
# in the hex STATE (0A listen, 01 established) whose local address is
# LADDR (hex), ports in decimal, a line each
tcp_socks() {
	local f sl la ra st rest
	socks=
	f=/proc/net/tcp
	[ "$1" = - ] || f=/proc/$nspid/net/tcp
	while read -r sl la ra st rest; do
		[ "$st" = "$2" ] && [ "${la%:*}" = "$3" ] || continue
		socks="$socks$((0x${la#*:})) ${ra%:*}:$((0x${ra#*:}))$KTAP_NL"
	done <$f
}
# listen_ports NS|- LADDR: lports = the ports listening on LADDR, each
# followed by a blank
listen_ports() {
	local l
	tcp_socks "$1" 0A "$2"
	lports=
	while read -r l; do
		[ -z "$l" ] || lports="$lports${l%% *} "
	done <<EOF
$socks
EOF
}
# check_run NAME: the last client run passed every size
check_run() {
	local s op log missing="" l took=""
	log=$(cat $D/log)
	while IFS= read -r l; do
		case "$l" in
		*"after "[0-9]*" ms"*) took="$took$l|" ;;
		esac
	done <<EOF
$log
EOF
	ktap_diag "$took"
	for s in 1 1000 4096 65536; do
		for op in send read write; do
			case "$log" in
			*"client $op $s ok"*) ;;
			*) missing="$missing $op/$s" ;;
			esac
		done
	done
	case "$log" in
	*" error "*) missing="$missing (an error)" ;;
	esac
	if [ -z "$missing" ]; then
		ktap_pass "$1"
	else
		bars "$log"
		ktap_fail "$1" "missing:$missing; log: $bv"
	fi
}
# sv KEY: sval = the value of "KEY: VALUE" in the port mapper's status
sv() {
	local rc=0
	ktap_status_value "$ST" "$1" || rc=1
	sval=$KTAP_VALUE
	return $rc
}
# the registered port mapper is a process named iwpmd
pm_is_iwpmd() {
	local c
	sv port_mapper && [ "$sval" -gt 0 ] 2>/dev/null &&
		read -r c 2>/dev/null </proc/"$sval"/comm && [ "$c" = iwpmd ]
}
# the guest's clock, where the time goes
stamp() {
	local u r
	read -r u r </proc/uptime
	ktap_diag "at $u s: $*"
}
pending() { sv pending_requests && [ "$sval" = 1 ]; }
# running PID: PID is there and has not exited (not a zombie)
running() {
	local a b st rest
	read -r a b st rest 2>/dev/null </proc/"$1"/stat || return 1
	[ "$st" != Z ]
}
gone() { ! running "$1"; }

# tracefs: the events of rdma_cm and iw_cm, on or off
TR=/sys/kernel/tracing
TRACE_CM=/tmp/cm.trace
cm_trace() {
	echo "$1" >$TR/events/rdma_cma/enable &&
	echo "$1" >$TR/events/iw_cm/enable
}
# The trace's checks are collected, then one awk reads the trace for all
# of them.  trace_want NAME EVENT REGEX: a line of EVENT in $TRACE_CM
# matches REGEX (grep -E " EVENT: .*REGEX"); trace_scan: tmiss = the
# NAMEs no line matches; trace_has NAME: NAME's line was there.
TRACE_WANT=/tmp/trace.want
trace_want() { printf '%s\t %s: .*%s\n' "$1" "$2" "$3" >>$TRACE_WANT; }
trace_scan() {
	tmiss=" $(awk -F '\t' 'NR == FNR { name[NR] = $1; re[NR] = $2; n = NR; next }
		{ for (i = 1; i <= n; i++) if (!(i in hit) && $0 ~ re[i]) hit[i] = 1 }
		END { for (i = 1; i <= n; i++) if (!(i in hit)) printf "%s ", name[i] }' \
		$TRACE_WANT $TRACE_CM) "
}
trace_has() {
	case "$tmiss" in
	*" $1 "*) return 1 ;;
	esac
	return 0
}
# cm_ids [-n NS] [FILTER...]: "rdma res show cm_id -j" (in NS, by its
# shell), one line per id: link qp-type state ps pid comm src dst
# ("-" where absent).  rdma -j prints one flat object per id on one
# line; awk reads it (jq would cost a second of TCG time a call) and
# sorts the lines itself (a sort less to launch; strcmp's order, as
# busybox sort's).
AWK_SORTED='END {
	for (i = 2; i <= no; i++) {
		x = out[i]
		for (j = i - 1; j >= 1 && out[j] > x; j--) out[j + 1] = out[j]
		out[j + 1] = x
	}
	for (i = 1; i <= no; i++) print out[i]
}'
CM_JSON='{
	s = $0
	sub(/^\[\{?/, "", s); sub(/\}?\]$/, "", s)
	if (s == "") next
	n = split(s, rec, /\},\{/)
	for (r = 1; r <= n; r++) {
		split("", f)
		m = split(rec[r], kv, /,"/)
		for (i = 1; i <= m; i++) {
			p = index(kv[i], ":")
			k = substr(kv[i], 1, p - 1); v = substr(kv[i], p + 1)
			gsub(/"/, "", k); gsub(/"/, "", v)
			f[k] = v
		}
		src = "-"; dst = "-"
		if ("src-addr" in f) src = f["src-addr"] (("src-port" in f) ? ":" f["src-port"] : "")
		if ("dst-addr" in f) dst = f["dst-addr"] (("dst-port" in f) ? ":" f["dst-port"] : "")
		out[++no] = f["ifname"] "/" f["port"] " " (("qp-type" in f) ? f["qp-type"] : "-") " " \
			f["state"] " " f["ps"] " " (("pid" in f) ? f["pid"] : "-") " " \
			(("comm" in f) ? f["comm"] : "-") " " src " " dst
	}
}
'"$AWK_SORTED"
cm_ids() {
	if [ "$1" = "-n" ]; then
		shift 2
		ins rdma -j res show cm_id "$@"
		awk "$CM_JSON" $NSO
	else
		rdma -j res show cm_id "$@" | awk "$CM_JSON"
	fi
}
# the same from the plain output
cm_ids_plain() {
	local f=/tmp/cm.plain
	if [ "$1" = "-n" ]; then
		shift 2
		ins rdma res show cm_id "$@"
		f=$NSO
	else
		rdma res show cm_id "$@" >$f
	fi
	awk '{
		split("", f)
		for (i = 1; i < NF; i += 2) f[$i] = $(i + 1)
		n = split("link qp-type state ps pid comm src-addr dst-addr", k, " ")
		l = ""
		for (i = 1; i <= n; i++) l = l (i > 1 ? " " : "") ((k[i] in f) ? f[k[i]] : "-")
		out[++no] = l }
		'"$AWK_SORTED" $f
}

# set-up: three ip launches, then the namespace's shell
$IP netns add $NS
$IP -b - <<EOF
link add vA type veth peer name vB netns $NS
addr add $A/24 dev vA
link set vA up
EOF
$IP -n $NS -b - <<EOF
addr add $B/24 dev vB
link set vB up
link set lo up
EOF
ns_start || ktap_diag "no shell in $NS"
ktap_test "modprobe siw and rdma_test_cm" \
	sh -c 'modprobe siw && echo 0 >'$PM' && modprobe rdma_test_cm'
ktap_test "siwA on vA in the initial namespace" \
	rdma link add siwA type siw netdev vA
ktap_has "siwB on vB, made in $NS" "siwB/1 state ACTIVE .*netdev vB" \
	inns 'rdma link add siwB type siw netdev vB && rdma link show siwB/1'

stamp "no port mapping"
# no port mapping; the server in the initial namespace, the client
# in tcmns.  The listen and the first connection are traced.
[ -d $TR/events ] || mount -t tracefs nodev $TR
echo 0 >$TR/tracing_on
# events in the order they were written, whatever the CPU: the default
# clock (local) is per CPU, and even "global" ties under TCG, where two
# events on two vCPUs can carry one stamp and the merge then puts the
# lower CPU's first (an address resolved on one, the route asked for on
# the other, seen in reverse).  The checks read no times.
echo counter >$TR/trace_clock
echo >$TR/trace
trace_start() { echo 1 >$TR/tracing_on && cm_trace 1; }
ktap_test "tracefs: the events of rdma_cma and iw_cm enabled" trace_start
ktap_test "listen on $A:7471 in the initial namespace" tcm - listen $A 7471
tcm - clear
ktap_test "client in $NS: SEND, READ, WRITE of 1..65536 bytes, disconnect" \
	tcm $NS connect $B $A 7471
wait_until 10 log_has "server event disconnected"
cm_trace 0
stamp "connection traced"
cat $TR/trace >$TRACE_CM
# one awk for what the checks take from the trace: the events' count,
# the ids attached to each device (in order), the attachments, and every
# state change in order, "ID:OLD>NEW ..." (enum rdma_cm_state by name)
tvals=$(awk '
index($0, ": cm_") || index($0, ": iwcm_") { nev++ }
/ cm_id_attach: cm\.id=[0-9]+ .*device=[A-Za-z0-9_]+$/ {
	s = substr($0, index($0, " cm_id_attach: ") + 15)
	att = att s "|"
	id = s; sub(/^cm\.id=/, "", id); sub(/ .*/, "", id)
	dev = $0; sub(/.*device=/, "", dev)
	ids[dev] = ids[dev] id " "
}
/ cm_state_change: cm\.id=[0-9]+ state [A-Z_]+ -> [A-Z_]+$/ {
	s = substr($0, index($0, " cm_state_change: ") + 18)
	split(s, f, " "); id = f[1]; sub(/^cm\.id=/, "", id)
	st = st id ":" f[3] ">" f[5] " "
}
END {
	printf "nev %d\nsiwA %s\nsiwB %s\natt %s\nst %s\n", nev, ids["siwA"], ids["siwB"], att, st
}' $TRACE_CM)
while read -r k v; do
	case "$k" in
	nev) nev=$v ;;
	siwA) ida=$v ;;
	siwB) idb=$v ;;
	att) att=$v ;;
	st) st="$v " ;;
	esac
done <<EOF
$tvals
EOF
ktap_diag "$nev events traced"
# the ids: the client is the one attached to siwB; on siwA, the
# listener's (bound to $A:7471) is the first, the server's the second
set -- $ida
L=$1 S=$2
n_a=$#
C=
for x in $idb; do
	C=$C$x
done
ktap_diag "cm.id: listener $L, server ${S:-?}, client ${C:-?}"
ktap_diag "$att"
# the checks of the trace, all in one scan
rm -f $TRACE_WANT
trace_want attach cm_id_attach "cm.id=$L src=$A:7471 .*device=siwA"
# cm_event_handler: "cm.id=N src=ADDR dst=ADDR tos=T NAME (EVENT/STATUS)";
# both have status 0: siw's CLOSE carries 0, as upstream siw's does
for ev in ESTABLISHED DISCONNECTED; do
	n=0
	for t in "cm.id=$S src=$A:7471 dst=$B:[0-9]+ " \
		 "cm.id=$C src=$B:[0-9]+ dst=$A:7471 "; do
		n=$((n + 1))
		trace_want "h-$ev-$n" cm_event_handler "$t.* $ev \([0-9]+/0\)\$"
		trace_want "d-$ev-$n" cm_event_done "$t.* $ev consumer returns "
	done
done
# the request reaches the listener; CONNECT_REQUEST goes to the new id
trace_want req cm_req_handler "cm.id=$L src=$A:7471 "
trace_want creq cm_event_handler "cm.id=$S src=$A:7471 dst=$B:[0-9]+ .* CONNECT_REQUEST \("
n=0
for t in "dev=siwA IDLE -> LISTEN" "dev=siwA CONN_RECV -> ESTABLISHED" \
	 "dev=siwA ESTABLISHED -> CLOSING" "dev=siwA CLOSING -> IDLE" \
	 "dev=siwB IDLE -> CONN_SENT" "dev=siwB CONN_SENT -> ESTABLISHED" \
	 "dev=siwB ESTABLISHED -> CLOSING" "dev=siwB CLOSING -> IDLE"; do
	n=$((n + 1))
	trace_want "iw-$n" iwcm_state "$t\$"
done
trace_want iwconnect iwcm_connect "$B:[0-9]+ -> $A:7471 .*ret=0"
trace_want iwaccept iwcm_accept "$A:7471 -> $B:[0-9]+ .*ret=0"
trace_scan
ktap_diag "not in the trace:${tmiss% }"
if [ -n "$L" ] && [ -n "$S" ] && [ -n "$C" ] && [ $n_a = 2 ] &&
   trace_has attach; then
	ktap_pass "trace: cm_id_attach of the listener and the server to siwA, the client to siwB"
else
	ktap_fail "trace: cm_id_attach of the listener and the server to siwA, the client to siwB" \
		"$(grep -F cm_id_attach $TRACE_CM | tr '\n' '|')"
fi
# cm.id is a restrack number, per device as upstream's: the listener
# (siwA) and the client (siwB) may share one, so the order tells them
# apart.  Over iWARP an id stays in CONNECT until it is destroyed
# (upstream's too: DISCONNECT is the IB CM's state).
ktap_diag "rdma_cm states: $st"
case "$st" in
*"$L:IDLE>ADDR_BOUND $L:ADDR_BOUND>LISTEN "*"$C:ADDR_BOUND>ADDR_QUERY $C:ADDR_QUERY>ADDR_RESOLVED $C:ADDR_RESOLVED>ROUTE_QUERY $C:ROUTE_QUERY>ROUTE_RESOLVED $C:ROUTE_RESOLVED>CONNECT "*)
	case "$st" in
	*"$C:ROUTE_RESOLVED>CONNECT "*"$C:CONNECT>DESTROYING "*)
		case "$st" in
		*"$S:CONNECT>DESTROYING "*)
			ktap_pass "trace: the state changes of listener, client and server" ;;
		*)	ktap_fail "trace: the state changes of listener, client and server" "server" ;;
		esac ;;
	*)	ktap_fail "trace: the state changes of listener, client and server" "client's end" ;;
	esac ;;
*)
	ktap_fail "trace: the state changes of listener, client and server" "listen, connect" ;;
esac
ev_ok=1
for ev in ESTABLISHED DISCONNECTED; do
	for n in 1 2; do
		trace_has "h-$ev-$n" && trace_has "d-$ev-$n" ||
			{ ev_ok=0; ktap_diag "no $ev for end $n (server 1, client 2)"; }
	done
done
trace_has req && trace_has creq || ev_ok=0
if [ $ev_ok = 1 ]; then
	ktap_pass "trace: the request through the listener, ESTABLISHED and DISCONNECTED through both handlers"
else
	ktap_fail "trace: the request through the listener, ESTABLISHED and DISCONNECTED through both handlers" \
		"$(grep -F -e cm_event_handler -e cm_req_handler $TRACE_CM | sed 's/.*\] //' | tr '\n' '|')"
fi
iw_ok=1
for n in 1 2 3 4 5 6 7 8; do
	trace_has "iw-$n" || iw_ok=0
done
if [ $iw_ok = 1 ] && trace_has iwconnect && trace_has iwaccept; then
	ktap_pass "trace: iw_cm's state changes and calls on both devices"
else
	ktap_fail "trace: iw_cm's state changes and calls on both devices" \
		"$(grep -F -e iwcm_state -e iwcm_connect -e iwcm_accept $TRACE_CM | tr '\n' '|')"
fi
stamp "trace checked"
check_run "client in $NS: every payload checked"
log=$(cat $D/log)
if case "$log" in *"client connected $B:"*) ;; *) false ;; esac &&
   case "$log" in *"to $A:7471 on siwB"*) ;; *) false ;; esac &&
   case "$log" in *"server accepted $A:7471 from $B:"*) ;; *) false ;; esac &&
   case "$log" in *"on siwA"*) ;; *) false ;; esac &&
   case "$log" in *"client done"*) ;; *) false ;; esac; then
	ktap_pass "the connection ran from siwB to siwA"
else
	ktap_fail "the connection ran from siwB to siwA" "$(tr '\n' '|' <$D/log)"
fi
listen_ports - $AHEX
lp_init=$lports
listen_ports $NS $AHEX
lp_ns=$lports
if [ "$lp_init" = "7471 " ] && [ -z "$lp_ns" ]; then
	ktap_pass "siwA listens on $A:7471 in the initial namespace only"
else
	ktap_fail "siwA listens on $A:7471 in the initial namespace only" \
		"initial: $lp_init, $NS: $lp_ns"
fi

stamp "rdma res show cm_id"
# restrack: a held connection beside the listener, tracing off
n0=$(wc -l <$TR/trace)
tcm - clear
tcm $NS hold $B $A 7471
P=$(sed -n "s/^client connected $B:\([0-9]*\) to $A:7471 .*/\1/p" $D/log)
ktap_diag "held: client port ${P:-?}"
if [ "$(wc -l <$TR/trace)" = "$n0" ] && log_has "client holding"; then
	ktap_pass "events disabled: the next connection adds nothing to the trace"
else
	ktap_fail "events disabled: the next connection adds nothing to the trace" \
		"$n0 -> $(wc -l <$TR/trace) lines, log: $(tr '\n' '|' <$D/log)"
fi
K=rdma_test_cm
want_l="siwA/1 - LISTEN TCP - $K $A:7471 0.0.0.0:0"
want_s="siwA/1 RC CONNECT TCP - $K $A:7471 $B:$P"
want_c="siwB/1 RC CONNECT TCP - $K $B:$P $A:7471"
want=$(printf '%s\n' "$want_l" "$want_s" "$want_c" | sort)
want_ends=$(printf '%s\n' "$want_s" "$want_c" | sort)
# kernel_owner TEXT: kv = TEXT with " $K " as " [$K] " on each line (how
# the plain output names a kernel owner)
kernel_owner() {
	local l
	kv=
	while IFS= read -r l; do
		case "$l" in
		*" $K "*) l="${l%%" $K "*} [$K] ${l#*" $K "}" ;;
		esac
		kv=${kv:+$kv$KTAP_NL}$l
	done <<EOF
$1
EOF
}
got=$(cm_ids)
bars "$got"
ktap_diag "rdma -j res show cm_id: $bv"
if [ -n "$P" ] && [ "$got" = "$want" ]; then
	ktap_pass "rdma -j res show cm_id: listener, server and client, field by field"
else
	ktap_fail "rdma -j res show cm_id: listener, server and client, field by field" \
		"want $(echo "$want" | tr '\n' '|') raw $(rdma -j res show cm_id)"
fi
got=$(cm_ids_plain)
bars "$got"
ktap_diag "rdma res show cm_id: $bv"
kernel_owner "$want"
if [ -n "$P" ] && [ "$got" = "$kv" ]; then
	ktap_pass "rdma res show cm_id: the same, kernel owner as [$K], no pid"
else
	ktap_fail "rdma res show cm_id: the same, kernel owner as [$K], no pid" \
		"$(rdma res show cm_id | tr '\n' '|')"
fi
# in each id's namespace, by dev and by state
if [ "$(cm_ids dev siwA state LISTEN)" = "$want_l" ] &&
   [ "$(cm_ids state CONNECT dev siwA)" = "$want_s" ]; then
	ktap_pass "initial namespace: dev siwA by state"
else
	ktap_fail "initial namespace: dev siwA by state" \
		"$(cm_ids dev siwA | tr '\n' '|')"
fi
if [ "$(cm_ids -n $NS dev siwB)" = "$want_c" ] &&
   kernel_owner "$want_ends" &&
   [ "$(cm_ids_plain -n $NS state CONNECT)" = "$kv" ]; then
	ktap_pass "$NS: the client's cm_id on dev siwB; both ends by state"
else
	ktap_fail "$NS: the client's cm_id on dev siwB; both ends by state" \
		"$(cm_ids -n $NS | tr '\n' '|')"
fi
tcm - release
if wait_until 10 eval '[ "$(cm_ids)" = "$want_l" ]' &&
   [ -z "$(cm_ids -n $NS dev siwB)" ]; then
	ktap_pass "connection released: only the listener's cm_id is left"
else
	ktap_fail "connection released: only the listener's cm_id is left" \
		"$(cm_ids | tr '\n' '|')"
fi
tcm - unlisten
if wait_until 10 status_is "$ZERO"; then
	ktap_pass "unlisten: every object freed"
else
	ktap_fail "unlisten: every object freed" "$(cat $D/status | tr '\n' ' ')"
fi
if [ "$(rdma -j res show cm_id)" = "[]" ] &&
   ins rdma -j res show cm_id && nsv && [ "$nv" = "[]" ]; then
	ktap_pass "no cm_id left in either namespace"
else
	ktap_fail "no cm_id left in either namespace" "$(rdma res show cm_id)"
fi

stamp "the other way"
# the other way round: the server in tcmns.
ktap_test "listen on $B:7472 in $NS" tcm $NS listen $B 7472
tcm - clear
ktap_test "client in the initial namespace passes" tcm - connect $A $B 7472
check_run "client in the initial namespace: every payload checked"
listen_ports $NS $BHEX
lp_ns=$lports
listen_ports - $BHEX
lp_init=$lports
if [ "$lp_ns" = "7472 " ] && [ -z "$lp_init" ]; then
	ktap_pass "siwB listens on $B:7472 in $NS only"
else
	ktap_fail "siwB listens on $B:7472 in $NS only" \
		"$NS: $lp_ns, initial: $lp_init"
fi
tcm - unlisten
wait_until 10 status_is "$ZERO"

stamp "gso"
# FPDUs that span several TCP segments (gso_seg_limit=0, GSO on the veth
# pair), against the default (1: one MSS each, as upstream).  siw's
# driver attributes of the held QPs ("rdma res show qp -dd") give the
# MULPDU and the FPDUs sent and received.
GSO=/sys/module/siw/parameters/gso_seg_limit
# qp_show NS|- LINK: qps = "rdma -dd res show qp" of LINK's QPs
qp_show() {
	if [ "$1" = - ]; then
		qps=$(rdma -dd res show qp link $2/1)
	else
		ins rdma -dd res show qp link $2/1
		nsv
		qps=$nv
	fi
}
# qp_drv NAME: qv = the value of siw's attribute NAME in $qps (the
# first QP's)
qp_drv() {
	local l
	qv=
	while IFS= read -r l; do
		case "$l" in
		*" drv_$1 "*)
			qv=${l##*" drv_$1 "}
			qv=${qv%%[!0-9]*}
			return 0
			;;
		esac
	done <<EOF
$qps
EOF
}
# every FPDU the client sent has reached the server
fpdus_arrived() {
	local t
	qp_show - siwA
	qp_drv tx_fpdus
	t=$qv
	qp_show $NS siwB
	qp_drv rx_fpdus
	[ -n "$t" ] && [ "$t" = "$qv" ]
}
gso_run() {
	tcm - clear
	tcm $NS listen $B $1 &&
		tcm - hold $A $B $1 &&
		wait_until 10 log_has "client holding"
}
ktap_test "gso_seg_limit 1 (the default): a held connection" gso_run 7476
wait_until 5 fpdus_arrived
qp_show - siwA
qp_drv mulpdu
m1=$qv
qp_drv tx_fpdus
t1=$qv
qp_show $NS siwB
qp_drv rx_fpdus
r1=$qv
ktap_diag "one MSS: MULPDU $m1, client sent $t1 FPDUs, server received $r1"
# MSS 1448 on the veth pair: 1448 less the MPA header and CRC
if [ "$m1" = 1442 ] && [ -n "$t1" ] && [ "$t1" -gt 0 ] &&
   [ "$r1" = "$t1" ]; then
	ktap_pass "rdma res show qp -dd: MULPDU of one MSS, FPDUs counted at both ends"
else
	ktap_fail "rdma res show qp -dd: MULPDU of one MSS, FPDUs counted at both ends" \
		"$(rdma -dd res show qp link siwA/1)"
fi
tcm - release
tcm $NS unlisten
wait_until 10 status_is "$ZERO"
echo 0 >$GSO
ktap_test "gso_seg_limit 0: a held connection" gso_run 7477
check_run "gso_seg_limit 0: every payload checked"
wait_until 5 fpdus_arrived
qp_show - siwA
qp_drv mulpdu
m0=$qv
qp_drv tx_fpdus
t0=$qv
qp_show $NS siwB
qp_drv rx_fpdus
r0=$qv
ktap_diag "GSO: MULPDU $m0, client sent $t0 FPDUs, server received $r0"
if [ -n "$m0" ] && [ "$m0" -gt 1442 ] && [ -n "$t0" ] &&
   [ "$r0" = "$t0" ] && [ "$t0" -lt "$t1" ]; then
	ktap_pass "GSO: FPDUs over several segments, fewer of them"
else
	ktap_fail "GSO: FPDUs over several segments, fewer of them" \
		"$(rdma -dd res show qp link siwA/1)"
fi
echo 1 >$GSO
tcm - release
tcm $NS unlisten
wait_until 10 status_is "$ZERO"

stamp "siwA with"
# siwA with port mapping, Debian's iwpmd in the initial namespace.
rdma link delete siwA
echo 1 >$PM
rdma link add siwA type siw netdev vA
r=$?
echo 0 >$PM
if [ $r = 0 ]; then
	ktap_pass "siwA again, made with port_map=1"
else
	ktap_fail "siwA again, made with port_map=1"
fi
strace -f -xx -s 256 -e trace=%network -o $TRACE iwpmd -s &
stamp "iwpmd started"
if wait_until 60 pm_is_iwpmd; then
	ktap_pass "iwpmd is the registered port mapper"
else
	ktap_fail "iwpmd is the registered port mapper" "$(cat $ST)"
fi
tcm - clear
tcm - listen $A 7473
r=$?
listen_ports - $AHEX
P=${lports% }
ktap_diag "listener on $A:7473 mapped to port $P"
if [ $r = 0 ] && [ -n "$P" ] && [ "$P" != 7473 ]; then
	ktap_pass "listener on $A:7473 listens on a mapped port"
else
	ktap_fail "listener on $A:7473 listens on a mapped port" \
		"write status $r, listening: '$P', log: $(tr '\n' '|' <$D/log)"
fi
if [ -n "$P" ] && grep -F 'getsockname(' $TRACE | grep -qF "htons($P)"; then
	ktap_pass "the mapped port is the one iwpmd reserved"
else
	ktap_fail "the mapped port is the one iwpmd reserved" \
		"$(grep -F 'getsockname(' $TRACE)"
fi
tcm - clear
ktap_test "client in $NS connects through the port mapper and holds" \
	tcm $NS hold $B $A 7473
check_run "through the port mapper: every payload checked"
tcp_socks - 01 $AHEX
est_a=$socks
tcp_socks $NS 01 $BHEX
est_b=$socks
ktap_diag "established in the initial namespace: $est_a; in $NS: $est_b"
if log_has "client holding" && [ -n "$P" ] &&
   case "$KTAP_NL$est_a" in *"$KTAP_NL$P $BHEX:"*) ;; *) false ;; esac &&
   case "$est_b" in *" $AHEX:$P$KTAP_NL"*) ;; *) false ;; esac; then
	ktap_pass "held connection: both ends on mapped port $P in /proc/net/tcp"
else
	ktap_fail "held connection: both ends on mapped port $P in /proc/net/tcp" \
		"$(tr '\n' '|' <$D/log)"
fi
if grep -F 'sendto(' $TRACE | grep -qF 'sin_port=htons(3935)' &&
   grep -E 'recvfrom\(|recvmsg\(' $TRACE | grep -qF 'sin_port=htons(3935)'; then
	ktap_pass "iwpmd's UDP exchange on port 3935"
else
	ktap_fail "iwpmd's UDP exchange on port 3935" \
		"$(grep -F 'htons(3935)' $TRACE)"
fi

stamp "iwpmd killed"
# iwpmd killed while a connect waits for it.
tcm - clear
p=$(pidof iwpmd)
p=${p%% *}
kill -STOP "$p"
# the connect's write, by the shell in $NS, ends with the connect
ins_send "echo connect $B $A 7473 >$D/cmd"
if wait_until 20 pending; then
	ktap_pass "iwpmd stopped: the connect waits for it"
else
	ktap_fail "iwpmd stopped: the connect waits for it" "$(cat $ST)"
fi
kill -KILL "$p"
read -r t0 r </proc/uptime
ins_wait
krc=$?
read -r t1 r </proc/uptime
# centiseconds: /proc/uptime has two decimals
took=$((${t1%.*}${t1#*.} - ${t0%.*}${t0#*.}))
log=$(cat $D/log)
bars "$log"
ktap_diag "connect after iwpmd died: status $krc, $took cs: $bv"
if [ $took -lt 2000 ] &&
   case "$KTAP_NL$log$KTAP_NL" in
   *"client done"*) ;;
   *"${KTAP_NL}client error -"[0-9]*" at connect$KTAP_NL"*) ;;
   *) false ;;
   esac; then
	ktap_pass "iwpmd killed: the connect ends at once, cleanly"
else
	ktap_fail "iwpmd killed: the connect ends at once, cleanly"
fi
held="ids 3 listeners 1 connections 2 pds 2 cqs 2 qps 2 buffers 6 "
if wait_until 10 status_is "$held"; then
	ktap_pass "nothing of that connect is left"
else
	ktap_fail "nothing of that connect is left" "$(cat $D/status | tr '\n' ' ')"
fi
wait_until 10 gone "$p"

stamp "rdma link"
# rdma link delete of siwA under the established connection.
tcm - clear
ktap_test "rdma link delete siwA under the connection" rdma link delete siwA
if wait_until 10 log_has "server event device removal" &&
   log_has "listener event device removal"; then
	ktap_pass "server and listener got DEVICE_REMOVAL"
else
	ktap_fail "server and listener got DEVICE_REMOVAL" "$(tr '\n' '|' <$D/log)"
fi
if wait_until 10 log_has "client event disconnected"; then
	ktap_pass "the client got DISCONNECTED"
else
	ktap_fail "the client got DISCONNECTED" "$(tr '\n' '|' <$D/log)"
fi
if wait_until 10 status_is "$ZERO"; then
	ktap_pass "every object of both ends freed"
else
	ktap_fail "every object of both ends freed" "$(cat $D/status | tr '\n' ' ')"
fi

stamp "iwpmd gone"
# iwpmd gone: unmapped ports; rdma link delete of the client's
# device under the connection.
echo 1 >$PM
rdma link add siwA type siw netdev vA
echo 0 >$PM
tcm - clear
tcm - listen $A 7474
listen_ports - $AHEX
if [ "$lports" = "7474 " ]; then
	ktap_pass "without iwpmd siwA listens on the real port 7474"
else
	ktap_fail "without iwpmd siwA listens on the real port 7474" "$lports"
fi
tcm $NS hold $B $A 7474
tcp_socks - 01 $AHEX
if log_has "client holding" &&
   case "$KTAP_NL$socks" in *"${KTAP_NL}7474 $BHEX:"*) ;; *) false ;; esac; then
	ktap_pass "held connection on unmapped ports"
else
	ktap_fail "held connection on unmapped ports" "$(tr '\n' '|' <$D/log)"
fi
tcm - clear
ktap_test "rdma link delete siwB under the connection" rdma link delete siwB
if wait_until 10 log_has "client event device removal" &&
   wait_until 10 log_has "server event disconnected"; then
	ktap_pass "client got DEVICE_REMOVAL, server DISCONNECTED"
else
	ktap_fail "client got DEVICE_REMOVAL, server DISCONNECTED" \
		"$(tr '\n' '|' <$D/log)"
fi
tcm - unlisten
if wait_until 10 status_is "$ZERO"; then
	ktap_pass "every object freed again"
else
	ktap_fail "every object freed again" "$(cat $D/status | tr '\n' ' ')"
fi

stamp "unload"
# unload
ktap_test "rmmod rdma_test_cm and siw" \
	sh -c 'rmmod rdma_test_cm && rmmod siw'
# the shell in $NS ends with its input
exec 7>&- 8<&-
wait $nspid
rm -f $NSIN $NSOUT
$IP link del vA 2>/dev/null
$IP netns del $NS
# the rest of what modprobe loaded for them: the next scenario on this
# guest finds no stack
unload_rest() {
	rmmod rdma_cm && rmmod iw_cm && rmmod ib_cm && rmmod rdmavt && rmmod ib_uverbs &&
		rmmod_settle ib_core
}
ktap_test "rmmod rdma_cm, iw_cm, ib_cm, rdmavt and ib_core" unload_rest
ktap_finish
