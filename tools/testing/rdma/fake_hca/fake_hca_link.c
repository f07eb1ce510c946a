// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: link type "fake" (see <kunit/rdma_fake_hca.h>).
 * "rdma link add NAME type fake netdev DEV" creates a device with one
 * RoCE port bound to DEV; it goes with "rdma link delete", with DEV or
 * with the module.  The port speaks RoCE v2 only, or v1 and v2 when the
 * module parameter link_roce_v1 is set as the device is made.
 */

#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "fake_hca_priv.h"

static bool link_roce_v1;
module_param(link_roce_v1, bool, 0644);
MODULE_PARM_DESC(link_roce_v1,
		 "link devices made from now on speak RoCE v1 besides v2 (default: v2 only)");

/**
 * fake_hca_link_desc - the description of a device of link type "fake"
 * @desc: filled in
 * @ndev: the net device the device goes on
 *
 * Context: Any context; reads the MAC of @ndev without a lock (the caller
 * keeps it stable, as rdma_link_ops.newlink does under the RTNL lock).
 */
void fake_hca_link_desc(struct fake_hca_desc *desc, struct net_device *ndev)
{
	u8 eui[8];

	fake_hca_desc_init(desc, 1);
	fake_hca_desc_set_eth(desc, 1);
	desc->port[0].netdev = ndev;
	desc->fw_ver = NULL;
	desc->node_desc = "fake link";
	desc->hca_type = "FAKE-HCA-LINK";
	desc->driver_id = FAKE_HCA_LINK_DRIVER_ID;
	desc->dealloc_driver = true;
	desc->allow_user_unreg = true;
	desc->name_by_user = true;

	/* EUI-64 of the MAC, as RoCE drivers make their GUID. */
	eui[0] = ndev->dev_addr[0] ^ 2;
	eui[1] = ndev->dev_addr[1];
	eui[2] = ndev->dev_addr[2];
	eui[3] = 0xff;
	eui[4] = 0xfe;
	eui[5] = ndev->dev_addr[3];
	eui[6] = ndev->dev_addr[4];
	eui[7] = ndev->dev_addr[5];
	desc->node_guid = get_unaligned_be64(eui);
	desc->sys_image_guid = desc->node_guid;
}
EXPORT_SYMBOL_GPL(fake_hca_link_desc);

static int fake_hca_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct fake_hca_desc *desc;
	struct ib_device *old;
	struct fake_hca *hca;
	int ret;

	if (ndev->addr_len != ETH_ALEN)
		return -EINVAL;
	/* One device per net device, as soft-RoCE does. */
	old = ib_device_get_by_netdev(ndev, FAKE_HCA_LINK_DRIVER_ID);
	if (old) {
		ib_device_put(old);
		return -EEXIST;
	}

	desc = kzalloc(sizeof(*desc), GFP_KERNEL);
	if (!desc)
		return -ENOMEM;
	fake_hca_link_desc(desc, ndev);
	desc->port[0].roce_v1 = READ_ONCE(link_roce_v1);
	desc->name = ibdev_name;
	hca = fake_hca_create(desc);
	kfree(desc);
	if (IS_ERR(hca))
		return PTR_ERR(hca);
	/* The core owns it from now on: not a leak at module exit. */
	hca->demo = true;
	ret = fake_hca_register(hca);
	if (ret)
		goto err_destroy;
	return 0;

err_destroy:
	fake_hca_destroy(hca);
	return ret;
}

static struct rdma_link_ops fake_hca_link_ops = {
	.type = FAKE_HCA_LINK_TYPE,
	.newlink = fake_hca_newlink,
};

/* A net device under a "fake" link goes: its RDMA device goes first. */
static int fake_hca_netdev_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct ib_device *ibdev;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	ibdev = ib_device_get_by_netdev(ndev, FAKE_HCA_LINK_DRIVER_ID);
	if (!ibdev)
		return NOTIFY_DONE;
	ib_unregister_device_queued(ibdev);
	ib_device_put(ibdev);
	return NOTIFY_OK;
}

static struct notifier_block fake_hca_netdev_nb = {
	.notifier_call = fake_hca_netdev_event,
};

/* Module load: the link type and the net device notifier. */
int fake_hca_link_init(void)
{
	int ret;

	ret = register_netdevice_notifier(&fake_hca_netdev_nb);
	if (ret)
		return ret;
	rdma_link_register(&fake_hca_link_ops);
	return 0;
}

/* Module exit: no new link devices; then those there are go. */
void fake_hca_link_exit(void)
{
	rdma_link_unregister(&fake_hca_link_ops);
	unregister_netdevice_notifier(&fake_hca_netdev_nb);
	ib_unregister_driver(FAKE_HCA_LINK_DRIVER_ID);
}

MODULE_ALIAS_RDMA_LINK(FAKE_HCA_LINK_TYPE);
