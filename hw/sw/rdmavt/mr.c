// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt memory regions: the key table, DMA and fast registration MRs,
 * and the key and access checks that turn an ib_sge (or an rkey, address
 * and length) into a struct rvt_sge of the engine.
 *
 * A key is (index << 8) | key byte.  The index finds the region in the
 * device's key table; the whole key must match the key of the region's
 * current registration (rvt_mregion.lkey).  Lookups take a reference;
 * deregistration removes the region from the table and waits for the
 * users to drop theirs.
 */

#include <linux/log2.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_umem_odp.h>
#include <rdma/rdma_vt.h>

#include "vt.h"

static struct rvt_mr *to_rvt_mr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct rvt_mr, ibmr);
}

static void rvt_free_map(struct rvt_mregion *mr)
{
	u32 i;

	for (i = 0; i < mr->mapsz; i++)
		kfree(mr->map[i]);
}

/* An MR with a key (not valid yet) and room for @max_segs segments. */
static struct rvt_mr *rvt_alloc_mr_common(struct rvt_dev_info *rdi,
					  struct ib_pd *pd, u32 max_segs)
{
	u32 mapsz = DIV_ROUND_UP(max_segs, RVT_SEGSZ);
	struct rvt_mr *mr;
	u32 index;
	int ret;

	mr = kzalloc(struct_size(mr, mr.map, mapsz), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	for (; mr->mr.mapsz < mapsz; mr->mr.mapsz++) {
		mr->mr.map[mr->mr.mapsz] =
			kzalloc(sizeof(*mr->mr.map[0]), GFP_KERNEL);
		if (!mr->mr.map[mr->mr.mapsz]) {
			ret = -ENOMEM;
			goto err_free;
		}
	}
	mr->mr.max_segs = max_segs;
	mr->mr.pd = pd;
	refcount_set(&mr->mr.refcount, 1);
	init_completion(&mr->mr.comp);
	atomic_set(&mr->mr.lkey_invalid, 1);

	ret = xa_alloc_cyclic_irq(&rdi->lkey_table.table, &index, &mr->mr,
				  XA_LIMIT(1, RVT_MAX_LKEY_INDEX),
				  &rdi->lkey_table.next, GFP_KERNEL);
	if (ret < 0)
		goto err_free;
	mr->mr.lkey = index << 8;
	mr->ibmr.lkey = mr->mr.lkey;
	mr->ibmr.rkey = mr->mr.lkey;
	return mr;

err_free:
	rvt_free_map(&mr->mr);
	kfree(mr);
	return ERR_PTR(ret);
}

struct ib_mr *rvt_get_dma_mr(struct ib_pd *pd, int acc)
{
	struct rvt_mr *mr;

	mr = rvt_alloc_mr_common(ib_to_rvt(pd->device), pd, 0);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mr->mr.access_flags = acc;
	mr->mr.length = SIZE_MAX;
	atomic_set(&mr->mr.lkey_invalid, 0);
	return &mr->ibmr;
}

/* @mr, out of the key table, goes once the engine let go of it. */
static void rvt_mr_free(struct rvt_mr *mr)
{
	rvt_put_mr(&mr->mr);
	/* a reference the engine never dropped would hang us: say so */
	while (!wait_for_completion_timeout(&mr->mr.comp, 10 * HZ))
		WARN_ONCE(1, "rdmavt: MR %#x is still referenced\n",
			  mr->mr.lkey);
	rvt_free_map(&mr->mr);
	if (mr->mr.odp)
		rvt_odp_put_children(&mr->mr);
	ib_umem_release(mr->umem);
	kfree(mr);
}

/*
 * An on-demand paging MR of [@start, @start + @length): no map, no page
 * pinned; the engine finds the pages in the umem (odp.c).
 */
static struct rvt_mr *rvt_odp_mr(struct ib_pd *pd, u64 start, u64 length,
				 u64 virt_addr, int mr_access_flags)
{
	struct rvt_dev_info *rdi = ib_to_rvt(pd->device);
	struct rvt_mr *mr;
	int ret;

	if (!(rdi->dparms.props.kernel_cap_flags & IBK_ON_DEMAND_PAGING))
		return ERR_PTR(-EOPNOTSUPP);
	mr = rvt_alloc_mr_common(rdi, pd, 0);
	if (IS_ERR(mr))
		return mr;
	ret = rvt_odp_get(&mr->mr, start, length, virt_addr, mr_access_flags);
	if (ret) {
		xa_erase_irq(&rdi->lkey_table.table, mr->mr.lkey >> 8);
		rvt_mr_free(mr);
		return ERR_PTR(ret);
	}
	mr->umem = &mr->mr.odp->umem;
	mr->mr.user_base = virt_addr;
	mr->mr.iova = virt_addr;
	mr->mr.length = length;
	mr->mr.access_flags = mr_access_flags;
	mr->ibmr.iova = virt_addr;
	mr->ibmr.length = length;
	mr->ibmr.page_size = 1U << mr->mr.page_shift;
	return mr;
}

/*
 * A user MR: the pages of [@start, @start + @length) pinned (umem), one
 * segment per page at its kernel address.  The engine reaches them
 * through the key checks as any other MR's; the pages stay pinned until
 * rvt_dereg_mr() has waited for the engine's last reference.
 */
static struct rvt_mr *rvt_user_mr(struct ib_pd *pd, u64 start, u64 length,
				  u64 virt_addr, int mr_access_flags)
{
	struct rvt_dev_info *rdi = ib_to_rvt(pd->device);
	struct sg_page_iter iter;
	struct ib_umem *umem;
	struct rvt_mr *mr;
	u32 i = 0;

	if (!length || length > rdi->dparms.props.max_mr_size)
		return ERR_PTR(-EINVAL);
	if (mr_access_flags & IB_ACCESS_ON_DEMAND)
		return rvt_odp_mr(pd, start, length, virt_addr,
				  mr_access_flags);
	umem = ib_umem_get(pd->device, start, length, mr_access_flags);
	if (IS_ERR(umem))
		return ERR_CAST(umem);
	mr = rvt_alloc_mr_common(rdi, pd, ib_umem_num_pages(umem));
	if (IS_ERR(mr)) {
		ib_umem_release(umem);
		return ERR_CAST(mr);
	}
	mr->umem = umem;
	for_each_sgtable_page(&umem->sgt_append.sgt, &iter, 0) {
		struct rvt_seg *seg = &mr->mr.map[i / RVT_SEGSZ]->segs[i % RVT_SEGSZ];

		seg->vaddr = page_address(sg_page_iter_page(&iter));
		seg->length = PAGE_SIZE;
		i++;
	}
	mr->mr.user_base = virt_addr;
	mr->mr.iova = virt_addr;
	mr->mr.length = length;
	mr->mr.offset = ib_umem_offset(umem);
	mr->mr.page_shift = PAGE_SHIFT;
	mr->mr.access_flags = mr_access_flags;
	mr->ibmr.iova = virt_addr;
	mr->ibmr.length = length;
	mr->ibmr.page_size = PAGE_SIZE;
	return mr;
}

struct ib_mr *rvt_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			      u64 virt_addr, int mr_access_flags,
			      struct ib_udata *udata)
{
	struct rvt_dev_info *rdi = ib_to_rvt(pd->device);
	struct rvt_mr *mr;
	int ret;

	mr = rvt_user_mr(pd, start, length, virt_addr, mr_access_flags);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	/* the driver's answer, and maybe its key byte, before any lookup */
	if (udata && rdi->driver_f.create_user_mr) {
		ret = rdi->driver_f.create_user_mr(mr, udata);
		if (ret) {
			xa_erase_irq(&rdi->lkey_table.table, mr->mr.lkey >> 8);
			rvt_mr_free(mr);
			return ERR_PTR(ret);
		}
	}
	atomic_set(&mr->mr.lkey_invalid, 0);
	return &mr->ibmr;
}

/*
 * A new range makes a new MR (new keys; the old one goes when the core
 * has moved the handle); a new PD or new rights change the MR in place.
 */
struct ib_mr *rvt_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				u64 length, u64 virt_addr, int access,
				struct ib_pd *pd, struct ib_udata *udata)
{
	struct rvt_mregion *mr = &to_rvt_mr(ibmr)->mr;
	struct rvt_mr *nmr;

	if (!to_rvt_mr(ibmr)->umem)
		return ERR_PTR(-EINVAL);
	/* paging on demand or not, and its write rights, are the umem's */
	if (!(flags & IB_MR_REREG_TRANS) && (flags & IB_MR_REREG_ACCESS) &&
	    (mr->odp || (access & IB_ACCESS_ON_DEMAND))) {
		struct ib_umem *umem = to_rvt_mr(ibmr)->umem;

		flags |= IB_MR_REREG_TRANS;
		start = umem->address;
		length = mr->length;
		virt_addr = mr->iova;
	}
	if (flags & IB_MR_REREG_TRANS) {
		nmr = rvt_user_mr(pd, start, length, virt_addr,
				  (flags & IB_MR_REREG_ACCESS) ?
				  access : mr->access_flags);
		if (IS_ERR(nmr))
			return ERR_CAST(nmr);
		atomic_set(&nmr->mr.lkey_invalid, 0);
		return &nmr->ibmr;
	}
	if (flags & IB_MR_REREG_PD)
		WRITE_ONCE(mr->pd, pd);
	if (flags & IB_MR_REREG_ACCESS)
		WRITE_ONCE(mr->access_flags, access);
	return NULL;
}

struct ib_mr *rvt_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			   u32 max_num_sg)
{
	struct rvt_dev_info *rdi = ib_to_rvt(pd->device);
	struct rvt_mr *mr;

	if (mr_type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EINVAL);
	if (!max_num_sg ||
	    max_num_sg > rdi->dparms.props.max_fast_reg_page_list_len)
		return ERR_PTR(-EINVAL);

	mr = rvt_alloc_mr_common(rdi, pd, max_num_sg);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	return &mr->ibmr;
}

/* ib_sg_to_pages() callback: one segment per page; mr.length counts. */
static int rvt_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct rvt_mregion *mr = &to_rvt_mr(ibmr)->mr;
	u32 i = mr->length >> mr->page_shift;
	struct rvt_seg *seg;

	if (i == mr->max_segs)
		return -ENOMEM;
	seg = &mr->map[i / RVT_SEGSZ]->segs[i % RVT_SEGSZ];
	seg->vaddr = (void *)(uintptr_t)addr;
	seg->length = ibmr->page_size;
	mr->length += ibmr->page_size;
	return 0;
}

int rvt_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct rvt_mregion *mr = &to_rvt_mr(ibmr)->mr;
	int n;

	mr->length = 0;
	mr->page_shift = ilog2(ibmr->page_size);
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, rvt_set_page);
	mr->user_base = ibmr->iova;
	mr->iova = ibmr->iova;
	mr->offset = ibmr->iova & (ibmr->page_size - 1);
	mr->length = ibmr->length;
	return n;
}

int rvt_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibmr->device);
	struct rvt_mr *mr = to_rvt_mr(ibmr);

	/* memory windows bound to it keep it, as upstream rxe's */
	xa_lock_irq(&rdi->lkey_table.table);
	if (atomic_read(&mr->mr.num_mw)) {
		xa_unlock_irq(&rdi->lkey_table.table);
		return -EBUSY;
	}
	__xa_erase(&rdi->lkey_table.table, mr->mr.lkey >> 8);
	xa_unlock_irq(&rdi->lkey_table.table);
	rvt_mr_free(mr);
	return 0;
}

/* The region with the index of @key, referenced; the key is not checked. */
struct rvt_mregion *rvt_mr_get(struct rvt_lkey_table *rkt, u32 key)
{
	struct rvt_mregion *mr;
	unsigned long flags;

	xa_lock_irqsave(&rkt->table, flags);
	mr = xa_load(&rkt->table, key >> 8);
	/* a memory window's key is not an MR's */
	if (mr && (rvt_is_mw_entry(mr) ||
		   !refcount_inc_not_zero(&mr->refcount)))
		mr = NULL;
	xa_unlock_irqrestore(&rkt->table, flags);
	return mr;
}

/**
 * rvt_fast_reg_mr - execute a fast registration (IB_WR_REG_MR)
 * @qp: the QP the request came on; the MR must be of its PD
 * @ibmr: the MR, mapped with ib_map_mr_sg()
 * @key: the new lkey and rkey; only its low 8 bits may differ from the
 *	MR's current key
 * @access: IB access flags of the registration
 *
 * The MR becomes valid under @key.  Called from the send engine.
 *
 * Context: Any context; takes no lock (the send engine runs one request
 * of a QP at a time).
 *
 * Return: 0, -EACCES for an MR of another PD, -EINVAL for a DMA MR or a
 * key of another MR.
 */
int rvt_fast_reg_mr(struct rvt_qp *qp, struct ib_mr *ibmr, u32 key,
		    int access)
{
	struct rvt_mregion *mr = &to_rvt_mr(ibmr)->mr;

	if (mr->pd != qp->ibqp.pd)
		return -EACCES;
	if (!mr->mapsz || (key >> 8) != (mr->lkey >> 8))
		return -EINVAL;
	ibmr->lkey = key;
	ibmr->rkey = key;
	mr->access_flags = access;
	WRITE_ONCE(mr->lkey, key);
	atomic_set(&mr->lkey_invalid, 0);
	return 0;
}
EXPORT_SYMBOL(rvt_fast_reg_mr);

/**
 * rvt_invalidate_rkey - invalidate a fast registration MR by key
 * @qp: the QP asking (IB_WR_LOCAL_INV on its send queue, or the
 *	responder of IB_WR_SEND_WITH_INV); the MR must be of its PD
 * @rkey: the key of the current registration
 *
 * Context: Any context; takes the key table's xa_lock (IRQ safe) to
 * reference the MR, may be called under the QP's r_lock.
 *
 * Return: 0, or -EINVAL when no fast registration of @qp's PD is
 * registered under @rkey.  A type 2 memory window's rkey invalidates the
 * window (rvt_invalidate_mw()).
 */
int rvt_invalidate_rkey(struct rvt_qp *qp, u32 rkey)
{
	struct rvt_dev_info *rdi = ib_to_rvt(qp->ibqp.device);
	struct rvt_mregion *mr;
	int ret = -EINVAL;

	if (!rkey)
		return ret;
	mr = rvt_mr_get(&rdi->lkey_table, rkey);
	if (!mr)
		return rvt_invalidate_mw(qp, rkey);
	if (READ_ONCE(mr->lkey) == rkey && mr->pd == qp->ibqp.pd &&
	    mr->mapsz && !atomic_xchg(&mr->lkey_invalid, 1))
		ret = 0;
	rvt_put_mr(mr);
	return ret;
}
EXPORT_SYMBOL(rvt_invalidate_rkey);
