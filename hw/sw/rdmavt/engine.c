// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rdmavt send engine: it takes a QP's send ring in order and
 * executes each request against the destination QP, which it finds
 * through the driver (LID -> device) and the device's QP table:
 *
 *  - SEND takes a receive WQE of the destination (rvt_get_rwqe()) and
 *    copies the gather list into its scatter list;
 *  - RDMA WRITE and READ copy between the local SGEs and the remote MR
 *    the rkey names, after the key and access checks (rvt_rkey_ok());
 *  - atomics operate on 8 aligned bytes under one lock of rdmavt;
 *  - REG_MR and LOCAL_INV change a local MR.
 *
 * The local SGEs of a request are checked (rvt_lkey_ok()) when it starts
 * and keep their MRs referenced until it completes.  An RC request that
 * finds no receive WQE waits for the responder's RNR NAK timer
 * (rvt_add_rnr_timer()) and tries again, rnr_retry times (7: for ever),
 * then fails with IB_WC_RNR_RETRY_EXC_ERR; one that finds no responder
 * waits the local ACK timeout and sends again, retry_cnt times, then
 * fails with IB_WC_RETRY_EXC_ERR.  Each RC request that succeeds brings
 * back the responder's AETH (rvt_compute_aeth(), rvt_get_credit()).
 * Errors complete the request with the status IBTA gives it (local:
 * LOC_*; detected by the responder: REM_* at the requester, and the
 * responder's QP goes to the error state) and move the QP to the error
 * state, which flushes everything posted (IB_WC_WR_FLUSH_ERR).
 *
 * Context: a post runs the engine of its QP at once, in the poster's
 * context, when that context allows it (rvt_kick_sq()); otherwise, and
 * after timers and state changes, the QP's work item on rdi->wq runs it.
 *
 * Locks: the engine of a QP runs in one context at a time (RVT_S_BUSY in
 * s_flags), so qp->s_sge and the request at sq_tail are its own.  It
 * holds no lock of its QP while it works on the destination, whose
 * r_lock it takes to receive; QPs sending to each other cannot deadlock.
 */

#include <rdma/rdma_vt.h>

#include "vt.h"

/* serialises the atomic operations of every rdmavt device */
static DEFINE_SPINLOCK(rvt_atomic_lock);

/* s_flags private to the engine: a kick came while it ran */
#define RVT_S_AGAIN	0x80000000

/* requests the engine executes in a poster's context, at most */
#define RVT_INLINE_BUDGET	32

/*
 * Raised while this CPU's engine executes a request (bottom halves off,
 * so it stays on the CPU): a post from there goes to the work item.
 */
static DEFINE_PER_CPU(unsigned int, rvt_engine_active);

/* Result of executing one request. */
enum rvt_exec {
	RVT_DONE,	/* complete with the status given */
	RVT_RNR,	/* no receive WQE at the responder: RNR NAK */
	RVT_RETRY,	/* no responder answered: send again after a timeout */
};

static struct rvt_cq *send_cq(struct rvt_qp *qp)
{
	return container_of(qp->ibqp.send_cq, struct rvt_cq, ibcq);
}

static struct rvt_cq *recv_cq(struct rvt_qp *qp)
{
	return container_of(qp->ibqp.recv_cq, struct rvt_cq, ibcq);
}

static enum ib_wc_opcode wc_opcode(enum ib_wr_opcode op)
{
	switch (op) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
		return IB_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return IB_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return IB_WC_FETCH_ADD;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	default:
		return IB_WC_SEND;
	}
}

static void rvt_send_complete(struct rvt_qp *qp, struct rvt_swqe *wqe,
			      enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_id = wqe->wr.wr_id,
		.status = status,
		.opcode = wc_opcode(wqe->wr.opcode),
		.qp = &qp->ibqp,
	};

	/* errors always complete; successes only when signaled */
	if (status == IB_WC_SUCCESS && !qp->sq_sig_all &&
	    !(wqe->wr.send_flags & IB_SEND_SIGNALED))
		return;
	if (wqe->wr.opcode == IB_WR_RDMA_READ)
		wc.byte_len = wqe->length;
	else if (wqe->wr.opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
		 wqe->wr.opcode == IB_WR_ATOMIC_FETCH_AND_ADD)
		wc.byte_len = sizeof(u64);
	rvt_cq_enter(send_cq(qp), &wc, false);
}

/*
 * Check the SGEs of @wqe as posted (wr.sg_list) into wqe->sg_list, with
 * @acc; zero length ones are dropped.  Returns 0 or -EINVAL.
 */
static int rvt_resolve_wqe(struct rvt_qp *qp, struct rvt_swqe *wqe, int acc)
{
	struct rvt_pd *pd = container_of(qp->ibqp.pd, struct rvt_pd, ibpd);
	struct ib_sge *posted = wqe->wr.sg_list;
	int i, ret;
	u32 j = 0;

	if (wqe->resolved)
		return 0;
	for (i = 0; i < wqe->wr.num_sge; i++) {
		if (!posted[i].length)
			continue;
		ret = rvt_lkey_ok(&qp->rdi->lkey_table, pd, &wqe->sg_list[j],
				  j ? &wqe->sg_list[j - 1] : NULL, &posted[i],
				  acc);
		if (ret < 0)
			goto bad;
		j += ret;
	}
	wqe->wr.num_sge = j;
	wqe->resolved = true;
	return 0;
bad:
	while (j)
		rvt_put_mr(wqe->sg_list[--j].mr);
	return -EINVAL;
}

/**
 * rvt_put_swqe - drop the MR references of a send request's SGEs
 * @wqe: the request
 */
void rvt_put_swqe(struct rvt_swqe *wqe)
{
	int i;

	if (!wqe->resolved)
		return;
	for (i = 0; i < wqe->wr.num_sge; i++)
		rvt_put_mr(wqe->sg_list[i].mr);
	wqe->resolved = false;
}

/* Copy @len bytes from the walk @src to the walk @dst (of @dqp). */
static void rvt_ss_copy(struct rvt_qp *dqp, struct rvt_sge_state *dst,
			struct rvt_sge_state *src, u32 len, bool release)
{
	while (len) {
		u32 n = rvt_ss_piece(src, len);

		if (!n)
			return;
		rvt_copy_sge(dqp, dst, src->sge.vaddr, n, release, false);
		rvt_update_sge(src, n, false);
		len -= n;
	}
}

static u32 rvt_port_lid(struct rvt_dev_info *rdi, u32 port)
{
	return rdi->dparms.lid[port - 1];
}

/* The port of @rdi with LID @lid, or 0. */
static u32 rvt_port_of_lid(struct rvt_dev_info *rdi, u32 lid)
{
	u32 i;

	for (i = 0; i < rdi->dparms.nports; i++)
		if (rdi->dparms.lid[i] == lid)
			return i + 1;
	return 0;
}

static inline bool rvt_datagram(struct rvt_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UD ||
	       qp->ibqp.qp_type == IB_QPT_GSI ||
	       qp->ibqp.qp_type == IB_QPT_SMI;
}

static struct rvt_qp *rvt_find_dest(struct rvt_qp *qp, struct rvt_swqe *wqe)
{
	struct rvt_dev_info *rdi = qp->rdi, *dest;
	u32 dlid, dqpn, port;
	struct rvt_qp *dqp;

	if (rvt_datagram(qp)) {
		struct rvt_ah *ah = container_of(wqe->ud_wr.ah, struct rvt_ah,
						 ibah);

		dlid = rdma_ah_get_dlid(&ah->attr);
		dqpn = wqe->ud_wr.remote_qpn;
	} else {
		dlid = rdma_ah_get_dlid(&qp->remote_ah_attr);
		dqpn = qp->remote_qpn;
	}

	/*
	 * The driver unlinks a device and waits for RCU readers before it
	 * frees it, and destroy waits for them before it lets go of a QP:
	 * both stay valid until the QP is referenced.
	 */
	rcu_read_lock();
	if (!dlid || dlid == rvt_port_lid(rdi, qp->port_num)) {
		dest = rdi;
		port = qp->port_num;
	} else {
		dest = rdi->driver_f.find_dev_by_lid(rdi, qp->port_num, dlid);
		port = dest ? rvt_port_of_lid(dest, dlid) : 0;
	}
	dqp = port ? rvt_lookup_qpn(dest, dest->ports[port - 1], dqpn) : NULL;
	if (dqp)
		rvt_get_qp(dqp);
	rcu_read_unlock();
	return dqp;
}

/* May the responder QP take a request of @qp now? */
static bool rvt_responder_ok(struct rvt_qp *qp, struct rvt_qp *dqp)
{
	enum ib_qp_state s = READ_ONCE(dqp->state);

	if (s != IB_QPS_RTR && s != IB_QPS_RTS && s != IB_QPS_SQD)
		return false;
	if (dqp->ibqp.qp_type != qp->ibqp.qp_type &&
	    !(qp->ibqp.qp_type == IB_QPT_UD &&
	      dqp->ibqp.qp_type == IB_QPT_GSI) &&
	    !(qp->ibqp.qp_type == IB_QPT_GSI &&
	      dqp->ibqp.qp_type == IB_QPT_UD))
		return false;
	if (!rvt_datagram(qp))
		return dqp->remote_qpn == qp->ibqp.qp_num;
	return true;
}

/*
 * A datagram sent through an AH with a GRH arrives with that GRH in the
 * first 40 bytes of the receive buffer; without one the space stays
 * untouched.  Returns true when it wrote one.
 */
static noinline_for_stack bool rvt_put_grh(struct rvt_qp *qp,
					   struct rvt_qp *dqp,
					   struct rvt_swqe *wqe)
{
	const struct rdma_ah_attr *attr =
		&container_of(wqe->ud_wr.ah, struct rvt_ah, ibah)->attr;
	const struct ib_global_route *route;
	struct rvt_dev_info *rdi = qp->rdi;
	struct ib_grh grh = {};
	u32 paylen;

	if (!(rdma_ah_get_ah_flags(attr) & IB_AH_GRH)) {
		rvt_skip_sge(&dqp->r_sge, RVT_GRH_BYTES, true);
		return false;
	}
	route = rdma_ah_read_grh(attr);

	/* BTH, DETH, the payload padded to 4 bytes, optional ImmDt, ICRC */
	paylen = 12 + 8 + ALIGN(wqe->length, 4) + 4;
	if (wqe->wr.opcode == IB_WR_SEND_WITH_IMM)
		paylen += 4;
	grh.version_tclass_flow = cpu_to_be32(6U << 28 |
					      (u32)route->traffic_class << 20 |
					      (route->flow_label & 0xfffff));
	grh.paylen = cpu_to_be16(paylen);
	grh.next_hdr = RVT_GRH_NEXT_HDR;
	grh.hop_limit = route->hop_limit;
	/* the sender's port GID (rdmavt ports have one, at index 0) */
	grh.sgid.global.subnet_prefix = cpu_to_be64(rdi->dparms.gid_prefix);
	grh.sgid.global.interface_id =
		cpu_to_be64(be64_to_cpu(rdi->ibdev.node_guid) + qp->port_num);
	grh.dgid = route->dgid;
	rvt_copy_sge(dqp, &dqp->r_sge, &grh, sizeof(grh), true, false);
	return true;
}

/*
 * A receive WQE at the responder: SEND and WRITE_WITH_IMM (whose data
 * already landed).  Returns the requester's status; *rnr when there was
 * no receive WQE, *dqp_err when the responder QP must go to the error
 * state.  With @ack (RC), a success also moves the responder's MSN on
 * and puts its AETH in *@ack, under the r_lock taken anyway.
 */
static enum ib_wc_status rvt_do_recv(struct rvt_qp *qp, struct rvt_qp *dqp,
				     struct rvt_swqe *wqe, bool *rnr,
				     bool *dqp_err, __be32 *ack)
{
	u32 skip = rvt_datagram(qp) ? RVT_GRH_BYTES : 0;
	enum ib_wr_opcode op = wqe->wr.opcode;
	bool is_send = op != IB_WR_RDMA_WRITE_WITH_IMM;
	struct ib_wc wc = {};
	int ret;

	spin_lock_bh(&dqp->r_lock);
	ret = rvt_get_rwqe(dqp, !is_send);
	if (!ret) {
		spin_unlock_bh(&dqp->r_lock);
		*rnr = true;
		return IB_WC_SUCCESS;
	}
	if (ret < 0) {
		/* completed with IB_WC_LOC_PROT_ERR by rvt_get_rwqe() */
		spin_unlock_bh(&dqp->r_lock);
		wc.status = IB_WC_LOC_PROT_ERR;
		goto err;
	}
	clear_bit(RVT_R_WRID_VALID, &dqp->r_aflags);

	wc.wr_id = dqp->r_wr_id;
	wc.qp = &dqp->ibqp;
	wc.src_qp = qp->ibqp.qp_num;
	wc.slid = rvt_port_lid(qp->rdi, qp->port_num);
	wc.port_num = dqp->port_num;
	wc.pkey_index = dqp->pkey_index;
	wc.opcode = is_send ? IB_WC_RECV : IB_WC_RECV_RDMA_WITH_IMM;
	wc.byte_len = wqe->length + skip;
	if (op == IB_WR_SEND_WITH_IMM || op == IB_WR_RDMA_WRITE_WITH_IMM) {
		wc.wc_flags |= IB_WC_WITH_IMM;
		wc.ex.imm_data = wqe->wr.ex.imm_data;
	}

	if (is_send) {
		if (dqp->r_len < wqe->length + skip) {
			rvt_put_ss(&dqp->r_sge);
			wc.status = IB_WC_LOC_LEN_ERR;
			goto err_unlock;
		}
		if (skip && rvt_put_grh(qp, dqp, wqe))
			wc.wc_flags |= IB_WC_GRH;
		rvt_ss_copy(dqp, &dqp->r_sge, &qp->s_sge, wqe->length, true);
		rvt_put_ss(&dqp->r_sge);
	}

	if (op == IB_WR_SEND_WITH_INV) {
		if (rvt_invalidate_rkey(dqp, wqe->wr.ex.invalidate_rkey)) {
			wc.status = IB_WC_REM_INV_REQ_ERR;
			goto err_unlock;
		}
		wc.wc_flags |= IB_WC_WITH_INVALIDATE;
		wc.ex.invalidate_rkey = wqe->wr.ex.invalidate_rkey;
	}

	rvt_cq_enter(recv_cq(dqp), &wc, wqe->wr.send_flags & IB_SEND_SOLICITED);
	if (ack) {
		dqp->r_msn = (dqp->r_msn + 1) & IB_MSN_MASK;
		*ack = rvt_compute_aeth(dqp);
	}
	spin_unlock_bh(&dqp->r_lock);
	return IB_WC_SUCCESS;

err_unlock:
	rvt_cq_enter(recv_cq(dqp), &wc, true);
	spin_unlock_bh(&dqp->r_lock);
err:
	if (rvt_datagram(qp))
		return IB_WC_SUCCESS;	/* the sender of a datagram never knows */
	*dqp_err = true;
	if (wc.status == IB_WC_LOC_LEN_ERR)
		return IB_WC_REM_INV_REQ_ERR;
	return IB_WC_REM_OP_ERR;
}

static enum ib_wc_status rvt_do_rdma(struct rvt_qp *qp, struct rvt_qp *dqp,
				     struct rvt_swqe *wqe, bool *dqp_err)
{
	bool write = wqe->wr.opcode != IB_WR_RDMA_READ;
	int acc = write ? IB_ACCESS_REMOTE_WRITE : IB_ACCESS_REMOTE_READ;
	struct rvt_sge_state remote = { .num_sge = 1 };

	if (!(dqp->qp_access_flags & acc)) {
		*dqp_err = true;
		return IB_WC_REM_ACCESS_ERR;
	}
	if (!wqe->length)
		return IB_WC_SUCCESS;
	if (!rvt_rkey_ok(dqp, &remote.sge, wqe->length,
			 wqe->rdma_wr.remote_addr, wqe->rdma_wr.rkey, acc)) {
		*dqp_err = true;
		return IB_WC_REM_ACCESS_ERR;
	}
	remote.total_len = wqe->length;
	if (write) {
		/* the walk drops the reference when it finishes */
		rvt_ss_copy(dqp, &remote, &qp->s_sge, wqe->length, true);
		rvt_put_ss(&remote);
	} else {
		struct rvt_mregion *mr = remote.sge.mr;

		rvt_ss_copy(qp, &qp->s_sge, &remote, wqe->length, false);
		rvt_put_mr(mr);
	}
	return IB_WC_SUCCESS;
}

static enum ib_wc_status rvt_do_atomic(struct rvt_qp *qp, struct rvt_qp *dqp,
				       struct rvt_swqe *wqe, bool *dqp_err)
{
	const struct ib_atomic_wr *aw = &wqe->atomic_wr;
	struct rvt_sge target;
	u64 *p, old;

	if (!(dqp->qp_access_flags & IB_ACCESS_REMOTE_ATOMIC) ||
	    (aw->remote_addr & (sizeof(u64) - 1)) ||
	    !rvt_rkey_ok(dqp, &target, sizeof(u64), aw->remote_addr, aw->rkey,
			 IB_ACCESS_REMOTE_ATOMIC)) {
		*dqp_err = true;
		return IB_WC_REM_ACCESS_ERR;
	}
	/* aligned 8 bytes never straddle two segments */
	p = target.vaddr;

	spin_lock(&rvt_atomic_lock);
	old = *p;
	if (wqe->wr.opcode == IB_WR_ATOMIC_CMP_AND_SWP) {
		if (old == aw->compare_add)
			*p = aw->swap;
	} else {
		*p = old + aw->compare_add;
	}
	spin_unlock(&rvt_atomic_lock);
	rvt_put_mr(target.mr);

	rvt_copy_sge(qp, &qp->s_sge, &old, sizeof(old), false, false);
	return IB_WC_SUCCESS;
}

/*
 * A successful RC request: the responder's MSN moves on and its AETH
 * brings the requester its credits.  @ack: the AETH, when the receive
 * (rvt_do_recv()) moved the MSN on already.
 */
static void rvt_rc_ack(struct rvt_qp *qp, struct rvt_qp *dqp,
		       const __be32 *ack)
{
	unsigned long flags;
	__be32 aeth;

	if (ack) {
		aeth = *ack;
	} else {
		spin_lock_bh(&dqp->r_lock);
		dqp->r_msn = (dqp->r_msn + 1) & IB_MSN_MASK;
		aeth = rvt_compute_aeth(dqp);
		spin_unlock_bh(&dqp->r_lock);
	}

	spin_lock_irqsave(&qp->s_lock, flags);
	rvt_get_credit(qp, be32_to_cpu(aeth));
	spin_unlock_irqrestore(&qp->s_lock, flags);
}

/* A multicast datagram on its way to the members of a group. */
struct rvt_mcast_send {
	struct rvt_qp		*qp;
	struct rvt_swqe		*wqe;
};

/* One member of the group gets the datagram (atomic context). */
static void rvt_mcast_recv(struct rvt_qp *dqp, void *arg)
{
	struct rvt_mcast_send *ms = arg;
	bool rnr = false, dqp_err = false;
	u32 qkey = ms->wqe->ud_wr.remote_qkey;

	if (!rvt_responder_ok(ms->qp, dqp))
		return;
	if (qkey & 0x80000000)
		qkey = ms->qp->qkey;
	if (qkey != dqp->qkey)
		return;
	/* each member reads the data from the start */
	rvt_restart_sge(&ms->qp->s_sge, ms->wqe, 0);
	/* a member without a receive WQE drops it, as UD does */
	rvt_do_recv(ms->qp, dqp, ms->wqe, &rnr, &dqp_err, NULL);
}

/*
 * Execute one request: the requester's status, or RVT_RNR with the
 * responder's RNR NAK AETH in *aeth, or RVT_RETRY.
 */
static enum rvt_exec rvt_exec_wqe(struct rvt_qp *qp, struct rvt_swqe *wqe,
				  enum ib_wc_status *status, u32 *aeth)
{
	enum ib_wr_opcode op = wqe->wr.opcode;
	bool reliable = qp->ibqp.qp_type == IB_QPT_RC;
	bool atomic = op == IB_WR_ATOMIC_CMP_AND_SWP ||
		      op == IB_WR_ATOMIC_FETCH_AND_ADD;
	bool rnr = false, dqp_err = false, acked = false;
	enum rvt_exec ret = RVT_DONE;
	struct rvt_qp *dqp;
	__be32 ack;

	*status = IB_WC_SUCCESS;

	/* local operations */
	if (op == IB_WR_REG_MR) {
		if (rvt_fast_reg_mr(qp, wqe->reg_wr.mr, wqe->reg_wr.key,
				    wqe->reg_wr.access))
			*status = IB_WC_LOC_QP_OP_ERR;
		return RVT_DONE;
	}
	if (op == IB_WR_LOCAL_INV) {
		if (rvt_invalidate_rkey(qp, wqe->wr.ex.invalidate_rkey))
			*status = IB_WC_LOC_QP_OP_ERR;
		return RVT_DONE;
	}

	/* the gather (or, for READ and atomics, scatter) list */
	if (rvt_resolve_wqe(qp, wqe, op == IB_WR_RDMA_READ || atomic ?
			    IB_ACCESS_LOCAL_WRITE : 0)) {
		*status = IB_WC_LOC_PROT_ERR;
		return RVT_DONE;
	}
	if (atomic && wqe->length != sizeof(u64)) {
		*status = IB_WC_LOC_LEN_ERR;
		return RVT_DONE;
	}
	rvt_restart_sge(&qp->s_sge, wqe, 0);

	if (rvt_datagram(qp)) {
		struct rvt_mcast_send ms = { .qp = qp, .wqe = wqe };
		struct rvt_ah *ah = container_of(wqe->ud_wr.ah, struct rvt_ah,
						 ibah);

		/* the sender never hears how the members fared */
		if (rvt_mcast_deliver(qp, &ah->attr, rvt_mcast_recv, &ms))
			return RVT_DONE;
	}

	dqp = rvt_find_dest(qp, wqe);
	if (!dqp || !rvt_responder_ok(qp, dqp)) {
		/* nobody answers: a datagram is lost, RC sends again */
		if (reliable)
			ret = RVT_RETRY;
		goto out_put;
	}

	/* UD: a Q_Key with the high bit set means "use the QP's own" */
	if (rvt_datagram(qp)) {
		u32 qkey = wqe->ud_wr.remote_qkey;

		if (qkey & 0x80000000)
			qkey = qp->qkey;
		if (qkey != dqp->qkey)
			goto out_put;	/* dropped silently */
	}

	/* the first request a connected responder sees in RTR */
	if (!rvt_datagram(qp) && READ_ONCE(dqp->state) == IB_QPS_RTR)
		rvt_comm_est(dqp);

	switch (op) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
		*status = rvt_do_recv(qp, dqp, wqe, &rnr, &dqp_err,
				      reliable ? &ack : NULL);
		acked = reliable;
		break;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		/* the receive WQE must be there before the data lands */
		if (!READ_ONCE(dqp->ibqp.srq) && !rvt_rq_count(&dqp->rq)) {
			rnr = true;
			break;
		}
		fallthrough;
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_READ:
		*status = rvt_do_rdma(qp, dqp, wqe, &dqp_err);
		if (*status == IB_WC_SUCCESS &&
		    op == IB_WR_RDMA_WRITE_WITH_IMM) {
			*status = rvt_do_recv(qp, dqp, wqe, &rnr, &dqp_err,
					      reliable ? &ack : NULL);
			acked = reliable;
		}
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		*status = rvt_do_atomic(qp, dqp, wqe, &dqp_err);
		break;
	default:
		*status = IB_WC_LOC_QP_OP_ERR;
		break;
	}

	if (!reliable) {
		/* an unreliable requester never hears of remote trouble */
		if (rnr || dqp_err || *status != IB_WC_LOC_QP_OP_ERR)
			*status = IB_WC_SUCCESS;
		if (dqp_err && qp->ibqp.qp_type == IB_QPT_UC)
			rvt_error_qp(dqp, IB_WC_REM_OP_ERR);
	} else if (dqp_err) {
		rvt_error_qp(dqp, *status);
	} else if (rnr) {
		*aeth = (u32)READ_ONCE(dqp->r_min_rnr_timer) <<
			IB_AETH_CREDIT_SHIFT | IB_RNR_NAK << IB_AETH_CREDIT_SHIFT;
		ret = RVT_RNR;
	} else if (*status == IB_WC_SUCCESS) {
		rvt_rc_ack(qp, dqp, acked ? &ack : NULL);
	}
out_put:
	if (dqp)
		rvt_put_qp(dqp);
	return ret;
}

static struct rvt_swqe *sq_slot(struct rvt_qp *qp, u32 i)
{
	return qp->sq + (size_t)i * qp->sq_stride;
}

/* The send queue stopped for SQD: tell the consumer if it asked. */
static void rvt_sq_drained(struct rvt_qp *qp)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = IB_EVENT_SQ_DRAINED,
	};

	if (atomic_xchg(&qp->sqd_notify, 0) && qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

/*
 * Wait for a timer before the request at sq_tail goes again: RVT_RNR or
 * RVT_RETRY with retries left.  Returns false when they are used up.
 */
static bool rvt_wait_again(struct rvt_qp *qp, enum rvt_exec how, u32 aeth)
{
	unsigned long flags;

	if (how == RVT_RNR) {
		if (qp->s_rnr_retry_cnt != 7 && qp->s_rnr_retry-- <= 0)
			return false;
	} else if (qp->s_retry-- <= 0) {
		return false;
	}
	spin_lock_irqsave(&qp->s_lock, flags);
	if (how == RVT_RNR)
		rvt_add_rnr_timer(qp, aeth);
	else
		rvt_add_retry_timer(qp);
	spin_unlock_irqrestore(&qp->s_lock, flags);
	return true;
}

/*
 * Execute the request at sq_tail (flush it, in the error state) and
 * complete it.  Returns false when it has to wait for a timer and stays
 * at sq_tail.
 */
static bool rvt_sq_one(struct rvt_qp *qp, struct rvt_swqe *wqe,
		       enum ib_qp_state state)
{
	enum ib_wc_status status;
	enum rvt_exec how;
	unsigned long flags;
	u32 aeth = 0;

	if (state == IB_QPS_ERR) {
		status = IB_WC_WR_FLUSH_ERR;
	} else {
		how = rvt_exec_wqe(qp, wqe, &status, &aeth);
		if (how != RVT_DONE) {
			if (rvt_wait_again(qp, how, aeth))
				return false;
			status = how == RVT_RNR ? IB_WC_RNR_RETRY_EXC_ERR :
				IB_WC_RETRY_EXC_ERR;
		}
	}
	qp->s_rnr_retry = qp->s_rnr_retry_cnt;
	qp->s_retry = qp->s_retry_cnt;

	/*
	 * The QP is in the error state before its error completion is
	 * seen: a consumer that polls it finds the QP in ERR.  The WQEs
	 * behind this one are flushed by the next rounds.
	 */
	if (status != IB_WC_SUCCESS && status != IB_WC_WR_FLUSH_ERR)
		rvt_error_qp(qp, status);
	rvt_put_swqe(wqe);
	rvt_send_complete(qp, wqe, status);
	spin_lock_irqsave(&qp->s_lock, flags);
	qp->sq_tail = qp->sq_tail + 1 == qp->sq_size ? 0 : qp->sq_tail + 1;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	return true;
}

/*
 * Take the send ring until it is empty or has to wait, or, with a
 * @budget (a poster's context: no sleeping), until that many requests
 * are done.  Returns true when the budget ran out with requests left.
 *
 * Each request executes with bottom halves off and rvt_engine_active
 * raised on the CPU: the completion and event handlers it calls (some
 * under the responder's r_lock) may post, and such a post must leave
 * the work to the work item rather than run an engine inside this one
 * (rvt_kick_sq()).  Softirqs raised meanwhile (irq_poll of a CQ) run
 * when the request is done, with no lock of the engine held.
 */
static bool rvt_sq_loop(struct rvt_qp *qp, unsigned int budget)
{
	struct rvt_swqe *wqe;
	enum ib_qp_state state;
	unsigned long flags;
	bool went;

	for (;;) {
		/* requests execute whole: at SQD nothing is in flight */
		state = READ_ONCE(qp->state);
		if (state == IB_QPS_SQD) {
			rvt_sq_drained(qp);
			return false;
		}

		spin_lock_irqsave(&qp->s_lock, flags);
		if (qp->sq_tail == qp->sq_head ||
		    (state != IB_QPS_ERR &&
		     (qp->s_flags & (RVT_S_WAIT_RNR | RVT_S_TIMER)))) {
			spin_unlock_irqrestore(&qp->s_lock, flags);
			return false;
		}
		wqe = sq_slot(qp, qp->sq_tail);
		spin_unlock_irqrestore(&qp->s_lock, flags);

		/* SQE and the others hold the queue */
		if (state != IB_QPS_ERR && state != IB_QPS_RTS)
			return false;

		local_bh_disable();
		__this_cpu_inc(rvt_engine_active);
		went = rvt_sq_one(qp, wqe, state);
		__this_cpu_dec(rvt_engine_active);
		local_bh_enable();
		if (!went)
			return false;
		if (!budget)
			cond_resched();
		else if (!--budget)
			return true;
	}
}

/*
 * Run the engine of @qp here unless it runs elsewhere already; @budget
 * as for rvt_sq_loop() (0: the work item or rvt_ruc_loopback(), which
 * may sleep).  What a budget leaves goes to the work item.
 */
static void rvt_run_sq(struct rvt_qp *qp, unsigned int budget)
{
	unsigned long flags;
	bool left = false;

	spin_lock_irqsave(&qp->s_lock, flags);
	if (qp->s_flags & RVT_S_BUSY) {
		/* the runner looks again before it stops */
		qp->s_flags |= RVT_S_AGAIN;
		spin_unlock_irqrestore(&qp->s_lock, flags);
		return;
	}
	qp->s_flags |= RVT_S_BUSY;
	do {
		qp->s_flags &= ~RVT_S_AGAIN;
		spin_unlock_irqrestore(&qp->s_lock, flags);
		left = rvt_sq_loop(qp, budget);
		spin_lock_irqsave(&qp->s_lock, flags);
	} while (!left && (qp->s_flags & RVT_S_AGAIN));
	qp->s_flags &= ~(RVT_S_BUSY | RVT_S_AGAIN);
	/*
	 * Queued under s_lock, once BUSY is clear: the work item does not
	 * find the engine busy, and rvt_wait_sq_idle() sees either BUSY or
	 * the work item queued.
	 */
	if (left)
		rvt_schedule_send(qp);
	spin_unlock_irqrestore(&qp->s_lock, flags);
}

/**
 * rvt_kick_sq - have the engine take what was just posted to a QP
 * @qp: the QP
 *
 * Runs the engine in the caller's context when that context allows it:
 * a software device has no hardware to hand the request to, and a work
 * item per post costs a wakeup and two context switches.  The caller
 * may hold spin locks of its own: the engine does not sleep here, does
 * at most RVT_INLINE_BUDGET requests (the work item takes the rest) and
 * calls handlers with bottom halves off, as it does from the work item.
 * From hard interrupts, with interrupts off (the engine enables bottom
 * halves) and from within a request the engine executes on this CPU
 * (a handler it called posts), the work item runs it instead.
 */
void rvt_kick_sq(struct rvt_qp *qp)
{
	if (in_hardirq() || in_nmi() || irqs_disabled() ||
	    this_cpu_read(rvt_engine_active)) {
		rvt_schedule_send(qp);
		return;
	}
	rvt_run_sq(qp, RVT_INLINE_BUDGET);
}

/**
 * rvt_wait_sq_idle - wait for an engine of a QP that runs in a poster's
 *	context
 * @qp: the QP, whose state already stops the engine (RESET)
 *
 * cancel_delayed_work_sync() waits for the work item only.
 */
void rvt_wait_sq_idle(struct rvt_qp *qp)
{
	unsigned long flags;
	bool busy;

	for (;;) {
		spin_lock_irqsave(&qp->s_lock, flags);
		busy = qp->s_flags & RVT_S_BUSY;
		spin_unlock_irqrestore(&qp->s_lock, flags);
		if (!busy)
			return;
		cond_resched();
	}
}

/**
 * rvt_ruc_loopback - run the send queue of a connected QP to its peer
 * @sqp: the sending QP (RC or UC) whose peer is a QP of this host
 *
 * Executes the requests posted to @sqp, in order, in the caller's
 * context: each is delivered to the peer QP and completed, until the
 * queue is empty, waits for an RNR or retry timer, or the QP's state
 * holds it.  If the engine of @sqp runs elsewhere at the time, that one
 * takes the requests instead.  May sleep; call it without QP locks.
 */
void rvt_ruc_loopback(struct rvt_qp *sqp)
{
	if (WARN_ON_ONCE(rvt_datagram(sqp)))
		return;
	rvt_run_sq(sqp, 0);
}
EXPORT_SYMBOL(rvt_ruc_loopback);

/* The work item of a QP's engine. */
void rvt_do_send(struct work_struct *work)
{
	struct rvt_qp *qp = container_of(to_delayed_work(work), struct rvt_qp,
					 send_work);

	if (rvt_datagram(qp))
		rvt_run_sq(qp, 0);
	else
		rvt_ruc_loopback(qp);
}
