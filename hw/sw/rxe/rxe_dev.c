// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A soft-RoCE device: its attributes, its Ethernet port on a net device,
 * its GIDs (the core's RoCE GID table: both GID types, RoCE v1 and v2),
 * and its registration as an rdmavt device of node type CA.
 */
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <net/addrconf.h>

#include "rxe.h"

/**
 * rxe_netdev_qualified - may a soft-RoCE device sit on this net device
 * @ndev: the net device
 *
 * An Ethernet device that is not a VLAN (the VLAN's GIDs come to the
 * device of its real device, as upstream).
 *
 * Return: true if it may.
 */
bool rxe_netdev_qualified(const struct net_device *ndev)
{
	return ndev->type == ARPHRD_ETHER && !is_vlan_dev(ndev);
}

/**
 * rxe_mtu_to_enum - the IB MTU that fits in a net device's MTU
 * @mtu: the net device's MTU
 *
 * Room is left for the largest headers (upstream's 80 bytes).
 *
 * Return: the MTU, or 0 when even 256 bytes do not fit.
 */
enum ib_mtu rxe_mtu_to_enum(int mtu)
{
	mtu -= RXE_MAX_HDR_LENGTH;
	if (mtu < 256)
		return 0;
	if (mtu < 512)
		return IB_MTU_256;
	if (mtu < 1024)
		return IB_MTU_512;
	if (mtu < 2048)
		return IB_MTU_1024;
	if (mtu < 4096)
		return IB_MTU_2048;
	return IB_MTU_4096;
}

static int rxe_query_port(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *attr)
{
	struct rxe_dev *rxe = to_rxe_dev(ibdev);
	struct net_device *ndev = rxe->ndev;
	bool up;
	int ret;

	memset(attr, 0, sizeof(*attr));
	ret = ib_get_eth_speed(ibdev, port, &attr->active_speed,
			       &attr->active_width);
	if (ret)
		return ret;
	up = netif_running(ndev) && netif_carrier_ok(ndev);
	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = rxe_mtu_to_enum(READ_ONCE(ndev->mtu));
	attr->gid_tbl_len = RXE_GID_TBL_LEN;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = RXE_MAX_MSG_SZ;
	attr->pkey_tbl_len = 1;
	attr->max_vl_num = 1;
	attr->bad_pkey_cntr = min_t(s64, 0xffff,
				    atomic64_read(&rxe->drops[RXE_DROP_PKEY]));
	attr->qkey_viol_cntr = min_t(s64, 0xffff,
				     atomic64_read(&rxe->drops[RXE_DROP_QKEY]));
	return 0;
}

static int rxe_get_port_immutable(struct ib_device *ibdev, u32 port,
				  struct ib_port_immutable *immutable)
{
	immutable->pkey_tbl_len = 1;
	immutable->gid_tbl_len = RXE_GID_TBL_LEN;
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE |
				    RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer rxe_get_link_layer(struct ib_device *ibdev,
					       u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

/*
 * The core keeps the GID table (both types for each address); the
 * packets are built from the address's GID attribute, so the device has
 * nothing to program.
 */
static int rxe_add_gid(const struct ib_gid_attr *attr, void **context)
{
	return 0;
}

static int rxe_del_gid(const struct ib_gid_attr *attr, void **context)
{
	return 0;
}

static const struct ib_device_ops rxe_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = RXE_UVERBS_ABI_VERSION,
	.add_gid = rxe_add_gid,
	.attach_mcast = rxe_attach_mcast,
	.del_gid = rxe_del_gid,
	.detach_mcast = rxe_detach_mcast,
	.get_link_layer = rxe_get_link_layer,
	.get_port_immutable = rxe_get_port_immutable,
	.query_port = rxe_query_port,
};

/* What query_device reports: upstream rxe's numbers. */
static void rxe_set_props(struct rxe_dev *rxe, struct net_device *ndev)
{
	struct ib_device_attr *p = &rxe->rdi.dparms.props;

	p->device_cap_flags = IB_DEVICE_BAD_PKEY_CNTR |
			      IB_DEVICE_BAD_QKEY_CNTR |
			      IB_DEVICE_PORT_ACTIVE_EVENT |
			      IB_DEVICE_SYS_IMAGE_GUID |
			      IB_DEVICE_RC_RNR_NAK_GEN |
			      IB_DEVICE_MEM_MGT_EXTENSIONS |
			      IB_DEVICE_MEM_WINDOW |
			      IB_DEVICE_MEM_WINDOW_TYPE_2B |
			      IB_DEVICE_FLUSH_GLOBAL |
			      IB_DEVICE_FLUSH_PERSISTENT;
	/* as upstream: an 8-byte store at once needs a 64-bit machine */
	if (IS_ENABLED(CONFIG_64BIT))
		p->device_cap_flags |= IB_DEVICE_ATOMIC_WRITE;
	p->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	p->vendor_id = RXE_VENDOR_ID;
	p->max_mr_size = ~0ULL;
	p->max_mw = RXE_MAX_MW;
	p->page_size_cap = 0xfffff000;
	p->max_qp = RXE_MAX_QP;
	p->max_qp_wr = RXE_MAX_QP_WR;
	p->max_send_sge = RXE_MAX_SGE;
	p->max_recv_sge = RXE_MAX_SGE;
	p->max_sge_rd = RXE_MAX_SGE;
	p->max_cq = RXE_MAX_CQ;
	p->max_cqe = RXE_MAX_CQE;
	p->max_mr = RXE_MAX_MR;
	p->max_pd = RXE_MAX_PD;
	p->max_qp_rd_atom = RXE_MAX_QP_RD_ATOM;
	p->max_qp_init_rd_atom = RXE_MAX_QP_RD_ATOM;
	p->max_res_rd_atom = RXE_MAX_RES_RD_ATOM;
	p->atomic_cap = IB_ATOMIC_HCA;
	p->max_mcast_grp = RXE_MAX_MCAST_GRP;
	p->max_mcast_qp_attach = RXE_MAX_MCAST_QP_ATTACH;
	p->max_total_mcast_qp_attach = RXE_MAX_TOT_MCAST_QP_ATTACH;
	p->max_ah = RXE_MAX_AH;
	p->max_srq = RXE_MAX_SRQ;
	p->max_srq_wr = RXE_MAX_SRQ_WR;
	p->max_srq_sge = RXE_MAX_SRQ_SGE;
	p->max_fast_reg_page_list_len = RXE_MAX_FMR_PAGE_LIST_LEN;
	p->max_pkeys = RXE_MAX_PKEYS;
	p->local_ca_ack_delay = RXE_LOCAL_CA_ACK_DELAY;
	addrconf_addr_eui48((u8 *)&p->sys_image_guid, ndev->dev_addr);
	/*
	 * On-demand paging MRs (rdmavt offers them: dparms.wire_odp): a
	 * page the data path misses gets an RNR NAK (RC), a drop (UC, UD)
	 * or, at the requester, a retry, while rdmavt faults it in.
	 */
	if (IS_ENABLED(CONFIG_INFINIBAND_ON_DEMAND_PAGING)) {
		struct ib_odp_caps *odp = &p->odp_caps;

		odp->per_transport_caps.rc_odp_caps =
			IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_RECV |
			IB_ODP_SUPPORT_WRITE | IB_ODP_SUPPORT_READ |
			IB_ODP_SUPPORT_ATOMIC | IB_ODP_SUPPORT_SRQ_RECV;
		odp->per_transport_caps.uc_odp_caps =
			IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_RECV |
			IB_ODP_SUPPORT_WRITE | IB_ODP_SUPPORT_SRQ_RECV;
		odp->per_transport_caps.ud_odp_caps =
			IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_RECV |
			IB_ODP_SUPPORT_SRQ_RECV;
	}
}

/*
 * After every client left: stop the loopback work and let go of the
 * namespace's sockets.  The receive path finds devices through
 * ib_device_get_by_netdev(), which no longer returns this one.
 */
static void rxe_dealloc(struct rvt_dev_info *rdi)
{
	struct rxe_dev *rxe = container_of(rdi, struct rxe_dev, rdi);

	rxe_loop_stop(rxe);
	rxe_ns_put(rxe);
	ida_destroy(&rxe->srq_ida);
}

static struct rxe_dev *rxe_device_alloc(struct net_device *ndev)
{
	struct rvt_dev_info *rdi;
	struct rxe_dev *rxe;

	rdi = rvt_alloc_device(sizeof(*rxe), 1);
	if (!rdi)
		return NULL;
	rxe = container_of(rdi, struct rxe_dev, rdi);
	rxe->ndev = ndev;
	rxe_loop_init(rxe);
	ida_init(&rxe->srq_ida);

	rdi->ibdev.node_type = RDMA_NODE_IB_CA;
	rdi->ibdev.phys_port_cnt = 1;
	addrconf_addr_eui48((u8 *)&rdi->ibdev.node_guid, ndev->dev_addr);
	strscpy(rdi->ibdev.node_desc, "rxe", sizeof(rdi->ibdev.node_desc));
	ib_set_device_ops(&rdi->ibdev, &rxe_dev_ops);
	ib_set_device_ops(&rdi->ibdev, &rvt_hw_counter_ops);
	rxe_set_props(rxe, ndev);
	rdi->dparms.roce = true;
	rdi->dparms.wire_odp = true;
	/* librxe maps rxe's own queues, not rdmavt's */
	rxe_uring_hooks(rdi);
	rdi->dparms.node = dev_to_node(&ndev->dev);
	rdi->driver_f.dealloc = rxe_dealloc;
	rdi->driver_f.xmit_wqe = rxe_xmit_wqe;
	rdi->driver_f.xmit_local = true;
	rdi->driver_f.xmit_flush = rxe_xmit_flush;
	rdi->driver_f.xmit_stop = rxe_xmit_stop;
	rdi->driver_f.qp_priv_alloc = rxe_qp_priv_alloc;
	rdi->driver_f.qp_priv_free = rxe_qp_priv_free;
	rdi->driver_f.modify_qp = rxe_modify_qp;
	rdi->dparms.qp_types = BIT(IB_QPT_UD) | BIT(IB_QPT_GSI) |
			       BIT(IB_QPT_RC) | BIT(IB_QPT_UC);
	/* port 1; cannot fail for index 0 of a one port device */
	rxe->pkeys[0] = IB_DEFAULT_PKEY_FULL;
	rvt_init_port(rdi, &rxe->port, 0, rxe->pkeys);
	return rxe;
}

/**
 * rxe_mtu - payload bytes a packet of the device may carry
 * @rxe: the device
 *
 * Return: the port's active MTU in bytes (0 when the net device's MTU
 * leaves no room for 256).
 */
u32 rxe_mtu(struct rxe_dev *rxe)
{
	enum ib_mtu mtu = rxe_mtu_to_enum(READ_ONCE(rxe->ndev->mtu));

	return mtu ? ib_mtu_enum_to_int(mtu) : 0;
}

/**
 * rxe_device_add - make and register a soft-RoCE device on a net device
 * @name: the device's name (from "rdma link add NAME type rxe")
 * @ndev: the net device its port sits on
 *
 * Context: process context, without the RTNL lock; sleeps (device
 * registration, the namespace's sockets).
 * Return: 0; -EPERM on a VLAN device; -EINVAL on a net device that is
 * not Ethernet or a name template; -EEXIST if @ndev has a soft-RoCE
 * device already; -ENOMEM; or an error from the sockets or the
 * registration.
 */
int rxe_device_add(const char *name, struct net_device *ndev)
{
	struct ib_device *other;
	struct rxe_dev *rxe;
	int ret;

	if (is_vlan_dev(ndev))
		return -EPERM;
	if (!rxe_netdev_qualified(ndev) || strchr(name, '%'))
		return -EINVAL;
	other = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	if (other) {
		ib_device_put(other);
		return -EEXIST;
	}
	rxe = rxe_device_alloc(ndev);
	if (!rxe)
		return -ENOMEM;
	ret = ib_device_set_netdev(&rxe->rdi.ibdev, ndev, RXE_PORT);
	if (ret)
		goto err_free;
	ret = rxe_ns_get(rxe);
	if (ret)
		goto err_free;
	strscpy(rxe->rdi.ibdev.name, name, sizeof(rxe->rdi.ibdev.name));
	ib_mark_name_assigned_by_user(&rxe->rdi.ibdev);
	/* from here on, rxe_dealloc() lets go of the sockets */
	ret = rvt_register_device(&rxe->rdi);
	if (ret)
		goto err_free;
	ibdev_dbg(&rxe->rdi.ibdev, "on %s\n", ndev->name);
	return 0;

err_free:
	if (!rxe->rdi.ibdev.ops.dealloc_driver)
		rxe_ns_put(rxe);
	rvt_dealloc_device(&rxe->rdi);
	return ret;
}

/**
 * rxe_port_event - tell the device's users that its port changed
 * @rxe: the device
 * @type: IB_EVENT_PORT_ACTIVE, IB_EVENT_PORT_ERR, ...
 *
 * Context: any context (ib_dispatch_event() defers to a workqueue).
 */
void rxe_port_event(struct rxe_dev *rxe, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &rxe->rdi.ibdev,
		.element.port_num = RXE_PORT,
		.event = type,
	};

	ib_dispatch_event(&ev);
}
