# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Helpers of the scenarios that drive the rdma_test_cm ULP through its
# debugfs files (78-ib-rdma-cm, 79-rxe-rdma-cm; Documentation/testing.rst,
# "Test ULPs").  Sourced after ktap.sh; sets TCM_D and TCM_ZERO.

TCM_D=/sys/kernel/debug/rdma_test_cm
# the status file of a module that holds nothing, its lines joined
TCM_ZERO="ids 0 listeners 0 connections 0 pds 0 cqs 0 qps 0 buffers 0 "

# tcm NS|- COMMAND...: one command, written from network namespace NS
# (a name under /run/netns) or (-) the initial one; the write's status.
# nsenter enters the network namespace only: "ip netns exec" also mounts
# a sysfs of its own, without debugfs below it.
tcm() {
	local ns=$1
	shift
	if [ "$ns" = - ]; then
		echo "$*" >$TCM_D/cmd
	else
		nsenter --net=/run/netns/"$ns" sh -c "echo $* >$TCM_D/cmd"
	fi
}

# tcm_log_has TEXT: a line of the log holds TEXT
tcm_log_has() { grep -qF -- "$1" $TCM_D/log; }

# tcm_log_line TEXT: the last line of the log holding TEXT
tcm_log_line() { grep -F -- "$1" $TCM_D/log | tail -n 1; }

# tcm_status_is LINE: the status file, its lines joined by blanks, is
# LINE (read by the shell: no process)
tcm_status_is() {
	local l v=
	while IFS= read -r l; do
		v="$v$l "
	done <$TCM_D/status
	[ "$v" = "$1" ]
}

# tcm_fail NAME: case NAME failed; the log, joined by '|', says why
tcm_fail() {
	ktap_fail "$1" "$(tr '\n' '|' <$TCM_D/log)"
}
