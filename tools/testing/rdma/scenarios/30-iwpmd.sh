#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The iWARP port-mapper client of iw_cm against Debian's real iwpmd.
# rdma_iwpm_user (core/tests/iwpm_user.c) plays an iWARP driver's CM;
# strace shows what crosses NETLINK_RDMA.  Covered: the ABI v4 HELLO,
# registration, IPv4 and IPv6 mappings (iwpmd holds the mapped TCP
# port), add-and-query with the remote info iwpmd reports, removal.
#
# iwpmd binds the mapped ports without listening, and /proc/net/tcp
# lists only listening and connected sockets, so "iwpmd holds port P" is
# checked the way it matters: nobody else can bind P.
# needs: /usr/sbin/iwpmd /usr/bin/strace
# timeout: 420

. /testbed/lib/ktap.sh

ST=/sys/kernel/debug/iwpm/status
U=/sys/kernel/debug/iwpm_user
PARAM=/sys/module/iw_cm/parameters/pm_timeout_ms
IF=iwpm0
A4=192.0.2.1
A6=2001:db8::1
TRACE=/tmp/iwpmd.strace

ktap_plan 16

status() { sed -n "s/^$1: //p" $ST; }
# Run one command of rdma_iwpm_user; print its result line.
cmd() { echo "$*" >$U/cmd && cat $U/result; }
# Value of KEY=... in a result line.
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
port_of() { echo "$1" | sed 's/.*://'; }
# Whether some process has TCP port $1 bound (we cannot bind it).
port_held() {
	out=$( (timeout 2 nc -l -p "$1") 2>&1)
	echo "$out" | grep -qi "in use"
}
# wait_until SECONDS COMMAND...: poll every 0.5 s.
wait_until() {
	t=$(($1 * 2))
	shift
	while [ $t -gt 0 ]; do
		"$@" && return 0
		sleep 0.5
		t=$((t - 1))
	done
	return 1
}
iwpmd_pid() { pidof iwpmd | cut -d' ' -f1; }
pm_is_iwpmd() {
	p=$(iwpmd_pid)
	[ -n "$p" ] && [ "$(status port_mapper)" = "$p" ] &&
		[ "$(status abi_version)" = 4 ]
}
# Start iwpmd under strace (output file $1) and wait for its HELLO.
start_iwpmd() {
	strace -f -xx -s 4096 -e trace=%network -o "$1" iwpmd -s &
	wait_until 60 pm_is_iwpmd
}
stop_iwpmd() {
	p=$(iwpmd_pid)
	[ -n "$p" ] && kill "$p"
	wait_until 20 sh -c '! pidof iwpmd >/dev/null'
}
pm_gone() { [ "$(status port_mapper)" -lt 0 ]; }

for m in rdma_iwpm_user iw_cm; do
	grep -q "^$m " /proc/modules && rmmod $m
done
ip link add $IF type dummy
echo 0 >/proc/sys/net/ipv6/conf/$IF/accept_dad 2>/dev/null
ip addr add $A4/24 dev $IF
ip -6 addr add $A6/64 dev $IF
ip link set $IF up

# 1-2: load; the client starts with no port mapper.
ktap_test "modprobe iw_cm and rdma_iwpm_user" \
	sh -c 'modprobe iw_cm && modprobe rdma_iwpm_user'
if [ "$(status port_mapper)" = -1 ] && [ "$(status mappings)" = 0 ]; then
	ktap_pass "no port mapper before iwpmd starts"
else
	ktap_fail "no port mapper before iwpmd starts" "$(cat $ST)"
fi

# 3-5: iwpmd starts: HELLO v4 at sequence 0, our HELLO back, no error.
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

# 6: registration (REG_PID by multicast, iwpmd answers).
r=$(cmd register siw0 $IF)
if [ "$(field "$r" ret)" = 0 ] && [ "$(status registration)" = 0x2 ]; then
	ktap_pass "register with iwpmd"
else
	ktap_fail "register with iwpmd" "$r / $(status registration)"
fi

# 7-10: IPv4 and IPv6 mappings; iwpmd holds the mapped ports.
r4=$(cmd add $A4 7174)
m4=$(field "$r4" mapped)
p4=$(port_of "$m4")
ktap_diag "add $A4:7174: $r4"
if [ "$(field "$r4" ret)" = 0 ] && [ "${m4%:*}" = $A4 ] &&
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
r6=$(cmd add $A6 7175)
m6=$(field "$r6" mapped)
p6=$(port_of "$m6")
ktap_diag "add [$A6]:7175: $r6"
if [ "$(field "$r6" ret)" = 0 ] && [ "${m6%:*}" = "[$A6]" ] &&
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

# 11-12: add-and-query to the IPv4 mapping: iwpmd asks its peer (itself
# over UDP), answers, and reports the connecting side as remote info.
rq=$(cmd query $A4 7176 $A4 7174)
mq=$(field "$rq" mapped)
ktap_diag "query $A4:7176 -> $A4:7174: $rq"
if [ "$(field "$rq" ret)" = 0 ] && [ "$(field "$rq" mapped_rem)" = "$m4" ] &&
   [ "$mq" != "$A4:7176" ]; then
	ktap_pass "add-and-query returns both mapped addresses"
else
	ktap_fail "add-and-query returns both mapped addresses" "$rq"
fi
have_remote() { [ "$(status remote_infos)" = 1 ]; }
wait_until 10 have_remote
rr=$(cmd remote $A4 "$p4" $A4 "$(port_of "$mq")")
if [ "$(field "$rr" remote)" = "$A4:7176" ] &&
   [ "$(status remote_infos)" = 0 ]; then
	ktap_pass "remote info of the connecting side recorded and taken"
else
	ktap_fail "remote info of the connecting side recorded and taken" \
		"$rr / $(status remote_infos)"
fi

# 13-14: removal releases the port.
r=$(cmd remove $A4 7174)
if [ "$(field "$r" ret)" = 0 ] && [ "$(status mappings)" = 2 ]; then
	ktap_pass "remove the IPv4 mapping"
else
	ktap_fail "remove the IPv4 mapping" "$r / $(status mappings)"
fi
p4_free() { ! port_held "$p4"; }
if wait_until 10 p4_free; then
	ktap_pass "iwpmd released the IPv4 mapped port"
else
	ktap_fail "iwpmd released the IPv4 mapped port" "$p4 still bound"
fi

stop_iwpmd

# 15-16: unload.
ktap_test "rmmod rdma_iwpm_user iw_cm" \
	sh -c 'rmmod rdma_iwpm_user && rmmod iw_cm'
ip link del $IF
if [ ! -d /sys/kernel/debug/iwpm ]; then
	ktap_pass "iw_cm gone"
else
	ktap_fail "iw_cm gone"
fi
ktap_finish
