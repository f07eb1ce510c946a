// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory regions: allocation for fast registration, mapping of
 * scatterlists into page lists, deregistration; and the virtual DMA
 * mapping of software devices.
 */

#include <linux/export.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>

#include "../restrack.h"
#include "verbs_priv.h"

/* What the core fills in of an MR a driver returned. */
static void ib_mr_init(struct ib_mr *mr, struct ib_pd *pd,
		       enum ib_mr_type mr_type)
{
	mr->device = pd->device;
	mr->pd = pd;
	mr->dm = NULL;
	mr->uobject = NULL;
	mr->type = mr_type;
	mr->sig_attrs = NULL;
	mr->need_inval = false;
	atomic_inc(&pd->usecnt);

	rdma_restrack_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_parent_name(&mr->res, &pd->res);
	rdma_restrack_add(&mr->res);
}

/**
 * ib_alloc_mr - allocate an MR for fast registration
 * @pd: its PD
 * @mr_type: IB_MR_TYPE_MEM_REG, or IB_MR_TYPE_SG_GAPS on devices with
 *	IBK_SG_GAPS_REG
 * @max_num_sg: the most scatterlist entries one mapping may have
 *
 * The MR maps nothing until ib_map_mr_sg() and an IB_WR_REG_MR work
 * request.
 *
 * Context: Process context; sleeps (the driver's alloc_mr op, restrack
 * insertion with GFP_KERNEL).
 *
 * Return: the MR or an ERR_PTR().
 */
struct ib_mr *ib_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			  u32 max_num_sg)
{
	struct ib_mr *mr;

	if (!pd->device->ops.alloc_mr)
		return ERR_PTR(-EOPNOTSUPP);
	if (mr_type == IB_MR_TYPE_INTEGRITY)
		return ERR_PTR(-EINVAL);
	if (mr_type == IB_MR_TYPE_SG_GAPS &&
	    !(pd->device->attrs.kernel_cap_flags & IBK_SG_GAPS_REG))
		return ERR_PTR(-EINVAL);

	mr = pd->device->ops.alloc_mr(pd, mr_type, max_num_sg);
	if (IS_ERR(mr))
		return mr;

	ib_mr_init(mr, pd, mr_type);
	return mr;
}
EXPORT_SYMBOL(ib_alloc_mr);

/**
 * ib_alloc_mr_integrity - allocate an MR for data integrity offload
 * @pd: its PD
 * @max_num_data_sg: scatterlist entries of the data
 * @max_num_meta_sg: scatterlist entries of the protection information
 *
 * The MR comes with zeroed signature attributes (mr->sig_attrs) that its
 * user fills before each registration; ib_dereg_mr() frees them.
 *
 * Context: Process context; sleeps (GFP_KERNEL allocation, the driver's
 * alloc_mr_integrity op, restrack insertion).
 *
 * Return: the MR, ERR_PTR(-EOPNOTSUPP) when the device has no integrity
 * offload (no alloc_mr_integrity or map_mr_sg_pi, or no
 * IBK_INTEGRITY_HANDOVER), or another ERR_PTR().
 */
struct ib_mr *ib_alloc_mr_integrity(struct ib_pd *pd, u32 max_num_data_sg,
				    u32 max_num_meta_sg)
{
	struct ib_sig_attrs *sig_attrs;
	struct ib_mr *mr;

	if (!pd->device->ops.alloc_mr_integrity ||
	    !pd->device->ops.map_mr_sg_pi ||
	    !(pd->device->attrs.kernel_cap_flags & IBK_INTEGRITY_HANDOVER))
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_meta_sg)
		return ERR_PTR(-EINVAL);

	/* where rdma_rw and ULPs put the attributes of each registration */
	sig_attrs = kzalloc(sizeof(*sig_attrs), GFP_KERNEL);
	if (!sig_attrs)
		return ERR_PTR(-ENOMEM);

	mr = pd->device->ops.alloc_mr_integrity(pd, max_num_data_sg,
						max_num_meta_sg);
	if (IS_ERR(mr))
		goto err_free_attrs;

	ib_mr_init(mr, pd, IB_MR_TYPE_INTEGRITY);
	mr->sig_attrs = sig_attrs;
	return mr;

err_free_attrs:
	kfree(sig_attrs);
	return mr;
}
EXPORT_SYMBOL(ib_alloc_mr_integrity);

/**
 * ib_reg_user_mr - register a range of a user address space
 * @pd: its PD
 * @start: first user address
 * @length: bytes
 * @virt_addr: the I/O virtual address the range gets
 * @mr_access_flags: enum ib_access_flags
 *
 * For kernel users that register memory of the current process.
 *
 * Context: Process context of the task owning the memory; sleeps (the driver's
 * reg_user_mr op pins the pages under the task's mmap lock).
 *
 * Return: the MR or an ERR_PTR().
 */
struct ib_mr *ib_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			     u64 virt_addr, int mr_access_flags)
{
	struct ib_mr *mr;

	if (!pd->device->ops.reg_user_mr)
		return ERR_PTR(-EOPNOTSUPP);

	mr = pd->device->ops.reg_user_mr(pd, start, length, virt_addr,
					 mr_access_flags, NULL);
	if (IS_ERR(mr))
		return mr;

	ib_mr_init(mr, pd, IB_MR_TYPE_USER);
	return mr;
}
EXPORT_SYMBOL(ib_reg_user_mr);

/**
 * ib_advise_mr - pass a prefetch or access hint on MR ranges to the driver
 * @pd: the PD of the MRs
 * @advice: what to do (IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH...)
 * @flags: IB_UVERBS_ADVISE_MR_FLAG_FLUSH: wait until done
 * @sg_list: the ranges, each an lkey, address and length
 * @num_sge: entries of @sg_list
 *
 * Meant for on-demand-paging MRs; a driver without the op takes no hints.
 *
 * Context: process context; the driver may sleep.
 * Return: 0 (also for an empty list), -EOPNOTSUPP when the driver has no
 * advise_mr op, or the driver's error.
 */
int ib_advise_mr(struct ib_pd *pd, enum ib_uverbs_advise_mr_advice advice,
		 u32 flags, struct ib_sge *sg_list, u32 num_sge)
{
	if (!pd->device->ops.advise_mr)
		return -EOPNOTSUPP;
	if (!num_sge)
		return 0;
	return pd->device->ops.advise_mr(pd, advice, flags, sg_list, num_sge,
					 NULL);
}
EXPORT_SYMBOL(ib_advise_mr);

/**
 * ib_dereg_mr_user - free a memory region
 * @mr: the MR; no work request may use it any more
 * @udata: user data, NULL for kernel MRs
 *
 * Context: Process context; sleeps (rdma_restrack_del() waits for netlink
 * readers of the MR, and the driver's dereg_mr op).
 *
 * Return: 0 or the driver's error.
 */
int ib_dereg_mr_user(struct ib_mr *mr, struct ib_udata *udata)
{
	struct ib_sig_attrs *sig_attrs = mr->sig_attrs;
	struct ib_pd *pd = mr->pd;
	struct ib_dm *dm = mr->dm;
	int ret;

	rdma_restrack_del(&mr->res);
	ret = mr->device->ops.dereg_mr(mr, udata);
	if (ret)
		return ret;

	atomic_dec(&pd->usecnt);
	if (dm)
		atomic_dec(&dm->usecnt);
	kfree(sig_attrs);
	return 0;
}
EXPORT_SYMBOL(ib_dereg_mr_user);

/**
 * ib_check_mr_status - read the integrity status of an MR
 * @mr: an integrity MR
 * @check_mask: enum ib_mr_status_check
 * @mr_status: filled by the driver
 *
 * Context: Any context the driver's check_mr_status op allows (the in-tree
 * ones do not sleep); the core takes no lock.
 *
 * Return: 0, -EOPNOTSUPP when the driver cannot, or another error.
 */
int ib_check_mr_status(struct ib_mr *mr, u32 check_mask,
		       struct ib_mr_status *mr_status)
{
	if (!mr->device->ops.check_mr_status)
		return -EOPNOTSUPP;
	return mr->device->ops.check_mr_status(mr, check_mask, mr_status);
}
EXPORT_SYMBOL(ib_check_mr_status);

/**
 * ib_map_mr_sg - map a DMA-mapped scatterlist into an MR
 * @mr: a fast registration MR
 * @sg: the scatterlist
 * @sg_nents: its entries
 * @sg_offset: byte offset into the first entry, or NULL for none; on
 *	return, when not all of the list fit, the offset into the first
 *	entry that did not fit completely
 * @page_size: page size of the mapping
 *
 * Only the first and last entries may start and end off a page boundary
 * (except on IB_MR_TYPE_SG_GAPS MRs).  Afterwards the MR covers
 * mr->iova .. mr->iova + mr->length and an IB_WR_REG_MR makes that live.
 *
 * Context: Any context; does not sleep as long as the driver's map_mr_sg op
 * does not (the in-tree ones do not). The core takes no lock; the caller
 * serialises use of @mr.
 *
 * Return: the number of entries mapped (fewer than @sg_nents when the MR
 * is full or the list has a gap), or a negative error.
 */
int ib_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset, unsigned int page_size)
{
	if (unlikely(!mr->device->ops.map_mr_sg))
		return -EOPNOTSUPP;

	mr->page_size = page_size;
	return mr->device->ops.map_mr_sg(mr, sg, sg_nents, sg_offset);
}
EXPORT_SYMBOL(ib_map_mr_sg);

/**
 * ib_map_mr_sg_pi - map data and protection information into an MR
 * @mr: an integrity MR
 * @data_sg: data scatterlist
 * @data_sg_nents: its entries
 * @data_sg_offset: byte offset into its first entry, or NULL
 * @meta_sg: protection information scatterlist, or NULL
 * @meta_sg_nents: its entries
 * @meta_sg_offset: byte offset into its first entry, or NULL
 * @page_size: page size of the mapping
 *
 * Context: Any context the driver's map_mr_sg_pi op allows; the core takes no
 * lock and the caller serialises use of @mr.
 *
 * Return: 0 when everything was mapped, or a negative error.
 */
int ib_map_mr_sg_pi(struct ib_mr *mr, struct scatterlist *data_sg,
		    int data_sg_nents, unsigned int *data_sg_offset,
		    struct scatterlist *meta_sg, int meta_sg_nents,
		    unsigned int *meta_sg_offset, unsigned int page_size)
{
	if (unlikely(!mr->device->ops.map_mr_sg_pi ||
		     WARN_ON_ONCE(mr->type != IB_MR_TYPE_INTEGRITY)))
		return -EOPNOTSUPP;

	mr->page_size = page_size;
	return mr->device->ops.map_mr_sg_pi(mr, data_sg, data_sg_nents,
					    data_sg_offset, meta_sg,
					    meta_sg_nents, meta_sg_offset);
}
EXPORT_SYMBOL(ib_map_mr_sg_pi);

/**
 * ib_sg_to_pages - split a DMA-mapped scatterlist into MR pages
 * @mr: the MR; mr->page_size is the page size
 * @sgl: the scatterlist
 * @sg_nents: its entries
 * @sg_offset_p: byte offset into the first entry, or NULL; on return the
 *	offset into the first entry not mapped completely (0 when all was)
 * @set_page: the driver's callback, called with each page's DMA address;
 *	a negative return means the MR is full
 *
 * Sets mr->iova to the first byte and mr->length to the bytes mapped.
 * Entries that meet at a page boundary become consecutive pages; an
 * entry that ends off a boundary may only be followed by the entry that
 * continues it directly (then both share the page), anything else is a
 * gap and ends the mapping.  Drivers call this from their map_mr_sg.
 *
 * Context: Any context; takes no lock and does not sleep unless @set_page
 * does.
 *
 * Return: the number of entries mapped, or the set_page() error when not
 * even the first one could be mapped; -EINVAL for bad arguments.
 */
int ib_sg_to_pages(struct ib_mr *mr, struct scatterlist *sgl, int sg_nents,
		   unsigned int *sg_offset_p,
		   int (*set_page)(struct ib_mr *, u64))
{
	unsigned int sg_offset = sg_offset_p ? *sg_offset_p : 0;
	u64 page_mask = ~((u64)mr->page_size - 1);
	u64 prev_end = 0;
	struct scatterlist *sg;
	int i, ret;

	if (unlikely(sg_nents <= 0 || sg_offset > sg_dma_len(&sgl[0])))
		return -EINVAL;

	mr->iova = sg_dma_address(&sgl[0]) + sg_offset;
	mr->length = 0;

	for_each_sg(sgl, sg, sg_nents, i) {
		u64 start = sg_dma_address(sg) + sg_offset;
		u64 end = start + sg_dma_len(sg) - sg_offset;
		u64 page = start & page_mask;
		u64 done = start;	/* bytes of this entry mapped so far */

		if (i && ((prev_end & ~page_mask) || page != start)) {
			/* only a direct continuation may share a page */
			if (prev_end != start)
				break;
			/* the page holding @start is mapped already */
			page += mr->page_size;
			done = min(page, end);
		}

		for (; page < end; page += mr->page_size) {
			ret = set_page(mr, page);
			if (unlikely(ret < 0)) {
				/* report where the next mapping must go on */
				mr->length += done - start;
				sg_offset = done - sg_dma_address(sg);
				if (sg_offset_p)
					*sg_offset_p = sg_offset;
				return (i || sg_offset) ? i : ret;
			}
			done = min(page + mr->page_size, end);
		}

		mr->length += end - start;
		prev_end = end;
		sg_offset = 0;
	}

	if (sg_offset_p)
		*sg_offset_p = 0;
	return i;
}
EXPORT_SYMBOL(ib_sg_to_pages);

/**
 * ib_dma_virt_map_sg - "map" a scatterlist for a virtual DMA device
 * @dev: a device without a DMA device (ib_uses_virt_dma())
 * @sg: the scatterlist
 * @nents: its entries
 *
 * Software devices copy with the CPU: the DMA address of an entry is its
 * kernel virtual address.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: @nents.
 */
int ib_dma_virt_map_sg(struct ib_device *dev, struct scatterlist *sg,
		       int nents)
{
	struct scatterlist *s;
	int i;

	for_each_sg(sg, s, nents, i) {
		sg_dma_address(s) = (uintptr_t)sg_virt(s);
		sg_dma_len(s) = s->length;
	}
	return nents;
}
EXPORT_SYMBOL(ib_dma_virt_map_sg);
