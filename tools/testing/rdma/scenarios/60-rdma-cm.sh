#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# rdma_cm's configfs tree, as user space sees it: a RoCE device of the
# fake link type gets /sys/kernel/config/rdma_cm/<dev>/ports/1 with
# default_roce_mode and default_roce_tos; values are set, read back and
# refused as they should be, each refusal with its errno (a GID type the
# port lacks and a bogus one EINVAL, a ToS over 255 ERANGE, a device that
# does not exist ENODEV); a second device, made with rdma_fake_hca's
# link_roce_v1, speaks RoCE v1 too, so its mode can be changed away
# from RoCE v2 and back; the directory outlives its device (its
# attributes then answer ENODEV); a directory made for a two-port device
# whose name comes back with one port answers EINVAL for port 2 (made
# with rdma_fake_hca's link_ib_port; before the fix it read past the
# device's per-port arrays: a KASAN report); and the modules unload again.
# needs: /usr/bin/rdma /usr/bin/ip
# timeout: 120

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

IP=/usr/bin/ip
CFS=/sys/kernel/config
DUMMY=cmdum0
DUMMY1=cmdum1
DUMMY2=cmdum2
DEV=fkcm0
DEV1=fkcm1
DEV2=fkcm2
DIR=$CFS/rdma_cm/$DEV
PORT=$DIR/ports/1
PORT1=$CFS/rdma_cm/$DEV1/ports/1
V1_PARAM=/sys/module/rdma_fake_hca/parameters/link_roce_v1
IB_PORT_PARAM=/sys/module/rdma_fake_hca/parameters/link_ib_port
PORT2=$CFS/rdma_cm/$DEV2/ports/2

# name | output | expected output
same() {
	if [ "$2" = "$3" ]; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "got '$2', want '$3'"
	fi
}

# write VALUE FILE: echo VALUE into FILE (busybox sh reports a failed
# write as "sh: write error: <errno>")
write() {
	sh -c 'echo "$1" > "$2"' sh "$1" "$2"
}

ktap_plan 30

for m in rdma_cm iw_cm rdma_fake_hca ib_core; do
	grep -q "^$m " /proc/modules && rmmod $m
done
ktap_test "modprobe rdma_cm" modprobe rdma_cm
ktap_test "modprobe rdma_fake_hca" modprobe rdma_fake_hca
grep -q " $CFS configfs " /proc/mounts || mount -t configfs none $CFS
ktap_test "rdma link add $DEV type fake on a dummy device" \
	sh -c "$IP link add $DUMMY type dummy &&
	       rdma link add $DEV type fake netdev $DUMMY"

ktap_errno "mkdir for a device that does not exist: ENODEV" "No such device" \
	mkdir $CFS/rdma_cm/nosuchdev
ktap_test "mkdir rdma_cm/$DEV" mkdir $DIR
same "ports/1 has both attributes" \
	"$(ls $PORT 2>&1 | tr '\n' ' ')" "default_roce_mode default_roce_tos "
same "default_roce_mode starts as RoCE v2" "$(cat $PORT/default_roce_mode)" \
	"RoCE v2"
# the fake link's port speaks RoCE v2 only (as upstream, v1 is refused)
ktap_errno "default_roce_mode refuses IB/RoCE v1 on a v2-only port: EINVAL" \
	"Invalid argument" write 'IB/RoCE v1' $PORT/default_roce_mode
ktap_errno "default_roce_mode refuses a bogus type: EINVAL" \
	"Invalid argument" write bogus $PORT/default_roce_mode
same "default_roce_mode still reads RoCE v2" "$(cat $PORT/default_roce_mode)" \
	"RoCE v2"
same "default_roce_tos starts at 0" "$(cat $PORT/default_roce_tos)" "0"
ktap_test "default_roce_tos set to 32" write 32 $PORT/default_roce_tos
same "default_roce_tos reads 32" "$(cat $PORT/default_roce_tos)" "32"
ktap_errno "default_roce_tos refuses 300: ERANGE" \
	"Numerical result out of range" write 300 $PORT/default_roce_tos

# A port that speaks RoCE v1 and v2: the mode goes to v1 and back.
ktap_test "rdma link add $DEV1 type fake, RoCE v1 and v2" \
	sh -c "echo 1 > $V1_PARAM && $IP link add $DUMMY1 type dummy &&
	       rdma link add $DEV1 type fake netdev $DUMMY1 &&
	       echo 0 > $V1_PARAM && mkdir $CFS/rdma_cm/$DEV1"
same "$DEV1: default_roce_mode starts as RoCE v2" \
	"$(cat $PORT1/default_roce_mode 2>&1)" "RoCE v2"
ktap_test "$DEV1: default_roce_mode set to IB/RoCE v1" \
	write 'IB/RoCE v1' $PORT1/default_roce_mode
same "$DEV1: default_roce_mode reads IB/RoCE v1" \
	"$(cat $PORT1/default_roce_mode 2>&1)" "IB/RoCE v1"
ktap_test "$DEV1: default_roce_mode set back to RoCE v2" \
	write 'RoCE v2' $PORT1/default_roce_mode
same "$DEV1: default_roce_mode reads RoCE v2 again" \
	"$(cat $PORT1/default_roce_mode 2>&1)" "RoCE v2"

# The same name, first with two ports, then with one: port 2's directory
# stays (configfs made it for the first) but its device has no port 2.
ktap_test "rdma link add $DEV2 type fake, a RoCE and an IB port" \
	sh -c "echo 1 > $IB_PORT_PARAM && $IP link add $DUMMY2 type dummy &&
	       rdma link add $DEV2 type fake netdev $DUMMY2 &&
	       echo 0 > $IB_PORT_PARAM && mkdir $CFS/rdma_cm/$DEV2"
same "$DEV2: ports 1 and 2" "$(ls $CFS/rdma_cm/$DEV2/ports 2>&1 | tr '\n' ' ')" \
	"1 2 "
ktap_test "$DEV2 made again with one port" \
	sh -c "rdma link delete $DEV2 && rdma link add $DEV2 type fake netdev $DUMMY2"
ktap_errno "$DEV2: port 2's default_roce_mode, port gone: EINVAL" \
	"Invalid argument" cat $PORT2/default_roce_mode
ktap_errno "$DEV2: port 2's default_roce_tos, port gone: EINVAL" \
	"Invalid argument" cat $PORT2/default_roce_tos
ktap_test "rmdir rdma_cm/$DEV2, $DEV2 and $DUMMY2 go" \
	sh -c "rmdir $CFS/rdma_cm/$DEV2 && rdma link delete $DEV2 &&
	       $IP link del $DUMMY2"

if out=$(rdma link delete $DEV 2>&1); then
	ktap_errno "attributes of a removed device fail: ENODEV" \
		"No such device" cat $PORT/default_roce_mode
else
	ktap_fail "attributes of a removed device fail: ENODEV" \
		"rdma link delete $DEV: $out"
fi
ktap_test "rmdir rdma_cm/$DEV and rdma_cm/$DEV1" \
	rmdir $DIR $CFS/rdma_cm/$DEV1

ktap_test "rmmod rdma_fake_hca and rdma_cm" \
	sh -c "$IP link del $DUMMY && $IP link del $DUMMY1 &&
	       rmmod rdma_fake_hca && rmmod rdma_cm"
# modprobe rdma_cm brought iw_cm and ib_cm in: leave nothing for the next
# scenario.
unload_rest() {
	rmmod iw_cm && rmmod ib_cm && rmmod_settle ib_core
}
ktap_test "iw_cm, ib_cm and ib_core unload" unload_rest
ktap_finish
