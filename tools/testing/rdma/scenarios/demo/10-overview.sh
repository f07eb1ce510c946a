#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The demo of "make run": load ib_core and the fake HCA driver with two
# devices, show what user space sees of them in sysfs, then unload.
# Runs in the VM; output goes to the console.
# needs: /usr/bin/rdma

show() {
	printf '  %-28s %s\n' "$1" "$(cat "$2" 2>/dev/null || echo '-')"
}

echo "== modprobe ib_core; modprobe rdma_fake_hca devices=2"
modprobe ib_core || exit 1
modprobe rdma_fake_hca devices=2 || exit 1
echo "== lsmod"
lsmod | grep -E '^(ib_core|rdma_fake_hca) '
if command -v rdma >/dev/null; then
	echo "== rdma dev show; rdma link show; rdma sys show (iproute2, over nldev)"
	rdma dev show
	rdma link show
	rdma sys show
fi

for dev in /sys/class/infiniband/*; do
	name=${dev##*/}
	echo
	echo "== device $name"
	for a in node_type node_guid sys_image_guid fw_ver node_desc hca_type; do
		show "$a" "$dev/$a"
	done
	for port in "$dev"/ports/*; do
		p=${port##*/}
		echo "  -- port $p"
		for a in link_layer state phys_state rate lid sm_lid sm_sl \
			 lid_mask_count cap_mask; do
			show "$a" "$port/$a"
		done
		show "gids/0" "$port/gids/0"
		show "gids/1" "$port/gids/1"
		show "pkeys/0" "$port/pkeys/0"
		if [ -e "$port/gid_attrs/types/0" ]; then
			show "gid_attrs/types/0" "$port/gid_attrs/types/0"
			show "gid_attrs/ndevs/0" "$port/gid_attrs/ndevs/0"
		fi
	done
done

echo
echo "== rmmod rdma_fake_hca ib_core"
rmmod rdma_fake_hca && rmmod ib_core
if [ -d /sys/class/infiniband ]; then
	echo "demo: /sys/class/infiniband is still there"
	exit 1
fi
echo "demo: devices unregistered, modules unloaded"
