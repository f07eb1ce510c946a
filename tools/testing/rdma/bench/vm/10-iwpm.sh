#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Benchmark (run by "vm-run.sh bench", never by "make check"): round trips
# of the iWARP port-mapper client through Debian's real iwpmd, measured in
# the kernel by rdma_iwpm_bench (tools/testing/rdma/bench/iwpm_bench.c).
# Three runs of COUNT add+remove cycles on 192.0.2.1:7174 (a dummy
# interface), after 100 untimed ones each:
#   1. iwpmd maps the port (flags 0: iwpmd binds a socket per mapping);
#   2. iwpmd keeps the port (flags IWPM_FLAGS_NO_PORT_MAP);
#   3. no iwpmd (the client falls back to the unmapped address).
# COUNT is 2000, or N from "iwpm_bench.count=N" on the kernel command line.
# Prints tables only; the exit status says whether the runs could be made.
# needs: /usr/sbin/iwpmd
# timeout: 900

ST=/sys/kernel/debug/iwpm/status
B=/sys/kernel/debug/iwpm_bench
IF=iwpmb0
A4=192.0.2.1
PORT=7174
WARMUP=100

COUNT=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^iwpm_bench\.count=//p')
COUNT=${COUNT:-2000}

status() { sed -n "s/^$1: //p" $ST; }
wait_until() {
	t=$(($1 * 2))
	shift
	while [ $t -gt 0 ]; do
		"$@" && return 0
		sleep 0.5
		t=$((t - 1))
	done
	return 1
}
pm_is_iwpmd() {
	p=$(pidof iwpmd | cut -d' ' -f1)
	[ -n "$p" ] && [ "$(status port_mapper)" = "$p" ]
}
pm_gone() { [ "$(status port_mapper)" -lt 0 ]; }
iwpmd_gone() { ! pidof iwpmd >/dev/null; }
# run TITLE FLAGS: one benchmark run and its table.
run() {
	echo
	echo "== $1"
	if ! echo "$COUNT $A4 $PORT $2 $WARMUP" >$B/run; then
		echo "run failed"
		return 1
	fi
	cat $B/results
}

echo "iwpm round-trip benchmark: kernel $(uname -r)," \
	"$(grep -c ^processor /proc/cpuinfo) CPU(s)," \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
dbg=""
grep -qw kasan_report /proc/kallsyms && dbg="$dbg KASAN"
grep -qw lock_acquire /proc/kallsyms && dbg="$dbg lockdep"
grep -qw kmemleak_alloc /proc/kallsyms && dbg="$dbg kmemleak"
[ -n "$dbg" ] && echo "debug options:$dbg"
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "clocksource: $cs"
case "$cs" in
*jiffies*) echo "(times are in 4 ms steps: see run-iwpm-bench.sh)" ;;
esac

ip link add $IF type dummy || exit 1
ip addr add $A4/24 dev $IF
ip link set $IF up
modprobe iw_cm || exit 1
modprobe rdma_iwpm_bench ifname=$IF || exit 1

iwpmd -s &
if ! wait_until 60 pm_is_iwpmd; then
	echo "iwpmd did not register with the kernel"
	cat $ST
	exit 1
fi
echo "iwpmd pid $(pidof iwpmd), ABI $(status abi_version)"

rc=0
run "iwpmd, port mapped (flags 0)" 0 || rc=1
run "iwpmd, port not mapped (flags 1, IWPM_FLAGS_NO_PORT_MAP)" 1 || rc=1

kill "$(pidof iwpmd)"
wait_until 20 iwpmd_gone && wait_until 10 pm_gone || rc=1
run "no iwpmd: fallback to the unmapped address" 0 || rc=1

echo
echo "== /sys/kernel/debug/iwpm/status at the end"
cat $ST
rmmod rdma_iwpm_bench && rmmod iw_cm || rc=1
ip link del $IF
exit $rc
