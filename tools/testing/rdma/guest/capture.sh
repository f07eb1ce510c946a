# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Packet captures that leave the guest for the host's tshark (busybox
# ash).  In the VM this file is /testbed/lib/capture.sh; it needs
# ktap.sh.  A scenario declares each capture it takes in a header line
# that the host reads (tools/testing/rdma/capture.py: what it expects of
# the capture, and that a missing one fails):
#
#	# capture: NAME [guest=N] [min=FRAMES] [expect=KIND,KIND...]
#
#	. /testbed/lib/capture.sh
#	capture_start NAME eth0 -r -q 16     # rdmacap's options after IFACE
#	... the traffic ...
#	capture_stop NAME                    # two KTAP cases
#
# rdmacap (tools/testing/rdma/rdmacap) writes the capture to
# /tmp/capture-NAME.pcap; capture_stop stops it and sends the file,
# gzipped, to ttyS2, which vm-run.sh puts in the guest's capture.log on
# the host, framed by a line of its own:
#
#	rdma-capture SCENARIO NAME BYTES\n<BYTES bytes of gzipped pcap>
#
# The serial port moves some 25 KB a second under TCG; the test data in
# RDMA payloads compresses 25 times.
#
# (SCENARIO: $TESTBED_SCENARIO, e.g. 66-rxe-interop.guest1).  The port is
# set raw first: no newline of the pcap may become "\r\n" on its way.

CAPTURE_TTY=/dev/ttyS2
CAPTURE_PID=

# capture_on FILE: the capture wrote its header (24 bytes: it is bound).
capture_on() {
	[ -s "$1" ]
}

# capture_start NAME IFACE [RDMACAP OPTIONS]: rdmacap in the background
# on IFACE, returned once it captures.  One KTAP case.
capture_start() {
	local name=$1 dev=$2 f=/tmp/capture-$1.pcap
	shift 2
	rm -f "$f" "/tmp/capture-$name.err"
	/testbed/bin/rdmacap -i "$dev" -w "$f" "$@" \
		2>"/tmp/capture-$name.err" &
	CAPTURE_PID=$!
	if ktap_wait 10 capture_on "$f"; then
		ktap_pass "capture $name: rdmacap captures on $dev"
	else
		ktap_fail "capture $name: rdmacap captures on $dev" \
			"no pcap header after 10 s: $(cat "/tmp/capture-$name.err")"
	fi
}

# capture_stop NAME: stop rdmacap, send its file to the host.  Two KTAP
# cases: rdmacap ended cleanly (no frame dropped by the kernel), the
# file went to ttyS2 whole.
capture_stop() {
	local name=$1 f=/tmp/capture-$1.pcap rc=0 err size t0 t1
	if [ -n "$CAPTURE_PID" ]; then
		kill -TERM "$CAPTURE_PID" 2>/dev/null
		wait "$CAPTURE_PID" || rc=$?
		CAPTURE_PID=
	fi
	err=$(cat "/tmp/capture-$name.err" 2>/dev/null)
	ktap_quote "$err"
	if [ $rc -eq 0 ]; then
		ktap_pass "capture $name: rdmacap ends, no frame dropped"
	else
		ktap_fail "capture $name: rdmacap ends, no frame dropped" \
			"exit status $rc"
	fi
	size=
	gzip -c "$f" >"$f.gz" 2>/dev/null && size=$(wc -c <"$f.gz")
	if [ -z "$size" ] || [ ! -c $CAPTURE_TTY ]; then
		ktap_fail "capture $name: sent to the host ($CAPTURE_TTY)" \
			"no capture file or no $CAPTURE_TTY"
		return
	fi
	# fd 4 holds the port open: its settings stay while we write, and
	# closing it waits until the last byte has left.
	read -r t0 err </proc/uptime
	if exec 4<>$CAPTURE_TTY && stty -F $CAPTURE_TTY raw -echo -opost &&
	   printf 'rdma-capture %s %s %s\n' "${TESTBED_SCENARIO:-scenario}" \
		"$name" "$size" >&4 && cat "$f.gz" >&4; then
		exec 4>&-
		read -r t1 err </proc/uptime
		ktap_diag "sent in $t0 .. $t1 s of uptime"
		ktap_pass "capture $name: sent to the host ($size bytes gzipped)"
	else
		exec 4>&-
		ktap_fail "capture $name: sent to the host ($CAPTURE_TTY)" \
			"writing to $CAPTURE_TTY failed"
	fi
	rm -f "$f" "$f.gz"
}
