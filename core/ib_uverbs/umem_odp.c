// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * On-demand paging umem (<rdma/ib_umem_odp.h>): user memory a device maps
 * page by page when it needs it, never pinned.
 *
 * A umem follows one process's mm through an MMU interval notifier over
 * its range; the notifier's ops are the driver's.  Mapping takes the pages
 * with get_user_pages_remote() (faulting them in, or with FOLL_NOFAULT
 * only those present), then, under umem_mutex, checks the notifier's
 * sequence: an invalidation that ran since the pages were looked up makes
 * the mapping start again, one that comes later waits for umem_mutex,
 * which the driver's invalidate takes before it unmaps.  So the page
 * references can go as soon as the device addresses are recorded: a page
 * the device maps cannot leave the process's page tables before the
 * driver has given it up.  This is the contract of hmm_range_fault(),
 * kept without HMM (kernels without HMM_MIRROR have MMU notifiers).
 *
 * Lock order: the mm's mmap_lock (read, while looking pages up) is never
 * held with umem_mutex; umem_mutex is taken inside the notifier's
 * invalidation (the driver's ops), as the mm core allows a sleeping lock
 * there for a blockable range.
 */
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/overflow.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <rdma/ib_umem_odp.h>

/* How long a mapping is tried again while invalidations keep coming. */
#define ODP_MAP_TIMEOUT_MS	1000

/* The lists and the notifier of a umem with a range. */
static int odp_init_range(struct ib_umem_odp *odp,
			  const struct mmu_interval_notifier_ops *ops)
{
	unsigned long page_size = 1UL << odp->page_shift;
	unsigned long start, end;
	size_t ndma;
	int ret;

	if (check_add_overflow(odp->umem.address,
			       (unsigned long)odp->umem.length, &end))
		return -EOVERFLOW;
	start = ALIGN_DOWN(odp->umem.address, page_size);
	end = ALIGN(end, page_size);
	if (end < page_size)
		return -EOVERFLOW;
	ndma = (end - start) >> odp->page_shift;
	if (!ndma)
		return -EINVAL;

	odp->pfn_list = kvcalloc((end - start) >> PAGE_SHIFT,
				 sizeof(*odp->pfn_list),
				 GFP_KERNEL | __GFP_NOWARN);
	odp->dma_list = kvcalloc(ndma, sizeof(*odp->dma_list),
				 GFP_KERNEL | __GFP_NOWARN);
	if (!odp->pfn_list || !odp->dma_list) {
		ret = -ENOMEM;
		goto err;
	}
	ret = mmu_interval_notifier_insert(&odp->notifier, odp->umem.owning_mm,
					   start, end - start, ops);
	if (ret)
		goto err;
	return 0;

err:
	kvfree(odp->dma_list);
	kvfree(odp->pfn_list);
	return ret;
}

/* A umem following @mm (held with mmgrab()); the caller adds its range. */
static struct ib_umem_odp *odp_alloc(struct ib_device *device,
				     struct mm_struct *mm, bool writable)
{
	struct ib_umem_odp *odp = kzalloc(sizeof(*odp), GFP_KERNEL);

	if (!odp)
		return NULL;
	odp->umem.ibdev = device;
	odp->umem.owning_mm = mm;
	odp->umem.writable = writable;
	odp->umem.is_odp = 1;
	odp->page_shift = PAGE_SHIFT;
	mutex_init(&odp->umem_mutex);
	mmgrab(mm);
	return odp;
}

static void odp_free(struct ib_umem_odp *odp)
{
	put_pid(odp->tgid);
	mmdrop(odp->umem.owning_mm);
	mutex_destroy(&odp->umem_mutex);
	kfree(odp);
}

/**
 * ib_umem_odp_get - an on-demand paging umem over user memory
 * @device: the device that maps it
 * @addr: user virtual address of the first byte, in current's mm
 * @size: length in bytes
 * @access: IB_ACCESS_* flags; IB_ACCESS_ON_DEMAND must be among them,
 *	IB_ACCESS_HUGETLB maps huge pages (HPAGE_SIZE) as one
 * @ops: the driver's invalidate: it takes umem_mutex, calls
 *	mmu_interval_set_seq() and unmaps what the range lost
 *
 * Nothing is mapped or pinned: the device maps pages with
 * ib_umem_odp_map_dma_and_lock() when it needs them.
 *
 * Context: process context (current's mm is followed); sleeps.
 * Return: the umem, or an ERR_PTR(): -EINVAL without ON_DEMAND, for an
 * empty range or HUGETLB on a kernel without huge pages; -EOVERFLOW for
 * a range past the address space; -ENOMEM; the notifier's error.
 */
struct ib_umem_odp *ib_umem_odp_get(struct ib_device *device,
				    unsigned long addr, size_t size,
				    int access,
				    const struct mmu_interval_notifier_ops *ops)
{
	struct ib_umem_odp *odp;
	int ret;

	if (!(access & IB_ACCESS_ON_DEMAND) || !current->mm)
		return ERR_PTR(-EINVAL);
	if ((access & IB_ACCESS_HUGETLB) && !IS_ENABLED(CONFIG_HUGETLB_PAGE))
		return ERR_PTR(-EINVAL);
	odp = odp_alloc(device, current->mm, ib_access_writable(access));
	if (!odp)
		return ERR_PTR(-ENOMEM);
	odp->umem.address = addr;
	odp->umem.length = size;
	odp->umem.iova = addr;
#ifdef CONFIG_HUGETLB_PAGE
	if (access & IB_ACCESS_HUGETLB)
		odp->page_shift = HPAGE_SHIFT;
#endif
	odp->tgid = get_task_pid(current->group_leader, PIDTYPE_PID);
	ret = odp_init_range(odp, ops);
	if (ret) {
		odp_free(odp);
		return ERR_PTR(ret);
	}
	return odp;
}
EXPORT_SYMBOL(ib_umem_odp_get);

/**
 * ib_umem_odp_alloc_implicit - an implicit on-demand paging umem: the
 *	whole address space of current
 * @device: the device
 * @access: IB_ACCESS_* flags (not IB_ACCESS_HUGETLB)
 *
 * The umem maps nothing itself and has no notifier: it anchors the
 * process for the children the driver makes over the ranges it meets
 * (ib_umem_odp_alloc_child()).
 *
 * Context: process context; sleeps.
 * Return: the umem, or an ERR_PTR(): -EINVAL for HUGETLB or a caller
 * without an mm, -ENOMEM.
 */
struct ib_umem_odp *ib_umem_odp_alloc_implicit(struct ib_device *device,
					       int access)
{
	struct ib_umem_odp *odp;

	if ((access & IB_ACCESS_HUGETLB) || !current->mm)
		return ERR_PTR(-EINVAL);
	odp = odp_alloc(device, current->mm, ib_access_writable(access));
	if (!odp)
		return ERR_PTR(-ENOMEM);
	odp->is_implicit_odp = true;
	odp->tgid = get_task_pid(current->group_leader, PIDTYPE_PID);
	return odp;
}
EXPORT_SYMBOL(ib_umem_odp_alloc_implicit);

/**
 * ib_umem_odp_alloc_child - a range of an implicit umem's process
 * @root: the implicit umem
 * @addr: user virtual address of the range's first byte
 * @size: its length in bytes
 * @ops: the driver's invalidate for the range
 *
 * The child follows the root's process, with the root's write access,
 * from any context that may sleep (a driver's page fault handler).
 *
 * Context: process context or a work item; sleeps.
 * Return: the child, or an ERR_PTR(): -EINVAL when @root is not
 * implicit, -EFAULT when its process's mm is gone, as for
 * ib_umem_odp_get().
 */
struct ib_umem_odp *
ib_umem_odp_alloc_child(struct ib_umem_odp *root, unsigned long addr,
			size_t size,
			const struct mmu_interval_notifier_ops *ops)
{
	struct mm_struct *mm = root->umem.owning_mm;
	struct ib_umem_odp *odp;
	int ret;

	if (!root->is_implicit_odp)
		return ERR_PTR(-EINVAL);
	if (!mmget_not_zero(mm))
		return ERR_PTR(-EFAULT);
	odp = odp_alloc(root->umem.ibdev, mm, root->umem.writable);
	if (!odp) {
		ret = -ENOMEM;
		goto out;
	}
	odp->umem.address = addr;
	odp->umem.length = size;
	odp->umem.iova = addr;
	odp->tgid = get_pid(root->tgid);
	ret = odp_init_range(odp, ops);
	if (ret)
		odp_free(odp);
out:
	mmput(mm);
	return ret ? ERR_PTR(ret) : odp;
}
EXPORT_SYMBOL(ib_umem_odp_alloc_child);

/**
 * ib_umem_odp_release - unmap and free an on-demand paging umem
 * @umem_odp: the umem
 *
 * What the device still maps is unmapped (pages it could write marked
 * dirty), then the notifier goes: the driver's invalidate runs no more
 * once this returns.
 *
 * Context: process context; sleeps.  Takes umem_mutex.
 */
void ib_umem_odp_release(struct ib_umem_odp *umem_odp)
{
	if (!umem_odp->is_implicit_odp) {
		mutex_lock(&umem_odp->umem_mutex);
		ib_umem_odp_unmap_dma_pages(umem_odp, ib_umem_start(umem_odp),
					    ib_umem_end(umem_odp));
		mutex_unlock(&umem_odp->umem_mutex);
		mmu_interval_notifier_remove(&umem_odp->notifier);
		kvfree(umem_odp->dma_list);
		kvfree(umem_odp->pfn_list);
	}
	odp_free(umem_odp);
}
EXPORT_SYMBOL(ib_umem_odp_release);

/*
 * Look up @npages pages from @start in @mm into @pages (NULL where a page
 * is not there without a fault, in the FOLL_NOFAULT form).  @writes says
 * per page whether it was taken writable.  Holds the mmap lock for read.
 */
static long odp_lookup(struct mm_struct *mm, unsigned long start,
		       unsigned long npages, bool fault, bool write,
		       struct page **pages, unsigned long *writes)
{
	unsigned int flags = write ? FOLL_WRITE : 0;
	unsigned long i;
	long got = 0, n;

	mmap_read_lock(mm);
	if (fault) {
		n = 0;
		while (got < npages) {
			n = get_user_pages_remote(mm, start + (got << PAGE_SHIFT),
						  npages - got, flags,
						  pages + got, NULL);
			if (n <= 0)
				break;
			got += n;
		}
		mmap_read_unlock(mm);
		if (got == npages) {
			if (write)
				bitmap_fill(writes, npages);
			return 0;
		}
		/* a page that cannot be had: none is kept */
		for (i = 0; i < got; i++) {
			put_page(pages[i]);
			pages[i] = NULL;
		}
		return n == -ENOMEM ? -ENOMEM : -EFAULT;
	}
	/* only what is there: writable if it can be, else read-only */
	for (i = 0; i < npages; i++) {
		unsigned long va = start + (i << PAGE_SHIFT);

		pages[i] = NULL;
		if (write &&
		    get_user_pages_remote(mm, va, 1, FOLL_WRITE | FOLL_NOFAULT,
					  &pages[i], NULL) == 1) {
			__set_bit(i, writes);
			continue;
		}
		if (get_user_pages_remote(mm, va, 1, FOLL_NOFAULT, &pages[i],
					  NULL) != 1)
			pages[i] = NULL;
	}
	mmap_read_unlock(mm);
	return 0;
}

/* Map the page of @odp's dma_list entry @idx (its first small page). */
static int odp_map_one(struct ib_umem_odp *odp, unsigned int idx,
		       struct page *page, u64 access)
{
	struct ib_device *dev = odp->umem.ibdev;
	dma_addr_t *entry = &odp->dma_list[idx];
	u64 addr;

	if (*entry) {
		/* a page that stayed: only its rights change */
		*entry = (*entry & ODP_DMA_ADDR_MASK) | access;
		return 0;
	}
	addr = ib_dma_map_page(dev, page, 0, 1UL << odp->page_shift,
			       DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(dev, addr))
		return -EFAULT;
	*entry = addr | access;
	odp->npages++;
	return 0;
}

/**
 * ib_umem_odp_map_dma_and_lock - map a range of an on-demand paging umem
 * @umem_odp: the umem (not implicit)
 * @user_virt: user virtual address of the first byte wanted
 * @bcnt: how many bytes
 * @access_mask: ODP_READ_ALLOWED_BIT, with ODP_WRITE_ALLOWED_BIT when the
 *	device will write (with @fault: the pages are made writable)
 * @fault: fault the pages in; without it only the pages present are
 *	mapped, each with the rights its page table entry gives
 *
 * The range is widened to whole pages of 1 << page_shift bytes.  On
 * success the pages are mapped (dma_list), umem_mutex is held and the
 * caller uses the mapping, then unlocks; an invalidation of the range
 * waits for the unlock.
 *
 * Context: process context or a work item; sleeps (page faults).  Must
 * not hold umem_mutex or the mm's mmap_lock.
 * Return: how many dma_list pages the range has, with umem_mutex held;
 * else umem_mutex is not held and: -EINVAL for an empty @access_mask, an
 * implicit umem or a process whose mm is gone; -EFAULT for a range
 * outside the umem or a page that cannot be faulted in (or not
 * writably); -EBUSY when invalidations kept coming for a second; -ENOMEM.
 */
int ib_umem_odp_map_dma_and_lock(struct ib_umem_odp *umem_odp, u64 user_virt,
				 u64 bcnt, u64 access_mask, bool fault)
{
	struct mm_struct *mm = umem_odp->umem.owning_mm;
	unsigned int shift = umem_odp->page_shift;
	unsigned long start, end, npfn, step, i, seq, *writes = NULL;
	unsigned long deadline;
	struct page **pages = NULL;
	unsigned int first;
	bool write;
	int ret;

	if (!access_mask || umem_odp->is_implicit_odp)
		return -EINVAL;
	if (user_virt < ib_umem_start(umem_odp) ||
	    bcnt > ib_umem_end(umem_odp) - user_virt)
		return -EFAULT;
	if (!bcnt) {
		mutex_lock(&umem_odp->umem_mutex);
		return 0;
	}
	if (!mmget_not_zero(mm))
		return -EINVAL;

	start = ALIGN_DOWN(user_virt, 1UL << shift);
	end = ALIGN(user_virt + bcnt, 1UL << shift);
	npfn = (end - start) >> PAGE_SHIFT;
	step = 1UL << (shift - PAGE_SHIFT);
	first = (start - ib_umem_start(umem_odp)) >> shift;
	write = fault ? access_mask & ODP_WRITE_ALLOWED_BIT :
			umem_odp->umem.writable;
	pages = kvcalloc(npfn, sizeof(*pages), GFP_KERNEL);
	writes = bitmap_zalloc(npfn, GFP_KERNEL);
	if (!pages || !writes) {
		ret = -ENOMEM;
		goto out;
	}
	deadline = jiffies + msecs_to_jiffies(ODP_MAP_TIMEOUT_MS);

again:
	seq = mmu_interval_read_begin(&umem_odp->notifier);
	bitmap_zero(writes, npfn);
	ret = odp_lookup(mm, start, npfn, fault, write, pages, writes);
	if (ret)
		goto out;
	mutex_lock(&umem_odp->umem_mutex);
	if (mmu_interval_read_retry(&umem_odp->notifier, seq)) {
		mutex_unlock(&umem_odp->umem_mutex);
		for (i = 0; i < npfn; i++)
			if (pages[i])
				put_page(pages[i]);
		if (time_after(jiffies, deadline)) {
			ret = -EBUSY;
			goto out;
		}
		goto again;
	}
	for (i = 0; i < npfn && !ret; i += step) {
		u64 access = ODP_READ_ALLOWED_BIT;
		unsigned long pfn_idx = ((start - ib_umem_start(umem_odp)) >>
					 PAGE_SHIFT) + i;

		if (!pages[i])
			continue;
		/* a huge page maps whole, its first small page first */
		if (step > 1 &&
		    (folio_size(page_folio(pages[i])) < (1UL << shift) ||
		     folio_page_idx(page_folio(pages[i]), pages[i]) % step)) {
			ret = -EINVAL;
			break;
		}
		if (test_bit(i, writes))
			access |= ODP_WRITE_ALLOWED_BIT;
		umem_odp->pfn_list[pfn_idx] = page_to_pfn(pages[i]);
		ret = odp_map_one(umem_odp, first + i / step, pages[i],
				  access);
	}
	/*
	 * The references go now: a page mapped for the device cannot
	 * leave the page tables before the driver's invalidate, which
	 * waits for umem_mutex, has unmapped it.
	 */
	for (i = 0; i < npfn; i++)
		if (pages[i])
			put_page(pages[i]);
	if (ret)
		mutex_unlock(&umem_odp->umem_mutex);
	else
		ret = npfn / step;
out:
	bitmap_free(writes);
	kvfree(pages);
	mmput(mm);
	return ret;
}
EXPORT_SYMBOL(ib_umem_odp_map_dma_and_lock);

/**
 * ib_umem_odp_unmap_dma_pages - give up the device's mappings of a range
 * @umem_odp: the umem
 * @virt: first user virtual address (clamped to the umem's range)
 * @bound: the address after the last (clamped likewise)
 *
 * Pages the device could write are marked dirty.  A driver's invalidate
 * calls this for the range it is told about.
 *
 * Context: any context that may sleep; umem_mutex held.
 */
void ib_umem_odp_unmap_dma_pages(struct ib_umem_odp *umem_odp, u64 virt,
				 u64 bound)
{
	struct ib_device *dev = umem_odp->umem.ibdev;
	unsigned int shift = umem_odp->page_shift;
	u64 addr, first = ib_umem_start(umem_odp);
	dma_addr_t entry;
	unsigned long idx;

	lockdep_assert_held(&umem_odp->umem_mutex);
	virt = max_t(u64, ALIGN_DOWN(virt, 1ULL << shift), first);
	bound = min_t(u64, bound, ib_umem_end(umem_odp));
	for (addr = virt; addr < bound; addr += 1ULL << shift) {
		idx = (addr - first) >> shift;
		entry = umem_odp->dma_list[idx];
		if (!entry)
			continue;
		ib_dma_unmap_page(dev, entry & ODP_DMA_ADDR_MASK, 1UL << shift,
				  DMA_BIDIRECTIONAL);
		if (entry & ODP_WRITE_ALLOWED_BIT)
			folio_mark_dirty(pfn_folio(umem_odp->pfn_list[(addr - first) >>
								      PAGE_SHIFT]));
		umem_odp->dma_list[idx] = 0;
		umem_odp->npages--;
	}
}
EXPORT_SYMBOL(ib_umem_odp_unmap_dma_pages);
