#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The verbs part of the demo of "make run": a loop device made with
# "rdma link add", the test ULP moving data over it (RC SEND, RDMA WRITE
# and READ, UD SEND through an SRQ, payloads checked), what "rdma res
# show" lists while it runs, then the device deleted under the ULP.
# Runs in the VM; output goes to the console.
# needs: /usr/bin/rdma

stats=/sys/kernel/debug/rdma_test_ulp/loop0/stats

echo "== modprobe rdma_loop; rdma link add loop0 type loop netdev lo"
modprobe rdma_loop || exit 1
rdma link add loop0 type loop netdev lo || exit 1
rdma link show loop0/1

echo
echo "== modprobe rdma_test_ulp: its counters, two seconds apart"
modprobe rdma_test_ulp || exit 1
sleep 1
sed 's/^/  /' "$stats"
sleep 2
echo "  --"
sed 's/^/  /' "$stats"

echo
echo "== rdma res show (objects per device), then each kind of object"
rdma res show
for kind in qp cq mr pd; do
	echo "-- rdma res show $kind"
	rdma res show "$kind"
done

echo
echo "== rdma link delete loop0 while the ULP runs on it"
rdma link delete loop0
echo "-- the ULP's devices now: $(ls /sys/kernel/debug/rdma_test_ulp/ | tr '\n' ' ')"
echo "-- rdma dev show:"
rdma dev show
rmmod rdma_test_ulp rdma_loop rdmavt ib_uverbs ib_core
echo "== done"
