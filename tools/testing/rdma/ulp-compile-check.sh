#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The kernel's own RDMA consumers (ULPs), unmodified, compiled against our
# include/ and uapi/: proof that our kernel API headers give a ULP of 6.12
# what upstream's do.  The test kernel has INFINIBAND off, so it builds
# none of them; here each one's .c files (and the private .h files of
# their folder) are copied out of KDIR into a work folder and compiled to
# objects with "make -C KDIR M=<folder> <file>.o", our include path first,
# as our top-level Kbuild puts it (RDMA_CPPFLAGS in NOSTDINC_FLAGS).
# Nothing is linked: the objects' undefined symbols are what a later build
# against our Module.symvers must resolve ("--symbols" lists the RDMA
# ones our modules do not export).
#
#   ulp-compile-check.sh [--symbols] [ULP...]
#
# One "ok"/"not ok" line per ULP (KTAP), "# " lines with the reasons; the
# exit status is 1 when any ULP failed.  A ULP fails on a compiler error
# or warning, or when one of its objects used a header of the kernel's
# own include/rdma or include/uapi/rdma (ours must have taken its place).
#
# Headers another branch is still writing (FALLBACK below) are taken,
# while ours are missing, from a copy of the kernel's placed AFTER ours on
# the include path (in the work folder only, never in the repository);
# a ULP that needed one says so ("# TODO").
#
# Environment: KDIR (the kernel tree; default: prepare-kernel.sh --kdir),
# RDMA_ULP_WORK (work folder; default .testbed/ulp-compile),
# RDMA_UPSTREAM_EXPORTS (for --symbols: a folder of upstream's export
# lists, one <module>.txt per module; default
# /work/shared/reference/exports).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
KDIR=${KDIR:-$("$here/prepare-kernel.sh" --kdir)}
work=${RDMA_ULP_WORK:-$repo/.testbed/ulp-compile}
symbols=0
if [ "${1:-}" = --symbols ]; then
	symbols=1
	shift
fi

# ULP name, source folder in KDIR, its .c files, CONFIG_ defines.
#
# The defines are the ULP's own Kconfig symbols (its code tests some with
# IS_ENABLED) and kernel options the test kernel lacks but the ULP's
# Kconfig selects: SG_POOL (nvme-rdma, nvmet-rdma, rpcrdma's svc side,
# ksmbd) declares sg_alloc_table_chained() in <linux/scatterlist.h>.
# SUNRPC_BACKCHANNEL adds backchannel.c and svc_rdma_backchannel.c's
# callers.
#
# Left out, not for our headers: none of the listed ULPs' files.  smc:
# only the files that include <rdma/...> themselves (the others see our
# headers only through smc_core.h/smc_ib.h/smc_wr.h, which the listed
# ones compile as well).
# A warm run: the result of all ULPs depends only on our include/ and
# uapi/, the kernel tree (its folder name carries its source and config)
# and this script; a clean result is remembered under a key of the three
# (outside the repo, beside the kernels) and shown again while none of
# them changed.  --symbols and a ULP subset always compile.
if [ $symbols = 0 ] && [ $# -eq 0 ] && [ -z "${RDMA_ULP_INNER:-}" ]; then
	cache=${RDMA_TESTBED_CACHE:-$HOME/.cache/rdma-testbed}/ulp-compile-clean
	key=$({ cat "$0"; echo "$KDIR"
		(cd "$repo" && git ls-files -co --exclude-standard -- include uapi |
			sort | xargs cat); } | sha256sum | cut -c1-40)
	if [ -f "$cache/$key" ]; then
		cat "$cache/$key"
		echo "# unchanged since this result: our include/ and uapi/, the kernel tree, this script"
		exit 0
	fi
	out=$(RDMA_ULP_INNER=1 "$0")
	rc=$?
	printf '%s\n' "$out"
	if [ $rc -eq 0 ]; then
		mkdir -p "$cache"
		printf '%s\n' "$out" >"$cache/$key"
	fi
	exit $rc
fi

ulps=(
	"nvme-rdma|drivers/nvme/host|rdma.c|NVME_CORE NVME_FABRICS NVME_RDMA SG_POOL"
	"nvmet-rdma|drivers/nvme/target|rdma.c|NVME_TARGET NVME_TARGET_RDMA SG_POOL"
	"9pnet_rdma|net/9p|trans_rdma.c|NET_9P NET_9P_RDMA"
	"rpcrdma|net/sunrpc/xprtrdma|*.c|SUNRPC SUNRPC_XPRT_RDMA SUNRPC_BACKCHANNEL SG_POOL"
	"rds_rdma|net/rds|ib*.c rdma_transport.c|RDS RDS_RDMA"
	"smc|net/smc|smc_core.c smc_ib.c smc_llc.c smc_pnet.c smc_wr.c|SMC"
	"cifs_smbdirect|fs/smb/client|smbdirect.c|CIFS CIFS_SMB_DIRECT"
	"ksmbd_rdma|fs/smb/server|transport_rdma.c|SMB_SERVER SMB_SERVER_SMBDIRECT SG_POOL"
)

# Headers still missing here while another branch writes them:
# "ours relative to include/ or uapi/ | kernel's relative to KDIR".
fallback=(
	"include/rdma/rdma_cm.h|include/rdma/rdma_cm.h"
	"uapi/rdma/rdma_user_cm.h|include/uapi/rdma/rdma_user_cm.h"
)

[ -f "$KDIR/Makefile" ] || { echo "ulp-compile: no kernel tree at KDIR=$KDIR" >&2; exit 2; }
mkdir -p "$work"
work=$(cd "$work" && pwd)

# The fallback folder: a copy of each missing header, rebuilt every run so
# that a header of ours, once it exists, is the only one.
fb=$work/fallback
rm -rf "$fb"
mkdir -p "$fb/rdma" "$fb/uapi/rdma"
fb_used=()
for f in "${fallback[@]}"; do
	ours=${f%%|*} theirs=${f#*|}
	[ -f "$repo/$ours" ] && continue
	case "$ours" in
	include/*) dst=$fb/${ours#include/} ;;
	uapi/*) dst=$fb/$ours ;;
	esac
	cp "$KDIR/$theirs" "$dst"
	fb_used+=("$(basename "$ours")")
done

# Our include path first, as the top-level Kbuild has it (RDMA_CPPFLAGS),
# then the fallback folder, then the kernel's own (LINUXINCLUDE).
nostdinc="-I$repo/include -I$repo/uapi -I$repo -I$fb"
# The one CONFIG_ symbol our headers test, set as the top-level Kbuild
# sets it for our modules: without HIGHMEM, software devices map DMA to
# kernel virtual addresses (ib_uses_virt_dma()).
rdma_defs=
grep -q '^CONFIG_HIGHMEM=y' "$KDIR/.config" 2>/dev/null ||
	rdma_defs=-DCONFIG_INFINIBAND_VIRT_DMA=1

# symbols ULP: nm output of a ULP's objects on stdin; prints, as "# "
# lines, each symbol they use and define nowhere, by who provides it:
# the kernel (vmlinux), one of our modules (our Module.symvers, from
# "make modules" in the repository), upstream's RDMA modules only (their
# export lists, RDMA_UPSTREAM_EXPORTS: missing here), or neither (the
# ULP's own subsystem: nvme-core, sunrpc, rds, ...).
symbols() {
	python3 -c '
import glob, os, sys
name, kdir, repo, exp = sys.argv[1:5]
undef, defined = set(), set()
for line in sys.stdin:
    f = line.split()
    if len(f) == 2 and f[0] == "U":
        undef.add(f[1])
    elif len(f) == 3:
        defined.add(f[2])
def symvers(path):
    try:
        return {l.split()[1] for l in open(path) if len(l.split()) > 2}
    except OSError:
        return None
kernel = symvers(os.path.join(kdir, "Module.symvers")) or set()
ours = symvers(os.path.join(repo, "Module.symvers"))
upstream = {}
if not glob.glob(os.path.join(exp, "*.txt")):
    print("# %s: no upstream export lists in %s: symbols our modules lack"
          " are counted as not RDMA" % (name, exp))
for f in sorted(glob.glob(os.path.join(exp, "*.txt"))):
    for s in open(f).read().split():
        upstream.setdefault(s, os.path.basename(f)[:-4])
need = sorted(undef - defined - kernel)
rdma = [s for s in need if s in upstream or (ours and s in ours)]
other = [s for s in need if s not in rdma]
missing = [s for s in rdma if ours is None or s not in ours]
print("# %s: %d RDMA symbols used, %d of them not exported by our modules%s"
      % (name, len(rdma), len(missing),
         "" if ours is not None else " (no Module.symvers: run make modules)"))
for s in missing:
    print("#   missing: %s (upstream %s)" % (s, upstream.get(s, "?")))
print("#   not RDMA (the ULP\x27s own subsystem): %d" % len(other))
' "$1" "$KDIR" "$repo" "${RDMA_UPSTREAM_EXPORTS:-/work/shared/reference/exports}"
}

rc=0
n=0
echo "KTAP version 1"
echo "1..${#ulps[@]}"
want=" $* "
for u in "${ulps[@]}"; do
	IFS='|' read -r name dir files syms <<<"$u"
	n=$((n + 1))
	if [ $# -gt 0 ] && [[ "$want" != *" $name "* ]]; then
		echo "ok $n $name # SKIP not asked for"
		continue
	fi
	out=$work/$name
	if [ ! -d "$KDIR/$dir" ]; then
		rc=1
		echo "not ok $n $name"
		echo "# no $dir in KDIR=$KDIR (a full kernel source tree is needed)"
		continue
	fi
	# Keep earlier objects (make redoes what changed); take the sources
	# again, so that a new kernel tree is seen.
	mkdir -p "$out"
	find "$out" -maxdepth 1 \( -name '*.c' -o -name '*.h' \) -delete
	objs=
	for pat in $files; do
		for c in "$KDIR/$dir"/$pat; do
			cp -p "$c" "$out/"
			objs+=" $(basename "${c%.c}").o"
		done
	done
	cp -p "$KDIR/$dir"/*.h "$out/" 2>/dev/null
	echo "# objects only (ulp-compile-check.sh); nothing to link" >"$out/Kbuild"
	# the source folder last, for quoted includes that climb out of it
	# ("../common/...") from a file copied into the work folder
	defs="$rdma_defs -I$KDIR/$dir" cfg=''
	for s in $syms; do
		defs+=" -DCONFIG_${s}=1"
		cfg+=" CONFIG_${s}=m"
	done
	log=$out/build.log
	# shellcheck disable=SC2086
	MAKEFLAGS='' make -C "$KDIR" M="$out" -j"$(nproc)" $cfg \
		NOSTDINC_FLAGS="$nostdinc" KCFLAGS="$defs" $objs >"$log" 2>&1
	brc=$?
	why=()
	[ $brc -ne 0 ] && why+=("the build failed")
	if grep -qiE "warning:" "$log"; then
		why+=("compiler warnings")
	fi
	# Which headers each object used: none of the kernel's rdma headers
	# may be among them; a fallback one is noted.
	kern=() fbs=()
	if [ $brc -eq 0 ]; then
		for o in $objs; do
			deps=$out/.$o.cmd
			[ -f "$deps" ] || continue
			while read -r p; do
				case "$p" in
				"$KDIR"/include/rdma/* | "$KDIR"/include/uapi/rdma/*)
					kern+=("${p#"$KDIR"/}") ;;
				"$fb"/*) fbs+=("${p#"$fb"/}") ;;
				esac
			done < <(sed -e 's/[$](wildcard[^)]*)//g' -e 's/ *[\]$//' "$deps" |
				tr -s ' \t' '\n' | grep '\.h$' |
				sed -e "s|^include/|$KDIR/include/|" \
					-e "s|^arch/|$KDIR/arch/|" | sort -u)
		done
	fi
	if [ ${#kern[@]} -gt 0 ]; then
		why+=("used the kernel's own $(printf '%s\n' "${kern[@]}" | sort -u | tr '\n' ' ')")
	fi
	if [ ${#why[@]} -eq 0 ]; then
		if [ ${#fbs[@]} -gt 0 ]; then
			echo "ok $n $name # TODO ours missing, took the kernel's $(printf '%s\n' "${fbs[@]##*/}" | sort -u | tr '\n' ' ')"
		else
			echo "ok $n $name"
		fi
	else
		rc=1
		echo "not ok $n $name"
		printf '# %s\n' "${why[@]}"
		grep -E "error:|warning:" "$log" | sed -e "s|$out/||" -e 's/^/#   /' | sort -u | head -40
	fi
	if [ $symbols = 1 ] && [ $brc -eq 0 ]; then
		# shellcheck disable=SC2086
		(cd "$out" && nm $objs) | symbols "$name"
	fi
done
[ ${#fb_used[@]} -gt 0 ] && echo "# fallback (kernel's copy, ours missing): ${fb_used[*]}"
exit $rc
