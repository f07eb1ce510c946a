// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: hardware counters (desc.hw_stats).  The device and each
 * port have the counters of enum fake_hca_stat, whose values the test
 * sets (fake_hca_set_hw_stat()); FAKE_HCA_STAT_OPT is optional and off
 * until the core turns it on through modify_hw_stat.  No per-QP
 * counters: the fake has no QPs.
 */

#include <rdma/ib_verbs.h>

#include "fake_hca_priv.h"

static const struct rdma_stat_desc fake_hca_stat_descs[] = {
	[FAKE_HCA_STAT_RX] = { .name = "fake_rx_pkts" },
	[FAKE_HCA_STAT_TX] = { .name = "fake_tx_pkts" },
	[FAKE_HCA_STAT_OPT] = { .name = "fake_opt_drops",
				.flags = IB_STAT_FLAG_OPTIONAL },
};

static_assert(ARRAY_SIZE(fake_hca_stat_descs) == FAKE_HCA_NUM_STATS);

static struct rdma_hw_stats *fake_hca_alloc_stats(void)
{
	struct rdma_hw_stats *stats;

	stats = rdma_alloc_hw_stats_struct(fake_hca_stat_descs,
					   FAKE_HCA_NUM_STATS,
					   RDMA_HW_STATS_DEFAULT_LIFESPAN);
	/* the driver says which optional counters start off */
	if (stats)
		set_bit(FAKE_HCA_STAT_OPT, stats->is_disabled);
	return stats;
}

static struct rdma_hw_stats *fake_hca_alloc_device_stats(struct ib_device *ibdev)
{
	return fake_hca_alloc_stats();
}

static struct rdma_hw_stats *fake_hca_alloc_port_stats(struct ib_device *ibdev,
						       u32 port)
{
	return fake_hca_alloc_stats();
}

/* Port 0 is the device's set. */
static int fake_hca_get_hw_stats(struct ib_device *ibdev,
				 struct rdma_hw_stats *stats, u32 port,
				 int index)
{
	struct fake_hca *hca = to_fake_hca(ibdev);
	unsigned long flags;
	int i;

	fake_hca_enter(hca, FAKE_HCA_OP_GET_HW_STATS);
	if (port > hca->desc.num_ports)
		return -EINVAL;
	spin_lock_irqsave(&hca->lock, flags);
	for (i = 0; i < FAKE_HCA_NUM_STATS; i++)
		stats->value[i] = hca->hw_stats[port][i];
	spin_unlock_irqrestore(&hca->lock, flags);
	return FAKE_HCA_NUM_STATS;
}

static int fake_hca_modify_hw_stat(struct ib_device *ibdev, u32 port,
				   unsigned int index, bool enable)
{
	struct fake_hca *hca = to_fake_hca(ibdev);
	unsigned long flags;

	fake_hca_enter(hca, FAKE_HCA_OP_MODIFY_HW_STAT);
	if (!port || port > hca->desc.num_ports || index != FAKE_HCA_STAT_OPT)
		return -EINVAL;
	spin_lock_irqsave(&hca->lock, flags);
	hca->hw_stat_on[port] = enable;
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}

const struct ib_device_ops fake_hca_stats_ops = {
	.alloc_hw_device_stats = fake_hca_alloc_device_stats,
	.alloc_hw_port_stats = fake_hca_alloc_port_stats,
	.get_hw_stats = fake_hca_get_hw_stats,
	.modify_hw_stat = fake_hca_modify_hw_stat,
};

/**
 * fake_hca_set_hw_stat - set what a hardware counter reads
 * @hca: a device with desc.hw_stats
 * @port: the port, 0 for the device's counters
 * @stat: the counter
 * @value: its value from now on
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: 0, or -EINVAL for no such port or counter.
 */
int fake_hca_set_hw_stat(struct fake_hca *hca, u32 port,
			 enum fake_hca_stat stat, u64 value)
{
	unsigned long flags;

	if (port > hca->desc.num_ports || stat >= FAKE_HCA_NUM_STATS)
		return -EINVAL;
	spin_lock_irqsave(&hca->lock, flags);
	hca->hw_stats[port][stat] = value;
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(fake_hca_set_hw_stat);

/**
 * fake_hca_hw_stat_on - whether the core turned a port's optional counter on
 * @hca: a device with desc.hw_stats
 * @port: the port
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: what the last modify_hw_stat of the port asked (false before).
 */
bool fake_hca_hw_stat_on(struct fake_hca *hca, u32 port)
{
	unsigned long flags;
	bool on;

	if (port > hca->desc.num_ports)
		return false;
	spin_lock_irqsave(&hca->lock, flags);
	on = hca->hw_stat_on[port];
	spin_unlock_irqrestore(&hca->lock, flags);
	return on;
}
EXPORT_SYMBOL_GPL(fake_hca_hw_stat_on);
