# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The guest's clock for the benchmark runners (sourced by run-*.sh).  The
# test kernels have no ACPI, so no HPET or PM timer, and without help the
# guest falls back to the jiffies clocksource, whose 4 ms steps make every
# time a multiple of 4 ms.  QEMU's TCG guest sees the host's TSC, so when
# the host's TSC is constant the guest is told its frequency and to trust
# it (see run-iwpm-bench.sh for the measurement that chose this).
#
#   . guest-clock.sh
#   clock=$(guest_clock_args NAME)   # kernel command line words, or ""
#
# RDMA_BENCH_TSC_KHZ overrides the frequency (0: leave the clock alone).
# NAME prefixes the one line it prints on stderr.
guest_clock_args() {
	local khz=${RDMA_BENCH_TSC_KHZ:-}
	if [ -z "$khz" ] && grep -qw constant_tsc /proc/cpuinfo; then
		khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
	fi
	if [ -n "$khz" ] && [ "$khz" != 0 ]; then
		echo "$1: guest TSC at $khz kHz (the host's)" >&2
		echo "tsc_early_khz=$khz tsc=reliable clocksource=tsc"
	else
		echo "$1: guest clock left alone (4 ms jiffies steps)" >&2
	fi
}
