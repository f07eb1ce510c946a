// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: the device and its ports as the driver ops report them
 * (query_device, query_port, get_port_immutable, ...), the sysfs
 * attribute hca_type, and the port "hardware" a test changes (LID, SM,
 * state) before it dispatches the event a real driver would send.
 */

#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <rdma/ib_verbs.h>

#include "fake_hca_priv.h"

static int fake_hca_query_device(struct ib_device *ibdev,
				 struct ib_device_attr *attr,
				 struct ib_udata *udata)
{
	struct fake_hca *hca = to_fake_hca(ibdev);
	int max_pkeys = 0;
	u32 i;
	int ret;

	ret = fake_hca_enter(hca, FAKE_HCA_OP_QUERY_DEVICE);
	if (ret)
		return ret;

	for (i = 0; i < hca->desc.num_ports; i++)
		max_pkeys = max(max_pkeys, hca->desc.port[i].pkey_tbl_len);

	memset(attr, 0, sizeof(*attr));
	attr->fw_ver = 0x0001000200030004ULL;
	attr->sys_image_guid = cpu_to_be64(hca->desc.sys_image_guid);
	attr->max_mr_size = SZ_1G;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = 0x1234;	/* no real vendor */
	attr->vendor_part_id = 0xfa4e;
	attr->hw_ver = 1;
	attr->max_qp = 64;
	attr->max_qp_wr = 1024;
	attr->max_send_sge = 4;
	attr->max_recv_sge = 4;
	attr->max_sge_rd = 4;
	attr->max_cq = 64;
	attr->max_cqe = 4096;
	attr->max_mr = 64;
	attr->max_pd = 64;
	attr->max_qp_rd_atom = 16;
	attr->max_qp_init_rd_atom = 16;
	attr->max_res_rd_atom = 1024;
	attr->atomic_cap = IB_ATOMIC_NONE;
	attr->max_ah = 64;
	attr->max_srq = 16;
	attr->max_srq_wr = 1024;
	attr->max_srq_sge = 4;
	attr->max_fast_reg_page_list_len = 256;
	attr->max_pkeys = max_pkeys;
	attr->local_ca_ack_delay = 15;
	if (hca->desc.allow_user_unreg)
		attr->kernel_cap_flags |= IBK_ALLOW_USER_UNREG;
	return 0;
}

static int fake_hca_query_port(struct ib_device *ibdev, u32 port_num,
			       struct ib_port_attr *attr)
{
	struct fake_hca *hca = to_fake_hca(ibdev);
	struct fake_hca_port *port = fake_hca_port(hca, port_num);
	unsigned long flags;
	int ret;

	ret = fake_hca_enter(hca, FAKE_HCA_OP_QUERY_PORT);
	if (ret)
		return ret;
	if (!port)
		return -EINVAL;

	/* The core zeroes *attr before calling us (as upstream does). */
	spin_lock_irqsave(&hca->lock, flags);
	attr->state = port->attr.state;
	attr->phys_state = port->attr.phys_state;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = port->attr.active_mtu;
	attr->phys_mtu = ib_mtu_enum_to_int(IB_MTU_4096);
	attr->gid_tbl_len = port->attr.gid_tbl_len;
	attr->pkey_tbl_len = port->attr.pkey_tbl_len;
	attr->port_cap_flags = port->attr.port_cap_flags;
	attr->max_msg_sz = 1U << 31;
	attr->lid = port->attr.lid;
	attr->sm_lid = port->attr.sm_lid;
	attr->lmc = port->attr.lmc;
	attr->sm_sl = port->attr.sm_sl;
	attr->max_vl_num = 1;
	attr->subnet_timeout = 18;
	attr->active_width = port->attr.active_width;
	attr->active_speed = port->attr.active_speed;
	attr->ip_gids = port->attr.link_layer == IB_LINK_LAYER_ETHERNET;
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}

static int fake_hca_get_port_immutable(struct ib_device *ibdev, u32 port_num,
				       struct ib_port_immutable *immutable)
{
	struct fake_hca *hca = to_fake_hca(ibdev);
	struct fake_hca_port *port = fake_hca_port(hca, port_num);
	int ret;

	ret = fake_hca_enter(hca, FAKE_HCA_OP_GET_PORT_IMMUTABLE);
	if (ret)
		return ret;
	if (!port)
		return -EINVAL;

	immutable->gid_tbl_len = port->attr.gid_tbl_len;
	immutable->pkey_tbl_len = port->attr.pkey_tbl_len;
	immutable->max_mad_size = FAKE_HCA_MAD_SIZE;
	if (hca->desc.iwarp) {
		/* No MADs on iWARP. */
		immutable->core_cap_flags = RDMA_CORE_PORT_IWARP;
		immutable->max_mad_size = 0;
	} else if (port->attr.link_layer == IB_LINK_LAYER_ETHERNET) {
		immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
		if (port->attr.roce_v1)
			immutable->core_cap_flags |= RDMA_CORE_PORT_IBA_ROCE;
	} else {
		immutable->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
	}
	return 0;
}

static enum rdma_link_layer fake_hca_get_link_layer(struct ib_device *ibdev,
						    u32 port_num)
{
	struct fake_hca *hca = to_fake_hca(ibdev);
	struct fake_hca_port *port = fake_hca_port(hca, port_num);

	fake_hca_enter(hca, FAKE_HCA_OP_GET_LINK_LAYER);
	return port ? port->attr.link_layer : IB_LINK_LAYER_UNSPECIFIED;
}

static void fake_hca_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	struct fake_hca *hca = to_fake_hca(ibdev);

	fake_hca_enter(hca, FAKE_HCA_OP_GET_DEV_FW_STR);
	strscpy(str, hca->fw_ver, IB_FW_VERSION_NAME_MAX);
}

static int fake_hca_modify_device(struct ib_device *ibdev, int mask,
				  struct ib_device_modify *props)
{
	struct fake_hca *hca = to_fake_hca(ibdev);
	int ret;

	ret = fake_hca_enter(hca, FAKE_HCA_OP_MODIFY_DEVICE);
	if (ret)
		return ret;
	if (mask & ~IB_DEVICE_MODIFY_NODE_DESC)
		return -EOPNOTSUPP;

	if (mask & IB_DEVICE_MODIFY_NODE_DESC)
		memcpy(ibdev->node_desc, props->node_desc,
		       IB_DEVICE_NODE_DESC_MAX);
	return 0;
}

static int fake_hca_modify_port(struct ib_device *ibdev, u32 port_num,
				int mask, struct ib_port_modify *props)
{
	struct fake_hca *hca = to_fake_hca(ibdev);
	struct fake_hca_port *port = fake_hca_port(hca, port_num);
	unsigned long flags;
	int ret;

	ret = fake_hca_enter(hca, FAKE_HCA_OP_MODIFY_PORT);
	if (ret)
		return ret;
	if (!port)
		return -EINVAL;
	if (mask & ~IB_PORT_SHUTDOWN)
		return -EOPNOTSUPP;

	spin_lock_irqsave(&hca->lock, flags);
	port->attr.port_cap_flags |= props->set_port_cap_mask;
	port->attr.port_cap_flags &= ~props->clr_port_cap_mask;
	if (mask & IB_PORT_SHUTDOWN) {
		port->attr.state = IB_PORT_DOWN;
		port->attr.phys_state = IB_PORT_PHYS_STATE_DISABLED;
	}
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}

static int fake_hca_enable_driver(struct ib_device *ibdev)
{
	return fake_hca_enter(to_fake_hca(ibdev), FAKE_HCA_OP_ENABLE_DRIVER);
}

/*
 * There are no user contexts (no uverbs yet); having the op lets the
 * core move the device to another network namespace.
 */
static void fake_hca_disassociate_ucontext(struct ib_ucontext *ibcontext)
{
}

static void fake_hca_dealloc_driver(struct ib_device *ibdev)
{
	struct fake_hca *hca = to_fake_hca(ibdev);

	fake_hca_enter(hca, FAKE_HCA_OP_DEALLOC_DRIVER);
	fake_hca_release(hca);
}

static ssize_t hca_type_show(struct device *device,
			     struct device_attribute *attr, char *buf)
{
	struct fake_hca *hca =
		rdma_device_to_drv_device(device, struct fake_hca, ibdev);

	return sysfs_emit(buf, "%s\n", hca->hca_type);
}
static DEVICE_ATTR_RO(hca_type);

static struct attribute *fake_hca_attrs[] = {
	&dev_attr_hca_type.attr,
	NULL
};

static const struct attribute_group fake_hca_attr_group = {
	.attrs = fake_hca_attrs,
};

/*
 * What every fake device has; the ops of its GID and P_Key tables are in
 * fake_hca_tables.c.
 */
const struct ib_device_ops fake_hca_base_ops = {
	.owner = THIS_MODULE,
	.uverbs_abi_ver = 1,
	.device_group = &fake_hca_attr_group,

	.query_device = fake_hca_query_device,
	.query_port = fake_hca_query_port,
	.get_port_immutable = fake_hca_get_port_immutable,
	.get_link_layer = fake_hca_get_link_layer,
	.modify_device = fake_hca_modify_device,
	.modify_port = fake_hca_modify_port,
	.enable_driver = fake_hca_enable_driver,
	.disassociate_ucontext = fake_hca_disassociate_ucontext,
};

const struct ib_device_ops fake_hca_fw_ops = {
	.get_dev_fw_str = fake_hca_get_dev_fw_str,
};

const struct ib_device_ops fake_hca_dealloc_ops = {
	.dealloc_driver = fake_hca_dealloc_driver,
};

/**
 * fake_hca_set_lid - change the LID and LMC of a port (no event is sent)
 * @hca: the device
 * @port: port number
 * @lid: new LID
 * @lmc: new LMC
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: 0 or -EINVAL.
 */
int fake_hca_set_lid(struct fake_hca *hca, u32 port, u32 lid, u8 lmc)
{
	struct fake_hca_port *p = fake_hca_port(hca, port);
	unsigned long flags;

	if (!p)
		return -EINVAL;
	spin_lock_irqsave(&hca->lock, flags);
	p->attr.lid = lid;
	p->attr.lmc = lmc;
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(fake_hca_set_lid);

/**
 * fake_hca_set_sm - change the SM LID and SL of a port (no event is sent)
 * @hca: the device
 * @port: port number
 * @sm_lid: new SM LID
 * @sm_sl: new SM SL
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: 0 or -EINVAL.
 */
int fake_hca_set_sm(struct fake_hca *hca, u32 port, u32 sm_lid, u8 sm_sl)
{
	struct fake_hca_port *p = fake_hca_port(hca, port);
	unsigned long flags;

	if (!p)
		return -EINVAL;
	spin_lock_irqsave(&hca->lock, flags);
	p->attr.sm_lid = sm_lid;
	p->attr.sm_sl = sm_sl;
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(fake_hca_set_sm);

/**
 * fake_hca_set_port_state - change the state of a port (no event is sent)
 * @hca: the device
 * @port: port number
 * @state: logical state
 * @phys_state: physical state
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: 0 or -EINVAL.
 */
int fake_hca_set_port_state(struct fake_hca *hca, u32 port,
			    enum ib_port_state state,
			    enum ib_port_phys_state phys_state)
{
	struct fake_hca_port *p = fake_hca_port(hca, port);
	unsigned long flags;

	if (!p)
		return -EINVAL;
	spin_lock_irqsave(&hca->lock, flags);
	p->attr.state = state;
	p->attr.phys_state = phys_state;
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(fake_hca_set_port_state);

/**
 * fake_hca_dispatch_port_event - send a port event as the driver would
 * @hca: the device
 * @port: port number
 * @type: IB_EVENT_PKEY_CHANGE, IB_EVENT_GID_CHANGE, IB_EVENT_LID_CHANGE,
 *	IB_EVENT_PORT_ACTIVE, ...
 *
 * Delivery is asynchronous (ib_dispatch_event()).
 *
 * Context: Any context, as ib_dispatch_event() (GFP_ATOMIC allocation, work
 * queued); the event is dropped if the device is unregistering or the
 * allocation fails.
 */
void fake_hca_dispatch_port_event(struct fake_hca *hca, u32 port,
				  enum ib_event_type type)
{
	struct ib_event event = {
		.device = &hca->ibdev,
		.element.port_num = port,
		.event = type,
	};

	ib_dispatch_event(&event);
}
EXPORT_SYMBOL_GPL(fake_hca_dispatch_port_event);
