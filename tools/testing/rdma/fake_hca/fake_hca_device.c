// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: descriptions of fake devices (struct fake_hca_desc) and
 * their life cycle: create, register, unregister, destroy.
 */

#include <linux/err.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

#include "fake_hca_priv.h"

/* Descriptions */

/**
 * fake_hca_desc_set_ib - make a port of a description an active IB port
 * @desc: the description
 * @port: port number, from 1
 *
 * LID = 0x10 * port, SM LID 1, 4X EDR, 8 GIDs (GID 0 from the node
 * GUID), 4 P_Keys (0xffff at index 0).
 *
 * Context: Any context; touches only @desc.
 */
void fake_hca_desc_set_ib(struct fake_hca_desc *desc, u32 port)
{
	struct fake_hca_port_desc *pd = &desc->port[port - 1];

	memset(pd, 0, sizeof(*pd));
	pd->link_layer = IB_LINK_LAYER_INFINIBAND;
	pd->state = IB_PORT_ACTIVE;
	pd->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	pd->lid = 0x10 * port;
	pd->sm_lid = 1;
	pd->port_cap_flags = FAKE_HCA_PORT_SM_DISABLED | FAKE_HCA_PORT_CM_SUP |
			     FAKE_HCA_PORT_SYS_IMAGE_GUID |
			     FAKE_HCA_PORT_CLIENT_REG_SUP;
	pd->active_width = IB_WIDTH_4X;
	pd->active_speed = IB_SPEED_EDR;
	pd->active_mtu = IB_MTU_4096;
	pd->gid_tbl_len = 8;
	pd->pkey_tbl_len = 4;
}
EXPORT_SYMBOL_GPL(fake_hca_desc_set_ib);

/**
 * fake_hca_desc_set_eth - make a port of a description an active RoCE v2
 * port with a net device the fake creates
 * @desc: the description
 * @port: port number, from 1
 *
 * 1X EDR (25 Gb/s), 16 GIDs, one P_Key (0xffff), random MAC.
 *
 * Context: Any context; touches only @desc (the net device is created
 * later, by fake_hca_create()).
 */
void fake_hca_desc_set_eth(struct fake_hca_desc *desc, u32 port)
{
	struct fake_hca_port_desc *pd = &desc->port[port - 1];

	memset(pd, 0, sizeof(*pd));
	pd->link_layer = IB_LINK_LAYER_ETHERNET;
	pd->state = IB_PORT_ACTIVE;
	pd->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	pd->port_cap_flags = FAKE_HCA_PORT_CM_SUP | FAKE_HCA_PORT_IP_BASED_GIDS;
	pd->active_width = IB_WIDTH_1X;
	pd->active_speed = IB_SPEED_EDR;
	pd->active_mtu = IB_MTU_1024;
	pd->gid_tbl_len = 16;
	pd->pkey_tbl_len = 1;
}
EXPORT_SYMBOL_GPL(fake_hca_desc_set_eth);

/**
 * fake_hca_desc_init - a description with sensible defaults
 * @desc: the description to fill
 * @num_ports: number of ports, all of them IB (fake_hca_desc_set_ib())
 *
 * Name template "fake%d", driver id FAKE_HCA_DRIVER_ID, no dealloc_driver,
 * a kverbs provider.
 *
 * Context: Any context; touches only @desc.
 */
void fake_hca_desc_init(struct fake_hca_desc *desc, u32 num_ports)
{
	u32 port;

	memset(desc, 0, sizeof(*desc));
	desc->num_ports = num_ports;
	desc->node_guid = 0x0002fa4e00000100ULL;
	desc->sys_image_guid = 0x0002fa4e0000ff00ULL;
	desc->fw_ver = "1.2.3";
	desc->node_desc = "fake HCA";
	desc->hca_type = "FAKE-HCA";
	desc->driver_id = FAKE_HCA_DRIVER_ID;
	for (port = 1; port <= num_ports && port <= FAKE_HCA_MAX_PORTS; port++)
		fake_hca_desc_set_ib(desc, port);
}
EXPORT_SYMBOL_GPL(fake_hca_desc_init);

static int fake_hca_check_desc(const struct fake_hca_desc *desc)
{
	u32 i;

	if (!desc->num_ports || desc->num_ports > FAKE_HCA_MAX_PORTS)
		return -EINVAL;
	for (i = 0; i < desc->num_ports; i++) {
		const struct fake_hca_port_desc *pd = &desc->port[i];

		if (pd->link_layer != IB_LINK_LAYER_INFINIBAND &&
		    pd->link_layer != IB_LINK_LAYER_ETHERNET)
			return -EINVAL;
		if (pd->gid_tbl_len < 1 ||
		    pd->gid_tbl_len > FAKE_HCA_MAX_TBL_LEN ||
		    pd->pkey_tbl_len < 1 ||
		    pd->pkey_tbl_len > FAKE_HCA_MAX_TBL_LEN ||
		    pd->num_gids > pd->gid_tbl_len ||
		    pd->num_pkeys > pd->pkey_tbl_len)
			return -EINVAL;
		if (pd->roce_v1 && pd->link_layer != IB_LINK_LAYER_ETHERNET)
			return -EINVAL;
	}
	return 0;
}

/* Life cycle */

/*
 * Undo fake_hca_create() except for the ib_device itself: called by
 * dealloc_driver, or by fake_hca_destroy() before ib_dealloc_device().
 */
void fake_hca_release(struct fake_hca *hca)
{
	u32 i;

	if (hca->released)
		return;
	hca->released = true;
	fake_hca_iw_release(hca);

	mutex_lock(&fake_hca_list_lock);
	list_del_init(&hca->list);
	mutex_unlock(&fake_hca_list_lock);

	for (i = 0; hca->ports && i < hca->desc.num_ports; i++) {
		struct fake_hca_port *port = &hca->ports[i];

		if (port->netdev) {
			/* Drop the core's reference before the netdev goes. */
			ib_device_set_netdev(&hca->ibdev, NULL, i + 1);
			if (port->own_netdev)
				fake_hca_netdev_destroy(port->netdev);
			port->netdev = NULL;
		}
		kfree(port->gids);
		kfree(port->pkeys);
		kfree(port->hw_gids);
	}
	kfree(hca->ports);
	hca->ports = NULL;
	kfree(hca->name);
	hca->name = NULL;
}

static int fake_hca_init_port(struct fake_hca *hca,
			      const struct fake_hca_desc *desc, u32 port_num)
{
	const struct fake_hca_port_desc *pd = &desc->port[port_num - 1];
	struct fake_hca_port *port = &hca->ports[port_num - 1];
	struct net_device *ndev;
	unsigned int i;
	int ret;

	port->attr = *pd;
	port->attr.gids = NULL;
	port->attr.pkeys = NULL;
	port->attr.netdev = NULL;
	port->attr.netdev_name = NULL;

	port->pkeys = kcalloc(pd->pkey_tbl_len, sizeof(u16), GFP_KERNEL);
	if (!port->pkeys)
		return -ENOMEM;
	if (pd->pkeys) {
		for (i = 0; i < pd->num_pkeys; i++)
			port->pkeys[i] = pd->pkeys[i];
	} else {
		port->pkeys[0] = 0xffff;
	}

	if (pd->link_layer == IB_LINK_LAYER_INFINIBAND) {
		port->gids = kcalloc(pd->gid_tbl_len, sizeof(union ib_gid),
				     GFP_KERNEL);
		if (!port->gids)
			return -ENOMEM;
		if (pd->gids) {
			for (i = 0; i < pd->num_gids; i++)
				port->gids[i] = pd->gids[i];
		} else {
			port->gids[0].global.subnet_prefix =
				cpu_to_be64(0xfe80000000000000ULL);
			port->gids[0].global.interface_id =
				cpu_to_be64(hca->desc.node_guid + port_num);
		}
		return 0;
	}

	port->hw_gids = kcalloc(pd->gid_tbl_len, sizeof(*port->hw_gids),
				GFP_KERNEL);
	if (!port->hw_gids)
		return -ENOMEM;
	if (pd->no_netdev)
		return 0;

	if (pd->netdev) {
		ndev = pd->netdev;
	} else {
		ndev = fake_hca_netdev_create(pd);
		if (IS_ERR(ndev))
			return PTR_ERR(ndev);
		port->own_netdev = true;
	}
	port->netdev = ndev;
	ret = ib_device_set_netdev(&hca->ibdev, ndev, port_num);
	if (ret) {
		/* fake_hca_release() must not unbind what was never bound */
		if (port->own_netdev)
			fake_hca_netdev_destroy(ndev);
		port->netdev = NULL;
		return ret;
	}
	return 0;
}

/**
 * fake_hca_create - allocate a fake device, not registered yet
 * @desc: what it looks like; copied, so it may live on the stack
 *
 * Net devices of Ethernet ports are created and bound here.
 *
 * Context: Process context; sleeps (GFP_KERNEL allocations, ib_alloc_device(),
 * register_netdev() of the Ethernet ports' net devices, which takes the RTNL
 * lock). Takes fake_hca_list_lock (a mutex).
 *
 * Return: the device or an ERR_PTR().  Free it with fake_hca_destroy().
 */
struct fake_hca *fake_hca_create(const struct fake_hca_desc *desc)
{
	struct fake_hca *hca;
	u32 port;
	int ret;

	ret = fake_hca_check_desc(desc);
	if (ret)
		return ERR_PTR(ret);

	hca = ib_alloc_device(fake_hca, ibdev);
	if (!hca)
		return ERR_PTR(-ENOMEM);

	hca->desc = *desc;
	spin_lock_init(&hca->lock);
	INIT_LIST_HEAD(&hca->list);
	/* Verbatim, also when too long: the core is to refuse it. */
	hca->name = kstrdup(desc->name ?: "fake%d", GFP_KERNEL);
	if (!hca->name) {
		ib_dealloc_device(&hca->ibdev);
		return ERR_PTR(-ENOMEM);
	}
	hca->desc.name = NULL;
	strscpy(hca->fw_ver, desc->fw_ver ?: "", sizeof(hca->fw_ver));
	hca->desc.fw_ver = NULL;
	strscpy(hca->hca_type, desc->hca_type ?: "", sizeof(hca->hca_type));
	hca->desc.hca_type = NULL;
	hca->desc.node_desc = NULL;
	for (port = 0; port < FAKE_HCA_MAX_PORTS; port++) {
		hca->desc.port[port].gids = NULL;
		hca->desc.port[port].pkeys = NULL;
		hca->desc.port[port].netdev = NULL;
		hca->desc.port[port].netdev_name = NULL;
	}

	ib_set_device_ops(&hca->ibdev, &fake_hca_base_ops);
	ib_set_device_ops(&hca->ibdev, &fake_hca_table_ops);
	if (desc->fw_ver)
		ib_set_device_ops(&hca->ibdev, &fake_hca_fw_ops);
	/* First: its modify_qp wins over the kverbs one. */
	if (desc->iwarp)
		ib_set_device_ops(&hca->ibdev, &fake_hca_iw_ops);
	if (!desc->no_kverbs)
		ib_set_device_ops(&hca->ibdev, &fake_hca_kverbs_ops);
	if (desc->dealloc_driver)
		ib_set_device_ops(&hca->ibdev, &fake_hca_dealloc_ops);
	if (desc->hw_stats)
		ib_set_device_ops(&hca->ibdev, &fake_hca_stats_ops);
	if (desc->user_mmap)
		ib_set_device_ops(&hca->ibdev, &fake_hca_user_ops);
	/* Normally from a driver's static ops table; ours varies. */
	hca->ibdev.ops.driver_id = desc->driver_id;

	hca->ibdev.node_type = RDMA_NODE_IB_CA;
	hca->ibdev.phys_port_cnt = desc->num_ports;
	hca->ibdev.num_comp_vectors = 1;
	hca->ibdev.node_guid = cpu_to_be64(desc->node_guid);
	hca->ibdev.use_cq_dim = desc->use_cq_dim;
	if (desc->name_by_user)
		ib_mark_name_assigned_by_user(&hca->ibdev);
	strscpy_pad(hca->ibdev.node_desc, desc->node_desc ?: "",
		    sizeof(hca->ibdev.node_desc));

	mutex_lock(&fake_hca_list_lock);
	list_add_tail(&hca->list, &fake_hca_list);
	mutex_unlock(&fake_hca_list_lock);

	hca->ports = kcalloc(desc->num_ports, sizeof(*hca->ports), GFP_KERNEL);
	if (!hca->ports) {
		ret = -ENOMEM;
		goto err;
	}
	for (port = 1; port <= desc->num_ports; port++) {
		ret = fake_hca_init_port(hca, desc, port);
		if (ret)
			goto err;
	}
	if (desc->iwarp) {
		ret = fake_hca_iw_init(hca);
		if (ret)
			goto err;
	}
	return hca;

err:
	fake_hca_release(hca);
	ib_dealloc_device(&hca->ibdev);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(fake_hca_create);

/**
 * fake_hca_register - register a fake device with the core
 * @hca: the device
 *
 * Context: Process context; sleeps (ib_register_device()). Not with the RTNL
 * lock held.
 *
 * Return: what ib_register_device() returned.  On failure the device is
 * still allocated (and must be destroyed), whether or not it has a
 * dealloc_driver op.
 */
int fake_hca_register(struct fake_hca *hca)
{
	return fake_hca_register_as(hca, hca->name);
}
EXPORT_SYMBOL_GPL(fake_hca_register);

/**
 * fake_hca_register_as - register a fake device under another name
 * @hca: the device
 * @name: name or template, instead of the description's
 *
 * Context: Process context; sleeps (ib_register_device()). Not with the RTNL
 * lock held.
 *
 * Return: what ib_register_device() returned.
 */
int fake_hca_register_as(struct fake_hca *hca, const char *name)
{
	int ret;

	ret = ib_register_device(&hca->ibdev, name, NULL);
	if (!ret)
		hca->registered = true;
	return ret;
}
EXPORT_SYMBOL_GPL(fake_hca_register_as);

/**
 * fake_hca_unregister - unregister a fake device
 * @hca: the device
 *
 * With a dealloc_driver op the core frees the device: @hca is gone when
 * this returns.
 *
 * Context: Process context; sleeps until the core's clients are gone
 * (ib_unregister_device()). Not with the RTNL lock held.
 */
void fake_hca_unregister(struct fake_hca *hca)
{
	hca->registered = false;
	ib_unregister_device(&hca->ibdev);
}
EXPORT_SYMBOL_GPL(fake_hca_unregister);

/**
 * fake_hca_destroy - unregister (if registered) and free a fake device
 * @hca: the device
 *
 * Context: Process context; sleeps (ib_unregister_device(),
 * unregister_netdev() of the net devices the fake created, which takes the
 * RTNL lock). Takes fake_hca_list_lock (a mutex).
 */
void fake_hca_destroy(struct fake_hca *hca)
{
	if (hca->registered) {
		fake_hca_unregister(hca);
		/* With dealloc_driver, the core has freed it. */
		if (hca->desc.dealloc_driver)
			return;
	}
	/* Without dealloc_driver the driver frees its own part first. */
	if (!hca->desc.dealloc_driver)
		fake_hca_release(hca);
	ib_dealloc_device(&hca->ibdev);
}
EXPORT_SYMBOL_GPL(fake_hca_destroy);

/**
 * fake_hca_create_registered - fake_hca_create() and fake_hca_register()
 * @desc: what the device looks like
 *
 * Context: Process context; sleeps, as fake_hca_create() and
 * fake_hca_register() do.
 *
 * Return: the registered device or an ERR_PTR(); nothing is left behind
 * on failure.
 */
struct fake_hca *fake_hca_create_registered(const struct fake_hca_desc *desc)
{
	struct fake_hca *hca;
	int ret;

	hca = fake_hca_create(desc);
	if (IS_ERR(hca))
		return hca;
	ret = fake_hca_register(hca);
	if (ret) {
		fake_hca_destroy(hca);
		return ERR_PTR(ret);
	}
	return hca;
}
EXPORT_SYMBOL_GPL(fake_hca_create_registered);
