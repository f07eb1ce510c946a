# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Where a benchmark's time goes (busybox ash; /testbed/lib/profile.sh in
# the VM).  profile_on starts ftrace's function profiler over the RDMA
# modules and the ULPs the benchmarks load, and notes each CPU's counters
# in /proc/stat; profile_off PREFIX COLUMN stops it and prints
#   PREFIX-cpu COLUMN cpuN busy B% softirq S%
#   PREFIX-profile COLUMN FUNCTION CALLS TOTAL_US
# (each CPU's share of the time in between, then the 40 functions with
# the most time, summed over the CPUs).  The profiler's own cost falls on
# every traced call, so compare its runs with each other only.

PROFILE_TRACING=/sys/kernel/tracing

profile_on() {
	local m
	[ -d $PROFILE_TRACING/trace_stat ] ||
		mount -t tracefs nodev $PROFILE_TRACING 2>/dev/null
	: >$PROFILE_TRACING/set_ftrace_filter
	for m in rdma_rxe rdmavt siw ib_core rdma_cm iw_cm ib_cm nvme_rdma \
		nvmet_rdma nvme_fabrics rdma_verbs_bench; do
		grep -q "^$m " /proc/modules &&
			echo ":mod:$m" >>$PROFILE_TRACING/set_ftrace_filter
	done
	echo 1 >$PROFILE_TRACING/function_profile_enabled
	grep '^cpu[0-9]' /proc/stat >/tmp/profile-stat
}

profile_off() {
	local p=$1 c=$2
	echo 0 >$PROFILE_TRACING/function_profile_enabled
	grep '^cpu[0-9]' /proc/stat | paste -d' ' /tmp/profile-stat - |
		awk -v p="$p" -v c="$c" '{ n = NF / 2; t = 0
			for (i = 2; i <= n; i++) t += $(i + n) - $i
			idle = $(5 + n) - $5 + $(6 + n) - $6; si = $(8 + n) - $8
			printf "%s-cpu %s %s busy %.0f%% softirq %.0f%%\n", p, c, $1,
				100 * (t - idle) / t, 100 * si / t }'
	cat $PROFILE_TRACING/trace_stat/function* 2>/dev/null |
		awk -v p="$p" -v c="$c" '
		$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9.]+$/ { n[$1] += $2; t[$1] += $3 }
		END { for (f in n) printf "%s-profile %s %s %d %.0f\n", p, c, f, n[f], t[f] }' |
		sort -k5,5nr | head -40
	: >$PROFILE_TRACING/set_ftrace_filter
}
