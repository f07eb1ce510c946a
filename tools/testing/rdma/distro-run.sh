#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The demo of "make run" on Debian's own 6.12 kernel instead of the debug
# test kernel ("make run-distro"; Documentation/distro.rst):
#
# 1. installs, when missing, the kernel image and headers packages of one
#    release (linux-image-<release>, linux-headers-<release>) and the host
#    tools the VM needs;
# 2. copies the sources to .testbed/distro/src (rsync; the repository's
#    own build outputs, made against the test kernel, stay as they are)
#    and builds every module there against the headers;
# 3. boots /boot/vmlinuz-<release> in the QEMU VM with the test bed's
#    initramfs (vm-run.sh demo): our modules, and of Debian's
#    /lib/modules/<release> only the modules ours need, never one of its
#    drivers/infiniband, so the RDMA modules loaded are ours;
# 4. runs the demo scripts (scenarios/demo/*.sh) to "demo: finished
#    cleanly".
#
# Exit status 0 when the build had no warning and the demo finished
# cleanly.
#
# Environment:
#   RDMA_DISTRO_RELEASE  the release to use, e.g. 6.12.117+deb12-amd64
#                        (default: the one the meta package
#                        linux-image-6.12-amd64 points to)
#   RDMA_VM_TIMEOUT      time limit of the VM (vm-run.sh; default 10m)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
dist=$repo/.testbed/distro
src=$dist/src
meta=linux-image-6.12-amd64
# The demo scripts' "# needs:" tools come from the host too: rdma
# (iproute2), and opensm and infiniband-diags for 30-ib-subnet.
host_pkgs="qemu-system-x86 busybox-static cpio kmod xz-utils zstd rsync
	python3 gcc make libc6-dev iproute2 opensm infiniband-diags"

say() { echo "distro-run: $*" >&2; }
die() { say "$*"; exit 2; }

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	else
		sudo "$@"
	fi
}

apt_updated=0
apt_update() {
	[ $apt_updated = 1 ] && return 0
	say "apt-get update"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$dist/apt.log" 2>&1 ||
		die "apt-get update failed, see $dist/apt.log"
	apt_updated=1
}

apt_install() {
	local t0=$SECONDS
	apt_update
	say "installing $*"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "$@" >>"$dist/apt.log" 2>&1 ||
		die "apt-get install failed, see $dist/apt.log"
	say "installed in $((SECONDS - t0)) s"
}

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# The release the meta package points to now: its dependency is
# linux-image-<release> (the signed image).
meta_release() {
	apt-cache depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\(6\.12\.[^ ]*\)$/\1/p' |
		grep -v -- '-unsigned$' | head -n 1
}

start=$SECONDS
mkdir -p "$dist"
: >"$dist/apt.log"

# --- 1. packages: one apt-get for all that is missing ---
missing=()
for p in $host_pkgs; do
	installed "$p" || missing+=("$p")
done

rel=${RDMA_DISTRO_RELEASE:-}
if [ -z "$rel" ]; then
	rel=$(meta_release)
	if [ -z "$rel" ]; then
		apt_update
		rel=$(meta_release)
	fi
	[ -n "$rel" ] || die "apt knows no $meta: which 6.12 release? set RDMA_DISTRO_RELEASE"
fi
vmlinuz=/boot/vmlinuz-$rel
kmods=/lib/modules/$rel
hdrs=/usr/src/linux-headers-$rel
# The files, not the package names: the image may be the -unsigned one.
if [ ! -f "$vmlinuz" ] || [ ! -f "$kmods/modules.dep" ]; then
	missing+=("linux-image-$rel")
fi
[ -f "$hdrs/Makefile" ] || missing+=("linux-headers-$rel")
[ ${#missing[@]} = 0 ] || apt_install "${missing[@]}"
for f in "$vmlinuz" "$kmods/modules.dep" "$hdrs/Makefile" "$hdrs/Module.symvers"; do
	[ -f "$f" ] || die "no $f after installing the packages of $rel"
done
# Some distributions make the image readable by root only.
[ -r "$vmlinuz" ] || die "$vmlinuz is not readable: run as root"
say "kernel $rel: $vmlinuz, headers $hdrs"

# --- 2. build in a copy ---
t0=$SECONDS
mkdir -p "$src"
# The copy keeps its own build outputs (what .gitignore names is neither
# copied nor deleted there), so a second run rebuilds only what changed.
rsync -a --delete --exclude=.git --filter=':- .gitignore' "$repo/" "$src/"
say "building against $hdrs (log: $dist/build.log)"
if ! make -C "$src" --no-print-directory KDIR="$hdrs" -j"$(nproc)" modules \
	>"$dist/build.log" 2>&1; then
	tail -n 30 "$dist/build.log" | sed 's/^/  | /' >&2
	die "the build failed, see $dist/build.log"
fi
warnings=$(grep -c -i -e 'warning:' "$dist/build.log" || true)
if [ "$warnings" != 0 ]; then
	say "the build warned ($warnings):"
	grep -i -e 'warning:' "$dist/build.log" | sed 's/^/  | /' >&2
fi
mods=$(sed 's|.*/||; s|\.o$||' "$src/modules.order" | tr '\n' ' ')
say "built in $((SECONDS - t0)) s: $mods"

# --- 3. and 4. the VM ---
rc=0
# Debian's /boot/System.map is a placeholder (the real one is in the -dbg
# package): depmod learns what the image exports from the headers'
# Module.symvers, and checks our modules' symbol versions against it.
KDIR=$hdrs RDMA_VM_KERNEL=$vmlinuz RDMA_VM_MODULES=$kmods \
	RDMA_VM_SYMVERS=$hdrs/Module.symvers \
	"$src/tools/testing/rdma/vm-run.sh" demo || rc=$?

# Debian's own RDMA modules must never have been in reach.
leaked=$(find "$src/.testbed/initramfs/lib/modules" -path '*/drivers/infiniband/*' 2>/dev/null)
if [ -n "$leaked" ]; then
	say "the initramfs held the kernel's own RDMA modules: $leaked"
	rc=1
fi
say "VM logs: $src/.testbed (console.log)"
if [ "$warnings" != 0 ]; then
	say "$warnings build warning(s)"
	[ $rc != 0 ] || rc=1
fi
say "done in $((SECONDS - start)) s, status $rc"
exit $rc
