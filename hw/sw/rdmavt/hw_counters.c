// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The hardware counters of rdmavt's drivers: what "rdma statistic" and
 * sysfs hw_counters/ show, with upstream rxe's names and meaning (enum
 * rvt_hw_counter), per port and per per-QP counter.
 *
 * Counting: rvt_hw_count() adds to the per-CPU set of the QP's counter
 * when the QP is bound to one, else to its port's (rvt_ibport.hw): no
 * lock, one this_cpu_add().  So a port's own values are those of its
 * unbound QPs; ib_core adds what its per-QP counters counted when it
 * shows the port, and a QP's counts go back to the port when it is
 * unbound.  Reading sums the CPUs.
 *
 * What the in-memory delivery counts (the loop driver):
 *   sent_pkts, rcvd_pkts  every request's packets (by the path MTU, as
 *             the PMA counts them) at its sender, once per try, and at
 *             the QP that takes it; every RC answer (ACK, NAK, READ data)
 *             the other way; a multicast datagram and a MAD of the
 *             driver's fabric at the receiving port
 *   rcvd_rnr_err, send_rnr_err  an RNR NAK, at the requester and at the
 *             responder
 *   completer_retry_err  a request sent again after no answer came
 *   retry_exceeded_err, retry_rnr_exceeded_err  a request failed when
 *             its retries ran out
 *   rdma_sends, rdma_recvs  SENDs and receives completed successfully
 *   link_downed  the port's state went to DOWN
 * Sequence numbers, duplicates and deferred ACKs do not exist there:
 * duplicate_request, out_of_seq_request, rcvd_seq_err, ack_deferred and
 * send_err are for wire drivers, which count what they see with
 * rvt_hw_count() (siw counts its FPDUs as packets).
 *
 * Per-QP counters: rdmavt numbers them itself (the rdma_counter's ID is
 * the index of its struct rvt_counter in rvt_dev_info.counters).  A
 * bound QP points at its counter with RCU; a counter is freed after an
 * RCU grace period, when no engine path can be adding to it any more.
 */

#include <linux/percpu.h>
#include <linux/slab.h>
#include <rdma/rdma_counter.h>
#include <rdma/rdma_vt.h>

#include "vt.h"

static const struct rdma_stat_desc rvt_hw_counter_descs[] = {
	[RVT_CNT_SENT_PKTS].name		= "sent_pkts",
	[RVT_CNT_RCVD_PKTS].name		= "rcvd_pkts",
	[RVT_CNT_DUP_REQ].name			= "duplicate_request",
	[RVT_CNT_OUT_OF_SEQ_REQ].name		= "out_of_seq_request",
	[RVT_CNT_RCV_RNR].name			= "rcvd_rnr_err",
	[RVT_CNT_SND_RNR].name			= "send_rnr_err",
	[RVT_CNT_RCV_SEQ_ERR].name		= "rcvd_seq_err",
	[RVT_CNT_ACK_DEFERRED].name		= "ack_deferred",
	[RVT_CNT_RETRY_EXCEEDED].name		= "retry_exceeded_err",
	[RVT_CNT_RNR_RETRY_EXCEEDED].name	= "retry_rnr_exceeded_err",
	[RVT_CNT_COMP_RETRY].name		= "completer_retry_err",
	[RVT_CNT_SEND_ERR].name			= "send_err",
	[RVT_CNT_LINK_DOWNED].name		= "link_downed",
	[RVT_CNT_RDMA_SEND].name		= "rdma_sends",
	[RVT_CNT_RDMA_RECV].name		= "rdma_recvs",
};

static_assert(ARRAY_SIZE(rvt_hw_counter_descs) == RVT_NUM_HW_COUNTERS);

/* The sums over the CPUs of @pcpu into @val (RVT_NUM_HW_COUNTERS). */
static void rvt_hw_sum(struct rvt_hw_counters __percpu *pcpu, u64 *val)
{
	int cpu, i;

	memset(val, 0, RVT_NUM_HW_COUNTERS * sizeof(*val));
	for_each_possible_cpu(cpu) {
		struct rvt_hw_counters *p = per_cpu_ptr(pcpu, cpu);

		for (i = 0; i < RVT_NUM_HW_COUNTERS; i++)
			val[i] += READ_ONCE(p->c[i]);
	}
}

static struct rdma_hw_stats *rvt_alloc_stats(void)
{
	return rdma_alloc_hw_stats_struct(rvt_hw_counter_descs,
					  RVT_NUM_HW_COUNTERS,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/**
 * rvt_alloc_hw_port_stats - ops.alloc_hw_port_stats of rdmavt's drivers
 * @ibdev: the device
 * @port_num: the port
 *
 * Context: Process context; sleeps.
 *
 * Return: a set of rdmavt's counters, or NULL without memory.
 */
struct rdma_hw_stats *rvt_alloc_hw_port_stats(struct ib_device *ibdev,
					      u32 port_num)
{
	return rvt_alloc_stats();
}
EXPORT_SYMBOL(rvt_alloc_hw_port_stats);

/**
 * rvt_get_hw_stats - ops.get_hw_stats of rdmavt's drivers
 * @ibdev: the device
 * @stats: the port's set
 * @port: the port
 * @index: the counter asked for (all are read)
 *
 * Context: Any context; takes no lock (the core holds @stats' lock).
 *
 * Return: the number of counters read, or -EINVAL for no port.
 */
int rvt_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port, int index)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibdev);
	struct rvt_hw_counters __percpu *hw;

	if (!port || port > rdi->dparms.nports || !stats ||
	    stats->num_counters != RVT_NUM_HW_COUNTERS)
		return -EINVAL;
	hw = READ_ONCE(rdi->ports[port - 1]->hw);
	if (hw)
		rvt_hw_sum(hw, stats->value);
	return RVT_NUM_HW_COUNTERS;
}
EXPORT_SYMBOL(rvt_get_hw_stats);

/**
 * rvt_counter_alloc_stats - ops.counter_alloc_stats of rdmavt's drivers
 * @counter: a new per-QP counter
 *
 * Gives @counter its ID and rdmavt's per-CPU set behind it.
 *
 * Context: Process context; sleeps.
 *
 * Return: the counter's set of values, or NULL without memory or IDs.
 */
struct rdma_hw_stats *rvt_counter_alloc_stats(struct rdma_counter *counter)
{
	struct rvt_dev_info *rdi = ib_to_rvt(counter->device);
	struct rdma_hw_stats *stats;
	struct rvt_counter *cnt;
	u32 id;

	stats = rvt_alloc_stats();
	if (!stats)
		return NULL;
	cnt = kzalloc(sizeof(*cnt), GFP_KERNEL);
	if (!cnt)
		goto err_stats;
	cnt->pcpu = alloc_percpu(struct rvt_hw_counters);
	if (!cnt->pcpu)
		goto err_cnt;
	if (xa_alloc_irq(&rdi->counters, &id, cnt, xa_limit_32b, GFP_KERNEL))
		goto err_pcpu;
	counter->id = id;
	return stats;

err_pcpu:
	free_percpu(cnt->pcpu);
err_cnt:
	kfree(cnt);
err_stats:
	rdma_free_hw_stats_struct(stats);
	return NULL;
}
EXPORT_SYMBOL(rvt_counter_alloc_stats);

/**
 * rvt_counter_dealloc - ops.counter_dealloc of rdmavt's drivers
 * @counter: a counter no QP is bound to any more
 *
 * Context: Process context; sleeps (an RCU grace period).
 *
 * Return: 0.
 */
int rvt_counter_dealloc(struct rdma_counter *counter)
{
	struct rvt_dev_info *rdi = ib_to_rvt(counter->device);
	struct rvt_counter *cnt = xa_erase_irq(&rdi->counters, counter->id);

	if (!cnt)
		return 0;
	/* an engine path may still add to it until a grace period ends */
	synchronize_rcu();
	free_percpu(cnt->pcpu);
	kfree(cnt);
	return 0;
}
EXPORT_SYMBOL(rvt_counter_dealloc);

/**
 * rvt_counter_bind_qp - ops.counter_bind_qp of rdmavt's drivers
 * @counter: the counter
 * @ibqp: a QP bound to none
 *
 * From now on the QP counts in @counter instead of in its port.
 *
 * Context: Process context, under the counter's lock.
 *
 * Return: 0, or -EINVAL for a counter rdmavt does not know.
 */
int rvt_counter_bind_qp(struct rdma_counter *counter, struct ib_qp *ibqp)
{
	struct rvt_dev_info *rdi = ib_to_rvt(counter->device);
	struct rvt_qp *qp = ibqp_to_rvtqp(ibqp);
	struct rvt_counter *cnt = xa_load(&rdi->counters, counter->id);

	if (!cnt)
		return -EINVAL;
	rcu_assign_pointer(qp->hw_cnt, cnt);
	ibqp->counter = counter;
	return 0;
}
EXPORT_SYMBOL(rvt_counter_bind_qp);

/**
 * rvt_counter_unbind_qp - ops.counter_unbind_qp of rdmavt's drivers
 * @ibqp: a bound QP
 *
 * From now on the QP counts in its port again.
 *
 * Context: Process context, under the counter's lock.
 *
 * Return: 0.
 */
int rvt_counter_unbind_qp(struct ib_qp *ibqp)
{
	struct rvt_qp *qp = ibqp_to_rvtqp(ibqp);

	RCU_INIT_POINTER(qp->hw_cnt, NULL);
	ibqp->counter = NULL;
	return 0;
}
EXPORT_SYMBOL(rvt_counter_unbind_qp);

/**
 * rvt_counter_update_stats - ops.counter_update_stats of rdmavt's drivers
 * @counter: the counter
 *
 * Context: Process context, under the counter's lock (which serialises
 * the writers of its values; the set's own lock is not taken).
 *
 * Return: 0, or -EINVAL for a counter rdmavt does not know.
 */
int rvt_counter_update_stats(struct rdma_counter *counter)
{
	struct rvt_dev_info *rdi = ib_to_rvt(counter->device);
	struct rdma_hw_stats *stats = counter->stats;
	struct rvt_counter *cnt;

	cnt = xa_load(&rdi->counters, counter->id);
	if (!cnt || stats->num_counters != RVT_NUM_HW_COUNTERS)
		return -EINVAL;
	rvt_hw_sum(cnt->pcpu, stats->value);
	return 0;
}
EXPORT_SYMBOL(rvt_counter_update_stats);

/*
 * The ops above as one set: a driver that wants rdmavt's hardware
 * counters passes it to ib_set_device_ops() before rvt_register_device().
 */
const struct ib_device_ops rvt_hw_counter_ops = {
	.alloc_hw_port_stats = rvt_alloc_hw_port_stats,
	.get_hw_stats = rvt_get_hw_stats,
	.counter_alloc_stats = rvt_counter_alloc_stats,
	.counter_dealloc = rvt_counter_dealloc,
	.counter_bind_qp = rvt_counter_bind_qp,
	.counter_unbind_qp = rvt_counter_unbind_qp,
	.counter_update_stats = rvt_counter_update_stats,
};
EXPORT_SYMBOL(rvt_hw_counter_ops);

/*
 * rvt_hw_counters_init - the per-CPU counters of the ports of @rdi, at
 * registration; -ENOMEM.  rvt_hw_counters_release() frees them.
 */
int rvt_hw_counters_init(struct rvt_dev_info *rdi)
{
	u32 i;

	for (i = 0; i < rdi->dparms.nports; i++) {
		struct rvt_ibport *ibp = rdi->ports[i];

		if (ibp->hw)
			continue;
		ibp->hw = alloc_percpu(struct rvt_hw_counters);
		if (!ibp->hw)
			return -ENOMEM;
	}
	return 0;
}

void rvt_hw_counters_release(struct rvt_dev_info *rdi)
{
	u32 i;

	WARN_ON(!xa_empty(&rdi->counters));
	xa_destroy(&rdi->counters);
	for (i = 0; i < rdi->dparms.nports; i++) {
		if (!rdi->ports[i])
			continue;
		free_percpu(rdi->ports[i]->hw);
		rdi->ports[i]->hw = NULL;
	}
}
