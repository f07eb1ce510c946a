#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# ib_uverbs with Debian's libibverbs and its providers, unmodified: a siw
# and an rxe device on dummy net devices and a loop device get uverbsN;
# ibv_devices lists them with the node GUIDs sysfs has; ibv_devinfo opens
# a context on siw (libsiw: siw's GET_CONTEXT response) and on rxe
# (librxe) and prints what QUERY_DEVICE and QUERY_PORT answer, checked
# against sysfs; the loop device's driver id (qib's) binds ipathverbs,
# whose context shows the port's LID.  Debian's ibv_rc_pingpong (with
# completion events and its data checked, and with on-demand paging
# MRs, explicit and implicit), ibv_uc_pingpong,
# ibv_ud_pingpong and ibv_srq_pingpong run between two processes on the
# loop device through ipathverbs and rdmavt's rings mapped into them,
# and on the rxe device through librxe and rxe's queues (over RoCE v2,
# the GID of the net device's address).
# (perftest runs in 81-perftest, with -F and -C: under TCG the check
# kernel gives it no clock to calibrate the CPU's frequency with.)
# tools/testing/rdma/uverbstest
# checks the commands and the event file from user space: header
# refusals, GET_CONTEXT and its async fd, QUERY_DEVICE and QUERY_PORT
# against sysfs, port events when the net device goes down and up, a
# writer with other credentials refused, and a device deleted under an
# open context (DEVICE_FATAL, then -EIO, and a clean close); PDs by
# handle (ALLOC_PD, DEALLOC_PD and its refusals, rdma res show pd); on
# the loop device, data through the commands alone (MRs, CQs with a
# completion channel, two RC QPs connected to each other, SEND, RDMA
# WRITE and READ posted and polled with write(), the malformed requests
# and the refusals while objects are in use, an on-demand paging MR
# and ADVISE_MR with its refusals), and a file's close taking
# its objects and context; on the rxe device, rxe's queues mapped and
# written by hand as librxe would, and as a broken process might
# (malformed send entries, SGE counts and indices past the queues,
# resizes under pending entries, a UD entry naming no AH).  In exclusive
# netns mode, a uverbsN refused (EPERM) from a namespace other than its
# device's.  The rdma cgroup controller's limits (uverbstest --cgroup:
# contexts and objects, EAGAIN past them, a device deleted under its
# charges).  Then a device deleted while nothing holds it, and
# everything unloads.
# needs: /usr/bin/rdma /usr/bin/ip /usr/bin/ibv_devices /usr/bin/ibv_devinfo
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav34.so
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
# needs: /usr/lib/x86_64-linux-gnu/libibverbs/libipathverbs-rdmav34.so
# needs: /etc/libibverbs.d/siw.driver /etc/libibverbs.d/rxe.driver
# needs: /etc/libibverbs.d/ipathverbs.driver
# needs: /usr/bin/ibv_rc_pingpong /usr/bin/ibv_uc_pingpong
# needs: /usr/bin/ibv_ud_pingpong /usr/bin/ibv_srq_pingpong
# timeout: 300 600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

IP=/usr/bin/ip
CLASS=/sys/class/infiniband
VCLASS=/sys/class/infiniband_verbs

# The node GUID of DEV as libibverbs prints it (sysfs has it with colons).
guid() {
	tr -d ':\n' <"$CLASS/$1/node_guid"
}

# uverbs_of DEV: the uverbsN whose ibdev is DEV.
uverbs_of() {
	local u
	for u in "$VCLASS"/uverbs*; do
		[ "$(cat "$u/ibdev" 2>/dev/null)" = "$1" ] && basename "$u" && return
	done
}

ktap_plan $(tier_pick 31 35)

setup() {
	$IP link add ud0 type dummy && $IP link set ud0 up &&
		$IP link add ud1 type dummy && $IP link set ud1 up &&
		$IP addr add 10.82.0.1/24 dev ud1 &&
		modprobe siw && modprobe rdma_rxe && modprobe rdma_loop &&
		modprobe ib_uverbs &&
		rdma link add uvsiw0 type siw netdev ud0 &&
		rdma link add uvrxe0 type rxe netdev ud1 &&
		rdma link add uvloop0 type loop netdev lo &&
		rdma link add uvloop1 type loop netdev lo
}
ktap_test "siw, rxe and loop devices, ib_uverbs loaded" setup

ok=1
for d in uvsiw0 uvrxe0 uvloop0; do
	u=$(uverbs_of $d)
	if [ -z "$u" ] || [ ! -c "/dev/infiniband/$u" ]; then
		ok=0
		ktap_diag "$d: no uverbsN (${u:-none}) or no /dev/infiniband/$u"
	fi
done
if [ $ok = 1 ]; then
	ktap_pass "each device has uverbsN and its character device"
else
	ktap_fail "each device has uverbsN and its character device"
fi
u=$(uverbs_of uvsiw0)
mode=$(stat -c %a "/dev/infiniband/$u" 2>&1)
if [ "$mode" = 666 ]; then
	ktap_pass "/dev/infiniband/$u has mode 666"
else
	ktap_fail "/dev/infiniband/$u has mode 666" "mode $mode"
fi
abi="$(cat $VCLASS/abi_version) $(cat $VCLASS/$u/abi_version) $(cat $VCLASS/$(uverbs_of uvrxe0)/abi_version) $(cat $VCLASS/$(uverbs_of uvloop0)/abi_version)"
if [ "$abi" = "6 1 2 2" ]; then
	ktap_pass "ABI versions: class 6, siw 1, rxe 2, rdmavt 2"
else
	ktap_fail "ABI versions: class 6, siw 1, rxe 2, rdmavt 2" "$abi"
fi

ktap_has "ibv_devices lists uvsiw0 with its node GUID" \
	"^[[:space:]]*uvsiw0[[:space:]]+$(guid uvsiw0)\$" ibv_devices
ktap_has "ibv_devices lists uvrxe0 with its node GUID" \
	"^[[:space:]]*uvrxe0[[:space:]]+$(guid uvrxe0)\$" ibv_devices

# ibv_devinfo on siw: libsiw's context, QUERY_DEVICE and QUERY_PORT
out=$(ibv_devinfo -d uvsiw0 2>&1)
rc=$?
ktap_quote "$out"
if [ $rc = 0 ]; then
	ktap_pass "ibv_devinfo -d uvsiw0 opens a context"
else
	ktap_fail "ibv_devinfo -d uvsiw0 opens a context" "exit $rc"
fi
if ktap_has_line "$out" "	transport:			iWARP (1)" &&
	ktap_has_line "$out" "	vendor_id:			0x626d74" &&
	ktap_has_line "$out" "	phys_port_cnt:			1"; then
	ktap_pass "uvsiw0: iWARP, siw's vendor id, one port"
else
	ktap_fail "uvsiw0: iWARP, siw's vendor id, one port"
fi
if ktap_has_line "$out" "			state:			PORT_ACTIVE (4)" &&
	ktap_has_line "$out" "			link_layer:		Ethernet"; then
	ktap_pass "uvsiw0 port 1: ACTIVE, Ethernet"
else
	ktap_fail "uvsiw0 port 1: ACTIVE, Ethernet"
fi

# ibv_devinfo -v on rxe: librxe's context, the GIDs from sysfs
out=$(ibv_devinfo -v -d uvrxe0 2>&1)
rc=$?
ktap_quote "$out"
if [ $rc = 0 ] &&
	ktap_has_line "$out" "	transport:			InfiniBand (0)" &&
	ktap_has_line "$out" "			link_layer:		Ethernet"; then
	ktap_pass "ibv_devinfo -v -d uvrxe0: RoCE port"
else
	ktap_fail "ibv_devinfo -v -d uvrxe0: RoCE port" "exit $rc"
fi
if echo "$out" | grep -q "GID\[.*\]:.*::ffff:10.82.0.1, RoCE v2"; then
	ktap_pass "uvrxe0 shows the RoCE v2 GID of 10.82.0.1"
else
	ktap_fail "uvrxe0 shows the RoCE v2 GID of 10.82.0.1"
fi
max_qp=$(echo "$out" | sed -n 's/^[[:space:]]*max_qp:[[:space:]]*//p')
# RXE_MAX_QP, upstream rxe's limit
if [ "$max_qp" = 1048560 ]; then
	ktap_pass "uvrxe0: max_qp is rxe's 1048560"
else
	ktap_fail "uvrxe0: max_qp is rxe's 1048560" "max_qp '$max_qp'"
fi

# The loop device reports qib's driver id: ipathverbs binds it
# (Documentation/hw/loop.rst, "User space").
out=$(ibv_devinfo -d uvloop0 2>&1)
rc=$?
ktap_quote "$out"
lid=$(printf '%d' "$(cat $CLASS/uvloop0/ports/1/lid)")
what="ibv_devinfo -d uvloop0 (ipathverbs): InfiniBand, sysfs's LID, the GUIDs' OUI as vendor"
if [ $rc = 0 ] &&
	ktap_has_line "$out" "	transport:			InfiniBand (0)" &&
	ktap_has_line "$out" "			link_layer:		InfiniBand" &&
	ktap_has_line "$out" "			port_lid:		$lid" &&
	ktap_has_line "$out" "	vendor_id:			0x2fa4e"; then
	ktap_pass "$what"
else
	ktap_fail "$what" "exit $rc, lid $lid"
fi

# Debian's pingpong programs: a server and a client on this guest, over
# TCP port PP_PORT, each with its own context on the device.  On the
# loop device through ipathverbs and rdmavt's rings (the CQs and receive
# queues mapped into the process, sends through POST_SEND).
PP_PORT=18515
PP_ITERS=$(tier_pick 100 2000)
# pingpong PROG DEV [ARGS]: PROG's server and client on DEV, with ARGS
pingpong() {
	local prog=$1 dev=$2 srv out rc src
	shift 2
	"$prog" -d "$dev" -i 1 -p $PP_PORT -n $PP_ITERS "$@" \
		>/tmp/pp.server 2>&1 &
	srv=$!
	if ! ktap_wait 30 tcp_listening $PP_PORT; then
		kill $srv 2>/dev/null
		wait $srv
		ktap_quote "$(cat /tmp/pp.server)" "server: "
		return 1
	fi
	out=$("$prog" -d "$dev" -i 1 -p $PP_PORT -n $PP_ITERS "$@" \
		localhost 2>&1)
	rc=$?
	wait $srv
	src=$?
	ktap_quote "$(cat /tmp/pp.server)" "server: "
	ktap_quote "$out" "client: "
	[ $rc = 0 ] && [ $src = 0 ] || return 1
	# "N iters in S seconds": every iteration ran
	case "$out" in *"$PP_ITERS iters in"*) return 0 ;; esac
	return 1
}
ktap_test "ibv_rc_pingpong on uvloop0: events, data checked" \
	pingpong ibv_rc_pingpong uvloop0 -e -c
# on-demand paging MRs (-o; -O: implicit, the whole address space):
# rdmavt faults the pages in as the requests meet them
# (Documentation/hw/loop.rst)
ktap_test "ibv_rc_pingpong on uvloop0: on-demand paging MR, data checked" \
	pingpong ibv_rc_pingpong uvloop0 -o -c
ktap_test "ibv_rc_pingpong on uvloop0: implicit on-demand paging MR" \
	pingpong ibv_rc_pingpong uvloop0 -O -c
ktap_test "ibv_uc_pingpong on uvloop0" pingpong ibv_uc_pingpong uvloop0
ktap_test "ibv_ud_pingpong on uvloop0" \
	pingpong ibv_ud_pingpong uvloop0 -s 1024
ktap_test "ibv_srq_pingpong on uvloop0: 4 QPs on a shared receive queue" \
	pingpong ibv_srq_pingpong uvloop0 -q 4

# On the rxe device through librxe and rxe's queues (completion, send,
# receive and shared receive queues mapped into the process, sends by
# the doorbell), over RoCE v2 with the GID of ud1's address: both
# processes on uvrxe0, so every packet takes rxe's loopback.  An
# iteration costs rxe several times the loop device's (packets, ACKs,
# the loopback's softirq; 8 to 30 ms under TCG with the debug kernel):
# the full tier runs 1000 of them.
PP_ITERS=$(tier_pick 50 1000)
# rxe_gid: the index of the RoCE v2 GID of 10.82.0.1 on uvrxe0
rxe_gid() {
	local i g t
	for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		g=
		read -r g <"$CLASS/uvrxe0/ports/1/gids/$i" 2>/dev/null
		[ "$g" = 0000:0000:0000:0000:0000:ffff:0a52:0001 ] || continue
		t=
		read -r t <"$CLASS/uvrxe0/ports/1/gid_attrs/types/$i" \
			2>/dev/null
		[ "$t" = "RoCE v2" ] && echo "$i" && return 0
	done
	return 1
}
gidx=$(rxe_gid)
ktap_diag "uvrxe0: the RoCE v2 GID of 10.82.0.1 is index ${gidx:-none}"
ktap_test "ibv_rc_pingpong on uvrxe0: events, data checked" \
	pingpong ibv_rc_pingpong uvrxe0 -g "${gidx:-0}" -e -c
# The quick tier runs the rc pingpong above on rxe (uverbstest's rxe
# cases cover UD, inline data and the SRQ ring through the commands);
# the full tier also the programs of the other transports on it.
if [ "${RDMA_TIER:-quick}" = full ]; then
	# 16 bytes: what a send entry of one SGE has room for, inline
	ktap_test "ibv_rc_pingpong on uvrxe0: 16 bytes inline, data checked" \
		pingpong ibv_rc_pingpong uvrxe0 -g "${gidx:-0}" -s 16 -c
	ktap_test "ibv_uc_pingpong on uvrxe0" \
		pingpong ibv_uc_pingpong uvrxe0 -g "${gidx:-0}"
	ktap_test "ibv_ud_pingpong on uvrxe0" \
		pingpong ibv_ud_pingpong uvrxe0 -g "${gidx:-0}" -s 512
	ktap_test "ibv_srq_pingpong on uvrxe0: 4 QPs on a shared receive queue" \
		pingpong ibv_srq_pingpong uvrxe0 -g "${gidx:-0}" -q 4
fi

# The commands and the event file from user space (uvloop1 is deleted
# under a context).
ktap_tool "uverbstest" uverbstest uvrxe0 ud1 uvloop1 uvloop0 uvrxe0 uvsiw0
left=$(rdma resource show pd dev uvrxe0 2>&1 | grep uverbstest)
left="$left$(rdma resource show ctx dev uvrxe0 2>&1)"
if [ -z "$left" ]; then
	ktap_pass "its close took its context and its PD"
else
	ktap_fail "its close took its context and its PD" "$left"
fi

# The rdma cgroup controller (cgroup v2): uverbstest --cgroup joins a
# cgroup limited to 2 contexts and 3 objects on uvcg0 and meets EAGAIN
# past them; uvcg0 is deleted under its charges, which the controller
# then forgets without a complaint.
CG=/sys/fs/cgroup
cg_setup() {
	{ grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG; } &&
		echo +rdma >$CG/cgroup.subtree_control && mkdir $CG/uvcg &&
		rdma link add uvcg0 type loop netdev lo
}
ktap_test "cgroup2 with the rdma controller; uvcg0 added" cg_setup
ktap_tool "uverbstest --cgroup" uverbstest --cgroup uvcg0 $CG/uvcg
cg_gone() {
	rmdir $CG/uvcg && ! dmesg | grep -q "Invalid device"
}
ktap_test "the cgroup removed; the controller had no stale pool" cg_gone

# Exclusive netns mode: a uverbsN opens only from the namespace of its
# device (uvrxe0 stays in the initial one); the shell's redirection
# opens it and reports open()'s errno.
u=$(uverbs_of uvrxe0)
netns_exclusive() {
	rdma sys set netns exclusive && $IP netns add uvns
}
ktap_test "netns exclusive, namespace uvns added" netns_exclusive
ktap_errno "$u (uvrxe0) refused from uvns" "Operation not permitted" \
	$IP netns exec uvns sh -c ": </dev/infiniband/$u"
ktap_test "$u (uvrxe0) opens from the initial namespace" \
	sh -c ": </dev/infiniband/$u"
# the namespace goes in the background: the mode changes once it is gone
netns_shared() {
	$IP netns del uvns && ktap_wait 30 rdma sys set netns shared 2>/dev/null
}
ktap_test "uvns deleted, netns shared again" netns_shared

deleted() {
	rdma link delete uvsiw0 && [ ! -e "$CLASS/uvsiw0" ] &&
		[ -z "$(uverbs_of uvsiw0)" ]
}
ktap_test "uvsiw0 deleted: its uverbsN goes" deleted

teardown() {
	rdma link delete uvrxe0 && rdma link delete uvloop0 &&
		$IP link del ud0 && $IP link del ud1 &&
		rmmod siw && rmmod rdma_rxe &&
		rmmod rdma_loop && rmmod rdmavt && rmmod ib_uverbs && rmmod_settle ib_core
}
ktap_test "everything unloads" teardown
ktap_finish
