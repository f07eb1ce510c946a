#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The iWARP port-mapper client of iw_cm against Debian's real iwpmd.
# rdma_iwpm_user (core/iw_cm/tests/iwpm_user.c) plays an iWARP driver's CM;
# strace shows what crosses NETLINK_RDMA.  Covered: the ABI v4 HELLO,
# registration, IPv4 and IPv6 mappings (iwpmd holds the mapped TCP
# port), add-and-query with the remote info iwpmd reports, removal,
# iwpmd restart (the kernel replays its mappings, iwpmd acknowledges),
# iwpmd killed mid-request, no iwpmd, a stalled iwpmd (bounded wait),
# an unprivileged process posing as the port mapper (EPERM) and a root
# one that is not the registered port mapper (ignored).
#
# iwpmd binds the mapped ports without listening, and /proc/net/tcp
# lists only listening and connected sockets, so "iwpmd holds port P" is
# checked the way it matters: nobody else can bind P (busybox nc fails
# to listen on it, "Address in use"; when P is free, nc's listener shows
# in /proc/net/tcp or tcp6 and the probe ends there, without a timeout).
#
# A launch costs tens of milliseconds under TCG: the status, the
# results and the polls are read by the shell (no sed, cat or sleep).
# needs: /usr/sbin/iwpmd /usr/bin/strace /usr/bin/setpriv /usr/bin/perl
# timeout: 420

. /testbed/lib/ktap.sh

ST=/sys/kernel/debug/iwpm/status
U=/sys/kernel/debug/iwpm_user
PARAM=/sys/module/iw_cm/parameters/pm_timeout_ms
IF=iwpm0
A4=192.0.2.1
A6=2001:db8::1
TRACE=/tmp/iwpmd.strace

ktap_plan 36

# sv KEY: sval = the value of "KEY: VALUE" in the client's status
sv() {
	local rc=0
	ktap_status_value "$ST" "$1" || rc=1
	sval=$KTAP_VALUE
	return $rc
}
# sis KEY VALUE: the status says KEY: VALUE
sis() { sv "$1" && [ "$sval" = "$2" ]; }
# cmd ARGS: one command of rdma_iwpm_user; r = its result line
cmd() {
	r=
	echo "$*" >$U/cmd && { read -r r <$U/result || [ -n "$r" ]; }
}
# fv RESULT KEY: fval = the value of KEY=... in a result line
fv() {
	fval=" $1 "
	case "$fval" in
	*" $2="*)
		fval=${fval#*" $2="}
		fval=${fval%% *}
		;;
	*) fval= ;;
	esac
}
# fis RESULT KEY VALUE: KEY=VALUE in the result line
fis() { fv "$1" "$2" && [ "$fval" = "$3" ]; }
# running PID: PID is there and has not exited (not a zombie)
running() {
	local a b st rest
	read -r a b st rest 2>/dev/null </proc/"$1"/stat || return 1
	[ "$st" != Z ]
}
# port_state P: pstate = held when some process has TCP port P bound (nc
# cannot listen on it: "Address in use"), free when nc listens on it,
# unknown when neither shows within 20 s.
port_state() {
	local pid i=0 l
	pstate=unknown
	rm -f /tmp/nc.err
	nc -l -p "$1" </dev/null >/dev/null 2>/tmp/nc.err &
	pid=$!
	while [ $i -lt 200 ]; do
		if ! running $pid; then
			wait $pid
			while IFS= read -r l; do
				case "$l" in
				*[Ii]n\ use*) pstate=held ;;
				esac
			done </tmp/nc.err
			[ $pstate = held ] || ktap_quote "$(cat /tmp/nc.err)" "nc -l -p $1: "
			return 0
		fi
		if tcp_listening "$1"; then
			pstate=free
			break
		fi
		ktap_nap 0.1
		i=$((i + 1))
	done
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	return 0
}
# Whether some process has TCP port $1 bound (we cannot bind it).
port_held() { port_state "$1" && [ $pstate = held ]; }
port_free() { port_state "$1" && [ $pstate = free ]; }
# wait_until SECONDS COMMAND...: poll every 0.2 s.
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
# iwpmd_pid: ipid = the first iwpmd's pid
iwpmd_pid() {
	ipid=$(pidof iwpmd)
	ipid=${ipid%% *}
}
gone() { ! running "$1"; }
# the registered port mapper (ABI 4) is a process named iwpmd
pm_is_iwpmd() {
	local pm c
	sv port_mapper && pm=$sval && [ "$pm" -gt 0 ] 2>/dev/null &&
		sis abi_version 4 && read -r c 2>/dev/null </proc/"$pm"/comm &&
		[ "$c" = iwpmd ]
}
# Start iwpmd under strace (output file $1) and wait for its HELLO.
start_iwpmd() {
	strace -f -xx -s 4096 -e trace=%network -o "$1" iwpmd -s &
	wait_until 60 pm_is_iwpmd
}
stop_iwpmd() {
	iwpmd_pid
	[ -n "$ipid" ] && kill "$ipid" && wait_until 20 gone "$ipid"
}
pm_gone() { sv port_mapper && [ "$sval" -lt 0 ]; }

for m in rdma_iwpm_user iw_cm; do
	grep -q "^$m " /proc/modules && rmmod $m
done
# 1: the addresses to map, on a dummy device.
setup() {
	ip link add $IF type dummy &&
		echo 0 >/proc/sys/net/ipv6/conf/$IF/accept_dad &&
		ip addr add $A4/24 dev $IF && ip -6 addr add $A6/64 dev $IF &&
		ip link set $IF up
}
ktap_test "dummy $IF up with $A4 and $A6" setup

# 2-3: load; the client starts with no port mapper.
ktap_test "modprobe iw_cm and rdma_iwpm_user" \
	sh -c 'modprobe iw_cm && modprobe rdma_iwpm_user'
if sis port_mapper -1 && sis mappings 0; then
	ktap_pass "no port mapper before iwpmd starts"
else
	ktap_fail "no port mapper before iwpmd starts" "$(cat $ST)"
fi

# 4-6: iwpmd starts: HELLO v4 at sequence 0, our HELLO back, no error.
if start_iwpmd $TRACE; then
	ktap_pass "iwpmd is the registered port mapper, ABI 4"
else
	ktap_fail "iwpmd is the registered port mapper, ABI 4" "$(cat $ST)"
fi
hello_seen() {
	grep -F 'recvfrom(' $TRACE | grep -F 'nlmsg_type=0x808' |
		grep -qF 'nlmsg_pid=0}, "\x06\x00\x01\x00\x04\x00'
}
if wait_until 10 hello_seen; then
	ktap_pass "kernel answers HELLO with ABI version 4"
else
	ktap_fail "kernel answers HELLO with ABI version 4" "$(grep 0x808 $TRACE)"
fi
if grep -q NLMSG_ERROR $TRACE; then
	ktap_fail "no netlink error during the handshake" \
		"$(grep NLMSG_ERROR $TRACE)"
else
	ktap_pass "no netlink error during the handshake"
fi

# 7: registration (REG_PID by multicast, iwpmd answers).
cmd register siw0 $IF
if fis "$r" ret 0 && sis registration 0x2; then
	ktap_pass "register with iwpmd"
else
	ktap_fail "register with iwpmd" "$r / $(grep registration $ST)"
fi

# 8-11: IPv4 and IPv6 mappings; iwpmd holds the mapped ports.
cmd add $A4 7174
r4=$r
fv "$r4" mapped
m4=$fval
p4=${m4##*:}
ktap_diag "add $A4:7174: $r4"
if fis "$r4" ret 0 && [ "${m4%:*}" = $A4 ] &&
   [ -n "$p4" ] && [ "$p4" != 7174 ]; then
	ktap_pass "IPv4 address mapped to another port"
else
	ktap_fail "IPv4 address mapped to another port" "$r4"
fi
if [ -n "$p4" ] && port_held "$p4"; then
	ktap_pass "iwpmd holds the IPv4 mapped port"
else
	ktap_fail "iwpmd holds the IPv4 mapped port" "could bind $p4"
fi
cmd add $A6 7175
r6=$r
fv "$r6" mapped
m6=$fval
p6=${m6##*:}
ktap_diag "add [$A6]:7175: $r6"
if fis "$r6" ret 0 && [ "${m6%:*}" = "[$A6]" ] &&
   [ -n "$p6" ] && [ "$p6" != 7175 ]; then
	ktap_pass "IPv6 address mapped to another port"
else
	ktap_fail "IPv6 address mapped to another port" "$r6"
fi
if [ -n "$p6" ] && port_held "$p6"; then
	ktap_pass "iwpmd holds the IPv6 mapped port"
else
	ktap_fail "iwpmd holds the IPv6 mapped port" "could bind $p6"
fi

# 12-13: add-and-query to the IPv4 mapping: iwpmd asks its peer (itself
# over UDP), answers, and reports the connecting side as remote info.
cmd query $A4 7176 $A4 7174
rq=$r
fv "$rq" mapped
mq=$fval
ktap_diag "query $A4:7176 -> $A4:7174: $rq"
if fis "$rq" ret 0 && fis "$rq" mapped_rem "$m4" &&
   [ "$mq" != "$A4:7176" ]; then
	ktap_pass "add-and-query returns both mapped addresses"
else
	ktap_fail "add-and-query returns both mapped addresses" "$rq"
fi
have_remote() { sis remote_infos 1; }
wait_until 10 have_remote
cmd remote $A4 "$p4" $A4 "${mq##*:}"
rr=$r
if fis "$rr" remote "$A4:7176" && sis remote_infos 0; then
	ktap_pass "remote info of the connecting side recorded and taken"
else
	ktap_fail "remote info of the connecting side recorded and taken" \
		"$rr / $(grep remote_infos $ST)"
fi

# 14-15: removal releases the port.
cmd remove $A4 7174
if fis "$r" ret 0 && sis mappings 2; then
	ktap_pass "remove the IPv4 mapping"
else
	ktap_fail "remove the IPv4 mapping" "$r / $(grep mappings $ST)"
fi
if wait_until 10 port_free "$p4"; then
	ktap_pass "iwpmd released the IPv4 mapped port"
else
	ktap_fail "iwpmd released the IPv4 mapped port" "$p4 still bound"
fi

# 16-21: restart.  The kernel notices iwpmd's socket closing, the new
# iwpmd gets the two mappings and their count, and acknowledges them.
stop_iwpmd
if pm_gone; then
	ktap_pass "iwpmd stopped: no port mapper"
else
	ktap_fail "iwpmd stopped: no port mapper" "$(cat $ST)"
fi
wait_until 10 port_free "$p6"
if start_iwpmd $TRACE.2; then
	ktap_pass "restarted iwpmd is the port mapper"
else
	ktap_fail "restarted iwpmd is the port mapper" "$(cat $ST)"
fi
acked() { sis mapinfo_acked 2; }
if wait_until 20 acked && sis mapinfo_sent 2; then
	ktap_pass "2 mappings replayed and acknowledged"
else
	ktap_fail "2 mappings replayed and acknowledged" "$(cat $ST)"
fi
if grep -F 'recvfrom(' $TRACE.2 | grep -F 'nlmsg_type=0x806' |
   grep -F 'NLM_F_MULTI' | grep -qF 'nlmsg_type=NLMSG_DONE' &&
   grep -F 'sendto(' $TRACE.2 | grep -qF 'nlmsg_type=0x807'; then
	ktap_pass "strace: MAPINFO datagram ended by NLMSG_DONE, count acked"
else
	ktap_fail "strace: MAPINFO datagram ended by NLMSG_DONE, count acked" \
		"$(grep -E '0x806|0x807' $TRACE.2)"
fi
if port_held "$p6"; then
	ktap_pass "restarted iwpmd holds the IPv6 mapped port again"
else
	ktap_fail "restarted iwpmd holds the IPv6 mapped port again" "$p6"
fi
cmd register siw0 $IF
if fis "$r" ret 0 && sis registration 0x2; then
	ktap_pass "register again with the new iwpmd"
else
	ktap_fail "register again with the new iwpmd" "$r"
fi

# 22-24: iwpmd killed while a request waits: it fails at once, unmapped.
echo 60000 >$PARAM
sv requests_aborted
aborted=$sval
iwpmd_pid
p=$ipid
kill -STOP "$p"
(echo "add $A4 7400" >$U/cmd) &
writer=$!
pending() { sis pending_requests 1; }
wait_until 10 pending
kill -KILL "$p"
wait $writer
r=
read -r r <$U/result
ktap_diag "add while iwpmd dies: $r"
if fis "$r" ret -104 && fis "$r" mapped "$A4:7400"; then
	ktap_pass "request fails with ECONNRESET and the unmapped address"
else
	ktap_fail "request fails with ECONNRESET and the unmapped address" "$r"
fi
fv "$r" us
if [ "$fval" -lt 30000000 ] && sis requests_aborted $((aborted + 1)) &&
   sis pending_requests 0; then
	ktap_pass "the waiter did not sit out the timeout"
else
	ktap_fail "the waiter did not sit out the timeout" "$(cat $ST)"
fi
wait_until 10 gone "$p"
if pm_gone; then
	ktap_pass "killed iwpmd is no longer the port mapper"
else
	ktap_fail "killed iwpmd is no longer the port mapper" "$(cat $ST)"
fi

# 25-27: no iwpmd at all: unmapped at once.
cmd add $A6 7401
if fis "$r" ret 0 && fis "$r" mapped "[$A6]:7401" &&
   fv "$r" us && [ "$fval" -lt 1000000 ]; then
	ktap_pass "without iwpmd: unmapped address at once"
else
	ktap_fail "without iwpmd: unmapped address at once" "$r"
fi
# The client registered with the iwpmd that was killed, and a client
# stays registered when its port mapper goes (as upstream): register has
# nothing to send and returns 0 at once, with no port mapper known.
cmd register siw0 $IF
ktap_diag "register without iwpmd: $r"
if fis "$r" ret 0 && fis "$r" port_mapper 0 &&
   fv "$r" us && [ "$fval" -lt 1000000 ]; then
	ktap_pass "without iwpmd: register returns 0 at once"
else
	ktap_fail "without iwpmd: register returns 0 at once" "$r"
fi
if sis pending_requests 0; then
	ktap_pass "without iwpmd: nothing pending"
else
	ktap_fail "without iwpmd: nothing pending" "$(cat $ST)"
fi

# 28-30: a stalled iwpmd: the request gives up after pm_timeout_ms.
start_iwpmd $TRACE.3
cmd register siw0 $IF
ktap_diag "register with the third iwpmd: $r"
echo 2000 >$PARAM
sv requests_timed_out
timed_out=$sval
iwpmd_pid
p=$ipid
kill -STOP "$p"
cmd add $A4 7402
kill -CONT "$p"
ktap_diag "add to a stopped iwpmd: $r"
if fis "$r" ret -110 && fis "$r" mapped "$A4:7402"; then
	ktap_pass "stalled iwpmd: ETIMEDOUT and the unmapped address"
else
	ktap_fail "stalled iwpmd: ETIMEDOUT and the unmapped address" "$r"
fi
fv "$r" us
us=$fval
if [ "${us:-0}" -ge 2000000 ] && [ "$us" -lt 6000000 ] &&
   sis requests_timed_out $((timed_out + 1)); then
	ktap_pass "stalled iwpmd: waited pm_timeout_ms (2 s), not more"
else
	ktap_fail "stalled iwpmd: waited pm_timeout_ms (2 s), not more" \
		"us=$us $(cat $ST)"
fi
# Its late answer is dropped; the next request works again (within the
# usual 10 s: a resumed iwpmd under TCG on a busy host once took more
# than 2 s to answer).
echo 10000 >$PARAM
cmd add $A4 7403
if fis "$r" ret 0 && ! fis "$r" mapped "$A4:7403"; then
	ktap_pass "resumed iwpmd answers the next request"
else
	ktap_fail "resumed iwpmd answers the next request" "$r"
fi

# 31-34: processes posing as the port mapper while iwpmd is registered.
# pose.pl sends port-mapper messages from a socket of its own and
# prints the errno the kernel answers each with.
cat >/tmp/pose.pl <<'PERL'
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
my %op = (hello => 0x808, mapinfo => 0x806, add_answer => 0x801,
	  remote_info => 0x804);
sub attr {
	my ($type, $data) = @_;
	my $len = 4 + length($data);
	return pack("SS", $len, $type) . $data . "\0" x ((4 - $len % 4) % 4);
}
my $sa = pack("SnC4", 2, 7174, 192, 0, 2, 1) . "\0" x 120;
my %body = (
	hello => attr(1, pack("S", 4)),
	mapinfo => attr(1, "iWarpPortMapperUser\0") . attr(2, pack("S", 4)),
	add_answer => attr(1, pack("L", 1)) . attr(2, $sa) . attr(3, $sa) .
		      attr(4, pack("S", 0)),
	remote_info => attr(1, pack("L", 0)) . attr(2, $sa) . attr(3, $sa) .
		       attr(4, $sa) . attr(5, $sa) . attr(6, pack("S", 0)),
);
my $kernel = pack("SSLL", 16, 0, 0, 0);
socket(my $s, 16, 3, 20) or die "socket: $!";
bind($s, $kernel) or die "bind: $!";
for my $name (@ARGV) {
	my $msg = pack("LSSLL", 16 + length($body{$name}), $op{$name}, 5,
		       0, 0) . $body{$name};
	send($s, $msg, 0, $kernel) or die "send: $!";
	defined(recv($s, my $buf, 8192, 0)) or die "recv: $!";
	my ($len, $type, $flags, $seq, $pid, $err) = unpack("LSSLLl", $buf);
	print "$name type=$type errno=$err\n";
}
PERL
snapshot() { grep -v replies_ignored $ST; }
before=$(snapshot)
out=$(/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \
	/usr/bin/perl /tmp/pose.pl hello mapinfo add_answer remote_info 2>&1)
ktap_quote "$out" "unprivileged: "
if [ "$(grep -c 'type=2 errno=-1$' <<EOF
$out
EOF
)" = 4 ]; then
	ktap_pass "unprivileged sender: all 4 messages refused with EPERM"
else
	ktap_fail "unprivileged sender: all 4 messages refused with EPERM"
fi
if [ "$(snapshot)" = "$before" ] && pm_is_iwpmd; then
	ktap_pass "unprivileged sender changed nothing"
else
	ktap_fail "unprivileged sender changed nothing" "$(cat $ST)"
fi
sv replies_ignored
ignored=$sval
out=$(/usr/bin/perl /tmp/pose.pl add_answer remote_info 2>&1)
ktap_quote "$out" "root, not the port mapper: "
if [ "$(grep -c 'type=3 errno=-1$' <<EOF
$out
EOF
)" = 2 ] &&
   sis replies_ignored $((ignored + 2)) &&
   [ "$(snapshot)" = "$before" ] && pm_is_iwpmd; then
	ktap_pass "answers from root that is not the port mapper are ignored"
else
	ktap_fail "answers from root that is not the port mapper are ignored" \
		"$(cat $ST)"
fi
cmd add $A4 7404
if fis "$r" ret 0 && ! fis "$r" mapped "$A4:7404"; then
	ktap_pass "iwpmd still serves after the impostors"
else
	ktap_fail "iwpmd still serves after the impostors" "$r"
fi
stop_iwpmd

# 35-36: unload.
ktap_test "rmmod rdma_iwpm_user iw_cm" \
	sh -c 'rmmod rdma_iwpm_user && rmmod iw_cm'
ip link del $IF
if [ ! -d /sys/kernel/debug/iwpm ]; then
	ktap_pass "iw_cm gone"
else
	ktap_fail "iw_cm gone"
fi
ktap_finish
