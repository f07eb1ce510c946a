#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# NVMe over Fabrics on our stack, with the kernel's own transports:
# upstream's nvme-rdma and nvmet-rdma, unmodified, built against our
# include/ (upstream/build-nvme.sh), and Debian's nvme-cli.  Both halves
# of this file run at once (guest/wire.sh): guest 1 is the target, guest
# 2 the host, each with an RDMA device of the pass's link type on its end
# of the wire.  The transport is one parameter: the body below runs once
# per link type of NVMF_LINK_TYPES, rxe (our soft-RoCE: RoCE v2, the IB
# CM over QP1, FRWR with remote invalidation) and siw (our soft-iWARP:
# the iWARP CM, READ with local invalidate); the quick tier (make check)
# runs siw only (the rxe pass passes its quick cases but costs about
# twice siw's time, over the quick tier's budget), the full tier (make
# check-full) both, rxe first.
#
# In each pass the target exports a loop device through nvmet's configfs
# (subsystem, namespace, port with transport rdma); the host discovers
# it, connects, writes blocks of 4 KiB to 2 MiB with O_DIRECT through
# /dev/nvmeXnY and reads them back, and both sides compare the checksums
# of what the host wrote with what the target's loop device holds.  Then
# the stress cases:
#   - I/O running while "rdma link delete" removes the host's device:
#     nvme-rdma's client removal deletes the controller, the I/O ends with
#     an error, the target lets go of the host's queues;
#   - I/O running while the target's port is removed: the host's
#     controller goes to its reconnect logic, fails its attempts (nothing
#     listens) and gives up after ctrl_loss_tmo.
# Every module unloads at the end of each pass (the next pass loads its
# own); the run's splat and kmemleak scans cover the rest.
# needs: /usr/bin/rdma /usr/sbin/nvme
# timeout: 600 1200

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh
. /testbed/lib/wire.sh
. /testbed/lib/nvmf.sh

NVMF_LINK_TYPES=${NVMF_LINK_TYPES:-$(tier_pick siw "rxe siw")}
DEV=nvmf0
PORT=4420
TARGET=1
IMG=/tmp/nvmf.img
# The blocks written: "SIZE_KIB OFFSET_KIB", each offset a multiple of
# its size (dd's seek counts blocks).  busybox dd maps its buffer (page
# aligned, as O_DIRECT wants) from 4 KiB up.  2 MiB is two commands of
# nvmet-rdma's largest transfer (1 MiB) at once.  The debug kernel under
# TCG moves about 250 KB/s through siw (kmemleak and KASAN on every skb),
# hence no more data than this, and a longer I/O timeout than NVMe's
# 30 s.  The quick tier writes the first two blocks and removes only the
# host's device under I/O; the full tier writes all four and removes the
# target's port under I/O too.  The quick tier also leaves out the
# disconnect with nvme-cli and the connect after it: it removes the
# host's device under I/O on its first connection (made with
# ctrl_loss_tmo 10 s, as the full tier's second).
NVMF_BLOCKS=$(tier_pick "4 0
128 1024" "4 0
128 1024
1024 4096
2048 8192")
PORT_REMOVAL=$(tier_pick no yes)
DISCONNECT=$(tier_pick no yes)
IO_TIMEOUT=180

is_target() { [ "$WIRE_SELF" = "$TARGET" ]; }

# The module of a link type: rdma link add's type is upstream's ("rxe"),
# the module is "rdma_rxe".
link_module() {
	case "$1" in
	rxe) echo rdma_rxe ;;
	*) echo "$1" ;;
	esac
}

# now: NOW = whole seconds since boot, read by the shell.
now() {
	local up rest
	read -r up rest </proc/uptime
	NOW=${up%.*}
}

# wait_for SECONDS COMMAND...: COMMAND succeeds within SECONDS (polled
# every 0.2 s, without a process of the loop's own).
wait_for() {
	local end
	now
	end=$((NOW + $1))
	shift
	while ! "$@" 2>/dev/null; do
		now
		[ "$NOW" -ge "$end" ] && return 1
		ktap_nap 0.2
	done
}

# The controller of our subsystem (nvmeN) and its namespace (nvmeNnM).
ctrl() {
	local c q
	for c in /sys/class/nvme/nvme*; do
		[ -e "$c/subsysnqn" ] || continue
		read -r q <"$c/subsysnqn"
		[ "$q" = "$NQN" ] && { echo "${c##*/}"; return 0; }
	done
	return 1
}
no_ctrl() { ! ctrl >/dev/null; }

load() {
	echo $IO_TIMEOUT >/sys/module/nvme_core/parameters/io_timeout || return
	if is_target; then
		stack_load ours "$(link_module "$NVMF_LINK_TYPE")" nvmet_rdma
	else
		stack_load ours "$(link_module "$NVMF_LINK_TYPE")" nvme_rdma
	fi
}

# --- target side ---
# The image is sparse (reads of what was never written are zeros): 32
# MiB of zeros written to tmpfs took 3 s under TCG.
target_setup() {
	dd if=/dev/zero of=$IMG bs=1M seek=32 count=0 2>/dev/null &&
		losetup /dev/loop0 $IMG &&
		nvmf_subsys_add "$NQN" /dev/loop0
}
port_add() { nvmf_port_add "$NQN" rdma "$WIRE_SELF_IP" $PORT; }
port_remove() { nvmf_port_remove "$NQN"; }
target_teardown() {
	nvmf_subsys_remove "$NQN" &&
		losetup -d /dev/loop0 && rm -f $IMG
}
port_and_target_teardown() { port_remove && target_teardown; }
# The connected QPs on the device (an rxe device also has its GSI QP,
# QP1, for the IB CM: not one of the host's queues).
qps_on_dev() {
	rdma res show qp link $DEV/1 2>/dev/null | grep -c "^link $DEV/1 .* type RC "
}
no_qps() { [ "$(qps_on_dev)" = 0 ]; }
# qps_gone SECONDS: no_qps within SECONDS, else the QPs left (the case
# quotes them)
qps_gone() {
	wait_for "$1" no_qps && return 0
	rdma res show qp link $DEV/1
	return 1
}

# --- host side ---
connect() {
	nvmf_connect rdma "$NQN" "$WIRE_PEER_IP" $PORT "$@" || return
	wait_for 60 nvmf_ns_ready
}
# io_loop DEVICE STATUS: reads and writes with O_DIRECT until one fails
# or the device is gone (dd would write a regular file in its place);
# "STATUS ROUNDS" goes to STATUS, and the rounds done so far to
# /tmp/io.rounds after each.
io_loop() {
	local rc=0 i=0
	while [ $rc = 0 ]; do
		[ -b "$1" ] || { rc=255; break; }
		dd if="$1" of=/dev/null bs=64k count=4 iflag=direct 2>/dev/null || rc=$?
		[ $rc = 0 ] || break
		dd if=/dev/zero of="$1" bs=64k seek=$((256 + i % 64)) count=2 \
			oflag=direct 2>/dev/null || rc=$?
		i=$((i + 1))
		echo $i >/tmp/io.rounds
	done
	[ -f "$1" ] && rm -f "$1"
	echo "$rc $i" >"$2"
}
# stop_io PID: the I/O loop is over (it ends by itself once the device
# fails; a loop still going is stopped rather than waited for).
stop_io() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
io_ended() { [ -s "$1" ]; }
# io_start DEVICE: the I/O loop in the background (IOPID), once it did a
# round (or ended): the I/O runs when the test goes on, with no fixed
# wait for it.
io_start() {
	rm -f /tmp/io.st /tmp/io.rounds
	io_loop "$1" /tmp/io.st &
	IOPID=$!
	wait_for 60 io_going ||
		ktap_diag "the I/O loop did no round within 60 s"
}
io_going() { [ -s /tmp/io.rounds ] || [ -s /tmp/io.st ]; }
ctrl_state_is() {
	local c st
	c=$(ctrl) && read -r st </sys/class/nvme/"$c"/state && [ "$st" = "$1" ]
}
# failed_reconnects: nvme-rdma logged a failed reconnect attempt in this
# pass (the kernel log keeps the earlier passes' lines: RECONNECTS is
# how many there were when the pass began).
reconnect_lines() { dmesg | grep -c "Failed reconnect attempt"; }
failed_reconnects() {
	local n
	n=$(reconnect_lines)
	ktap_diag "failed reconnect attempts in the kernel log: $((n - RECONNECTS))"
	[ "$n" -gt "$RECONNECTS" ]
}

# sync_test NAME TAG [SECONDS]: a case passed when the other half met
# this one at TAG (wire_sync runs in this shell: its count must stay the
# same on both halves).
sync_test() {
	if wire_sync "$2" "${3:-300}"; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "the other guest did not meet at '$2'"
	fi
}

# nvmf_pass TYPE: the whole scenario over link type TYPE, from loading
# its modules to unloading every module; each case's name begins with
# TYPE.  Cases per pass: target 13 (quick) or 17 (full), host 16 or 24.
nvmf_pass() {
	local t=$1 h
	NVMF_LINK_TYPE=$t
	NQN=nqn.2026-11.org.rdma-testbed:nvmf-$t
	RECONNECTS=$(reconnect_lines)
	is_target && h=t

	ktap_test "$t: $(link_module "$t") and nvme$h-rdma load (ours; nvme$h-rdma built against our include/)" load
	ktap_test "$t: rdma link add $DEV type $t netdev eth0" \
		rdma link add $DEV type "$t" netdev eth0
	sync_test "$t: both guests are up (sync over the wire)" "nvmf $t: stacks up"

	# 1. export, discover, connect
	if is_target; then
		ktap_test "$t: target: loop device, subsystem and namespace through configfs" target_setup
		ktap_test "$t: target: port $PORT with transport rdma on $WIRE_SELF_IP" port_add
		ktap_has "$t: target: nvmet-rdma listens (rdma res show cm_id)" \
			"nvmet_rdma" rdma res show cm_id
		wire_sync "target ready" || ktap_diag "the host did not come"
		wire_sync connected || ktap_diag "the host did not connect"
		ktap_has "$t: target: the host's queues are connected (RC QPs on $DEV)" \
			"type RC " rdma res show qp link $DEV/1
	else
		wire_sync "target ready" || ktap_diag "the target did not come"
		ktap_has "$t: host: nvme discover lists the subsystem, transport rdma" \
			"subnqn: *$NQN" nvme discover -t rdma -a "$WIRE_PEER_IP" -s $PORT \
			-q $NVMF_HOSTNQN -I $NVMF_HOSTID
		if [ "$DISCONNECT" = yes ]; then
			ktap_test "$t: host: nvme connect -t rdma: a namespace appears" connect
		else
			ktap_test "$t: host: nvme connect -t rdma (ctrl_loss_tmo 10 s): a namespace appears" \
				connect -l 10 -c 1
		fi
		c=$(ctrl) n=$(nvmf_ns)
		ktap_diag "controller $c, namespace /dev/$n"
		ktap_has "$t: host: the controller's transport is rdma, at the target's address" \
			"traddr=$WIRE_PEER_IP,trsvcid=$PORT" \
			sh -c "cat /sys/class/nvme/$c/transport /sys/class/nvme/$c/address"
		ktap_test "$t: host: the namespace has the loop device's size (32 MiB)" \
			sh -c "[ \$((\$(cat /sys/block/$n/size) * 512)) = 33554432 ]"
		wire_sync connected || ktap_diag "the target did not answer"
	fi

	# 2. data, checked on both sides: each side's sha256 of each block
	# is the tag of the sync, which fails when they differ
	if is_target; then
		wire_sync written || ktap_diag "the host did not write"
		mine=$(nvmf_sums /dev/loop0)
		ktap_diag "the loop device holds: $mine"
		sync_test "$t: target: the loop device holds what the host wrote (sha256 of each block)" \
			"sums $mine"
	else
		out=$(nvmf_write_blocks "/dev/$n")
		rc=$?
		ktap_quote "$out"
		name="$t: host: $(echo "$NVMF_BLOCKS" | wc -l) blocks of 4 KiB to $(echo "$NVMF_BLOCKS" | tail -n 1 | cut -d' ' -f1) KiB written and read back with O_DIRECT, identical"
		if [ $rc = 0 ]; then ktap_pass "$name"; else ktap_fail "$name"; fi
		wire_sync written || ktap_diag "the target did not wait"
		# what nvmf_write_blocks read back, compared with what the
		# target reads
		read -r mine </tmp/nvmf.sums
		sync_test "$t: host: the target's loop device holds what the host wrote (sha256 of each block)" \
			"sums $mine"
	fi

	# 3. disconnect (full tier)
	if [ "$DISCONNECT" != yes ]; then
		:
	elif is_target; then
		wire_sync disconnected || ktap_diag "the host did not disconnect"
		ktap_test "$t: target: the host disconnected: no RC QP left on $DEV" \
			wait_for 60 no_qps
	else
		ktap_has "$t: host: nvme disconnect" "disconnected 1 controller" \
			nvme disconnect -n "$NQN"
		ktap_test "$t: host: the controller is gone" wait_for 30 no_ctrl
		wire_sync disconnected || ktap_diag "the target did not wait"
	fi

	# 4. the host's device removed under I/O
	if is_target; then
		sync_test "$t: target: the host's device went away under I/O" "device removed"
		ktap_test "$t: target: it let go of the host's queues (no RC QP on $DEV)" \
			qps_gone 120
		# the host connects again only now: its new queues must not
		# pass for old ones kept
		wire_sync "queues released" || ktap_diag "the host did not wait"
	else
		if [ "$DISCONNECT" = yes ]; then
			ktap_test "$t: host: connect again (ctrl_loss_tmo 10 s), I/O runs" \
				connect -l 10 -c 1
			n=$(nvmf_ns)
		fi
		io_start "/dev/$n"
		ktap_test "$t: host: rdma link delete $DEV under I/O returns" \
			timeout 120 rdma link delete $DEV
		ktap_test "$t: host: the controller is deleted" wait_for 60 no_ctrl
		ktap_test "$t: host: the I/O ended with an error" wait_for 60 io_ended /tmp/io.st
		ktap_diag "I/O loop: exit status and rounds $(cat /tmp/io.st 2>/dev/null)"
		stop_io $IOPID
		ktap_test "$t: host: rdma link add $DEV again" \
			rdma link add $DEV type "$t" netdev eth0
		wire_sync "device removed" || ktap_diag "the target did not wait"
		wire_sync "queues released" || ktap_diag "the target did not look"
	fi

	# 5. the target's port removed under I/O: the host watches its
	# controller from the moment the target starts (full tier)
	if [ "$PORT_REMOVAL" != yes ]; then
		:
	elif is_target; then
		wire_sync "io running" || ktap_diag "the host did not start its I/O"
		ktap_test "$t: target: the port is removed under I/O" port_remove
		ktap_test "$t: target: the host's queues are gone" qps_gone 120
		sync_test "$t: target: the host saw it and gave up" "port removed"
	else
		ktap_test "$t: host: connect (ctrl_loss_tmo 6 s, reconnect every 1 s), I/O runs" \
			connect -l 6 -c 1
		n=$(nvmf_ns)
		io_start "/dev/$n"
		wire_sync "io running" || ktap_diag "the target did not come"
		ktap_test "$t: host: the controller reconnects (state connecting)" \
			wait_for 60 ctrl_state_is connecting
		ktap_test "$t: host: it gives up after ctrl_loss_tmo: the controller is deleted" \
			wait_for 120 no_ctrl
		ktap_test "$t: host: failed reconnect attempts (kernel log)" \
			failed_reconnects
		ktap_test "$t: host: the I/O ended with an error" wait_for 60 io_ended /tmp/io.st
		ktap_diag "I/O loop: exit status and rounds $(cat /tmp/io.st 2>/dev/null)"
		stop_io $IOPID
		wire_sync "port removed" || ktap_diag "the target did not wait"
	fi

	# 6. teardown: every module goes, the next pass loads its own
	if is_target; then
		if [ "$PORT_REMOVAL" = yes ]; then
			ktap_test "$t: target: namespace, subsystem and loop device removed" \
				target_teardown
		else
			ktap_test "$t: target: port, namespace, subsystem and loop device removed" \
				port_and_target_teardown
		fi
	else
		ktap_test "$t: host: no NVMe controller is left" no_ctrl
	fi
	ktap_test "$t: rdma link delete $DEV" rdma link delete $DEV
	ktap_test "$t: every module of the stack unloads (nvme$h-rdma, $(link_module "$t"), rdma_cm, ib_core)" \
		stack_unload
	wire_sync "nvmf $t: done" || ktap_diag "the other half did not finish"
}

passes=0
for t in $NVMF_LINK_TYPES; do passes=$((passes + 1)); done
if is_target; then
	ktap_plan $((passes * $(tier_pick 13 17)))
else
	ktap_plan $((passes * $(tier_pick 16 24)))
fi
for t in $NVMF_LINK_TYPES; do
	nvmf_pass "$t"
done
ktap_finish
