#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Benchmark (make bench-compare-wire, never make check): each stack across
# the virtual wire between two guests, both halves in this file (guest 1
# serves, guest 2 measures and prints the figures as 30-compare.sh does).
# Upstream's rxe and siw on eth0 of both guests (one kind at a time:
# rdma_cm picks the device by IP address), kernel TCP between the guests,
# and our siw on both guests, once as upstream's (one MSS per FPDU) and
# once with gso_seg_limit=0 on both sides (FPDUs as large as TCP sends at
# once; column "ours siw0+gso"): each round both guests unload one stack
# completely and load the other (guest/stack.sh), odd rounds upstream
# first, even rounds ours first.  Our soft-RoCE gets its column when it
# exists.
# Parameters: bench_compare.rounds=N bench_compare.args=LAT,RATE,CPU,DEPTH
# bench_compare.only=rxe|siw|tcp (that kind only, both stacks)
# bench_compare.profile=1 (both guests run guest/profile.sh's profiler
# during each pair: "wire-cpu" and "wire-profile" lines)
# needs: /usr/bin/rdma
# timeout: 3000

. /testbed/lib/stack.sh
. /testbed/lib/wire.sh
. /testbed/lib/profile.sh

B=/sys/kernel/debug/verbs_bench
PORT=18515
arg() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^bench_compare\.$1=//p" | tr ',' ' '
}
ROUNDS=$(arg rounds)
ROUNDS=${ROUNDS:-3}
ARGS=$(arg args)
TCP_ARGS=$(echo "$ARGS" | awk 'NF == 4 { print $1, $2, $4 }')
ONLY=$(arg only)
PROFILE=$(arg profile)
FAILED=0

echo "bench-compare-wire: guest $WIRE_SELF, kernel $(uname -r), $ROUNDS round(s), LAT RATE CPU DEPTH = ${ARGS:-defaults}"

# pair ROUND STACK DEVICE SERVER_CMD CLIENT_CMD [TAG]: guest 1 serves,
# guest 2 runs the client and tags its figures with STACK and TAG (the
# device name by default).
pair() {
	local round=$1 stack=$2 dev=$3 scmd=$4 ccmd=$5 tag=${6:-$3}
	local kind=tcp
	case "$dev" in rxe* | siw*) kind=${dev%0} ;; esac
	case "$ONLY" in "" | "$kind") ;; *) return ;; esac
	wire_sync "round $round $stack $tag" || { FAILED=$((FAILED + 1)); return; }
	[ "$PROFILE" = 1 ] && profile_on
	if [ "$WIRE_SELF" = 1 ]; then
		echo "$scmd" >$B/run || {
			echo "bench-compare-wire: '$scmd' failed"
			FAILED=$((FAILED + 1))
		}
		[ "$PROFILE" = 1 ] && profile_off wire "$stack-$tag"
		sed 's/^/    /' $B/server_results
		return
	fi
	sleep 1
	echo "$ccmd" >$B/run || {
		echo "bench-compare-wire: '$ccmd' failed"
		FAILED=$((FAILED + 1))
	}
	[ "$PROFILE" = 1 ] && profile_off wire "$stack-$tag"
	sed 's/^/    /' $B/results
	grep '^vb-result ' $B/results | sed "s/^/cmp $round $stack $tag /"
	grep -q '^verify: ok' $B/results ||
		{ echo "bench-compare-wire: round $round $dev: data not verified"; FAILED=$((FAILED + 1)); }
}

# kind ROUND STACK DRIVER DEV [TAG]: one device of DRIVER on eth0 on both
# guests for one pair, then deleted (rdma_cm picks the device by IP
# address, so one kind at a time).
kind() {
	local r=$1 stack=$2 drv=$3 dev=$4 tag=${5:-$4}
	case "$ONLY" in "" | "$drv") ;; *) return ;; esac
	rdma link add "$dev" type "$drv" netdev "$WIRE_DEV" || {
		echo "bench-compare-wire: rdma link add $dev failed"
		FAILED=$((FAILED + 1))
	}
	pair "$r" "$stack" "$dev" "server $dev $PORT" \
		"client $dev $WIRE_PEER_IP $PORT $ARGS" "$tag"
	wire_sync "round $r $stack $tag: done" || FAILED=$((FAILED + 1))
	rdma link delete "$dev" || FAILED=$((FAILED + 1))
}

upstream_round() {
	local r=$1
	if stack_load upstream && stack_insmod rdma_verbs_bench; then
		kind "$r" upstream rxe rxe0
		kind "$r" upstream siw siw0
		pair "$r" tcp eth0 "tcp-server $PORT" \
			"tcp-client $WIRE_PEER_IP $PORT $TCP_ARGS"
	else
		echo "bench-compare-wire: round $r: upstream's stack did not come up"
		FAILED=$((FAILED + 1))
	fi
	wire_sync "round $r upstream: done" || FAILED=$((FAILED + 1))
	stack_unload || FAILED=$((FAILED + 1))
}

ours_round() {
	local r=$1
	if stack_load ours siw rdma_rxe rdma_cm rdma_verbs_bench; then
		kind "$r" ours rxe rxe0
		kind "$r" ours siw siw0
		echo 0 >/sys/module/siw/parameters/gso_seg_limit
		kind "$r" ours siw siw0 siw0+gso
		echo 1 >/sys/module/siw/parameters/gso_seg_limit
	else
		echo "bench-compare-wire: round $r: our stack did not come up"
		FAILED=$((FAILED + 1))
	fi
	wire_sync "round $r ours: done" || FAILED=$((FAILED + 1))
	stack_unload || FAILED=$((FAILED + 1))
}

r=1
while [ $r -le "$ROUNDS" ]; do
	if [ $((r % 2)) = 1 ]; then
		upstream_round $r
		ours_round $r
	else
		ours_round $r
		upstream_round $r
	fi
	r=$((r + 1))
done
wire_sync "done" || FAILED=$((FAILED + 1))
echo "bench-compare-wire: finished, $FAILED problem(s)"
[ $FAILED = 0 ]
