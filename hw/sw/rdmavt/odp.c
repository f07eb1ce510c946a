// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * On-demand paging MRs of rdmavt: user memory that is not pinned.  The
 * MR's umem (core/ib_uverbs/umem_odp.c) maps pages when the engine
 * faults them in and unmaps them when the process's page tables change.
 *
 * The engine touches such memory a page at a time, between
 * rvt_sge_map() and rvt_sge_unmap(), which hold the MR's odp_lock for
 * reading and find the page in the umem's dma_list.  A page that is not
 * there is a miss: the caller leaves the operation undone (or done in a
 * way that is safe to do again), has the range faulted in with
 * rvt_odp_fault() from a context that may sleep, and runs the operation
 * again.
 *
 * The invalidation (the umem's MMU interval notifier) takes umem_mutex,
 * moves the notifier's sequence on, unmaps the range, then takes
 * odp_lock for writing once: an access that found a page of the range
 * before the unmap has ended by then, and one that starts after it
 * misses.  Lock order: umem_mutex, then odp_lock; the data path only
 * tries odp_lock (a page whose lock an invalidation waits for counts as
 * missing), so it never waits, in any context, and takes nothing under
 * it.
 */

#include <linux/mmu_notifier.h>
#include <linux/sched/mm.h>
#include <rdma/ib_umem_odp.h>
#include <rdma/rdma_vt.h>

#include "vt.h"

static bool rvt_odp_invalidate(struct mmu_interval_notifier *mni,
			       const struct mmu_notifier_range *range,
			       unsigned long cur_seq)
{
	struct ib_umem_odp *odp = container_of(mni, struct ib_umem_odp,
					       notifier);
	struct rvt_mregion *mr;
	unsigned long flags;

	if (mmu_notifier_range_blockable(range))
		mutex_lock(&odp->umem_mutex);
	else if (!mutex_trylock(&odp->umem_mutex))
		return false;
	mmu_interval_set_seq(mni, cur_seq);
	ib_umem_odp_unmap_dma_pages(odp, range->start, range->end);
	/* the MR is being made: nothing of it was mapped, nobody reads */
	mr = odp->private;
	if (mr) {
		write_lock_irqsave(&mr->odp_lock, flags);
		write_unlock_irqrestore(&mr->odp_lock, flags);
	}
	mutex_unlock(&odp->umem_mutex);
	return true;
}

static const struct mmu_interval_notifier_ops rvt_odp_ops = {
	.invalidate = rvt_odp_invalidate,
};

/**
 * rvt_odp_get - the on-demand paging umem of a new user MR
 * @mr: the region, not valid yet (no lookup finds it)
 * @start: user address of the first byte
 * @length: bytes
 * @iova: the MR's address of @start
 * @access: IB access flags, IB_ACCESS_ON_DEMAND among them
 *
 * @start 0 and @length U64_MAX make an implicit MR: the whole address
 * space at its own addresses (@iova must be 0), with a child umem per
 * RVT_ODP_CHILD_SIZE range the engine meets (rvt_odp_child()).
 *
 * Context: process context (the registering process); sleeps.
 * Return: 0 with @mr->odp set, or a negative errno: -EINVAL for an
 * implicit MR whose @iova is not 0, the umem's errors otherwise.
 */
int rvt_odp_get(struct rvt_mregion *mr, u64 start, u64 length, u64 iova,
		int access)
{
	struct ib_umem_odp *odp;

	rwlock_init(&mr->odp_lock);
	xa_init(&mr->odp_children);
	if (!start && length == U64_MAX) {
		if (iova)
			return -EINVAL;
		odp = ib_umem_odp_alloc_implicit(mr->pd->device, access);
	} else {
		odp = ib_umem_odp_get(mr->pd->device, start, length, access,
				      &rvt_odp_ops);
	}
	if (IS_ERR(odp))
		return PTR_ERR(odp);
	mutex_lock(&odp->umem_mutex);
	odp->private = mr;
	mutex_unlock(&odp->umem_mutex);
	mr->odp = odp;
	mr->page_shift = odp->page_shift;
	return 0;
}

/**
 * rvt_odp_put_children - release the child umems of an implicit MR
 * @mr: the region, which nothing uses any more
 *
 * Context: process context; sleeps.
 */
void rvt_odp_put_children(struct rvt_mregion *mr)
{
	struct ib_umem_odp *child;
	unsigned long idx;

	xa_for_each(&mr->odp_children, idx, child)
		ib_umem_odp_release(child);
	xa_destroy(&mr->odp_children);
}

/*
 * The child umem of implicit @mr that covers @uva, made if there is none
 * yet (a fault).  Children stay until the MR goes, so the data path
 * reads them without a reference.
 */
static struct ib_umem_odp *rvt_odp_child(struct rvt_mregion *mr, u64 uva)
{
	unsigned long idx = uva >> RVT_ODP_CHILD_SHIFT;
	struct ib_umem_odp *child, *old;

	child = xa_load(&mr->odp_children, idx);
	if (child)
		return child;
	child = ib_umem_odp_alloc_child(mr->odp, idx << RVT_ODP_CHILD_SHIFT,
					RVT_ODP_CHILD_SIZE, &rvt_odp_ops);
	if (IS_ERR(child))
		return child;
	mutex_lock(&child->umem_mutex);
	child->private = mr;
	mutex_unlock(&child->umem_mutex);
	old = xa_cmpxchg(&mr->odp_children, idx, NULL, child, GFP_KERNEL);
	if (!old)
		return child;
	/* another fault made it first, or the xarray had no room */
	ib_umem_odp_release(child);
	return xa_is_err(old) ? ERR_PTR(xa_err(old)) : old;
}

/*
 * Map @len bytes at @uva of @mr for @mask (fault: fault them in; else
 * only what the process has), child by child for an implicit MR.
 */
static int rvt_odp_map_range(struct rvt_mregion *mr, u64 uva, u64 len,
			     u64 mask, bool fault)
{
	struct ib_umem_odp *odp = mr->odp;
	u64 end = uva + len, n;
	int ret;

	if (!odp->is_implicit_odp) {
		ret = ib_umem_odp_map_dma_and_lock(odp, uva, len, mask, fault);
		if (ret < 0)
			return ret;
		mutex_unlock(&odp->umem_mutex);
		return 0;
	}
	if (end < uva)
		return -EFAULT;
	for (; uva < end; uva += n) {
		odp = rvt_odp_child(mr, uva);
		if (IS_ERR(odp))
			return PTR_ERR(odp) == -EINVAL ? -EFAULT : PTR_ERR(odp);
		n = min(end, ib_umem_end(odp)) - uva;
		ret = ib_umem_odp_map_dma_and_lock(odp, uva, n, mask, fault);
		if (ret < 0)
			return ret;
		mutex_unlock(&odp->umem_mutex);
	}
	return 0;
}

/**
 * rvt_odp_user_addr - the user address of an address of an ODP region
 * @mr: the region (@mr->odp set)
 * @addr: an address the region's key covers (its iova space)
 *
 * Return: the process's virtual address of @addr.
 */
u64 rvt_odp_user_addr(struct rvt_mregion *mr, u64 addr)
{
	return mr->odp->umem.address + (addr - mr->user_base);
}

/**
 * rvt_odp_map_sge - rvt_sge_map() of an on-demand paging MR
 * @sge: the SGE, its vaddr a user address of @sge->mr
 * @write: the access writes
 *
 * Context: any context but hard interrupts.  On success odp_lock is
 * held for reading until rvt_odp_unmap_sge().
 * Return: the kernel address, or NULL (the page is not mapped, or not
 * for writing, or an invalidation is under way; odp_lock is not held).
 */
void *rvt_odp_map_sge(struct rvt_sge *sge, bool write)
{
	struct rvt_mregion *mr = sge->mr;
	struct ib_umem_odp *odp = mr->odp;
	unsigned long uva = (unsigned long)sge->vaddr;
	u64 need = ODP_READ_ALLOWED_BIT;
	dma_addr_t entry;

	if (write)
		need |= ODP_WRITE_ALLOWED_BIT;
	if (odp->is_implicit_odp) {
		odp = xa_load(&mr->odp_children, uva >> RVT_ODP_CHILD_SHIFT);
		if (!odp)
			return NULL;
	}
	if (!read_trylock(&mr->odp_lock))
		return NULL;
	entry = READ_ONCE(odp->dma_list[(uva - ib_umem_start(odp)) >>
					odp->page_shift]);
	if ((entry & need) != need) {
		read_unlock(&mr->odp_lock);
		return NULL;
	}
	/* held until rvt_odp_unmap_sge() */
	__release(&mr->odp_lock);
	return ib_virt_dma_to_ptr(entry & ODP_DMA_ADDR_MASK) +
	       (uva & ((1UL << odp->page_shift) - 1));
}
EXPORT_SYMBOL(rvt_odp_map_sge);

/**
 * rvt_odp_unmap_sge - rvt_sge_unmap() of an on-demand paging MR
 * @sge: the SGE rvt_odp_map_sge() mapped
 *
 * Context: as rvt_odp_map_sge(); releases odp_lock.
 */
void rvt_odp_unmap_sge(struct rvt_sge *sge)
{
	__acquire(&sge->mr->odp_lock);
	read_unlock(&sge->mr->odp_lock);
}
EXPORT_SYMBOL(rvt_odp_unmap_sge);

/**
 * rvt_odp_fault - fault in a range of an on-demand paging MR
 * @mr: the region, referenced
 * @uva: user address of the first byte
 * @len: bytes
 * @write: the device will write them
 *
 * Makes the pages present in the process (writable for @write) and
 * maps them for the engine.  They stay until an invalidation; the
 * operation that missed runs again after this.
 *
 * Context: process context or a work item; sleeps.  No engine lock
 * held.
 * Return: 0; -EFAULT when a page cannot be faulted in (not mapped in the
 * process, or not writable for @write); -EBUSY when invalidations kept
 * coming; -EINVAL when the process is gone; -ENOMEM.
 */
int rvt_odp_fault(struct rvt_mregion *mr, u64 uva, u32 len, bool write)
{
	u64 mask = ODP_READ_ALLOWED_BIT;

	if (write) {
		if (!mr->odp->umem.writable)
			return -EFAULT;
		mask |= ODP_WRITE_ALLOWED_BIT;
	}
	return rvt_odp_map_range(mr, uva, len, mask, true);
}
EXPORT_SYMBOL(rvt_odp_fault);

/* Map the pages of a range the process has, as its page tables allow. */
static int rvt_odp_map_present(struct rvt_mregion *mr, u64 uva, u32 len)
{
	u64 mask = ODP_READ_ALLOWED_BIT;

	if (mr->odp->umem.writable)
		mask |= ODP_WRITE_ALLOWED_BIT;
	return rvt_odp_map_range(mr, uva, len, mask, false);
}

/**
 * rvt_advise_mr - ADVISE_MR: map ranges of on-demand paging MRs ahead
 * @pd: the PD the MRs must be of
 * @advice: IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH (fault in for reading),
 *	_PREFETCH_WRITE (for writing) or _PREFETCH_NO_FAULT (map only the
 *	pages the process has, with the rights its page tables give)
 * @flags: IB_UVERBS_ADVISE_MR_FLAG_FLUSH or 0: the work is done before
 *	this returns either way
 * @sg_list: the ranges: lkey, address and length
 * @num_sge: how many
 * @attrs: the ioctl's bundle, or NULL from the kernel (unused)
 *
 * Context: process context; sleeps (page faults).
 * Return: 0; -ENOENT for an lkey that names no valid on-demand paging MR
 * of @pd; -EINVAL for a range outside it; -EPERM for PREFETCH_WRITE on an
 * MR without local write; -EOPNOTSUPP for another advice; the fault's
 * errors (-EFAULT: a page the process does not have).
 */
static int rvt_advise_mr(struct ib_pd *pd,
			 enum ib_uverbs_advise_mr_advice advice, u32 flags,
			 struct ib_sge *sg_list, u32 num_sge,
			 struct uverbs_attr_bundle *attrs)
{
	struct rvt_dev_info *rdi = ib_to_rvt(pd->device);
	bool write = advice == IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE;
	struct rvt_mregion *mr;
	int ret = 0;
	u32 i;

	if (advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH &&
	    advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE &&
	    advice != IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT)
		return -EOPNOTSUPP;
	for (i = 0; i < num_sge && !ret; i++) {
		struct ib_sge *sge = &sg_list[i];
		u64 off, uva;

		mr = rvt_mr_get(&rdi->lkey_table, sge->lkey);
		if (!mr)
			return -ENOENT;
		off = sge->addr - mr->user_base;
		uva = mr->odp ? rvt_odp_user_addr(mr, sge->addr) : 0;
		if (READ_ONCE(mr->lkey) != sge->lkey ||
		    atomic_read(&mr->lkey_invalid) || mr->pd != pd ||
		    !mr->odp)
			ret = -ENOENT;
		else if (sge->addr < mr->user_base || off > mr->length ||
			 sge->length > mr->length - off)
			ret = -EINVAL;
		else if (write && !(mr->access_flags & IB_ACCESS_LOCAL_WRITE))
			ret = -EPERM;
		else if (!sge->length)
			ret = 0;
		else if (advice == IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT)
			ret = rvt_odp_map_present(mr, uva, sge->length);
		else
			ret = rvt_odp_fault(mr, uva, sge->length, write);
		rvt_put_mr(mr);
	}
	return ret;
}

static const struct ib_device_ops rvt_odp_ops_dev = {
	.advise_mr = rvt_advise_mr,
};

/**
 * rvt_odp_props - offer on-demand paging MRs where the engine can serve
 *	them
 * @rdi: the device being registered
 *
 * The engine's in-memory delivery faults in what a request missed (the
 * QP's send work).  A wire driver's data path does so only when it says
 * it does (dparms.wire_odp, its own odp_caps); the others do not offer
 * them.  Implicit ODP (an MR of the whole address space) is offered too.
 *
 * Context: process context, before the device registers.
 */
void rvt_odp_props(struct rvt_dev_info *rdi)
{
	struct ib_device_attr *p = &rdi->dparms.props;

	if (rdi->driver_f.xmit_wqe) {
		if (!rdi->dparms.wire_odp)
			return;
		p->kernel_cap_flags |= IBK_ON_DEMAND_PAGING;
		p->odp_caps.general_caps = IB_ODP_SUPPORT |
					   IB_ODP_SUPPORT_IMPLICIT;
		ib_set_device_ops(&rdi->ibdev, &rvt_odp_ops_dev);
		return;
	}
	p->kernel_cap_flags |= IBK_ON_DEMAND_PAGING;
	p->odp_caps.general_caps = IB_ODP_SUPPORT | IB_ODP_SUPPORT_IMPLICIT;
	p->odp_caps.per_transport_caps.rc_odp_caps =
		IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_RECV |
		IB_ODP_SUPPORT_WRITE | IB_ODP_SUPPORT_READ |
		IB_ODP_SUPPORT_ATOMIC | IB_ODP_SUPPORT_SRQ_RECV;
	p->odp_caps.per_transport_caps.uc_odp_caps =
		IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_RECV |
		IB_ODP_SUPPORT_WRITE | IB_ODP_SUPPORT_SRQ_RECV;
	p->odp_caps.per_transport_caps.ud_odp_caps =
		IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_RECV |
		IB_ODP_SUPPORT_SRQ_RECV;
	ib_set_device_ops(&rdi->ibdev, &rvt_odp_ops_dev);
}
