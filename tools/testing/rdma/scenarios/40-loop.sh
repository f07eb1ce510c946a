#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Loop devices: "modprobe rdma_loop devices=3" registers loop0..loop2,
# each with one active InfiniBand port of its own LID; unloading removes
# them and leaves nothing of ours loaded.
# timeout: 300

. /testbed/lib/ktap.sh

CLASS=/sys/class/infiniband

ktap_plan 7
ktap_test "rdma_loop devices=3 loads" modprobe rdma_loop devices=3

n=0
for d in loop0 loop1 loop2; do
	[ -d "$CLASS/$d" ] && n=$((n + 1))
done
if [ "$n" = 3 ]; then
	ktap_pass "three loop devices registered"
else
	ktap_fail "three loop devices registered" "found $n of loop0..loop2"
fi

state=$(cat "$CLASS/loop0/ports/1/state" 2>/dev/null)
if [ "$state" = "4: ACTIVE" ]; then
	ktap_pass "port 1 of loop0 is active"
else
	ktap_fail "port 1 of loop0 is active" "state '$state'"
fi

lids=$(cat "$CLASS"/loop*/ports/1/lid 2>/dev/null | sort -u | wc -l)
if [ "$lids" = 3 ]; then
	ktap_pass "every loop port has a LID of its own"
else
	ktap_fail "every loop port has a LID of its own" "$lids distinct LIDs"
fi

ktap_test "rdma_loop unloads" rmmod rdma_loop
# ib_core is still loaded: its class folder lists what is registered.
left=$(ls "$CLASS" 2>&1 | tr '\n' ' ')
if [ -d "$CLASS" ] && [ -z "$left" ]; then
	ktap_pass "no device registered after rdma_loop unloads"
else
	ktap_fail "no device registered after rdma_loop unloads" "$CLASS: $left"
fi
ktap_test "rdmavt and ib_core unload" sh -c 'rmmod rdmavt && rmmod ib_uverbs && rmmod ib_core'
ktap_finish
