#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# SA path queries through the local service (RDMA_NL_LS): two managed
# loop devices (ports in INIT, no LID) brought ACTIVE by opensm, whose SA
# answers rdma_test_sa's path queries; then tools/testing/rdma/lsresponder
# joins RDMA_NL_GROUP_LS and answers them itself (SL 7, packet lifetime
# 17: values opensm does not give), or fails in the ways ibacm could
# (RDMA_NL_LS_F_ERR, a short record, a wrong sequence number, silence, an
# answer after the kernel's timeout, which the kernel drops: it says so
# in the ack), each time the query ends with opensm's path.  SET_TIMEOUT
# is acked and sets the wait (LONG ms: not before LONG ms; then 100 ms:
# well before LONG ms).  A multicast join of rdma_test_sa
# is answered by opensm's SA (an MLID, the group in saquery's
# MCMemberRecords with that MLID) and its leave ends the group.
# Then Debian's ibacm (unmodified, with its acmp provider) runs beside
# opensm: it opens loop0 and loop1 (verbs through ipathverbs, umad),
# joins its multicast group on each port through opensm's SA and binds
# to RDMA_NL_GROUP_LS; a path query goes to it over RDMA_NL_LS, and it
# answers with the path it got from the SA (its log shows the request
# and the answer); with opensm killed, the next query is answered from
# ibacm's cache; ibacm ends on SIGTERM, and a query with neither ibacm
# nor an SM gets no path (ETIMEDOUT), so the answers were ibacm's.
# Then everything unloads: no splat (leaks are the final kmemleak
# check's, which names the scenario).
#
# Without an SM that brings the ports ACTIVE, the queries cannot be sent
# at all (the SA client refuses them with -EAGAIN while the SM LID is 0):
# those tests fail with "no SM".
# needs: /usr/bin/rdma /usr/sbin/opensm /usr/sbin/saquery
# needs: /usr/sbin/ibacm /usr/lib/x86_64-linux-gnu/ibacm/libibacmp.so
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/libipathverbs-rdmav34.so
# needs: /etc/libibverbs.d/ipathverbs.driver
# timeout: 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

LSR=/testbed/bin/lsresponder
TSA=/sys/kernel/debug/rdma_test_sa
IB=/sys/class/infiniband
OSM_PID=
LSR_PID=


# Mostly waits (opensm's sweep, the timeouts it tests): the polls read
# files with the shell and nap in it (no grep, cat or sleep a round).

# gid0 DEV: gid = the GID 0 of DEV's port 1, as rdma_test_sa takes it.
gid0() {
	gid=
	read -r gid <$IB/$1/ports/1/gids/0
}

port_active() {
	local v
	read -r v 2>/dev/null <$IB/$1/ports/1/state
	case "$v" in
	*ACTIVE*) return 0 ;;
	esac
	return 1
}

# uptime_ms: ms = /proc/uptime in milliseconds (10 ms resolution)
uptime_ms() {
	local u r
	read -r u r </proc/uptime
	# centiseconds: two digits, "08" is no octal number here
	ms=$((${u%.*} * 1000 + (1${u#*.} - 100) * 10))
}

# read_all FILE: text = FILE's lines (a debugfs log: read by the shell)
read_all() {
	local l
	text=
	while IFS= read -r l; do
		text=${text:+$text$KTAP_NL}$l
	done <"$1"
	[ -z "$l" ] || text=${text:+$text$KTAP_NL}$l
}

# path QUERY-TIMEOUT-MS: one query from loop0 to loop1; out = its log
# line, path_ms = how long it took (ms, /proc/uptime's resolution).
path() {
	local t0
	gid0 loop1
	echo clear >$TSA/cmd
	uptime_ms
	t0=$ms
	echo "path loop0 1 $gid ${1:-1000}" >$TSA/cmd 2>/dev/null
	uptime_ms
	path_ms=$((ms - t0))
	read_all $TSA/log
	out=$text
}

# The log line of path, and how long it took, as diagnostics.
show() {
	ktap_quote "$1"
	echo "# in $path_ms ms"
}

# lsr_has PREFIX: a line of the responder's log starts with PREFIX
lsr_has() {
	local l
	while IFS= read -r l; do
		case "$l" in
		"$1"*) return 0 ;;
		esac
	done </tmp/lsr.out
	return 1
}

# lsr_wait PREFIX SECONDS: lsr_has PREFIX within SECONDS (polled every
# 0.1 s)
lsr_wait() {
	local i=0
	while [ $i -lt $(($2 * 10)) ]; do
		lsr_has "$1" && return 0
		ktap_nap 0.1
		i=$((i + 1))
	done
	return 1
}

# lsr_start MODE [ARGS]: the responder in the background; log in
# /tmp/lsr.out.
lsr_start() {
	: >/tmp/lsr.out
	$LSR "$@" >/tmp/lsr.out 2>&1 &
	LSR_PID=$!
	# joined once it says so
	lsr_wait listening 5
}

# lsr_saw_request: the responder logs a request within 10 s (it may read
# it after the query ended: a short timeout or a silent mode)
lsr_saw_request() {
	lsr_wait 'request seq' 10
}

lsr_stop() {
	[ -n "$LSR_PID" ] && kill "$LSR_PID" 2>/dev/null && wait "$LSR_PID" 2>/dev/null
	LSR_PID=
	read_all /tmp/lsr.out
	ktap_quote "$text" "lsresponder: "
}

ktap_plan 22
health_mark

ktap_test "ib_core, rdma_loop managed=1 devices=2, ib_umad and rdma_test_sa load" \
	sh -c 'modprobe rdma_loop managed=1 devices=2 && modprobe ib_umad &&
	       modprobe rdma_test_sa'

# opensm on loop0's port
mkdir -p /var/cache/opensm /var/log /etc/opensm
# the port GUID: the lower half of GID 0
gid0 loop0 2>/dev/null
guid=$(IFS=:; set -- $gid; echo "$5$6$7$8")
if [ -x /usr/sbin/opensm ] && [ -n "$guid" ]; then
	/usr/sbin/opensm -d 2 -g 0x"$guid" -f /tmp/opensm.log >/tmp/opensm.out 2>&1 &
	OSM_PID=$!
fi
# up to 60 s
i=0
while [ $i -lt 300 ]; do
	port_active loop0 && port_active loop1 && break
	ktap_nap 0.2
	i=$((i + 1))
done
sm=0
if port_active loop0 && port_active loop1; then
	sm=1
	ktap_pass "opensm brings both ports ACTIVE"
else
	ktap_fail "opensm brings both ports ACTIVE" \
		"states $(cat $IB/loop*/ports/1/state | tr '\n' ' ')"
	tail -n 20 /tmp/opensm.out /tmp/opensm.log 2>/dev/null | sed 's/^/# /'
fi

# SA_OK: "path status 0 ..." with opensm's values (not the responder's)
sa_answered() {
	local l ok=1
	while IFS= read -r l; do
		case "$l" in
		*" sl 7 "*" pkt_life 17") return 1 ;;
		"path status 0 dlid "*) ok=0 ;;
		esac
	done <<EOF
$1
EOF
	return $ok
}

if [ $sm = 1 ]; then
	# SA settles (ClassPortInfo, SM LID) before the first query
	i=0
	while [ $i -lt 20 ]; do
		path 2000
		sa_answered "$out" && break
		ktap_nap 0.5
		i=$((i + 1))
	done
	show "$out"
	if sa_answered "$out"; then
		ktap_pass "no listener: opensm's SA answers"
	else
		ktap_fail "no listener: opensm's SA answers" "$out"
	fi
	osm_line=$out
else
	ktap_fail "no listener: opensm's SA answers" "no SM (opensm did not bring the ports up)"
fi

# answer: the responder's record is used, the SA is not asked
if [ $sm = 1 ] && lsr_start answer; then
	path 2000
	lsr_stop
	show "$out"
	if ktap_has_line "$out" 'path status 0 dlid 0x7777 slid 0x7778 sl 7 mtu 3 rate 3 pkt_life 17' &&
	   grep -q "^request seq [0-9]* dev loop0 port 1 path_use 1 dgid " /tmp/lsr.out; then
		ktap_pass "a listener's answer is used"
	else
		ktap_fail "a listener's answer is used" "$out"
	fi
else
	[ $sm = 1 ] && lsr_stop
	ktap_fail "a listener's answer is used" "no SM (opensm did not bring the ports up)"
fi

# the failures: each ends with opensm's path
for mode in error malformed wrongseq silent; do
	name="responder '$mode': opensm's path after all"
	if [ $sm = 1 ] && lsr_start --set-timeout 300 $mode; then
		path 2000
		lsr_saw_request
		lsr_stop
		show "$out"
		if [ "$out" = "$osm_line" ] && grep -q '^request seq' /tmp/lsr.out; then
			ktap_pass "$name"
		else
			ktap_fail "$name" "$out"
		fi
	else
		[ $sm = 1 ] && lsr_stop
		ktap_fail "$name" "no SM (opensm did not bring the ports up)"
	fi
done

# late: the responder sees the request but holds its answer until the
# query has ended (after the timeout, with opensm's path); the answer it
# sends then is dropped, which the kernel's ack says
if [ $sm = 1 ] && lsr_start --set-timeout 300 late; then
	path 2000
	kill -USR1 "$LSR_PID"
	lsr_wait 'late answer seq' 10
	lsr_stop
	show "$out"
	seq=$(sed -n 's/^request seq \([0-9]*\) dev loop0 port 1 .*/\1/p' /tmp/lsr.out)
	if [ "$out" != "$osm_line" ]; then
		ktap_fail "a late answer: opensm's path, the answer dropped" \
			"the query ended with '$out', not opensm's path"
	elif [ -z "$seq" ]; then
		ktap_fail "a late answer: opensm's path, the answer dropped" \
			"the responder saw no request"
	elif ! grep -qx "late answer seq $seq errno 0 msg No path query waits for this sequence number" \
		/tmp/lsr.out; then
		ktap_fail "a late answer: opensm's path, the answer dropped" \
			"no ack of the dropped answer to request $seq"
	else
		ktap_pass "a late answer: opensm's path, the answer dropped"
	fi
else
	[ $sm = 1 ] && lsr_stop
	ktap_fail "a late answer: opensm's path, the answer dropped" "no SM (opensm did not bring the ports up)"
fi

# SET_TIMEOUT: acked with 0 (clamped, not refused), and it sets the
# wait.  First LONG ms: the query cannot end before.  Then 5 ms (clamped
# to 100): the query must end well before LONG ms, the timeout in force
# were this SET_TIMEOUT ignored (a query the SA answers directly may take
# a second under TCG: half of LONG is the bound; it takes 50 to 150 ms).
# LONG must stay well above the default 2000 ms, which a first
# SET_TIMEOUT ignored would leave in force (4000: not before 3900 ms).
# The responder must have seen each query, or the wait was not the
# local service's.
LONG=$(tier_pick 4000 20000)
long_ok=0
if [ $sm = 1 ] && lsr_start --set-timeout $LONG silent; then
	path 2000
	ms=$path_ms
	lsr_saw_request
	lsr_stop
	show "$out"
	if [ "$out" = "$osm_line" ] && [ "$ms" -ge $((LONG - 100)) ] &&
	   grep -q '^request seq' /tmp/lsr.out; then
		long_ok=1
		ktap_pass "a long timeout: opensm's path not before it"
	else
		ktap_fail "a long timeout: opensm's path not before it" \
			"$out after $ms ms, timeout $LONG ms"
	fi
else
	[ $sm = 1 ] && lsr_stop
	ktap_fail "a long timeout: opensm's path not before it" "no SM (opensm did not bring the ports up)"
fi
if lsr_start --set-timeout 5 silent; then
	if grep -qx 'set-timeout 5 errno 0' /tmp/lsr.out; then
		ktap_pass "SET_TIMEOUT is acked with 0"
	else
		ktap_fail "SET_TIMEOUT is acked with 0" "$(head -n 1 /tmp/lsr.out)"
	fi
	if [ $sm = 1 ]; then
		path 2000
		ms=$path_ms
		show "$out"
		lsr_saw_request
		if [ $long_ok = 0 ]; then
			ktap_fail "timeout 100 ms: opensm's path well before the long one" \
				"the $LONG ms timeout did not hold: this says nothing"
		elif [ "$out" = "$osm_line" ] && [ "$ms" -lt $((LONG / 2)) ] &&
		     grep -q '^request seq' /tmp/lsr.out; then
			ktap_pass "timeout 100 ms: opensm's path well before the long one"
		else
			ktap_fail "timeout 100 ms: opensm's path well before the long one" \
				"$out after $ms ms, not under $((LONG / 2)) ms"
		fi
	else
		ktap_fail "timeout 100 ms: opensm's path well before the long one" "no SM (opensm did not bring the ports up)"
	fi
	lsr_stop
else
	ktap_fail "SET_TIMEOUT is acked with 0" "lsresponder did not start"
	ktap_fail "timeout 100 ms: opensm's path well before the long one" "no responder"
fi
# back to the default
$LSR --set-timeout 2000 --count 0 silent >/dev/null 2>&1

# multicast: a full-member join answered by opensm's SA, the group in
# its MCMemberRecord table, then the leave that ends the group
MGID=ff12:1234::1
mcmr() {
	saquery -C loop1 -P 1 MCMR 2>&1
}
if [ $sm = 1 ]; then
	echo clear >$TSA/cmd
	echo "join loop0 1 $MGID" >$TSA/cmd 2>/dev/null
	out=$(cat $TSA/log)
	show "$out"
	mlid=$(echo "$out" | sed -n 's/^join status 0 mlid \(0x[0-9a-f]*\) qkey 0xb1b pkey 0xffff$/\1/p')
	if [ -n "$mlid" ] && [ $((mlid)) -ge 49152 ]; then
		ktap_pass "join: opensm's SA answers with a multicast LID ($mlid)"
	else
		ktap_fail "join: opensm's SA answers with a multicast LID" "$out"
	fi
	# the group's record (opensm leaves the PortGid of other ports' and
	# groups' records out for an untrusted requester): its MLID, Q_Key
	# and P_Key
	out=$(mcmr)
	rec=$(echo "$out" | awk -v m="$MGID" '
		/^MCMember Record dump:/ { inrec = 0 }
		$1 ~ /^MGID\.+/ { inrec = (substr($1, match($1, /[^.]+$/)) == m) }
		inrec { print $1 }')
	got=$(echo "$rec" | sed -n 's/^mlid\.*//p')
	qk=$(echo "$rec" | sed -n 's/^qkey\.*//p')
	pk=$(echo "$rec" | sed -n 's/^pkey\.*//p')
	if [ -n "$mlid" ] && [ "$((got))" = "$((mlid))" ] &&
	   [ "$qk" = 0xb1b ] && [ "$pk" = 0xffff ]; then
		ktap_pass "saquery MCMR: the group with its MLID, Q_Key and P_Key"
	else
		show "$out"
		ktap_fail "saquery MCMR: the group with its MLID, Q_Key and P_Key" \
			"$MGID: mlid '$got' (joined $mlid) qkey '$qk' pkey '$pk'"
	fi
	echo clear >$TSA/cmd
	if echo "leave $MGID" >$TSA/cmd 2>/dev/null &&
	   [ "$(cat $TSA/log)" = "leave ok" ]; then
		i=0
		while mcmr | grep -qi "$MGID" && [ $i -lt 20 ]; do
			ktap_nap 0.5
			i=$((i + 1))
		done
		if mcmr | grep -qi "$MGID"; then
			ktap_fail "leave: the group is gone from saquery MCMR" "$(mcmr | head -n 8)"
		else
			ktap_pass "leave: the group is gone from saquery MCMR"
		fi
	else
		ktap_fail "leave: the group is gone from saquery MCMR" "leave: $(cat $TSA/log)"
	fi
else
	ktap_fail "join: opensm's SA answers with a multicast LID" "no SM (opensm did not bring the ports up)"
	ktap_fail "saquery MCMR: the group with its MLID, Q_Key and P_Key" "no SM"
	ktap_fail "leave: the group is gone from saquery MCMR" "no SM"
fi

# ibacm, Debian's, unmodified, beside the running opensm: it opens both
# loop devices (verbs through ipathverbs, umad), joins its multicast
# group through opensm's SA on each port and listens on
# RDMA_NL_GROUP_LS.  A kernel path query then goes to it; it asks the
# SA itself and answers with opensm's path.  With opensm killed, the
# next query is answered from its cache; with ibacm ended by SIGTERM
# too, a query gets no path at all, so the answers before were ibacm's.
# Its log (level 2) shows each netlink request and answer.
ACM=/usr/sbin/ibacm
ACM_LOG=/tmp/ibacm.log
ACM_PID=
ACM_DEVS="loop0 loop1"

# acm_ready: ibacm has sent a join for each port of ACM_DEVS, both joins
# succeeded and its NETLINK_RDMA socket (port id: its pid) is bound to
# RDMA_NL_GROUP_LS (group 3: bit 2 of /proc/net/netlink's Groups); or
# ibacm is gone.  One awk a round.
acm_ready() {
	kill -0 "$ACM_PID" 2>/dev/null || return 0
	awk -v pid="$ACM_PID" -v devs="$ACM_DEVS" '
		FILENAME == "/proc/net/netlink" {
			if ($2 == 20 && $3 == pid && $4 == "00000004") nl = 1
			next
		}
		/ acmp_join_group: loop[0-9]+ 1 pkey / {
			for (i = 1; i <= NF; i++)
				if ($i == "acmp_join_group:") sent[$(i + 1)] = 1
		}
		/ join successful$/ { ok++ }
		END {
			n = split(devs, d, " ")
			for (i = 1; i <= n; i++) if (!(d[i] in sent)) exit 1
			exit !(nl && ok >= n)
		}' /proc/net/netlink $ACM_LOG 2>/dev/null
}

# acm_counts: req, ans and cached = how many netlink RESOLVE requests
# from the kernel (type RDMA_NL_LS << 10 | RDMA_NL_LS_OP_RESOLVE,
# NLM_F_REQUEST, port id 0), answers with a path record and answers from
# the cache ibacm's log shows (one awk)
acm_counts() {
	set -- $(awk '
		/ acm_nl_receive: nlmsg: len [0-9]+ type 0x1000 flags 0x1 seq [0-9]+ pid 0$/ { r++ }
		/ acm_nl_send: acm status success$/ { a++ }
		/ request satisfied from local cache$/ { c++ }
		END { print r + 0, a + 0, c + 0 }' $ACM_LOG 2>/dev/null)
	req=${1:-0} ans=${2:-0} cached=${3:-0}
}

# what ibacm's log says of its devices, joins, the netlink requests
# and answers and its errors, when a case fails
acm_tail() {
	ktap_quote "$(grep -E -e ' (acm_open_dev|acmp_join_group|acmp_process_join_resp|acm_server|acm_nl_receive|acm_nl_send|acmp_resolve_path|acmp_dest_sa_resp): ' \
		-e 'ERROR|Error|notice|Warn|WARN' $ACM_LOG 2>/dev/null | tail -n 40)" "ibacm: "
}

acm=0
if [ $sm = 1 ] && [ -x $ACM ]; then
	# Files of its own under /tmp: options (log, lock file) and
	# addresses (one endpoint name per port, ours: no ib_acme -A); its
	# socket for ib_acme is the built-in /run/ibacm-unix.sock (unix
	# mode: no TCP port), which nothing else in the guest uses.
	cat >/tmp/ibacm_opts.cfg <<-EOF
	log_file $ACM_LOG
	log_level 2
	lock_file /tmp/ibacm.pid
	server_mode unix
	provider_lib_path /usr/lib/x86_64-linux-gnu/ibacm
	EOF
	: >/tmp/ibacm_addr.cfg
	for d in $ACM_DEVS; do
		echo "$d-1 $d 1 default" >>/tmp/ibacm_addr.cfg
	done
	: >$ACM_LOG
	$ACM -P -O /tmp/ibacm_opts.cfg -A /tmp/ibacm_addr.cfg >/tmp/ibacm.out 2>&1 &
	ACM_PID=$!
	ktap_wait 30 acm_ready
	if kill -0 "$ACM_PID" 2>/dev/null && acm_ready; then
		acm=1
		ktap_pass "ibacm opens loop0 and loop1, joins on both and listens on RDMA_NL_GROUP_LS"
	else
		ktap_fail "ibacm opens loop0 and loop1, joins on both and listens on RDMA_NL_GROUP_LS" \
			"not ready in 30 s$(kill -0 "$ACM_PID" 2>/dev/null || echo ': ibacm exited')"
		ktap_quote "$(cat /tmp/ibacm.out 2>/dev/null)" "ibacm: "
		ktap_quote "$(awk '$2 == 20' /proc/net/netlink)" "netlink: "
		acm_tail
	fi
else
	ktap_fail "ibacm opens loop0 and loop1, joins on both and listens on RDMA_NL_GROUP_LS" \
		"$([ $sm = 1 ] && echo "no $ACM" || echo "no SM")"
fi

# acm_query NAME "REQ ANS CACHED": a path query from loop0 gets opensm's
# path, and ibacm's log counts REQ requests, ANS answers, CACHED of them
# from its cache (in all, since it started)
acm_query() {
	if [ $acm = 0 ]; then
		ktap_fail "$1" "ibacm did not start"
		return
	fi
	path 2000
	show "$out"
	acm_counts
	if [ "$out" = "$osm_line" ] && [ "$req $ans $cached" = "$2" ]; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "'$out' (opensm's: '$osm_line'); ibacm's log: $req requests, $ans answers, $cached from its cache ($2 expected)"
		acm_tail
	fi
}

acm_query "a path query from loop0: ibacm answers over RDMA_NL_LS with opensm's path" "1 1 0"

# opensm gone: only ibacm's cache can answer now
if [ -n "$OSM_PID" ]; then
	kill "$OSM_PID" 2>/dev/null
	wait "$OSM_PID" 2>/dev/null
	OSM_PID=
fi
acm_query "opensm killed: ibacm answers from its cache" "2 2 1"

# SIGTERM: ibacm has no handler, the signal ends it (status 128 + 15),
# not a crash
name="ibacm ends on SIGTERM"
if [ -n "$ACM_PID" ]; then
	kill -TERM "$ACM_PID" 2>/dev/null
	wait "$ACM_PID" 2>/dev/null
	rc=$?
	ACM_PID=
	if [ $rc = 143 ]; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "exit status $rc"
		acm_tail
	fi
else
	ktap_fail "$name" "ibacm did not start"
fi

# the control: neither ibacm nor an SM.  The query goes to the SA's LID
# (loop0's port, opensm's), where no agent takes SA requests any more:
# the MAD layer answers it as unsupported, and the query ends with
# -EINVAL (as upstream's; an error whatever it is): the answers above
# were ibacm's
name="without ibacm and opensm the query gets no path"
if [ $acm = 1 ]; then
	path 300
	show "$out"
	case "$out" in
	"path status -"[1-9]*) ktap_pass "$name" ;;
	*) ktap_fail "$name" "'$out', not an error" ;;
	esac
else
	ktap_fail "$name" "ibacm did not start"
fi

if [ -n "$OSM_PID" ]; then
	kill "$OSM_PID" 2>/dev/null
	wait "$OSM_PID" 2>/dev/null
fi
unload_all() {
	rmmod rdma_test_sa && rmmod ib_umad && rmmod rdma_loop &&
		rmmod rdmavt && rmmod ib_uverbs && rmmod_settle ib_core
}
ktap_test "rdma_test_sa, ib_umad, rdma_loop, rdmavt and ib_core unload" unload_all

health_check
ktap_finish
