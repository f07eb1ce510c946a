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
# Environment as for vm-run.sh (KDIR, RDMA_VM_TIMEOUT, RDMA_VM_APPEND),
# and RDMA_BENCH_TSC_KHZ: the guest's TSC frequency in kHz (0: leave the
# guest's clock alone).  The tables are also in .testbed/bench.log.
#
# The clock.  The test kernel has no ACPI, so no HPET or PM timer, and
# under TCG it cannot calibrate the TSC against the PIT: it falls back to
# the jiffies clocksource, whose 4 ms steps make every time a multiple of
# 4000 us, and which runs slow when a busy host makes QEMU drop timer
# ticks.  Under TCG the guest's TSC is the host's (QEMU answers RDTSC
# from the host's TSC), so we tell the guest its frequency: the host's
# "cpu MHz" when the host has a constant TSC.
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

# shellcheck source=guest-clock.sh
. "$here/guest-clock.sh"
clock=$(guest_clock_args run-iwpm-bench)
echo "run-iwpm-bench: host $(nproc) CPU(s), load average $(cut -d' ' -f1-3 /proc/loadavg)"

export RDMA_BENCH="$here/vm/10-iwpm.sh"
export RDMA_VM_APPEND="iwpm_bench.count=$count $clock ${RDMA_VM_APPEND:-}"
exec "$testbed/vm-run.sh" bench
