# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# KTAP helpers for integration scenarios (busybox ash).  In the VM this file
# is /testbed/lib/ktap.sh:
#
#	. /testbed/lib/ktap.sh
#	ktap_plan 2
#	ktap_test "lo is up" ip link show lo
#	if something; then ktap_pass "name"; else ktap_fail "name" "why"; fi
#	ktap_finish
#
# The VM's init indents everything a scenario prints and adds the
# scenario's own result line from its exit status, which ktap_finish sets:
# 0 when every case passed or was skipped (4 when all were skipped), 1 when
# a case failed or the plan was not met.  Test names must not contain '#'.

# A process costs tens of milliseconds under TCG with the debug kernel
# (a fork of the shell alone), a dynamically linked tool far more: the
# helpers below use the shell's builtins where a pipeline of sed or grep
# would start processes, and scenarios can too (ktap_quote, ktap_nap,
# "read -r VAR <FILE" for a sysfs value, "case" for a fixed string).
KTAP_NL='
'

# tier_pick QUICK FULL: the value for this run's tier (RDMA_TIER, quick
# by default: make check; full: make check-full).  A scenario has one body
# and only picks its parameters by tier:  ROUNDS=$(tier_pick 2 50)
tier_pick() {
	if [ "${RDMA_TIER:-quick}" = full ]; then echo "$2"; else echo "$1"; fi
}

# ktap_quote TEXT [PREFIX]: each line of TEXT as a diagnostic line ("# "
# or "# PREFIX" before it), without a process (a here-document of up to
# a pipe's buffer is written by the shell itself).
ktap_quote() {
	local l
	while IFS= read -r l; do
		printf '# %s%s\n' "${2:-}" "$l"
	done <<KTAP_EOF
$1
KTAP_EOF
}

# ktap_has_line TEXT LINE: TEXT has LINE as a whole line (grep -qxF
# without the process).
ktap_has_line() {
	case "$KTAP_NL$1$KTAP_NL" in
	*"$KTAP_NL$2$KTAP_NL"*) return 0 ;;
	esac
	return 1
}

# ktap_line_ends TEXT END: a line of TEXT ends in END (grep -q 'END$'
# for a fixed END, without the process).
ktap_line_ends() {
	case "$1$KTAP_NL" in
	*"$2$KTAP_NL"*) return 0 ;;
	esac
	return 1
}

# ktap_status_value FILE KEY: KTAP_VALUE = the value of the first line
# "KEY: VALUE" of FILE (a status file), read by the shell; 1 (and
# KTAP_VALUE empty) when FILE has no such line.
ktap_status_value() {
	local l
	KTAP_VALUE=
	while IFS= read -r l; do
		case "$l" in
		"$2: "*)
			KTAP_VALUE=${l#"$2: "}
			return 0
			;;
		esac
	done <"$1"
	return 1
}

# ktap_nap SECONDS: sleep without a process of its own (the timeout of
# the shell's read on a FIFO nobody writes to); SECONDS may be
# fractional.  For polling loops, which then cost no launch a round.
KTAP_NAP_FIFO=/tmp/.ktap-nap
ktap_nap() {
	[ -p $KTAP_NAP_FIFO ] || mkfifo $KTAP_NAP_FIFO 2>/dev/null ||
		[ -p $KTAP_NAP_FIFO ] || { sleep "$1"; return 0; }
	read -r -t "$1" KTAP_NAP_X <>$KTAP_NAP_FIFO
	return 0
}

# ktap_wait SECONDS COMMAND...: run COMMAND every 0.1 s until it
# succeeds (status 0) or SECONDS pass (status 1): wait for an event
# with a deadline, never for a fixed time.
ktap_wait() {
	local t=$(($1 * 10))
	shift
	while ! "$@"; do
		[ $t -gt 0 ] || return 1
		ktap_nap 0.1
		t=$((t - 1))
	done
}

# tcp_listening PORT: a socket listens on TCP port PORT (/proc/net/tcp
# and tcp6), read by the shell itself: for ktap_wait before a client
# starts.
tcp_listening() {
	local f sl la ra st rest
	for f in /proc/net/tcp /proc/net/tcp6; do
		while read -r sl la ra st rest; do
			[ "$st" = 0A ] && [ $((0x${la##*:})) = "$1" ] && return 0
		done <$f
	done
	return 1
}

# cm_listening COMM [PORT]: a process named COMM has an rdma_cm id that
# listens (on PORT if given): a line of "rdma resource show cm_id" with
# "state LISTEN" and "comm COMM", in whatever order the tool prints them.
# For ktap_wait before an RDMA client starts: a client that comes early
# is refused, and one that retries may meet the server half-way (one of
# its connections accepted while it already gives up on another).
cm_listening() {
	local l
	while IFS= read -r l; do
		case "$l" in *"state LISTEN"*) ;; *) continue ;; esac
		case "$l" in *"comm $1 "* | *"comm $1") ;; *) continue ;; esac
		[ -z "$2" ] && return 0
		case "$l" in *":$2 "* | *":$2") return 0 ;; esac
	done <<CM_EOF
$(rdma resource show cm_id 2>&1)
CM_EOF
	return 1
}

KTAP_NUM=0
KTAP_PLANNED=0
KTAP_FAILED=0
KTAP_SKIPPED=0

# ktap_mark [NAME]: a line in the kernel's log where a case ends, or with
# no NAME where the plan starts ("ktap-mark SCENARIO N NAME"), whose
# timestamp tells case-times.py what each case took.  A write of the
# shell's own, no process.
ktap_mark() {
	echo "ktap-mark ${TESTBED_SCENARIO:-scenario} $KTAP_NUM ${1:-}" \
		>/dev/kmsg 2>/dev/null
}

ktap_plan() {
	KTAP_PLANNED=$1
	ktap_mark
	echo "KTAP version 1"
	echo "# Subtest: ${TESTBED_SCENARIO:-scenario}"
	echo "1..$1"
}

ktap_diag() {
	echo "# $*"
}

ktap_pass() {
	KTAP_NUM=$((KTAP_NUM + 1))
	ktap_mark "$1"
	echo "ok $KTAP_NUM $1"
}

ktap_fail() {
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_FAILED=$((KTAP_FAILED + 1))
	ktap_mark "$1"
	[ -n "$2" ] && ktap_diag "$1: $2"
	echo "not ok $KTAP_NUM $1"
}

ktap_skip() {
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_SKIPPED=$((KTAP_SKIPPED + 1))
	ktap_mark "$1"
	echo "ok $KTAP_NUM $1 # SKIP ${2:-}"
}

# ktap_test NAME COMMAND [ARG...]: one case, passed when COMMAND succeeds.
# The command's output becomes diagnostic lines.
ktap_test() {
	local name=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ -n "$out" ] && ktap_quote "$out"
	if [ $rc -eq 0 ]; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "'$*' exited with $rc"
	fi
}

# ktap_tool NAME TOOL [ARG...]: one case for a test tool of ours
# (/testbed/bin/TOOL, which prints KTAP of its own): its lines become
# diagnostic lines, and the case passes when it exits 0; a failure names
# the tool's failed cases.
ktap_tool() {
	local name=$1 tool=/testbed/bin/$2 out rc
	shift 2
	if [ ! -x "$tool" ]; then
		ktap_fail "$name" "no $tool: did vm-run.sh build it?"
		return
	fi
	out=$("$tool" "$@" 2>&1)
	rc=$?
	ktap_quote "$out"
	if [ $rc -eq 0 ]; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "exit $rc: $(echo "$out" | grep '^not ok' | tr '\n' ';')"
	fi
}

# ktap_has NAME PATTERN COMMAND [ARG...]: one case, passed when a line of
# COMMAND's output (stdout and stderr) matches the extended regular
# expression PATTERN.  The output becomes diagnostic lines.
ktap_has() {
	local name=$1 pat=$2 out
	shift 2
	out=$("$@" 2>&1)
	ktap_quote "$out"
	if grep -Eq -- "$pat" <<KTAP_EOF
$out
KTAP_EOF
	then
		ktap_pass "$name"
	else
		ktap_fail "$name" "no line matches '$pat'"
	fi
}

# ktap_refused NAME EXTACK ERRNO COMMAND [ARG...]: one case, passed when
# the kernel refuses what Debian's rdma tool asks: the tool exits non-zero
# and prints the kernel's extack message as "Error: EXTACK." and its errno
# as "error: ERRNO" (strerror's text).  Any other failure fails the case.
ktap_refused() {
	local name=$1 extack=$2 errno=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	ktap_quote "$out"
	if [ $rc -eq 0 ]; then
		ktap_fail "$name" "'$*' succeeded"
	elif ! ktap_has_line "$out" "Error: $extack."; then
		ktap_fail "$name" "no extack 'Error: $extack.'"
	elif ! ktap_has_line "$out" "error: $errno"; then
		ktap_fail "$name" "no 'error: $errno'"
	else
		ktap_pass "$name"
	fi
}

# ktap_errno NAME ERRNO COMMAND [ARG...]: one case, passed when COMMAND
# fails with the errno ERRNO (strerror's text, e.g. "No such device"):
# it exits non-zero and a line of its output ends in ": ERRNO", as
# busybox and coreutils report an errno (busybox sh: "sh: write error:
# Invalid argument").  Success or any other error fails the case.
ktap_errno() {
	local name=$1 errno=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	[ -n "$out" ] && ktap_quote "$out"
	if [ $rc -eq 0 ]; then
		ktap_fail "$name" "'$*' succeeded"
	elif ! ktap_line_ends "$out" ": $errno"; then
		ktap_fail "$name" "'$*' exited with $rc, not with '$errno'"
	else
		ktap_pass "$name"
	fi
}

# ktap_skip_all REASON: the whole scenario does not apply here.
ktap_skip_all() {
	echo "KTAP version 1"
	echo "# Subtest: ${TESTBED_SCENARIO:-scenario}"
	echo "1..0 # SKIP $1"
	exit 4
}

ktap_finish() {
	if [ "$KTAP_NUM" -ne "$KTAP_PLANNED" ]; then
		ktap_diag "planned $KTAP_PLANNED cases, ran $KTAP_NUM"
		exit 1
	fi
	[ "$KTAP_FAILED" -eq 0 ] || exit 1
	[ "$KTAP_NUM" -gt 0 ] && [ "$KTAP_SKIPPED" -eq "$KTAP_NUM" ] && exit 4
	exit 0
}
