# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Which RDMA stack runs in the guest (busybox ash).  In the VM this file is
# /testbed/lib/stack.sh.  Two stacks can be in the VM: ours (the modules
# built from the repository, depmod'ed under /lib/modules/<release>/extra,
# loaded with modprobe) and upstream's (drivers/infiniband of the same
# linux-source-6.12, built at test time by prepare-kernel.sh --upstream,
# in /testbed/upstream with the modules built against it, loaded with
# insmod: both stacks have an ib_core, so upstream's stays out of depmod's
# reach).  One runs at a time; a scenario or benchmark can unload one
# completely and load the other in the same boot:
#
#	. /testbed/lib/stack.sh
#	stack_load upstream || exit 1       # ib_core ... rdma_rxe siw
#	stack_insmod rdma_verbs_bench       # a module built against it
#	...
#	stack_unload || exit 1              # nothing of either stack is left
#	stack_load ours ib_core rdma_loop   # modprobe each name given
#
# Each function prints what went wrong on stderr and returns non-zero.

# TESTBED_OURS (the names of our modules) comes from the run's config.
[ -n "${TESTBED_OURS+set}" ] || . /testbed/config

STACK_UPSTREAM_DIR=/testbed/upstream
# Load order of upstream's stack (each after the modules it needs).
STACK_UPSTREAM_MODULES="ib_core ib_cm iw_cm rdma_cm ib_uverbs ib_umad rdma_ucm rdma_rxe siw"

# (a loaded module has an initstate in sysfs, a built-in one none; no
# process: forks are slow under TCG)
stack_is_loaded() {
	[ -e "/sys/module/$1/initstate" ]
}

# stack_current: ours, upstream or none (what /run/stack says was loaded
# and ib_core's presence confirms).
stack_current() {
	if stack_is_loaded ib_core; then
		cat /run/stack 2>/dev/null || echo unknown
	else
		echo none
	fi
}

# stack_insmod NAME [PARAM...]: a module of /testbed/upstream (upstream's
# stack or a module built against it).
stack_insmod() {
	local name=$1 ko
	shift
	ko=$STACK_UPSTREAM_DIR/$name.ko
	if [ ! -f "$ko" ]; then
		echo "stack: no $ko in the VM (vm-run.sh: RDMA_UPSTREAM)" >&2
		return 1
	fi
	stack_is_loaded "$name" && return 0
	insmod "$ko" "$@"
}

# stack_load ours|upstream [MODULE...]: ours loads each MODULE with
# modprobe; upstream loads its whole stack, or with MODULE... only those
# of its modules (in its load order, so the list names each dependency):
# a scenario that needs no rxe or no user verbs saves their insmod and
# rmmod, which cost seconds under TCG with the debug kernel.
stack_load() {
	local which=$1 cur m want
	shift
	cur=$(stack_current)
	if [ "$cur" != none ] && [ "$cur" != "$which" ]; then
		echo "stack: $cur is loaded, unload it before loading $which" >&2
		return 1
	fi
	case "$which" in
	upstream)
		want=" ${*:-$STACK_UPSTREAM_MODULES} "
		for m in "$@"; do
			case " $STACK_UPSTREAM_MODULES " in
			*" $m "*) ;;
			*) echo "stack: $m is no module of upstream's stack" >&2; return 1 ;;
			esac
		done
		echo upstream >/run/stack
		for m in $STACK_UPSTREAM_MODULES; do
			case "$want" in *" $m "*) ;; *) continue ;; esac
			stack_insmod "$m" || {
				echo "stack: loading upstream's $m failed" >&2
				return 1
			}
		done
		;;
	ours)
		echo ours >/run/stack
		for m in "$@"; do
			modprobe "$m" || {
				echo "stack: modprobe $m failed" >&2
				return 1
			}
		done
		;;
	*)
		echo "stack: unknown stack '$which'" >&2
		return 1
		;;
	esac
}

# The loaded modules that use ib_core, directly or not, then ib_core:
# removal goes from the users down.  Names from /proc/modules' "used by".
stack_modules_loaded() {
	awk '{ print $1, $4 }' /proc/modules
}

# rmmod_settle MODULE [SECONDS]: remove MODULE, retrying for up to
# SECONDS (30) while it is still busy: ib_core stays referenced a moment
# after the rdma tool's last netlink dump (the netlink core drops the
# dump's module reference when the socket goes).  Says who holds it when
# it never lets go.  Tries again as soon as the module's reference count
# reads 0 (polled every 0.1 s).
rmmod_settle() {
	local i=0 n=$((${2:-30} * 10)) r
	while [ $i -lt "$n" ]; do
		r=
		read -r r 2>/dev/null </sys/module/"$1"/refcnt
		case "$r" in
		0 | "") rmmod "$1" 2>/dev/null && return 0 ;;
		esac
		if command -v ktap_nap >/dev/null 2>&1; then
			ktap_nap 0.1
		else
			sleep 0.1
		fi
		i=$((i + 1))
	done
	echo "rmmod_settle: $1 refcnt $(cat /sys/module/"$1"/refcnt 2>/dev/null), holders: $(ls /sys/module/"$1"/holders 2>/dev/null | tr '\n' ' ')" >&2
	rmmod "$1"
}

# stack_unload: remove every module of either stack and every module
# that uses them, until ib_core is gone.  Fails when something stays.
stack_unload() {
	local progress=1 m left loaded
	# Links first: "rdma link delete" is what a user does, and rxe/siw
	# devices hold their netdev.
	if command -v rdma >/dev/null 2>&1; then
		for m in $(rdma link show 2>/dev/null | sed -n 's|^link \([^/]*\)/.*|\1|p' | sort -u); do
			rdma link delete "$m" 2>/dev/null
		done
	fi
	while [ $progress = 1 ]; do
		progress=0
		for m in $(stack_modules_loaded | awk '$2 == "-" { print $1 }'); do
			case " $STACK_UPSTREAM_MODULES $TESTBED_OURS rdma_verbs_bench " in
			*" $m "*) rmmod "$m" 2>/dev/null && progress=1 ;;
			esac
		done
	done
	# one read of the module list for all names (a process each cost
	# about 8 s per unload under TCG)
	loaded=" $(awk '{ printf "%s ", $1 }' /proc/modules)"
	left=""
	for m in $STACK_UPSTREAM_MODULES $TESTBED_OURS; do
		case "$loaded" in *" $m "*) left="$left $m" ;; esac
	done
	if [ -n "$left" ]; then
		echo "stack: still loaded:$left" >&2
		return 1
	fi
	rm -f /run/stack
	return 0
}

# Kernel health around a scenario.  splats: the kernel log's lines that
# fail a run (WARN, BUG, KASAN, lockdep, refcount, ...).  health_mark
# remembers how many there are; health_check then gives a KTAP result
# for what came since the mark: "no kernel splat".  Leaks are the
# guest's final check (guest/init, check_leaks): kmemleak reports an
# object only at the second scan that finds it unreferenced with the
# same contents (the first takes its checksum), and only once it is 5 s
# old, so a scan here could not see this scenario's own leaks (it would
# report an earlier item's instead); the final two scans see every leak
# of the run, and results.py names the item during which each leaked
# object was allocated (from the jiffies in kmemleak's report).
splats() {
	dmesg | grep -E 'WARNING:|BUG:|KASAN:|UBSAN:|Oops|general protection|refcount_t:|ODEBUG:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|Call Trace:'
}

health_mark() {
	health_splats=$(splats | wc -l)
}

health_check() {
	local new

	new=$(splats | tail -n +$((health_splats + 1)))
	if [ -z "$new" ]; then
		ktap_pass "no kernel splat"
	else
		ktap_fail "no kernel splat" "$(echo "$new" | head -n 3)"
	fi
}
