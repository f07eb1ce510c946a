// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt memory windows (IBA 10.6.7): type 1 windows, bound and unbound
 * by a BIND_MW request of any QP of their PD, and type 2B windows, bound
 * through one QP, reachable only by it, and invalidated by LOCAL_INV or
 * a peer's SEND with invalidate.  A device has them when its driver
 * sets IB_DEVICE_MEM_WINDOW (rvt_register_device()).
 *
 * A window shares the key table with the MRs: its rkey's index finds a
 * tagged entry (RVT_MW_TAG), which lookups of MRs skip.  A remote access
 * through a window (rvt_rkey_ok()) checks the window, then goes on as an
 * access of the region it is bound to, referenced as any MR.
 *
 * Locks: everything of a window, and the count of windows bound to an
 * MR, is under the key table's xa_lock (IRQ safe); it nests inside the
 * QP's locks.
 */
#include <linux/random.h>
#include <linux/xarray.h>
#include <rdma/rdma_vt.h>

#include "vt.h"

#define RVT_MW_TAG	1

/* the access a window may grant: remote rights, maybe zero-based */
#define RVT_MW_ACCESS	(IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_ATOMIC | IB_ZERO_BASED)

static struct rvt_mw *to_rvt_mw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct rvt_mw, ibmw);
}

/* The window of @key's index, under the table's lock; NULL if an MR's. */
static struct rvt_mw *rvt_mw_find(struct rvt_lkey_table *rkt, u32 key)
{
	void *e = xa_load(&rkt->table, key >> 8);

	if (!e || xa_pointer_tag(e) != RVT_MW_TAG)
		return NULL;
	return xa_untag_pointer(e);
}

/**
 * rvt_is_mw_entry - is an entry of the key table a memory window's?
 * @entry: what xa_load() gave
 *
 * Context: any.
 * Return: true for a window's entry.
 */
bool rvt_is_mw_entry(void *entry)
{
	return xa_pointer_tag(entry) == RVT_MW_TAG;
}

int rvt_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibmw->device);
	struct rvt_mw *mw = to_rvt_mw(ibmw);
	u32 index;
	int ret;

	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2)
		return -EINVAL;
	if (atomic_inc_return(&rdi->n_mws) > rdi->dparms.props.max_mw) {
		atomic_dec(&rdi->n_mws);
		return -ENOMEM;
	}
	mw->mr = NULL;
	mw->length = 0;
	mw->valid = false;
	ret = xa_alloc_cyclic_irq(&rdi->lkey_table.table, &index,
				  xa_tag_pointer(mw, RVT_MW_TAG),
				  XA_LIMIT(1, RVT_MAX_LKEY_INDEX),
				  &rdi->lkey_table.next, GFP_KERNEL);
	if (ret < 0) {
		atomic_dec(&rdi->n_mws);
		return ret;
	}
	/* a key byte of its own, as a new MR's */
	ibmw->rkey = index << 8 | (get_random_u32() & 0xff);
	return 0;
}

int rvt_dealloc_mw(struct ib_mw *ibmw)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibmw->device);
	struct rvt_mw *mw = to_rvt_mw(ibmw);
	struct rvt_mregion *mr;
	unsigned long flags;

	xa_lock_irqsave(&rdi->lkey_table.table, flags);
	__xa_erase(&rdi->lkey_table.table, ibmw->rkey >> 8);
	mr = mw->mr;
	mw->mr = NULL;
	if (mr)
		atomic_dec(&mr->num_mw);
	xa_unlock_irqrestore(&rdi->lkey_table.table, flags);
	/* no lookup reaches the window now: it is the core's to free */
	rvt_put_mr(mr);
	atomic_dec(&rdi->n_mws);
	return 0;
}

/*
 * The rules of IBA 10.6.7.2 (type 1) and 10.6.7.3 (type 2B) for a bind
 * of @mw to @mr (NULL: unbind a type 1 window) by @qp.
 */
static int rvt_bind_check(struct rvt_qp *qp, const struct rvt_bind_wr *b,
			  struct rvt_mw *mw, struct rvt_mregion *mr)
{
	/*
	 * Rights a window cannot grant (local ones: libraries pass the
	 * MR's, pyverbs LOCAL_WRITE) are ignored, as upstream rxe does.
	 */
	if (mw->ibmw.pd != qp->ibqp.pd)
		return -EACCES;
	if (mw->ibmw.type == IB_MW_TYPE_1) {
		if (b->access & IB_ZERO_BASED)
			return -EINVAL;
	} else if (mw->valid || !mr) {
		/* type 2: bound only when invalid, never to nothing */
		return -EINVAL;
	}
	if (!mr)
		return 0;
	if (mr->pd != qp->ibqp.pd || READ_ONCE(mr->lkey) != b->mr_lkey ||
	    atomic_read(&mr->lkey_invalid) || rvt_mr_is_dma(mr))
		return -EACCES;
	if (!(mr->access_flags & IB_ACCESS_MW_BIND))
		return -EACCES;
	/* a window that may be written lies on memory written locally */
	if ((b->access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(mr->access_flags & IB_ACCESS_LOCAL_WRITE))
		return -EACCES;
	/* zero-based or not, the window lies within the MR */
	if (b->addr < mr->user_base || b->addr - mr->user_base > mr->length ||
	    b->length > mr->length - (b->addr - mr->user_base))
		return -EINVAL;
	return 0;
}

/**
 * rvt_bind_mw - execute a BIND_MW request
 * @qp: the QP it came on
 * @b: the request
 *
 * The window named by @b->mw_rkey is bound to @b->length bytes at
 * @b->addr of the MR named by @b->mr_lkey with the new key byte and
 * rights, or (a type 1 window, length 0) unbound.  Called from the send
 * engine, in the request's order.
 *
 * Context: any; takes the key table's lock.
 * Return: 0, or a negative error (the request completes with
 * IB_WC_MW_BIND_ERR).
 */
int rvt_bind_mw(struct rvt_qp *qp, const struct rvt_bind_wr *b)
{
	struct rvt_dev_info *rdi = ib_to_rvt(qp->ibqp.device);
	struct rvt_lkey_table *rkt = &rdi->lkey_table;
	struct rvt_mregion *mr = NULL, *old = NULL;
	unsigned long flags;
	struct rvt_mw *mw;
	void *e;
	int ret;

	xa_lock_irqsave(&rkt->table, flags);
	mw = rvt_mw_find(rkt, b->mw_rkey);
	if (!mw || mw->ibmw.rkey != b->mw_rkey) {
		ret = -EINVAL;
		goto out;
	}
	if (b->length) {
		e = xa_load(&rkt->table, b->mr_lkey >> 8);
		if (!e || rvt_is_mw_entry(e)) {
			ret = -EINVAL;
			goto out;
		}
		mr = e;
	}
	ret = rvt_bind_check(qp, b, mw, mr);
	if (ret)
		goto out;
	old = mw->mr;
	if (old)
		atomic_dec(&old->num_mw);
	if (mr) {
		/* the table's reference keeps it: no lookup can fail */
		rvt_get_mr(mr);
		atomic_inc(&mr->num_mw);
	}
	mw->mr = mr;
	mw->addr = b->addr;
	mw->length = mr ? b->length : 0;
	mw->access = b->access & RVT_MW_ACCESS;
	mw->qpn = qp->ibqp.qp_num;
	mw->valid = true;
	mw->ibmw.rkey = (mw->ibmw.rkey & ~0xffU) | (b->rkey & 0xff);
out:
	xa_unlock_irqrestore(&rkt->table, flags);
	rvt_put_mr(old);
	return ret;
}

/**
 * rvt_mw_rkey_ok - a remote access through a memory window
 * @qp: the responder QP
 * @rkey: the window's rkey
 * @vaddr: the first address; a zero-based window's offset becomes the
 *	MR's address here
 * @len: bytes
 * @acc: the access (IB_ACCESS_REMOTE_*)
 *
 * Context: any but hard interrupts; takes the key table's lock.
 * Return: the MR the window is bound to, referenced, or NULL when
 * @rkey names no window that grants this access to @qp.
 */
struct rvt_mregion *rvt_mw_rkey_ok(struct rvt_qp *qp, u32 rkey, u64 *vaddr,
				   u32 len, int acc)
{
	struct rvt_dev_info *rdi = ib_to_rvt(qp->ibqp.device);
	struct rvt_lkey_table *rkt = &rdi->lkey_table;
	struct rvt_mregion *mr = NULL;
	unsigned long flags;
	struct rvt_mw *mw;
	u64 off;

	xa_lock_irqsave(&rkt->table, flags);
	mw = rvt_mw_find(rkt, rkey);
	if (!mw || mw->ibmw.rkey != rkey || !mw->valid || !mw->mr ||
	    mw->ibmw.pd != qp->ibqp.pd || (mw->access & acc) != acc ||
	    (mw->ibmw.type == IB_MW_TYPE_2 && mw->qpn != qp->ibqp.qp_num))
		goto out;
	off = mw->access & IB_ZERO_BASED ? *vaddr : *vaddr - mw->addr;
	if ((!(mw->access & IB_ZERO_BASED) && *vaddr < mw->addr) ||
	    off > mw->length || len > mw->length - off)
		goto out;
	mr = mw->mr;
	/* the MR's address: a zero-based window's offset from its start */
	*vaddr = mw->addr + off;
	rvt_get_mr(mr);
out:
	xa_unlock_irqrestore(&rkt->table, flags);
	return mr;
}

/**
 * rvt_invalidate_mw - invalidate a type 2 memory window by its rkey
 * @qp: the QP asking (LOCAL_INV, or the responder of a SEND with
 *	invalidate); the window must be of its PD
 * @rkey: the window's rkey
 *
 * Context: any; takes the key table's lock.
 * Return: 0, or -EINVAL when @rkey names no valid type 2 window of
 * @qp's PD (type 1 windows are not invalidated: IBA o10-37.2.26).
 */
int rvt_invalidate_mw(struct rvt_qp *qp, u32 rkey)
{
	struct rvt_dev_info *rdi = ib_to_rvt(qp->ibqp.device);
	struct rvt_lkey_table *rkt = &rdi->lkey_table;
	struct rvt_mregion *mr = NULL;
	unsigned long flags;
	struct rvt_mw *mw;
	int ret = -EINVAL;

	xa_lock_irqsave(&rkt->table, flags);
	mw = rvt_mw_find(rkt, rkey);
	if (mw && mw->ibmw.rkey == rkey && mw->ibmw.type == IB_MW_TYPE_2 &&
	    mw->valid && mw->ibmw.pd == qp->ibqp.pd) {
		mr = mw->mr;
		mw->mr = NULL;
		atomic_dec(&mr->num_mw);
		mw->length = 0;
		mw->valid = false;
		ret = 0;
	}
	xa_unlock_irqrestore(&rkt->table, flags);
	rvt_put_mr(mr);
	return ret;
}
