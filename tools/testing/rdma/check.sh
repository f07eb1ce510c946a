#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The whole test run ("make check"): build, static checks, the VM run,
# then one results step that prints every result and the only tally line.
#
#   build       clean build of every module; fails on errors and on
#               compiler warnings in our files
#   sparse      static-check.sh sparse
#   checkpatch  static-check.sh checkpatch
#   includes    static-check.sh includes
#   kerneldoc   static-check.sh kerneldoc
#   uapi-abi    uapi-abi-check.sh (our uapi/rdma against the kernel's)
#   ulp-compile ulp-compile-check.sh (the kernel's own RDMA ULPs, nvme-rdma
#               to smc, compiled against our include/ and uapi/)
#   firstrun    firstrun-check.sh (the Makefile builds the modules in the
#               folder the test kernel is built in, also on a fresh machine)
#   docs        doc-check.py (every .rst parses with docutils; every KUnit
#               suite and scenario is named in Documentation/testing.rst)
#   nokunit-build  nokunit-check.sh: every product module built against
#               Debian's 6.12 headers, a kernel without KUnit, with no
#               warning (the test kernel has KUnit; distribution kernels
#               do not).  Headers and build cached outside the repository
#   upstream    upstream's drivers/infiniband built against the test
#               kernel (prepare-kernel.sh --upstream, cached) and the
#               verbs benchmark built against it (upstream/build-ulp.sh):
#               the wire scenarios load them in the VM
#   VM          vm-run.sh check: KUnit modules, scenarios/*.sh and
#               scenarios/wire/*.sh, in RDMA_VM_GUESTS guests side by side
#
# The static checks run while the guests boot and work (they need no
# VM); results.py prints the table of where the time went.
#
# RDMA_STATIC=none leaves the static checks out (a developer's quick VM
# run of a subset: RDMA_STATIC=none RDMA_KUNIT=... RDMA_SCENARIOS=...).
#
# Works on a fresh machine: prepare-kernel.sh installs the host packages
# and builds the test kernel when its cache is missing.  Environment as
# for vm-run.sh (RDMA_VM_TIMEOUT, RDMA_EXTRA_KO, ...).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
work=$repo/.testbed

step() { printf '\n### %s\n' "$*"; }

# Without KDIR, the test kernel: prepare-kernel.sh installs and builds
# what is missing and prints the folder it is in.
if [ -z "${KDIR:-}" ]; then
	step "test kernel"
	KDIR=$("$here/prepare-kernel.sh") || { echo "check: no test kernel" >&2; exit 1; }
fi
export KDIR
mkdir -p "$work"
start=$(date +%s)
static=()

times=()

# A clean build, so that warnings of files built earlier show again.
# MAKEFLAGS is cleared so "make -s check" does not hide kbuild's lines.
step "build (KDIR=$KDIR)"
t0=$(date +%s)
MAKEFLAGS='' make -s -C "$KDIR" M="$repo" clean >/dev/null 2>&1
rc=0
MAKEFLAGS='' make -j"$(nproc)" -C "$KDIR" M="$repo" modules 2>&1 |
	tee "$work/build.log" || rc=$?
# Every warning counts, modpost's "WARNING:" too: a FORTIFY_SOURCE
# warning names the kernel's fortify-string.h, and only its "inlined
# from" lines name our file.
warnings=$(grep -iE "warning:" "$work/build.log" || true)
if [ $rc -ne 0 ]; then
	echo "check: the build failed"
	static+=(--static build=fail)
elif [ -n "$warnings" ]; then
	echo "check: compiler warnings while building our modules:"
	echo "$warnings"
	static+=(--static build=fail)
else
	static+=(--static build=pass)
fi
built=$rc
times+=(--time "build=$(($(date +%s) - t0))")

# Upstream's stack for the wire scenarios, built against this KDIR (only
# the test kernel's cache has one: with another KDIR the wire scenarios
# that need it fail, saying so).
step "upstream's stack"
t0=$(date +%s)
up=$("$here/prepare-kernel.sh" --upstream) || up=
if [ -n "$up" ] && [ "$(dirname "$up")" != "$(dirname "$KDIR")" ]; then
	echo "check: upstream's stack is built for $(dirname "$up"), not for KDIR=$KDIR"
	up=
fi
ulp=
if [ -n "$up" ]; then
	export RDMA_UPSTREAM=$up
	ulp=$("$here/upstream/build-ulp.sh" "$KDIR" "$up" "$here/bench" \
		"$work/upstream-ulp" 2>"$work/upstream-ulp.log") || ulp=
fi
if [ -n "$ulp" ]; then
	export RDMA_UPSTREAM_KO=$ulp
	echo "upstream: $up; built against it: $(basename "$ulp")"
	static+=(--static upstream-build=pass)
else
	echo "check: upstream's stack or the benchmark built against it is missing:"
	cat "$work/upstream-ulp.log" 2>/dev/null
	static+=(--static upstream-build=fail)
fi
times+=(--time "upstream-build=$(($(date +%s) - t0))")

# NVMe over Fabrics' RDMA transports (upstream's nvme-rdma and
# nvmet-rdma, unmodified) built against our include/ and our modules
# (cached beside the kernel): the wire scenario 64-nvmf loads them.
if [ $built -eq 0 ]; then
	step "nvme-rdma and nvmet-rdma against our stack"
	t0=$(date +%s)
	if nvme=$("$here/upstream/build-nvme.sh" "$KDIR" ours "$repo"); then
		export RDMA_EXTRA_KO="${RDMA_EXTRA_KO:+$RDMA_EXTRA_KO }$nvme/nvme-rdma.ko $nvme/nvmet-rdma.ko"
		echo "nvme: $nvme"
		static+=(--static nvme-build=pass)
	else
		static+=(--static nvme-build=fail)
	fi
	times+=(--time "nvme-build=$(($(date +%s) - t0))")
fi

# The VM goes first, in the background: the static checks need no VM and
# run while the guests boot and work.  They wait until vm-run.sh has
# packed the initramfs (it writes the nonce last), since sparse runs kbuild
# in the same tree.
vm=()
vm_pid=
if [ $built -eq 0 ]; then
	step "VM (static checks run beside it; their output follows the VM's)"
	rm -f "$work/nonce"
	"$here/vm-run.sh" check &
	vm_pid=$!
	while [ ! -f "$work/nonce" ] && kill -0 "$vm_pid" 2>/dev/null; do
		sleep 1
	done
else
	vm=(--no-vm "the modules did not build")
fi

# run_static NAME COMMAND...: one test, passed when COMMAND exits 0; its
# output is kept in .testbed/static-NAME.log and shown after the VM.
# The checks run at the lowest priority: the guests are what the run
# waits for, and under TCG each leaves part of its core idle, which is
# where the checks fit (at the default priority sparse, ulp-compile and
# a cold nokunit-build took the guests' CPU: guests 1.75 times slower
# than their own clocks in one run).
static_logs=()
run_static() {
	local name=$1 rc=0 t0
	shift
	t0=$(date +%s)
	nice -n 19 "$@" >"$work/static-$name.log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		static+=(--static "$name=pass")
	else
		static+=(--static "$name=fail")
	fi
	times+=(--time "$name=$(($(date +%s) - t0))")
	static_logs+=("$name")
}

if [ "${RDMA_STATIC:-}" = none ]; then
	:
elif [ $built -eq 0 ]; then
	run_static sparse "$here/static-check.sh" sparse
else
	static+=(--static sparse=skip)
fi
# The time budget, from the measured durations of the tier this run
# runs (plan.py budget): make check 20 minutes, make check-full 60
# (Documentation/testing.rst, "Time budget").  The quick tier's slowest
# guest takes at most 37 times its boot: 1200 s less the steps before the
# guests (222 s) over the test kernel's boot (26 s) on the idle 2-core
# machine of 2026-11-30, KASAN inline.
if [ "${RDMA_TIER:-quick}" = full ]; then
	run_static budget python3 "$here/plan.py" budget \
		--durations "$here/durations-full" --budget 3600
else
	run_static budget python3 "$here/plan.py" budget \
		--durations "$here/durations" --budget 1200 --ratio 37
fi
if [ "${RDMA_STATIC:-}" != none ]; then
	run_static checkpatch "$here/static-check.sh" checkpatch
	if [ $built -eq 0 ]; then
		run_static includes "$here/static-check.sh" includes
	else
		static+=(--static includes=skip)
	fi
	run_static kerneldoc "$here/static-check.sh" kerneldoc
	run_static uapi-abi "$here/uapi-abi-check.sh"
	run_static ulp-compile "$here/ulp-compile-check.sh"
	run_static firstrun "$here/firstrun-check.sh"
	run_static docs python3 "$here/doc-check.py" "$repo"
	if [ $built -eq 0 ]; then
		run_static nokunit-build "$here/nokunit-check.sh" "$repo/modules.order"
	else
		static+=(--static nokunit-build=skip)
	fi
fi

if [ -n "$vm_pid" ]; then
	t0=$(date +%s)
	wait "$vm_pid" || true
	times+=(--time "VM: waited after the static checks=$(($(date +%s) - t0))")
fi
for name in "${static_logs[@]}"; do
	step "$name"
	cat "$work/static-$name.log"
done

step "results ($(($(date +%s) - start))s)"
times+=(--time "make check in all=$(($(date +%s) - start))")
exec python3 "$here/results.py" --dir "$work" --kdir "$KDIR" \
	"${static[@]}" "${times[@]}" "${vm[@]}"
