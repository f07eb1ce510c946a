// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: the net devices of Ethernet (RoCE) ports.  They are
 * dummy-like: every packet is dropped.
 */

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/string.h>

#include "fake_hca_priv.h"

static netdev_tx_t fake_hca_netdev_xmit(struct sk_buff *skb,
					struct net_device *dev)
{
	dev_core_stats_tx_dropped_inc(dev);
	dev_kfree_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops fake_hca_netdev_ops = {
	.ndo_start_xmit = fake_hca_netdev_xmit,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

static void fake_hca_netdev_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &fake_hca_netdev_ops;
	dev->flags |= IFF_NOARP;
	dev->priv_flags |= IFF_NO_QUEUE;
}

void fake_hca_netdev_destroy(struct net_device *dev)
{
	unregister_netdev(dev);
	free_netdev(dev);
}

struct net_device *fake_hca_netdev_create(const struct fake_hca_port_desc *pd)
{
	const char *name = pd->netdev_name ?: "fkhca%d";
	struct net_device *dev;
	int ret;

	dev = alloc_netdev(0, name,
			   strchr(name, '%') ? NET_NAME_ENUM : NET_NAME_USER,
			   fake_hca_netdev_setup);
	if (!dev)
		return ERR_PTR(-ENOMEM);

	if (is_zero_ether_addr(pd->mac))
		eth_hw_addr_random(dev);
	else
		eth_hw_addr_set(dev, pd->mac);

	ret = register_netdev(dev);
	if (ret) {
		free_netdev(dev);
		return ERR_PTR(ret);
	}
	return dev;
}

/**
 * fake_hca_netdev - the net device bound to a port
 * @hca: the device
 * @port: port number
 *
 * Context: Any context; takes no lock. No reference is taken: the net device
 * lives as long as @hca keeps it bound.
 *
 * Return: the net device (created by the fake or passed in), or NULL.
 */
struct net_device *fake_hca_netdev(struct fake_hca *hca, u32 port)
{
	struct fake_hca_port *p = fake_hca_port(hca, port);

	return p ? p->netdev : NULL;
}
EXPORT_SYMBOL_GPL(fake_hca_netdev);
