#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Boot the test kernel under QEMU (TCG) with an initramfs holding busybox,
# every module built in the repository and the guest scripts.
#
#   vm-run.sh check   KUnit modules, then scenarios/*.sh; logs for results.py
#   vm-run.sh demo    scenarios/demo/*.sh, console echoed live
#   vm-run.sh bench   bench/vm/*.sh (benchmarks, not tests), their output
#                     to .testbed/bench.log and the terminal
#
# With two guests or more, guests 1 and 2 are joined by a virtual wire: a
# virtio NIC each (eth0 in the guest, 10.211.0.<guest>/24) on a tap
# device of the host, both taps on one bridge, in a network namespace of
# the run's own (see "The wire" below).  In check mode, the wire
# scenarios (scenarios/wire/*.sh) run on both of them first, each guest
# playing its half (guest/wire.sh); their KTAP is reported per guest as
# NAME.guest1 and NAME.guest2.
#
# Environment:
#   KDIR              kernel tree (default: prepare-kernel.sh builds/finds it)
#   RDMA_VM_TIMEOUT   time limit of the whole VM run, in timeout(1) syntax
#                     (default 75m for check, 120m for check in the full
#                     tier, 10m for demo and bench)
#   RDMA_SCENARIO_TIMEOUT  default limit of one scenario in seconds (600)
#   RDMA_EXTRA_KO     more .ko files to put in the VM, treated like ours
#   RDMA_OURS_DIR     where our modules were built (modules.order and the
#                     .ko files; default the repository): bench-compare
#                     builds a copy against the measurement kernel
#   RDMA_KUNIT        KUnit modules to run instead of all (names; "none")
#   RDMA_SCENARIOS    scenario files to run instead of scenarios/*.sh
#   RDMA_BENCH        benchmark scripts to run instead of bench/vm/*.sh
#   RDMA_VM_APPEND    more kernel command line arguments
#   RDMA_VM_SMP       vCPUs of each guest (default 2)
#   RDMA_VM_VCPU_NICE the nice value of the QEMUs' vCPU threads (default
#                     0: as their main loops)
#   RDMA_VM_TCG_THREAD  TCG's threading: multi (a host thread per vCPU)
#                     or single (one host thread runs a guest's vCPUs in
#                     turn); default multi
#   RDMA_VM_VERBOSE=1 echo the whole console while a check run goes
#   RDMA_VM_LOCK      a file every run takes an exclusive flock(1) on
#                     first, so that runs from several worktrees of one
#                     machine take turns (default /tmp/rdma-vm.lock;
#                     "none": no lock)
#   RDMA_TIER         quick (default) or full: the strength every scenario
#                     and KUnit suite runs at (make check / make check-full);
#                     scenarios read it as $RDMA_TIER (ktap.sh: tier_pick),
#                     KUnit modules with a "full" parameter get full=1
#   RDMA_VM_GUESTS    check mode: guests booted side by side, each with part
#                     of the KUnit modules and scenarios (default 2); bench
#                     mode: 1 (default) or 2 (on the wire, each guest runs
#                     every benchmark script, which plays its own half)
#   RDMA_WIRE         tap (default) or socket: the wire between guests 1
#                     and 2 (socket: QEMU's TCP socket backend, the wire
#                     before 2026-11-28, which stalls a burst's second
#                     frame for 40 ms; kept to compare)
#   RDMA_UPSTREAM     folder of upstream's stack (prepare-kernel.sh
#                     --upstream, built against KDIR): its .ko files go to
#                     /testbed/upstream in the guest (guest/stack.sh)
#   RDMA_UPSTREAM_KO  more .ko files built against upstream's stack, put
#                     beside it
#   RDMA_HUNG_TASK_SECS  hung task detector's timeout in the guest (180)
#   RDMA_KUNIT_TIMEOUT   seconds after which a KUnit module still loading
#                     gets a dump of every task's stack (600)
#   Another kernel than KDIR's own build (distro-run.sh: Debian's kernel,
#   KDIR its headers):
#   RDMA_VM_KERNEL    kernel image to boot instead of $KDIR's bzImage
#   RDMA_VM_MODULES   that kernel's /lib/modules/<release>: its own modules
#                     come from there, only those ours need, instead of
#                     from $KDIR (never one of its drivers/infiniband)
#   RDMA_VM_SYMVERS   what the kernel image exports, for depmod: a
#                     Module.symvers (-E) instead of $KDIR/System.map (-F)
#                     (Debian ships its System.map in the -dbg package)
#
# Check mode splits the work between the guests by the durations that
# tools/testing/rdma/durations (quick tier) or durations-full (full tier)
# lists (measured; results.py writes a fresh list to .testbed/durations
# after each run, "make durations" copies it): plan.py split, the longest
# first, each to the guest with the least work so far.
#
# Output in <repo>/.testbed/: nonce (part of the completion marker); in
# check mode, guest-N/ for each guest, in the other modes .testbed itself,
# holds console.log (ttyS0, kernel console), ktap.log (ttyS1, KTAP of the
# scenarios; bench.log in bench mode), in check mode capture.log (ttyS2,
# the packet captures that scenarios send: guest/capture.sh, capture.py)
# and vm.rc (exit status of QEMU under timeout(1): 124 = time limit).

# One VM run at a time per machine (RDMA_VM_LOCK above): the guests need
# both cores, and the wire's bridge has one name.
if [ "${RDMA_VM_LOCK:=/tmp/rdma-vm.lock}" != none ] && [ -z "$RDMA_VM_LOCK_HELD" ]; then
	exec env RDMA_VM_LOCK_HELD=1 flock "$RDMA_VM_LOCK" "$0" "$@"
fi
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
work=$repo/.testbed

die() { echo "vm-run: $*" >&2; exit 2; }
log() { echo "vm-run: $*" >&2; }

mode=${1:-}
case "$mode" in
check)
	# The full tier's hour on the idle machine is two on one twice as
	# slow; the limit is there for a hang, which a scenario's own limit
	# finds first.
	if [ "${RDMA_TIER:-quick}" = full ]; then
		limit=${RDMA_VM_TIMEOUT:-120m}
	else
		limit=${RDMA_VM_TIMEOUT:-75m}
	fi
	;;
demo | bench) limit=${RDMA_VM_TIMEOUT:-10m} ;;
*) echo "usage: $0 check|demo|bench" >&2; exit 2 ;;
esac
# Logs of an earlier run must not pass for this one's.
mkdir -p "$work"
rm -f "$work"/console.log "$work"/ktap.log "$work"/bench.log "$work"/vm.rc \
	"$work"/nonce "$work"/initramfs.cpio.gz "$work"/durations "$work"/tier \
	"$work"/profile
rm -rf "$work"/guest-*

if [ -z "${KDIR:-}" ]; then
	KDIR=$("$here/prepare-kernel.sh")
fi
bzimage=${RDMA_VM_KERNEL:-$KDIR/arch/x86/boot/bzImage}
[ -f "$bzimage" ] || die "no $bzimage: build the kernel with prepare-kernel.sh"
krel=$(cat "$KDIR/include/config/kernel.release")
# --- RDMA_VM_MODULES, RDMA_VM_SYMVERS (distro-run.sh) ---
if [ -n "${RDMA_VM_SYMVERS:-}" ]; then
	ksyms=(-E "$RDMA_VM_SYMVERS")
else
	ksyms=(-F "$KDIR/System.map")
fi
[ -f "${ksyms[1]}" ] || die "no ${ksyms[1]}"
kmods=${RDMA_VM_MODULES:-}
if [ -n "$kmods" ]; then
	kmods=${kmods%/}
	[ "$kmods" = "${kmods%/lib/modules/"$krel"}/lib/modules/$krel" ] ||
		die "RDMA_VM_MODULES=$kmods is not .../lib/modules/$krel (the release of $KDIR)"
	[ -f "$kmods/modules.dep" ] || die "no $kmods/modules.dep"
fi
# --- end RDMA_VM_MODULES ---

staging=$work/initramfs
rm -rf "$staging"
mkdir -p "$staging"

# Root layout.  Mirror the host's merged /usr so that library paths that
# ldd prints are valid in the guest as they are.
for d in bin sbin lib lib64; do
	if [ -L "/$d" ]; then
		ln -s "$(readlink "/$d")" "$staging/$d"
	fi
done
mkdir -p "$staging"/{usr/bin,usr/sbin,usr/lib,usr/lib64,bin,sbin,lib} \
	"$staging"/{proc,sys,dev,tmp,run,root,etc,var/log,testbed/lib}
echo "root:x:0:0:root:/root:/bin/sh" >"$staging/etc/passwd"
echo "root:x:0:" >"$staging/etc/group"
echo "127.0.0.1 localhost" >"$staging/etc/hosts"

# busybox with one symlink per applet.
busybox=$(command -v busybox) || die "busybox-static is not installed"
ldd "$busybox" >/dev/null 2>&1 && die "$busybox is not static (install busybox-static)"
cp -L "$busybox" "$staging/bin/busybox"
"$busybox" --list-full | while read -r applet; do
	[ -e "$staging/$applet" ] || [ -L "$staging/$applet" ] && continue
	mkdir -p "$staging/$(dirname "$applet")"
	ln -s /bin/busybox "$staging/$applet"
done

# Modules: ours (what the last build listed in modules.order, so a stale
# .ko of a module no longer built stays out) and RDMA_EXTRA_KO under
# extra/, the kernel's own modular pieces (if any) under kernel/.
moddir=$staging/lib/modules/$krel
mkdir -p "$moddir/extra" "$moddir/kernel"
ours=()
ours_dir=${RDMA_OURS_DIR:-$repo}
if [ -f "$ours_dir/modules.order" ]; then
	while IFS= read -r o; do
		case "$o" in /*) ;; *) o=$ours_dir/$o ;; esac
		ko=${o%.o}.ko
		[ -f "$ko" ] || die "$ko listed in modules.order is missing"
		ours+=("$ko")
	done <"$ours_dir/modules.order"
else
	log "no modules.order in $ours_dir: no module of ours (build first)"
fi
for ko in ${RDMA_EXTRA_KO:-}; do
	[ -f "$ko" ] || die "RDMA_EXTRA_KO: no file $ko"
	ours+=("$(cd "$(dirname "$ko")" && pwd)/$(basename "$ko")")
done
names=()
for ko in ${ours[@]+"${ours[@]}"}; do
	base=$(basename "$ko")
	[ -e "$moddir/extra/$base" ] && die "two modules named $base"
	cp "$ko" "$moddir/extra/$base"
	names+=("$(basename "$base" .ko | tr - _)")
done
if [ -n "$kmods" ]; then
	# --- RDMA_VM_MODULES: the kernel's modules that ours need.  depmod
	# names the symbols that neither ours nor the image export, modprobe
	# --show-depends the modules of $kmods that export them, with their
	# own dependencies.  Compressed ones are unpacked (busybox modprobe).
	/sbin/depmod -b "$staging" -e "${ksyms[@]}" "$krel" 2>&1 |
		sed -n 's/.* needs unknown symbol \(.*\)$/\1/p' | sort -u >"$work/needed-symbols"
	kroot=${kmods%/lib/modules/"$krel"}
	mapfile -t kkos < <(while read -r sym; do
		/sbin/modprobe ${kroot:+-d "$kroot"} -S "$krel" -q --show-depends "symbol:$sym" ||
			log "warning: no module of $kmods exports $sym"
	done <"$work/needed-symbols" | sed -n 's/^insmod \([^ ]*\).*/\1/p' | sort -u)
	for ko in ${kkos[@]+"${kkos[@]}"}; do
		rel=${ko#"$kmods"/}
		case "$rel" in
		/*)
			die "modprobe named $ko, outside $kmods" ;;
		kernel/drivers/infiniband/*)
			die "ours would need the kernel's own $rel: $(tr '\n' ' ' <"$work/needed-symbols")" ;;
		esac
		mkdir -p "$moddir/$(dirname "$rel")"
		case "$ko" in
		*.xz) xz -dc "$ko" >"$moddir/${rel%.xz}" ;;
		*.zst) zstd -qdc "$ko" >"$moddir/${rel%.zst}" ;;
		*.gz) gzip -dc "$ko" >"$moddir/${rel%.gz}" ;;
		*) cp "$ko" "$moddir/$rel" ;;
		esac
	done
	if [ ${#kkos[@]} = 0 ]; then
		log "the kernel's own modules that ours need: none"
	else
		log "the kernel's own modules that ours need: ${kkos[*]##*/}"
	fi
	# --- end RDMA_VM_MODULES ---
elif [ -f "$KDIR/modules.order" ]; then
	while IFS= read -r o; do
		ko=${o%.o}.ko
		[ -f "$KDIR/$ko" ] || continue
		mkdir -p "$moddir/kernel/$(dirname "$ko")"
		cp "$KDIR/$ko" "$moddir/kernel/$ko"
	done <"$KDIR/modules.order"
fi
for f in modules.builtin modules.builtin.modinfo; do
	[ -f "${kmods:-$KDIR}/$f" ] && cp "${kmods:-$KDIR}/$f" "$moddir/"
done
(cd "$moddir" && find extra kernel -name '*.ko' | sort) >"$moddir/modules.order"
# kmod's depmod; -e with System.map (or Module.symvers) reports symbols
# nobody provides.
depmod_log=$work/depmod.log
/sbin/depmod -b "$staging" -e "${ksyms[@]}" "$krel" 2>"$depmod_log" ||
	die "depmod failed: $(cat "$depmod_log")"
if [ -s "$depmod_log" ]; then
	log "depmod reports:"
	sed 's/^/  /' "$depmod_log" >&2
fi
log "${#names[@]} module(s) of ours: ${names[*]:-none}"

# Upstream's stack and what was built against it: outside depmod's tree
# (both stacks have an ib_core), loaded by guest/stack.sh with insmod.
upstream_kos=()
if [ -n "${RDMA_UPSTREAM:-}" ]; then
	[ -f "$RDMA_UPSTREAM/ib_core.ko" ] ||
		die "RDMA_UPSTREAM=$RDMA_UPSTREAM has no ib_core.ko (prepare-kernel.sh --upstream)"
	upstream_kos+=("$RDMA_UPSTREAM"/*.ko)
fi
for ko in ${RDMA_UPSTREAM_KO:-}; do
	[ -f "$ko" ] || die "RDMA_UPSTREAM_KO: no file $ko"
	upstream_kos+=("$ko")
done
mkdir -p "$staging/testbed/upstream"
for ko in ${upstream_kos[@]+"${upstream_kos[@]}"}; do
	cp "$ko" "$staging/testbed/upstream/"
done
[ ${#upstream_kos[@]} = 0 ] ||
	log "upstream's stack: $(cd "$staging/testbed/upstream" && ls | sed 's/\.ko$//' | tr '\n' ' ')"

# KUnit modules (name ends in _kunit), in name order, each with the
# modules of ours it depends on, in modules.dep order (removal order).
python3 - "$moddir/modules.dep" "${RDMA_KUNIT-all}" \
	"${names[@]+"${names[@]}"}" >"$work/kunit.list" <<'EOF'
import os, sys
dep_file, only, ours = sys.argv[1], sys.argv[2], set(sys.argv[3:])
only = None if only == 'all' else set(only.replace('-', '_').split())
def name(path):
    return os.path.basename(path)[:-len('.ko')].replace('-', '_')
deps = {}
for line in open(dep_file):
    if ':' not in line:
        continue
    mod, rest = line.split(':', 1)
    deps[name(mod)] = [name(d) for d in rest.split()]
for mod in sorted(m for m in ours if m.endswith('_kunit')):
    if only is not None and mod not in only:
        continue
    print(' '.join([mod] + [d for d in deps.get(mod, []) if d in ours]))
EOF
kunit_count=$(wc -l <"$work/kunit.list")
log "$kunit_count KUnit module(s)"

# Guest scripts.
cp "$here/guest/init" "$staging/init"
chmod 755 "$staging/init"
cp "$here/guest/ktap.sh" "$here/guest/stack.sh" "$here/guest/wire.sh" \
	"$here/guest/nvmf.sh" "$here/guest/tcm.sh" "$here/guest/capture.sh" \
	"$here/guest/profile.sh" \
	"$staging/testbed/lib/"
mkdir -p "$staging/testbed/scenarios/demo" "$staging/testbed/scenarios/wire" \
	"$staging/testbed/bench"
case "$mode" in
check)
	scen_dir=$here/scenarios
	dest=$staging/testbed/scenarios
	;;
demo)
	scen_dir=$here/scenarios/demo
	dest=$staging/testbed/scenarios/demo
	;;
bench)
	scen_dir=$here/bench/vm
	dest=$staging/testbed/bench
	;;
esac
scenarios=()
if [ "$mode" = check ] && [ -n "${RDMA_SCENARIOS+set}" ]; then
	read -r -a scen_list <<<"$RDMA_SCENARIOS"
elif [ "$mode" = bench ] && [ -n "${RDMA_BENCH+set}" ]; then
	read -r -a scen_list <<<"$RDMA_BENCH"
else
	scen_list=("$scen_dir"/*.sh)
	[ "$mode" = check ] && scen_list+=("$scen_dir"/wire/*.sh)
fi
# Wire scenarios (a folder named wire) go to /testbed/scenarios/wire.
wire_scenarios=()
for s in ${scen_list[@]+"${scen_list[@]}"}; do
	[ -f "$s" ] || continue
	d=$dest
	if [ "$mode" = check ] && [ "$(basename "$(dirname "$s")")" = wire ]; then
		d=$dest/wire
		wire_scenarios+=("$(basename "$s")")
	fi
	[ -e "$d/$(basename "$s")" ] && die "two scenarios named $(basename "$s")"
	cp "$s" "$d/"
	scenarios+=("$s")
done
log "${#scenarios[@]} $([ "$mode" = bench ] && echo benchmark || echo scenario)(s)"

# Test programs of our own: each tools/testing/rdma/<name>/Makefile
# builds static binaries into .testbed/bin ("make O=DIR"), which the
# guest finds in /testbed/bin.  A program that fails to build is left
# out (its scenario then fails), the rest of the run goes on.
rm -rf "$work/bin"
mkdir -p "$work/bin" "$staging/testbed/bin"
for mk in "$here"/*/Makefile; do
	[ -f "$mk" ] || continue
	make -s -C "$(dirname "$mk")" O="$work/bin" >&2 ||
		log "warning: building $(dirname "$mk") failed"
done
find "$work/bin" -maxdepth 1 -type f -perm -u+x -exec cp {} "$staging/testbed/bin/" \;

# Debian binaries that scenarios declare with "# needs: PATH...", with
# the libraries ldd lists, the dynamic loader and libgcc_s (which glibc
# loads at run time for pthread_cancel and unwinding).
copy_file() {
	local src=$1 dst=$staging$1
	mkdir -p "$(dirname "$dst")"
	rm -f "$dst"
	cp -L "$src" "$dst"
}
needs=$(sed -n 's/^#[[:space:]]*needs:[[:space:]]*//p' \
	${scenarios[@]+"${scenarios[@]}"} /dev/null | tr -s ' \t' '\n\n' |
	sed '/^$/d' | sort -u)
libs=()
if [ -n "$needs" ]; then
	for bin in $needs; do
		case "$bin" in
		/*) ;;
		*) bin=$(command -v "$bin" || echo "$bin") ;;
		esac
		if [ ! -f "$bin" ]; then
			log "warning: needed binary $bin is missing on the host"
			continue
		fi
		# The real tool wins over a busybox applet of the same name.
		for d in usr/sbin usr/bin sbin bin; do
			if [ -L "$staging/$d/$(basename "$bin")" ] &&
			   [ "$(readlink "$staging/$d/$(basename "$bin")")" = /bin/busybox ]; then
				rm -f "$staging/$d/$(basename "$bin")"
			fi
		done
		copy_file "$bin"
		while read -r lib; do
			libs+=("$lib")
		done < <(ldd "$bin" 2>/dev/null |
			sed -n -e 's/.*=> \(\/[^ ]*\).*/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) .*/\1/p')
	done
	log "copied: $(echo $needs)"
fi

# Trees that scenarios declare with "# needs-tree: DIR..." (a Python
# stdlib, a package's folder), copied whole less the names that
# "# needs-tree-exclude: PATTERN..." lists (tar --exclude patterns,
# matched against every component of a path: "test" leaves out each
# folder or file named test), with the ldd libraries of each ELF object
# in them (Python extension modules link libibverbs, librdmacm, ...).
trees=$(sed -n 's/^#[[:space:]]*needs-tree:[[:space:]]*//p' \
	${scenarios[@]+"${scenarios[@]}"} /dev/null | tr -s ' \t' '\n\n' |
	sed '/^$/d' | sort -u)
tree_excl=()
# (read -a: no pathname expansion of the patterns)
while read -r -a pats; do
	for pat in ${pats[@]+"${pats[@]}"}; do
		tree_excl+=("--exclude=$pat")
	done
done < <(sed -n 's/^#[[:space:]]*needs-tree-exclude:[[:space:]]*//p' \
	${scenarios[@]+"${scenarios[@]}"} /dev/null)
if [ -n "$trees" ]; then
	for tree in $trees; do
		case "$tree" in
		/*) ;;
		*) die "needs-tree: $tree is no absolute path" ;;
		esac
		if [ ! -d "$tree" ]; then
			log "warning: needed tree $tree is missing on the host"
			continue
		fi
		mkdir -p "$staging$tree"
		tar -C "$tree" -cf - ${tree_excl[@]+"${tree_excl[@]}"} . |
			tar -C "$staging$tree" -xf - ||
			die "copying $tree failed"
		# ELF objects by their magic, one ldd for all of them
		find "$staging$tree" -type f \( -name '*.so' -o -name '*.so.*' \) \
			-print0 | xargs -0 -r sh -c '
			for f; do
				[ "$(head -c 4 "$f" | od -An -c | tr -d " ")" = 177ELF ] &&
					echo "$f"
			done' sh >"$work/tree-elf"
		while read -r lib; do
			libs+=("$lib")
		done < <(xargs -r ldd <"$work/tree-elf" 2>/dev/null |
			sed -n -e 's/.*=> \(\/[^ ]*\).*/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) .*/\1/p' |
			sort -u)
	done
	log "copied trees: $(echo $trees) ($(du -sk $(for t in $trees; do echo "$staging$t"; done) 2>/dev/null | awk '{ s += $1 } END { print s }') KiB)"
fi

if [ -n "$needs$trees" ]; then
	gcc_s=$(/sbin/ldconfig -p | sed -n 's/.*libgcc_s\.so\.1 (libc6,x86-64) => //p' | head -n 1)
	[ -n "$gcc_s" ] && libs+=("$gcc_s")
	for lib in $(printf '%s\n' ${libs[@]+"${libs[@]}"} | sort -u); do
		copy_file "$lib"
	done
fi

# Seconds in timeout(1) syntax (90, 90s, 25m, 1h).
to_seconds() {
	case "$1" in
	*s) echo "${1%s}" ;;
	*m) echo $((${1%m} * 60)) ;;
	*h) echo $((${1%h} * 3600)) ;;
	*d) echo $((${1%d} * 86400)) ;;
	*) echo "$1" ;;
	esac
}

tier=${RDMA_TIER:-quick}
case "$tier" in
quick) durations=$here/durations ;;
full) durations=$here/durations-full ;;
*) die "RDMA_TIER must be quick or full, not '$tier'" ;;
esac

echo "$tier" >"$work/tier"

# Check mode: the work of each guest, /testbed/plan.N (plan.py: the
# costliest items first, each to the guest with the least work so far,
# by the tier's measured durations).
guests=1
if [ "$mode" = bench ]; then
	guests=${RDMA_VM_GUESTS:-1}
	case "$guests" in 1 | 2) ;; *) die "bench mode runs 1 or 2 guests" ;; esac
fi
if [ "$mode" = check ]; then
	guests=${RDMA_VM_GUESTS:-2}
	case "$guests" in '' | *[!0-9]* | 0) die "RDMA_VM_GUESTS must be 1 or more" ;; esac
	python3 "$here/plan.py" split "$guests" "$durations" "$work/kunit.list" \
		"$staging/testbed" "${wire_scenarios[*]+"${wire_scenarios[*]}"}" \
		${scenarios[@]+"${scenarios[@]}"}
fi

limit_s=$(to_seconds "$limit")
nonce=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
cat >"$staging/testbed/config" <<EOF
TESTBED_MODE=$mode
TESTBED_TIER=$tier
TESTBED_NONCE=$nonce
TESTBED_OURS="${names[*]+"${names[*]}"}"
TESTBED_SCENARIO_TIMEOUT=${RDMA_SCENARIO_TIMEOUT:-600}
TESTBED_KUNIT_TIMEOUT=${RDMA_KUNIT_TIMEOUT:-600}
TESTBED_VM_LIMIT=$limit_s
TESTBED_BOOT_EXPECTED=$(sed -n 's/^boot kernel \([0-9][0-9]*\).*/\1/p' "${durations:-/dev/null}" | head -n 1)
EOF

(cd "$staging" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 >"$work/initramfs.cpio.gz"
echo "$nonce" >"$work/nonce"

# Hang detectors (kernel.config turns them on): a task blocked for
# RDMA_HUNG_TASK_SECS is reported, checked every 20 s, every time; a CPU
# stuck for 2 x watchdog_thresh seconds; a workqueue pool stuck for 30 s.
hang="sysctl.kernel.hung_task_timeout_secs=${RDMA_HUNG_TASK_SECS:-180}"
hang="$hang sysctl.kernel.hung_task_check_interval_secs=20"
hang="$hang sysctl.kernel.hung_task_warnings=-1 watchdog_thresh=10"
hang="$hang workqueue.watchdog_thresh=30"
# Bonding is built in (kernel.config): no bond0 unless a test makes one.
append="console=ttyS0 panic=-1 printk.devkmsg=on loglevel=7 $hang"
append="$append bonding.max_bonds=0 ${RDMA_VM_APPEND:-}"
# Two sockets, not two cores: the kernel has no ACPI and finds CPUs in
# SeaBIOS's MP table, which lists one CPU per socket.
smp=${RDMA_VM_SMP:-2}
tcg_thread=${RDMA_VM_TCG_THREAD:-multi}
case "$tcg_thread" in single | multi) ;; *) die "RDMA_VM_TCG_THREAD must be single or multi, not '$tcg_thread'" ;; esac
# debug-threads: the vCPU threads are named "CPU n/TCG" (vcpu_nice)
qemu=(qemu-system-x86_64 -name debug-threads=on -accel "tcg,thread=$tcg_thread" -smp "$smp,sockets=$smp,cores=1,threads=1" -m 2G
	-nographic -no-reboot
	-monitor none
	-kernel "$bzimage" -initrd "$work/initramfs.cpio.gz")
# The wire between guests 1 and 2.  RDMA_WIRE=tap (the default): a tap
# device per guest (tap1, tap2) on a bridge, in a network namespace made
# for this run alone.  It has no name, so runs side by side (other
# worktrees) cannot meet, and nothing of it outlives the run: a holder
# process (cat, reading a pipe that only this script and its subshells
# hold) keeps the namespace while the run lives, each QEMU is in it from
# its start (nsenter) to its end, and once the last of them is gone the
# kernel deletes the namespace with its bridge and taps, however the run
# ended (kill -9 included).  Nothing in it has an address or a route:
# the two guests reach each other and nothing else.  QEMU's socket
# backends were not good enough: the TCP one (the wire until 2026-11-28,
# still there as RDMA_WIRE=socket) holds a burst's second frame until the
# host's TCP acknowledges the first, which its delayed-ACK timer does
# after 40 ms (a 4 KiB RDMA READ took 44 ms on every stack); the UDP one
# drops a frame whenever the receiving QEMU's socket buffer is full
# (RcvbufErrors).  A tap queues the frames for its QEMU while the guest's
# NIC has no room, up to its txqueuelen (4096 frames, several MiB of
# burst) and counts what it drops (printed after the run).  vnet_hdr=off:
# no offloads cross the wire, the guests send 1500-byte frames as on the
# socket wire.
wire=${RDMA_WIRE:-tap}
case "$wire" in tap | socket) ;; *) die "RDMA_WIRE must be tap or socket, not '$wire'" ;; esac
[ "$guests" -ge 2 ] || wire=none
wire_port=$((20000 + RANDOM % 20000))
wire_ns=()
# wire_up: the namespace, its bridge and taps; 1 (and why on stderr) when
# they cannot be made.
wire_up() {
	local i out
	[ -c /dev/net/tun ] || { log "no /dev/net/tun"; return 1; }
	if ! command -v unshare >/dev/null || ! command -v nsenter >/dev/null; then
		log "unshare and nsenter (util-linux) are needed"
		return 1
	fi
	# unshare execs cat once it is in the new namespace
	exec {wire_hold}> >(exec unshare --net cat >/dev/null)
	wire_pid=$!
	for i in $(seq 100); do
		[ "$(cat "/proc/$wire_pid/comm" 2>/dev/null)" = cat ] && break
		kill -0 "$wire_pid" 2>/dev/null || break
		sleep 0.05
	done
	if [ "$(cat "/proc/$wire_pid/comm" 2>/dev/null)" != cat ] ||
	   [ "$(readlink "/proc/$wire_pid/ns/net")" = "$(readlink /proc/self/ns/net)" ]; then
		log "no network namespace of our own (unshare --net)"
		exec {wire_hold}>&-
		return 1
	fi
	wire_ns=(nsenter "--net=/proc/$wire_pid/ns/net" --)
	if ! out=$("${wire_ns[@]}" sh -c '
		set -e
		for f in default all; do
			echo 1 >/proc/sys/net/ipv6/conf/$f/disable_ipv6 2>/dev/null || :
		done
		ip link add wirebr type bridge
		for t in tap1 tap2; do
			ip tuntap add dev $t mode tap
			ip link set dev $t txqueuelen 4096 master wirebr up
		done
		ip link set dev wirebr up' 2>&1); then
		log "the wire's bridge and taps could not be made: $out"
		wire_ns=()
		exec {wire_hold}>&-
		return 1
	fi
}
# wire_down: what crossed each tap, and what it dropped (frames for a
# QEMU whose queue was full); then the holder lets the namespace go.
wire_down() {
	[ "$wire" = tap ] || return 0
	sed 's/:/ /' "/proc/$wire_pid/net/dev" 2>/dev/null |
		awk '$1 ~ /^tap[12]$/ {
			printf "vm-run: wire: guest %s sent %d frames, got %d, %d dropped on their way to it%s\n",
				substr($1, 4), $3, $11, $13, ($13 > 0 ? " (its queue was full)" : "")
		}' >&2
	exec {wire_hold}>&-
}
if [ "$wire" = tap ] && ! wire_up; then
	log "warning: falling back to QEMU's TCP socket backend, which stalls bursts (RDMA_WIRE=socket)"
	wire=socket
fi
nic_args() {
	local g=$1
	if [ "$wire" = tap ] && [ "$g" -le 2 ]; then
		echo "-netdev tap,id=wire,ifname=tap$g,script=no,downscript=no,vnet_hdr=off"
		echo "-device virtio-net-pci,netdev=wire,mac=52:54:00:99:00:0$g"
	elif [ "$wire" = socket ] && [ "$g" -le 2 ]; then
		# one TCP connection between the two QEMUs: guest 1 listens,
		# guest 2 connects once it does
		if [ "$g" = 1 ]; then
			echo "-netdev socket,id=wire,listen=127.0.0.1:$wire_port"
		else
			echo "-netdev socket,id=wire,connect=127.0.0.1:$wire_port"
		fi
		echo "-device virtio-net-pci,netdev=wire,mac=52:54:00:99:00:0$g"
	else
		echo "-nic none"
	fi
}
# wire_listening: guest 1's QEMU listens on the socket wire's port.
wire_listening() {
	local hex
	hex=$(printf '%04X' "$wire_port")
	awk -v p=":$hex" '$2 ~ p"$" && $4 == "0A" { f = 1 } END { exit !f }' \
		/proc/net/tcp
}

# vcpu_nice N: the vCPU threads ("CPU n/TCG") of this run's QEMUs at
# nice N once they exist, so that each QEMU's main loop (the wire, the
# serial ports, the timers) runs before them when both want a core.
vcpu_nice() {
	local i p t c n=0
	for i in $(seq 100); do
		n=0
		for p in $(pgrep -f "qemu-system-x86_64.*$work/initramfs" 2>/dev/null); do
			for t in /proc/"$p"/task/*; do
				read -r c <"$t/comm" 2>/dev/null || continue
				case "$c" in
				CPU*) renice -n "$1" -p "${t##*/}" >/dev/null 2>&1 && n=$((n + 1)) ;;
				esac
			done
		done
		[ "$n" -ge $((guests * smp)) ] && break
		sleep 0.2
	done
	log "vCPU threads at nice $1: $n"
}

log "booting $krel ($mode), $guests guest(s)$([ "$wire" = none ] || echo ", wire: $wire"), limit $limit"
start=$(date +%s)
rc=0
if [ "$mode" = demo ]; then
	# ttyS0 on the terminal and in console.log.
	: >"$work/console.log"
	timeout --foreground "$limit" "${qemu[@]}" -nic none -append "$append" \
		-chardev "stdio,id=con,logfile=$work/console.log,signal=on" \
		-serial chardev:con \
		-chardev "file,id=ktap,path=$work/ktap.log" -serial chardev:ktap ||
		rc=$?
	echo "$rc" >"$work/vm.rc"
else
	if [ "${RDMA_VM_VERBOSE:-0}" = 1 ]; then
		filter=(cat)
	else
		filter=(grep --line-buffered -E 'rdma-testbed: |Kernel panic|---\[ end')
	fi
	pids=()
	for g in $(seq 1 "$guests"); do
		if [ "$mode" = check ]; then
			gdir=$work/guest-$g
			ttys1_log=$gdir/ktap.log
		elif [ "$guests" -gt 1 ]; then
			gdir=$work/guest-$g
			ttys1_log=$gdir/bench.log
		else
			gdir=$work
			ttys1_log=$work/bench.log
		fi
		mkdir -p "$gdir"
		: >"$gdir/console.log"
		# ttyS2: the packet captures that scenarios send
		# (guest/capture.sh), checked by capture.py
		capture=()
		if [ "$mode" = check ]; then
			: >"$gdir/capture.log"
			capture=(-chardev "file,id=cap,path=$gdir/capture.log"
				-serial chardev:cap)
		fi
		(
			grc=0
			# shellcheck disable=SC2046
			timeout -k 30 "$limit" ${wire_ns[@]+"${wire_ns[@]}"} \
				"${qemu[@]}" $(nic_args "$g") \
				-append "$append testbed.guest=$g" \
				-chardev "file,id=con,path=$gdir/console.log" \
				-serial chardev:con \
				-chardev "file,id=ktap,path=$ttys1_log" \
				-serial chardev:ktap \
				${capture[@]+"${capture[@]}"} </dev/null || grc=$?
			echo "$grc" >"$gdir/vm.rc"
			echo $(($(date +%s) - start)) >"$gdir/wall"
			echo "vm-run: guest $g ended after $(($(date +%s) - start))s, status $grc$([ "$grc" = 124 ] && echo " (time limit $limit)")" >&2
		) &
		pids+=($!)
		# guest 2 connects to the wire guest 1 listens on
		if [ "$g" = 1 ] && [ "$wire" = socket ]; then
			i=0
			while ! wire_listening && [ $i -lt 300 ]; do
				sleep 0.1
				i=$((i + 1))
			done
			wire_listening || log "warning: guest 1 does not listen on the wire (port $wire_port)"
		fi
		# Progress while the guests run; each tail ends with its guest.
		prefix=""
		[ "$guests" -gt 1 ] && prefix="[guest $g] "
		tail -n +1 -F --pid="$!" "$gdir/console.log" 2>/dev/null |
			"${filter[@]}" | sed -u "s/^/$prefix/" &
	done
	[ "${RDMA_VM_VCPU_NICE:-0}" = 0 ] || vcpu_nice "${RDMA_VM_VCPU_NICE}" &
	for p in "${pids[@]}"; do
		wait "$p" || true
	done
	# (the holder of the wire's namespace is a child too: wait waits
	# for it)
	wire_down
	wait
	for g in $(seq 1 "$guests"); do
		gdir=$work
		[ "$mode" = check ] || [ "$guests" -gt 1 ] && gdir=$work/guest-$g
		grc=$(cat "$gdir/vm.rc" 2>/dev/null || echo 255)
		[ "$grc" = 0 ] || rc=$grc
	done
fi
[ "$mode" = check ] || echo "$rc" >"$work/vm.rc"
log "VM run ended after $(($(date +%s) - start))s, status $rc"

if [ "$mode" = bench ]; then
	for g in $(seq 1 "$guests"); do
		f=$work/bench.log
		if [ "$guests" -gt 1 ]; then
			f=$work/guest-$g/bench.log
			echo
			echo "--- guest $g"
		fi
		echo
		tr -d '\r' <"$f" 2>/dev/null || true
		echo
	done
fi
if [ "$mode" != check ]; then
	exec python3 "$here/results.py" --dir "$work" --kdir "$KDIR" --demo \
		--label "$mode"
fi
[ "$rc" = 0 ]
