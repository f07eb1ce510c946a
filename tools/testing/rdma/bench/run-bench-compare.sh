#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Our stack beside upstream's, on the measurement kernel (no debug set),
# in one boot ("make bench-compare"):
#   - prepare-kernel.sh --bench builds the measurement kernel if needed,
#     --bench --upstream upstream's drivers/infiniband against it;
#   - our modules are built against it from a copy of the sources in
#     <cache>/bench-build/<checkout>/ours (the repository's own build stays
#     the test kernel's), the verbs benchmark against upstream's stack in
#     <cache>/bench-build/<checkout>/upstream-ulp (upstream/build-ulp.sh);
#   - the VM runs bench/vm/30-compare.sh: ROUNDS interleaved rounds of
#     upstream's rxe and siw on a dummy interface, kernel TCP on it, and
#     our loop devices;
#   - bench/compare.py prints the side-by-side table with the ratios.
# With --wire, two guests on the virtual wire run bench/vm/31-compare-wire.sh
# instead: each stack across the wire (guest 1 serves, guest 2 measures).
# With --nvmf, two guests run bench/vm/32-nvmf-fio.sh: NVMe over Fabrics
# with fio, upstream's nvme-rdma and nvmet-rdma built against each stack
# (upstream/build-nvme.sh), beside the kernel's NVMe/TCP; its table comes
# from bench/nvmf_table.py, and LAT is fio's run time per job in seconds.
# A benchmark, not a test: the exit status says whether it ran.
#
#   run-bench-compare.sh [--wire|--nvmf] [ROUNDS [LAT RATE CPU DEPTH]]
#   run-bench-compare.sh --nvmf [ROUNDS [SECONDS]]
#
# Environment: RDMA_VM_TIMEOUT (default 50m), RDMA_VM_APPEND,
# RDMA_BENCH_TSC_KHZ (the guest's clock, as for run-iwpm-bench.sh).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
testbed=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../../.." && pwd)
# Outside the repository: a "make clean" there (check.sh makes one) would
# delete the objects of the copy.  One folder per checkout.
cache=${RDMA_TESTBED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-testbed}
build=$cache/bench-build/$(echo "$repo" | sha256sum | cut -c1-12)
usage() { echo "usage: $0 [--wire|--nvmf] [ROUNDS [LAT RATE CPU DEPTH]]" >&2; exit 2; }

wire=0 nvmf=0
if [ "${1:-}" = --wire ]; then
	wire=1
	shift
elif [ "${1:-}" = --nvmf ]; then
	wire=1 nvmf=1
	shift
fi
rounds=${1:-3}
[ $# -gt 0 ] && shift
case "$rounds" in '' | *[!0-9]* | 0) usage ;; esac
args=()
if [ $nvmf = 1 ] && [ $# -gt 0 ]; then
	[ $# = 1 ] || usage
	case "$1" in '' | *[!0-9]*) usage ;; esac
	args=("$1")
elif [ $# -gt 0 ]; then
	[ $# = 4 ] || usage
	for v in "$@"; do
		case "$v" in '' | *[!0-9]*) usage ;; esac
		args+=("$v")
	done
fi

kdir=$("$testbed/prepare-kernel.sh" --bench)
up=$("$testbed/prepare-kernel.sh" --bench --upstream)
echo "bench-compare: measurement kernel $kdir"
echo "bench-compare: upstream's stack $up"

# Our sources, copied with their times so that make rebuilds only what
# changed; build products and the test bed's own folder stay out.
mkdir -p "$build/ours"
rsync -a --delete --exclude=/.testbed --exclude=/.git \
	--include='*/' --include='*.c' --include='*.h' --include='Kbuild*' \
	--include='Kconfig' --include='Makefile' --exclude='*' \
	"$repo/" "$build/ours/"
t0=$(date +%s)
make -s -j"$(nproc)" -C "$kdir" M="$build/ours" modules
echo "bench-compare: our modules built against it ($(($(date +%s) - t0)) s)"
ulp=$("$testbed/upstream/build-ulp.sh" "$kdir" "$up" "$here" "$build/upstream-ulp")
echo "bench-compare: built against upstream's stack: $(basename "$ulp")"
extra=
if [ $nvmf = 1 ]; then
	nvme_ours=$("$testbed/upstream/build-nvme.sh" "$kdir" ours "$build/ours")
	nvme_up=$("$testbed/upstream/build-nvme.sh" "$kdir" upstream "$up")
	echo "bench-compare: nvme-rdma and nvmet-rdma against ours: $nvme_ours, against upstream's: $nvme_up"
	extra="$nvme_ours/nvme-rdma.ko $nvme_ours/nvmet-rdma.ko"
	ulp="$ulp $nvme_up/nvme-rdma.ko $nvme_up/nvmet-rdma.ko"
fi

# shellcheck source=guest-clock.sh
. "$here/guest-clock.sh"
clock=$(guest_clock_args bench-compare)
echo "bench-compare: host $(nproc) CPU(s), load average $(cut -d' ' -f1-3 /proc/loadavg)"

export RDMA_VM_TIMEOUT=${RDMA_VM_TIMEOUT:-50m}
export KDIR=$kdir RDMA_OURS_DIR=$build/ours RDMA_UPSTREAM=$up RDMA_UPSTREAM_KO=$ulp
[ -n "$extra" ] && export RDMA_EXTRA_KO="${RDMA_EXTRA_KO:+$RDMA_EXTRA_KO }$extra"
if [ $nvmf = 1 ]; then
	export RDMA_BENCH=$here/vm/32-nvmf-fio.sh RDMA_VM_GUESTS=2
elif [ $wire = 1 ]; then
	export RDMA_BENCH=$here/vm/31-compare-wire.sh RDMA_VM_GUESTS=2
else
	export RDMA_BENCH=$here/vm/30-compare.sh RDMA_VM_GUESTS=1
fi
a=""
[ ${#args[@]} = 4 ] && a="bench_compare.args=$(IFS=,; echo "${args[*]}")"
[ $nvmf = 1 ] && a="bench_nvmf.rounds=$rounds ${args[0]:+bench_nvmf.secs=${args[0]}}"
export RDMA_VM_APPEND="bench_compare.rounds=$rounds $a $clock ${RDMA_VM_APPEND:-}"
rc=0
"$testbed/vm-run.sh" bench || rc=$?
logs=("$repo/.testbed/bench.log")
[ $wire = 1 ] && logs=("$repo"/.testbed/guest-*/bench.log)
echo
if [ $nvmf = 1 ]; then
	echo "=== bench-nvmf: NVMe over Fabrics across the wire, measurement kernel"
	python3 "$here/nvmf_table.py" "${logs[@]}" || rc=1
	exit $rc
fi
echo "=== bench-compare: $([ $wire = 1 ] && echo "across the wire" || echo "one guest"), measurement kernel"
python3 "$here/compare.py" "${logs[@]}" || rc=1
exit $rc
