// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The responder's atomics: CMP_AND_SWP and FETCH_AND_ADD on 8 aligned
 * bytes of an rkey'd region, the original value going back into the
 * requester's scatter list; and IBA 1.5's ATOMIC WRITE, 8 aligned bytes
 * stored at once.
 *
 * Why one global lock: the target is plain memory that any device of
 * rdmavt (and any QP) may reach under another rkey or through a DMA MR;
 * IB_ATOMIC_HCA promises atomicity among the device's own atomics only,
 * and one lock gives that whatever key names the bytes.  It is a leaf
 * lock, taken with bottom halves off, and held for the read-modify-write
 * alone.
 */

#include <linux/unaligned.h>
#include <rdma/rdma_vt.h>

#include "vt.h"
#include "engine.h"

/* serialises the atomic operations of every rdmavt device */
static DEFINE_SPINLOCK(rvt_atomic_lock);

/*
 * The 8 bytes at @vaddr under @rkey for an operation that needs @acc:
 * @qp must grant @acc and @vaddr be aligned, in the region's pages too
 * (else an invalid request, IBA's class C); @rkey must name a
 * registration of @qp's PD with @acc covering them (else a remote access
 * error).  On IB_WC_SUCCESS @target holds a reference on the region.
 */
static enum ib_wc_status rvt_atomic_target(struct rvt_qp *qp,
					   struct rvt_sge *target, u32 rkey,
					   u64 vaddr, int acc)
{
	if (!(READ_ONCE(qp->qp_access_flags) & acc) ||
	    (vaddr & (sizeof(u64) - 1)))
		return IB_WC_REM_INV_REQ_ERR;
	if (!rvt_rkey_ok(qp, target, sizeof(u64), vaddr, rkey, acc))
		return IB_WC_REM_ACCESS_ERR;
	/* a region whose pages start off alignment: no torn access either */
	if ((uintptr_t)target->vaddr & (sizeof(u64) - 1)) {
		rvt_put_mr(target->mr);
		return IB_WC_REM_INV_REQ_ERR;
	}
	return IB_WC_SUCCESS;
}

/*
 * The read-modify-write of an atomic on @target's 8 bytes (aligned: they
 * never straddle two segments or pages).  Returns false, changing
 * nothing, when they are a page of an on-demand paging MR not mapped.
 */
static bool rvt_atomic_rmw(struct rvt_sge *target, bool cmp_swap,
			   u64 compare_add, u64 swap, u64 *orig)
{
	u64 *p, old;

	p = rvt_sge_map(target, true);
	if (!p)
		return false;
	spin_lock_bh(&rvt_atomic_lock);
	old = *p;
	if (cmp_swap) {
		if (old == compare_add)
			*p = swap;
	} else {
		*p = old + compare_add;
	}
	spin_unlock_bh(&rvt_atomic_lock);
	rvt_sge_unmap(target);
	*orig = old;
	return true;
}

/**
 * rvt_atomic_execute - a responder's atomic operation on 8 remote bytes
 * @qp: the responder QP
 * @rkey: the steering tag of the target
 * @vaddr: the target's address, 8-byte aligned
 * @cmp_swap: compare and swap (else fetch and add)
 * @compare_add: the value compared with (compare and swap) or added
 * @swap: the value swapped in when the compare matches
 * @orig: where the target's original value goes
 *
 * Checks that @qp grants IB_ACCESS_REMOTE_ATOMIC and that @rkey names a
 * registration of @qp's PD with remote atomic access covering the eight
 * bytes, then does the read-modify-write under the lock every rdmavt
 * atomic takes (IB_ATOMIC_HCA).  For a driver that carries atomics on
 * a wire; the in-memory delivery uses it too.
 *
 * Context: any context but hard interrupts; no QP lock needed.
 * Return: IB_WC_SUCCESS; IB_WC_REM_INV_REQ_ERR when @qp does not grant
 * remote atomics or the address is not 8-byte aligned (an invalid
 * request, as IBA's class C and upstream's drivers have it);
 * IB_WC_REM_ACCESS_ERR when the key check failed; RVT_WC_PAGE_MISS when
 * the target is a page of an on-demand paging MR being faulted in (the
 * atomic is to come again).  Nothing is changed unless IB_WC_SUCCESS.
 */
enum ib_wc_status rvt_atomic_execute(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				     bool cmp_swap, u64 compare_add, u64 swap,
				     u64 *orig)
{
	enum ib_wc_status st;
	struct rvt_sge target;

	st = rvt_atomic_target(qp, &target, rkey, vaddr,
			       IB_ACCESS_REMOTE_ATOMIC);
	if (st != IB_WC_SUCCESS)
		return st;
	if (!rvt_atomic_rmw(&target, cmp_swap, compare_add, swap, orig))
		st = rvt_odp_miss_fault(qp, &target, true, true);
	rvt_put_mr(target.mr);
	return st;
}
EXPORT_SYMBOL(rvt_atomic_execute);

/**
 * rvt_atomic_write - a responder's ATOMIC WRITE of 8 remote bytes
 * @qp: the responder QP
 * @rkey: the steering tag of the target
 * @vaddr: the target's address, 8-byte aligned
 * @val: the 8 bytes, as they go into memory (any alignment)
 *
 * IBA 1.5's ATOMIC WRITE: the 8 bytes land at once, never torn, after
 * everything the QP placed before them (a release store), and under the
 * lock every rdmavt atomic takes, so that it orders with them too.  The
 * checks are upstream rxe's, in its order: @qp must grant
 * IB_ACCESS_REMOTE_WRITE (else an invalid request), @vaddr must be
 * aligned, @rkey must name a registration of @qp's PD with remote write
 * access covering the eight bytes.
 *
 * Context: any context but hard interrupts; no QP lock needed.
 * Return: IB_WC_SUCCESS; IB_WC_REM_INV_REQ_ERR when @qp does not grant
 * remote writes or @vaddr is not aligned; IB_WC_REM_ACCESS_ERR when the
 * key check failed; RVT_WC_PAGE_MISS as for rvt_atomic_execute().
 * Nothing is written unless IB_WC_SUCCESS.
 */
enum ib_wc_status rvt_atomic_write(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				   const void *val)
{
	u64 v = get_unaligned((const u64 *)val);
	enum ib_wc_status st;
	struct rvt_sge target;

	u64 *p;

	st = rvt_atomic_target(qp, &target, rkey, vaddr,
			       IB_ACCESS_REMOTE_WRITE);
	if (st != IB_WC_SUCCESS)
		return st;
	p = rvt_sge_map(&target, true);
	if (p) {
		spin_lock_bh(&rvt_atomic_lock);
		/* after everything placed before it, as a WRITE after them */
		smp_store_release(p, v);
		spin_unlock_bh(&rvt_atomic_lock);
		rvt_sge_unmap(&target);
	} else {
		st = rvt_odp_miss_fault(qp, &target, true, true);
	}
	rvt_put_mr(target.mr);
	return st;
}
EXPORT_SYMBOL(rvt_atomic_write);

/*
 * The in-memory atomic.  Once executed, its original value must reach
 * the requester even if the requester's page is missing: the replay
 * after the fault copies the value kept in qp->s_atomic_old and does
 * not execute the atomic again.
 */
void rvt_deliver_atomic(struct rvt_delivery *d)
{
	const struct ib_atomic_wr *aw = &d->wqe->atomic_wr;
	struct rvt_qp *qp = d->qp;
	enum ib_wc_status status;
	struct rvt_sge target;

	if (qp->s_atomic_held)
		goto result;
	/* the in-memory delivery reports a misaligned target as an access */
	status = aw->remote_addr & (sizeof(u64) - 1) ? IB_WC_REM_ACCESS_ERR :
		 rvt_atomic_target(d->dqp, &target, aw->rkey, aw->remote_addr,
				   IB_ACCESS_REMOTE_ATOMIC);
	if (status != IB_WC_SUCCESS) {
		d->dqp_err = true;
		d->status = status;
		return;
	}
	if (!rvt_atomic_rmw(&target, d->wqe->wr.opcode ==
			    IB_WR_ATOMIC_CMP_AND_SWP, aw->compare_add,
			    aw->swap, &qp->s_atomic_old)) {
		struct rvt_sge_state ss = { .sge = target, .num_sge = 1 };

		rvt_note_miss(d, &ss, true, true);
		rvt_put_mr(target.mr);
		return;
	}
	rvt_put_mr(target.mr);
	qp->s_atomic_held = true;
result:
	if (!rvt_copy_sge(qp, &qp->s_sge, &qp->s_atomic_old,
			  sizeof(qp->s_atomic_old), false, false))
		rvt_note_miss(d, &qp->s_sge, true, false);
}
