#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Benchmark (make bench-nvmf, never make check): NVMe over Fabrics across
# the virtual wire, guest 1 the target (a loop device on tmpfs, exported
# through nvmet's configfs), guest 2 the host running Debian's fio on
# the namespace: 4 KiB random reads (IOPS) and 128 KiB sequential reads
# (bandwidth), with O_DIRECT and libaio.  Each round runs three columns
# in one boot:
#   ours-siw, ours-rxe
#             our siw or rxe, rdma_cm and ib_core, with upstream's
#             nvme-rdma and nvmet-rdma built against our include/
#   upstream-siw, upstream-rxe
#             upstream's siw or rxe and stack, with the same two modules
#             built against upstream's headers (guest/stack.sh swaps
#             stacks)
#   tcp       the kernel's own NVMe/TCP on the same wire (no RDMA)
# Odd rounds run upstream first, even rounds ours first, siw then rxe.  The host prints
# "nvmf-result ROUND COLUMN TEST METRIC VALUE" lines; bench/nvmf_table.py
# makes the table.  After each RDMA column both guests print their
# device's counters ("rdma statistic show link"): retries, sequence
# errors and RNR NAKs say whether the wire lost anything.
# Parameters: bench_nvmf.rounds=N bench_nvmf.secs=S (fio's run time)
# bench_nvmf.only=siw|rxe (only those RDMA columns, no tcp)
# bench_nvmf.depth=N (the 4 KiB job's queue depth, 32 by default)
# bench_nvmf.profile=1 (only the 4 KiB job; both guests run ftrace's
# function profiler over the RDMA modules and nvme(t)-rdma during it
# and print the busiest functions and CPUs: guest/profile.sh)
# needs: /usr/bin/rdma /usr/sbin/nvme /usr/bin/fio
# timeout: 3000

. /testbed/lib/stack.sh
. /testbed/lib/wire.sh
. /testbed/lib/nvmf.sh
. /testbed/lib/profile.sh

arg() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^bench_nvmf\.$1=//p"
}
ROUNDS=$(arg rounds)
ROUNDS=${ROUNDS:-3}
SECS=$(arg secs)
SECS=${SECS:-20}
ONLY=$(arg only)
PROFILE=$(arg profile)
DEPTH=$(arg depth)
NQN=nqn.2026-11.org.rdma-testbed:bench
IMG=/tmp/nvmf.img
DEV=nvmf0
FAILED=0

echo "bench-nvmf: guest $WIRE_SELF, kernel $(uname -r), $ROUNDS round(s) of $SECS s per fio job"
if [ "$WIRE_SELF" = 1 ]; then
	{ dd if=/dev/urandom of=$IMG bs=1M count=128 2>/dev/null &&
		losetup /dev/loop0 $IMG && nvmf_subsys_add $NQN /dev/loop0; } ||
		FAILED=1
fi

fail() {
	echo "bench-nvmf: $*"
	FAILED=$((FAILED + 1))
}

# port TRTYPE | port off
port() {
	if [ "$1" = off ]; then
		nvmf_port_remove $NQN
	else
		nvmf_port_add $NQN "$1" "$WIRE_SELF_IP" 4420
	fi
}

# job ROUND COLUMN NAME RW BS DEPTH: one fio job on the namespace;
# "nvmf-result" lines with its IOPS, bandwidth and completion latency
# (fio's terse output: field 7 is the read bandwidth in KiB/s, field 8
# the read IOPS, 16 the mean completion latency in us, 24 and 30 its
# 50th and 99th percentiles as "P%=us").
job() {
	local out
	out=$(fio --minimal --name="$3" --filename="/dev/$NS" --rw="$4" \
		--bs="$5" --iodepth="$6" --ioengine=libaio --direct=1 \
		--time_based --runtime="$SECS" --ramp_time=2 --size=120m 2>&1) ||
		{ fail "round $1 $2: fio $3 failed: $out"; return; }
	echo "$out" | awk -F';' -v r="$1" -v c="$2" -v t="$3" '
		NF > 30 { printf "nvmf-result %s %s %s iops %s\n", r, c, t, $8
			 printf "nvmf-result %s %s %s bw_mbs %.1f\n", r, c, t, $7 / 1024
			 sub(/.*=/, "", $24); sub(/.*=/, "", $30)
			 printf "nvmf-lat %s %s %s clat_us mean %.0f p50 %s p99 %s\n",
				r, c, t, $16, $24, $30 }'
}

# profile on|off COLUMN: with bench_nvmf.profile=1, profile.sh's
# profiler ("nvmf-cpu" and "nvmf-profile" lines).
profile() {
	[ "$PROFILE" = 1 ] || return 0
	if [ "$1" = on ]; then
		profile_on
	else
		profile_off nvmf "$2"
	fi
}

# column ROUND COLUMN TRTYPE: the target's port of TRTYPE (rdma or tcp),
# the host connects, runs both jobs, disconnects.
column() {
	local r=$1 c=$2 t=$3
	wire_sync "round $r $c" || { fail "round $r $c: no sync"; return; }
	if [ "$WIRE_SELF" = 1 ]; then
		port "$t" || fail "round $r $c: port $t"
		profile on
		wire_sync "round $r $c: port" || fail "round $r $c: no sync"
		wire_sync "round $r $c: measured" 1200 || fail "round $r $c: no sync"
		profile off "$c"
		port off || fail "round $r $c: port removal"
		return
	fi
	wire_sync "round $r $c: port" || fail "round $r $c: no sync"
	if nvmf_connect "$t" $NQN "$WIRE_PEER_IP" 4420; then
		i=0
		while ! NS=$(nvmf_ns) && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
		profile on
		job "$r" "$c" randread-4k randread 4k "${DEPTH:-32}"
		profile off "$c"
		[ "$PROFILE" = 1 ] || job "$r" "$c" seqread-128k read 128k 8
		nvme disconnect -n $NQN >/dev/null || fail "round $r $c: disconnect"
	else
		fail "round $r $c: nvme connect -t $t failed"
	fi
	wire_sync "round $r $c: measured" 1200 || fail "round $r $c: no sync"
}

# rdma_column ROUND ours|upstream siw|rxe
rdma_column() {
	local r=$1 s=$2 d=$3 m=nvme_rdma
	[ "$WIRE_SELF" = 1 ] && m=nvmet_rdma
	if [ "$s" = ours ]; then
		stack_load ours "$([ "$d" = rxe ] && echo rdma_rxe || echo siw)" "$m" ||
			fail "round $r: our stack did not load"
	else
		{ stack_load upstream && stack_insmod "$(echo $m | tr _ -)"; } ||
			fail "round $r: upstream's stack did not load"
	fi
	rdma link add $DEV type "$d" netdev "$WIRE_DEV" || fail "round $r $s $d: rdma link add"
	column "$r" "$s-$d" rdma
	# the device's counters (retries, sequence errors, RNR NAKs...)
	echo "bench-nvmf: round $r $s-$d counters of $DEV:" \
		$(rdma statistic show link $DEV/1 2>&1)
	wire_sync "round $r $s $d: done" || fail "round $r $s $d: no sync"
	rdma link delete $DEV || fail "round $r $s $d: rdma link delete"
	stack_unload || fail "round $r $s $d: the stack did not unload"
}

r=1
while [ $r -le "$ROUNDS" ]; do
	for d in siw rxe; do
		[ -n "$ONLY" ] && [ "$ONLY" != $d ] && continue
		if [ $((r % 2)) = 1 ]; then
			rdma_column $r upstream $d
			rdma_column $r ours $d
		else
			rdma_column $r ours $d
			rdma_column $r upstream $d
		fi
	done
	[ -n "$ONLY" ] || column $r tcp tcp
	r=$((r + 1))
done
wire_sync "done" || FAILED=$((FAILED + 1))
echo "bench-nvmf: finished, $FAILED problem(s)"
[ $FAILED = 0 ]
