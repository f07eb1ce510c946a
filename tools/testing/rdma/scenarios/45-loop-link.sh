#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Loop devices made with "rdma link add NAME type loop netdev lo", the
# test ULP (rdma_test_ulp) running traffic on them, the resource dumps
# while it runs ("rdma res show": needs the nldev resource commands), and
# "rdma link delete" of a device the ULP is using, unloading rdma_loop
# under the ULP, and the ULP's devices= parameter.  Output formats are
# those of iproute2 6.1.
# needs: /usr/bin/rdma
# timeout: 600

. /testbed/lib/ktap.sh

CLASS=/sys/class/infiniband
ULPDIR=/sys/kernel/debug/rdma_test_ulp

# A launch costs tens of milliseconds under TCG, Debian's rdma far more:
# the ULP's counters are read by the shell, the resource dumps come from
# one "rdma -batch" and the waits poll with ktap_nap.

# stats DEV: ST_TEXT = the ULP's stats file on DEV, ST_ROUNDS, ST_ERRORS
# and ST_MISMATCHES its counters (empty when absent)
stats() {
	local k v
	ST_TEXT= ST_ROUNDS= ST_ERRORS= ST_MISMATCHES=
	[ -r "$ULPDIR/$1/stats" ] || return 0
	while read -r k v; do
		ST_TEXT="$ST_TEXT$k $v$KTAP_NL"
		case "$k" in
		rounds) ST_ROUNDS=$v ;;
		errors) ST_ERRORS=$v ;;
		mismatches) ST_MISMATCHES=$v ;;
		esac
	done <"$ULPDIR/$1/stats"
}

# lines NAME N PATTERN OUTPUT: OUTPUT has exactly N lines matching PATTERN
lines() {
	local name=$1 want=$2 pat=$3 out=$4 n
	ktap_quote "$out"
	n=$(grep -Ec -- "$pat" <<EOF
$out
EOF
)
	if [ "$n" = "$want" ]; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "$n lines match '$pat', want $want"
	fi
}

# running NAME DEV: the ULP's rounds grow on DEV (within 10 s) without
# errors
running() {
	local name=$1 dev=$2 a b i=0
	stats "$dev"
	a=$ST_ROUNDS
	while [ $i -lt 100 ]; do
		ktap_nap 0.1
		stats "$dev"
		b=$ST_ROUNDS
		[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ] && break
		[ -z "$a" ] && a=$b
		i=$((i + 1))
	done
	ktap_quote "$ST_TEXT"
	if [ -n "$b" ] && [ -n "$a" ] && [ "$b" -gt "$a" ] &&
	   [ "$ST_ERRORS" = 0 ] && [ "$ST_MISMATCHES" = 0 ]; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "rounds '$a' -> '$b', errors '$ST_ERRORS', mismatches '$ST_MISMATCHES'"
	fi
}

# gone NAME PATH...: every PATH existed before (checked by the caller
# with "there") and is gone now.
there() { for p in "$@"; do [ -e "$p" ] || return 1; done; }
gone() {
	local name=$1 p left=""
	shift
	for p in "$@"; do [ -e "$p" ] && left="$left $p"; done
	if [ -z "$left" ]; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "still there:$left"
	fi
}

ktap_plan 34

ktap_test "rdma_loop loads without devices" modprobe rdma_loop
set -- "$CLASS"/*
if [ -e "$1" ]; then
	ktap_fail "no device before rdma link add" "$*"
else
	ktap_pass "no device before rdma link add"
fi

ktap_test "rdma link add loop9 type loop netdev lo" \
	rdma link add loop9 type loop netdev lo
ktap_has "rdma link show lists loop9/1 active" "loop9/1 .*state ACTIVE" \
	rdma link show
ktap_has "rdma dev show loop9" "^[0-9]+: loop9: node_type ca" rdma dev show loop9
state=$(cat "$CLASS/loop9/ports/1/state" 2>/dev/null)
if [ "$state" = "4: ACTIVE" ]; then
	ktap_pass "sysfs: loop9 port 1 is active"
else
	ktap_fail "sysfs: loop9 port 1 is active" "state '$state'"
fi

ktap_refused "duplicate name is refused" \
	"Device exists already (name taken or net device in use)" \
	"File exists" rdma link add loop9 type loop netdev lo
ktap_refused "unknown link type is refused" "Unknown link type" \
	"Invalid argument" rdma link add xy0 type nosuch netdev lo
ktap_refused "unknown net device is refused" "No such net device" \
	"No such device" rdma link add loop8 type loop netdev nosuchnetdev
# the tool looks the name up in its device dump and refuses by itself
out=$(rdma link delete nosuch0 2>&1)
rc=$?
ktap_quote "$out"
if [ $rc -ne 0 ] && ktap_has_line "$out" "Wrong device name - nosuch0"; then
	ktap_pass "delete of an unknown device is refused"
else
	ktap_fail "delete of an unknown device is refused" "exit $rc: $out"
fi
# only loop9, the one accepted, is registered
left=$(cd "$CLASS" && echo *)
if [ "$left" = "loop9" ]; then
	ktap_pass "refused links left nothing behind"
else
	ktap_fail "refused links left nothing behind" "registered: $left"
fi

ktap_test "rdma_test_ulp loads" modprobe rdma_test_ulp
running "ULP traffic on loop9 without errors" loop9

# The ULP's objects: 1 PD, 2 CQs, 4 QPs (2 RC, 2 UD), 1 MR, 1 SRQ.
# the ULP's objects and the MAD layer's (a PD, a CQ, QP0 and QP1)
# One "rdma -batch" for the five dumps: it stops at the first command
# that fails (then later parts are missing and their cases fail), and a
# "sys show" ("netns ..."), which no dump prints, ends each part.
res=$(rdma -b - 2>&1 <<EOF
res show
sys show
res show qp
sys show
res show cq
sys show
res show mr
sys show
res show pd
sys show
EOF
)
rc=$?
[ $rc = 0 ] || ktap_diag "rdma -batch exited with $rc"
part=0 res0= res1= res2= res3= res4=
while IFS= read -r l; do
	case "$l" in
	"netns "*) part=$((part + 1)) ;;
	*) eval "res$part=\"\${res$part}\$l\$KTAP_NL\"" ;;
	esac
done <<EOF
$res
EOF
ktap_quote "$res0"
if grep -Eq "^[0-9]+: loop9: pd 2 cq 3 qp 6 cm_id 0 mr 1 ctx 0 srq 1" <<EOF
$res0
EOF
then
	ktap_pass "rdma res show: the ULP's counts and the MAD layer's"
else
	ktap_fail "rdma res show: the ULP's counts and the MAD layer's" \
		"no line matches the counts"
fi
lines "rdma res show qp: 4 QPs of rdma_test_ulp" 4 \
	"^link loop9/.*comm \[rdma_test_ulp\]" "$res1"
lines "rdma res show cq: 2 CQs of rdma_test_ulp" 2 \
	"^dev loop9 .*comm \[rdma_test_ulp\]" "$res2"
lines "rdma res show mr: 1 MR of rdma_test_ulp" 1 \
	"^dev loop9 .*comm \[rdma_test_ulp\]" "$res3"
lines "rdma res show pd: 1 PD of rdma_test_ulp" 1 \
	"^dev loop9 .*comm \[rdma_test_ulp\]" "$res4"

ktap_test "rdma link add loop10 while the ULP is loaded" \
	rdma link add loop10 type loop netdev lo
running "the ULP picked up loop10" loop10

before=$(there "$CLASS/loop9" "$ULPDIR/loop9" && echo yes)
ktap_test "rdma link delete loop9 while the ULP runs on it" \
	rdma link delete loop9
if [ "$before" = yes ]; then
	gone "loop9 and the ULP's state on it are gone" "$CLASS/loop9" "$ULPDIR/loop9"
else
	ktap_fail "loop9 and the ULP's state on it are gone" \
		"they were not there before the delete"
fi
running "loop10 traffic goes on" loop10

# rdma_loop goes while the ULP still runs on loop10: its remove() runs
before=$(there "$CLASS/loop10" "$ULPDIR/loop10" && echo yes)
ktap_test "rdma_loop unloads under the ULP" rmmod rdma_loop
if [ "$before" = yes ] && [ -d "$CLASS" ] && [ -d "$ULPDIR" ]; then
	gone "no device and no ULP state left" "$CLASS"/* "$ULPDIR/loop10"
else
	ktap_fail "no device and no ULP state left" \
		"loop10, its ULP state or the folders were not there before"
fi
ktap_test "rdma_test_ulp unloads" rmmod rdma_test_ulp

# devices=: the ULP takes only the devices it is given
ktap_test "rdma_loop devices=2 loads" modprobe rdma_loop devices=2
ktap_test "rdma_test_ulp devices=loop1 loads" \
	modprobe rdma_test_ulp devices=loop1
running "the ULP runs on loop1" loop1
if [ -d "$CLASS/loop0" ] && [ -d "$ULPDIR/loop1" ]; then
	gone "the ULP leaves loop0 alone" "$ULPDIR/loop0"
else
	ktap_fail "the ULP leaves loop0 alone" "loop0 or the ULP's loop1 state is missing"
fi
ktap_test "rdma_test_ulp unloads from loop1" rmmod rdma_test_ulp
before=$(there "$CLASS/loop0" "$CLASS/loop1" && echo yes)
ktap_test "rdma_loop unloads with loop0 and loop1" rmmod rdma_loop
if [ "$before" = yes ] && [ -d "$CLASS" ]; then
	gone "no device left" "$CLASS"/*
else
	ktap_fail "no device left" "loop0 and loop1 were not there before"
fi
ktap_test "rdmavt and ib_core unload" sh -c 'rmmod rdmavt && rmmod ib_uverbs && rmmod ib_core'
ktap_finish
