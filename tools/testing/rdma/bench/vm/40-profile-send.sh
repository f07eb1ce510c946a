#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Profile (run by "vm-run.sh bench" through bench/run-profile-send.sh,
# never by "make check"): where an 8-byte RC SEND between two rdma_loop
# devices spends its time.  rdma_verbs_bench runs its usual rows; the
# first one is SEND of 8 bytes (20 untimed, then LAT one at a time, then
# RATE with DEPTH outstanding, IB_POLL_DIRECT).  The script turns on
# ftrace's function profiler for our modules (ib_core, rdmavt,
# rdma_loop, rdma_verbs_bench) and a few kernel functions of interest
# (work items, wakeups, allocations, bottom halves), and turns it off
# again as soon as rvt_post_send has been called for every SEND of that
# row, so the figures are those of 8-byte SENDs (a few later ones may
# slip in before the script sees the count).  Printed:
#
#  1. per function, summed over the CPUs: calls per SEND, self time per
#     call and share of the total self time (graph-time off: a function's
#     time without that of the traced functions it calls, but with that
#     of the untraced ones, spin locks and memcpy included);
#  2. the same run with graph-time on: time including children;
#  3. context switches, softirqs and interrupts per SEND (/proc/stat,
#     /proc/softirqs), from the same window;
#  4. a function_graph trace of a few SENDs of the latency part.
#
# ftrace costs much under TCG: use the ranking, not the absolute times;
# the benchmark (run-verbs-bench.sh, no tracing) measures.
# The counts: "profile_send.args=LAT,RATE,DEPTH" on the kernel command
# line (default 1000,2000,32).
# timeout: 1200

T=/sys/kernel/debug/tracing
B=/sys/kernel/debug/verbs_bench

ARGS=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^profile_send\.args=//p' |
	tr ',' ' ')
set -- ${ARGS:-1000 2000 32}
LAT=$1
RATE=$2
DEPTH=$3
SENDS=$((20 + LAT + RATE))

echo "profile of 8-byte SENDs: kernel $(uname -r)," \
	"$(grep -c ^processor /proc/cpuinfo) CPU(s)," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "SEND 8 B row: 20 warm-up + $LAT latency + $RATE rate ($DEPTH outstanding) = $SENDS SENDs"

[ -d $T ] || { echo "no tracefs at $T"; exit 1; }
[ -f $T/function_profile_enabled ] ||
	{ echo "kernel without FUNCTION_PROFILER"; exit 1; }

modprobe rdma_loop devices=2 || exit 1
modprobe rdma_verbs_bench || exit 1

# Our modules, and kernel functions that say what the path costs beyond
# them (those the kernel lacks are skipped).
KFUNCS="mod_delayed_work_on queue_work_on __queue_work try_to_wake_up
	__schedule process_one_work worker_thread irq_poll_sched
	irq_poll_softirq __local_bh_enable_ip __kmalloc_noprof
	__kmalloc_cache_noprof kmem_cache_alloc_noprof kfree kvfree
	__cond_resched __wake_up complete native_smp_send_reschedule
	__smp_call_single_queue"

set_filter() {
	echo >$T/set_ftrace_filter
	for m in ib_core rdmavt rdma_loop rdma_verbs_bench; do
		echo ":mod:$m" >>$T/set_ftrace_filter
	done
	for f in $KFUNCS; do
		echo "$f" >>$T/set_ftrace_filter 2>/dev/null
	done
	echo "functions traced: $(wc -l <$T/set_ftrace_filter)"
}

# Count of rvt_post_send calls in the profile so far (all CPUs).
post_count() {
	cat $T/trace_stat/function* 2>/dev/null |
		awk '$1 == "rvt_post_send" { n += $2 } END { print n + 0 }'
}

# Merge trace_stat/function* (Function Hit Time Avg s^2, times in us)
# over the CPUs (the copy in /tmp/profile); print the top lines per SEND.
report() {
	awk -v sends="$1" -v what="$2" '
		$1 == "Function" || $1 ~ /^-/ || NF < 4 { next }
		{
			t = $3; if ($4 == "ms") t *= 1000; else if ($4 == "s") t *= 1000000
			hits[$1] += $2; time[$1] += t; total += t
		}
		END {
			for (f in hits)
				printf "%-36s %9.2f %10.2f %9.3f %6.1f%%\n", f,
					hits[f] / sends, time[f] / hits[f],
					time[f] / sends, 100 * time[f] / total
			printf "%-36s %9s %10s %9.3f\n", "(all traced, " what ")", "", "",
				total / sends
		}' /tmp/profile | sort -k4 -n -r | head -n 45
}

snap() {
	echo "$(awk '/^ctxt/ { print $2 }' /proc/stat)" \
		"$(awk '/^softirq/ { print $2 }' /proc/stat)" \
		"$(awk '/^intr/ { print $2 }' /proc/stat)" \
		"$(awk '$1 == "NET_RX:" || $1 == "IRQ_POLL:" || $1 == "TIMER:" ||
			$1 == "SCHED:" || $1 == "RCU:" || $1 == "TASKLET:" {
			s = 0; for (i = 2; i <= NF; i++) s += $i; printf "%s%s ", $1, s }' /proc/softirqs)"
}

# One profiled run of the SEND 8 B row; $1: graph-time 0 or 1
profile_run() {
	echo 0 >$T/function_profile_enabled
	echo "$1" >$T/options/graph-time
	echo 1 >$T/function_profile_enabled
	s0=$(snap)
	echo "$LAT $RATE 1 $DEPTH" >$B/run &
	bench=$!
	while [ "$(post_count)" -lt $SENDS ]; do
		kill -0 $bench 2>/dev/null || break
		usleep 20000
	done
	# A copy of the figures now; the profiler goes off only once the
	# benchmark is idle: under TCG, ftrace patching code that another
	# vCPU runs can end in an "Oops: int3".
	cat $T/trace_stat/function* >/tmp/profile
	s1=$(snap)
	wait $bench
	echo 0 >$T/function_profile_enabled
	posted=$(awk '$1 == "rvt_post_send" { n += $2 } END { print n + 0 }' /tmp/profile)
	echo "profile read after $posted rvt_post_send calls"
	echo
	if [ "$1" = 0 ]; then
		echo "== self time (graph-time off), per 8-byte SEND; times in us under TCG with ftrace on"
	else
		echo "== time including children (graph-time on), per 8-byte SEND"
	fi
	printf "%-36s %9s %10s %9s %7s\n" function calls/SEND "us/call" "us/SEND" share
	report "$posted" "$([ "$1" = 0 ] && echo self || echo inclusive)"
	echo
	echo "$s0 $s1" | awk -v n="$posted" '{
		h = NF / 2
		printf "per SEND: %.2f context switches, %.2f softirqs, %.2f interrupts\n",
			($(h + 1) - $1) / n, ($(h + 2) - $2) / n, ($(h + 3) - $3) / n
		for (i = 4; i <= h; i++) {
			split($i, a, ":"); split($(h + i), b, ":")
			printf "  %s %.2f", a[1], (b[2] - a[2]) / n
		}
		print ""
	}'
	echo
}

set_filter
profile_run 0
profile_run 1

# The call tree of a few SENDs of the latency part, with durations.
echo "== function_graph of SENDs 12 to 14 (latency part, 1 outstanding)"
echo 0 >$T/tracing_on
echo function_graph >$T/current_tracer
echo 0 >$T/options/overwrite
echo 1 >$T/options/funcgraph-proc
echo 4096 >$T/buffer_size_kb
echo >$T/trace
echo 1 >$T/tracing_on
echo "40 40 1 $DEPTH" >$B/run
echo 0 >$T/tracing_on
echo "trace: $(wc -l <$T/trace) lines, $(grep -c ' rvt_post_send .*{ *$' $T/trace) posts"
# From the 12th post (warm) to the 15th; a round of the polling loop
# (vb_poll) that found nothing is left out.
awk '/ rvt_post_send .*\{ *$/ { n++ } n >= 12 && n < 15' $T/trace | awk '
	{
		cpu = $1
		if (!(cpu in depth) && !/ vb_poll .*\{ *$/) { print; next }
		if (/ vb_poll .*\{ *$/) { depth[cpu] = 0; buf[cpu] = "" }
		buf[cpu] = buf[cpu] $0 "\n"
		if (/\{ *$/) depth[cpu]++
		else if (/\} *$/ || /\} \/\*/) depth[cpu]--
		if (depth[cpu] == 0) {
			if (buf[cpu] ~ /_done/) printf "%s", buf[cpu]
			delete depth[cpu]
		}
	}' | head -n 400
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
echo 1 >$T/options/overwrite

rmmod rdma_verbs_bench && rmmod rdma_loop && rmmod rdmavt && rmmod ib_uverbs && rmmod ib_core
