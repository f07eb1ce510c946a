// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: the GID and P_Key tables.  An IB port serves its GIDs
 * and P_Keys through query_gid and query_pkey from tables a test may
 * change (fake_hca_set_gid(), fake_hca_set_pkey()); a RoCE port's GID
 * table belongs to the core, and the fake records what the core
 * programs through add_gid and del_gid (fake_hca_hw_gid()).
 */

#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

#include "fake_hca_priv.h"

static int fake_hca_query_gid(struct ib_device *ibdev, u32 port_num,
			      int index, union ib_gid *gid)
{
	struct fake_hca *hca = to_fake_hca(ibdev);
	struct fake_hca_port *port = fake_hca_port(hca, port_num);
	unsigned long flags;
	int ret;

	ret = fake_hca_enter(hca, FAKE_HCA_OP_QUERY_GID);
	if (ret)
		return ret;
	if (!port || index < 0 || index >= port->attr.gid_tbl_len)
		return -EINVAL;

	spin_lock_irqsave(&hca->lock, flags);
	if (port->gids)
		*gid = port->gids[index];
	else if (port->hw_gids[index].valid)
		*gid = port->hw_gids[index].gid;
	else
		memset(gid, 0, sizeof(*gid));
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}

static int fake_hca_query_pkey(struct ib_device *ibdev, u32 port_num,
			       u16 index, u16 *pkey)
{
	struct fake_hca *hca = to_fake_hca(ibdev);
	struct fake_hca_port *port = fake_hca_port(hca, port_num);
	unsigned long flags;
	int ret;

	ret = fake_hca_enter(hca, FAKE_HCA_OP_QUERY_PKEY);
	if (ret)
		return ret;
	if (!port || index >= port->attr.pkey_tbl_len)
		return -EINVAL;

	spin_lock_irqsave(&hca->lock, flags);
	*pkey = port->pkeys[index];
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}

static int fake_hca_add_gid(const struct ib_gid_attr *attr, void **context)
{
	struct fake_hca *hca = to_fake_hca(attr->device);
	struct fake_hca_port *port = fake_hca_port(hca, attr->port_num);
	struct fake_hca_hw_gid *hw;
	struct net_device *ndev;
	unsigned long flags;
	int ret;

	ret = fake_hca_enter(hca, FAKE_HCA_OP_ADD_GID);
	if (ret)
		return ret;
	if (!port || !port->hw_gids || attr->index >= port->attr.gid_tbl_len)
		return -EINVAL;

	spin_lock_irqsave(&hca->lock, flags);
	hw = &port->hw_gids[attr->index];
	hw->valid = true;
	hw->gid = attr->gid;
	hw->gid_type = attr->gid_type;
	rcu_read_lock();
	ndev = rcu_dereference(attr->ndev);
	hw->ifindex = ndev ? ndev->ifindex : 0;
	rcu_read_unlock();
	spin_unlock_irqrestore(&hca->lock, flags);
	*context = hw;
	return 0;
}

static int fake_hca_del_gid(const struct ib_gid_attr *attr, void **context)
{
	struct fake_hca *hca = to_fake_hca(attr->device);
	struct fake_hca_port *port = fake_hca_port(hca, attr->port_num);
	unsigned long flags;
	int ret;

	ret = fake_hca_enter(hca, FAKE_HCA_OP_DEL_GID);
	if (ret)
		return ret;
	if (!port || !port->hw_gids || attr->index >= port->attr.gid_tbl_len)
		return -EINVAL;

	spin_lock_irqsave(&hca->lock, flags);
	memset(&port->hw_gids[attr->index], 0, sizeof(port->hw_gids[0]));
	spin_unlock_irqrestore(&hca->lock, flags);
	*context = NULL;
	return 0;
}

/* The GID and P_Key tables of every fake device. */
const struct ib_device_ops fake_hca_table_ops = {
	.query_gid = fake_hca_query_gid,
	.query_pkey = fake_hca_query_pkey,
	.add_gid = fake_hca_add_gid,
	.del_gid = fake_hca_del_gid,
};

/**
 * fake_hca_set_pkey - change one P_Key of a port (no event is sent)
 * @hca: the device
 * @port: port number
 * @index: table index
 * @pkey: new value
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: 0 or -EINVAL.
 */
int fake_hca_set_pkey(struct fake_hca *hca, u32 port, u16 index, u16 pkey)
{
	struct fake_hca_port *p = fake_hca_port(hca, port);
	unsigned long flags;

	if (!p || index >= p->attr.pkey_tbl_len)
		return -EINVAL;
	spin_lock_irqsave(&hca->lock, flags);
	p->pkeys[index] = pkey;
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(fake_hca_set_pkey);

/**
 * fake_hca_set_gid - change one GID of an IB port (no event is sent)
 * @hca: the device
 * @port: port number
 * @index: table index
 * @gid: new value
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: 0 or -EINVAL (also for Ethernet ports: their table belongs to
 * the core).
 */
int fake_hca_set_gid(struct fake_hca *hca, u32 port, int index,
		     const union ib_gid *gid)
{
	struct fake_hca_port *p = fake_hca_port(hca, port);
	unsigned long flags;

	if (!p || !p->gids || index < 0 || index >= p->attr.gid_tbl_len)
		return -EINVAL;
	spin_lock_irqsave(&hca->lock, flags);
	p->gids[index] = *gid;
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(fake_hca_set_gid);

/**
 * fake_hca_hw_gid - what the core programmed at one index of a RoCE port
 * @hca: the device
 * @port: port number
 * @index: GID index
 * @out: copy of the entry
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: whether the entry is valid (added and not deleted since).
 */
bool fake_hca_hw_gid(struct fake_hca *hca, u32 port, unsigned int index,
		     struct fake_hca_hw_gid *out)
{
	struct fake_hca_port *p = fake_hca_port(hca, port);
	unsigned long flags;

	memset(out, 0, sizeof(*out));
	if (!p || !p->hw_gids || index >= p->attr.gid_tbl_len)
		return false;
	spin_lock_irqsave(&hca->lock, flags);
	*out = p->hw_gids[index];
	spin_unlock_irqrestore(&hca->lock, flags);
	return out->valid;
}
EXPORT_SYMBOL_GPL(fake_hca_hw_gid);

/**
 * fake_hca_hw_gid_count - number of valid GIDs the core programmed into
 * a RoCE port
 * @hca: the device
 * @port: port number
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: the count, 0 for a bad port or a port that is not RoCE.
 */
unsigned int fake_hca_hw_gid_count(struct fake_hca *hca, u32 port)
{
	struct fake_hca_port *p = fake_hca_port(hca, port);
	unsigned int n = 0;
	unsigned long flags;
	int i;

	if (!p || !p->hw_gids)
		return 0;
	spin_lock_irqsave(&hca->lock, flags);
	for (i = 0; i < p->attr.gid_tbl_len; i++)
		n += p->hw_gids[i].valid;
	spin_unlock_irqrestore(&hca->lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(fake_hca_hw_gid_count);
