/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * umem: user memory pinned (or imported from a dma-buf) and DMA-mapped for
 * a device, as drivers use it for user MRs, CQs, QPs and SRQs.  The code is
 * in core/ib_uverbs/umem.c and umem_dmabuf.c (module ib_uverbs);
 * Documentation/core/umem.rst tells the rules.
 */
#ifndef IB_UMEM_H
#define IB_UMEM_H

#include <linux/list.h>
#include <linux/scatterlist.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

struct ib_ucontext;
struct ib_umem_odp;
struct dma_buf_attach_ops;

/**
 * struct ib_umem - a range of user memory mapped for a device
 * @ibdev: the device the pages are DMA-mapped for
 * @owning_mm: the mm the pages were pinned from (held with mmgrab()),
 *	whose pinned_vm is charged
 * @iova: the I/O virtual address the driver maps the first byte at; set
 *	to @address by ib_umem_get() and by ib_umem_find_best_pgsz()
 * @length: length in bytes
 * @address: user virtual address of the first byte (for a dma-buf, the
 *	offset into the buffer)
 * @writable: the pages were pinned for writing
 * @is_odp: on-demand paging umem (struct ib_umem_odp)
 * @is_dmabuf: dma-buf umem (struct ib_umem_dmabuf)
 * @sgt_append: the pages; @sgt_append.sgt.nents DMA-mapped entries, the
 *	first starting at the page holding @address
 */
struct ib_umem {
	struct ib_device	*ibdev;
	struct mm_struct	*owning_mm;
	u64			iova;
	size_t			length;
	unsigned long		address;
	u32			writable : 1;
	u32			is_odp : 1;
	u32			is_dmabuf : 1;
	struct sg_append_table	sgt_append;
};

/**
 * struct ib_umem_dmabuf - a umem imported from a dma-buf
 * @umem: the umem; its sgt_append.sgt points into @sgt while mapped
 * @attach: the dma-buf attachment
 * @sgt: the exporter's mapping, NULL while unmapped
 * @first_sg: the entry of @sgt holding the first page of the umem
 * @last_sg: the entry of @sgt holding the last page of the umem
 * @first_sg_offset: bytes cut from the front of @first_sg
 * @last_sg_trim: bytes cut from the end of @last_sg
 * @pinned_revoke: driver callback run when a revocable pinned umem is
 *	revoked
 * @private: argument of @pinned_revoke
 * @pinned: the attachment is pinned (dma_buf_pin())
 * @revoked: the exporter took the memory back: the umem maps nothing
 */
struct ib_umem_dmabuf {
	struct ib_umem umem;
	struct dma_buf_attachment *attach;
	struct sg_table *sgt;
	struct scatterlist *first_sg;
	struct scatterlist *last_sg;
	unsigned long first_sg_offset;
	unsigned long last_sg_trim;
	void (*pinned_revoke)(void *priv);
	void *private;
	u8 pinned : 1;
	u8 revoked : 1;
};

static inline struct ib_umem_dmabuf *to_ib_umem_dmabuf(struct ib_umem *umem)
{
	return container_of(umem, struct ib_umem_dmabuf, umem);
}

/* Where in its first page the umem starts. */
static inline int ib_umem_offset(struct ib_umem *umem)
{
	return umem->address & ~PAGE_MASK;
}

/* The offset of the umem's first byte in a block of @pgsz bytes. */
static inline unsigned long ib_umem_dma_offset(struct ib_umem *umem,
					       unsigned long pgsz)
{
	dma_addr_t first = sg_dma_address(umem->sgt_append.sgt.sgl) +
			   ib_umem_offset(umem);

	return first & (pgsz - 1);
}

/*
 * How many blocks of @pgsz bytes cover the umem at its IOVA: from the
 * block holding the first byte to the block holding the last.
 */
static inline size_t ib_umem_num_dma_blocks(struct ib_umem *umem,
					    unsigned long pgsz)
{
	u64 first = ALIGN_DOWN(umem->iova, pgsz);
	u64 end = ALIGN(umem->iova + umem->length, pgsz);

	return (size_t)((end - first) / pgsz);
}

/* How many CPU pages the umem covers. */
static inline size_t ib_umem_num_pages(struct ib_umem *umem)
{
	return ib_umem_num_dma_blocks(umem, PAGE_SIZE);
}

static inline void __rdma_umem_block_iter_start(struct ib_block_iter *biter,
						struct ib_umem *umem,
						unsigned long pgsz)
{
	__rdma_block_iter_start(biter, umem->sgt_append.sgt.sgl,
				umem->sgt_append.sgt.nents, pgsz);
	/* skip the whole blocks of the first page before the umem */
	biter->__sg_advance = ib_umem_offset(umem) & ~(pgsz - 1);
	biter->__sg_numblocks = ib_umem_num_dma_blocks(umem, pgsz);
}

static inline bool __rdma_umem_block_iter_next(struct ib_block_iter *biter)
{
	return __rdma_block_iter_next(biter) && biter->__sg_numblocks--;
}

/**
 * rdma_umem_for_each_dma_block - walk a umem in DMA blocks
 * @umem: the umem
 * @biter: a struct ib_block_iter, read with rdma_block_iter_dma_address()
 * @pgsz: the block size: PAGE_SIZE or less, or what
 *	ib_umem_find_best_pgsz() returned
 *
 * Visits exactly ib_umem_num_dma_blocks(@umem, @pgsz) blocks, each aligned
 * to @pgsz, from the one holding the umem's first byte.
 */
#define rdma_umem_for_each_dma_block(umem, biter, pgsz)			\
	for (__rdma_umem_block_iter_start(biter, umem, pgsz);		\
	     __rdma_umem_block_iter_next(biter);)

#ifdef CONFIG_INFINIBAND_USER_MEM

struct ib_umem *ib_umem_get(struct ib_device *device, unsigned long addr,
			    size_t size, int access);
void ib_umem_release(struct ib_umem *umem);
int ib_umem_copy_from(void *dst, struct ib_umem *umem, size_t offset,
		      size_t length);
unsigned long ib_umem_find_best_pgsz(struct ib_umem *umem,
				     unsigned long pgsz_bitmap,
				     u64 virt);

/**
 * ib_umem_find_best_pgoff - largest usable page size given an offset mask
 * @umem: the umem
 * @pgsz_bitmap: the page sizes the hardware supports
 * @pgoff_bitmask: the address bits the hardware can express as an offset
 *	into the first page (e.g. GENMASK(11, 6) for a device that takes
 *	64-byte aligned offsets up to 4032)
 *
 * As ib_umem_find_best_pgsz(), with the IOVA made of the bits of the
 * umem's first DMA address that @pgoff_bitmask keeps.
 *
 * Context: Process or atomic context; does not sleep.
 *
 * Return: the page size, or 0 when no size of @pgsz_bitmap fits (the
 * start needs a finer alignment or a larger page size than offered).
 */
static inline unsigned long ib_umem_find_best_pgoff(struct ib_umem *umem,
						    unsigned long pgsz_bitmap,
						    u64 pgoff_bitmask)
{
	dma_addr_t first = sg_dma_address(umem->sgt_append.sgt.sgl) +
			   ib_umem_offset(umem);

	return ib_umem_find_best_pgsz(umem, pgsz_bitmap,
				      first & pgoff_bitmask);
}

struct ib_umem_dmabuf *ib_umem_dmabuf_get(struct ib_device *device,
					  unsigned long offset, size_t size,
					  int fd, int access,
					  const struct dma_buf_attach_ops *ops);
struct ib_umem_dmabuf *ib_umem_dmabuf_get_pinned(struct ib_device *device,
						 unsigned long offset,
						 size_t size, int fd,
						 int access);
struct ib_umem_dmabuf *
ib_umem_dmabuf_get_pinned_revocable_and_lock(struct ib_device *device,
					     unsigned long offset, size_t size,
					     int fd, int access);
void ib_umem_dmabuf_set_revoke_locked(struct ib_umem_dmabuf *umem_dmabuf,
				      void (*revoke)(void *priv), void *priv);
struct ib_umem_dmabuf *
ib_umem_dmabuf_get_pinned_with_dma_device(struct ib_device *device,
					  struct device *dma_device,
					  unsigned long offset, size_t size,
					  int fd, int access);
int ib_umem_dmabuf_map_pages(struct ib_umem_dmabuf *umem_dmabuf);
void ib_umem_dmabuf_unmap_pages(struct ib_umem_dmabuf *umem_dmabuf);
void ib_umem_dmabuf_release(struct ib_umem_dmabuf *umem_dmabuf);
void ib_umem_dmabuf_revoke_lock(struct ib_umem_dmabuf *umem_dmabuf);
void ib_umem_dmabuf_revoke_unlock(struct ib_umem_dmabuf *umem_dmabuf);
void ib_umem_dmabuf_revoke(struct ib_umem_dmabuf *umem_dmabuf);

int ib_umem_check_rereg(struct ib_umem *umem, int flags, int new_access_flags);

#else /* CONFIG_INFINIBAND_USER_MEM */

#include <linux/err.h>

static inline struct ib_umem *ib_umem_get(struct ib_device *device,
					  unsigned long addr, size_t size,
					  int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void ib_umem_release(struct ib_umem *umem) { }

static inline int ib_umem_copy_from(void *dst, struct ib_umem *umem,
				    size_t offset, size_t length)
{
	return -EOPNOTSUPP;
}

static inline unsigned long ib_umem_find_best_pgsz(struct ib_umem *umem,
						   unsigned long pgsz_bitmap,
						   u64 virt)
{
	return 0;
}

static inline unsigned long ib_umem_find_best_pgoff(struct ib_umem *umem,
						    unsigned long pgsz_bitmap,
						    u64 pgoff_bitmask)
{
	return 0;
}

static inline
struct ib_umem_dmabuf *ib_umem_dmabuf_get(struct ib_device *device,
					  unsigned long offset,
					  size_t size, int fd,
					  int access,
					  struct dma_buf_attach_ops *ops)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline struct ib_umem_dmabuf *
ib_umem_dmabuf_get_pinned(struct ib_device *device, unsigned long offset,
			  size_t size, int fd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline struct ib_umem_dmabuf *
ib_umem_dmabuf_get_pinned_revocable_and_lock(struct ib_device *device,
					     unsigned long offset, size_t size,
					     int fd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void
ib_umem_dmabuf_set_revoke_locked(struct ib_umem_dmabuf *umem_dmabuf,
				 void (*revoke)(void *priv), void *priv) { }

static inline struct ib_umem_dmabuf *
ib_umem_dmabuf_get_pinned_with_dma_device(struct ib_device *device,
					  struct device *dma_device,
					  unsigned long offset, size_t size,
					  int fd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline int ib_umem_dmabuf_map_pages(struct ib_umem_dmabuf *umem_dmabuf)
{
	return -EOPNOTSUPP;
}

static inline void
ib_umem_dmabuf_unmap_pages(struct ib_umem_dmabuf *umem_dmabuf) { }

static inline void
ib_umem_dmabuf_release(struct ib_umem_dmabuf *umem_dmabuf) { }

static inline void
ib_umem_dmabuf_revoke_lock(struct ib_umem_dmabuf *umem_dmabuf) { }

static inline void
ib_umem_dmabuf_revoke_unlock(struct ib_umem_dmabuf *umem_dmabuf) { }

static inline void ib_umem_dmabuf_revoke(struct ib_umem_dmabuf *umem_dmabuf) { }

static inline int ib_umem_check_rereg(struct ib_umem *umem, int flags,
				      int new_access_flags)
{
	return -EOPNOTSUPP;
}

#endif /* CONFIG_INFINIBAND_USER_MEM */
#endif /* IB_UMEM_H */
