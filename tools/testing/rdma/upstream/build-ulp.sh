#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Build a kernel module of ours that uses only the public RDMA kernel API
# against upstream's stack instead of ours: the same source files, with
# the kernel tree's own include/rdma (upstream's headers), upstream's
# Module.symvers for its symbols and the CONFIG_ defines upstream's
# modules were built with (prepare-kernel.sh --upstream writes them to
# upstream.env).  The sources are copied into OUT with the folder's
# Kbuild.upstream as Kbuild; the sources are the .c files of the objects
# it lists and every .h beside them.
#
#   build-ulp.sh KDIR UPSTREAM_DIR SRC_DIR OUT
#
# Prints the path of each .ko built.  Today's user: the verbs benchmark
# (tools/testing/rdma/bench, rdma_verbs_bench), for make check's wire
# scenarios and make bench-compare.
set -euo pipefail

[ $# = 4 ] || { echo "usage: $0 KDIR UPSTREAM_DIR SRC_DIR OUT" >&2; exit 2; }
kdir=$1 up=$2 src=$3 out=$4

[ -f "$up/upstream.env" ] || { echo "build-ulp: no $up/upstream.env" >&2; exit 2; }
[ -f "$src/Kbuild.upstream" ] || { echo "build-ulp: no $src/Kbuild.upstream" >&2; exit 2; }
# shellcheck disable=SC1091
. "$up/upstream.env"

mkdir -p "$out"
out=$(cd "$out" && pwd)
# Keep the objects of an earlier build (make decides what to redo), but
# not sources that are gone.
find "$out" -maxdepth 1 \( -name '*.c' -o -name '*.h' \) -delete
objs=$(sed -n 's/^[a-z0-9_]*-y[[:space:]]*[:+]*=//p' "$src/Kbuild.upstream" |
	tr -s ' \t' '\n\n' | grep '\.o$')
for o in $objs; do
	cp -p "$src/${o%.o}.c" "$out/"
done
cp -p "$src"/*.h "$out/" 2>/dev/null || true
cp -p "$src/Kbuild.upstream" "$out/Kbuild"
make -s -C "$kdir" M="$out" KBUILD_EXTRA_SYMBOLS="$UPSTREAM_SYMVERS" \
	KCFLAGS="$UPSTREAM_KCFLAGS" modules >&2
ls "$out"/*.ko
