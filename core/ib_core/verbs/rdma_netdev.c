// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Net devices that a driver accelerates: a ULP (IPoIB) asks the port's
 * driver for the parameters of its net device (private size, queues, an
 * initialisation hook).  A driver without the op answers nothing, and
 * the ULP then makes a plain net device and drives the port through the
 * verbs itself.
 */

#include <linux/export.h>
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>

static int rdma_netdev_params(struct ib_device *device, u32 port_num,
			      enum rdma_netdev_t type,
			      struct rdma_netdev_alloc_params *params)
{
	int ret;

	if (!device->ops.rdma_netdev_get_params)
		return -EOPNOTSUPP;
	memset(params, 0, sizeof(*params));
	ret = device->ops.rdma_netdev_get_params(device, port_num, type,
						 params);
	if (ret)
		return ret;
	/* a driver must leave room for the part every user shares */
	if (params->sizeof_priv < sizeof(struct rdma_netdev) ||
	    !params->initialize_rdma_netdev)
		return -EINVAL;
	return 0;
}

/**
 * rdma_alloc_netdev - allocate a net device whose driver part the RDMA
 *	driver provides
 * @device: the RDMA device
 * @port_num: its port the net device will run on
 * @type: what the net device is for (RDMA_NETDEV_IPOIB, ...)
 * @name: name or name template ("ib%d") of the net device
 * @name_assign_type: NET_NAME_* of @name
 * @setup: the ULP's setup of the net device (alloc_netdev_mqs())
 *
 * The private area's size and the number of queues come from the
 * driver's rdma_netdev_get_params().  Pass the result to
 * rdma_init_netdev() and free it with free_netdev().
 *
 * Context: Process context; sleeps.
 *
 * Return: the net device, ERR_PTR(-EOPNOTSUPP) when the driver has no
 * net device of @type (or no such op at all), another ERR_PTR() on
 * failure.
 */
struct net_device *rdma_alloc_netdev(struct ib_device *device, u32 port_num,
				     enum rdma_netdev_t type, const char *name,
				     unsigned char name_assign_type,
				     void (*setup)(struct net_device *))
{
	struct rdma_netdev_alloc_params params;
	struct net_device *netdev;
	int ret;

	ret = rdma_netdev_params(device, port_num, type, &params);
	if (ret)
		return ERR_PTR(ret);
	netdev = alloc_netdev_mqs(params.sizeof_priv, name, name_assign_type,
				  setup, params.txqs ?: 1, params.rxqs ?: 1);
	return netdev ?: ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL(rdma_alloc_netdev);

/**
 * rdma_init_netdev - let the RDMA driver set up its part of a net device
 * @device: the RDMA device
 * @port_num: the port
 * @type: what the net device is for
 * @name: unused (kept for the callers' sake, as upstream's signature)
 * @name_assign_type: unused
 * @setup: unused
 * @netdev: a net device with a private area of the size the driver asked
 *	for (rdma_alloc_netdev(), or one embedded in the ULP's own)
 *
 * Context: Process context; sleeps.
 *
 * Return: 0, -EOPNOTSUPP when the driver has no net device of @type, or
 * the driver's error.
 */
int rdma_init_netdev(struct ib_device *device, u32 port_num,
		     enum rdma_netdev_t type, const char *name,
		     unsigned char name_assign_type,
		     void (*setup)(struct net_device *),
		     struct net_device *netdev)
{
	struct rdma_netdev_alloc_params params;
	int ret;

	ret = rdma_netdev_params(device, port_num, type, &params);
	if (ret)
		return ret;
	return params.initialize_rdma_netdev(device, port_num, netdev,
					     params.param);
}
EXPORT_SYMBOL(rdma_init_netdev);
