#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# First-run check: runs the Makefile's kernel logic as a fresh machine
# sees it and fails when the module build uses another folder than the
# one the test kernel is built in.
#
#   firstrun-check.sh [REPO]      (default: this repository)
#
# A fresh machine has no linux-source-6.12 package and an empty cache.
# Here dpkg-query and apt-get are stand-ins in PATH: the source package is
# reported missing until "apt-get install" has run, then installed with
# a version of its own.  RDMA_TESTBED_CACHE points at a scratch folder and
# RDMA_TESTBED_DRY_BUILD=1 makes prepare-kernel.sh create the kernel
# folder with a stand-in Makefile instead of building a kernel: that
# Makefile records the folder "make modules" was run in.  Then
# "make modules" runs twice, as on a first and on a second run, with no
# KDIR in the environment.  Both must build in the folder prepare-kernel.sh
# made, and only one kernel may be made.
#
# REPO's Makefile is the one tested; prepare-kernel.sh always comes from
# this repository (the one that knows RDMA_TESTBED_DRY_BUILD), so an older
# Makefile can be tried: "firstrun-check.sh /path/to/old/checkout".
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "${1:-$here/../../..}" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

say() { echo "firstrun-check: $*"; }

# The repository under test, with this prepare-kernel.sh.
mkdir -p "$scratch/repo"
cp "$repo/Makefile" "$scratch/repo/"
mkdir -p "$scratch/repo/tools/testing/rdma"
cp "$here/prepare-kernel.sh" "$here"/kernel*.config \
	"$scratch/repo/tools/testing/rdma/"

shims=$scratch/bin
state=$scratch/state
mkdir -p "$shims" "$state"
cat >"$shims/dpkg-query" <<EOF
#!/bin/bash
# dpkg-query -W -f=FORMAT PACKAGE, as dpkg-query answers it
fmt= pkg=
for a in "\$@"; do
	case "\$a" in
	-f=*) fmt=\${a#-f=} ;;
	-*) ;;
	*) pkg=\$a ;;
	esac
done
if [ "\$pkg" = linux-source-6.12 ] && [ ! -f "$state/linux-source" ]; then
	echo "dpkg-query: no packages found matching \$pkg" >&2
	exit 1
fi
case "\$fmt" in
*Status*) printf 'install ok installed' ;;
*Version*) printf '6.12.999-firstrun' ;;
esac
EOF
cat >"$shims/apt-get" <<EOF
#!/bin/bash
echo "apt-get \$*" >>"$state/apt.log"
for a in "\$@"; do
	[ "\$a" = linux-source-6.12 ] && touch "$state/linux-source"
done
exit 0
EOF
chmod +x "$shims/dpkg-query" "$shims/apt-get"

cache=$scratch/cache
fail=0
for round in first second; do
	out=$(cd "$scratch/repo" && env -u KDIR -u MAKEFLAGS -u MAKELEVEL \
		PATH="$shims:$PATH" RDMA_TESTBED_CACHE="$cache" \
		RDMA_TESTBED_DRY_BUILD=1 make --no-print-directory modules 2>&1)
	rc=$?
	built=$(sed -n '$p' "$cache/dry-builds" 2>/dev/null)
	used=$(sed -n '$s/ modules$//p' "$cache/dry-module-builds" 2>/dev/null)
	: >"$cache/dry-module-builds" 2>/dev/null
	if [ $rc -ne 0 ]; then
		say "$round run: make modules failed (exit status $rc):"
		echo "$out" | tail -n 5 | sed 's/^/  | /'
		fail=1
	fi
	if [ -z "$built" ]; then
		say "$round run: prepare-kernel.sh made no kernel folder"
		fail=1
	elif [ "$used" != "$built" ]; then
		say "$round run: modules built in '${used:-nowhere}', kernel in '$built'"
		fail=1
	else
		say "$round run: modules built in the kernel's folder $built"
	fi
done
n=$(wc -l <"$cache/dry-builds" 2>/dev/null || echo 0)
if [ "$n" -ne 1 ]; then
	say "$n kernel builds for two runs (expected 1)"
	fail=1
fi
[ -f "$state/linux-source" ] || { say "linux-source-6.12 was never installed"; fail=1; }
[ $fail -eq 0 ] && say "ok"
exit $fail
