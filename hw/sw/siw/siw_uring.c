// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw's user ABI (uapi/rdma/siw-abi.h): the queues libsiw maps into the
 * process, served through rdmavt's hooks for a driver's own user rings
 * (struct rvt_driver_provided, driver_user_abi).
 *
 * Every queue is an array of a power of two entries whose first field
 * after the ID holds flags; SIW_WQE_VALID in them says who owns the
 * slot.  User space fills a free send or receive slot and sets
 * SIW_WQE_VALID last; the kernel clears the flags when it is done with
 * the slot: a receive slot when it takes the entry, a send slot when its
 * request retires (completes or is flushed; in order).  The kernel fills
 * a free completion slot and sets SIW_WQE_VALID last; user space clears
 * it when it polled the entry.  A CQ's control word after its entries
 * holds the arming user space writes (enum siw_notify_flags): the kernel
 * disarms it when it signals a completion.
 *
 * libsiw rings the doorbell (POST_SEND with no request) only when the
 * slot before the ones it filled is free, that is when the kernel looks
 * idle; so when a request retires and the next slot was filled, the
 * kernel takes it without a doorbell (rdmavt rings it from the QP's
 * ring_work when user_sq_retired says so).  The free
 * slot and the filled one are a store each side and a load of the
 * other's: a full barrier on both sides makes one of them see the other.
 *
 * Nothing user space writes is trusted: an entry is copied out of the
 * mapping before it is read, counts are bounded, and a malformed send
 * entry completes in error (rvt_post_ring_wr()).
 *
 * Locks: struct siw_usq.lock serialises taking send entries (doorbell,
 * RESET) and nests outside qp->s_lock; the rings' other
 * indexes are under the rdmavt lock of what they stand for (see rdmavt's
 * hooks).
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>
#include <uapi/rdma/siw-abi.h>

#include "siw.h"
#include "siw_qp.h"

/* libsiw copies ibv_sge arrays into the entries as they are */
static_assert(sizeof(struct siw_sge) == sizeof(struct ib_sge));
static_assert(offsetof(struct siw_sqe, flags) == 8);
static_assert(offsetof(struct siw_rqe, flags) == 8);
static_assert(offsetof(struct siw_cqe, flags) == 8);

/**
 * struct siw_uring - a queue mapped into user space
 * @buf: its entries (vmalloc_user() memory, rvt_mmap_alloc())
 * @mmap: the mapping's entry
 * @key: the offset user space maps it at
 * @num: entries, a power of two
 * @index: the kernel's next slot (free running; masked by @num)
 */
struct siw_uring {
	void			*buf;
	struct rvt_mmap_entry	*mmap;
	u64			key;
	u32			num;
	u32			index;
};

static int siw_uring_init(struct siw_uring *q, struct ib_udata *udata,
			  u32 num, size_t elem, size_t extra)
{
	size_t size;

	q->num = roundup_pow_of_two(max(num, 1U));
	if (check_mul_overflow((size_t)q->num, elem, &size) ||
	    check_add_overflow(size, extra, &size))
		return -EINVAL;
	q->buf = rvt_mmap_alloc(udata, size, &q->mmap, &q->key);
	if (IS_ERR(q->buf)) {
		int ret = PTR_ERR(q->buf);

		q->buf = NULL;
		return ret;
	}
	q->index = 0;
	return 0;
}

/* The queue's object went: no new mapping; the memory goes with the last. */
static void siw_uring_free(struct siw_uring *q)
{
	rvt_mmap_remove(q->mmap);
	q->mmap = NULL;
	q->buf = NULL;
}

static struct siw_sqe *siw_uring_sqe(struct siw_uring *q, u32 i)
{
	return (struct siw_sqe *)q->buf + (i & (q->num - 1));
}

static struct siw_rqe *siw_uring_rqe(struct siw_uring *q, u32 i)
{
	return (struct siw_rqe *)q->buf + (i & (q->num - 1));
}

static struct siw_cqe *siw_uring_cqe(struct siw_uring *q, u32 i)
{
	return (struct siw_cqe *)q->buf + (i & (q->num - 1));
}

/* A send or receive slot user space filled (and owns no more). */
static bool siw_filled(u16 *flags)
{
	/* acquire: the entry is read after its flags said it is there */
	return smp_load_acquire(flags) & SIW_WQE_VALID;
}

/* ------------------------------------------------------------------
 * Entries: pure functions over copies (suite rdma_siw_uring)
 */

static u8 siw_wc_opcode(enum ib_wc_opcode op)
{
	switch (op) {
	case IB_WC_SEND:
		return SIW_OP_SEND;
	case IB_WC_RDMA_WRITE:
		return SIW_OP_WRITE;
	case IB_WC_RDMA_READ:
		return SIW_OP_READ;
	case IB_WC_COMP_SWAP:
		return SIW_OP_COMP_AND_SWAP;
	case IB_WC_FETCH_ADD:
		return SIW_OP_FETCH_AND_ADD;
	case IB_WC_LOCAL_INV:
		return SIW_OP_INVAL_STAG;
	case IB_WC_REG_MR:
		return SIW_OP_REG_MR;
	default:
		/* receives (iWARP has no immediate data) */
		return SIW_OP_RECEIVE;
	}
}

static u16 siw_wc_status(enum ib_wc_status status)
{
	switch (status) {
	case IB_WC_SUCCESS:
		return SIW_WC_SUCCESS;
	case IB_WC_LOC_LEN_ERR:
		return SIW_WC_LOC_LEN_ERR;
	case IB_WC_LOC_PROT_ERR:
		return SIW_WC_LOC_PROT_ERR;
	case IB_WC_LOC_QP_OP_ERR:
		return SIW_WC_LOC_QP_OP_ERR;
	case IB_WC_WR_FLUSH_ERR:
		return SIW_WC_WR_FLUSH_ERR;
	case IB_WC_BAD_RESP_ERR:
		return SIW_WC_BAD_RESP_ERR;
	case IB_WC_LOC_ACCESS_ERR:
		return SIW_WC_LOC_ACCESS_ERR;
	case IB_WC_REM_ACCESS_ERR:
		return SIW_WC_REM_ACCESS_ERR;
	case IB_WC_REM_INV_REQ_ERR:
		return SIW_WC_REM_INV_REQ_ERR;
	default:
		return SIW_WC_GENERAL_ERR;
	}
}

/**
 * siw_uring_cqe_fill - a completion as libsiw reads it
 * @cqe: the entry (its flags are left alone: the caller publishes it)
 * @wc: the completion
 *
 * Context: any.
 * Return: the flags the entry is published with.
 */
u8 siw_uring_cqe_fill(struct siw_cqe *cqe, const struct ib_wc *wc)
{
	u8 flags = SIW_WQE_VALID;

	cqe->id = wc->wr_id;
	cqe->opcode = siw_wc_opcode(wc->opcode);
	cqe->status = siw_wc_status(wc->status);
	cqe->bytes = wc->byte_len;
	cqe->imm_data = 0;
	if (wc->wc_flags & IB_WC_WITH_INVALIDATE) {
		cqe->inval_stag = wc->ex.invalidate_rkey;
		flags |= SIW_WQE_REM_INVAL;
	}
	cqe->qp_id = wc->qp->qp_num;
	return flags;
}

/**
 * siw_uring_send_wr - turn a send entry into a request for rdmavt
 * @sqe: the entry, copied out of the queue
 * @rwr: the request for rvt_post_ring_wr()
 * @sges: room for SIW_MAX_SGE SGEs, which @rwr points at; inline data
 *	stays in @sqe (after its first SGE), which one SGE names
 *
 * siw's opcodes become the kernel's.  An opcode user space may not post
 * or iWARP does not carry, more than SIW_MAX_SGE SGEs or more than
 * SIW_MAX_INLINE inline bytes make a request that completes in error
 * (@rwr->status) without running; the keys are rdmavt's to check.
 *
 * Context: any.
 */
void siw_uring_send_wr(const struct siw_sqe *sqe, struct rvt_ring_wr *rwr,
		       struct ib_sge *sges)
{
	u16 f = sqe->flags;
	bool data = true;	/* SENDs and WRITEs may carry inline data */
	u32 i, n;

	memset(rwr, 0, sizeof(*rwr));
	rwr->wr.wr_id = sqe->id;
	rwr->status = IB_WC_SUCCESS;
	if (f & SIW_WQE_SIGNALLED)
		rwr->wr.send_flags |= IB_SEND_SIGNALED;
	if (f & SIW_WQE_SOLICITED)
		rwr->wr.send_flags |= IB_SEND_SOLICITED;
	if (f & SIW_WQE_READ_FENCE)
		rwr->wr.send_flags |= IB_SEND_FENCE;
	rwr->wr.sg_list = sges;

	switch (sqe->opcode) {
	case SIW_OP_SEND:
		rwr->wr.opcode = IB_WR_SEND;
		break;
	case SIW_OP_SEND_REMOTE_INV:
		rwr->wr.opcode = IB_WR_SEND_WITH_INV;
		rwr->wr.ex.invalidate_rkey = sqe->rkey;
		break;
	case SIW_OP_WRITE:
		rwr->wr.opcode = IB_WR_RDMA_WRITE;
		rwr->rdma_wr.remote_addr = sqe->raddr;
		rwr->rdma_wr.rkey = sqe->rkey;
		break;
	case SIW_OP_READ:
	case SIW_OP_READ_LOCAL_INV:
		rwr->wr.opcode = sqe->opcode == SIW_OP_READ ?
				 IB_WR_RDMA_READ : IB_WR_RDMA_READ_WITH_INV;
		rwr->rdma_wr.remote_addr = sqe->raddr;
		rwr->rdma_wr.rkey = sqe->rkey;
		/* the sink's registration goes when the READ completes */
		rwr->wr.ex.invalidate_rkey = sqe->sge[0].lkey;
		data = false;
		break;
	default:
		rwr->wr.opcode = IB_WR_SEND;
		rwr->status = IB_WC_LOC_QP_OP_ERR;
		return;
	}

	if (data && (f & SIW_WQE_INLINE)) {
		n = sqe->sge[0].length;
		if (n > SIW_MAX_INLINE) {
			rwr->status = IB_WC_LOC_LEN_ERR;
			return;
		}
		rwr->wr.send_flags |= IB_SEND_INLINE;
		/* the bytes follow the first SGE; rdmavt copies them here */
		sges[0] = (struct ib_sge) {
			.addr = (uintptr_t)&sqe->sge[1],
			.length = n,
		};
		rwr->wr.num_sge = n ? 1 : 0;
		return;
	}
	n = sqe->num_sge;
	if (n > SIW_MAX_SGE) {
		rwr->status = IB_WC_LOC_QP_OP_ERR;
		return;
	}
	for (i = 0; i < n; i++)
		sges[i] = (struct ib_sge) {
			.addr = sqe->sge[i].laddr,
			.length = sqe->sge[i].length,
			.lkey = sqe->sge[i].lkey,
		};
	rwr->wr.num_sge = n;
}

/**
 * siw_uring_recv_take - take the next entry of a receive queue
 * @q: the queue (a QP's or an SRQ's); the caller holds its rq->lock
 * @max_sge: SGEs @wqe has room for
 * @wqe: where the entry goes
 *
 * Context: any; does not sleep.
 * Return: false when the next slot holds no entry.
 */
static bool siw_uring_recv_take(struct siw_uring *q, u32 max_sge,
				struct rvt_rwqe *wqe)
{
	struct siw_rqe *rqe = siw_uring_rqe(q, q->index);
	u32 n;

	if (!siw_filled(&rqe->flags))
		return false;
	/* read once: the copy must not go past what was bounded */
	n = min_t(u32, READ_ONCE(rqe->num_sge), max_sge);
	wqe->wr_id = READ_ONCE(rqe->id);
	wqe->num_sge = n;
	memcpy(wqe->sg_list, rqe->sge, n * sizeof(struct ib_sge));
	/* release: the slot was read before user space may fill it again */
	smp_store_release(&rqe->flags, 0);
	q->index++;
	return true;
}

/* The entries a receive queue holds, from its next slot on. */
static u32 siw_uring_recv_count(struct siw_uring *q)
{
	u32 n = 0;

	while (n < q->num && siw_filled(&siw_uring_rqe(q, q->index + n)->flags))
		n++;
	return n;
}

/* ------------------------------------------------------------------
 * Completion queues
 */

static struct siw_cq_ctrl *siw_ucq_ctrl(struct siw_uring *q)
{
	return (struct siw_cq_ctrl *)((struct siw_cqe *)q->buf + q->num);
}

/*
 * A queue of its own allocation for a CQ or an SRQ (a QP's are in its
 * struct siw_usq); siw_uring_put() takes it away.
 */
static struct siw_uring *siw_uring_new(struct ib_udata *udata, u32 num,
				       size_t elem, size_t extra)
{
	struct siw_uring *q = kzalloc(sizeof(*q), GFP_KERNEL);
	int ret;

	if (!q)
		return ERR_PTR(-ENOMEM);
	ret = siw_uring_init(q, udata, num, elem, extra);
	if (ret) {
		kfree(q);
		return ERR_PTR(ret);
	}
	return q;
}

static void siw_uring_put(struct siw_uring *q)
{
	siw_uring_free(q);
	kfree(q);
}

static int siw_create_user_cq(struct rvt_cq *cq, struct ib_udata *udata)
{
	struct siw_uresp_create_cq uresp = {};
	struct siw_uring *q;
	int ret;

	if (udata->outlen < sizeof(uresp))
		return -EINVAL;
	q = siw_uring_new(udata, cq->ibcq.cqe, sizeof(struct siw_cqe),
			  sizeof(struct siw_cq_ctrl));
	if (IS_ERR(q))
		return PTR_ERR(q);
	uresp.cq_id = atomic_inc_return(&to_siw_dev(cq->ibcq.device)->next_cq_id);
	uresp.num_cqe = q->num;
	uresp.cq_key = q->key;
	ret = ib_copy_to_udata(udata, &uresp, sizeof(uresp));
	if (ret) {
		siw_uring_put(q);
		return ret;
	}
	cq->ibcq.cqe = q->num;
	cq->drv_ring = q;
	return 0;
}

static void siw_destroy_user_cq(struct rvt_cq *cq)
{
	siw_uring_put(cq->drv_ring);
	cq->drv_ring = NULL;
}

static bool siw_user_cq_push(struct rvt_cq *cq, const struct ib_wc *wc)
{
	struct siw_uring *q = cq->drv_ring;
	struct siw_cqe *cqe = siw_uring_cqe(q, q->index);
	u8 flags;

	/* acquire: user space read the entry before it freed the slot */
	if (smp_load_acquire(&cqe->flags) & SIW_WQE_VALID)
		return false;
	flags = siw_uring_cqe_fill(cqe, wc);
	/* release: the entry is whole before user space sees it */
	smp_store_release(&cqe->flags, flags);
	q->index++;
	return true;
}

static bool siw_user_cq_empty(struct rvt_cq *cq)
{
	struct siw_uring *q = cq->drv_ring;

	/* entries are polled in order: the last one written was polled */
	return !(smp_load_acquire(&siw_uring_cqe(q, q->index - 1)->flags) &
		 SIW_WQE_VALID);
}

static bool siw_user_cq_notify(struct rvt_cq *cq, bool solicited)
{
	struct siw_cq_ctrl *ctrl = siw_ucq_ctrl(cq->drv_ring);
	u32 armed = READ_ONCE(ctrl->flags);

	if (!(armed & SIW_NOTIFY_NEXT_COMPLETION) &&
	    !((armed & SIW_NOTIFY_SOLICITED) && solicited))
		return false;
	/* one event per arming; an arming written meanwhile stays */
	return cmpxchg(&ctrl->flags, armed, SIW_NOTIFY_NOT) == armed;
}

/* ------------------------------------------------------------------
 * Queue pairs
 */

/**
 * struct siw_usq - siw's user side of a user QP (qp->drv_sq)
 * @sq: the send queue; its index is the next slot to free (the oldest
 *	request rdmavt holds), under qp->s_lock
 * @rq: the receive queue (qp->rq.drv_ring) without an SRQ; its index is
 *	the next slot to take, under qp->rq.lock
 * @qp: the QP
 * @lock: serialises taking send entries: the doorbell (user space's or
 *	rdmavt's ring_work) and RESET
 * @taken: the next send slot to take (under @lock; read locklessly by
 *	the retire path, which only asks for rdmavt's ring_work)
 * @slot: the entry being taken, copied out of user space's reach
 * @sges: the SGEs of the request made of it
 */
struct siw_usq {
	struct siw_uring	sq;
	struct siw_uring	rq;
	struct rvt_qp		*qp;
	struct mutex		lock;	/* see above */
	u32			taken;
	struct siw_sqe		slot;
	struct ib_sge		sges[SIW_MAX_SGE];
};

/*
 * Take the entries user space filled since the last time, in order,
 * copied and posted; stop at a free slot, when every slot is held, or
 * when rdmavt's ring is full (it holds as many as the queue: only when
 * user space filled slots it did not own).
 */
static void siw_usq_take(struct siw_usq *u)
{
	struct rvt_ring_wr rwr;
	struct siw_sqe *sqe;

	lockdep_assert_held(&u->lock);
	while (u->taken - READ_ONCE(u->sq.index) < u->sq.num) {
		sqe = siw_uring_sqe(&u->sq, u->taken);
		if (!siw_filled(&sqe->flags))
			break;
		memcpy(&u->slot, sqe, sizeof(u->slot));
		siw_uring_send_wr(&u->slot, &rwr, u->sges);
		if (rvt_post_ring_wr(u->qp, &rwr))
			break;
		WRITE_ONCE(u->taken, u->taken + 1);
	}
}

/*
 * The doorbell takes what user space filled and sends it in this
 * context (siw_tx_direct()), as upstream's siw does in POST_SEND: the
 * engine's own kick that follows in rdmavt finds nothing left.
 */
static int siw_user_sq_doorbell(struct rvt_qp *qp)
{
	struct siw_usq *u = qp->drv_sq;

	mutex_lock(&u->lock);
	siw_usq_take(u);
	mutex_unlock(&u->lock);
	siw_tx_direct(qp);
	return 0;
}

static bool siw_user_sq_retired(struct rvt_qp *qp)
{
	struct siw_usq *u = qp->drv_sq;
	struct siw_sqe *sqe = siw_uring_sqe(&u->sq, u->sq.index);
	u32 taken;

	lockdep_assert_held(&qp->s_lock);
	/* the entry was copied long before: the slot is free */
	WRITE_ONCE(sqe->flags, 0);
	WRITE_ONCE(u->sq.index, u->sq.index + 1);
	/* the free slot before the look at the next: see the file's head */
	smp_mb();
	taken = READ_ONCE(u->taken);
	return taken - u->sq.index < u->sq.num &&
	       (READ_ONCE(siw_uring_sqe(&u->sq, taken)->flags) & SIW_WQE_VALID);
}

/*
 * RESET empties the send queue: the requests rdmavt held are forgotten
 * and their slots freed, and so are the entries not taken yet (as
 * upstream drains them).
 */
static void siw_user_sq_reset(struct rvt_qp *qp)
{
	struct siw_usq *u = qp->drv_sq;
	unsigned long flags;
	u32 held, i;

	mutex_lock(&u->lock);
	while (u->taken - u->sq.index < u->sq.num &&
	       siw_filled(&siw_uring_sqe(&u->sq, u->taken)->flags))
		u->taken++;
	spin_lock_irqsave(&qp->s_lock, flags);
	held = (qp->sq_head + qp->sq_size - qp->sq_tail) % qp->sq_size;
	for (i = u->sq.index; i != u->taken - held; i++)
		WRITE_ONCE(siw_uring_sqe(&u->sq, i)->flags, 0);
	u->sq.index = u->taken - held;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	mutex_unlock(&u->lock);
}

static void siw_usq_free(struct siw_usq *u)
{
	siw_uring_free(&u->sq);
	if (u->rq.mmap)
		siw_uring_free(&u->rq);
	mutex_destroy(&u->lock);
	kfree(u);
}

/*
 * A user QP's queues: a power of two entries each, at least what was
 * asked; as upstream, every send entry has room for SIW_MAX_SGE SGEs
 * or SIW_MAX_INLINE bytes.
 */
static int siw_create_user_qp(struct rvt_qp *qp, struct ib_qp_init_attr *init,
			      struct ib_udata *udata)
{
	struct siw_uresp_create_qp uresp = {};
	struct ib_qp_cap *cap = &init->cap;
	struct siw_usq *u;
	int ret;

	if (udata->outlen < sizeof(uresp))
		return -EINVAL;
	if (cap->max_inline_data > SIW_MAX_INLINE || !cap->max_send_wr)
		return -EINVAL;
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	u->qp = qp;
	mutex_init(&u->lock);
	ret = siw_uring_init(&u->sq, udata, cap->max_send_wr,
			     sizeof(struct siw_sqe), 0);
	if (ret)
		goto err;
	cap->max_send_wr = u->sq.num;
	cap->max_inline_data = SIW_MAX_INLINE;
	if (!init->srq) {
		ret = siw_uring_init(&u->rq, udata, cap->max_recv_wr,
				     sizeof(struct siw_rqe), 0);
		if (ret)
			goto err;
		cap->max_recv_wr = u->rq.num;
		uresp.num_rqe = u->rq.num;
		uresp.rq_key = u->rq.key;
	}
	uresp.qp_id = qp->ibqp.qp_num;
	uresp.num_sqe = u->sq.num;
	uresp.sq_key = u->sq.key;
	ret = ib_copy_to_udata(udata, &uresp, sizeof(uresp));
	if (ret)
		goto err;
	qp->drv_sq = u;
	qp->rq.drv_ring = init->srq ? NULL : &u->rq;
	return 0;

err:
	siw_usq_free(u);
	return ret;
}

static void siw_destroy_user_qp(struct rvt_qp *qp)
{
	siw_usq_free(qp->drv_sq);
}

/**
 * siw_uring_modify_qp - the user side of a modify_qp
 * @qp: the QP, modified
 * @attr: the attributes
 * @mask: which
 *
 * A user QP that went to RESET frees the slots of its send queue.
 *
 * Context: process context, may sleep.
 */
void siw_uring_modify_qp(struct rvt_qp *qp, struct ib_qp_attr *attr, int mask)
{
	if (qp->drv_sq && (mask & IB_QP_STATE) &&
	    attr->qp_state == IB_QPS_RESET)
		siw_user_sq_reset(qp);
}

static bool siw_user_rq_take(struct rvt_rq *rq, struct rvt_rwqe *wqe)
{
	return siw_uring_recv_take(rq->drv_ring, rq->max_sge, wqe);
}

static u32 siw_user_rq_count(struct rvt_rq *rq)
{
	return siw_uring_recv_count(rq->drv_ring);
}

/* ------------------------------------------------------------------
 * Shared receive queues (not resized: upstream's siw does not either)
 */

static int siw_create_user_srq(struct rvt_srq *srq, struct ib_srq_attr *attr,
			       struct ib_udata *udata)
{
	struct siw_uresp_create_srq uresp = {};
	struct siw_uring *q;
	int ret;

	if (udata->outlen < sizeof(uresp))
		return -EINVAL;
	q = siw_uring_new(udata, attr->max_wr, sizeof(struct siw_rqe), 0);
	if (IS_ERR(q))
		return PTR_ERR(q);
	uresp.num_rqe = q->num;
	uresp.srq_key = q->key;
	ret = ib_copy_to_udata(udata, &uresp, sizeof(uresp));
	if (ret) {
		siw_uring_put(q);
		return ret;
	}
	attr->max_wr = q->num;
	srq->rq.drv_ring = q;
	return 0;
}

static void siw_destroy_user_srq(struct rvt_srq *srq)
{
	siw_uring_put(srq->rq.drv_ring);
	srq->rq.drv_ring = NULL;
}

/* ------------------------------------------------------------------
 * Memory regions
 */

/*
 * libsiw asks for the key byte of the new MR's STag (siw_ureq_reg_mr)
 * and learns the STag; a command without room for either is refused,
 * as upstream.
 */
static int siw_create_user_mr(struct rvt_mr *mr, struct ib_udata *udata)
{
	struct siw_uresp_reg_mr uresp = {};
	struct siw_ureq_reg_mr ureq;
	int ret;

	if (udata->inlen < sizeof(ureq) || udata->outlen < sizeof(uresp))
		return -EINVAL;
	ret = ib_copy_from_udata(&ureq, udata, sizeof(ureq));
	if (ret)
		return ret;
	mr->mr.lkey = (mr->mr.lkey & ~0xffU) | ureq.stag_key;
	mr->ibmr.lkey = mr->mr.lkey;
	mr->ibmr.rkey = mr->mr.lkey;
	uresp.stag = mr->mr.lkey;
	return ib_copy_to_udata(udata, &uresp, sizeof(uresp));
}

/**
 * siw_uring_hooks - give a device siw's user ABI
 * @rdi: the device, before it registers
 *
 * Context: any.
 */
void siw_uring_hooks(struct rvt_dev_info *rdi)
{
	struct rvt_driver_provided *f = &rdi->driver_f;

	rdi->dparms.driver_user_abi = true;
	f->create_user_cq = siw_create_user_cq;
	f->destroy_user_cq = siw_destroy_user_cq;
	f->user_cq_push = siw_user_cq_push;
	f->user_cq_empty = siw_user_cq_empty;
	f->user_cq_notify = siw_user_cq_notify;
	f->create_user_qp = siw_create_user_qp;
	f->destroy_user_qp = siw_destroy_user_qp;
	f->user_sq_doorbell = siw_user_sq_doorbell;
	f->user_sq_retired = siw_user_sq_retired;
	f->user_rq_take = siw_user_rq_take;
	f->user_rq_count = siw_user_rq_count;
	f->create_user_srq = siw_create_user_srq;
	f->destroy_user_srq = siw_destroy_user_srq;
	f->create_user_mr = siw_create_user_mr;
}
