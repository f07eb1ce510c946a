#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Benchmark (run by "vm-run.sh bench", never by "make check"): latency,
# message rate and bandwidth of SEND, RDMA WRITE and RDMA READ between RC
# QPs on two loop devices, and the CPU per completion of each CQ poll
# context, measured in the kernel by rdma_verbs_bench
# (tools/testing/rdma/bench/verbs_bench.c).  The iteration counts come
# from "verbs_bench.args=LAT,RATE,CPU,DEPTH" on the kernel command line
# (run-verbs-bench.sh puts them there), else the module's defaults.
# Prints the table only; the exit status says whether the run could be
# made and everything unloaded again.
# timeout: 1400

B=/sys/kernel/debug/verbs_bench
KL=/sys/kernel/debug/kmemleak

ARGS=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^verbs_bench\.args=//p' |
	tr ',' ' ')

echo "verbs benchmark: kernel $(uname -r)," \
	"$(grep -c ^processor /proc/cpuinfo) CPU(s)," \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
grep -qw hypervisor /proc/cpuinfo && echo "guest of QEMU (TCG: every instruction emulated)"
dbg=""
grep -qw kasan_report /proc/kallsyms && dbg="$dbg KASAN"
grep -qw lock_acquire /proc/kallsyms && dbg="$dbg lockdep"
grep -qw kmemleak_alloc /proc/kallsyms && dbg="$dbg kmemleak"
[ -n "$dbg" ] && echo "debug options:$dbg"
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "clocksource: $cs"
case "$cs" in
*jiffies*) echo "(times are in 4 ms steps: see run-verbs-bench.sh)" ;;
esac

modprobe rdma_loop devices=2 || exit 1
modprobe rdma_verbs_bench || exit 1
[ -w $KL ] && echo clear >$KL

rc=0
start=$(cut -d' ' -f1 /proc/uptime)
echo "run: \"${ARGS:-defaults}\" (LAT RATE CPU DEPTH)"
echo "$ARGS" >$B/run || rc=1
end=$(cut -d' ' -f1 /proc/uptime)
echo
cat $B/results
echo
echo "run took $(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }') s (guest clock)"

rmmod rdma_verbs_bench && rmmod rdma_loop && rmmod rdmavt && rmmod ib_core ||
	rc=1
if [ -w $KL ]; then
	echo scan >$KL
	n=$(grep -c "unreferenced object" $KL)
	echo "kmemleak after unloading: $n unreferenced object(s)"
	[ "$n" = 0 ] || { cat $KL; rc=1; }
fi
exit $rc
