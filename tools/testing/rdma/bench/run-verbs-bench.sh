#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Verbs benchmark over two rdma_loop devices: latency, message rate and
# bandwidth of SEND, RDMA WRITE and RDMA READ, and the CPU per completion
# of each CQ poll context.  Builds the modules and boots the test VM in
# bench mode running only bench/vm/20-verbs.sh, prints its table.  A
# benchmark, not a test: the exit status says whether it ran, never
# whether the numbers are good.
#
#   run-verbs-bench.sh [LAT [RATE [CPU [DEPTH]]]]   ("make bench-verbs")
#
#   LAT    operations timed one at a time per (op, size)     (default 200)
#   RATE   operations per (op, size) for the message rate    (default 400)
#   CPU    completions per poll context for the CPU cost     (default 1500)
#   DEPTH  operations outstanding for rate and CPU runs      (default 64)
#
# Environment as for vm-run.sh (KDIR, RDMA_VM_TIMEOUT: here 25m unless
# set, as a loaded host can triple the VM's 5 minutes; RDMA_VM_APPEND),
# and RDMA_BENCH_TSC_KHZ as for run-iwpm-bench.sh (the guest's clock: see
# there).  The table is also in .testbed/bench.log.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
testbed=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../../.." && pwd)
defaults=(200 400 1500 64)
args=()
for i in 0 1 2 3; do
	v=${1:-${defaults[$i]}}
	case "$v" in
	'' | *[!0-9]*)
		echo "usage: $0 [LAT [RATE [CPU [DEPTH]]]]" >&2
		exit 2
		;;
	esac
	args+=("$v")
	[ $# -gt 0 ] && shift
done
[ $# -eq 0 ] || { echo "usage: $0 [LAT [RATE [CPU [DEPTH]]]]" >&2; exit 2; }

if [ -z "${KDIR:-}" ]; then
	KDIR=$("$testbed/prepare-kernel.sh")
fi
export KDIR
make -s -C "$KDIR" M="$repo" modules
[ -f "$repo/tools/testing/rdma/bench/rdma_verbs_bench.ko" ] ||
	{ echo "run-verbs-bench: rdma_verbs_bench.ko was not built" >&2; exit 2; }

khz=${RDMA_BENCH_TSC_KHZ:-}
if [ -z "$khz" ] && grep -qw constant_tsc /proc/cpuinfo; then
	khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
fi
clock=""
if [ -n "$khz" ] && [ "$khz" != 0 ]; then
	clock="tsc_early_khz=$khz tsc=reliable clocksource=tsc"
	echo "run-verbs-bench: guest TSC at $khz kHz (the host's)"
else
	echo "run-verbs-bench: guest clock left alone (4 ms jiffies steps)"
fi
echo "run-verbs-bench: host $(nproc) CPU(s), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "run-verbs-bench: QEMU TCG guest with 2 vCPUs, debug kernel; LAT RATE CPU DEPTH = ${args[*]}"

export RDMA_VM_TIMEOUT=${RDMA_VM_TIMEOUT:-25m}
export RDMA_BENCH="$here/vm/20-verbs.sh"
export RDMA_VM_APPEND="verbs_bench.args=$(IFS=,; echo "${args[*]}") $clock ${RDMA_VM_APPEND:-}"
exec "$testbed/vm-run.sh" bench
