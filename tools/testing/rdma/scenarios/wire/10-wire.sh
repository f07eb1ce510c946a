#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The wire itself, before anything else runs across it (both halves of
# this file run at once: guest/wire.sh).  Every figure taken across the
# wire is only as good as the wire, so two properties are checked, each
# guest measuring in turn:
#   - A burst is not held back: a burst of two UDP datagrams of 1400
#     bytes (two frames, given to the kernel at once), answered by one
#     small datagram, takes at most twice as long as one such datagram
#     answered the same way (means of many, the kinds taking turns:
#     wireping).  A wire that costs
#     a fixed amount per exchange and per frame keeps that within 3/2
#     however slow it is, also on a busy host; QEMU's TCP socket backend,
#     the wire until 2026-11-28, did not: the host's TCP held each burst's
#     second frame until it had the ACK of the first, which the other
#     QEMU's TCP delays by 40 ms.  Bursts of six are timed for the record.
#   - A TCP stream loses nothing: random data through busybox nc, each
#     way, arrives with the sender's SHA-256, and the receiver's TCP took
#     no segment out of order (TcpExt TCPOFOQueue unchanged: on a wire
#     that keeps frames in order, a segment comes early only when one
#     before it was lost), and eth0 counted no error or drop on either
#     guest.  QEMU's UDP backend failed this under load (the receiving
#     QEMU's socket buffer overflowed).
# timeout: 300 900

. /testbed/lib/ktap.sh
. /testbed/lib/wire.sh

BURSTS=$(tier_pick 60 400)
# the stream: a quick tier's 256 KiB is some 180 full frames each way
KIB=$(tier_pick 256 8192)
# the time a stream may take (at about 150 KiB/s under TCG, 2-3 times
# slower on a slow host)
STREAM_T=$(tier_pick 60 300)
WIREPING=/testbed/bin/wireping
PORT=7090
UDP_PORT=7091
DATA=/tmp/wire-data
GOT=/tmp/wire-got
FIFO=/tmp/wire-fifo

# counters: eth0's error and drop counters, one line.
counters() {
	local c
	for c in rx_errors tx_errors rx_dropped tx_dropped; do
		printf '%s=%s ' $c "$(cat /sys/class/net/$WIRE_DEV/statistics/$c)"
	done
	echo
}

# snmp FILE GROUP NAME: counter NAME of GROUP ("Tcp:", "TcpExt:") in FILE
# (/proc/net/snmp or netstat: a line of names, then one of values).
snmp() {
	awk -v g="$2" -v k="$3" '$1 == g {
		if (!c) { for (i = 2; i <= NF; i++) if ($i == k) c = i; next }
		print $c; exit }' "$1"
}

# rtt: this guest's half of the round-trip check (the other one waits):
# BURSTS bursts each of 1, 2 and 6 frames, taking turns (wireping), so
# that all three kinds see the same load of the host.  Means, not
# medians: the guest's clock (jiffies) steps by 4 ms, so each sample is
# a multiple of 4 ms and a median of them 0 or 4000, while the mean of
# many is not biased by the steps.
rtt() {
	local name="a burst of 2 frames comes back within twice the time of 1 frame (UDP, means of $BURSTS)"
	local out rc=0 one two line
	out=$($WIREPING "$WIRE_PEER_IP" $UDP_PORT 1,2,6 "$BURSTS" 2>&1) || rc=$?
	while read -r line; do
		ktap_diag "$line"
	done <<EOF
$out
EOF
	one=$(echo "$out" | sed -n 's/.* frames 1 .* mean_us \([0-9]*\) .*/\1/p')
	two=$(echo "$out" | sed -n 's/.* frames 2 .* mean_us \([0-9]*\) .*/\1/p')
	if [ $rc != 0 ] || [ -z "$one" ] || [ -z "$two" ]; then
		ktap_fail "$name" "bursts went unanswered or came short (wireping: $rc)"
	elif [ "$one" -gt 0 ] && [ "$two" -le $((2 * one)) ]; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "2 frames: $two us, 1 frame: $one us"
	fi
}

# listening PORT [udp]: a socket of this guest listens on TCP port PORT
# (busybox nc listens on IPv6's any address, in tcp6), or with udp, is
# bound to UDP port PORT (state 07).
listening() {
	local hex proto=${2:-tcp} state=0A
	hex=$(printf ':%04X' "$1")
	[ "$proto" = udp ] && state=07
	cat /proc/net/$proto /proc/net/${proto}6 2>/dev/null |
		awk -v p="$hex" -v s=$state '$2 ~ p"$" && $4 == s { f = 1 } END { exit !f }'
}

# await_listening PORT [udp]: listening, within 10 s.
await_listening() {
	local i=0
	while ! listening "$@" && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	listening "$@"
}

# stream FROM: KIB KiB of random data from guest FROM to the other one.
stream() {
	local from=$1 name sum ofo0 ofo1 pid rc=0
	if [ "$WIRE_SELF" = "$from" ]; then
		name="a TCP stream of $KIB KiB to the other guest arrives whole"
		sum=$(sha256sum <$DATA | cut -d' ' -f1)
		wire_sync "stream from $from: receiver listening" ||
			{ ktap_fail "$name" "no sync"; return; }
		timeout "$STREAM_T" nc "$WIRE_PEER_IP" $PORT <$DATA >/dev/null || rc=$?
		if ! wire_sync "stream from $from: sha256 $sum"; then
			ktap_fail "$name" "the receiver's data differs (nc exited with $rc)"
		elif [ $rc != 0 ]; then
			ktap_fail "$name" "nc exited with $rc"
		else
			ktap_pass "$name"
		fi
		return
	fi
	name="a TCP stream of $KIB KiB from the other guest arrives whole, nothing out of order"
	ofo0=$(snmp /proc/net/netstat TcpExt: TCPOFOQueue)
	rm -f $GOT $FIFO
	# stdin a FIFO open for writing too: it never ends, so nc sends no
	# FIN and stops only at the sender's (on EOF of its stdin, busybox nc
	# shuts its sending half; on EOF from the socket it exits)
	mkfifo $FIFO
	timeout "$STREAM_T" nc -l -p $PORT 0<>$FIFO >$GOT &
	pid=$!
	await_listening $PORT || ktap_diag "nc does not listen on port $PORT"
	wire_sync "stream from $from: receiver listening" ||
		{ kill $pid 2>/dev/null; ktap_fail "$name" "no sync"; return; }
	wait $pid || rc=$?
	ofo1=$(snmp /proc/net/netstat TcpExt: TCPOFOQueue)
	sum=$(sha256sum <$GOT | cut -d' ' -f1)
	ktap_diag "received $(wc -c <$GOT) bytes, status $rc, TCPOFOQueue $ofo0 -> $ofo1"
	if ! wire_sync "stream from $from: sha256 $sum"; then
		ktap_fail "$name" "the data differs from the sender's"
	elif [ $rc != 0 ]; then
		ktap_fail "$name" "nc exited with $rc"
	elif [ -z "$ofo0" ] || [ "$ofo0" != "$ofo1" ]; then
		ktap_fail "$name" "segments out of order: TCPOFOQueue $ofo0 -> $ofo1 (frames were lost)"
	else
		ktap_pass "$name"
	fi
	rm -f $GOT $FIFO
}

ktap_plan 5
before=$(counters)
retrans0=$(snmp /proc/net/snmp Tcp: RetransSegs)
ktap_test "both guests are up (sync over the wire)" wire_sync "wire up"

# Round trips: guest 1 measures while guest 2 waits, then the other way.
$WIREPING serve $UDP_PORT &
server=$!
await_listening $UDP_PORT udp || ktap_diag "wireping does not serve on port $UDP_PORT"
wire_sync "wireping serves" || ktap_diag "the other guest did not start wireping"
for g in 1 2; do
	[ "$WIRE_SELF" = $g ] && rtt
	wire_sync "round trips of guest $g measured" ||
		ktap_diag "the other guest did not finish its round trips"
done

kill $server
dd if=/dev/urandom of=$DATA bs=1K count="$KIB" 2>/dev/null
stream 2
stream 1
rm -f $DATA

after=$(counters)
retrans1=$(snmp /proc/net/snmp Tcp: RetransSegs)
ktap_diag "TCP segments retransmitted: $((retrans1 - retrans0)) (lost, or late: not checked)"
if [ "$before" = "$after" ]; then
	ktap_diag "eth0: $after"
	ktap_pass "eth0 counted no error and no drop"
else
	ktap_fail "eth0 counted no error and no drop" "before: $before, after: $after"
fi
ktap_finish
