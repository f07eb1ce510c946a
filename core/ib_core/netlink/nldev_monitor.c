// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nldev monitor: RDMA_NLDEV_CMD_MONITOR messages multicast to
 * RDMA_NL_GROUP_NOTIFY in the device's network namespace when a device
 * is registered or unregistered and when a net device is attached to or
 * detached from a port (Linux 6.12's events).  Anyone may listen (the
 * channel allows non-root group members); nothing is sent to a group
 * without members.
 */
#include <linux/netdevice.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "../core_priv.h"
#include "nldev_priv.h"

/*
 * The port and its net device; the net device only when it lives in
 * @net, where the event goes.
 */
static int fill_mon_netdev(struct sk_buff *msg, struct ib_device *device,
			   u32 port, const struct net *net)
{
	struct net_device *netdev = ib_device_get_netdev(device, port);
	int ret = 0;

	if (fill_nldev_handle(msg, device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		ret = -EMSGSIZE;
	else if (netdev && net_eq(dev_net(netdev), net) &&
		 (nla_put_u32(msg, RDMA_NLDEV_ATTR_NDEV_INDEX,
			      netdev->ifindex) ||
		  nla_put_string(msg, RDMA_NLDEV_ATTR_NDEV_NAME,
				 netdev->name)))
		ret = -EMSGSIZE;
	dev_put(netdev);
	return ret;
}

/**
 * rdma_nl_notify_event - tell RDMA_NL_GROUP_NOTIFY about a device event
 * @device: the device
 * @port_num: the port of a net device event, else 0
 * @type: what happened
 *
 * Sleeps (GFP_KERNEL).  A failure only costs the listeners one event.
 *
 * Context: Process context; sleeps (GFP_KERNEL allocation). Takes no lock of
 * its own; for a net device event it calls ib_device_get_netdev() (the
 * driver's get_netdev op, or RCU).
 *
 * Return: 0 (also when nobody listens) or a negative errno.
 */
int rdma_nl_notify_event(struct ib_device *device, u32 port_num,
			 enum rdma_nl_notify_event_type type)
{
	struct net *net = read_pnet(&device->coredev.rdma_net);
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	int ret;

	if (!net)
		return -EINVAL;
	skb = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	nlh = nlmsg_put(skb, 0, 0,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_MONITOR),
			0, 0);
	if (!nlh) {
		ret = -EMSGSIZE;
		goto err_free;
	}
	switch (type) {
	case RDMA_REGISTER_EVENT:
	case RDMA_UNREGISTER_EVENT:
		ret = fill_nldev_handle(skb, device);
		break;
	case RDMA_NETDEV_ATTACH_EVENT:
	case RDMA_NETDEV_DETACH_EVENT:
		ret = fill_mon_netdev(skb, device, port_num, net);
		break;
	default:
		ret = -EINVAL;
	}
	if (ret || nla_put_u8(skb, RDMA_NLDEV_ATTR_EVENT_TYPE, type)) {
		ret = ret ?: -EMSGSIZE;
		goto err_free;
	}
	nlmsg_end(skb, nlh);
	ret = rdma_nl_multicast(net, skb, RDMA_NL_GROUP_NOTIFY, GFP_KERNEL);
	return ret == -ESRCH ? 0 : ret;

err_free:
	nlmsg_free(skb);
	dev_warn_ratelimited(&device->dev,
			     "nldev: event %d of port %u not sent: %d\n",
			     type, port_num, ret);
	return ret;
}
EXPORT_SYMBOL(rdma_nl_notify_event);

/**
 * rdma_nl_notify_register - the events of a device that became visible
 * @device: the device, just registered
 *
 * RDMA_REGISTER_EVENT, then an attach event for every port that already
 * has a net device.
 */
void rdma_nl_notify_register(struct ib_device *device)
{
	struct net_device *netdev;
	u32 port;

	if (rdma_nl_notify_event(device, 0, RDMA_REGISTER_EVENT))
		return;
	rdma_for_each_port(device, port) {
		netdev = ib_device_get_netdev(device, port);
		if (!netdev)
			continue;
		dev_put(netdev);
		if (rdma_nl_notify_event(device, port,
					 RDMA_NETDEV_ATTACH_EVENT))
			return;
	}
}
