// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: an RDMA driver without hardware.  See
 * <kunit/rdma_fake_hca.h> for the API the KUnit suites use; the module
 * parameter "devices" registers demo devices for the integration
 * scenarios.
 */

#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <kunit/resource.h>
#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/unaligned.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

struct fake_hca_port {
	struct fake_hca_port_desc attr;	/* current values; pointers unused */
	union ib_gid		*gids;		/* IB port: query_gid */
	u16			*pkeys;
	struct fake_hca_hw_gid	*hw_gids;	/* RoCE port: add_gid/del_gid */
	struct net_device	*netdev;
	bool			own_netdev;
};

static LIST_HEAD(fake_hca_list);
static DEFINE_MUTEX(fake_hca_list_lock);

static const char * const fake_hca_op_names[FAKE_HCA_OP_COUNT + 1] = {
	[FAKE_HCA_OP_QUERY_DEVICE] = "query_device",
	[FAKE_HCA_OP_QUERY_PORT] = "query_port",
	[FAKE_HCA_OP_GET_PORT_IMMUTABLE] = "get_port_immutable",
	[FAKE_HCA_OP_QUERY_GID] = "query_gid",
	[FAKE_HCA_OP_QUERY_PKEY] = "query_pkey",
	[FAKE_HCA_OP_ADD_GID] = "add_gid",
	[FAKE_HCA_OP_DEL_GID] = "del_gid",
	[FAKE_HCA_OP_MODIFY_DEVICE] = "modify_device",
	[FAKE_HCA_OP_MODIFY_PORT] = "modify_port",
	[FAKE_HCA_OP_ENABLE_DRIVER] = "enable_driver",
	[FAKE_HCA_OP_GET_LINK_LAYER] = "get_link_layer",
	[FAKE_HCA_OP_GET_DEV_FW_STR] = "get_dev_fw_str",
	[FAKE_HCA_OP_DEALLOC_DRIVER] = "dealloc_driver",
	[FAKE_HCA_OP_ANY] = "any",
};

/**
 * fake_hca_op_name - name of a driver op of the fake
 * @op: the op, or FAKE_HCA_OP_ANY
 */
const char *fake_hca_op_name(enum fake_hca_op op)
{
	if (op > FAKE_HCA_OP_ANY)
		return "?";
	return fake_hca_op_names[op];
}
EXPORT_SYMBOL_GPL(fake_hca_op_name);

/*
 * Every op starts here: count the call and decide whether an injected
 * fault fires.  Returns 0 or the error to fail the op with.
 */
static int fake_hca_enter(struct fake_hca *hca, enum fake_hca_op op)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&hca->lock, flags);
	hca->calls[op]++;
	if (op < FAKE_HCA_NUM_FAILABLE_OPS) {
		if (hca->fail_nth[op] && !--hca->fail_nth[op])
			err = hca->fail_err[op];
		if (hca->fail_nth[FAKE_HCA_OP_ANY] &&
		    !--hca->fail_nth[FAKE_HCA_OP_ANY] && !err)
			err = hca->fail_err[FAKE_HCA_OP_ANY];
		if (err)
			hca->faults_fired++;
	}
	spin_unlock_irqrestore(&hca->lock, flags);
	return err;
}

static struct fake_hca_port *fake_hca_port(struct fake_hca *hca, u32 port)
{
	if (port < 1 || port > hca->desc.num_ports)
		return NULL;
	return &hca->ports[port - 1];
}

/* ------------------------------------------------------------------
 * Driver ops
 */

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
	if (port->attr.link_layer == IB_LINK_LAYER_ETHERNET)
		immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	else
		immutable->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
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

static void fake_hca_release(struct fake_hca *hca);

static void fake_hca_dealloc_driver(struct ib_device *ibdev)
{
	struct fake_hca *hca = to_fake_hca(ibdev);

	fake_hca_enter(hca, FAKE_HCA_OP_DEALLOC_DRIVER);
	fake_hca_release(hca);
}

/* Kernel verbs the core requires of a kverbs provider; none works yet. */
static int fake_hca_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

static int fake_hca_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int fake_hca_create_qp(struct ib_qp *qp,
			      struct ib_qp_init_attr *init_attr,
			      struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

static int fake_hca_modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr,
			      int attr_mask, struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

static int fake_hca_destroy_qp(struct ib_qp *qp, struct ib_udata *udata)
{
	return 0;
}

static int fake_hca_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
			      const struct ib_send_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static int fake_hca_post_recv(struct ib_qp *qp, const struct ib_recv_wr *wr,
			      const struct ib_recv_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static int fake_hca_create_cq(struct ib_cq *cq,
			      const struct ib_cq_init_attr *attr,
			      struct uverbs_attr_bundle *attrs)
{
	return -EOPNOTSUPP;
}

static int fake_hca_destroy_cq(struct ib_cq *cq, struct ib_udata *udata)
{
	return 0;
}

static int fake_hca_poll_cq(struct ib_cq *cq, int num_entries,
			    struct ib_wc *wc)
{
	return 0;
}

static int fake_hca_req_notify_cq(struct ib_cq *cq,
				  enum ib_cq_notify_flags flags)
{
	return 0;
}

static struct ib_mr *fake_hca_get_dma_mr(struct ib_pd *pd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static struct ib_mr *fake_hca_reg_user_mr(struct ib_pd *pd, u64 start,
					  u64 length, u64 virt_addr,
					  int access, struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static int fake_hca_dereg_mr(struct ib_mr *mr, struct ib_udata *udata)
{
	return 0;
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

/* What every fake device has. */
static const struct ib_device_ops fake_hca_base_ops = {
	.owner = THIS_MODULE,
	.uverbs_abi_ver = 1,
	.device_group = &fake_hca_attr_group,

	.query_device = fake_hca_query_device,
	.query_port = fake_hca_query_port,
	.get_port_immutable = fake_hca_get_port_immutable,
	.get_link_layer = fake_hca_get_link_layer,
	.query_gid = fake_hca_query_gid,
	.query_pkey = fake_hca_query_pkey,
	.add_gid = fake_hca_add_gid,
	.del_gid = fake_hca_del_gid,
	.modify_device = fake_hca_modify_device,
	.modify_port = fake_hca_modify_port,
	.enable_driver = fake_hca_enable_driver,
	.disassociate_ucontext = fake_hca_disassociate_ucontext,
};

static const struct ib_device_ops fake_hca_fw_ops = {
	.get_dev_fw_str = fake_hca_get_dev_fw_str,
};

/* The rest of upstream's ib_device_check_mandatory() list. */
static const struct ib_device_ops fake_hca_kverbs_ops = {
	.alloc_pd = fake_hca_alloc_pd,
	.dealloc_pd = fake_hca_dealloc_pd,
	.create_qp = fake_hca_create_qp,
	.modify_qp = fake_hca_modify_qp,
	.destroy_qp = fake_hca_destroy_qp,
	.post_send = fake_hca_post_send,
	.post_recv = fake_hca_post_recv,
	.create_cq = fake_hca_create_cq,
	.destroy_cq = fake_hca_destroy_cq,
	.poll_cq = fake_hca_poll_cq,
	.req_notify_cq = fake_hca_req_notify_cq,
	.get_dma_mr = fake_hca_get_dma_mr,
	.reg_user_mr = fake_hca_reg_user_mr,
	.dereg_mr = fake_hca_dereg_mr,
};

static const struct ib_device_ops fake_hca_dealloc_ops = {
	.dealloc_driver = fake_hca_dealloc_driver,
};

/* ------------------------------------------------------------------
 * Net devices of Ethernet ports: dummy-like, every packet is dropped.
 */

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

static void fake_hca_netdev_destroy(struct net_device *dev)
{
	unregister_netdev(dev);
	free_netdev(dev);
}

static struct net_device *fake_hca_netdev_create(const struct fake_hca_port_desc *pd)
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

/* ------------------------------------------------------------------
 * Descriptions
 */

/**
 * fake_hca_desc_set_ib - make a port of a description an active IB port
 * @desc: the description
 * @port: port number, from 1
 *
 * LID = 0x10 * port, SM LID 1, 4X EDR, 8 GIDs (GID 0 from the node
 * GUID), 4 P_Keys (0xffff at index 0).
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
	}
	return 0;
}

/* ------------------------------------------------------------------
 * Life cycle
 */

/*
 * Undo fake_hca_create() except for the ib_device itself: called by
 * dealloc_driver, or by fake_hca_destroy() before ib_dealloc_device().
 */
static void fake_hca_release(struct fake_hca *hca)
{
	u32 i;

	if (hca->released)
		return;
	hca->released = true;

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
	if (desc->fw_ver)
		ib_set_device_ops(&hca->ibdev, &fake_hca_fw_ops);
	if (!desc->no_kverbs)
		ib_set_device_ops(&hca->ibdev, &fake_hca_kverbs_ops);
	if (desc->dealloc_driver)
		ib_set_device_ops(&hca->ibdev, &fake_hca_dealloc_ops);
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

/* ------------------------------------------------------------------
 * KUnit helpers
 */

KUNIT_DEFINE_ACTION_WRAPPER(fake_hca_destroy_action, fake_hca_destroy,
			    struct fake_hca *);

static struct fake_hca *fake_hca_kunit_adopt(struct kunit *test,
					     struct fake_hca *hca)
{
	int ret;

	if (IS_ERR(hca))
		return hca;
	ret = kunit_add_action_or_reset(test, fake_hca_destroy_action, hca);
	if (ret)
		return ERR_PTR(ret);
	return hca;
}

/**
 * fake_hca_kunit_create - fake_hca_create() for a KUnit test
 * @test: the test
 * @desc: what the device looks like
 *
 * The device is destroyed (unregistered first if needed) when the test
 * ends, also after a failed assertion.  To destroy it earlier, or when
 * fake_hca_kunit_destroy(); when the test makes the core free it
 * (dealloc_driver), call fake_hca_kunit_forget() first.
 *
 * Return: the device or an ERR_PTR().
 */
struct fake_hca *fake_hca_kunit_create(struct kunit *test,
				       const struct fake_hca_desc *desc)
{
	return fake_hca_kunit_adopt(test, fake_hca_create(desc));
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_create);

/**
 * fake_hca_kunit_create_registered - fake_hca_create_registered() for a
 * KUnit test
 * @test: the test
 * @desc: what the device looks like
 *
 * Return: the registered device or an ERR_PTR().
 */
struct fake_hca *fake_hca_kunit_create_registered(struct kunit *test,
						  const struct fake_hca_desc *desc)
{
	return fake_hca_kunit_adopt(test, fake_hca_create_registered(desc));
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_create_registered);

/**
 * fake_hca_kunit_destroy - destroy a device of fake_hca_kunit_create() now
 * @test: the test
 * @hca: the device
 */
void fake_hca_kunit_destroy(struct kunit *test, struct fake_hca *hca)
{
	kunit_release_action(test, fake_hca_destroy_action, hca);
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_destroy);

/**
 * fake_hca_kunit_add_action - kunit_add_action_or_reset() that fails the
 * test when the action cannot be added
 * @test: the test
 * @action: called with @ctx when the test ends (at once if adding failed)
 * @ctx: its argument
 */
void fake_hca_kunit_add_action(struct kunit *test, void (*action)(void *),
			       void *ctx)
{
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, action, ctx), 0);
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_add_action);

/**
 * fake_hca_kunit_forget - stop destroying a device when the test ends
 * @test: the test
 * @hca: the device
 *
 * For a device the core frees by itself (dealloc_driver) because the test
 * unregisters it through the core, e.g. with ib_unregister_driver().
 */
void fake_hca_kunit_forget(struct kunit *test, struct fake_hca *hca)
{
	kunit_remove_action(test, fake_hca_destroy_action, hca);
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_forget);

KUNIT_DEFINE_ACTION_WRAPPER(fake_hca_netdev_destroy_action,
			    fake_hca_netdev_destroy, struct net_device *);

/**
 * fake_hca_kunit_netdev - a dummy-like net device for a test
 * @test: the test; the net device is unregistered and freed when it ends
 * @mac: its MAC address, or NULL for a random one
 *
 * Create it before any device it is bound to, so that it goes after
 * them: a net device is only freed when nobody holds it.
 *
 * Return: the registered net device or an ERR_PTR().
 */
struct net_device *fake_hca_kunit_netdev(struct kunit *test, const u8 *mac)
{
	struct fake_hca_port_desc pd = {};
	struct net_device *dev;
	int ret;

	if (mac)
		ether_addr_copy(pd.mac, mac);
	pd.netdev_name = "fkhcat%d";
	dev = fake_hca_netdev_create(&pd);
	if (IS_ERR(dev))
		return dev;
	ret = kunit_add_action_or_reset(test, fake_hca_netdev_destroy_action,
					dev);
	if (ret)
		return ERR_PTR(ret);
	return dev;
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_netdev);

/**
 * fake_hca_kunit_desc - a default description in test-managed memory
 * @test: the test
 * @num_ports: number of (IB) ports
 *
 * Return: the description (freed when the test ends) or NULL.
 */
struct fake_hca_desc *fake_hca_kunit_desc(struct kunit *test, u32 num_ports)
{
	struct fake_hca_desc *desc;

	desc = kunit_kmalloc(test, sizeof(*desc), GFP_KERNEL);
	if (desc)
		fake_hca_desc_init(desc, num_ports);
	return desc;
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_desc);

/**
 * fake_hca_try_get_put - can a reference be taken on a device now?
 * @ibdev: the device
 *
 * Return: what ib_device_try_get() returned; the reference, if any, is
 * dropped again.
 */
bool fake_hca_try_get_put(struct ib_device *ibdev)
{
	if (!ib_device_try_get(ibdev))
		return false;
	ib_device_put(ibdev);
	return true;
}
EXPORT_SYMBOL_GPL(fake_hca_try_get_put);

/**
 * fake_hca_sysfs_present - whether a device directory exists in sysfs
 * @name: device name
 *
 * Return: true when /sys/class/infiniband/@name resolves.
 */
bool fake_hca_sysfs_present(const char *name)
{
	struct path path;
	char *p;
	int ret;

	p = kasprintf(GFP_KERNEL, "/sys/class/infiniband/%s", name);
	if (!p)
		return false;
	ret = kern_path(p, LOOKUP_FOLLOW, &path);
	kfree(p);
	if (ret)
		return false;
	path_put(&path);
	return true;
}
EXPORT_SYMBOL_GPL(fake_hca_sysfs_present);

static void fake_hca_event_log_handler(struct ib_event_handler *handler,
				       struct ib_event *event)
{
	struct fake_hca_event_log *log =
		container_of(handler, struct fake_hca_event_log, handler);
	unsigned long flags;

	spin_lock_irqsave(&log->lock, flags);
	if (log->count < FAKE_HCA_EVENT_LOG_LEN)
		log->events[log->count] = *event;
	log->count++;
	spin_unlock_irqrestore(&log->lock, flags);
	wake_up_all(&log->wq);
}

KUNIT_DEFINE_ACTION_WRAPPER(fake_hca_unregister_handler_action,
			    ib_unregister_event_handler,
			    struct ib_event_handler *);

/**
 * fake_hca_kunit_event_log - register a recording event handler
 * @test: the test; the handler is unregistered when it ends
 * @ibdev: the device
 *
 * Return: the log, or NULL when memory ran out.
 */
struct fake_hca_event_log *fake_hca_kunit_event_log(struct kunit *test,
						    struct ib_device *ibdev)
{
	struct fake_hca_event_log *log;

	log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);
	if (!log)
		return NULL;
	spin_lock_init(&log->lock);
	init_waitqueue_head(&log->wq);
	INIT_IB_EVENT_HANDLER(&log->handler, ibdev, fake_hca_event_log_handler);
	ib_register_event_handler(&log->handler);
	if (kunit_add_action_or_reset(test, fake_hca_unregister_handler_action,
				      &log->handler))
		return NULL;
	return log;
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_event_log);

/**
 * fake_hca_kunit_event_log_release - unregister a log's handler now
 * @test: the test
 * @log: from fake_hca_kunit_event_log()
 *
 * The log stays readable until the test ends.
 */
void fake_hca_kunit_event_log_release(struct kunit *test,
				      struct fake_hca_event_log *log)
{
	kunit_release_action(test, fake_hca_unregister_handler_action,
			     &log->handler);
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_event_log_release);

/**
 * fake_hca_event_count - events a log received so far
 * @log: the log
 */
unsigned int fake_hca_event_count(struct fake_hca_event_log *log)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&log->lock, flags);
	n = log->count;
	spin_unlock_irqrestore(&log->lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(fake_hca_event_count);

/**
 * fake_hca_event_wait - wait until a log holds some number of events
 * @log: the log
 * @count: number of events to wait for (in total, not more)
 * @timeout_ms: give up after this long
 *
 * Return: true when @count events arrived in time.
 */
bool fake_hca_event_wait(struct fake_hca_event_log *log, unsigned int count,
			 unsigned int timeout_ms)
{
	return wait_event_timeout(log->wq, fake_hca_event_count(log) >= count,
				  msecs_to_jiffies(timeout_ms)) > 0 ||
	       fake_hca_event_count(log) >= count;
}
EXPORT_SYMBOL_GPL(fake_hca_event_wait);

/* ------------------------------------------------------------------
 * The "hardware"
 */

/**
 * fake_hca_set_pkey - change one P_Key of a port (no event is sent)
 * @hca: the device
 * @port: port number
 * @index: table index
 * @pkey: new value
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
 * fake_hca_set_lid - change the LID and LMC of a port (no event is sent)
 * @hca: the device
 * @port: port number
 * @lid: new LID
 * @lmc: new LMC
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

/**
 * fake_hca_hw_gid - what the core programmed at one index of a RoCE port
 * @hca: the device
 * @port: port number
 * @index: GID index
 * @out: copy of the entry
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

/**
 * fake_hca_netdev - the net device bound to a port
 * @hca: the device
 * @port: port number
 *
 * Return: the net device (created by the fake or passed in), or NULL.
 */
struct net_device *fake_hca_netdev(struct fake_hca *hca, u32 port)
{
	struct fake_hca_port *p = fake_hca_port(hca, port);

	return p ? p->netdev : NULL;
}
EXPORT_SYMBOL_GPL(fake_hca_netdev);

/* ------------------------------------------------------------------
 * Fault injection and call counters
 */

/**
 * fake_hca_fail_nth - make a future call of an op fail
 * @hca: the device
 * @op: an op marked (F) in enum fake_hca_op, or FAKE_HCA_OP_ANY
 * @nth: 1 fails the next call, 2 the one after, ...; 0 disarms
 * @err: the (negative) error the op returns
 *
 * One fault per op (and one for FAKE_HCA_OP_ANY) can be armed at a time;
 * it fires once.
 */
void fake_hca_fail_nth(struct fake_hca *hca, enum fake_hca_op op,
		       unsigned int nth, int err)
{
	unsigned long flags;

	if (WARN_ON(op != FAKE_HCA_OP_ANY && op >= FAKE_HCA_NUM_FAILABLE_OPS))
		return;
	spin_lock_irqsave(&hca->lock, flags);
	hca->fail_nth[op] = nth;
	hca->fail_err[op] = err;
	spin_unlock_irqrestore(&hca->lock, flags);
}
EXPORT_SYMBOL_GPL(fake_hca_fail_nth);

/**
 * fake_hca_clear_faults - disarm every armed fault
 * @hca: the device
 */
void fake_hca_clear_faults(struct fake_hca *hca)
{
	unsigned long flags;

	spin_lock_irqsave(&hca->lock, flags);
	memset(hca->fail_nth, 0, sizeof(hca->fail_nth));
	spin_unlock_irqrestore(&hca->lock, flags);
}
EXPORT_SYMBOL_GPL(fake_hca_clear_faults);

/**
 * fake_hca_op_calls - how often an op was called
 * @hca: the device
 * @op: the op; FAKE_HCA_OP_ANY counts every op that can fail
 *
 * Calls that failed by injection count too.
 */
unsigned int fake_hca_op_calls(struct fake_hca *hca, enum fake_hca_op op)
{
	unsigned int n = 0;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&hca->lock, flags);
	if (op == FAKE_HCA_OP_ANY) {
		for (i = 0; i < FAKE_HCA_NUM_FAILABLE_OPS; i++)
			n += hca->calls[i];
	} else if (op < FAKE_HCA_OP_COUNT) {
		n = hca->calls[op];
	}
	spin_unlock_irqrestore(&hca->lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(fake_hca_op_calls);

/**
 * fake_hca_faults_fired - how many injected faults fired so far
 * @hca: the device
 */
unsigned int fake_hca_faults_fired(struct fake_hca *hca)
{
	return READ_ONCE(hca->faults_fired);
}
EXPORT_SYMBOL_GPL(fake_hca_faults_fired);

/**
 * fake_hca_reset_calls - zero the call counters and the fired-fault count
 * @hca: the device
 */
void fake_hca_reset_calls(struct fake_hca *hca)
{
	unsigned long flags;

	spin_lock_irqsave(&hca->lock, flags);
	memset(hca->calls, 0, sizeof(hca->calls));
	hca->faults_fired = 0;
	spin_unlock_irqrestore(&hca->lock, flags);
}
EXPORT_SYMBOL_GPL(fake_hca_reset_calls);

/* ------------------------------------------------------------------
 * Demo devices (module parameter "devices")
 *
 * tools/testing/rdma/scenarios/10-sysfs.sh checks every value below
 * through sysfs: change both together.  Device i (0, 1, ...) registers
 * as "fake%d" (fake0, fake1, ... on a system without other fake devices).
 *
 *   node_guid       0002:fa4e:0000:i000   sys_image_guid 0002:fa4e:0000:ffii
 *   fw_ver          1.2.<i>               node_desc "fake HCA <i>"
 *   hca_type        FAKE-HCA-DEMO
 *   port 1 (IB)     ACTIVE/LinkUp, lid 0x1<i>1, sm_lid 0x1, lmc 1, sm_sl 3,
 *                   cap_mask 0x02010c00, 4X EDR = 100 Gb/sec,
 *                   gid 0 fe80::node_guid+1, pkeys 0xffff 0x8001
 *   port 2 (RoCE)   ACTIVE/LinkUp, net device fketh<i>,
 *                   MAC 02:fa:4e:00:0<i>:02, cap_mask 0x04010000,
 *                   1X EDR = 25 Gb/sec, pkey 0 = 0xffff
 */
static unsigned int devices;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "number of demo devices to register at load (default 0)");

#define FAKE_HCA_DEMO_MAX	8

static const u16 fake_hca_demo_pkeys[] = { 0xffff, 0x8001 };

static int fake_hca_demo_add(unsigned int i)
{
	char node_desc[IB_DEVICE_NODE_DESC_MAX];
	char netdev_name[IFNAMSIZ];
	struct fake_hca_port_desc *pd;
	struct fake_hca_desc *desc;
	char fw_ver[16];
	struct fake_hca *hca;
	int ret = 0;

	desc = kzalloc(sizeof(*desc), GFP_KERNEL);
	if (!desc)
		return -ENOMEM;

	fake_hca_desc_init(desc, 2);
	desc->name = "fake%d";
	desc->node_guid = 0x0002fa4e00000000ULL + ((u64)i << 12);
	desc->sys_image_guid = 0x0002fa4e0000ff00ULL + i;
	snprintf(fw_ver, sizeof(fw_ver), "1.2.%u", i);
	desc->fw_ver = fw_ver;
	snprintf(node_desc, sizeof(node_desc), "fake HCA %u", i);
	desc->node_desc = node_desc;
	desc->hca_type = "FAKE-HCA-DEMO";
	desc->driver_id = FAKE_HCA_DRIVER_ID;
	desc->dealloc_driver = true;

	pd = &desc->port[0];
	pd->lid = 0x101 + (i << 4);
	pd->sm_lid = 0x1;
	pd->lmc = 1;
	pd->sm_sl = 3;
	pd->port_cap_flags = FAKE_HCA_PORT_SM_DISABLED |
			     FAKE_HCA_PORT_SYS_IMAGE_GUID |
			     FAKE_HCA_PORT_CM_SUP | FAKE_HCA_PORT_CLIENT_REG_SUP;
	pd->pkeys = fake_hca_demo_pkeys;
	pd->num_pkeys = ARRAY_SIZE(fake_hca_demo_pkeys);

	fake_hca_desc_set_eth(desc, 2);
	pd = &desc->port[1];
	snprintf(netdev_name, sizeof(netdev_name), "fketh%u", i);
	pd->netdev_name = netdev_name;
	pd->mac[0] = 0x02;
	pd->mac[1] = 0xfa;
	pd->mac[2] = 0x4e;
	pd->mac[4] = i;
	pd->mac[5] = 0x02;

	hca = fake_hca_create_registered(desc);
	if (IS_ERR(hca))
		ret = PTR_ERR(hca);
	else
		hca->demo = true;
	kfree(desc);
	return ret;
}

/* ------------------------------------------------------------------
 * Link type "fake" (see <kunit/rdma_fake_hca.h>)
 */

/**
 * fake_hca_link_desc - the description of a device of link type "fake"
 * @desc: filled in
 * @ndev: the net device the device goes on
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

static int __init fake_hca_init(void)
{
	unsigned int i;
	int ret;

	if (devices > FAKE_HCA_DEMO_MAX)
		return -EINVAL;
	ret = register_netdevice_notifier(&fake_hca_netdev_nb);
	if (ret)
		return ret;
	rdma_link_register(&fake_hca_link_ops);
	for (i = 0; i < devices; i++) {
		ret = fake_hca_demo_add(i);
		if (ret) {
			pr_err("rdma_fake_hca: demo device %u: %d\n", i, ret);
			goto err_demo;
		}
	}
	return 0;

err_demo:
	ib_unregister_driver(FAKE_HCA_DRIVER_ID);
	rdma_link_unregister(&fake_hca_link_ops);
	unregister_netdevice_notifier(&fake_hca_netdev_nb);
	return ret;
}

static void __exit fake_hca_exit(void)
{
	struct fake_hca *hca;

	/* No new link devices; then those there are go. */
	rdma_link_unregister(&fake_hca_link_ops);
	unregister_netdevice_notifier(&fake_hca_netdev_nb);
	ib_unregister_driver(FAKE_HCA_LINK_DRIVER_ID);

	/*
	 * Devices a test forgot (a bug of the test): free them, or the core
	 * would call into a module that is gone.
	 */
	for (;;) {
		mutex_lock(&fake_hca_list_lock);
		list_for_each_entry(hca, &fake_hca_list, list)
			if (!hca->demo)
				break;
		mutex_unlock(&fake_hca_list_lock);
		if (list_entry_is_head(hca, &fake_hca_list, list))
			break;
		pr_warn("rdma_fake_hca: destroying leaked device %s\n",
			dev_name(&hca->ibdev.dev));
		fake_hca_destroy(hca);
	}

	ib_unregister_driver(FAKE_HCA_DRIVER_ID);
}

module_init(fake_hca_init);
module_exit(fake_hca_exit);

MODULE_ALIAS_RDMA_LINK(FAKE_HCA_LINK_TYPE);
MODULE_DESCRIPTION("Fake RDMA HCA for the tests of the RDMA core");
MODULE_LICENSE("Dual BSD/GPL");
