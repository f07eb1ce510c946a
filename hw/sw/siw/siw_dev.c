// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A siw device: its attributes, its port on a net device, and its
 * registration as an rdmavt device of node type RNIC.
 */
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <net/addrconf.h>
#include <rdma/iw_cm.h>
#include <uapi/rdma/siw-abi.h>

#include "siw.h"
#include "siw_qp.h"
#include "siw_cm.h"

static atomic_t siw_next_part_id = ATOMIC_INIT(0);

/**
 * siw_netdev_qualified - may a siw device sit on this net device
 * @ndev: the net device
 *
 * Ethernet-like devices (Ethernet, IEEE 802, raw IP without link header)
 * and the loopback device, as upstream.
 *
 * Return: true if it may.
 */
bool siw_netdev_qualified(const struct net_device *ndev)
{
	switch (ndev->type) {
	case ARPHRD_ETHER:
	case ARPHRD_IEEE802:
	case ARPHRD_NONE:
	case ARPHRD_LOOPBACK:
		return true;
	default:
		return false;
	}
}

static int siw_query_port(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *attr)
{
	struct net_device *ndev;
	bool up;
	int ret;

	memset(attr, 0, sizeof(*attr));
	ret = ib_get_eth_speed(ibdev, port, &attr->active_speed,
			       &attr->active_width);
	if (ret)
		return ret;
	ndev = ib_device_get_netdev(ibdev, port);
	if (!ndev)
		return -ENODEV;
	up = netif_running(ndev) && netif_carrier_ok(ndev);
	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = ib_mtu_int_to_enum(ndev->max_mtu);
	attr->active_mtu = ib_mtu_int_to_enum(READ_ONCE(ndev->mtu));
	attr->gid_tbl_len = 1;
	attr->max_msg_sz = -1;
	attr->port_cap_flags = IB_UVERBS_PCF_CM_SUP |
			       IB_UVERBS_PCF_DEVICE_MGMT_SUP;
	dev_put(ndev);
	return 0;
}

static int siw_get_port_immutable(struct ib_device *ibdev, u32 port,
				  struct ib_port_immutable *immutable)
{
	immutable->gid_tbl_len = 1;
	immutable->core_cap_flags = RDMA_CORE_PORT_IWARP;
	return 0;
}

static int siw_query_gid(struct ib_device *ibdev, u32 port, int index,
			 union ib_gid *gid)
{
	if (index)
		return -EINVAL;
	memset(gid, 0, sizeof(*gid));
	memcpy(gid->raw, to_siw_dev(ibdev)->raw_gid, ETH_ALEN);
	return 0;
}

/*
 * A user context: libsiw learns the device's id from it (upstream's
 * ABI); at most SIW_MAX_CONTEXT per device.
 */
static int siw_alloc_ucontext(struct ib_ucontext *uctx, struct ib_udata *udata)
{
	struct siw_device *sdev = to_siw_dev(uctx->device);
	struct siw_uresp_alloc_ctx uresp = {};
	int ret;

	if (atomic_inc_return(&sdev->num_ctx) > SIW_MAX_CONTEXT) {
		ret = -ENOMEM;
		goto err;
	}
	if (udata->outlen < sizeof(uresp)) {
		ret = -EINVAL;
		goto err;
	}
	uresp.dev_id = sdev->vendor_part_id;
	ret = ib_copy_to_udata(udata, &uresp, sizeof(uresp));
	if (ret)
		goto err;
	return 0;
err:
	atomic_dec(&sdev->num_ctx);
	return ret;
}

static void siw_dealloc_ucontext(struct ib_ucontext *uctx)
{
	atomic_dec(&to_siw_dev(uctx->device)->num_ctx);
}

/*
 * Set before rdmavt's own ops, which fill only what is still empty: the
 * port is an Ethernet one described by the net device.
 */
static const struct ib_device_ops siw_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_SIW,
	.uverbs_abi_ver = 1,	/* SIW_ABI_VERSION of upstream's siw-abi.h */
	.alloc_ucontext = siw_alloc_ucontext,
	.dealloc_ucontext = siw_dealloc_ucontext,
	.get_port_immutable = siw_get_port_immutable,
	.query_gid = siw_query_gid,
	.query_port = siw_query_port,
	.fill_res_qp_entry = siw_fill_res_qp_entry,
};

/* What query_device reports: upstream siw's numbers. */
static void siw_set_props(struct siw_device *sdev)
{
	struct ib_device_attr *p = &sdev->rdi.dparms.props;

	p->device_cap_flags = IB_DEVICE_MEM_MGT_EXTENSIONS;
	p->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	p->max_cq = SIW_MAX_CQ;
	p->max_cqe = SIW_MAX_CQE;
	p->max_fast_reg_page_list_len = SIW_MAX_SGE_PBL;
	p->max_mr = SIW_MAX_MR;
	p->max_mr_size = ~0ULL;
	p->max_pd = SIW_MAX_PD;
	p->max_qp = SIW_MAX_QP;
	p->max_qp_init_rd_atom = SIW_MAX_IRD_QP;
	p->max_qp_rd_atom = SIW_MAX_ORD_QP;
	p->max_qp_wr = SIW_MAX_QP_WR;
	p->max_send_sge = SIW_MAX_SGE;
	p->max_recv_sge = SIW_MAX_SGE;
	p->max_res_rd_atom = SIW_MAX_QP * SIW_MAX_IRD_QP;
	p->max_sge_rd = SIW_MAX_SGE_RD;
	p->max_srq = SIW_MAX_SRQ;
	p->max_srq_sge = SIW_MAX_SGE;
	p->max_srq_wr = SIW_MAX_SRQ_WR;
	p->page_size_cap = PAGE_SIZE;
	p->vendor_id = SIW_VENDOR_ID;
	p->vendor_part_id = sdev->vendor_part_id;
	addrconf_addr_eui48((u8 *)&p->sys_image_guid, sdev->raw_gid);
	/*
	 * On-demand paging MRs (rdmavt offers them: dparms.wire_odp): a
	 * page the data path misses stops the transmitter, or the receiver
	 * (the bytes wait in the socket), until rdmavt faulted it in.
	 */
	if (IS_ENABLED(CONFIG_INFINIBAND_ON_DEMAND_PAGING))
		p->odp_caps.per_transport_caps.rc_odp_caps =
			IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_RECV |
			IB_ODP_SUPPORT_WRITE | IB_ODP_SUPPORT_READ |
			IB_ODP_SUPPORT_SRQ_RECV;
}

/*
 * After every client left: close what the CM still has (listeners,
 * connections, requests nobody answered); rdmavt frees the rest.
 */
static void siw_dealloc(struct rvt_dev_info *rdi)
{
	siw_cm_dev_stop(container_of(rdi, struct siw_device, rdi));
}

/*
 * rdmavt's modify_qp hook: the data path lets go of what an ERROR QP
 * holds, the connection manager ends the QP's connection on SQD, ERROR
 * or RESET.  Process context.
 */
static void siw_modify_qp(struct rvt_qp *qp, struct ib_qp_attr *attr,
			  int attr_mask, struct ib_udata *udata)
{
	siw_uring_modify_qp(qp, attr, attr_mask);
	siw_qp_modify(qp, attr, attr_mask, udata);
	siw_cm_qp_modified(qp, attr, attr_mask, udata);
}

static struct siw_device *siw_device_alloc(struct net_device *ndev)
{
	struct rvt_dev_info *rdi;
	struct siw_device *sdev;

	rdi = rvt_alloc_device(sizeof(*sdev), 1);
	if (!rdi)
		return NULL;
	sdev = container_of(rdi, struct siw_device, rdi);
	if (ndev->addr_len)
		memcpy(sdev->raw_gid, ndev->dev_addr,
		       min_t(unsigned int, ndev->addr_len, ETH_ALEN));
	else
		/* the CM needs a unique GID even without a MAC */
		eth_random_addr(sdev->raw_gid);
	sdev->vendor_part_id = atomic_inc_return(&siw_next_part_id);

	rdi->ibdev.node_type = RDMA_NODE_RNIC;
	/* now, not at registration: ib_device_set_netdev() checks the port */
	rdi->ibdev.phys_port_cnt = 1;
	addrconf_addr_eui48((u8 *)&rdi->ibdev.node_guid, sdev->raw_gid);
	strscpy(rdi->ibdev.node_desc, SIW_NODE_DESC,
		sizeof(rdi->ibdev.node_desc));
	strscpy(rdi->ibdev.iw_ifname, ndev->name,
		sizeof(rdi->ibdev.iw_ifname));
	/* upstream's choice; "port_map=1" lets iwpmd map our ports */
	rdi->ibdev.iw_driver_flags = siw_port_map ? 0 : IW_F_NO_PORT_MAP;
	ib_set_device_ops(&rdi->ibdev, &siw_dev_ops);
	ib_set_device_ops(&rdi->ibdev, &siw_cm_ops);
	/* rdmavt counts FPDUs as packets (siw_qp_tx.c, siw_qp_rx.c) */
	ib_set_device_ops(&rdi->ibdev, &rvt_hw_counter_ops);
	siw_cm_dev_init(sdev);
	siw_set_props(sdev);
	rdi->dparms.node = dev_to_node(&ndev->dev);
	rdi->driver_f.dealloc = siw_dealloc;
	/* the data path: FPDUs on the QP's TCP stream (siw_qp*.c) */
	rdi->driver_f.xmit_wqe = siw_xmit_wqe;
	rdi->driver_f.xmit_flush = siw_xmit_flush;
	rdi->driver_f.xmit_stop = siw_xmit_stop;
	rdi->driver_f.odp_resume = siw_odp_resume;
	rdi->dparms.wire_odp = true;
	rdi->driver_f.qp_priv_alloc = siw_qp_priv_alloc;
	rdi->driver_f.qp_priv_free = siw_qp_priv_free;
	/* both halves hear of a QP's state change; the CM of its destroy */
	rdi->driver_f.modify_qp = siw_modify_qp;
	rdi->driver_f.quiesce_qp = siw_cm_qp_quiesce;
	/* upstream siw carries RC QPs only */
	rdi->dparms.qp_types = BIT(IB_QPT_RC);
	/* libsiw maps siw's own queues (siw-abi.h), not rdmavt's */
	siw_uring_hooks(rdi);
	/* port 1; cannot fail for index 0 of a one port device */
	rvt_init_port(rdi, &sdev->port, 0, NULL);
	return sdev;
}

/**
 * siw_device_add - make and register a siw device on a net device
 * @name: the device's name (from "rdma link add NAME type siw")
 * @ndev: the net device its port sits on
 *
 * Context: process context; sleeps (device registration).
 * Return: 0, -EINVAL for a net device siw cannot use or a name template,
 * -EEXIST if @ndev already has a siw device, -ENOMEM, or an error from
 * the registration.
 */
int siw_device_add(const char *name, struct net_device *ndev)
{
	struct siw_device *sdev;
	struct ib_device *other;
	int ret;

	if (!siw_netdev_qualified(ndev) || strchr(name, '%'))
		return -EINVAL;
	other = ib_device_get_by_netdev(ndev, RDMA_DRIVER_SIW);
	if (other) {
		ib_device_put(other);
		return -EEXIST;
	}
	sdev = siw_device_alloc(ndev);
	if (!sdev)
		return -ENOMEM;
	ret = ib_device_set_netdev(&sdev->rdi.ibdev, ndev, SIW_PORT);
	if (ret)
		goto err_free;
	strscpy(sdev->rdi.ibdev.name, name, sizeof(sdev->rdi.ibdev.name));
	ib_mark_name_assigned_by_user(&sdev->rdi.ibdev);
	ret = rvt_register_device(&sdev->rdi);
	if (ret)
		goto err_free;
	ibdev_dbg(&sdev->rdi.ibdev, "on %s, GID %pM\n", ndev->name,
		  sdev->raw_gid);
	return 0;

err_free:
	rvt_dealloc_device(&sdev->rdi);
	return ret;
}

/**
 * siw_port_event - tell the device's users that its port changed
 * @sdev: the device
 * @type: IB_EVENT_PORT_ACTIVE, IB_EVENT_PORT_ERR, ...
 *
 * Context: any context (ib_dispatch_event() defers to a workqueue).
 */
void siw_port_event(struct siw_device *sdev, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &sdev->rdi.ibdev,
		.element.port_num = SIW_PORT,
		.event = type,
	};

	ib_dispatch_event(&ev);
}
