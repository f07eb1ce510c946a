// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt: devices, ports, protection domains and address handles, and
 * the verbs ops table every rdmavt device gets.
 *
 * The module's files, each with one job:
 *
 *   vt.c        devices, PDs, AHs, the ops table (this file)
 *   port.c      ports: management state, query/modify_port, LIDs, events
 *   mad.c       process_mad: the management classes rdmavt answers
 *   mad_sma.c   the subnet management agent (SubnGet/SubnSet)
 *   mad_portinfo.c  its PortInfo attribute
 *   mad_pma.c   the performance management agent (PortCounters)
 *   counters.c  the traffic counters the engine keeps for the PMA
 *   cq.c        completion queues
 *   mr.c        memory regions: the key table, registration, invalidation
 *   sge.c       the SGE walk and the lkey/rkey checks every data path uses
 *   qp.c        the QP table and the QP verbs (create, modify, post send)
 *   qp_event.c  QP events and the error state
 *   rq.c        receive queues, SRQs, taking a receive WQE, flushing them
 *   rc.c        RC: AETH and credits, RNR and retry timers, the ACK
 *   mcast.c     multicast groups and their delivery
 *   sq.c        the send queue scheduler: which request runs, and where
 *   req.c       the requester of the in-memory delivery, by opcode class
 *   route.c     finding the responder QP on this host
 *   recv.c      the responder's receive (SEND placement), also for wires
 *   rdma.c      the responder's RDMA WRITE and READ, also for wires
 *   atomic.c    the responder's atomics
 *   comp.c      send completions, in order
 *
 * Locks, outermost first ("A > B": B may be taken while A is held; no
 * other nesting exists):
 *
 *   ibp->lock (port, mcast tree; irqs off) > rvt_mcast_n_lock (mcast.c)
 *   ibp->mgmt_lock (IRQ safe; the port's    nests nothing of rdmavt
 *   management state)
 *   qp->r_lock (BH; the responder side)   > rq->lock (IRQ safe)
 *                                         > the key table's xa_lock
 *                                         > cq->lock (IRQ safe)
 *   qp->s_lock (IRQ safe; the send ring)  > timers, the workqueue's locks,
 *                                           an MR's completion (last put)
 *   qp->state_lock (IRQ safe; the state)    nests nothing of rdmavt
 *   rdi->qp_table's xa_lock (IRQ safe)      nests nothing of rdmavt
 *   rdi->ah_table's xa_lock (IRQ safe; a    nests nothing of rdmavt
 *   user AH's number and its hold)
 *   rvt_atomic_lock (atomic.c)              innermost, BH off
 *
 * A driver's user rings (driver_user_abi) are reached through its hooks
 * under the lock of what they stand for: a CQ's (user_cq_push,
 * user_cq_empty) under cq->lock, a receive ring's (user_rq_take,
 * user_rq_count) under rq->lock, a send ring's slots freed
 * (user_sq_retired) under qp->s_lock; the hooks take no rdmavt lock.
 * The doorbell (user_sq_doorbell) runs with no rdmavt lock held, and
 * what it takes to serialise itself nests outside qp->s_lock and the
 * AH table's lock (rvt_post_ring_wr()).
 *
 * The QP locks never nest in one another, not even across two QPs: the
 * engine owns a QP's send side by RVT_S_BUSY in s_flags, not by holding
 * s_lock, and takes a responder's r_lock for a receive only, holding no
 * lock of the requester.  Two QPs sending to each other cannot deadlock.
 * Event handlers and CQ completion handlers are called with no rdmavt
 * lock held except, for a receive completion, the responder's r_lock
 * (bottom halves off).  rvt_engine_active (per CPU, sq.c) is not a lock:
 * it marks a CPU inside the engine, so that a post made from a handler
 * there defers to the work item instead of running an engine within an
 * engine.
 *
 * Calling contexts:
 *
 *   verbs that create, modify, destroy or register (QP, CQ, SRQ, MR,
 *   multicast attach)                     process context, may sleep
 *   post_send                             any context; runs the engine
 *                                         in the poster's context
 *                                         (rvt_kick_sq(), at most 32
 *                                         requests, bottom halves off per
 *                                         request) unless that context
 *                                         forbids it, then the work item
 *   post_recv, post_srq_recv, poll_cq,
 *   req_notify_cq                         any context
 *   the engine's work item (rdi->wq)      process context; runs after
 *                                         timers, state changes and what
 *                                         a poster's budget left
 *   RNR timer (hrtimer), retry timer      timer context: flag, reschedule
 *   a wire driver's calls into rdmavt     process or softirq context (see
 *   (rdmavt_qp.h, "the wire-driver        each function); xmit_wqe is
 *   boundary")                            called from the engine, BH off;
 *                                         xmit_stop from RESET and
 *                                         destroy, process context
 */

#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/rdma_vt.h>

#include "vt.h"
#include "mad.h"

/* Limits a driver gets when it leaves them zero. */
static void rvt_default_props(struct rvt_dev_info *rdi)
{
	struct ib_device_attr *p = &rdi->dparms.props;

#define RVT_DEFAULT(field, value) do { if (!p->field) p->field = (value); } \
	while (0)
	RVT_DEFAULT(max_mr_size, U64_MAX);
	RVT_DEFAULT(page_size_cap, PAGE_SIZE | SZ_4K);
	RVT_DEFAULT(max_qp, 4096);
	RVT_DEFAULT(max_qp_wr, 16384);
	RVT_DEFAULT(max_send_sge, RVT_MAX_SGE);
	RVT_DEFAULT(max_recv_sge, RVT_MAX_SGE);
	RVT_DEFAULT(max_sge_rd, RVT_MAX_SGE);
	RVT_DEFAULT(max_cq, 4096);
	RVT_DEFAULT(max_cqe, 65535);
	RVT_DEFAULT(max_mr, 65536);
	RVT_DEFAULT(max_pd, 4096);
	RVT_DEFAULT(max_qp_rd_atom, 16);
	RVT_DEFAULT(max_qp_init_rd_atom, 16);
	RVT_DEFAULT(max_srq, 1024);
	RVT_DEFAULT(max_srq_wr, 16384);
	RVT_DEFAULT(max_srq_sge, RVT_MAX_SGE);
	RVT_DEFAULT(max_fast_reg_page_list_len, 512);
	/* windows share the key table with the MRs */
	if (p->device_cap_flags & IB_DEVICE_MEM_WINDOW)
		RVT_DEFAULT(max_mw, p->max_mr);
	p->max_send_sge = min_t(int, p->max_send_sge, RVT_MAX_SGE);
	p->max_recv_sge = min_t(int, p->max_recv_sge, RVT_MAX_SGE);
	p->max_srq_sge = min_t(int, p->max_srq_sge, RVT_MAX_SGE);
	/* a READ scatters into its send WQE's SGEs: no more than those */
	p->max_sge_rd = min_t(int, p->max_sge_rd, p->max_send_sge);
	/* iWARP: no atomics, datagrams or RNR NAKs; the driver says the rest */
	if (rdi->ibdev.node_type == RDMA_NODE_RNIC)
		return;
	RVT_DEFAULT(max_ah, 65536);
	RVT_DEFAULT(max_pkeys, RVT_MAX_PKEYS);
	RVT_DEFAULT(max_mcast_grp, 1024);
	RVT_DEFAULT(max_mcast_qp_attach, 64);
	RVT_DEFAULT(max_total_mcast_qp_attach,
		    p->max_mcast_grp * p->max_mcast_qp_attach);
	p->atomic_cap = IB_ATOMIC_HCA;
	p->device_cap_flags |= IB_DEVICE_MEM_MGT_EXTENSIONS |
			       IB_DEVICE_RC_RNR_NAK_GEN |
			       IB_DEVICE_SYS_IMAGE_GUID |
			       IB_DEVICE_PORT_ACTIVE_EVENT;
	p->sys_image_guid = rdi->ibdev.node_guid;
#undef RVT_DEFAULT
}

static int rvt_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *props,
			    struct ib_udata *udata)
{
	*props = ib_to_rvt(ibdev)->dparms.props;
	return 0;
}

static int rvt_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibpd->device);
	int ret = 0;

	spin_lock(&rdi->n_lock);
	if (rdi->n_pds >= rdi->dparms.props.max_pd)
		ret = -ENOMEM;
	else
		rdi->n_pds++;
	spin_unlock(&rdi->n_lock);
	return ret;
}

static int rvt_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibpd->device);

	spin_lock(&rdi->n_lock);
	rdi->n_pds--;
	spin_unlock(&rdi->n_lock);
	return 0;
}

/**
 * rvt_check_ah - validate an address vector of an rdmavt device
 * @ibdev: the device
 * @ah_attr: the address vector (of an AH, or a QP's IB_QP_AV)
 *
 * Checks the port, the service level (0..15), the static rate, the
 * destination LID (not 0; a multicast LID only with a GRH) and the GRH's
 * source GID index, then calls the driver's driver_f.check_ah if any.
 * On a RoCE device (dparms.roce) the address vector has no LID and must
 * have a GRH.
 *
 * Context: Any context create_ah allows (it may be atomic without
 * RDMA_CREATE_AH_SLEEPABLE); does not sleep itself.  Reads the GID table
 * length from the port's immutable data, never query_port (a RoCE
 * driver's asks the net device under RTNL), and calls the driver's
 * driver_f.check_ah, which must not sleep either.
 *
 * Return: 0 or -EINVAL (or the driver hook's error).
 */
int rvt_check_ah(struct ib_device *ibdev, struct rdma_ah_attr *ah_attr)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibdev);
	u32 port = rdma_ah_get_port_num(ah_attr);
	u8 rate = rdma_ah_get_static_rate(ah_attr);
	u32 dlid = rdma_ah_get_dlid(ah_attr);
	bool grh = rdma_ah_get_ah_flags(ah_attr) & IB_AH_GRH;

	if (!rdma_is_port_valid(ibdev, port))
		return -EINVAL;
	if (rdma_ah_get_sl(ah_attr) > 15)
		return -EINVAL;
	if (rate != IB_RATE_PORT_CURRENT && ib_rate_to_mbps(rate) < 0)
		return -EINVAL;
	if (rdi->dparms.roce) {
		if (!grh)
			return -EINVAL;
		goto grh;
	}
	if (!dlid)
		return -EINVAL;
	if (dlid >= be16_to_cpu(IB_MULTICAST_LID_BASE) &&
	    dlid != be16_to_cpu(IB_LID_PERMISSIVE) && !grh)
		return -EINVAL;
grh:
	if (grh && rdma_ah_read_grh(ah_attr)->sgid_index >=
		   ib_port_immutable_read(ibdev, port)->gid_tbl_len)
		return -EINVAL;
	if (rdi->driver_f.check_ah)
		return rdi->driver_f.check_ah(ibdev, ah_attr);
	return 0;
}
EXPORT_SYMBOL(rvt_check_ah);

/*
 * A user AH of a driver with a user ABI of its own gets a number, by
 * which the requests of the driver's send rings name it
 * (rvt_post_ring_wr()); the driver answers it (create_user_ah).
 */
static int rvt_number_user_ah(struct rvt_dev_info *rdi, struct rvt_ah *ah,
			      u32 flags, struct ib_udata *udata)
{
	gfp_t gfp = flags & RDMA_CREATE_AH_SLEEPABLE ? GFP_KERNEL : GFP_ATOMIC;
	int ret;

	ret = xa_alloc_irq(&rdi->ah_table, &ah->num, ah, xa_limit_32b, gfp);
	if (ret)
		return ret;
	if (rdi->driver_f.create_user_ah) {
		ret = rdi->driver_f.create_user_ah(ah, udata);
		if (ret) {
			xa_erase_irq(&rdi->ah_table, ah->num);
			ah->num = 0;
		}
	}
	return ret;
}

/**
 * rvt_user_ah_get - hold a user AH named by its number for a request
 * @qp: the QP posting; the AH must be of its PD
 * @num: the AH's number (struct rvt_ah.num)
 *
 * The hold (rvt_ah.wqes) keeps the AH from being destroyed; the check
 * and the hold are one step under the AH table's lock, as are
 * rvt_destroy_ah()'s check and removal.
 *
 * Context: any; takes the AH table's lock (IRQ safe).
 * Return: the AH, held (rvt_user_ah_put()), or NULL.
 */
struct rvt_ah *rvt_user_ah_get(struct rvt_qp *qp, u32 num)
{
	struct rvt_dev_info *rdi = qp->rdi;
	unsigned long flags;
	struct rvt_ah *ah;

	if (!num)
		return NULL;
	xa_lock_irqsave(&rdi->ah_table, flags);
	ah = xa_load(&rdi->ah_table, num);
	if (ah && ah->ibah.pd == qp->ibqp.pd)
		atomic_inc(&ah->wqes);
	else
		ah = NULL;
	xa_unlock_irqrestore(&rdi->ah_table, flags);
	return ah;
}

/* Drop the hold of rvt_user_ah_get(). */
void rvt_user_ah_put(struct rvt_ah *ah)
{
	atomic_dec(&ah->wqes);
}

static int rvt_create_ah(struct ib_ah *ibah,
			 struct rdma_ah_init_attr *init_attr,
			 struct ib_udata *udata)
{
	struct rvt_ah *ah = container_of(ibah, struct rvt_ah, ibah);
	struct rvt_dev_info *rdi = ib_to_rvt(ibah->device);

	int ret;

	if (init_attr->ah_attr->type != (rdi->dparms.roce ?
					  RDMA_AH_ATTR_TYPE_ROCE :
					  RDMA_AH_ATTR_TYPE_IB))
		return -EINVAL;
	ret = rvt_check_ah(ibah->device, init_attr->ah_attr);
	if (ret)
		return ret;

	if (atomic_inc_return(&rdi->n_ahs) > rdi->dparms.props.max_ah) {
		atomic_dec(&rdi->n_ahs);
		return -ENOMEM;
	}

	ah->attr = *init_attr->ah_attr;
	atomic_set(&ah->wqes, 0);
	/* the core holds the AH's GID reference in ibah->sgid_attr */
	ah->attr.grh.sgid_attr = NULL;
	if (udata && rdi->dparms.driver_user_abi) {
		ret = rvt_number_user_ah(rdi, ah, init_attr->flags, udata);
		if (ret)
			atomic_dec(&rdi->n_ahs);
	}
	return ret;
}

static int rvt_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *ah_attr)
{
	struct rvt_ah *ah = container_of(ibah, struct rvt_ah, ibah);

	*ah_attr = ah->attr;
	return 0;
}

static int rvt_destroy_ah(struct ib_ah *ibah, u32 destroy_flags)
{
	struct rvt_ah *ah = container_of(ibah, struct rvt_ah, ibah);
	struct rvt_dev_info *rdi = ib_to_rvt(ibah->device);
	unsigned long flags;

	/*
	 * A user datagram still queued reads it: the context retries.  A
	 * numbered one leaves the table in the step that checks, so that
	 * no request takes it after the check.
	 */
	xa_lock_irqsave(&rdi->ah_table, flags);
	if (atomic_read(&ah->wqes)) {
		xa_unlock_irqrestore(&rdi->ah_table, flags);
		return -EBUSY;
	}
	if (ah->num)
		__xa_erase(&rdi->ah_table, ah->num);
	xa_unlock_irqrestore(&rdi->ah_table, flags);
	atomic_dec(&rdi->n_ahs);
	return 0;
}

/*
 * A user context (ib_uverbs): rdmavt keeps nothing per context; a driver
 * with a user ABI of its own (siw, rxe) sets alloc_ucontext first.
 */
static int rvt_alloc_ucontext(struct ib_ucontext *uctx, struct ib_udata *udata)
{
	return 0;
}

static void rvt_dealloc_ucontext(struct ib_ucontext *uctx)
{
}

static const struct ib_device_ops rvt_dev_ops = {
	.alloc_mr = rvt_alloc_mr,
	.attach_mcast = rvt_attach_mcast,
	.alloc_pd = rvt_alloc_pd,
	.alloc_ucontext = rvt_alloc_ucontext,
	.create_ah = rvt_create_ah,
	.create_cq = rvt_create_cq,
	.create_qp = rvt_create_qp,
	.create_srq = rvt_create_srq,
	.create_user_ah = rvt_create_ah,
	.dealloc_pd = rvt_dealloc_pd,
	.dealloc_ucontext = rvt_dealloc_ucontext,
	.dereg_mr = rvt_dereg_mr,
	.destroy_ah = rvt_destroy_ah,
	.destroy_cq = rvt_destroy_cq,
	.destroy_qp = rvt_destroy_qp,
	.destroy_srq = rvt_destroy_srq,
	.detach_mcast = rvt_detach_mcast,
	.get_dma_mr = rvt_get_dma_mr,
	.get_port_immutable = rvt_get_port_immutable,
	.map_mr_sg = rvt_map_mr_sg,
	.mmap = rvt_mmap,
	.mmap_free = rvt_mmap_free,
	.modify_cq = rvt_modify_cq,
	.modify_qp = rvt_modify_qp,
	.modify_srq = rvt_modify_srq,
	.poll_cq = rvt_poll_cq,
	.post_recv = rvt_post_recv,
	.post_send = rvt_post_send,
	.post_srq_recv = rvt_post_srq_recv,
	.query_ah = rvt_query_ah,
	.query_device = rvt_query_device,
	.query_gid = rvt_query_gid,
	.query_pkey = rvt_query_pkey,
	.query_port = rvt_query_port,
	.query_qp = rvt_query_qp,
	.query_srq = rvt_query_srq,
	.reg_user_mr = rvt_reg_user_mr,
	.req_notify_cq = rvt_req_notify_cq,
	.rereg_user_mr = rvt_rereg_user_mr,
	.resize_cq = rvt_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, rvt_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, rvt_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, rvt_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, rvt_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, rvt_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, rvt_ucontext, ibucontext),
};

/* Memory windows, where the driver offers them (IB_DEVICE_MEM_WINDOW). */
static const struct ib_device_ops rvt_mw_ops = {
	.alloc_mw = rvt_alloc_mw,
	.dealloc_mw = rvt_dealloc_mw,

	INIT_RDMA_OBJ_SIZE(ib_mw, rvt_mw, ibmw),
};

/* Ops of InfiniBand devices only: port management and their agents. */
static const struct ib_device_ops rvt_ib_ops = {
	.modify_port = rvt_modify_port,
	.process_mad = rvt_process_mad,
};

/**
 * rvt_alloc_device - allocate an rdmavt device
 * @size: size of the driver's structure, which starts with a struct
 *	rvt_dev_info
 * @nports: number of ports (1..4)
 *
 * The driver then hands rdmavt each port with rvt_init_port().
 *
 * Context: Process context; sleeps (GFP_KERNEL).
 *
 * Return: the zeroed device, or NULL.
 */
struct rvt_dev_info *rvt_alloc_device(size_t size, int nports)
{
	struct rvt_dev_info *rdi;
	struct ib_device *ibdev;

	if (nports < 1 || nports > ARRAY_SIZE(rdi->dparms.lid) ||
	    size < sizeof(*rdi))
		return NULL;

	ibdev = _ib_alloc_device(size);
	if (!ibdev)
		return NULL;
	rdi = ib_to_rvt(ibdev);
	rdi->ports = kcalloc(nports, sizeof(*rdi->ports), GFP_KERNEL);
	if (!rdi->ports) {
		ib_dealloc_device(ibdev);
		return NULL;
	}
	rdi->dparms.nports = nports;
	xa_init_flags(&rdi->qp_table, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&rdi->lkey_table.table, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&rdi->counters, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&rdi->ah_table, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	spin_lock_init(&rdi->n_lock);
	return rdi;
}
EXPORT_SYMBOL(rvt_alloc_device);

/* Release what rdmavt allocated for a device; the memory stays. */
static void rvt_release(struct rvt_dev_info *rdi)
{
	if (rdi->wq) {
		destroy_workqueue(rdi->wq);
		rdi->wq = NULL;
	}
	WARN_ON(!xa_empty(&rdi->qp_table));
	WARN_ON(!xa_empty(&rdi->lkey_table.table));
	xa_destroy(&rdi->qp_table);
	xa_destroy(&rdi->lkey_table.table);
	xa_destroy(&rdi->ah_table);
	WARN_ON(rdi->n_mcast_grps_allocated);
	rvt_ports_release(rdi);
	kfree(rdi->ports);
	rdi->ports = NULL;
}

/*
 * ops.dealloc_driver of devices whose driver provides driver_f.dealloc.
 * The driver's hook goes first: it takes the device off its fabric, so
 * no sender reaches the ports and tables torn down next.  ib_core keeps
 * the device's unregistration lock (and its index) until this returns.
 */
static void rvt_dealloc_driver(struct ib_device *ibdev)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibdev);

	rdi->driver_f.dealloc(rdi);
	rvt_release(rdi);
}

static const struct ib_device_ops rvt_dealloc_ops = {
	.dealloc_driver = rvt_dealloc_driver,
};

/**
 * rvt_dealloc_device - free an rdmavt device that is not registered
 * @rdi: the device, never registered or whose registration failed
 *
 * A device with driver_f.dealloc whose rvt_register_device() was called
 * gets that hook run from here.
 *
 * Context: Process context; sleeps (destroys the engine's workqueue,
 * runs driver_f.dealloc when set).
 */
void rvt_dealloc_device(struct rvt_dev_info *rdi)
{
	/* with dealloc_driver, ib_dealloc_device() runs rvt_release() */
	if (!rdi->ibdev.ops.dealloc_driver)
		rvt_release(rdi);
	ib_dealloc_device(&rdi->ibdev);
}
EXPORT_SYMBOL(rvt_dealloc_device);

/**
 * rvt_register_device - register an rdmavt device
 * @rdi: the device; rdi->ibdev.name holds the name or name template, the
 *	node GUID, dparms and driver_f are filled in and every port went
 *	through rvt_init_port()
 *
 * On failure the driver frees the device with rvt_dealloc_device().
 *
 * Context: Process context; sleeps (workqueue allocation,
 * ib_register_device()). Not with the RTNL lock held.
 *
 * Return: 0 or a negative error (-EINVAL for an incomplete device: a
 * port not initialised, xmit_wqe without xmit_stop and xmit_flush, ...).
 */
int rvt_register_device(struct rvt_dev_info *rdi)
{
	char name[IB_DEVICE_NAME_MAX];
	u32 i;
	int ret;

	/* first: from here on the dealloc hook owns the driver's cleanup */
	if (rdi->driver_f.dealloc)
		ib_set_device_ops(&rdi->ibdev, &rvt_dealloc_ops);
	/* An IB device unless the driver said otherwise (siw: RNIC) */
	if (!rdi->ibdev.node_type)
		rdi->ibdev.node_type = RDMA_NODE_IB_CA;
	/* LIDs address IB ports only; a wire driver finds its peers itself */
	if (rdi->ibdev.node_type == RDMA_NODE_IB_CA && !rdi->dparms.roce &&
	    !rdi->driver_f.find_dev_by_lid)
		return -EINVAL;
	for (i = 0; i < rdi->dparms.nports; i++)
		if (!rdi->ports[i])
			return -EINVAL;
	/* a driver holding requests must be able to let go of them */
	if (rdi->driver_f.xmit_wqe &&
	    (!rdi->driver_f.xmit_stop || !rdi->driver_f.xmit_flush))
		return -EINVAL;

	rvt_default_props(rdi);
	rvt_odp_props(rdi);
	ret = rvt_ports_init(rdi);
	if (ret)
		return ret;
	if (rdi->ibdev.node_type == RDMA_NODE_IB_CA && !rdi->dparms.roce)
		ib_set_device_ops(&rdi->ibdev, &rvt_ib_ops);
	ib_set_device_ops(&rdi->ibdev, &rvt_dev_ops);
	if (rdi->dparms.props.device_cap_flags & IB_DEVICE_MEM_WINDOW)
		ib_set_device_ops(&rdi->ibdev, &rvt_mw_ops);
	/* rdmavt's user ABI unless the driver has its own (siw, rxe) */
	if (!rdi->ibdev.ops.uverbs_abi_ver)
		rdi->ibdev.ops.uverbs_abi_ver = RVT_UVERBS_ABI_VERSION;
	rdi->ibdev.phys_port_cnt = rdi->dparms.nports;
	rdi->ibdev.num_comp_vectors = 1;
	rdi->ibdev.use_cq_dim = 1;

	rdi->wq = alloc_workqueue("rvt_%s", WQ_UNBOUND | WQ_MEM_RECLAIM, 0,
				  rdi->ibdev.name);
	if (!rdi->wq)
		return -ENOMEM;

	strscpy(name, rdi->ibdev.name, sizeof(name));
	ret = ib_register_device(&rdi->ibdev, name, NULL);
	if (ret)
		goto err_wq;
	return 0;

err_wq:
	destroy_workqueue(rdi->wq);
	rdi->wq = NULL;
	return ret;
}
EXPORT_SYMBOL(rvt_register_device);

/**
 * rvt_unregister_device - unregister an rdmavt device
 * @rdi: the device
 *
 * The clients destroy their objects first; the engine's workqueue goes
 * once they are gone.  A device with driver_f.dealloc is freed before
 * this returns (or by whoever unregisters it concurrently); the caller
 * must not touch it afterwards.  Others are freed with
 * rvt_dealloc_device().
 *
 * Context: Process context; sleeps until every client let go of the device
 * and the engine's workqueue drained. Not with the RTNL lock held.
 */
void rvt_unregister_device(struct rvt_dev_info *rdi)
{
	if (rdi->ibdev.ops.dealloc_driver) {
		ib_unregister_device(&rdi->ibdev);
		return;
	}
	ib_unregister_device(&rdi->ibdev);
	destroy_workqueue(rdi->wq);
	rdi->wq = NULL;
}
EXPORT_SYMBOL(rvt_unregister_device);

MODULE_DESCRIPTION("RDMA verbs transport library");
MODULE_LICENSE("Dual BSD/GPL");
