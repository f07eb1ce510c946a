// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt memory regions: the key table, DMA and fast registration MRs,
 * and the key and access checks of the work request engine.
 *
 * A key is (index << 8) | key byte.  The index finds the MR in the
 * device's key table; the whole key must match the key of the MR's
 * current registration, rvt_mr.key (fast registration changes the key
 * byte; ibmr.lkey/rkey may already name the next registration).  Lookups take a reference;
 * deregistration removes the MR from the table and waits for the users.
 */

#include <linux/slab.h>
#include <rdma/rdma_vt.h>

#include "vt.h"

static struct rvt_mr *rvt_alloc_mr_common(struct rvt_dev_info *rdi,
					  struct ib_pd *pd, u32 max_pages)
{
	struct rvt_mr *mr;
	u32 index;
	int ret;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	if (max_pages) {
		mr->pages = kcalloc(max_pages, sizeof(u64), GFP_KERNEL);
		if (!mr->pages) {
			ret = -ENOMEM;
			goto err_free;
		}
		mr->max_pages = max_pages;
	}
	refcount_set(&mr->refcount, 1);
	init_completion(&mr->released);
	mr->ibmr.pd = pd;

	ret = xa_alloc_cyclic(&rdi->key_table, &index, mr,
			      XA_LIMIT(1, (1U << 24) - 1), &rdi->next_key,
			      GFP_KERNEL);
	if (ret < 0)
		goto err_free;
	mr->ibmr.lkey = index << 8;
	mr->ibmr.rkey = mr->ibmr.lkey;
	WRITE_ONCE(mr->key, mr->ibmr.lkey);
	return mr;

err_free:
	kfree(mr->pages);
	kfree(mr);
	return ERR_PTR(ret);
}

struct ib_mr *rvt_get_dma_mr(struct ib_pd *pd, int acc)
{
	struct rvt_mr *mr;

	mr = rvt_alloc_mr_common(ib_to_rvt(pd->device), pd, 0);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mr->dma = true;
	mr->valid = true;
	mr->access = acc;
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

static int rvt_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct rvt_mr *mr = container_of(ibmr, struct rvt_mr, ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->pages[mr->npages++] = addr;
	return 0;
}

int rvt_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct rvt_mr *mr = container_of(ibmr, struct rvt_mr, ibmr);

	mr->npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, rvt_set_page);
}

int rvt_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibmr->device);
	struct rvt_mr *mr = container_of(ibmr, struct rvt_mr, ibmr);

	xa_erase(&rdi->key_table, ibmr->lkey >> 8);
	rvt_put_mr(mr);
	wait_for_completion(&mr->released);
	kfree(mr->pages);
	kfree(mr);
	return 0;
}

/**
 * rvt_put_mr - drop a reference taken by a key lookup
 * @mr: the MR
 */
void rvt_put_mr(struct rvt_mr *mr)
{
	if (refcount_dec_and_test(&mr->refcount))
		complete(&mr->released);
}
EXPORT_SYMBOL(rvt_put_mr);

/* The MR with this index, referenced; its key is not checked. */
struct rvt_mr *rvt_mr_get(struct rvt_dev_info *rdi, u32 key)
{
	struct rvt_mr *mr;

	xa_lock_irq(&rdi->key_table);
	mr = xa_load(&rdi->key_table, key >> 8);
	if (mr && !refcount_inc_not_zero(&mr->refcount))
		mr = NULL;
	xa_unlock_irq(&rdi->key_table);
	return mr;
}

static int rvt_key_ok(struct rvt_dev_info *rdi, struct ib_pd *pd, u32 key,
		      bool remote, u64 addr, u32 len, int access,
		      struct rvt_mr **mrp)
{
	struct rvt_mr *mr;

	*mrp = NULL;
	mr = rvt_mr_get(rdi, key);
	if (!mr)
		return -EINVAL;
	if (READ_ONCE(mr->key) != key ||
	    mr->ibmr.pd != pd || !mr->valid ||
	    (mr->access & access) != access)
		goto bad;
	if (!mr->dma &&
	    (addr < mr->ibmr.iova || addr + len < addr ||
	     addr + len > mr->ibmr.iova + mr->ibmr.length))
		goto bad;
	*mrp = mr;
	return 0;
bad:
	rvt_put_mr(mr);
	return -EINVAL;
}

/**
 * rvt_lkey_ok - check a local SGE and find its MR
 * @rdi: the device
 * @pd: the PD of the QP using the SGE
 * @sge: the SGE
 * @access: access the operation needs (IB_ACCESS_LOCAL_WRITE or 0)
 * @mrp: the MR, referenced (rvt_put_mr()); NULL for an empty SGE
 *
 * Return: 0 or -EINVAL.
 */
int rvt_lkey_ok(struct rvt_dev_info *rdi, struct ib_pd *pd,
		const struct ib_sge *sge, int access, struct rvt_mr **mrp)
{
	if (!sge->length) {
		*mrp = NULL;
		return 0;
	}
	return rvt_key_ok(rdi, pd, sge->lkey, false, sge->addr, sge->length,
			  access, mrp);
}
EXPORT_SYMBOL(rvt_lkey_ok);

/**
 * rvt_rkey_ok - check a remote access and find its MR
 * @rdi: the device the MR belongs to
 * @pd: the PD of the responder QP
 * @vaddr: first address
 * @rkey: the remote key
 * @len: bytes
 * @access: IB_ACCESS_REMOTE_READ, _WRITE or _ATOMIC
 * @mrp: the MR, referenced (rvt_put_mr())
 *
 * Return: 0 or -EINVAL.
 */
int rvt_rkey_ok(struct rvt_dev_info *rdi, struct ib_pd *pd, u64 vaddr,
		u32 rkey, u32 len, int access, struct rvt_mr **mrp)
{
	return rvt_key_ok(rdi, pd, rkey, true, vaddr, len, access, mrp);
}
EXPORT_SYMBOL(rvt_rkey_ok);

/**
 * rvt_mr_va - the kernel address behind an address of an MR
 * @mr: the MR
 * @iova: an address inside it
 * @contig: bytes that follow contiguously
 *
 * Return: the kernel virtual address.
 */
void *rvt_mr_va(struct rvt_mr *mr, u64 iova, u32 *contig)
{
	u64 page_size, base, off;
	u32 idx;

	if (mr->dma) {
		*contig = U32_MAX;
		return (void *)(uintptr_t)iova;
	}
	page_size = mr->ibmr.page_size;
	base = mr->ibmr.iova & ~(page_size - 1);
	off = iova - base;
	idx = div64_u64(off, page_size);
	off -= (u64)idx * page_size;
	*contig = page_size - off;
	return (void *)(uintptr_t)(mr->pages[idx] + off);
}
EXPORT_SYMBOL(rvt_mr_va);

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
 * Return: 0, or -EINVAL for an MR of another PD, a DMA MR or a key of
 * another MR.
 */
int rvt_fast_reg_mr(struct rvt_qp *qp, struct ib_mr *ibmr, u32 key,
		    int access)
{
	struct rvt_mr *mr = container_of(ibmr, struct rvt_mr, ibmr);

	if (ibmr->pd != qp->ibqp.pd || mr->dma ||
	    (key >> 8) != (mr->key >> 8))
		return -EINVAL;
	WRITE_ONCE(mr->key, key);
	ibmr->lkey = key;
	ibmr->rkey = key;
	mr->access = access;
	mr->valid = true;
	return 0;
}
EXPORT_SYMBOL(rvt_fast_reg_mr);

/**
 * rvt_invalidate_rkey - invalidate a fast registration MR by key
 * @qp: the QP asking (IB_WR_LOCAL_INV on its send queue, or the
 *	responder of IB_WR_SEND_WITH_INV); the MR must be of its PD
 * @rkey: the key of the current registration
 *
 * Return: 0, or -EINVAL when no valid fast registration of @qp's PD is
 * registered under @rkey.
 */
int rvt_invalidate_rkey(struct rvt_qp *qp, u32 rkey)
{
	struct rvt_mr *mr;
	int ret = -EINVAL;

	mr = rvt_mr_get(qp->rdi, rkey);
	if (!mr)
		return ret;
	if (READ_ONCE(mr->key) == rkey && mr->ibmr.pd == qp->ibqp.pd &&
	    !mr->dma && mr->valid) {
		mr->valid = false;
		ret = 0;
	}
	rvt_put_mr(mr);
	return ret;
}
EXPORT_SYMBOL(rvt_invalidate_rkey);
