#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Measure the round-trip time of port-mapper requests through the real
# iwpmd: build the modules, boot the test VM in bench mode running only
# bench/vm/10-iwpm.sh, print its tables.  A benchmark, not a test: the
# exit status says whether it ran, never whether the times are good.
#
#   run-iwpm-bench.sh [COUNT]      (default 2000; "make bench-iwpm" runs it)
#
# Environment as for vm-run.sh (KDIR, RDMA_VM_TIMEOUT, RDMA_VM_APPEND).
# The tables are also in .testbed/bench.log.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
testbed=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../../.." && pwd)
count=${1:-2000}
case "$count" in
'' | *[!0-9]*) echo "usage: $0 [COUNT]" >&2; exit 2 ;;
esac

if [ -z "${KDIR:-}" ]; then
	KDIR=$("$testbed/prepare-kernel.sh")
fi
export KDIR
make -s -C "$KDIR" M="$repo" modules
[ -f "$repo/tools/testing/rdma/bench/rdma_iwpm_bench.ko" ] ||
	{ echo "run-iwpm-bench: rdma_iwpm_bench.ko was not built" >&2; exit 2; }

export RDMA_BENCH="$here/vm/10-iwpm.sh"
export RDMA_VM_APPEND="iwpm_bench.count=$count ${RDMA_VM_APPEND:-}"
exec "$testbed/vm-run.sh" bench
