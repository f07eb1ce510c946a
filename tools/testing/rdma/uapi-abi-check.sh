#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# uapi-abi-check.sh - prove that our uapi/rdma headers expose exactly the
# user ABI of the Linux 6.12 ones.
#
#   uapi-abi-check.sh [-v] [--keep DIR] [header.h ...]
#
# Environment:
#   KDIR  kernel source tree; its include/uapi/rdma is the reference.
#         Unset: the test kernel of prepare-kernel.sh if it is there, else
#         /tmp/ksrc/linux-source-6.12, else include/uapi/rdma is unpacked
#         from /usr/src/linux-source-6.12.tar.xz into a temporary directory.
#         Only rdma/ is taken from it: the raw include/uapi/linux does not
#         build in user space, so both sides get <linux/*.h> and <asm/*.h>
#         from the system (linux-libc-dev).
#   KHDR  instead of KDIR: a "make headers_install" output (.../usr/include),
#         used whole.
#   CC    compiler (gcc).
#
# Method (the work is done by uapi-abi-gen.py beside this script):
#
#  * Names come from the KERNEL's header, so nothing can be left out
#    silently.  Each header, ours and the kernel's, goes through
#    "gcc -E -dD"; using the line markers, only the text of the header
#    itself is kept, and a small C declaration parser lists its enum
#    constants, #defines, enum/struct/union tags, typedefs and the member
#    paths of every struct and union (members of nested and anonymous
#    structs/unions included, e.g. "wr.rdma.rkey" or "type" inside the
#    anonymous union of a flow spec).  A name in one list and not in the
#    other is a difference.
#  * #defines are sorted on the kernel side by probe compiles: integer
#    constant expressions get their value checked; function-like macros
#    that yield an integer (RDMA_NL_GET_*) are evaluated on a fixed set of
#    arguments; the others (e.g. RDMA_UAPI_PTR) are checked for presence.
#    The include guard is skipped (headers_install rewrites it).
#  * A generated C program prints, for every name: value, signedness and
#    size of each constant; size of each enum type; size and alignment of
#    each struct, union and typedef; offset, size (element size for a
#    flexible array) and signedness of each member (of the element, for
#    arrays).  It is built once with -I<repo>/uapi -I<kernel rdma/> (so
#    rdma headers we do not provide, e.g. rdma_user_ioctl.h, come from the
#    kernel) and once with the kernel's only, and the two outputs are
#    compared entry by entry.  We also check that building against ours
#    never pulls in the kernel's copy of a checked header, and that each of
#    our headers compiles on its own with -Wall -Wextra -Werror.
#
# Exit status: 0 when nothing differs, 1 on any difference (or when
# nothing was checked), 2 on a setup error.  The last line is a summary:
#   uapi-abi: 5 headers, N constants, M struct members checked, D differences
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tarball=/usr/src/linux-source-6.12.tar.xz

headers=()
genargs=()
while [ $# -gt 0 ]; do
	case "$1" in
	-v) genargs+=(-v) ;;
	--keep) genargs+=(--keep "$2"); shift ;;
	-h|--help) sed -n '3,/^set -e/p' "$0" | sed 's/^# \{0,1\}//;/^set -e/d'; exit 0 ;;
	*) headers+=("$1") ;;
	esac
	shift
done
[ ${#headers[@]} -gt 0 ] || headers=(rdma_netlink.h ib_user_verbs.h \
	ib_user_ioctl_verbs.h ib_user_sa.h ib_user_mad.h rdma_user_ioctl.h \
	rdma_user_ioctl_cmds.h ib_user_ioctl_cmds.h hfi/hfi1_ioctl.h rdma_user_cm.h siw-abi.h rdma_user_rxe.h \
	rvt-abi.h)

tmp=
cleanup() { [ -z "$tmp" ] || rm -rf "$tmp"; }
trap cleanup EXIT

if [ -n "${KHDR:-}" ]; then
	kinc=$KHDR
else
	if [ -z "${KDIR:-}" ]; then
		for d in "$("$here/prepare-kernel.sh" --kdir 2>/dev/null || true)" \
			 /tmp/ksrc/linux-source-6.12; do
			if [ -n "$d" ] && [ -f "$d/include/uapi/rdma/ib_user_verbs.h" ]; then
				KDIR=$d
				break
			fi
		done
	fi
	if [ -z "${KDIR:-}" ]; then
		[ -f "$tarball" ] || {
			echo "uapi-abi: no KDIR and no $tarball" >&2; exit 2; }
		tmp=$(mktemp -d)
		echo "uapi-abi: unpacking include/uapi/rdma from $tarball" >&2
		tar -C "$tmp" -xJf "$tarball" linux-source-6.12/include/uapi/rdma
		KDIR=$tmp/linux-source-6.12
	fi
	[ -f "$KDIR/include/uapi/rdma/ib_user_verbs.h" ] || {
		echo "uapi-abi: $KDIR/include/uapi has no rdma/ headers" >&2; exit 2; }
	# The raw include/uapi/linux cannot be used from user space (it wants
	# the kernel's compiler_types.h), so only its rdma/ is taken; both
	# sides then get <linux/*.h> and <asm/*.h> from the system.
	[ -n "$tmp" ] || tmp=$(mktemp -d)
	mkdir -p "$tmp/kinc"
	ln -s "$KDIR/include/uapi/rdma" "$tmp/kinc/rdma"
	kinc=$tmp/kinc
fi
[ -f "$kinc/rdma/ib_user_verbs.h" ] || {
	echo "uapi-abi: $kinc has no rdma/ headers" >&2; exit 2; }

python3 "$here/uapi-abi-gen.py" "${genargs[@]}" \
	--ours "$repo/uapi" --kernel "$kinc" "${headers[@]}"
