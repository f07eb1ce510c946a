#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# ib_umad: /dev/infiniband/umadN and issmN of three loop devices ("rdma
# link add ... type loop netdev lo").  tools/testing/rdma/umadtest checks
# the user ABI (sysfs, registrations and their refusals, a request from
# one device's umad to another's and the response, a send that times
# out, reads and writes of wrong sizes, issm and IsSM, a device deleted
# under open files), with the ib_mad and ib_umad trace events of that
# traffic in tracefs; then everything unloads without a splat (leaks are
# the final kmemleak check's, which names the scenario).
# needs: /usr/bin/rdma
# timeout: 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

UMADTEST=/testbed/bin/umadtest
MAD=/sys/class/infiniband_mad


ktap_plan 10
health_mark

ktap_test "ib_umad loads" modprobe ib_umad
ktap_test "three loop devices" sh -c 'rdma link add umada type loop netdev lo &&
	rdma link add umadb type loop netdev lo &&
	rdma link add umadc type loop netdev lo'
n=$(ls -d $MAD/umad* 2>/dev/null | wc -l)
if [ "$n" = 3 ] && [ "$(ls -d $MAD/issm* | wc -l)" = 3 ]; then
	ktap_pass "one umad and one issm per loop device"
else
	ktap_fail "one umad and one issm per loop device" "$(ls $MAD 2>&1 | tr '\n' ' ')"
fi

TR=/sys/kernel/tracing
[ -d $TR/events ] || mount -t tracefs nodev $TR
mad_trace() {
	echo "$1" >$TR/events/ib_mad/enable && echo "$1" >$TR/events/ib_umad/enable
}
: >$TR/trace
mad_trace 1 || ktap_diag "could not enable the ib_mad and ib_umad events"

if [ -x $UMADTEST ]; then
	$UMADTEST umada umadb umadc >/tmp/umadtest.out 2>&1
	rc=$?
	mad_trace 0
	cp $TR/trace /tmp/mad.trace
	: >$TR/trace
	sed 's/^/# /' /tmp/umadtest.out
	if [ $rc -eq 0 ]; then
		ktap_pass "umadtest"
	else
		ktap_fail "umadtest" "exit $rc: $(grep '^not ok' /tmp/umadtest.out | tr '\n' ';')"
	fi
else
	ktap_fail "umadtest" "no $UMADTEST: did vm-run.sh build it?"
fi

# Every kind of event of umadtest's traffic (its timed-out request with
# one retry gives a resend and a send read back), each naming a device.
missing=""
for ev in ib_mad_create_agent ib_mad_unregister_agent ib_mad_ib_send_mad \
	  ib_mad_send_done_handler ib_mad_send_done_resend \
	  ib_mad_recv_done_handler ib_mad_recv_done_agent \
	  ib_mad_send_done_agent ib_umad_write ib_umad_read_recv \
	  ib_umad_read_send; do
	grep -Eq " $ev: umad[abc] port 1 " /tmp/mad.trace 2>/dev/null ||
		missing="$missing $ev"
done
# umadtest's first request (vendor class 0x09, TID low half 1) as written
grep -Eq ' ib_umad_write: umada port 1 .* class 0x09 .*method 0x01 .*tid 0x[0-9a-f]{8}00000001' \
	/tmp/mad.trace 2>/dev/null || missing="$missing ib_umad_write(first request)"
if [ -z "$missing" ]; then
	ktap_pass "tracefs: ib_mad and ib_umad events of the traffic"
else
	ktap_fail "tracefs: ib_mad and ib_umad events of the traffic" \
		"missing:$missing; $(wc -l </tmp/mad.trace 2>/dev/null) lines"
fi

# umadtest deleted umadc under open files: its umad and issm are gone,
# those of umada and umadb stay.
ibdevs() {
	cat $MAD/$1*/ibdev 2>/dev/null | sort | tr '\n' ' '
}
umads=$(ibdevs umad)
issms=$(ibdevs issm)
if [ "$umads" = "umada umadb " ] && [ "$issms" = "umada umadb " ]; then
	ktap_pass "the deleted device's umad and issm are gone, the others stay"
else
	ktap_fail "the deleted device's umad and issm are gone, the others stay" \
		"umad of '$umads', issm of '$issms'"
fi

ktap_test "remaining loop devices are deleted" sh -c \
	'rdma link delete umada && rdma link delete umadb'
if [ -z "$(ls -d $MAD/umad* $MAD/issm* 2>/dev/null)" ]; then
	ktap_pass "no umad or issm left"
else
	ktap_fail "no umad or issm left" "$(ls $MAD | tr '\n' ' ')"
fi

unload_all() {
	rmmod ib_umad && rmmod rdma_loop && rmmod rdmavt && rmmod ib_uverbs && rmmod_settle ib_core
}
ktap_test "ib_umad, rdma_loop, rdmavt and ib_core unload" unload_all

health_check
ktap_finish
