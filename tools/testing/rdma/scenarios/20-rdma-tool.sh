#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# nldev against Debian's real "rdma" tool (iproute2 6.1): the fake HCA
# driver registers its two demo devices (see "Demo devices" in
# tools/testing/rdma/fake_hca/fake_hca_main.c; 10-sysfs.sh checks the same values through
# sysfs), then the tool lists them (text and JSON), renames one, creates
# and deletes devices of the fake link type, shows and switches the netns
# mode and moves a device into another network namespace and back, and
# gets the errors it should for bad requests.
# needs: /usr/bin/rdma /usr/bin/ip
# timeout: 300

. /testbed/lib/ktap.sh

NS=rdmatest
DUMMY=rdmadum0
# busybox sh prefers its own applet to a binary in PATH
IP=/usr/bin/ip

# A launch costs tens of milliseconds under TCG, Debian's rdma far more:
# the outputs are matched by one grep each (a here-document, no echo),
# by the shell where a fixed string will do, and "rdma dev show" is asked
# only once sysfs says a device came or went.

# matches TEXT ERE: a line of TEXT matches the extended regular expression
matches() {
	grep -qE -- "$2" <<EOF
$1
EOF
}

# name | output | extended regular expression the output must match
expect() {
	if matches "$2" "$3"; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "no match for '$3' in: $(echo "$2" | tr '\n' '|')"
	fi
}

# name | output | regular expression the output must not match
expect_not() {
	if matches "$2" "$3"; then
		ktap_fail "$1" "'$3' found in: $(echo "$2" | tr '\n' '|')"
	else
		ktap_pass "$1"
	fi
}

# tool_refuses NAME MESSAGE COMMAND...: the tool refuses by itself,
# from what the kernel's dumps list (no request for the object is sent):
# non-zero exit and MESSAGE as a line of its own.
tool_refuses() {
	local name=$1 msg=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	ktap_quote "$out"
	if [ $rc -ne 0 ] && ktap_has_line "$out" "$msg"; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "'$*' exited with $rc, no line '$msg'"
	fi
}

# batch [OPTION...] -- COMMAND...: the rdma COMMANDs (each one argument,
# "dev show fake1") through one "rdma -batch", each followed by "sys
# show", whose "netns ..." line no other command here prints: PART0,
# PART1, ... are the outputs of the COMMANDs, SYS the first "sys show"
# line, BATCH_RC the tool's exit status.  The batch stops at the first
# command that fails: BATCH_RC is not 0 and the later PARTs are empty
# (so their cases fail too).
batch() {
	local opts="" cmds="" c l n=0
	while [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	shift
	for c in "$@"; do
		cmds="${cmds:+$cmds$KTAP_NL}$c${KTAP_NL}sys show"
		eval "PART$n="
		n=$((n + 1))
	done
	BATCH_OUT=$(rdma $opts -b - 2>&1 <<EOF
$cmds
EOF
)
	BATCH_RC=$?
	[ $BATCH_RC = 0 ] || ktap_quote "$BATCH_OUT" "batch: "
	n=0
	SYS=
	while IFS= read -r l; do
		case "$l" in
		"netns "*)
			[ -n "$SYS" ] || SYS=$l
			n=$((n + 1))
			;;
		*) eval "PART$n=\"\${PART$n}\$l\$KTAP_NL\"" ;;
		esac
	done <<EOF
$BATCH_OUT
EOF
}

# Wait up to 10 s for "rdma dev show" to list (or, with "!", not list)
# a device; the tool is asked once sysfs (of this namespace) agrees.
wait_dev() {
	local i=0 want=1 name=$1 out
	if [ "$1" = "!" ]; then
		want=0
		name=$2
	fi
	while [ $i -lt 50 ]; do
		if [ -e /sys/class/infiniband/$name ]; then
			[ $want = 1 ]
		else
			[ $want = 0 ]
		fi && {
			out=$(rdma dev show)
			case "$out" in
			*" $name: "*) [ $want = 1 ] && return 0 ;;
			*) [ $want = 0 ] && return 0 ;;
			esac
		}
		ktap_nap 0.2
		i=$((i + 1))
	done
	return 1
}

# Flat JSON objects in an array: every object is a list of "key":value
# pairs, values strings, numbers or booleans.  Prints one object a line.
# One sed splits the objects, one more checks them all: what is left of
# an object once its pairs are taken away must be nothing.
json_objects() {
	local objs rest obj r
	matches "$1" '^\[\{.*\}\]$' || return 1
	objs=$(sed -e 's/^\[{//' -e 's/}\]$//' -e 's/},{/\n/g' <<EOF
$1
EOF
)
	rest=$(sed -E 's/"[a-z_]+":("[^"\\]*"|-?[0-9]+|true|false)(,|$)//g' <<EOF
$objs
EOF
)
	# rest: a line an object, empty ones at its end dropped by $()
	while IFS= read -r obj <&3; do
		IFS= read -r r <&4 || r=
		[ -z "$r" ] || { echo "BAD: $obj"; return 1; }
		echo "$obj"
	done 3<<EOF3 4<<EOF4
$objs
EOF3
$rest
EOF4
}

# node GUID of the fake link type: EUI-64 of the MAC, as xxxx:xxxx:...
eui64() {
	local IFS=:
	set -- $1
	printf '%02x%s:%sff:fe%s:%s%s\n' $((0x$1 ^ 2)) "$2" "$3" "$4" "$5" "$6"
}

ktap_plan 55

for m in rdma_fake_hca ib_core; do
	grep -q "^$m " /proc/modules && rmmod $m
done
ktap_test "modprobe rdma_fake_hca devices=2" modprobe rdma_fake_hca devices=2

# --- devices --------------------------------------------------------
# the read-only commands up to the resources in one batch
batch -- "dev show" "dev show fake1" "link show" "res show" \
	"res show qp" "res show cq" "res show mr" "res show pd" \
	"res show qp link fake0/1"
out=$PART0
ktap_quote "$out"
expect "dev show: fake0" "$out" \
	'^[0-9]+: fake0: node_type ca fw 1\.2\.0 node_guid 0002:fa4e:0000:0000 sys_image_guid 0002:fa4e:0000:ff00 $'
expect "dev show: fake1" "$out" \
	'^[0-9]+: fake1: node_type ca fw 1\.2\.1 node_guid 0002:fa4e:0000:1000 sys_image_guid 0002:fa4e:0000:ff01 $'
# the index before ": fake0: " on its line
dev_index() {
	local l
	idx=
	while IFS= read -r l; do
		case "$l" in
		*": $2: "*)
			idx=${l%%": $2: "*}
			case "$idx" in
			"" | *[!0-9]*) idx= ;;
			*) return 0 ;;
			esac
			;;
		esac
	done <<EOF
$1
EOF
}
dev_index "$out" fake0
idx0=$idx
dev_index "$out" fake1
idx1=$idx

out=$PART1
expect "dev show fake1 (one device)" "$out" '^[0-9]+: fake1: node_type ca fw 1\.2\.1 '
expect_not "dev show fake1 shows only fake1" "$out" 'fake0'

json=$(rdma -j dev show 2>&1)
echo "# $json"
objs=$(json_objects "$json")
rc=$?
n=0
while IFS= read -r o; do
	n=$((n + 1))
done <<EOF
$objs
EOF
if [ $rc -eq 0 ] && [ $n -eq 2 ]; then
	ktap_pass "dev show -j: an array of two flat JSON objects"
else
	ktap_fail "dev show -j: an array of two flat JSON objects" "$objs"
fi
o0=
o1=
while IFS= read -r o; do
	case "$o" in
	*'"ifname":"fake0"'*) o0=${o0:+$o0$KTAP_NL}$o ;;
	*'"ifname":"fake1"'*) o1=${o1:+$o1$KTAP_NL}$o ;;
	esac
done <<EOF
$objs
EOF
want0="\"ifindex\":$idx0,\"ifname\":\"fake0\",\"node_type\":\"ca\",\"fw\":\"1.2.0\",\"node_guid\":\"0002:fa4e:0000:0000\",\"sys_image_guid\":\"0002:fa4e:0000:ff00\""
want1="\"ifindex\":$idx1,\"ifname\":\"fake1\",\"node_type\":\"ca\",\"fw\":\"1.2.1\",\"node_guid\":\"0002:fa4e:0000:1000\",\"sys_image_guid\":\"0002:fa4e:0000:ff01\""
# field by field, so that a failure says which one
ok=1
for pair in "0:$want0" "1:$want1"; do
	o=$o0
	[ "${pair%%:*}" = 1 ] && o=$o1
	rest=${pair#?:},
	while [ -n "$rest" ]; do
		f=${rest%%,*}
		rest=${rest#*,}
		case "$o" in
		*"$f"*) ;;
		*) ok=0; ktap_diag "fake${pair%%:*}: missing $f" ;;
		esac
	done
done
if [ $ok = 1 ]; then
	ktap_pass "dev show -j: every field of fake0 and fake1"
else
	ktap_fail "dev show -j: every field of fake0 and fake1"
fi

out=$(rdma -d dev show fake0 2>&1)
ktap_quote "$out"
expect "dev show -d: adaptive moderation off" "$out" 'adaptive-moderation off'

# --- ports ----------------------------------------------------------
out=$PART2
ktap_quote "$out"
expect "link show: fake0/1 (IB)" "$out" \
	'^link fake0/1 subnet_prefix fe80:0000:0000:0000 lid 257 sm_lid 1 lmc 1 state ACTIVE physical_state LINK_UP $'
expect "link show: fake0/2 (RoCE) with netdev fketh0" "$out" \
	'^link fake0/2 state ACTIVE physical_state LINK_UP netdev fketh0 $'
expect "link show: fake1/1 (IB)" "$out" \
	'^link fake1/1 subnet_prefix fe80:0000:0000:0000 lid 273 sm_lid 1 lmc 1 state ACTIVE physical_state LINK_UP $'
expect "link show: fake1/2 (RoCE) with netdev fketh1" "$out" \
	'^link fake1/2 state ACTIVE physical_state LINK_UP netdev fketh1 $'

# --- system ---------------------------------------------------------
out=$SYS
ktap_quote "$out"
expect "sys show: netns shared, copy-on-fork on" "$out" \
	'^netns shared .*copy-on-fork on'

# --- resources (no kernel ULP: every count is zero) ------------------
out=$PART3
ktap_quote "$out"
expect "res show: fake0 with zero counts" "$out" \
	'^[0-9]+: fake0: pd 0 cq 0 qp 0 cm_id 0 mr 0 ctx 0 srq 0 ?$'
expect "res show: fake1 with zero counts" "$out" \
	'^[0-9]+: fake1: pd 0 cq 0 qp 0 cm_id 0 mr 0 ctx 0 srq 0 ?$'
json=$(rdma -j res show fake0 2>&1)
echo "# $json"
expect "res show -j fake0: the summary as JSON" "$json" \
	'^\[\{"ifindex":[0-9]+,"ifname":"fake0","pd":0,"cq":0,"qp":0,"cm_id":0,"mr":0,"ctx":0,"srq":0\}\]$'
# the batch's status is 0 only when every command of it exited with 0
ok=1
n=4
for obj in qp cq mr pd; do
	eval "out=\$PART$n"
	n=$((n + 1))
	if [ $BATCH_RC -ne 0 ] || [ -n "$out" ]; then
		ok=0
		ktap_diag "res show $obj: batch rc $BATCH_RC, output: $out"
		break
	fi
done
if [ $ok = 1 ]; then
	ktap_pass "res show qp/cq/mr/pd: nothing to list, exit 0"
else
	ktap_fail "res show qp/cq/mr/pd: nothing to list, exit 0"
fi
out=$PART8
if [ $BATCH_RC -eq 0 ] && [ -z "$out" ] && [ -n "$SYS" ]; then
	ktap_pass "res show qp link fake0/1: nothing, exit 0"
else
	ktap_fail "res show qp link fake0/1: nothing, exit 0" "batch rc $BATCH_RC: $out"
fi

# --- rename ---------------------------------------------------------
ktap_test "dev set fake0 name fakeren" rdma dev set fake0 name fakeren
out=$(rdma dev show 2>&1)
expect "renamed device listed under its new name" "$out" \
	"^$idx0: fakeren: node_type ca fw 1\\.2\\.0 "
expect_not "old name gone" "$out" ' fake0: '
if [ -d /sys/class/infiniband/fakeren ]; then
	ktap_pass "sysfs follows the rename"
else
	ktap_fail "sysfs follows the rename" "$(ls /sys/class/infiniband)"
fi
ktap_refused "rename to a taken name fails" "Device name is taken" "File exists" \
	rdma dev set fakeren name fake1
ktap_refused "rename to an invalid name fails" "Invalid device name" \
	"Invalid argument" rdma dev set fakeren name "a/b"
tool_refuses "unknown device fails" "Wrong device name - nosuchdev" \
	rdma dev show nosuchdev
tool_refuses "rename of an unknown device fails" \
	"Wrong device name - nosuchdev" rdma dev set nosuchdev name other
ktap_test "dev set fakeren name fake0" rdma dev set fakeren name fake0

# --- link types -----------------------------------------------------
if $IP link add $DUMMY type dummy 2>/dev/null; then
	$IP link set $DUMMY up
	ktap_pass "dummy net device $DUMMY"
else
	ktap_fail "dummy net device $DUMMY" "ip link add failed"
fi
ktap_test "link add fkl0 type fake netdev $DUMMY" \
	rdma link add fkl0 type fake netdev $DUMMY
mac=$(cat /sys/class/net/$DUMMY/address 2>/dev/null)
guid=$(eui64 "$mac")
batch -- "dev show fkl0" "link show fkl0/1"
out=$PART0
ktap_quote "$out"
expect "new device: no fw, GUIDs from the MAC ($mac)" "$out" \
	"^[0-9]+: fkl0: node_type ca node_guid $guid sys_image_guid $guid \$"
out=$PART1
expect "new device's port on $DUMMY" "$out" "^link fkl0/1 .*netdev $DUMMY \$"
ktap_refused "second device on the same netdev fails" \
	"Device exists already (name taken or net device in use)" \
	"File exists" rdma link add fkl1 type fake netdev $DUMMY
ktap_refused "unknown link type fails" "Unknown link type" "Invalid argument" \
	rdma link add fkl1 type nosuchtype netdev $DUMMY
ktap_refused "unknown netdev fails" "No such net device" "No such device" \
	rdma link add fkl1 type fake netdev nosuchnetdev
ktap_refused "link delete of a device that does not allow it fails" \
	"This device cannot be deleted from user space" "Invalid argument" \
	rdma link delete fake1
ktap_test "link delete fkl0" rdma link delete fkl0
if wait_dev ! fkl0; then
	ktap_pass "fkl0 gone"
else
	ktap_fail "fkl0 gone"
fi
name="a link device goes with its net device"
if ! rdma link add fkl0 type fake netdev $DUMMY || ! wait_dev fkl0; then
	ktap_fail "$name" "set-up: rdma link add fkl0 failed"
elif ! $IP link del $DUMMY; then
	ktap_fail "$name" "set-up: ip link del $DUMMY failed"
elif wait_dev ! fkl0; then
	ktap_pass "$name"
else
	ktap_fail "$name" "fkl0 still listed after its net device went"
fi

# --- network namespaces ---------------------------------------------
if $IP netns add $NS; then
	ktap_refused "netns move refused in shared mode" \
		"Moving devices needs exclusive netns mode and a driver that can disassociate" \
		"Operation not supported" rdma dev set fake1 netns $NS
	$IP netns del $NS
else
	ktap_fail "netns move refused in shared mode" "set-up: ip netns add failed"
fi
ktap_test "sys set netns exclusive" rdma sys set netns exclusive
expect "sys show: netns exclusive" "$(rdma sys show 2>&1)" '^netns exclusive '
if $IP netns add $NS; then
	ktap_pass "ip netns add $NS"
else
	ktap_fail "ip netns add $NS"
fi
ktap_refused "netns mode cannot change while $NS exists" \
	"Netns mode can only change while no other network namespace exists" \
	"Device or resource busy" rdma sys set netns shared
ktap_test "dev set fake1 netns $NS" rdma dev set fake1 netns $NS
out=$(rdma dev show 2>&1)
expect_not "fake1 gone from the initial namespace" "$out" ' fake1: '
expect "fake0 still in the initial namespace" "$out" ' fake0: '
out=$($IP netns exec $NS rdma -b - 2>&1 <<EOF
dev show
sys show
link show
EOF
)
ns_dev=${out%%"${KTAP_NL}netns "*}
ns_link=${out#*"${KTAP_NL}netns "*"$KTAP_NL"}
[ "$ns_link" != "$out" ] || ns_link=
out=$ns_dev
ktap_quote "$out"
expect "fake1 listed in $NS" "$out" \
	'^[0-9]+: fake1: node_type ca fw 1\.2\.1 node_guid 0002:fa4e:0000:1000 '
expect_not "fake0 not listed in $NS" "$out" ' fake0: '
out=$ns_link
ktap_quote "$out"
# fketh1 stayed in the initial namespace: not named in $NS
expect "fake1/2 in $NS without the other namespace's netdev" "$out" \
	'^link fake1/2 state ACTIVE physical_state LINK_UP $'
ls_out=$($IP netns exec $NS ls /sys/class/infiniband 2>&1)
# the names on one line, each followed by a blank (tr '\n' ' ')
out=
while IFS= read -r l; do
	[ -z "$l" ] || out="$out$l "
done <<EOF
$ls_out
EOF
expect "sysfs of $NS has fake1 only" "$out" '^fake1 $'
$IP netns del $NS
if wait_dev fake1; then
	ktap_pass "fake1 back in the initial namespace after ip netns del"
else
	ktap_fail "fake1 back in the initial namespace after ip netns del"
fi
ktap_test "sys set netns shared" rdma sys set netns shared
expect "sys show: netns shared again" "$(rdma sys show 2>&1)" '^netns shared '

# --- unload ---------------------------------------------------------
ktap_test "rmmod rdma_fake_hca" rmmod rdma_fake_hca
ktap_test "rmmod ib_core" rmmod ib_core
ktap_finish
