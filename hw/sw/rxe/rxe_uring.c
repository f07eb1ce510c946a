// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe's user ABI (uapi/rdma/rdma_user_rxe.h): the queues librxe maps
 * into the process, on rdmavt's hooks for a driver's own user rings
 * (struct rvt_driver_provided, driver_user_abi).  rdmavt keeps the
 * engine; this file only moves entries between the mapped queues and
 * the engine:
 *
 *   CQ   the kernel writes struct ib_uverbs_wc at the producer index
 *        (driver_f.user_cq_push), user space polls and writes the
 *        consumer index.
 *   SQ   user space writes struct rxe_send_wqe and the producer index,
 *        then rings the doorbell (POST_SEND with no request): each new
 *        entry is copied, turned into a work request and posted to the
 *        engine (driver_f.user_sq_doorbell, rvt_post_ring_wr()); its slot
 *        is freed (the consumer index moves) when the request retires
 *        (driver_f.user_sq_retired), so user space never has more
 *        requests outstanding than the queue holds.
 *   RQ   user space writes struct rxe_recv_wqe and the producer index,
 *   SRQ  without a doorbell; the responder takes the oldest entry when a
 *        message needs one (driver_f.user_rq_take), which frees its slot.
 *
 * A queue is one vmalloc_user() buffer (rvt_mmap_alloc()): struct
 * rxe_queue_buf, then 2^n slots of 2^m bytes.  The kernel keeps its own
 * copy of the sizes and of the index it owns; what it reads from the
 * buffer (the other side's index, the entries) user space may change at
 * any time, so an index is masked to the queue before use and an entry
 * is copied out of the buffer before any of it is checked or used, its
 * counts bounded by what the queue was made for.  A malformed send
 * entry completes in error and takes the QP to the error state
 * (rvt_post_ring_wr()); nothing user space writes reaches beyond the
 * buffer.
 *
 * Locks: a CQ's queue is the CQ's (cq->lock, held around the CQ hooks
 * by rdmavt and taken here by the resize); a receive queue's is
 * rq->lock; a send queue's consumer index is under qp->s_lock, what the
 * doorbell takes under struct rxe_usq.lock (a mutex, outside s_lock).
 */
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/uverbs_ioctl.h>

#include "rxe.h"

/* the layouts rdmavt's structures share with rxe's */
static_assert(sizeof(struct rxe_sge) == sizeof(struct ib_sge));
static_assert(sizeof(struct rxe_sge) == sizeof(struct rvt_wqe_sge));

/* a slot's room for SGEs or inline data, at most */
#define RXE_MAX_WQE_ROOM	(RXE_MAX_SGE * sizeof(struct rxe_sge))
static_assert(RXE_MAX_WQE_ROOM >= RVT_MAX_INLINE);

/*
 * Make @r a queue of @num entries at least, of @elem bytes each, for
 * the context of @udata; *@num becomes what it holds (slots - 1).
 * Slots are a power of two, of a power of two bytes, no smaller than a
 * cache line (upstream's layout; librxe takes the sizes from the head).
 */
static int rxe_uring_init(struct rxe_uring *r, struct ib_udata *udata,
			  u32 *num, size_t elem)
{
	struct rxe_queue_buf *buf;
	size_t size;
	u32 slots;
	u64 offset;

	if (*num >= RXE_MAX_RING_SLOTS)
		return -EINVAL;
	elem = roundup_pow_of_two(max_t(size_t, elem, cache_line_size()));
	slots = roundup_pow_of_two(*num + 1);
	if (check_mul_overflow((size_t)slots, elem, &size) ||
	    check_add_overflow(size, sizeof(*buf), &size) || size > U32_MAX)
		return -EINVAL;
	buf = rvt_mmap_alloc(udata, size, &r->mmap, &offset);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	buf->log2_elem_size = ilog2(elem);
	buf->index_mask = slots - 1;
	r->buf = buf;
	r->shift = ilog2(elem);
	r->mask = slots - 1;
	r->index = 0;
	r->mi.offset = offset;
	r->mi.size = size;
	*num = slots - 1;
	return 0;
}

/* The queue's object went: no new mapping; the memory goes with the last. */
static void rxe_uring_free(struct rxe_uring *r)
{
	rvt_mmap_remove(r->mmap);
	r->mmap = NULL;
	r->buf = NULL;
}

/* Slot @i of @r (masked: any index stays in the queue). */
static void *rxe_uring_slot(struct rxe_uring *r, u32 i)
{
	return r->buf->data + ((size_t)(i & r->mask) << r->shift);
}

/* User space's producer index of a work queue, masked. */
static u32 rxe_uring_producer(struct rxe_uring *r)
{
	/* acquire: the entries it covers are read after it */
	return smp_load_acquire(&r->buf->producer_index) & r->mask;
}

/* User space's consumer index of a CQ, masked. */
static u32 rxe_uring_consumer(struct rxe_uring *r)
{
	/* acquire: the slots before it were read and may be written */
	return smp_load_acquire(&r->buf->consumer_index) & r->mask;
}

/*
 * Copy @cnt entries of @len bytes from @from, the first at index
 * @first, to the start of the new queue @to, and publish them.
 */
static void rxe_uring_move(struct rxe_uring *to, struct rxe_uring *from,
			   u32 first, u32 cnt, size_t len)
{
	u32 i;

	for (i = 0; i < cnt; i++)
		memcpy(rxe_uring_slot(to, i), rxe_uring_slot(from, first + i),
		       len);
	/* the entries moved over are whole before user space sees them */
	smp_store_release(&to->buf->producer_index, cnt);
}

/* ------------------------------------------------------------------
 * Entries: pure functions over copies (the suite rdma_rxe_uring calls
 * them through rxe_test_ops)
 */

/**
 * rxe_uring_cq_push - write a completion into a user CQ's queue
 * @r: the queue; the caller holds the CQ's lock
 * @wc: the completion
 *
 * Context: any; does not sleep.
 * Return: false when the queue is full (user space's consumer index,
 * masked, is the slot after the producer's).
 */
bool rxe_uring_cq_push(struct rxe_uring *r, const struct ib_wc *wc)
{
	u32 next = (r->index + 1) & r->mask;

	if (next == rxe_uring_consumer(r))
		return false;
	rvt_uverbs_wc(rxe_uring_slot(r, r->index), wc);
	r->index = next;
	/* the entry is whole before user space sees it */
	smp_store_release(&r->buf->producer_index, next);
	return true;
}

/**
 * rxe_uring_recv_take - take the oldest entry of a user receive queue
 * @r: the queue (a QP's or an SRQ's); the caller holds its rq->lock
 * @max_sge: SGEs an entry of the queue may have (the queue's
 *	max_recv_sge or max_sge); @wqe has room for no more
 * @wqe: where the entry goes
 *
 * The entry's ID and SGEs are copied out of the queue, at most
 * @max_sge of them whatever its num_sge says, and its slot is freed.
 *
 * Context: any; does not sleep.
 * Return: false when the queue holds none.
 */
bool rxe_uring_recv_take(struct rxe_uring *r, u32 max_sge,
			 struct rvt_rwqe *wqe)
{
	const struct rxe_recv_wqe *slot;
	u32 n;

	if (rxe_uring_producer(r) == r->index)
		return false;
	slot = rxe_uring_slot(r, r->index);
	/* read once: the copy below must not go past what was bounded */
	n = min(READ_ONCE(slot->dma.num_sge), max_sge);
	wqe->wr_id = READ_ONCE(slot->wr_id);
	wqe->num_sge = n;
	memcpy(wqe->sg_list, slot->dma.sge, n * sizeof(struct rxe_sge));
	r->index = (r->index + 1) & r->mask;
	/* the slot is read before user space may reuse it */
	smp_store_release(&r->buf->consumer_index, r->index);
	return true;
}

/* An entry of a user receive queue: its header and max_sge SGEs. */
static size_t rxe_recv_wqe_size(u32 max_sge)
{
	return sizeof(struct rxe_recv_wqe) + max_sge * sizeof(struct rxe_sge);
}

/**
 * rxe_uring_send_wr - turn a user send entry into a request for rdmavt
 * @w: the entry, copied out of the queue (the caller's own memory, with
 *	the slot's room for SGEs and inline data after it)
 * @max_sge: the QP's max_send_sge; @w has room for as many SGEs
 * @max_inline: the QP's max_inline_data; @w has room for as many bytes
 * @rwr: the request for rvt_post_ring_wr()
 * @sges: room for @max_sge SGEs, which @rwr points at; with inline
 *	data (and an ATOMIC WRITE's 8 bytes) one SGE names them in @w
 *
 * libibverbs' opcodes (IB_UVERBS_WR_*) become the kernel's; an opcode
 * user space may not post (REG_MR, SEND_WITH_INV's relatives, ...) or one rxe
 * does not know, more SGEs than the QP has or more inline bytes than
 * it takes make a request that completes with an error status
 * (@rwr->status) without running.  Whether the opcode suits the QP's
 * type, the AH of a datagram and the keys are rdmavt's checks.
 *
 * Context: any.
 */
void rxe_uring_send_wr(const struct rxe_send_wqe *w, u32 max_sge,
		       u32 max_inline, struct rvt_ring_wr *rwr,
		       struct ib_sge *sges)
{
	const struct rxe_send_wr *u = &w->wr;
	u32 flags = u->send_flags & (IB_SEND_FENCE | IB_SEND_SIGNALED |
				     IB_SEND_SOLICITED | IB_SEND_INLINE);
	bool data = false;	/* SENDs and WRITEs may carry inline data */
	u32 i, n;

	memset(rwr, 0, sizeof(*rwr));
	rwr->wr.wr_id = u->wr_id;
	rwr->status = IB_WC_SUCCESS;
	switch (u->opcode) {
	case IB_UVERBS_WR_SEND:
	case IB_UVERBS_WR_SEND_WITH_IMM:
		rwr->wr.opcode = u->opcode == IB_UVERBS_WR_SEND ? IB_WR_SEND :
				 IB_WR_SEND_WITH_IMM;
		rwr->wr.ex.imm_data = u->ex.imm_data;
		/* a datagram's address; another QP type ignores it */
		rwr->ud_wr.remote_qpn = u->wr.ud.remote_qpn & IB_QPN_MASK;
		rwr->ud_wr.remote_qkey = u->wr.ud.remote_qkey;
		rwr->ah_num = u->wr.ud.ah_num;
		data = true;
		break;
	case IB_UVERBS_WR_SEND_WITH_INV:
		rwr->wr.opcode = IB_WR_SEND_WITH_INV;
		rwr->wr.ex.invalidate_rkey = u->ex.invalidate_rkey;
		data = true;
		break;
	case IB_UVERBS_WR_RDMA_WRITE:
	case IB_UVERBS_WR_RDMA_WRITE_WITH_IMM:
		rwr->wr.opcode = u->opcode == IB_UVERBS_WR_RDMA_WRITE ?
				 IB_WR_RDMA_WRITE : IB_WR_RDMA_WRITE_WITH_IMM;
		rwr->wr.ex.imm_data = u->ex.imm_data;
		rwr->rdma_wr.remote_addr = u->wr.rdma.remote_addr;
		rwr->rdma_wr.rkey = u->wr.rdma.rkey;
		data = true;
		break;
	case IB_UVERBS_WR_RDMA_READ:
		rwr->wr.opcode = IB_WR_RDMA_READ;
		rwr->rdma_wr.remote_addr = u->wr.rdma.remote_addr;
		rwr->rdma_wr.rkey = u->wr.rdma.rkey;
		break;
	case IB_UVERBS_WR_ATOMIC_CMP_AND_SWP:
	case IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD:
		rwr->wr.opcode = u->opcode == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP ?
				 IB_WR_ATOMIC_CMP_AND_SWP :
				 IB_WR_ATOMIC_FETCH_AND_ADD;
		rwr->atomic_wr.remote_addr = u->wr.atomic.remote_addr;
		rwr->atomic_wr.compare_add = u->wr.atomic.compare_add;
		rwr->atomic_wr.swap = u->wr.atomic.swap;
		rwr->atomic_wr.rkey = u->wr.atomic.rkey;
		break;
	case IB_UVERBS_WR_BIND_MW:
		/* a memory window bound by this QP (librxe's ibv_bind_mw too) */
		rwr->wr.opcode = IB_WR_BIND_MW;
		rwr->wr.send_flags = flags & ~IB_SEND_INLINE;
		rwr->bind_wr.addr = u->wr.mw.addr;
		rwr->bind_wr.length = u->wr.mw.length;
		rwr->bind_wr.mw_rkey = u->wr.mw.mw_rkey;
		rwr->bind_wr.rkey = u->wr.mw.rkey;
		rwr->bind_wr.mr_lkey = u->wr.mw.mr_lkey;
		rwr->bind_wr.access = u->wr.mw.access;
		return;
	case IB_UVERBS_WR_LOCAL_INV:
		/* a type 2 window's key (librxe's ibv_wr_local_inv) */
		rwr->wr.opcode = IB_WR_LOCAL_INV;
		rwr->wr.ex.invalidate_rkey = u->ex.invalidate_rkey;
		rwr->wr.send_flags = flags & ~IB_SEND_INLINE;
		return;
	case IB_UVERBS_WR_FLUSH:
		rwr->wr.opcode = IB_WR_FLUSH;
		rwr->flush_wr.remote_addr = u->wr.flush.remote_addr;
		rwr->flush_wr.length = u->wr.flush.length;
		rwr->flush_wr.rkey = u->wr.flush.rkey;
		rwr->flush_wr.type = u->wr.flush.type;
		rwr->flush_wr.level = u->wr.flush.level;
		rwr->wr.send_flags = flags & ~IB_SEND_INLINE;
		return;
	case IB_UVERBS_WR_ATOMIC_WRITE:
		/* its 8 bytes travel in the entry, as inline data */
		rwr->wr.opcode = IB_WR_ATOMIC_WRITE;
		rwr->rdma_wr.remote_addr = u->wr.rdma.remote_addr;
		rwr->rdma_wr.rkey = u->wr.rdma.rkey;
		rwr->wr.send_flags = flags | IB_SEND_INLINE;
		sges[0] = (struct ib_sge) {
			.addr = (uintptr_t)w->dma.atomic_wr,
			.length = sizeof(u64),
		};
		rwr->wr.sg_list = sges;
		rwr->wr.num_sge = 1;
		return;
	default:
		rwr->wr.opcode = IB_WR_SEND;
		rwr->wr.send_flags = flags & ~IB_SEND_INLINE;
		rwr->status = IB_WC_LOC_QP_OP_ERR;
		return;
	}

	rwr->wr.sg_list = sges;
	if (data && (flags & IB_SEND_INLINE)) {
		n = READ_ONCE(w->dma.length);
		rwr->wr.send_flags = flags;
		if (n > max_inline) {
			rwr->wr.send_flags &= ~IB_SEND_INLINE;
			rwr->status = IB_WC_LOC_LEN_ERR;
			return;
		}
		/* rdmavt copies the bytes from here, in the kernel */
		sges[0] = (struct ib_sge) {
			.addr = (uintptr_t)w->dma.inline_data,
			.length = n,
		};
		rwr->wr.num_sge = n ? 1 : 0;
		return;
	}
	rwr->wr.send_flags = flags & ~IB_SEND_INLINE;
	n = READ_ONCE(w->dma.num_sge);
	if (n > max_sge) {
		rwr->status = IB_WC_LOC_QP_OP_ERR;
		return;
	}
	for (i = 0; i < n; i++)
		sges[i] = (struct ib_sge) {
			.addr = w->dma.sge[i].addr,
			.length = w->dma.sge[i].length,
			.lkey = w->dma.sge[i].lkey,
		};
	rwr->wr.num_sge = n;
}

/* An entry of a user send queue: its header and the room after it. */
static size_t rxe_send_wqe_size(u32 room)
{
	return sizeof(struct rxe_send_wqe) + room;
}

/* ------------------------------------------------------------------
 * Completion queues
 */

/* What CREATE_CQ and RESIZE_CQ answer: where to map the queue. */
static_assert(sizeof(struct rxe_create_cq_resp) == sizeof(struct mminfo));
static_assert(sizeof(struct rxe_resize_cq_resp) == sizeof(struct mminfo));

static void rxe_uring_put(struct rxe_uring *r)
{
	rxe_uring_free(r);
	kfree(r);
}

/*
 * A CQ's queue of *@n completions at least (*@n becomes what it holds),
 * its place answered in @udata.
 */
static struct rxe_uring *rxe_user_cq_ring(struct ib_udata *udata, u32 *n)
{
	struct rxe_uring *r;
	int ret;

	if (!udata || udata->outlen < sizeof(struct mminfo))
		return ERR_PTR(-EINVAL);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	ret = rxe_uring_init(r, udata, n, sizeof(struct ib_uverbs_wc));
	if (ret) {
		kfree(r);
		return ERR_PTR(ret);
	}
	ret = ib_copy_to_udata(udata, &r->mi, sizeof(r->mi));
	if (ret) {
		rxe_uring_put(r);
		return ERR_PTR(ret);
	}
	return r;
}

static int rxe_create_user_cq(struct rvt_cq *cq, struct ib_udata *udata)
{
	u32 n = cq->ibcq.cqe;
	struct rxe_uring *r = rxe_user_cq_ring(udata, &n);

	if (IS_ERR(r))
		return PTR_ERR(r);
	cq->ibcq.cqe = n;
	cq->drv_ring = r;
	return 0;
}

static void rxe_destroy_user_cq(struct rvt_cq *cq)
{
	rxe_uring_put(cq->drv_ring);
	cq->drv_ring = NULL;
}

/*
 * A new queue; the completions user space has not polled move over,
 * oldest first, and it maps the new queue at the offset answered.
 */
static int rxe_resize_user_cq(struct rvt_cq *cq, u32 cqe,
			      struct ib_udata *udata)
{
	struct rxe_uring *r, *old;
	unsigned long flags;
	u32 n = cqe, cnt, cons;

	r = rxe_user_cq_ring(udata, &n);
	if (IS_ERR(r))
		return PTR_ERR(r);

	spin_lock_irqsave(&cq->lock, flags);
	old = cq->drv_ring;
	cons = rxe_uring_consumer(old);
	cnt = (old->index - cons) & old->mask;
	if (cnt > n) {
		spin_unlock_irqrestore(&cq->lock, flags);
		rxe_uring_put(r);
		return -EINVAL;
	}
	rxe_uring_move(r, old, cons, cnt, sizeof(struct ib_uverbs_wc));
	r->index = cnt;
	cq->drv_ring = r;
	cq->ibcq.cqe = n;
	spin_unlock_irqrestore(&cq->lock, flags);
	rxe_uring_put(old);
	return 0;
}

static bool rxe_user_cq_push(struct rvt_cq *cq, const struct ib_wc *wc)
{
	return rxe_uring_cq_push(cq->drv_ring, wc);
}

static bool rxe_user_cq_empty(struct rvt_cq *cq)
{
	struct rxe_uring *r = cq->drv_ring;

	return r->index == rxe_uring_consumer(r);
}

/* ------------------------------------------------------------------
 * Queue pairs
 */

/**
 * struct rxe_usq - rxe's user side of a user QP (qp->drv_sq)
 * @sq: the send queue; its index is the consumer index (the next slot
 *	to free), under qp->s_lock
 * @rq: the receive queue (qp->rq.drv_ring) without an SRQ; its index is
 *	the consumer index, under qp->rq.lock
 * @lock: serialises the doorbell, and the send queue's reset with it
 * @taken: the next slot the doorbell takes; the slots from @sq.index up
 *	to it hold requests rdmavt has (under @lock)
 * @slot_len: bytes of an entry (the header and its room)
 * @slot: the entry being taken, copied out of user space's reach
 * @sges: the SGEs of the request made of it
 */
struct rxe_usq {
	struct rxe_uring	sq;
	struct rxe_uring	rq;
	struct mutex		lock;	/* see above */
	u32			taken;
	size_t			slot_len;
	struct rxe_send_wqe	*slot;
	struct ib_sge		*sges;
};

static void rxe_usq_free(struct rxe_usq *u)
{
	rxe_uring_free(&u->sq);
	if (u->rq.mmap)
		rxe_uring_free(&u->rq);
	kfree(u->slot);
	kfree(u->sges);
	mutex_destroy(&u->lock);
	kfree(u);
}

/*
 * A user QP's queues.  As upstream, a send entry has room for
 * max_send_sge SGEs or max_inline_data bytes, whichever is more, and
 * the QP gets what the room holds of both (inline data up to rdmavt's
 * limit); both queues hold a power of two entries less one.
 */
static int rxe_create_user_qp(struct rvt_qp *qp, struct ib_qp_init_attr *init,
			      struct ib_udata *udata)
{
	struct rxe_create_qp_resp resp = {};
	struct ib_qp_cap *cap = &init->cap;
	struct rxe_usq *u;
	u32 room;
	int ret;

	if (udata->outlen < sizeof(resp))
		return -EINVAL;
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	mutex_init(&u->lock);
	room = max_t(u32, cap->max_send_sge * sizeof(struct rxe_sge),
		     cap->max_inline_data);
	cap->max_send_sge = min_t(u32, room / sizeof(struct rxe_sge),
				  RXE_MAX_SGE);
	cap->max_inline_data = min_t(u32, room, RVT_MAX_INLINE);
	u->slot_len = rxe_send_wqe_size(room);
	u->slot = kzalloc(u->slot_len, GFP_KERNEL);
	u->sges = kcalloc(cap->max_send_sge, sizeof(*u->sges), GFP_KERNEL);
	ret = -ENOMEM;
	if (!u->slot || !u->sges)
		goto err;
	ret = rxe_uring_init(&u->sq, udata, &cap->max_send_wr, u->slot_len);
	if (ret)
		goto err;
	if (!init->srq) {
		ret = rxe_uring_init(&u->rq, udata, &cap->max_recv_wr,
				     rxe_recv_wqe_size(cap->max_recv_sge));
		if (ret)
			goto err;
		resp.rq_mi = u->rq.mi;
	}
	resp.sq_mi = u->sq.mi;
	ret = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (ret)
		goto err;
	qp->drv_sq = u;
	qp->rq.drv_ring = init->srq ? NULL : &u->rq;
	return 0;

err:
	rxe_usq_free(u);
	return ret;
}

static void rxe_destroy_user_qp(struct rvt_qp *qp)
{
	rxe_usq_free(qp->drv_sq);
}

/*
 * The doorbell: every entry user space produced since the last one, in
 * order, copied and posted, as far as rdmavt's window on the queue
 * (RVT_DRV_SQ_WINDOW) has room; what does not fit is taken when
 * rdmavt rings again, once a request retired (its ring_work).
 */
static int rxe_user_sq_doorbell(struct rvt_qp *qp)
{
	struct rxe_usq *u = qp->drv_sq;
	struct rvt_ring_wr rwr;
	u32 prod;

	mutex_lock(&u->lock);
	prod = rxe_uring_producer(&u->sq);
	while (u->taken != prod) {
		memcpy(u->slot, rxe_uring_slot(&u->sq, u->taken), u->slot_len);
		rxe_uring_send_wr(u->slot, qp->max_send_sge, qp->max_inline,
				  &rwr, u->sges);
		if (rvt_post_ring_wr(qp, &rwr))
			break;
		u->taken = (u->taken + 1) & u->sq.mask;
	}
	mutex_unlock(&u->lock);
	return 0;
}

/* librxe rings the doorbell for every request it posts */
static bool rxe_user_sq_retired(struct rvt_qp *qp)
{
	struct rxe_usq *u = qp->drv_sq;

	lockdep_assert_held(&qp->s_lock);
	u->sq.index = (u->sq.index + 1) & u->sq.mask;
	/* release: the entry was copied long before; the slot is free */
	smp_store_release(&u->sq.buf->consumer_index, u->sq.index);
	return false;
}

/*
 * RESET empties the send queue: the requests rdmavt held are forgotten
 * and their slots free, and so are the entries not taken yet (as
 * upstream drains them).  What a doorbell posted after rdmavt's reset
 * is still there and retires.
 */
static void rxe_user_sq_reset(struct rvt_qp *qp)
{
	struct rxe_usq *u = qp->drv_sq;
	unsigned long flags;
	u32 held;

	mutex_lock(&u->lock);
	u->taken = rxe_uring_producer(&u->sq);
	spin_lock_irqsave(&qp->s_lock, flags);
	held = (qp->sq_head + qp->sq_size - qp->sq_tail) % qp->sq_size;
	u->sq.index = (u->taken - held) & u->sq.mask;
	/* release: the slots before it were copied and are free */
	smp_store_release(&u->sq.buf->consumer_index, u->sq.index);
	spin_unlock_irqrestore(&qp->s_lock, flags);
	mutex_unlock(&u->lock);
}

static bool rxe_user_rq_take(struct rvt_rq *rq, struct rvt_rwqe *wqe)
{
	return rxe_uring_recv_take(rq->drv_ring, rq->max_sge, wqe);
}

static u32 rxe_user_rq_count(struct rvt_rq *rq)
{
	struct rxe_uring *r = rq->drv_ring;

	return (rxe_uring_producer(r) - r->index) & r->mask;
}

/**
 * rxe_modify_qp - rxe's part of a modify_qp (driver_f.modify_qp)
 * @qp: the QP, modified
 * @attr: the attributes
 * @mask: which
 * @udata: the driver data, or NULL
 *
 * A user QP that went to RESET frees the slots of its send queue (the
 * receive queue rdmavt emptied); then the connected transport takes its
 * attributes.
 *
 * Context: process context, may sleep.
 */
void rxe_modify_qp(struct rvt_qp *qp, struct ib_qp_attr *attr, int mask,
		   struct ib_udata *udata)
{
	if (qp->drv_sq && (mask & IB_QP_STATE) &&
	    attr->qp_state == IB_QPS_RESET)
		rxe_user_sq_reset(qp);
	rxe_rc_modify(qp, attr, mask, udata);
}

/* ------------------------------------------------------------------
 * Shared receive queues
 */

/**
 * struct rxe_usrq - rxe's user side of a user SRQ
 * @rq: the queue (srq->rq.drv_ring); its index is the consumer index,
 *	under srq->rq.lock
 * @num: the SRQ's number (rxe_create_srq_resp.srq_num)
 * @slot_len: bytes of an entry
 */
struct rxe_usrq {
	struct rxe_uring	rq;
	u32			num;
	size_t			slot_len;
};

static int rxe_create_user_srq(struct rvt_srq *srq, struct ib_srq_attr *attr,
			       struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rxe_dev(srq->ibsrq.device);
	struct rxe_create_srq_resp resp = {};
	struct rxe_usrq *u;
	int ret;

	if (udata->outlen < sizeof(resp))
		return -EINVAL;
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	ret = ida_alloc_range(&rxe->srq_ida, RXE_MIN_SRQ_NUM, RXE_MAX_SRQ_NUM,
			      GFP_KERNEL);
	if (ret < 0)
		goto err_free;
	u->num = ret;
	u->slot_len = rxe_recv_wqe_size(attr->max_sge);
	ret = rxe_uring_init(&u->rq, udata, &attr->max_wr, u->slot_len);
	if (ret)
		goto err_num;
	resp.mi = u->rq.mi;
	resp.srq_num = u->num;
	ret = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (ret)
		goto err_ring;
	srq->rq.drv_ring = &u->rq;
	return 0;

err_ring:
	rxe_uring_free(&u->rq);
err_num:
	ida_free(&rxe->srq_ida, u->num);
err_free:
	kfree(u);
	return ret;
}

static void rxe_destroy_user_srq(struct rvt_srq *srq)
{
	struct rxe_dev *rxe = to_rxe_dev(srq->ibsrq.device);
	struct rxe_usrq *u = container_of(srq->rq.drv_ring, struct rxe_usrq,
					  rq);

	rxe_uring_free(&u->rq);
	ida_free(&rxe->srq_ida, u->num);
	kfree(u);
	srq->rq.drv_ring = NULL;
}

/*
 * A new queue of @max_wr entries at least: user space learns where
 * through the address MODIFY_SRQ's driver data names, then the entries
 * not taken move over, oldest first.
 */
static int rxe_resize_user_srq(struct rvt_srq *srq, u32 max_wr,
			       struct ib_udata *udata)
{
	struct rxe_usrq *u = container_of(srq->rq.drv_ring, struct rxe_usrq,
					  rq);
	struct rxe_modify_srq_cmd cmd;
	struct rxe_uring r = {};
	unsigned long flags;
	u32 n = max_wr, cnt;
	int ret;

	if (!udata || udata->inlen < sizeof(cmd))
		return -EINVAL;
	ret = ib_copy_from_udata(&cmd, udata, sizeof(cmd));
	if (ret)
		return ret;
	ret = rxe_uring_init(&r, udata, &n, u->slot_len);
	if (ret)
		return ret;
	if (copy_to_user(u64_to_user_ptr(cmd.mmap_info_addr), &r.mi,
			 sizeof(r.mi))) {
		ret = -EFAULT;
		goto out;
	}

	spin_lock_irqsave(&srq->rq.lock, flags);
	cnt = rxe_user_rq_count(&srq->rq);
	if (cnt > n) {
		spin_unlock_irqrestore(&srq->rq.lock, flags);
		ret = -EINVAL;
		goto out;
	}
	rxe_uring_move(&r, &u->rq, u->rq.index, cnt, u->slot_len);
	swap(u->rq, r);
	srq->rq.size = n + 1;
	spin_unlock_irqrestore(&srq->rq.lock, flags);
out:
	/* the queue not used: the new one on failure, else the old one */
	rxe_uring_free(&r);
	return ret;
}

/* ------------------------------------------------------------------
 * Address handles
 */

/* The AH's number, by which librxe's UD send entries name it. */
static int rxe_create_user_ah(struct rvt_ah *ah, struct ib_udata *udata)
{
	struct rxe_create_ah_resp resp = { .ah_num = ah->num };

	/* an old librxe has no room for it and sends address vectors */
	if (udata->outlen < sizeof(resp))
		return 0;
	return ib_copy_to_udata(udata, &resp, sizeof(resp));
}

/**
 * rxe_uring_hooks - give a device rxe's user ABI
 * @rdi: the device, before registration
 *
 * Context: any.
 */
void rxe_uring_hooks(struct rvt_dev_info *rdi)
{
	struct rvt_driver_provided *f = &rdi->driver_f;

	rdi->dparms.driver_user_abi = true;
	f->create_user_cq = rxe_create_user_cq;
	f->resize_user_cq = rxe_resize_user_cq;
	f->destroy_user_cq = rxe_destroy_user_cq;
	f->user_cq_push = rxe_user_cq_push;
	f->user_cq_empty = rxe_user_cq_empty;
	f->create_user_qp = rxe_create_user_qp;
	f->destroy_user_qp = rxe_destroy_user_qp;
	f->user_sq_doorbell = rxe_user_sq_doorbell;
	f->user_sq_retired = rxe_user_sq_retired;
	f->user_rq_take = rxe_user_rq_take;
	f->user_rq_count = rxe_user_rq_count;
	f->create_user_srq = rxe_create_user_srq;
	f->resize_user_srq = rxe_resize_user_srq;
	f->destroy_user_srq = rxe_destroy_user_srq;
	f->create_user_ah = rxe_create_user_ah;
}
