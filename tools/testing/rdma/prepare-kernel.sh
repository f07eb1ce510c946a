#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Prepare the debug test kernel that the modules build against and the VM
# boots.  The kernel is built from Debian's linux-source-6.12 into a cache
# folder outside the repository, keyed by the hash of kernel.config, of this
# script and of the source package's version.  A current cache is reused.
#
#   prepare-kernel.sh          install what is missing, build if needed, print KDIR
#   prepare-kernel.sh --kdir   only print where KDIR is (or will be)
#   prepare-kernel.sh --deps   only install the host packages
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/kernel.config
cache=${RDMA_TESTBED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-testbed}
tarball=/usr/src/linux-source-6.12.tar.xz

host_pkgs="linux-source-6.12 flex bison bc libelf-dev libssl-dev qemu-system-x86
	busybox-static cpio sparse python3 gcc make perl rdma-core ibverbs-utils
	iproute2 strace kmod"

log() { echo "prepare-kernel: $*" >&2; }

install_deps() {
	local missing=() p
	for p in $host_pkgs; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

cache_key() {
	local srcver
	srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo none)
	{ cat "$fragment" "$0"; echo "$srcver"; } | sha256sum | cut -c1-16
}

kdir() { echo "$cache/kernel-$(cache_key)/linux"; }

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
				log "$sym should be off"; bad=1
			fi
		elif ! grep -qx "$sym=$val" "$cfg"; then
			log "$sym=$val did not survive olddefconfig"; bad=1
		fi
	done <"$fragment"
	return $bad
}

build() {
	local dir top
	dir=$(kdir)
	top=$(dirname "$dir")
	if [ -f "$top/.built" ]; then
		return 0
	fi
	log "building the test kernel in $top (takes a while: see README)"
	rm -rf "$top"
	mkdir -p "$top"
	tar -C "$top" -xf "$tarball"
	mv "$top/linux-source-6.12" "$dir"
	make -C "$dir" -s tinyconfig >&2
	"$dir/scripts/kconfig/merge_config.sh" -m -O "$dir" "$dir/.config" \
		"$fragment" >/dev/null
	make -C "$dir" -s olddefconfig >&2
	verify_config "$dir/.config"
	make -C "$dir" -s -j"$(nproc)" bzImage modules >&2
	touch "$top/.built"
	log "done"
}

case "${1:-}" in
--kdir)
	kdir
	;;
--deps)
	install_deps
	;;
"")
	install_deps
	mkdir -p "$cache"
	exec 9>"$cache/.lock"
	flock 9
	build
	kdir
	;;
*)
	echo "usage: $0 [--kdir|--deps]" >&2
	exit 2
	;;
esac
