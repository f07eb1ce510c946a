#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# "rdma link delete" racing the unload of rdma_loop and rdmavt.  Each
# round loads rdma_loop with two devices (loop0, loop1) and adds a third
# with "rdma link add", then starts the three deletes and "rmmod
# rdma_loop; rmmod rdmavt" at once, the unload a little later every
# round so that it meets the deletes at different points of their
# teardown.  Afterwards both modules must be gone and no device left.
# Module exit must wait for a delete that is still tearing a device
# down: otherwise that thread runs code of a module already freed, and
# the oops (or hang) that follows fails the run here and in the results
# step.
#
# Starting a program is slow under TCG, so the checks use shell builtins
# only.  Rounds: 4 in the quick tier (make check), 16 in the full one
# (make check-full), or race.rounds=N on the kernel command line
# (RDMA_VM_APPEND=race.rounds=N).
# needs: /usr/bin/rdma
# timeout: 300

. /testbed/lib/ktap.sh

CLASS=/sys/class/infiniband
DEVS="loop0 loop1 race0"

rounds=$(tier_pick 4 16)
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case $arg in
	race.rounds=*) rounds=${arg#race.rounds=} ;;
	esac
done

splats() {
	dmesg | grep -E 'WARNING:|BUG:|KASAN:|UBSAN:|Oops|general protection|refcount_t:|ODEBUG:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|blocked for more than|soft lockup|Call Trace:'
}

# the modules of ours among $* that are loaded
loaded() {
	local name rest m found=""
	while read -r name rest; do
		for m in "$@"; do
			[ "$name" = "$m" ] && found="$found $m"
		done
	done </proc/modules
	echo $found
}

devices_left() {
	local d left=""
	for d in "$CLASS"/*; do
		[ -e "$d" ] && left="$left ${d##*/}"
	done
	echo $left
}

uptime_s() {
	local up rest
	read -r up rest </proc/uptime
	echo "${up%.*}"
}

ktap_plan 5
ktap_diag "$rounds rounds of 3 devices (race.rounds=N changes it)"

splats_before=$(splats | wc -l)
start=$(uptime_s)
bad_load=""
bad_unload=""
bad_left=""
deleted=0
attempts=0
r=0
while [ "$r" -lt "$rounds" ]; do
	r=$((r + 1))
	if ! modprobe rdma_loop devices=2; then
		bad_load="$bad_load $r(modprobe)"
		break
	fi
	rdma link add race0 type loop netdev lo || bad_load="$bad_load $r(race0)"

	pids=""
	for d in $DEVS; do
		rdma link delete "$d" >/dev/null 2>&1 &
		pids="$pids $!"
	done
	# the unload after 0, 20, .. 140 ms
	delay=$(((r % 8) * 20))
	(sleep "0.$(printf %03d $delay)"; rmmod rdma_loop && rmmod rdmavt) &
	unload=$!
	for p in $pids; do
		attempts=$((attempts + 1))
		wait "$p" && deleted=$((deleted + 1))
	done
	wait "$unload"

	left=$(loaded rdma_loop rdmavt)
	if [ -n "$left" ]; then
		bad_unload="$bad_unload $r($left)"
		# a clean stack for what follows
		rmmod rdma_loop
		rmmod rdmavt
	fi
	left=$(devices_left)
	[ -n "$left" ] && bad_left="$bad_left $r($left)"
	# a stuck round would only repeat its failure
	[ -n "$bad_unload$bad_left" ] && break
done

if [ -z "$bad_load" ]; then
	ktap_pass "rdma_loop loads and rdma link add works, every round"
else
	ktap_fail "rdma_loop loads and rdma link add works, every round" \
		"failed in rounds$bad_load"
fi
if [ -z "$bad_unload" ]; then
	ktap_pass "rdma_loop and rdmavt unload under the deletes"
else
	ktap_fail "rdma_loop and rdmavt unload under the deletes" \
		"still loaded after rounds$bad_unload"
fi
if [ -z "$bad_left" ]; then
	ktap_pass "no device left after any round"
else
	ktap_fail "no device left after any round" "left:$bad_left"
fi
ktap_diag "$r rounds in $(($(uptime_s) - start)) s; $deleted of $attempts deletes found their device, the unload took the others"

new=$(splats | tail -n +$((splats_before + 1)))
if [ -z "$new" ]; then
	ktap_pass "no kernel splat while racing"
else
	ktap_fail "no kernel splat while racing" "$(echo "$new" | head -n 3)"
fi
# The last reference of a netlink dump (the rdma tool's) on ib_core is
# dropped by the kernel's netlink core from a work item after the tool's
# socket is gone, so rmmod may find ib_core busy (EAGAIN) for a moment:
# a few tries, 30 s at most; if it stays busy, the diagnostic names the
# modules that hold it (a scenario before this one that left its stack
# loaded: 47-siw-netns once left rdma_cm and iw_cm).
rmmod_retry() {
	local i=0
	while [ $i -lt 30 ]; do
		rmmod "$1" 2>/dev/null && return 0
		sleep 1
		i=$((i + 1))
	done
	ktap_diag "$1: refcnt $(cat /sys/module/$1/refcnt 2>/dev/null), holders: $(ls /sys/module/$1/holders 2>/dev/null | tr '\n' ' ')"
	rmmod "$1"
}
# rdmavt brought ib_uverbs in (user MRs pin through it)
unload_core() {
	rmmod ib_uverbs && rmmod_retry ib_core
}
ktap_test "ib_uverbs and ib_core unload" unload_core
ktap_finish
