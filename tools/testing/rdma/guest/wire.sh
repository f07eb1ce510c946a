# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The virtual wire between two guests (busybox ash).  In the VM this file
# is /testbed/lib/wire.sh.  vm-run.sh joins guests 1 and 2 by a virtio NIC
# each, on a tap device each, both taps on one bridge in a network
# namespace of the run's own; the guest's init names it eth0 and gives it
# 10.211.0.<guest>/24.  scenarios/wire/10-wire.sh checks the wire first
# (no burst held back, no frame lost).  A wire scenario
# (scenarios/wire/*.sh) runs on both guests at the same time, first thing
# after boot; each half learns which one it is from WIRE_SELF (1 or 2) and
# meets the other at named points:
#
#	. /testbed/lib/wire.sh
#	wire_sync "stacks loaded" || exit 1   # both halves got here
#	[ "$WIRE_SELF" = 1 ] && server... || client... "$WIRE_PEER_IP"
#
# wire_sync TAG [SECONDS] returns 0 once the other half called wire_sync
# with the same TAG as its call of the same rank (both halves must call it
# the same number of times), 1 when the tags differ or SECONDS (300) pass.
# It runs over TCP on the wire itself, so a wire that carries nothing
# fails it.
#
# 10.211.0.0/24 belongs to the wire: no test may use addresses in it
# (KUnit suites run in the same guests, in the same network namespace).

WIRE_DEV=eth0
WIRE_SELF=${GUEST:-1}
WIRE_PEER=$((3 - WIRE_SELF))
WIRE_SELF_IP=10.211.0.$WIRE_SELF
WIRE_PEER_IP=10.211.0.$WIRE_PEER
WIRE_SEQ=0

wire_sync() {
	local tag=$1 t=${2:-300} port got end
	WIRE_SEQ=$((WIRE_SEQ + 1))
	port=$((7100 + WIRE_SEQ))
	rm -f /tmp/wire-sync
	if [ "$WIRE_SELF" = 1 ]; then
		# Guest 1 answers only once it has read guest 2's line: busybox
		# nc exits at the end of what it receives, so had both sent at
		# once, guest 2's nc could take guest 1's line and its end and
		# exit before it sent its own.
		WIRE_TAG=$tag timeout "$t" nc -l -p "$port" -e sh -c \
			'read -r t; echo "$WIRE_TAG"; echo "$t" >/tmp/wire-sync' \
			2>/dev/null
	else
		# a try every 0.25 s until guest 1 listens (a refused
		# connection returns at once), T seconds in all
		end=$((t * 4))
		while [ "$end" -gt 0 ]; do
			echo "$tag" | nc -w 2 "$WIRE_PEER_IP" "$port" >/tmp/wire-sync 2>/dev/null &&
				[ -s /tmp/wire-sync ] && break
			sleep 0.25
			end=$((end - 1))
		done
	fi
	got=$(cat /tmp/wire-sync 2>/dev/null)
	if [ "$got" != "$tag" ]; then
		echo "wire: sync $WIRE_SEQ '$tag': the other guest said '${got:-nothing}'" >&2
		return 1
	fi
	return 0
}
