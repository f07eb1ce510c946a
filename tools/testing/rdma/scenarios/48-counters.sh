#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Counters with Debian's "rdma statistic" (iproute2 6.1): a loop device
# with the test ULP (rdma_test_ulp) moving traffic on it; the port's
# hardware counters (rdmavt's, upstream rxe's names) in sysfs
# hw_counters/ and in "rdma statistic show" grow with the traffic; one of
# the ULP's RC QPs bound to a per-QP counter ("statistic qp bind"), which
# counts too, and unbound again; auto mode set and reset; the kernel's
# refusals as the tool prints them.
# needs: /usr/bin/rdma
# timeout: 300

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

CLASS=/sys/class/infiniband
HW=$CLASS/loop0/ports/1/hw_counters
ULPDIR=/sys/kernel/debug/rdma_test_ulp
# how long the traffic may take to move the counters, in seconds
DEADLINE=30

# A launch of Debian's rdma costs much under TCG: values come from one
# JSON line each, read by the shell.

# json_u64 KEY TEXT: the first number of "KEY":N in TEXT (empty if none)
json_u64() {
	local t=${2#*\"$1\":}
	[ "$t" = "$2" ] && return 0
	echo "${t%%[!0-9]*}"
}

# grew NAME A B: B is a number greater than A
grew() {
	if [ -n "$2" ] && [ -n "$3" ] && [ "$3" -gt "$2" ]; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "'$2' -> '$3'"
	fi
}

ktap_plan 19

ktap_test "rdma_loop devices=1 loads" modprobe rdma_loop devices=1

# sysfs: one file per counter and lifespan
missing=
for f in sent_pkts rcvd_pkts duplicate_request out_of_seq_request \
	 rcvd_rnr_err send_rnr_err rcvd_seq_err ack_deferred \
	 retry_exceeded_err retry_rnr_exceeded_err completer_retry_err \
	 send_err link_downed rdma_sends rdma_recvs lifespan; do
	[ -r "$HW/$f" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then
	ktap_pass "ports/1/hw_counters has rxe's counters and lifespan"
else
	ktap_fail "ports/1/hw_counters has rxe's counters and lifespan" \
		"missing:$missing"
fi

ktap_test "rdma_test_ulp loads on loop0" modprobe rdma_test_ulp devices=loop0
read -r s0 <"$HW/sent_pkts"
j0=$(rdma statistic show link loop0/1 -j 2>&1)
ktap_quote "$j0"
# past_j0: sysfs has gone past what the tool showed in j0, for the
# three counters compared below (the tool's next reading is no lower)
past_j0() {
	local c v
	for c in sent_pkts rdma_sends rdma_recvs; do
		read -r v <"$HW/$c"
		[ "$v" -gt "$(json_u64 $c "$j0")" ] 2>/dev/null || return 1
	done
}
ktap_wait "$DEADLINE" past_j0 || ktap_diag "no traffic counted within $DEADLINE s"
read -r s1 <"$HW/sent_pkts"
grew "sysfs sent_pkts grows with the ULP's traffic" "$s0" "$s1"
j1=$(rdma statistic show link loop0/1 -j 2>&1)
ktap_quote "$j1"
grew "rdma statistic show: sent_pkts grows" "$(json_u64 sent_pkts "$j0")" \
	"$(json_u64 sent_pkts "$j1")"
grew "rdma statistic show: rdma_sends grows" "$(json_u64 rdma_sends "$j0")" \
	"$(json_u64 rdma_sends "$j1")"
grew "rdma statistic show: rdma_recvs grows" "$(json_u64 rdma_recvs "$j0")" \
	"$(json_u64 rdma_recvs "$j1")"

# one of the ULP's RC QPs
qps=$(rdma res show qp link loop0/1 2>&1)
qpn=$(sed -n 's/.*lqpn \([0-9]*\) .*type RC .*rdma_test_ulp.*/\1/p' <<EOF | head -n 1
$qps
EOF
)
ktap_quote "$qps"
ktap_diag "bound QP: $qpn"

ktap_test "rdma statistic qp bind: an RC QP of the ULP" \
	rdma statistic qp bind link loop0/1 lqpn "${qpn:-0}"
c0=$(rdma statistic qp show link loop0/1 -j 2>&1)
ktap_quote "$c0"
cntn=$(json_u64 cntn "$c0")
case "$c0" in
*"\"lqpn\":[$qpn]"*|*"\"lqpn\":$qpn"*)
	ktap_pass "rdma statistic qp show: the counter lists the QP" ;;
*)
	ktap_fail "rdma statistic qp show: the counter lists the QP" \
		"no lqpn $qpn" ;;
esac
# qp_grew: the counter's sent_pkts, read again into c1, passed c0's
qp_grew() {
	c1=$(rdma statistic qp show link loop0/1 -j 2>&1)
	[ "$(json_u64 sent_pkts "$c1")" -gt "$(json_u64 sent_pkts "$c0")" ] \
		2>/dev/null
}
ktap_wait "$DEADLINE" qp_grew || ktap_diag "the QP counted nothing within $DEADLINE s"
ktap_quote "$c1"
grew "the per-QP counter counts the QP's packets" \
	"$(json_u64 sent_pkts "$c0")" "$(json_u64 sent_pkts "$c1")"
ktap_refused "a bound QP cannot be bound again" \
	"The QP is bound already or is on another port" "Invalid argument" \
	rdma statistic qp bind link loop0/1 lqpn "${qpn:-0}"
ktap_test "rdma statistic qp unbind" \
	rdma statistic qp unbind link loop0/1 cntn "${cntn:-0}" lqpn "${qpn:-0}"
out=$(rdma statistic qp show link loop0/1 2>&1)
ktap_quote "$out"
case "$out" in
*"cntn"*) ktap_fail "no counter left after the unbind" "$out" ;;
*) ktap_pass "no counter left after the unbind" ;;
esac

ktap_test "rdma statistic qp set auto type on" \
	rdma statistic qp set link loop0/1 auto type on
ktap_has "rdma statistic qp mode: auto type on" "loop0/1 .*auto type on" \
	rdma statistic qp mode link loop0/1
ktap_refused "no manual bind in auto mode" \
	"The port binds QPs automatically: turn auto mode off first" \
	"Invalid argument" rdma statistic qp bind link loop0/1 lqpn "${qpn:-0}"
ktap_test "rdma statistic qp set auto off" \
	rdma statistic qp set link loop0/1 auto off
ktap_refused "bind of an unknown QP" "No such QP" \
	"No such file or directory" \
	rdma statistic qp bind link loop0/1 lqpn 16777200

unload() {
	rmmod rdma_test_ulp && rmmod rdma_loop && rmmod rdmavt && rmmod ib_uverbs &&
		rmmod_settle ib_core
}
ktap_test "rdma_test_ulp, rdma_loop, rdmavt and ib_core unload" unload
ktap_finish
