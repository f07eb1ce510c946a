#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# sysfs of RDMA devices: load the fake HCA driver with two demo devices
# and check every attribute of /sys/class/infiniband/<dev> against what
# the driver declares, write node_desc, then unload everything and check
# that the class is gone.
#
# The expected values are the demo devices of tools/testing/rdma/fake_hca/fake_hca_main.c (see
# "Demo devices" there): change both together.
# timeout: 300

. /testbed/lib/ktap.sh

CLASS=/sys/class/infiniband
NDEV=2

# path|expected content, for every attribute of every demo device.
# Device i: node GUID 0002:fa4e:0000:<i>000, port 1 IB, port 2 RoCE v2 on
# net device fketh<i> with MAC 02:fa:4e:00:0<i>:02.
expectations() {
	i=0
	while [ $i -lt $NDEV ]; do
		d=$CLASS/fake$i
		cat <<-EOT
		$d/node_type|1: CA
		$d/node_guid|0002:fa4e:0000:${i}000
		$d/sys_image_guid|0002:fa4e:0000:ff0${i}
		$d/fw_ver|1.2.$i
		$d/node_desc|fake HCA $i
		$d/hca_type|FAKE-HCA-DEMO
		$d/ports/1/state|4: ACTIVE
		$d/ports/1/phys_state|5: LinkUp
		$d/ports/1/lid|0x1${i}1
		$d/ports/1/sm_lid|0x1
		$d/ports/1/sm_sl|3
		$d/ports/1/lid_mask_count|1
		$d/ports/1/rate|100 Gb/sec (4X EDR)
		$d/ports/1/cap_mask|0x02010c00
		$d/ports/1/link_layer|InfiniBand
		$d/ports/1/gids/0|fe80:0000:0000:0000:0002:fa4e:0000:${i}001
		$d/ports/1/pkeys/0|0xffff
		$d/ports/1/pkeys/1|0x8001
		$d/ports/1/pkeys/2|0x0000
		$d/ports/2/state|4: ACTIVE
		$d/ports/2/phys_state|5: LinkUp
		$d/ports/2/lid|0x0
		$d/ports/2/sm_lid|0x0
		$d/ports/2/sm_sl|0
		$d/ports/2/lid_mask_count|0
		$d/ports/2/rate|25 Gb/sec (1X EDR)
		$d/ports/2/cap_mask|0x04010000
		$d/ports/2/link_layer|Ethernet
		$d/ports/2/gids/0|fe80:0000:0000:0000:00fa:4eff:fe00:0${i}02
		$d/ports/2/gid_attrs/types/0|RoCE v2
		$d/ports/2/gid_attrs/ndevs/0|fketh$i
		$d/ports/2/pkeys/0|0xffff
		/sys/class/net/fketh$i/address|02:fa:4e:00:0$i:02
		EOT
		i=$((i + 1))
	done
}

expectations >/tmp/10-sysfs.expect
nexp=$(wc -l </tmp/10-sysfs.expect)
# + load, 2 devices present, node_desc write, unload fake, unload core,
#   class gone, net devices gone
ktap_plan $((nexp + 7))

for m in rdma_fake_hca ib_core; do
	grep -q "^$m " /proc/modules && rmmod $m
done
ktap_test "modprobe rdma_fake_hca devices=$NDEV" \
	modprobe rdma_fake_hca devices=$NDEV

names=$(ls $CLASS 2>/dev/null | tr '\n' ' ')
if [ "$names" = "fake0 fake1 " ]; then
	ktap_pass "devices fake0 and fake1 registered"
else
	ktap_fail "devices fake0 and fake1 registered" "$CLASS has: $names"
fi

# Not a pipe into the loop: it would run in a subshell and lose the counts.
while IFS='|' read -r path want; do
	name=${path#/sys/class/}
	if [ ! -e "$path" ]; then
		ktap_fail "$name" "missing"
		continue
	fi
	got=$(cat "$path" 2>&1)
	if [ "$got" = "$want" ]; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "got '$got', want '$want'"
	fi
done </tmp/10-sysfs.expect

desc="scenario wrote this"
printf '%s' "$desc" >$CLASS/fake1/node_desc 2>/tmp/node_desc.err
got=$(cat $CLASS/fake1/node_desc 2>&1)
if [ "$got" = "$desc" ]; then
	ktap_pass "fake1/node_desc written and read back"
else
	ktap_fail "fake1/node_desc written and read back" \
		"got '$got' ($(cat /tmp/node_desc.err))"
fi

ktap_test "rmmod rdma_fake_hca" rmmod rdma_fake_hca
ktap_test "rmmod ib_core" rmmod ib_core
if [ -e $CLASS ]; then
	ktap_fail "$CLASS gone" "still there: $(ls $CLASS | tr '\n' ' ')"
else
	ktap_pass "$CLASS gone"
fi
if [ -e /sys/class/net/fketh0 ] || [ -e /sys/class/net/fketh1 ]; then
	ktap_fail "net devices fketh0 and fketh1 gone"
else
	ktap_pass "net devices fketh0 and fketh1 gone"
fi

ktap_finish
