// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The responder's atomics: CMP_AND_SWP and FETCH_AND_ADD on 8 aligned
 * bytes of an rkey'd region, the original value going back into the
 * requester's scatter list.
 *
 * Why one global lock: the target is plain memory that any device of
 * rdmavt (and any QP) may reach under another rkey or through a DMA MR;
 * IB_ATOMIC_HCA promises atomicity among the device's own atomics only,
 * and one lock gives that whatever key names the bytes.  It is a leaf
 * lock, taken with bottom halves off (the engine), and held for the
 * read-modify-write alone.
 */

#include <rdma/rdma_vt.h>

#include "vt.h"
#include "engine.h"

/* serialises the atomic operations of every rdmavt device */
static DEFINE_SPINLOCK(rvt_atomic_lock);

void rvt_deliver_atomic(struct rvt_delivery *d)
{
	const struct ib_atomic_wr *aw = &d->wqe->atomic_wr;
	struct rvt_sge target;
	u64 *p, old;

	if (!(READ_ONCE(d->dqp->qp_access_flags) & IB_ACCESS_REMOTE_ATOMIC) ||
	    (aw->remote_addr & (sizeof(u64) - 1)) ||
	    !rvt_rkey_ok(d->dqp, &target, sizeof(u64), aw->remote_addr,
			 aw->rkey, IB_ACCESS_REMOTE_ATOMIC)) {
		d->dqp_err = true;
		d->status = IB_WC_REM_ACCESS_ERR;
		return;
	}
	/* aligned 8 bytes never straddle two segments */
	p = target.vaddr;

	spin_lock(&rvt_atomic_lock);
	old = *p;
	if (d->wqe->wr.opcode == IB_WR_ATOMIC_CMP_AND_SWP) {
		if (old == aw->compare_add)
			*p = aw->swap;
	} else {
		*p = old + aw->compare_add;
	}
	spin_unlock(&rvt_atomic_lock);
	rvt_put_mr(target.mr);

	rvt_copy_sge(d->qp, &d->qp->s_sge, &old, sizeof(old), false, false);
}
