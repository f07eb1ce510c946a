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
#   uapi-abi    uapi-abi-check.sh (our uapi/rdma against the kernel's)
#   VM          vm-run.sh check: KUnit modules and scenarios/*.sh
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

# A clean build, so that warnings of files built earlier show again.
# MAKEFLAGS is cleared so "make -s check" does not hide kbuild's lines.
step "build (KDIR=$KDIR)"
MAKEFLAGS='' make -s -C "$KDIR" M="$repo" clean >/dev/null 2>&1
rc=0
MAKEFLAGS='' make -j"$(nproc)" -C "$KDIR" M="$repo" modules 2>&1 |
	tee "$work/build.log" || rc=$?
warnings=$(grep -E "^$repo/[^:]+:[0-9]+:([0-9]+:)? warning:" "$work/build.log" || true)
if [ $rc -ne 0 ]; then
	echo "check: the build failed"
	static+=(--static build=fail)
elif [ -n "$warnings" ]; then
	echo "check: compiler warnings in our files:"
	echo "$warnings"
	static+=(--static build=fail)
else
	static+=(--static build=pass)
fi
built=$rc

# run_static NAME COMMAND...: one test, passed when COMMAND exits 0.
run_static() {
	local name=$1 rc=0
	shift
	step "$name"
	"$@" || rc=$?
	if [ $rc -eq 0 ]; then
		static+=(--static "$name=pass")
	else
		static+=(--static "$name=fail")
	fi
}

if [ $built -eq 0 ]; then
	run_static sparse "$here/static-check.sh" sparse
else
	static+=(--static sparse=skip)
fi
run_static checkpatch "$here/static-check.sh" checkpatch
if [ $built -eq 0 ]; then
	run_static includes "$here/static-check.sh" includes
else
	static+=(--static includes=skip)
fi
if [ -x "$here/uapi-abi-check.sh" ]; then
	run_static uapi-abi "$here/uapi-abi-check.sh"
fi

vm=()
if [ $built -eq 0 ]; then
	step "VM"
	"$here/vm-run.sh" check
else
	vm=(--no-vm "the modules did not build")
fi

step "results ($(($(date +%s) - start))s)"
exec python3 "$here/results.py" --dir "$work" --kdir "$KDIR" \
	"${static[@]}" "${vm[@]}"
