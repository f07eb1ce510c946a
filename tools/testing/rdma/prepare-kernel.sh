#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Prepare the kernels that the modules build against and the VM boots,
# from Debian's linux-source-6.12, in a cache folder outside the
# repository:
#   the test kernel         kernel.config + kernel-debug.config (KASAN,
#                           lockdep, kmemleak...): what make check boots
#   the measurement kernel  kernel.config + kernel-bench.config (no debug
#                           set): only the benchmarks (--bench) build it
# Each is keyed by the hash of its fragments, of the build recipe (the
# functions build_kernel and verify_config below) and of the source
# package's version.  A current cache is reused.
#
# Upstream's own RDMA stack (drivers/infiniband of the same source: ib_core,
# ib_cm, iw_cm, rdma_cm, ib_uverbs, ib_umad, rdma_ucm, rdma_rxe, siw) is
# built out of tree against a kernel with --upstream, into a folder of
# that kernel's cache keyed by the recipe build_upstream; nothing of it
# enters the repository.
#
#   prepare-kernel.sh [--bench]             install what is missing, build
#                              if needed, then print the kernel folder (KDIR)
#   prepare-kernel.sh [--bench] --upstream  the same, then build upstream's
#                              stack against that kernel if needed and print
#                              its folder (the .ko files, Module.symvers and
#                              upstream.env, the flags its users build with)
#   prepare-kernel.sh [--bench] --kdir      only print where KDIR is for the
#                              source package installed now (nothing is
#                              installed or built: on a fresh machine this is
#                              not where the kernel will be, so build with
#                              the plain form)
#   prepare-kernel.sh --deps   only install the host packages
#
# The plain form is the only way to learn KDIR: the key includes the
# version of linux-source-6.12, which a fresh machine does not have until
# this script installed it.  The Makefile and every script take KDIR from
# what it prints.
#
# It prints one line per step on stderr ("installing 14 packages: 41 s");
# the output of apt-get and of the kernel build goes to
# $cache/prepare.log, whose last lines are shown when a step fails.
#
# Environment:
#   RDMA_TESTBED_CACHE       cache folder (default ~/.cache/rdma-testbed)
#   RDMA_TESTBED_DRY_BUILD=1 make the kernel folder and its marker files
#                            without unpacking or building anything: for the
#                            first-run check (firstrun-check.sh) only
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/kernel.config
flavor=test
flavor_fragment=$here/kernel-debug.config
if [ "${1:-}" = --bench ]; then
	flavor=bench
	flavor_fragment=$here/kernel-bench.config
	shift
fi
cache=${RDMA_TESTBED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-testbed}
tarball=/usr/src/linux-source-6.12.tar.xz
logfile=$cache/prepare.log

host_pkgs="linux-source-6.12 flex bison bc libelf-dev libssl-dev qemu-system-x86
	busybox-static cpio sparse python3 gcc make perl rdma-core ibverbs-utils
	iproute2 strace kmod libc6-dev rsync rdmacm-utils ibverbs-providers
	nvme-cli fio opensm infiniband-diags python3-docutils tshark
	python3-pyverbs perftest ibacm"

say() { echo "prepare-kernel: $*" >&2; }

for f in "$fragment" "$flavor_fragment"; do
	[ -f "$f" ] || { say "no config fragment $f"; exit 2; }
done

# run_step TEXT COMMAND...: COMMAND's output goes to the log; one line
# with the time it took, or the log's tail when it fails.
run_step() {
	local text=$1 t0 rc=0
	shift
	t0=$(date +%s)
	echo "=== $(date '+%F %T') $text" >>"$logfile"
	printf 'prepare-kernel: %s...' "$text" >&2
	"$@" >>"$logfile" 2>&1 </dev/null || rc=$?
	if [ $rc -ne 0 ]; then
		printf ' failed (exit status %d) after %d s\n' $rc $(($(date +%s) - t0)) >&2
		say "last lines of $logfile:"
		tail -n 25 "$logfile" | sed 's/^/  | /' >&2
		say "whole log: $logfile"
		exit 1
	fi
	printf ' %d s\n' $(($(date +%s) - t0)) >&2
}

missing_pkgs() {
	local p
	for p in $host_pkgs; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || echo "$p"
	done
}

# Waits for the package lock (another apt-get, a second test bed
# preparing at the same time) rather than failing on it.
apt_install() {
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update -q
	apt-get -o DPkg::Lock::Timeout=600 install -y -q \
		--no-install-recommends "$@"
}

install_deps() {
	local missing
	missing=$(missing_pkgs | tr '\n' ' ')
	[ -n "${missing// /}" ] || return 0
	mkdir -p "$cache"
	set -- $missing
	run_step "installing $# package(s) ($*)" apt_install "$@"
	missing=$(missing_pkgs | tr '\n' ' ')
	if [ -n "${missing// /}" ]; then
		say "still missing after apt-get: $missing (see $logfile)"
		exit 1
	fi
}

# Every CONFIG_X=y|n line of the fragment must hold in the final .config:
# olddefconfig silently drops options whose dependencies are missing.
verify_config() {
	local cfg=$1 line sym val bad=0
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		sym=${line%%=*}
		val=${line#*=}
		if [ "$val" = n ]; then
			if grep -q "^$sym=" "$cfg"; then
				echo "$sym should be off"; bad=1
			fi
		elif ! grep -qx "$sym=$val" "$cfg"; then
			echo "$sym=$val did not survive olddefconfig"; bad=1
		fi
	done < <(cat "$fragment" "$flavor_fragment")
	return $bad
}

# The recipe.  Its text is part of the cache key: change it and the
# kernel is built anew.  Keep logging out of it.  It runs where set -e
# does not act (run_step tests its status), hence "|| return".
build_kernel() {
	local dir=$1 top
	top=$(dirname "$dir")
	tar -C "$top" -xf "$tarball" || return
	mv "$top/linux-source-6.12" "$dir" || return
	make -C "$dir" -s tinyconfig || return
	"$dir/scripts/kconfig/merge_config.sh" -m -O "$dir" "$dir/.config" \
		"$fragment" "$flavor_fragment" || return
	make -C "$dir" -s olddefconfig || return
	verify_config "$dir/.config" || return
	make -C "$dir" -s -j"$(nproc)" bzImage modules
}

# Upstream's drivers/infiniband, as it is in the kernel's own source tree
# (the test kernel builds none of it: CONFIG_INFINIBAND is off), copied
# out and built as external modules.  The CONFIG_ symbols its Kbuild
# files test go on the command line; the ones its headers test with
# IS_ENABLED() go in KCFLAGS (upstream.env, for modules built against
# these, holds the same defines).  INFINIBAND_VIRT_DMA matters: without
# it ib_dma_map_*() would use the DMA API on software devices, which
# have no DMA device.
upstream_syms="CONFIG_INFINIBAND=m CONFIG_INFINIBAND_USER_ACCESS=m
	CONFIG_INFINIBAND_USER_MAD=m CONFIG_INFINIBAND_USER_MEM=y
	CONFIG_INFINIBAND_ADDR_TRANS=y CONFIG_INFINIBAND_VIRT_DMA=y
	CONFIG_RDMA_RXE=m CONFIG_RDMA_SIW=m"
upstream_defines() {
	local s sym
	for s in $upstream_syms; do
		sym=${s%%=*}
		case "$s" in
		*=m) printf -- '-D%s_MODULE=1 ' "$sym" ;;
		*=y) printf -- '-D%s=1 ' "$sym" ;;
		esac
	done
}
build_upstream() {
	local kdir=$1 out=$2 defs
	defs=$(upstream_defines)
	rm -rf "$out/src" || return
	cp -a "$kdir/drivers/infiniband" "$out/src" || return
	# shellcheck disable=SC2086
	make -C "$kdir" -s -j"$(nproc)" M="$out/src" $upstream_syms \
		KCFLAGS="$defs" modules || return
	find "$out/src" -name '*.ko' -exec cp {} "$out/" \; || return
	cp "$out/src/Module.symvers" "$out/" || return
	printf 'UPSTREAM_KCFLAGS="%s"\nUPSTREAM_SYMVERS=%s\n' "$defs" \
		"$out/Module.symvers" >"$out/upstream.env"
}

# A stand-in for the kernel tree: its Makefile only records, in
# $cache/dry-module-builds, the folder it was asked to build modules in.
dry_build() {
	mkdir -p "$1"
	echo "# dry build (RDMA_TESTBED_DRY_BUILD)" >"$1/.config"
	printf '%%:\n\t@echo "$(CURDIR) $@" >>%s/dry-module-builds\n' \
		"$cache" >"$1/Makefile"
	echo "$1" >>"$cache/dry-builds"
}

upstream_dir() {
	local key
	key=$(declare -f build_upstream upstream_defines |
		cat - <(echo "$upstream_syms") | sha256sum | cut -c1-16)
	echo "$(dirname "$(kdir)")/upstream-$key"
}

# The modules the list above names, all of which must be built.
upstream_modules="ib_core ib_cm iw_cm rdma_cm ib_uverbs ib_umad rdma_ucm
	rdma_rxe siw"

build_upstream_cached() {
	local out m
	out=$(upstream_dir)
	[ -f "$out/.built" ] && return 0
	rm -rf "$out"
	mkdir -p "$out"
	run_step "building upstream's drivers/infiniband against the $flavor kernel" \
		build_upstream "$(kdir)" "$out"
	for m in $upstream_modules; do
		[ -f "$out/$m.ko" ] || { say "upstream's $m.ko was not built (see $logfile)"; exit 1; }
	done
	touch "$out/.built"
}

cache_key() {
	local srcver
	srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo none)
	{ cat "$fragment" "$flavor_fragment"; declare -f build_kernel verify_config
	  echo "$srcver"; } | sha256sum | cut -c1-16
}

kdir() {
	case $flavor in
	test) echo "$cache/kernel-$(cache_key)/linux" ;;
	bench) echo "$cache/kernel-bench-$(cache_key)/linux" ;;
	esac
}

build() {
	local dir top
	dir=$(kdir)
	top=$(dirname "$dir")
	[ -f "$top/.built" ] && return 0
	rm -rf "$top"
	mkdir -p "$top"
	if [ "${RDMA_TESTBED_DRY_BUILD:-0}" = 1 ]; then
		dry_build "$dir"
	else
		say "the $flavor kernel goes to $top"
		if [ $flavor = test ]; then
			run_step "building the test kernel (about 8 minutes on 2 cores)" \
				build_kernel "$dir"
		else
			run_step "building the measurement kernel (about 5 minutes on 2 cores)" \
				build_kernel "$dir"
		fi
	fi
	touch "$top/.built"
}

case "${1:-}" in
--kdir)
	kdir
	;;
--deps)
	install_deps
	;;
"" | --upstream)
	mkdir -p "$cache"
	exec 9>"$cache/.lock-$flavor"
	flock 9
	install_deps
	build
	if [ "${1:-}" = --upstream ]; then
		build_upstream_cached
		upstream_dir
	else
		kdir
	fi
	;;
*)
	echo "usage: $0 [--bench] [--kdir|--upstream|--deps]" >&2
	exit 2
	;;
esac
