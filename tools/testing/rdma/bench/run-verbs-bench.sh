#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Verbs benchmark: latency, message rate and bandwidth of SEND, RDMA WRITE
# and RDMA READ, the CPU per completion of each CQ poll context, and
# kernel TCP beside them (rdma_verbs_bench, bench/vb_main.c).  Builds the
# module and boots the test VM in bench mode running only
# bench/vm/20-verbs.sh, prints its report.  A benchmark, not a test: the
# exit status says whether it ran and its data arrived, never whether the
# numbers are good.
#
#   run-verbs-bench.sh [--bench] [--upstream] [LAT [RATE [CPU [DEPTH]]]]
#
#   LAT    operations timed one at a time per (op, size)     (default 200)
#   RATE   operations per (op, size) for the message rate    (default 400)
#   CPU    completions per poll context for the CPU cost     (default 1500)
#   DEPTH  operations outstanding for rate and CPU runs      (default 64)
#
# Ours (default): our modules, two loop devices.  --upstream: upstream's
# drivers/infiniband as prepare-kernel.sh --upstream builds it, and
# rdma_verbs_bench built from the same sources against it with
# Kbuild.upstream (in .testbed/vb-upstream/module); the guest has only
# upstream's stack (vm-run.sh runs from a copy of tools/testing/rdma in
# .testbed/vb-upstream/repo, which has no modules.order of ours) and
# measures rdma_rxe and siw.  --bench: the measurement kernel (no debug
# options) instead of the test kernel, for both.
#
# RDMA_UPSTREAM_DIR names upstream's build (what prepare-kernel.sh
# --upstream prints: the .ko files, Module.symvers, upstream.env; its
# kernel is the linux/ beside it) instead of asking prepare-kernel.sh.
#
# Environment as for vm-run.sh (KDIR, RDMA_VM_TIMEOUT: here 25m unless
# set, as a loaded host can triple the VM's 5 minutes; RDMA_VM_APPEND),
# and RDMA_BENCH_TSC_KHZ as for run-iwpm-bench.sh (the guest's clock: see
# there).  The report is also in .testbed/bench.log (--upstream:
# .testbed/vb-upstream/repo/.testbed/bench.log).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
testbed=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../../.." && pwd)
usage="usage: $0 [--bench] [--upstream] [LAT [RATE [CPU [DEPTH]]]]"
defaults=(200 400 1500 64)
kflags=()
upstream=0
while [ $# -gt 0 ]; do
	case "$1" in
	--bench) kflags+=(--bench) ;;
	--upstream) upstream=1 ;;
	*) break ;;
	esac
	shift
done
args=()
for i in 0 1 2 3; do
	v=${1:-${defaults[$i]}}
	case "$v" in
	'' | *[!0-9]*)
		echo "$usage" >&2
		exit 2
		;;
	esac
	args+=("$v")
	[ $# -gt 0 ] && shift
done
[ $# -eq 0 ] || { echo "$usage" >&2; exit 2; }

# Upstream's stack and the module built against it, in a copy of the test
# bed without our modules.order; sets vmrun and the guest's arguments.
prepare_upstream() {
	local up scratch
	up=${RDMA_UPSTREAM_DIR:-}
	[ -n "$up" ] ||
		up=$("$testbed/prepare-kernel.sh" ${kflags[@]+"${kflags[@]}"} --upstream)
	KDIR=$(dirname "$up")/linux
	# shellcheck disable=SC1091
	. "$up/upstream.env"
	scratch=$repo/.testbed/vb-upstream
	rm -rf "$scratch"
	mkdir -p "$scratch/module" "$scratch/repo/tools/testing"
	cp "$here"/vb.h "$here"/vb_*.c "$scratch/module/"
	cp "$here/Kbuild.upstream" "$scratch/module/Kbuild"
	make -s -C "$KDIR" M="$scratch/module" \
		KBUILD_EXTRA_SYMBOLS="$UPSTREAM_SYMVERS" \
		KCFLAGS="$UPSTREAM_KCFLAGS -DVB_RDMA_CM=1" modules
	cp -a "$testbed" "$scratch/repo/tools/testing/rdma"
	cp -a "$repo/uapi" "$scratch/repo/"
	RDMA_EXTRA_KO="$(echo "$up"/*.ko) $scratch/module/rdma_verbs_bench.ko"
	export RDMA_EXTRA_KO
	vmrun=$scratch/repo/tools/testing/rdma/vm-run.sh
	stack="verbs_bench.stack=upstream"
	echo "run-verbs-bench: upstream's stack from $up"
}

if [ -z "${KDIR:-}" ] && [ $upstream = 0 ]; then
	KDIR=$("$testbed/prepare-kernel.sh" ${kflags[@]+"${kflags[@]}"})
fi
vmrun=$testbed/vm-run.sh
stack="verbs_bench.stack=ours"
if [ $upstream = 1 ]; then
	prepare_upstream
else
	make -s -C "$KDIR" M="$repo" modules
	[ -f "$here/rdma_verbs_bench.ko" ] ||
		{ echo "run-verbs-bench: rdma_verbs_bench.ko was not built" >&2; exit 2; }
fi
export KDIR

# shellcheck source=guest-clock.sh
. "$here/guest-clock.sh"
clock=$(guest_clock_args run-verbs-bench)
echo "run-verbs-bench: host $(nproc) CPU(s), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "run-verbs-bench: QEMU TCG guest with 2 vCPUs, kernel $KDIR; LAT RATE CPU DEPTH = ${args[*]}"

export RDMA_VM_TIMEOUT=${RDMA_VM_TIMEOUT:-25m}
export RDMA_BENCH="$here/vm/20-verbs.sh"
export RDMA_VM_APPEND="verbs_bench.args=$(IFS=,; echo "${args[*]}") $stack $clock ${RDMA_VM_APPEND:-}"
exec "$vmrun" bench
