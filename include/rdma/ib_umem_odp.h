/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * On-demand paging umem: user memory that is not pinned.  The device maps
 * pages when it needs them (ib_umem_odp_map_dma_and_lock()) and gives them
 * up when the process's page tables change, told by an MMU interval
 * notifier whose ops the driver supplies.  The code is in
 * core/ib_uverbs/umem_odp.c (module ib_uverbs, CONFIG_INFINIBAND_ON_DEMAND_PAGING);
 * Documentation/core/umem.rst tells the rules.
 */
#ifndef IB_UMEM_ODP_H
#define IB_UMEM_ODP_H

#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

/**
 * struct ib_umem_odp - an on-demand paging umem
 * @umem: the umem (@umem.is_odp set; its sgt_append is unused)
 * @notifier: tells the driver (its ops) when the range's page tables
 *	change; its interval is the umem's range rounded out to the page
 *	size (none for an implicit umem)
 * @tgid: the process whose mm the umem follows
 * @pfn_list: per PAGE_SIZE page of the range, the page frame last
 *	mapped there (valid where the covering @dma_list entry is set)
 * @dma_list: per page of 1 << @page_shift bytes, its DMA address with
 *	ODP_READ_ALLOWED_BIT and ODP_WRITE_ALLOWED_BIT or'ed in, or 0 when
 *	the device has no mapping of it
 * @umem_mutex: serialises mapping and unmapping: @pfn_list,
 *	@dma_list and @npages are under it, and a driver's invalidate
 *	takes it before mmu_interval_set_seq() and unmapping
 * @private: the driver's
 * @npages: how many @dma_list entries are set
 * @is_implicit_odp: covers the whole address space and maps nothing
 *	itself: the driver makes children (ib_umem_odp_alloc_child()) for
 *	the ranges it touches
 * @page_shift: the size of a @dma_list page (PAGE_SHIFT, or the huge
 *	page size for IB_ACCESS_HUGETLB)
 */
struct ib_umem_odp {
	struct ib_umem umem;
	struct mmu_interval_notifier notifier;
	struct pid *tgid;
	unsigned long *pfn_list;
	dma_addr_t *dma_list;
	struct mutex umem_mutex;	/* see above */
	void *private;
	int npages;
	bool is_implicit_odp;
	unsigned int page_shift;
};

static inline struct ib_umem_odp *to_ib_umem_odp(struct ib_umem *umem)
{
	return container_of(umem, struct ib_umem_odp, umem);
}

/* The first address of the umem's notifier range. */
static inline unsigned long ib_umem_start(struct ib_umem_odp *umem_odp)
{
	return umem_odp->notifier.interval_tree.start;
}

/* The address after the umem's notifier range. */
static inline unsigned long ib_umem_end(struct ib_umem_odp *umem_odp)
{
	return umem_odp->notifier.interval_tree.last + 1;
}

/* How many pages of 1 << page_shift bytes the range has. */
static inline size_t ib_umem_odp_num_pages(struct ib_umem_odp *umem_odp)
{
	return (ib_umem_end(umem_odp) - ib_umem_start(umem_odp)) >>
	       umem_odp->page_shift;
}

/* The access bits of a dma_list entry; the rest is the address. */
#define ODP_READ_ALLOWED_BIT	BIT_ULL(0)
#define ODP_WRITE_ALLOWED_BIT	BIT_ULL(1)
#define ODP_DMA_ADDR_MASK	(~(ODP_READ_ALLOWED_BIT | ODP_WRITE_ALLOWED_BIT))

#ifdef CONFIG_INFINIBAND_ON_DEMAND_PAGING

struct ib_umem_odp *
ib_umem_odp_get(struct ib_device *device, unsigned long addr, size_t size,
		int access, const struct mmu_interval_notifier_ops *ops);
struct ib_umem_odp *ib_umem_odp_alloc_implicit(struct ib_device *device,
					       int access);
struct ib_umem_odp *
ib_umem_odp_alloc_child(struct ib_umem_odp *root_umem, unsigned long addr,
			size_t size,
			const struct mmu_interval_notifier_ops *ops);
void ib_umem_odp_release(struct ib_umem_odp *umem_odp);
int ib_umem_odp_map_dma_and_lock(struct ib_umem_odp *umem_odp, u64 start_offset,
				 u64 bcnt, u64 access_mask, bool fault);
void ib_umem_odp_unmap_dma_pages(struct ib_umem_odp *umem_odp, u64 start_offset,
				 u64 bound);

#else /* CONFIG_INFINIBAND_ON_DEMAND_PAGING */

static inline struct ib_umem_odp *
ib_umem_odp_get(struct ib_device *device, unsigned long addr, size_t size,
		int access, const struct mmu_interval_notifier_ops *ops)
{
	return ERR_PTR(-EINVAL);
}

static inline void ib_umem_odp_release(struct ib_umem_odp *umem_odp)
{
}

#endif /* CONFIG_INFINIBAND_ON_DEMAND_PAGING */

#endif /* IB_UMEM_ODP_H */
