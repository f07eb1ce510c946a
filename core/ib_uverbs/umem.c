// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umem: a range of user memory pinned with FOLL_LONGTERM, charged to the
 * owner's locked memory (mm->pinned_vm against RLIMIT_MEMLOCK) and
 * DMA-mapped for one device.  Drivers build their user MRs, CQs and QPs on
 * it.  Documentation/core/umem.rst gives the rules.
 */

#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/count_zeros.h>
#include <linux/dma-mapping.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_umem_odp.h>

/*
 * Give back the pages of @umem (after unmapping them if @mapped) and free
 * its scatterlist.  Pages pinned writable are marked dirty only when they
 * were mapped: an unmapped umem never reached the device.
 */
static void ib_umem_put_pages(struct ib_device *dev, struct ib_umem *umem,
			      bool mapped)
{
	struct sg_table *sgt = &umem->sgt_append.sgt;
	bool dirty = mapped && umem->writable;
	struct scatterlist *sg;
	unsigned int i;

	if (mapped)
		ib_dma_unmap_sgtable_attrs(dev, sgt, DMA_BIDIRECTIONAL, 0);

	for_each_sgtable_sg(sgt, sg, i)
		unpin_user_page_range_dirty_lock(sg_page(sg),
						 DIV_ROUND_UP(sg->length,
							      PAGE_SIZE),
						 dirty);
	sg_free_append_table(&umem->sgt_append);
}

/*
 * Charge @npages to @mm's pinned memory.  Over RLIMIT_MEMLOCK only a
 * caller with CAP_IPC_LOCK may go on.
 */
static int ib_umem_charge(struct mm_struct *mm, unsigned long npages)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	unsigned long total;

	total = atomic64_add_return(npages, &mm->pinned_vm);
	if (total > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(npages, &mm->pinned_vm);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Pin the @npages pages from @umem's first page on, a batch of @batch at a
 * time, appending them to the umem's scatterlist.  Physically contiguous
 * pages share an entry, up to the device's largest DMA segment.
 */
static int ib_umem_pin(struct ib_umem *umem, struct page **batch,
		       unsigned long npages, unsigned int gup_flags)
{
	const unsigned long batch_len = PAGE_SIZE / sizeof(struct page *);
	unsigned int max_seg = ib_dma_max_seg_size(umem->ibdev);
	unsigned long cur = umem->address & PAGE_MASK;
	int pinned, ret;

	while (npages) {
		cond_resched();
		pinned = pin_user_pages_fast(cur, min(npages, batch_len),
					     gup_flags, batch);
		if (pinned < 0)
			return pinned;
		if (!pinned)
			return -EFAULT;

		cur += (unsigned long)pinned << PAGE_SHIFT;
		npages -= pinned;
		ret = sg_alloc_append_table_from_pages(&umem->sgt_append, batch,
						       pinned, 0,
						       (unsigned long)pinned <<
						       PAGE_SHIFT,
						       max_seg, npages,
						       GFP_KERNEL);
		if (ret) {
			/* not in the scatterlist yet: give them back here */
			unpin_user_pages_dirty_lock(batch, pinned, false);
			return ret;
		}
	}
	return 0;
}

/**
 * ib_umem_get - pin and DMA-map a range of the caller's memory
 * @device: the device that will access the memory
 * @addr: user virtual address of the first byte
 * @size: length in bytes
 * @access: IB_ACCESS_* flags; pages are pinned writable when
 *	ib_access_writable() says so, IB_ACCESS_RELAXED_ORDERING maps them
 *	with DMA_ATTR_WEAK_ORDERING, IB_ACCESS_ON_DEMAND is refused
 *
 * Pins the pages of current->mm covering [@addr, @addr + @size) with
 * FOLL_LONGTERM, charges them to current->mm->pinned_vm (over
 * RLIMIT_MEMLOCK only with CAP_IPC_LOCK), and maps them for @device.  The
 * umem's iova starts as @addr; a driver sets the one it maps at with
 * ib_umem_find_best_pgsz().
 *
 * Context: Process context with a user mm (a task's current->mm); sleeps.
 *
 * Return: the umem, or an ERR_PTR(): -EINVAL when the range wraps the
 * address space (or its page-rounded end does) or covers no page (length
 * 0 at a page boundary), -EPERM when the caller may lock no memory at all
 * (RLIMIT_MEMLOCK 0 without CAP_IPC_LOCK), -EOPNOTSUPP for
 * IB_ACCESS_ON_DEMAND, -ENOMEM when the pages would pass RLIMIT_MEMLOCK or
 * an allocation fails, -EFAULT (or what pin_user_pages_fast() gives) when
 * a page cannot be pinned: not mapped, or not writable when it must be.
 */
struct ib_umem *ib_umem_get(struct ib_device *device, unsigned long addr,
			    size_t size, int access)
{
	unsigned int gup_flags = FOLL_LONGTERM;
	unsigned long dma_attrs = 0;
	struct ib_umem *umem;
	struct page **batch;
	struct mm_struct *mm;
	unsigned long npages;
	int ret;

	/* the range and its page-rounded end must not wrap */
	if (addr + size < addr || PAGE_ALIGN(addr + size) < addr + size)
		return ERR_PTR(-EINVAL);
	if (!can_do_mlock())
		return ERR_PTR(-EPERM);
	if (access & IB_ACCESS_ON_DEMAND)
		return ERR_PTR(-EOPNOTSUPP);

	umem = kzalloc(sizeof(*umem), GFP_KERNEL);
	if (!umem)
		return ERR_PTR(-ENOMEM);
	umem->ibdev = device;
	umem->length = size;
	umem->address = addr;
	umem->iova = addr;
	umem->writable = ib_access_writable(access);
	mm = current->mm;
	umem->owning_mm = mm;
	mmgrab(mm);

	npages = ib_umem_num_pages(umem);
	if (!npages || npages > UINT_MAX) {
		ret = -EINVAL;
		goto err_umem;
	}

	batch = (struct page **)__get_free_page(GFP_KERNEL);
	if (!batch) {
		ret = -ENOMEM;
		goto err_umem;
	}

	ret = ib_umem_charge(mm, npages);
	if (ret)
		goto err_batch;

	if (umem->writable)
		gup_flags |= FOLL_WRITE;
	ret = ib_umem_pin(umem, batch, npages, gup_flags);
	if (ret)
		goto err_pages;

	if (access & IB_ACCESS_RELAXED_ORDERING)
		dma_attrs |= DMA_ATTR_WEAK_ORDERING;
	ret = ib_dma_map_sgtable_attrs(device, &umem->sgt_append.sgt,
				       DMA_BIDIRECTIONAL, dma_attrs);
	if (ret)
		goto err_pages;

	free_page((unsigned long)batch);
	return umem;

err_pages:
	ib_umem_put_pages(device, umem, false);
	atomic64_sub(npages, &mm->pinned_vm);
err_batch:
	free_page((unsigned long)batch);
err_umem:
	mmdrop(mm);
	kfree(umem);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_umem_get);

/**
 * ib_umem_release - unmap, unpin and free a umem
 * @umem: what ib_umem_get() (or a dma-buf get) returned; NULL is ignored
 *
 * The pages are unmapped from the device and unpinned, marked dirty when
 * they were pinned writable; the owner's pinned_vm is uncharged.  A
 * dma-buf umem is handed to ib_umem_dmabuf_release(), an on-demand paging
 * one to ib_umem_odp_release().
 *
 * Context: Process context; sleeps.  The owning mm need not be current's:
 * the umem holds it until here.
 *
 * Return: nothing.
 */
void ib_umem_release(struct ib_umem *umem)
{
	if (!umem)
		return;
	if (umem->is_dmabuf) {
		ib_umem_dmabuf_release(to_ib_umem_dmabuf(umem));
		return;
	}
	if (umem->is_odp) {
		ib_umem_odp_release(to_ib_umem_odp(umem));
		return;
	}

	ib_umem_put_pages(umem->ibdev, umem, true);
	atomic64_sub(ib_umem_num_pages(umem), &umem->owning_mm->pinned_vm);
	mmdrop(umem->owning_mm);
	kfree(umem);
}
EXPORT_SYMBOL(ib_umem_release);

/**
 * ib_umem_copy_from - copy bytes of a umem into a kernel buffer
 * @dst: the buffer, at least @length bytes
 * @umem: the umem
 * @offset: where to start, in bytes from the umem's first byte
 * @length: how many bytes
 *
 * Reads the pinned pages through the kernel's mapping, not the device's.
 *
 * Context: Process or atomic context (the pages are mapped with
 * kmap_local); does not sleep.
 *
 * Return: 0, or -EINVAL when [@offset, @offset + @length) is not inside
 * the umem or fewer bytes could be copied.
 */
int ib_umem_copy_from(void *dst, struct ib_umem *umem, size_t offset,
		      size_t length)
{
	size_t copied;

	if (offset > umem->length || length > umem->length - offset)
		return -EINVAL;

	copied = sg_pcopy_to_buffer(umem->sgt_append.sgt.sgl,
				    umem->sgt_append.sgt.orig_nents, dst,
				    length, offset + ib_umem_offset(umem));
	return copied == length ? 0 : -EINVAL;
}
EXPORT_SYMBOL(ib_umem_copy_from);

/**
 * ib_umem_find_best_pgsz - the largest device page size a umem can use
 * @umem: the umem (not ODP)
 * @pgsz_bitmap: the page sizes the device supports, one bit each
 * @virt: the IOVA the device will map the umem's first byte at; it
 *	becomes @umem->iova
 *
 * For devices that map an MR with one page size of several.  A page size
 * fits when the IOVA and the DMA address agree in every bit below it, and
 * every break in the DMA addresses falls on a page boundary of the IOVA.
 * Of the sizes that fit, the result is the smallest one that still gives
 * the fewest pages.
 *
 * Context: Any context; does not sleep.
 *
 * Return: the page size, or 0 when none of @pgsz_bitmap fits (or the
 * range wraps at @virt).  A device that supports PAGE_SIZE or smaller
 * never gets 0 for a @virt with the same offset in its page as the umem's
 * address.
 */
unsigned long ib_umem_find_best_pgsz(struct ib_umem *umem,
				     unsigned long pgsz_bitmap,
				     u64 virt)
{
	unsigned long pgoff = ib_umem_offset(umem);
	dma_addr_t run_start = 0, run_len = 0;
	unsigned long bad = 0;
	struct scatterlist *sg;
	u64 last, va = virt;
	unsigned int bits;
	int i;

	umem->iova = virt;

	if (check_add_overflow(virt, (u64)umem->length - 1, &last))
		return 0;
	/*
	 * Sizes above the IOVA bits that change inside the umem are never
	 * needed: the smallest of them already maps it in one page.
	 */
	bits = bits_per(virt ^ last);
	if (bits < BITS_PER_LONG)
		bad = pgsz_bitmap & GENMASK(BITS_PER_LONG - 1, bits);

	/* "bad" collects a 1 in every bit a page offset cannot carry */
	for_each_sgtable_dma_sg(&umem->sgt_append.sgt, sg, i) {
		dma_addr_t addr = sg_dma_address(sg);
		dma_addr_t run_end;

		if (i == 0 || check_add_overflow(run_start, run_len, &run_end) ||
		    run_end != addr) {
			/* a new physically contiguous run starts here */
			run_start = addr;
			run_len = 0;
			/* its IOVA and DMA address must share the offset */
			bad |= (addr + pgoff) ^ va;
			/* and a page must start at it */
			if (i)
				bad |= va;
		}
		run_len += sg_dma_len(sg);
		va += sg_dma_len(sg) - pgoff;
		pgoff = 0;
	}

	if (bad)
		pgsz_bitmap &= GENMASK(count_trailing_zeros(bad), 0);
	return pgsz_bitmap ? rounddown_pow_of_two(pgsz_bitmap) : 0;
}
EXPORT_SYMBOL(ib_umem_find_best_pgsz);

/**
 * ib_umem_check_rereg - may a re-registration keep its umem
 * @umem: the MR's umem, or NULL
 * @flags: IB_MR_REREG_* of the request
 * @new_access_flags: the new IB_ACCESS_* flags
 *
 * A change of access alone keeps the pages; it cannot make a umem pinned
 * read-only writable.
 *
 * Context: Any context; does not sleep.
 *
 * Return: 0, or -EACCES when the new access needs writable pages the
 * umem does not have.
 */
int ib_umem_check_rereg(struct ib_umem *umem, int flags, int new_access_flags)
{
	if (!umem)
		return 0;
	if ((flags & IB_MR_REREG_ACCESS) && !(flags & IB_MR_REREG_TRANS) &&
	    ib_access_writable(new_access_flags) && !umem->writable)
		return -EACCES;
	return 0;
}
EXPORT_SYMBOL(ib_umem_check_rereg);
