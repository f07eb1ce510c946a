#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The no-KUnit build ("nokunit-build" in make check): every product
# module built against Debian's linux-headers of 6.12, a kernel without
# CONFIG_KUNIT, as a user's "make KDIR=/lib/modules/$(uname -r)/build"
# builds them.  The test kernel has KUnit, so nothing else builds the
# code as every distribution kernel sees it, where VISIBLE_IF_KUNIT means
# static and what is under "#if IS_ENABLED(CONFIG_KUNIT)" is gone.
#
#   nokunit-check.sh [REFERENCE_MODULES_ORDER]
#
# Fails when the build fails, on any compiler or modpost warning (as the
# main build does), and when a module of the reference build (default:
# this repository's modules.order, which make check's build just made
# against the test kernel) is missing, apart from the KUnit-only modules
# (those Kbuild names under CONFIG_INFINIBAND_KUNIT_TEST or a
# module's own, such as CONFIG_INFINIBAND_IPOIB_KUNIT_TEST).
#
# Why Debian's headers and not the test kernel with KUnit off: it is the
# cheaper way and checks more.  The release is the one distro-run.sh
# boots (the meta package linux-headers-6.12-amd64 points to it;
# RDMA_DISTRO_RELEASE overrides).  Its three packages (headers-amd64,
# headers-common, kbuild: 17 MB) are fetched with "apt-get download" and
# unpacked with dpkg-deb into the cache, not installed: installing
# linux-headers pulls in the 107 MB linux-image and its initramfs hook.
# A second configured tree of the test kernel would cost an olddefconfig
# and modules_prepare in a clean copy of the source, and without a
# vmlinux it has no Module.symvers for modpost.  Debian's headers also
# bring what the test kernel cannot show: FORTIFY_SOURCE without KASAN
# (whose compile-time checks the KASAN build does not fire),
# INFINIBAND=m with INFINIBAND_ADDR_TRANS=y, gcc-12 as Debian builds with
# it, and modversions against what Debian's image really exports.
#
# Cached, so that a later run costs little:
#   $cache/debian-headers-<release>/  the unpacked packages (once)
#   $cache/nokunit-<release>/src       the copy the modules are built in,
#       outside the repository (make check's first step, kbuild's clean,
#       walks the whole repository) and shared by every clone: rsync
#       --checksum without times rewrites only files whose content
#       differs, so kbuild rebuilds only those and their dependants, also
#       for a fresh clone.  KCFLAGS=-Werror keeps a warning from leaving
#       an object behind (it warns again on the next run until fixed),
#       and Module.symvers is removed first so that modpost runs, and
#       warns, every time.
# One run at a time per release (flock).
#
# Packages: pahole (BTF of modules: Debian has DEBUG_INFO_BTF_MODULES),
# gcc-12 (Debian's headers build with it), libelf1, rsync, make: installed
# with apt-get when missing, as prepare-kernel.sh does.
#
# Environment:
#   RDMA_TESTBED_CACHE   cache folder (default ~/.cache/rdma-testbed)
#   RDMA_DISTRO_RELEASE  e.g. 6.12.117+deb12-amd64 (default: the meta
#                        package's)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
ref=${1:-$repo/modules.order}
cache=${RDMA_TESTBED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-testbed}
meta=linux-headers-6.12-amd64
host_pkgs="pahole gcc-12 libelf1 rsync make"

say() { echo "nokunit-check: $*"; }
die() { say "$*"; exit 1; }

[ -f "$ref" ] || die "no $ref: build the modules against the test kernel first (make)"

export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_update() {
	[ $apt_updated = 1 ] && return 0
	apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null ||
		die "apt-get update failed"
	apt_updated=1
}

missing=()
for p in $host_pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} != 0 ]; then
	say "installing ${missing[*]}"
	apt_update
	apt-get -o DPkg::Lock::Timeout=600 install -y -q \
		--no-install-recommends "${missing[@]}" >/dev/null ||
		die "apt-get install ${missing[*]} failed"
fi

meta_release() {
	apt-cache depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: linux-headers-\(6\.12\.[^ ]*\)$/\1/p' |
		head -n 1
}
rel=${RDMA_DISTRO_RELEASE:-}
if [ -z "$rel" ]; then
	rel=$(meta_release)
	if [ -z "$rel" ]; then
		apt_update
		rel=$(meta_release)
	fi
	[ -n "$rel" ] || die "apt knows no $meta: which release? set RDMA_DISTRO_RELEASE"
fi
abi=${rel%-amd64}

mkdir -p "$cache"

# --- Debian's headers, unpacked once ---
hroot=$cache/debian-headers-$rel
kdir=$hroot/usr/src/linux-headers-$rel
t0=$SECONDS
exec 8>"$cache/.lock-debian-headers-$rel"
flock 8
if [ ! -f "$hroot/.unpacked" ]; then
	rm -rf "$hroot"
	mkdir -p "$hroot/debs"
	pkgs=("linux-headers-$rel" "linux-headers-$abi-common" "linux-kbuild-$abi")
	if ! (cd "$hroot/debs" && apt-get download -q "${pkgs[@]}" >/dev/null 2>&1); then
		apt_update
		(cd "$hroot/debs" && apt-get download -q "${pkgs[@]}" >/dev/null) ||
			die "apt-get download ${pkgs[*]} failed"
	fi
	for deb in "$hroot"/debs/*.deb; do
		dpkg-deb -x "$deb" "$hroot"
	done
	rm -rf "$hroot/debs"
	# The arch part includes the common part by its absolute path
	# under /usr/src; the rest of the tree finds itself (realpath).
	sed -i "s|^include /usr/src/|include $hroot/usr/src/|" "$kdir/Makefile"
	for f in Makefile .config Module.symvers include/config/auto.conf; do
		[ -f "$kdir/$f" ] || die "no $f in $kdir"
	done
	touch "$hroot/.unpacked"
	say "Debian's headers of $rel unpacked in $((SECONDS - t0)) s"
fi
exec 8>&-
# What this check is for: a configuration without KUnit.
if grep -q '^CONFIG_KUNIT=' "$kdir/include/config/auto.conf"; then
	die "$kdir has CONFIG_KUNIT: it cannot stand for a kernel without KUnit"
fi

# --- the build, in the shared copy ---
work=$cache/nokunit-$rel
src=$work/src
mkdir -p "$src"
exec 9>"$work/.lock"
flock 9
t0=$SECONDS
rsync -rlc --delete --exclude=.git --filter=':- .gitignore' "$repo/" "$src/"
rm -f "$src/Module.symvers"
log=$work/build.log
rc=0
MAKEFLAGS='' make -C "$kdir" M="$src" -k -j"$(nproc)" KCFLAGS=-Werror modules \
	>"$log" 2>&1 || rc=$?
compiled=$(grep -c '^ *CC \[M\]' "$log" || true)
say "built against $kdir in $((SECONDS - t0)) s ($compiled files compiled; log $log)"
fail=0
if [ $rc != 0 ]; then
	say "the build failed:"
	grep -E -i -B4 'error|warning:' "$log" | head -n 80 | sed "s|$src/||g"
	fail=1
elif grep -q -i 'warning:' "$log"; then
	say "warnings:"
	grep -i -B4 'warning:' "$log" | head -n 80 | sed "s|$src/||g"
	fail=1
fi

# --- every module of the reference build, but the KUnit-only ones ---
# shellcheck disable=SC2016 # the $ of $(CONFIG_...) is Kbuild's
kunit_only=$(cd "$repo" && find . -name Kbuild -not -path './.testbed/*' \
	-exec sed -n 's/^obj-\$(CONFIG_[A-Z_]*KUNIT_TEST) *+= *\([a-z0-9_]*\)\.o$/\1/p' {} + |
	sort -u)
names() { sed 's|.*/||; s|\.o$||' "$1" | sort -u; }
want=$(comm -23 <(names "$ref") <(echo "$kunit_only"))
got=
[ -f "$src/modules.order" ] && got=$(names "$src/modules.order")
if [ $rc = 0 ]; then
	lost=$(comm -23 <(echo "$want") <(echo "$got") | tr '\n' ' ')
	if [ -n "${lost// /}" ]; then
		say "not built without KUnit: $lost"
		fail=1
	fi
	# modules.order names them by absolute path or relative to M
	while read -r m; do
		m=${m%.o}.ko
		case "$m" in /*) ;; *) m=$src/$m ;; esac
		[ -f "$m" ] || { say "no $m"; fail=1; }
	done <"$src/modules.order"
fi
say "modules: $(echo "$got" | tr '\n' ' ')"
[ $fail = 0 ] || exit 1
say "every product module builds without KUnit, with no warning"
