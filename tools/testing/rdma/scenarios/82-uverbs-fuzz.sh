#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# ib_uverbs fuzzing: tools/testing/rdma/uverbsfuzz sends random and
# malformed write() commands to uverbsN (handles live, destroyed and
# never given; sizes, fields and raw headers at random), maps the rings
# the commands answer and writes garbage into them, reads and closes the
# event files, from worker processes killed at random points.  On a loop
# device (rdmavt's rings) as root and as nobody (uid 65534), on an rxe
# and a siw device as root, then on a loop device deleted ("rdma link
# delete") while the fuzzer runs on it.  Afterwards: no splat in the
# kernel log, and everything unloads (a leak is the guest's final
# kmemleak check, which names this scenario for an object allocated
# while it ran).
#
# The seed is printed; "uverbsfuzz.seed=N" on the kernel command line
# (RDMA_VM_APPEND) replays a run.  Documentation/testing.rst,
# "uverbsfuzz".
# needs: /usr/bin/rdma /usr/bin/ip
# timeout: 600 3600

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

IP=/usr/bin/ip
# calls per run: the full tier (make check-full) makes 60000 on the loop
# device as root (150000 as root with the other devices') and 100000 as
# nobody, the quick tier a random sample with a fresh seed each run
# (about 600 calls a second under TCG)
ROOT_CALLS=$(tier_pick 4000 60000)
USER_CALLS=$(tier_pick 2000 100000)
OTHER_CALLS=$(tier_pick 1000 30000)
GONE_CALLS=$(tier_pick 2000 30000)

seed=$(sed -n 's/.*uverbsfuzz\.seed=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$seed" ] || seed=$(($(date +%s) % 1000000))
ktap_diag "seed $seed"

# splats() of stack.sh: the kernel log's lines that fail a run
splats_before=$(splats | wc -l)

ktap_plan 9

setup() {
	$IP link add uf0 type dummy && $IP link set uf0 up &&
		$IP addr add 10.83.0.1/24 dev uf0 &&
		$IP link add uf1 type dummy && $IP link set uf1 up &&
		modprobe rdma_loop && modprobe rdma_rxe && modprobe siw &&
		rdma link add ufloop0 type loop netdev lo &&
		rdma link add ufloop1 type loop netdev lo &&
		rdma link add ufrxe0 type rxe netdev uf0 &&
		rdma link add ufsiw0 type siw netdev uf1
}
ktap_test "loop, rxe and siw devices" setup

ktap_tool "uverbsfuzz on ufloop0 as root" \
	uverbsfuzz ufloop0 $ROOT_CALLS $seed
ktap_tool "uverbsfuzz on ufloop0 as nobody" \
	uverbsfuzz ufloop0 $USER_CALLS $((seed + 1)) 65534
ktap_tool "uverbsfuzz on ufrxe0" uverbsfuzz ufrxe0 $OTHER_CALLS $((seed + 2))
ktap_tool "uverbsfuzz on ufsiw0" uverbsfuzz ufsiw0 $OTHER_CALLS $((seed + 3))

# ufloop1 goes away under the fuzzer: its files are disassociated with
# objects, mappings and events in them
/testbed/bin/uverbsfuzz -g ufloop1 $GONE_CALLS $((seed + 4)) \
	>/tmp/uvf.gone 2>&1 &
fuzz=$!
# a worker of it has a context on ufloop1
has_ctx() {
	case "$(rdma resource show ctx dev ufloop1 2>/dev/null)" in
	*ctxn*) return 0 ;;
	esac
	return 1
}
deleted() {
	ktap_wait 60 has_ctx && rdma link delete ufloop1
}
ktap_test "ufloop1 deleted while the fuzzer runs on it" deleted
wait $fuzz
rc=$?
ktap_quote "$(cat /tmp/uvf.gone)"
if [ $rc = 0 ]; then
	ktap_pass "the fuzzer on ufloop1 ends well"
else
	ktap_fail "the fuzzer on ufloop1 ends well" "exit $rc"
fi

new=$(splats | tail -n +$((splats_before + 1)))
if [ -z "$new" ]; then
	ktap_pass "no kernel splat"
else
	ktap_fail "no kernel splat" "$(echo "$new" | head -n 3)"
fi

teardown() {
	rdma link delete ufloop0 && rdma link delete ufrxe0 &&
		rdma link delete ufsiw0 && $IP link del uf0 &&
		$IP link del uf1 && rmmod siw && rmmod rdma_rxe &&
		rmmod rdma_loop && rmmod rdmavt && rmmod ib_uverbs &&
		rmmod_settle ib_core
}
ktap_test "everything unloads" teardown
ktap_finish
