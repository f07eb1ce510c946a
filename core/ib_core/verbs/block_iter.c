// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Walking a DMA-mapped scatterlist in blocks of a device page size
 * (rdma_for_each_block(), rdma_umem_for_each_dma_block()): drivers fill
 * their page tables with one address per block.
 */

#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/scatterlist.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

/**
 * __rdma_block_iter_start - set up a block walk of a scatterlist
 * @biter: the iterator
 * @sglist: the first DMA-mapped entry
 * @nents: how many DMA-mapped entries to walk
 * @pgsz: the block size, a power of two
 *
 * Use rdma_for_each_block() rather than calling this directly.
 *
 * Context: Any context; does not sleep.
 *
 * Return: nothing.
 */
void __rdma_block_iter_start(struct ib_block_iter *biter,
			     struct scatterlist *sglist, unsigned int nents,
			     unsigned long pgsz)
{
	*biter = (struct ib_block_iter) {
		.__sg = sglist,
		.__sg_nents = nents,
		.__pg_bit = __fls(pgsz),
	};
}
EXPORT_SYMBOL(__rdma_block_iter_start);

/**
 * __rdma_block_iter_next - step to the next block
 * @biter: the iterator
 *
 * The current block starts at @biter->__sg's DMA address plus
 * @biter->__sg_advance (rounded down to the block size by
 * rdma_block_iter_dma_address()).  The step consumes the rest of that
 * block: the entries ending inside it, and the part of the entry that
 * reaches past it.
 *
 * Context: Any context; does not sleep.
 *
 * Return: true when there is a current block, false when the walk ended.
 */
bool __rdma_block_iter_next(struct ib_block_iter *biter)
{
	u64 blksz = BIT_ULL(biter->__pg_bit);
	dma_addr_t left;

	if (!biter->__sg || !biter->__sg_nents)
		return false;

	biter->__dma_addr = sg_dma_address(biter->__sg) + biter->__sg_advance;
	/* bytes from the current address to the end of its block */
	left = blksz - (biter->__dma_addr & (blksz - 1));

	while (biter->__sg && biter->__sg_nents) {
		dma_addr_t rest = sg_dma_len(biter->__sg) -
				  biter->__sg_advance;

		if (rest > left)
			break;
		/* this entry ends inside the block: go to the next one */
		left -= rest;
		biter->__sg_advance = 0;
		biter->__sg = sg_next(biter->__sg);
		biter->__sg_nents--;
	}
	biter->__sg_advance += left;
	return true;
}
EXPORT_SYMBOL(__rdma_block_iter_next);
