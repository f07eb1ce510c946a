#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Where an 8-byte RC SEND between two rdma_loop devices spends its time:
# builds the modules and boots the VM in bench mode running only
# bench/vm/40-profile-send.sh (ftrace's function profiler and a
# function_graph trace; see there).  A profile, not a test: boot the
# measurement kernel, which has the profiler and no debug set:
#
#   KDIR=~/.cache/rdma-testbed/kernel-bench-<key>/linux \
#	run-profile-send.sh [LAT [RATE [DEPTH]]]
#
#   LAT    SENDs timed one at a time            (default 1000)
#   RATE   SENDs with DEPTH outstanding         (default 2000)
#   DEPTH                                       (default 32)
#
# Environment as for run-verbs-bench.sh; the output is also in
# .testbed/bench.log.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
testbed=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../../.." && pwd)
defaults=(1000 2000 32)
args=()
for i in 0 1 2; do
	v=${1:-${defaults[$i]}}
	case "$v" in
	'' | *[!0-9]*)
		echo "usage: $0 [LAT [RATE [DEPTH]]]" >&2
		exit 2
		;;
	esac
	args+=("$v")
	[ $# -gt 0 ] && shift
done
[ $# -eq 0 ] || { echo "usage: $0 [LAT [RATE [DEPTH]]]" >&2; exit 2; }

if [ -z "${KDIR:-}" ]; then
	KDIR=$("$testbed/prepare-kernel.sh" --bench)
fi
export KDIR
grep -q '^CONFIG_FUNCTION_PROFILER=y' "$KDIR/.config" ||
	{ echo "run-profile-send: $KDIR has no FUNCTION_PROFILER" >&2; exit 2; }
make -s -C "$KDIR" M="$repo" modules

# shellcheck source=guest-clock.sh
. "$here/guest-clock.sh"
clock=$(guest_clock_args run-profile-send)
echo "run-profile-send: host $(nproc) CPU(s), load average $(cut -d' ' -f1-3 /proc/loadavg); LAT RATE DEPTH = ${args[*]}"

export RDMA_VM_TIMEOUT=${RDMA_VM_TIMEOUT:-25m}
export RDMA_BENCH="$here/vm/40-profile-send.sh"
export RDMA_VM_APPEND="profile_send.args=$(IFS=,; echo "${args[*]}") $clock ${RDMA_VM_APPEND:-}"
exec "$testbed/vm-run.sh" bench
