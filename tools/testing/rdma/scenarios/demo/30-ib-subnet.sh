#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The InfiniBand part of the demo of "make run": three managed loop
# devices behind rdma_loop's emulated switch, brought up by Debian's own
# opensm through ib_umad, then looked at with infiniband-diags (ibstat,
# sminfo, ibnetdiscover, saquery, perfquery) and "rdma link show".
# Runs in the VM; output goes to the console.
# needs: /usr/sbin/opensm /usr/sbin/ibstat /usr/sbin/sminfo
# needs: /usr/sbin/ibnetdiscover /usr/sbin/saquery /usr/sbin/perfquery
# needs: /usr/bin/rdma

IB=/sys/class/infiniband

states() {
	for d in loop0 loop1 loop2; do
		printf '  %s: %-10s lid %s sm_lid %s\n' $d \
			"$(cut -d' ' -f2 $IB/$d/ports/1/state)" \
			"$(printf '%d' "$(cat $IB/$d/ports/1/lid)")" \
			"$(printf '%d' "$(cat $IB/$d/ports/1/sm_lid)")"
	done
}

echo "== modprobe rdma_loop devices=3 managed=1; modprobe ib_umad"
modprobe rdma_loop devices=3 managed=1 || exit 1
modprobe ib_umad || exit 1
echo "-- port 1 of each, before a subnet manager ran:"
states

echo
echo "== opensm on loop0 (Debian's opensm $(opensm --version 2>/dev/null |
	sed -n 's/^OpenSM //p' | head -n 1))"
mkdir -p /var/cache/opensm /etc/opensm /var/log /run
guid=0x$(cut -d: -f5-8 <$IB/loop0/ports/1/gids/0 | tr -d ':')
# -d 2: the log flushed line by line ("SUBNET UP" is an INFO line)
opensm -d 2 -g "$guid" -f /tmp/opensm.log </dev/null >/tmp/opensm.out 2>&1 &
osm=$!
i=0
while [ $i -lt 60 ] && ! grep -q 'SUBNET UP' /tmp/opensm.log 2>/dev/null; do
	sleep 1
	i=$((i + 1))
done
grep -q 'SUBNET UP' /tmp/opensm.log 2>/dev/null &&
	echo "-- opensm: SUBNET UP after about $i s"
states

echo
echo "== rdma link show"
rdma link show
echo
echo "== ibstat loop1"
ibstat loop1
echo
echo "== sminfo (from loop1)"
sminfo -C loop1 -P 1
echo
echo "== ibnetdiscover (from loop1): one switch, three channel adapters"
ibnetdiscover -C loop1 -P 1
echo
echo "== saquery -C loop1 -P 1 NR: node records of opensm's SA (GetTable, RMPP)"
saquery -C loop1 -P 1 NR | grep -E '^NodeRecord|lid|NodeDescription'
echo
lid2=$(printf '%d' "$(cat $IB/loop2/ports/1/lid)")
echo "== perfquery -C loop1 -P 1 $lid2 1: loop2's port counters"
perfquery -C loop1 -P 1 "$lid2" 1

kill $osm 2>/dev/null
wait $osm 2>/dev/null
rmmod ib_umad rdma_loop 2>/dev/null
exit 0
