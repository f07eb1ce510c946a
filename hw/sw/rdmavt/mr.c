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
				  XA_LIMIT(1, (1U << 24) - 1),
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

struct ib_mr *rvt_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			      u64 virt_addr, int mr_access_flags,
			      struct ib_udata *udata)
{
	/* user memory comes with ib_uverbs and umem */
	return ERR_PTR(-EOPNOTSUPP);
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

	xa_erase_irq(&rdi->lkey_table.table, mr->mr.lkey >> 8);
	rvt_put_mr(&mr->mr);
	/* a reference the engine never dropped would hang us: say so */
	while (!wait_for_completion_timeout(&mr->mr.comp, 10 * HZ))
		WARN_ONCE(1, "rdmavt: MR %#x is still referenced\n",
			  mr->mr.lkey);
	rvt_free_map(&mr->mr);
	kfree(mr);
	return 0;
}

/* The region with the index of @key, referenced; the key is not checked. */
struct rvt_mregion *rvt_mr_get(struct rvt_lkey_table *rkt, u32 key)
{
	struct rvt_mregion *mr;
	unsigned long flags;

	xa_lock_irqsave(&rkt->table, flags);
	mr = xa_load(&rkt->table, key >> 8);
	if (mr && !refcount_inc_not_zero(&mr->refcount))
		mr = NULL;
	xa_unlock_irqrestore(&rkt->table, flags);
	return mr;
}

/*
 * Look @key up for @len bytes at @addr with access @acc from @pd:
 * the region, referenced, or NULL.
 */
static struct rvt_mregion *rvt_key_check(struct rvt_lkey_table *rkt,
					 struct ib_pd *pd, u32 key, u64 addr,
					 u32 len, int acc)
{
	struct rvt_mregion *mr;

	if (!key)
		return NULL;
	mr = rvt_mr_get(rkt, key);
	if (!mr)
		return NULL;
	if (READ_ONCE(mr->lkey) != key || atomic_read(&mr->lkey_invalid) ||
	    mr->pd != pd || (mr->access_flags & acc) != acc)
		goto bad;
	/* a DMA region covers all kernel memory */
	if (mr->mapsz &&
	    (addr < mr->user_base || addr - mr->user_base > mr->length ||
	     len > mr->length - (addr - mr->user_base)))
		goto bad;
	return mr;
bad:
	rvt_put_mr(mr);
	return NULL;
}

/* Set @isge to @len bytes at @addr of @mr, which holds them. */
static void rvt_sge_init(struct rvt_sge *isge, struct rvt_mregion *mr,
			 u64 addr, u32 len)
{
	struct rvt_seg *seg;
	size_t off;
	u32 m = 0, n = 0;

	isge->mr = mr;
	isge->sge_length = len;
	isge->m = 0;
	isge->n = 0;
	if (!mr->mapsz || !len) {
		isge->vaddr = mr->mapsz ? NULL : (void *)(uintptr_t)addr;
		isge->length = len;
		return;
	}

	off = addr - mr->user_base + mr->offset;
	if (mr->page_shift) {
		size_t i = off >> mr->page_shift;

		off -= i << mr->page_shift;
		m = i / RVT_SEGSZ;
		n = i % RVT_SEGSZ;
	} else {
		while (off >= mr->map[m]->segs[n].length) {
			off -= mr->map[m]->segs[n].length;
			if (++n == RVT_SEGSZ) {
				m++;
				n = 0;
			}
		}
	}
	seg = &mr->map[m]->segs[n];
	isge->vaddr = seg->vaddr + off;
	isge->length = min_t(size_t, seg->length - off, len);
	isge->m = m;
	isge->n = n;
}

/**
 * rvt_lkey_ok - check a local SGE and make the engine's SGE of it
 * @rkt: the key table of the device
 * @pd: the PD of the QP using the SGE
 * @isge: where the new SGE goes
 * @last_sge: the SGE made before for the same list, or NULL
 * @sge: the SGE to check; a zero length one is the caller's to skip
 * @acc: access the operation needs (IB_ACCESS_LOCAL_WRITE or 0)
 *
 * The key must name a valid registration of @pd that allows @acc and
 * holds the whole range.  When @sge continues @last_sge in the same DMA
 * region, @last_sge grows instead and no new SGE is made.  A new SGE
 * references its region.
 *
 * Return: 1 when @isge was set, 0 when @last_sge took @sge, -EINVAL when
 * the check failed.
 */
int rvt_lkey_ok(struct rvt_lkey_table *rkt, struct rvt_pd *pd,
		struct rvt_sge *isge, struct rvt_sge *last_sge,
		struct ib_sge *sge, int acc)
{
	struct rvt_mregion *mr;

	mr = rvt_key_check(rkt, &pd->ibpd, sge->lkey, sge->addr, sge->length,
			   acc);
	if (!mr)
		return -EINVAL;
	if (last_sge && last_sge->mr == mr && !mr->mapsz &&
	    last_sge->vaddr + last_sge->sge_length ==
	    (void *)(uintptr_t)sge->addr &&
	    last_sge->sge_length <= U32_MAX - sge->length) {
		last_sge->sge_length += sge->length;
		last_sge->length += sge->length;
		rvt_put_mr(mr);
		return 0;
	}
	rvt_sge_init(isge, mr, sge->addr, sge->length);
	return 1;
}
EXPORT_SYMBOL(rvt_lkey_ok);

/**
 * rvt_rkey_ok - check a remote access and make the engine's SGE of it
 * @qp: the responder QP; the key must be of its PD and device
 * @sge: where the SGE goes
 * @len: bytes
 * @vaddr: first address
 * @rkey: the remote key
 * @acc: IB_ACCESS_REMOTE_READ, _WRITE or _ATOMIC
 *
 * The SGE references its region (rvt_put_mr()) when this succeeds.
 *
 * Return: 1 when the access is allowed, else 0.
 */
int rvt_rkey_ok(struct rvt_qp *qp, struct rvt_sge *sge, u32 len, u64 vaddr,
		u32 rkey, int acc)
{
	struct rvt_dev_info *rdi = ib_to_rvt(qp->ibqp.device);
	struct rvt_mregion *mr;

	mr = rvt_key_check(&rdi->lkey_table, qp->ibqp.pd, rkey, vaddr, len,
			   acc);
	if (!mr)
		return 0;
	rvt_sge_init(sge, mr, vaddr, len);
	return 1;
}
EXPORT_SYMBOL(rvt_rkey_ok);

/**
 * rvt_skip_sge - move a walk forward without copying
 * @ss: the walk
 * @length: bytes to skip; the walk must hold them
 * @release: drop the reference of each SGE this finishes
 */
void rvt_skip_sge(struct rvt_sge_state *ss, u32 length, bool release)
{
	while (length) {
		u32 len = rvt_ss_piece(ss, length);

		if (!len)
			return;
		rvt_update_sge(ss, len, release);
		length -= len;
	}
}
EXPORT_SYMBOL(rvt_skip_sge);

/**
 * rvt_copy_sge - copy data into the memory of a walk
 * @qp: the QP the walk belongs to
 * @ss: the walk; it moves past the bytes written
 * @data: the data
 * @length: its bytes; the walk must hold them
 * @release: drop the reference of each SGE this finishes
 * @copy_last: write the last 8 bytes by themselves, after the rest (a
 *	consumer polling the end of the buffer then sees all of it)
 */
void rvt_copy_sge(struct rvt_qp *qp, struct rvt_sge_state *ss, void *data,
		  u32 length, bool release, bool copy_last)
{
	if (copy_last && length > sizeof(u64)) {
		rvt_copy_sge(qp, ss, data, length - sizeof(u64), release,
			     false);
		data += length - sizeof(u64);
		length = sizeof(u64);
	}
	while (length) {
		u32 len = rvt_ss_piece(ss, length);

		if (!len)
			return;
		memcpy(ss->sge.vaddr, data, len);
		rvt_update_sge(ss, len, release);
		data += len;
		length -= len;
	}
}
EXPORT_SYMBOL(rvt_copy_sge);

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
 * Return: 0, or -EINVAL when no fast registration of @qp's PD is
 * registered under @rkey.
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
		return ret;
	if (READ_ONCE(mr->lkey) == rkey && mr->pd == qp->ibqp.pd &&
	    mr->mapsz && !atomic_xchg(&mr->lkey_invalid, 1))
		ret = 0;
	rvt_put_mr(mr);
	return ret;
}
EXPORT_SYMBOL(rvt_invalidate_rkey);
