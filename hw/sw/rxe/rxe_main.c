// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Module rdma_rxe: soft-RoCE devices on Ethernet net devices.
 *
 * "rdma link add NAME type rxe netdev DEV" makes a device whose one port
 * sits on DEV; "rdma link delete NAME", DEV going away, or unloading the
 * module removes it.  A net device carries at most one soft-RoCE device.
 *
 * Lock order of the module (outermost first): the RTNL lock (netdev
 * notifier), then ib_core's device locks; rxe_ns_lock (rxe_net.c) nests
 * inside neither and holds nothing else.  The receive path runs in
 * softirq context and takes only the destination QP's r_lock (rdmavt).
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <rdma/rdma_netlink.h>

#include "rxe.h"

static int rxe_newlink(const char *name, struct net_device *ndev)
{
	return rxe_device_add(name, ndev);
}

static struct rdma_link_ops rxe_link_ops = {
	.type = "rxe",
	.newlink = rxe_newlink,
};

/*
 * The net device under a device changed.  Runs under the RTNL lock:
 * nothing here may wait for a device's unregistration, which takes that
 * lock; ib_unregister_device_queued() hands it to a workqueue.
 */
static int rxe_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct ib_device *ibdev;
	struct rxe_dev *rxe;
	bool up;

	ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	if (!ibdev)
		return NOTIFY_DONE;
	rxe = to_rxe_dev(ibdev);
	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		/* the port is active while DEV is up with a carrier */
		up = netif_running(ndev) && netif_carrier_ok(ndev);
		rxe_port_event(rxe, up ? IB_EVENT_PORT_ACTIVE :
				    IB_EVENT_PORT_ERR);
		if (event == NETDEV_DOWN)
			rvt_hw_count_port(&rxe->port, RVT_CNT_LINK_DOWNED, 1);
		break;
	case NETDEV_UNREGISTER:
		ib_unregister_device_queued(ibdev);
		break;
	default:
		break;
	}
	ib_device_put(ibdev);
	return NOTIFY_OK;
}

static struct notifier_block rxe_netdev_nb = {
	.notifier_call = rxe_netdev_event,
};

static int __init rxe_init(void)
{
	int ret;

	ret = rxe_net_init();
	if (ret)
		return ret;
	ret = register_netdevice_notifier(&rxe_netdev_nb);
	if (ret)
		goto err_net;
	rdma_link_register(&rxe_link_ops);
	return 0;

err_net:
	rxe_net_exit();
	return ret;
}

/*
 * No new device after rdma_link_unregister(); ib_unregister_driver()
 * then unregisters and frees every device, waiting for those whose
 * unregistration the notifier queued.
 */
static void __exit rxe_exit(void)
{
	rdma_link_unregister(&rxe_link_ops);
	unregister_netdevice_notifier(&rxe_netdev_nb);
	ib_unregister_driver(RDMA_DRIVER_RXE);
	rxe_net_exit();
}

module_init(rxe_init);
module_exit(rxe_exit);

MODULE_DESCRIPTION("Soft-RoCE: RDMA over Converged Ethernet (v1 and v2), on rdmavt");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS_RDMA_LINK("rxe");
