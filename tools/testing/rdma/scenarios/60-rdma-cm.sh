#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# rdma_cm's configfs tree, as user space sees it: a RoCE device of the
# fake link type gets /sys/kernel/config/rdma_cm/<dev>/ports/1 with
# default_roce_mode and default_roce_tos; values are checked and refused
# as they should be (a GID type the port lacks included); the directory outlives its device (its attributes
# then answer ENODEV); and the modules unload again.
# needs: /usr/bin/rdma /usr/bin/ip
# timeout: 120

. /testbed/lib/ktap.sh
. /testbed/lib/stack.sh

IP=/usr/bin/ip
CFS=/sys/kernel/config
DUMMY=cmdum0
DEV=fkcm0
DIR=$CFS/rdma_cm/$DEV
PORT=$DIR/ports/1

# name | output | expected output
same() {
	if [ "$2" = "$3" ]; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "got '$2', want '$3'"
	fi
}

# name | command...: passes when the command fails
fails() {
	local name=$1
	shift
	if "$@" 2>/dev/null; then
		ktap_fail "$name" "'$*' succeeded"
	else
		ktap_pass "$name"
	fi
}

ktap_plan 19

for m in rdma_cm iw_cm rdma_fake_hca ib_core; do
	grep -q "^$m " /proc/modules && rmmod $m
done
ktap_test "modprobe rdma_cm" modprobe rdma_cm
ktap_test "modprobe rdma_fake_hca" modprobe rdma_fake_hca
grep -q " $CFS configfs " /proc/mounts || mount -t configfs none $CFS
$IP link add $DUMMY type dummy
ktap_test "rdma link add $DEV type fake" \
	rdma link add $DEV type fake netdev $DUMMY

fails "mkdir for a device that does not exist" mkdir $CFS/rdma_cm/nosuchdev
ktap_test "mkdir rdma_cm/$DEV" mkdir $DIR
same "ports/1 has both attributes" \
	"$(ls $PORT 2>&1 | tr '\n' ' ')" "default_roce_mode default_roce_tos "
same "default_roce_mode starts as RoCE v2" "$(cat $PORT/default_roce_mode)" \
	"RoCE v2"
# the fake link's port speaks RoCE v2 only (as upstream, v1 is refused)
fails "default_roce_mode refuses IB/RoCE v1 on a v2-only port" \
	sh -c "echo 'IB/RoCE v1' > $PORT/default_roce_mode"
ktap_test "default_roce_mode set to RoCE v2" \
	sh -c "echo 'RoCE v2' > $PORT/default_roce_mode"
same "default_roce_mode reads RoCE v2" "$(cat $PORT/default_roce_mode)" \
	"RoCE v2"
fails "default_roce_mode refuses a bogus type" \
	sh -c "echo bogus > $PORT/default_roce_mode"
same "default_roce_tos starts at 0" "$(cat $PORT/default_roce_tos)" "0"
ktap_test "default_roce_tos set to 32" \
	sh -c "echo 32 > $PORT/default_roce_tos"
same "default_roce_tos reads 32" "$(cat $PORT/default_roce_tos)" "32"
fails "default_roce_tos refuses 300" sh -c "echo 300 > $PORT/default_roce_tos"

rdma link delete $DEV
fails "attributes of a removed device fail" cat $PORT/default_roce_mode
ktap_test "rmdir rdma_cm/$DEV" rmdir $DIR

$IP link del $DUMMY
rmmod rdma_fake_hca
ktap_test "rmmod rdma_cm" rmmod rdma_cm
# modprobe rdma_cm brought iw_cm in: leave nothing for the next scenario.
unload_rest() {
	rmmod iw_cm && rmmod_settle ib_core
}
ktap_test "iw_cm and ib_core unload" unload_rest
ktap_finish
