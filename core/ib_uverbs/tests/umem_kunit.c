// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_umem": pinned user memory (core/ib_uverbs/umem.c) and
 * the DMA block iterator (core/ib_core/verbs/block_iter.c).
 *
 * The user memory is real: kunit_vm_mmap() gives the case's kthread an mm
 * and anonymous mappings in it, filled and read with copy_to_user() and
 * copy_from_user().  The device is a registered fake HCA, which has no DMA
 * device: its DMA addresses are kernel virtual addresses (virtual DMA), so
 * a case can read what a DMA block points at.  ib_umem_find_best_pgsz()
 * and the block walk are also checked on hand-made umems whose DMA
 * addresses the case chooses, so that every result is known in advance.
 *
 * Each case runs in a kthread of its own with a new mm, so
 * current->mm->pinned_vm starts at 0.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <kunit/rdma_umem.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/mman.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/uaccess.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

/* A registered fake HCA, destroyed when the case ends. */
static struct ib_device *umem_dev(struct kunit *test)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *hca;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kuumem%d";
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	KUNIT_ASSERT_TRUE(test, ib_uses_virt_dma(&hca->ibdev));
	return &hca->ibdev;
}

/* An anonymous private mapping of @len bytes in the case's mm. */
static s64 umem_pinned(void)
{
	return atomic64_read(&current->mm->pinned_vm);
}

/* Byte @i of the suite's pattern. */
static u8 umem_pattern(size_t i)
{
	return (u8)(i * 7 + (i >> 12) + 1);
}

/* Fill [addr, addr + len) from "user space" with the pattern. */
static void umem_fill(struct kunit *test, unsigned long addr, size_t len)
{
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < len; i++)
		buf[i] = umem_pattern(i);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)addr, buf, len), 0);
	kunit_kfree(test, buf);
}

static void umem_release_action(void *umem)
{
	ib_umem_release(umem);
}

/* ib_umem_get() that must succeed; released when the case ends. */
static struct ib_umem *umem_get(struct kunit *test, struct ib_device *dev,
				unsigned long addr, size_t len, int access)
{
	struct ib_umem *umem = ib_umem_get(dev, addr, len, access);

	KUNIT_ASSERT_EQ(test, PTR_ERR_OR_ZERO(umem), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							umem_release_action,
							umem), 0);
	return umem;
}

static void umem_put(struct kunit *test, struct ib_umem *umem)
{
	kunit_release_action(test, umem_release_action, umem);
}

/* ib_umem_get()'s error; a umem it returned anyway is released. */
static int umem_get_err(struct ib_device *dev, unsigned long addr,
			size_t len, int access)
{
	struct ib_umem *umem = ib_umem_get(dev, addr, len, access);

	if (IS_ERR(umem))
		return PTR_ERR(umem);
	ib_umem_release(umem);
	return 0;
}

/* One DMA-mapped entry of a hand-made umem. */
struct umem_seg {
	u64 dma;
	u32 len;
};

/*
 * A umem with no pages behind it: only what ib_umem_find_best_pgsz() and
 * the block walk read (address, length, iova and the DMA entries).  Never
 * given to ib_umem_release().
 */
static struct ib_umem *umem_fixture(struct kunit *test, unsigned long address,
				    size_t length, const struct umem_seg *segs,
				    unsigned int nsegs)
{
	struct ib_umem *umem = kunit_kzalloc(test, sizeof(*umem), GFP_KERNEL);
	struct scatterlist *sgl, *sg;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, umem);
	sgl = kunit_kcalloc(test, nsegs, sizeof(*sgl), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	sg_init_table(sgl, nsegs);
	for_each_sg(sgl, sg, nsegs, i) {
		sg->length = segs[i].len;
		sg_dma_address(sg) = segs[i].dma;
		sg_dma_len(sg) = segs[i].len;
	}
	umem->sgt_append.sgt.sgl = sgl;
	umem->sgt_append.sgt.nents = nsegs;
	umem->sgt_append.sgt.orig_nents = nsegs;
	umem->address = address;
	umem->iova = address;
	umem->length = length;
	return umem;
}

/*
 * Walk @umem in blocks of @pgsz and compare each block's DMA address with
 * @want (@nwant of them).
 */
static void umem_expect_blocks(struct kunit *test, struct ib_umem *umem,
			       unsigned long pgsz, const u64 *want,
			       size_t nwant)
{
	struct ib_block_iter biter;
	size_t n = 0;

	KUNIT_EXPECT_EQ(test, ib_umem_num_dma_blocks(umem, pgsz), nwant);
	rdma_umem_for_each_dma_block(umem, &biter, pgsz) {
		if (n < nwant)
			KUNIT_EXPECT_EQ_MSG(test,
					    (u64)rdma_block_iter_dma_address(&biter),
					    want[n], "block %zu of %lu bytes",
					    n, pgsz);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, nwant);
}

/* rdma_for_each_block() over all of @umem's DMA entries. */
static void umem_expect_sg_blocks(struct kunit *test, struct ib_umem *umem,
				  unsigned long pgsz, const u64 *want,
				  size_t nwant)
{
	struct ib_block_iter biter;
	size_t n = 0;

	rdma_for_each_block(umem->sgt_append.sgt.sgl, &biter,
			    umem->sgt_append.sgt.nents, pgsz) {
		if (n < nwant)
			KUNIT_EXPECT_EQ_MSG(test,
					    (u64)rdma_block_iter_dma_address(&biter),
					    want[n], "block %zu of %lu bytes",
					    n, pgsz);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, nwant);
}

/*
 * A four-page umem holds the pages of the mapping: what user space wrote
 * before and after ib_umem_get() is what ib_umem_copy_from() reads.
 */
static void umem_copy_pages(struct kunit *test)
{
	struct ib_device *dev = umem_dev(test);
	size_t len = 4 * PAGE_SIZE;
	unsigned long addr = kt_user_mmap(test, len, PROT_READ | PROT_WRITE);
	struct ib_umem *umem;
	u8 *buf;
	size_t i;

	buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	umem_fill(test, addr, len);

	umem = umem_get(test, dev, addr, len, IB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_PTR_EQ(test, umem->ibdev, dev);
	KUNIT_EXPECT_PTR_EQ(test, umem->owning_mm, current->mm);
	KUNIT_EXPECT_EQ(test, umem->address, addr);
	KUNIT_EXPECT_EQ(test, umem->iova, (u64)addr);
	KUNIT_EXPECT_EQ(test, umem->length, len);
	KUNIT_EXPECT_EQ(test, (u32)umem->writable, 1);
	KUNIT_EXPECT_EQ(test, (u32)umem->is_odp, 0);
	KUNIT_EXPECT_EQ(test, (u32)umem->is_dmabuf, 0);
	KUNIT_EXPECT_EQ(test, ib_umem_num_pages(umem), 4);
	KUNIT_EXPECT_EQ(test, ib_umem_offset(umem), 0);
	KUNIT_EXPECT_GE(test, umem->sgt_append.sgt.nents, 1);

	KUNIT_ASSERT_EQ(test, ib_umem_copy_from(buf, umem, 0, len), 0);
	for (i = 0; i < len; i++)
		if (buf[i] != umem_pattern(i))
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, len, "first wrong byte");

	/* a window crossing a page boundary */
	memset(buf, 0, len);
	KUNIT_ASSERT_EQ(test, ib_umem_copy_from(buf, umem, PAGE_SIZE - 10, 300),
			0);
	for (i = 0; i < 300; i++)
		if (buf[i] != umem_pattern(PAGE_SIZE - 10 + i))
			break;
	KUNIT_EXPECT_EQ(test, i, 300);

	/* user space writes again: the pinned pages are its pages */
	KUNIT_ASSERT_EQ(test, put_user((u8)0x5a,
				       (u8 __user *)(addr + 3 * PAGE_SIZE + 1)),
			0);
	KUNIT_ASSERT_EQ(test, ib_umem_copy_from(buf, umem, 3 * PAGE_SIZE, 2),
			0);
	KUNIT_EXPECT_EQ(test, buf[0], umem_pattern(3 * PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, buf[1], 0x5a);

	/* outside the umem */
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(buf, umem, 0, len + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(buf, umem, len, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(buf, umem, len + 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(buf, umem, 1, SIZE_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_umem_copy_from(buf, umem, len, 0), 0);
}

/* A umem starting and ending inside pages covers the pages it touches. */
static void umem_unaligned(struct kunit *test)
{
	struct ib_device *dev = umem_dev(test);
	unsigned long base = kt_user_mmap(test, 4 * PAGE_SIZE,
				       PROT_READ | PROT_WRITE);
	size_t len = 2 * PAGE_SIZE;
	struct ib_umem *umem;
	u8 *buf;
	size_t i;

	umem_fill(test, base, 4 * PAGE_SIZE);
	buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);

	/* 100 bytes into page 0, to 100 bytes into page 2: three pages */
	umem = umem_get(test, dev, base + 100, len, 0);
	KUNIT_EXPECT_EQ(test, ib_umem_offset(umem), 100);
	KUNIT_EXPECT_EQ(test, ib_umem_num_pages(umem), 3);
	KUNIT_EXPECT_EQ(test, ib_umem_num_dma_blocks(umem, PAGE_SIZE), 3);
	KUNIT_EXPECT_EQ(test, ib_umem_num_dma_blocks(umem, SZ_1K), 9);
	KUNIT_EXPECT_EQ(test, ib_umem_dma_offset(umem, PAGE_SIZE), 100);
	KUNIT_EXPECT_EQ(test, atomic64_read(&current->mm->pinned_vm), 3);
	KUNIT_ASSERT_EQ(test, ib_umem_copy_from(buf, umem, 0, len), 0);
	for (i = 0; i < len; i++)
		if (buf[i] != umem_pattern(100 + i))
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, len, "first wrong byte");
	umem_put(test, umem);

	/* two bytes across a page boundary: two pages */
	umem = umem_get(test, dev, base + PAGE_SIZE - 1, 2, 0);
	KUNIT_EXPECT_EQ(test, ib_umem_offset(umem), PAGE_SIZE - 1);
	KUNIT_EXPECT_EQ(test, ib_umem_num_pages(umem), 2);
	KUNIT_ASSERT_EQ(test, ib_umem_copy_from(buf, umem, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, buf[0], umem_pattern(PAGE_SIZE - 1));
	KUNIT_EXPECT_EQ(test, buf[1], umem_pattern(PAGE_SIZE));
	umem_put(test, umem);

	/* one byte: one page */
	umem = umem_get(test, dev, base + 3 * PAGE_SIZE + 5, 1, 0);
	KUNIT_EXPECT_EQ(test, ib_umem_num_pages(umem), 1);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 1);
	umem_put(test, umem);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 0);
}

/* Hand-made DMA layouts of the page-size and block-walk cases. */
/* two runs of 2 MiB, each 2 MiB aligned, not contiguous */
static const struct umem_seg split[] = {
	{ 0x40200000, SZ_2M }, { 0x40600000, SZ_2M },
};

/* one run of 2 MiB in two entries */
static const struct umem_seg joined[] = {
	{ 0x80000000, SZ_1M }, { 0x80100000, SZ_1M },
};

/*
 * ib_umem_find_best_pgsz() on hand-made umems: the page size follows the
 * agreement of IOVA and DMA address bits and the breaks in the DMA
 * addresses.
 */
static void umem_best_pgsz(struct kunit *test)
{
	/* the same, with a break in the middle (1 MiB aligned only) */
	static const struct umem_seg broken[] = {
		{ 0x80000000, SZ_1M }, { 0x80300000, SZ_1M },
	};
	const unsigned long all = SZ_4K | SZ_64K | SZ_2M | SZ_1G;
	const unsigned long va = 0x7f0000200000UL;
	const unsigned long va1g = 0x7f0040000000UL;
	struct ib_umem *umem;

	umem = umem_fixture(test, va, SZ_4M, split, ARRAY_SIZE(split));
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, all, va), SZ_2M);
	KUNIT_EXPECT_EQ(test, umem->iova, (u64)va);
	KUNIT_EXPECT_EQ(test, ib_umem_num_dma_blocks(umem, SZ_2M), 2);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_4K | SZ_64K, va),
			SZ_64K);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_4K, va), SZ_4K);
	/* pages of 1 GiB cannot follow a break at 2 MiB */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_1G, va), 0);
	/* an IOVA 4 KiB off the DMA addresses' 2 MiB alignment */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, all, va + SZ_4K),
			SZ_4K);
	KUNIT_EXPECT_EQ(test, umem->iova, (u64)(va + SZ_4K));
	KUNIT_EXPECT_EQ(test, ib_umem_num_dma_blocks(umem, SZ_4K), 1024);
	/* an IOVA one byte off: no page size can map it */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, all, va + 1), 0);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_4K, va + 1), 0);
	/* the range wraps at this IOVA */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, all, U64_MAX - SZ_1M),
			0);

	/* contiguous entries are one run: 2 MiB pages fit */
	umem = umem_fixture(test, va1g, SZ_2M, joined, ARRAY_SIZE(joined));
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, all, va1g), SZ_2M);
	/* 1 GiB would fit too, but 2 MiB already maps it in one page */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_2M | SZ_1G, va1g),
			SZ_2M);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_1G, va1g), SZ_1G);
	umem = umem_fixture(test, va1g, SZ_2M, broken, ARRAY_SIZE(broken));
	/* the break at 1 MiB of the IOVA allows 64 KiB pages, not 2 MiB */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, all, va1g), SZ_64K);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_2M | SZ_1G, va1g),
			0);
	/* an empty bitmap never fits */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, 0, va1g), 0);
}

/*
 * ib_umem_find_best_pgsz() and ib_umem_find_best_pgoff() on a pinned umem,
 * where the DMA addresses are those of the pinned pages.
 */
static void umem_best_pgsz_pinned(struct kunit *test)
{
	struct ib_device *dev = umem_dev(test);
	unsigned long base = kt_user_mmap(test, 4 * PAGE_SIZE,
				       PROT_READ | PROT_WRITE);
	struct ib_umem *umem;

	umem = umem_get(test, dev, base, 4 * PAGE_SIZE, IB_ACCESS_LOCAL_WRITE);
	/* a device with PAGE_SIZE only always gets it */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, PAGE_SIZE, base),
			PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_4K | SZ_2K, base),
			SZ_4K);
	/* smaller pages only: the largest of them */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_1K | SZ_512,
						     base + 0x10000),
			SZ_1K);
	/* IOVA and address differ in their page offset */
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_4K, base + 8), 0);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_4K | SZ_2K,
						     base + 8),
			0);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgsz(umem, SZ_4K | SZ_1K | 8,
						     base + SZ_1K + 8),
			8);
	umem_put(test, umem);

	/* 128 bytes in: an offset of GENMASK(11, 6) carries it */
	umem = umem_get(test, dev, base + 128, 200, 0);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgoff(umem, SZ_4K,
						      GENMASK(11, 6)),
			SZ_4K);
	KUNIT_EXPECT_EQ(test, umem->iova, 128);
	umem_put(test, umem);

	/* 100 bytes in: not 64-byte aligned, no page size fits */
	umem = umem_get(test, dev, base + 100, 200, 0);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgoff(umem, SZ_4K,
						      GENMASK(11, 6)),
			0);
	KUNIT_EXPECT_EQ(test, ib_umem_find_best_pgoff(umem, SZ_4K,
						      GENMASK(11, 0)),
			SZ_4K);
	KUNIT_EXPECT_EQ(test, umem->iova, 100);
}

/* rdma_umem_for_each_dma_block() on hand-made umems. */
static void umem_blocks_fixture(struct kunit *test)
{
	/* 0x100 into its first page, 0x3000 long: four pages */
	static const struct umem_seg pages[] = {
		{ 0x10000000, 2 * SZ_4K }, { 0x30000000, 2 * SZ_4K },
	};
	const unsigned long va = 0x7f0000200000UL;
	struct ib_umem *umem;
	u64 *want;
	size_t i;

	want = kunit_kcalloc(test, 64, sizeof(*want), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);

	umem = umem_fixture(test, va, SZ_4M, split, ARRAY_SIZE(split));
	want[0] = 0x40200000;
	want[1] = 0x40600000;
	umem_expect_blocks(test, umem, SZ_2M, want, 2);
	for (i = 0; i < 64; i++)
		want[i] = split[i / 32].dma + (i % 32) * SZ_64K;
	umem_expect_blocks(test, umem, SZ_64K, want, 64);

	/* two entries, one block */
	umem = umem_fixture(test, va, SZ_2M, joined, ARRAY_SIZE(joined));
	want[0] = 0x80000000;
	umem_expect_blocks(test, umem, SZ_2M, want, 1);
	want[1] = 0x80100000;
	umem_expect_blocks(test, umem, SZ_1M, want, 2);

	/* the first block is the one holding the first byte */
	umem = umem_fixture(test, 0x7f0000001100UL, 0x3000, pages,
			    ARRAY_SIZE(pages));
	for (i = 0; i < 4; i++)
		want[i] = pages[i / 2].dma + (i % 2) * SZ_4K;
	umem_expect_blocks(test, umem, SZ_4K, want, 4);
	/* 1 KiB blocks: from 0x1000 to 0x4400 of the IOVA, thirteen */
	for (i = 0; i < 13; i++)
		want[i] = i < 8 ? 0x10000000 + i * SZ_1K :
				  0x30000000 + (i - 8) * SZ_1K;
	umem_expect_blocks(test, umem, SZ_1K, want, 13);

	/* the plain walk of the scatterlist stops at its end */
	for (i = 0; i < 4; i++)
		want[i] = pages[i / 2].dma + (i % 2) * SZ_4K;
	umem_expect_sg_blocks(test, umem, SZ_4K, want, 4);
	want[0] = pages[0].dma;
	want[1] = pages[1].dma;
	umem_expect_sg_blocks(test, umem, SZ_8K, want, 2);
}

/*
 * rdma_umem_for_each_dma_block() on a pinned umem: each block is the page
 * user space wrote (virtual DMA: the address is the kernel's mapping).
 */
static void umem_blocks_pinned(struct kunit *test)
{
	struct ib_device *dev = umem_dev(test);
	unsigned long base = kt_user_mmap(test, 4 * PAGE_SIZE,
				       PROT_READ | PROT_WRITE);
	struct ib_block_iter biter;
	struct ib_umem *umem;
	size_t n = 0;
	int i;

	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test,
				put_user(0xb10c0000ULL + i,
					 (u64 __user *)(base + i * PAGE_SIZE)),
				0);

	/* pages 0 to 2 */
	umem = umem_get(test, dev, base + 100, 3 * PAGE_SIZE - 200, 0);
	KUNIT_ASSERT_EQ(test, ib_umem_num_dma_blocks(umem, PAGE_SIZE), 3);
	rdma_umem_for_each_dma_block(umem, &biter, PAGE_SIZE) {
		dma_addr_t dma = rdma_block_iter_dma_address(&biter);

		KUNIT_EXPECT_TRUE(test, PAGE_ALIGNED(dma));
		if (n < 3 && PAGE_ALIGNED(dma))
			KUNIT_EXPECT_EQ_MSG(test, *(u64 *)ib_virt_dma_to_ptr(dma),
					    0xb10c0000ULL + n, "block %zu", n);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 3);
	umem_put(test, umem);

	/* pages 1 to 3 in 1 KiB blocks: the first and last of each page */
	umem = umem_get(test, dev, base + PAGE_SIZE, 3 * PAGE_SIZE, 0);
	n = 0;
	rdma_umem_for_each_dma_block(umem, &biter, SZ_1K) {
		dma_addr_t dma = rdma_block_iter_dma_address(&biter);

		if (n % (PAGE_SIZE / SZ_1K) == 0 && n < 3 * PAGE_SIZE / SZ_1K)
			KUNIT_EXPECT_EQ_MSG(test, *(u64 *)ib_virt_dma_to_ptr(dma),
					    0xb10c0001ULL +
					    n / (PAGE_SIZE / SZ_1K),
					    "block %zu", n);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 3 * PAGE_SIZE / SZ_1K);
}

/*
 * Read-only access pins a read-only mapping; any access that lets the
 * device write (ib_access_writable()) needs writable pages and fails
 * there with -EFAULT, as pin_user_pages_fast() gives.
 */
static void umem_access(struct kunit *test)
{
	static const int writes[] = {
		IB_ACCESS_LOCAL_WRITE, IB_ACCESS_REMOTE_WRITE,
		IB_ACCESS_REMOTE_ATOMIC, IB_ACCESS_MW_BIND,
	};
	struct ib_device *dev = umem_dev(test);
	unsigned long ro = kt_user_mmap(test, 2 * PAGE_SIZE, PROT_READ);
	unsigned long rw = kt_user_mmap(test, 2 * PAGE_SIZE,
				     PROT_READ | PROT_WRITE);
	struct ib_umem *umem;
	u8 buf[16];
	unsigned int i;

	umem = umem_get(test, dev, ro, 2 * PAGE_SIZE,
			IB_ACCESS_REMOTE_READ);
	KUNIT_EXPECT_EQ(test, (u32)umem->writable, 0);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 2);
	memset(buf, 0xff, sizeof(buf));
	KUNIT_ASSERT_EQ(test, ib_umem_copy_from(buf, umem, PAGE_SIZE,
						sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, buf[0], 0);
	KUNIT_EXPECT_EQ(test, buf[15], 0);
	/* a re-registration cannot make it writable without new pages */
	KUNIT_EXPECT_EQ(test, ib_umem_check_rereg(umem, IB_MR_REREG_ACCESS,
						  IB_ACCESS_LOCAL_WRITE),
			-EACCES);
	KUNIT_EXPECT_EQ(test, ib_umem_check_rereg(umem, IB_MR_REREG_ACCESS |
						  IB_MR_REREG_TRANS,
						  IB_ACCESS_LOCAL_WRITE),
			0);
	KUNIT_EXPECT_EQ(test, ib_umem_check_rereg(umem, IB_MR_REREG_ACCESS,
						  IB_ACCESS_REMOTE_READ),
			0);
	KUNIT_EXPECT_EQ(test, ib_umem_check_rereg(NULL, IB_MR_REREG_ACCESS,
						  IB_ACCESS_LOCAL_WRITE),
			0);
	umem_put(test, umem);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 0);

	for (i = 0; i < ARRAY_SIZE(writes); i++) {
		KUNIT_EXPECT_EQ_MSG(test, umem_get_err(dev, ro, PAGE_SIZE,
						       writes[i]),
				    -EFAULT, "access %#x", writes[i]);
		/* nothing stays charged */
		KUNIT_EXPECT_EQ(test, umem_pinned(), 0);

		umem = umem_get(test, dev, rw, 2 * PAGE_SIZE, writes[i]);
		KUNIT_EXPECT_EQ(test, (u32)umem->writable, 1);
		umem_put(test, umem);
	}

	/* on-demand paging is not for ib_umem_get() */
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, rw, PAGE_SIZE,
					   IB_ACCESS_ON_DEMAND),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 0);
}

/* Ranges ib_umem_get() refuses, and addresses with nothing mapped. */
static void umem_bad_ranges(struct kunit *test)
{
	struct ib_device *dev = umem_dev(test);
	unsigned long base = kt_user_mmap(test, 3 * PAGE_SIZE,
				       PROT_READ | PROT_WRITE);

	/* no page at all */
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, base, 0, 0), -EINVAL);
	/* as upstream: nothing inside a page still covers that page */
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, base + 100, 0, 0), 0);
	/* the end wraps */
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, base, ULONG_MAX, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, base, -base, 0), -EINVAL);
	/* the end does not wrap, its page-rounded end does */
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, ULONG_MAX - 100, 50, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 0);

	/* take the last page away: a range reaching it cannot be pinned */
	KUNIT_ASSERT_EQ(test, vm_munmap(base + 2 * PAGE_SIZE, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, base + 2 * PAGE_SIZE, 10, 0),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, base, 3 * PAGE_SIZE,
					   IB_ACCESS_LOCAL_WRITE),
			-EFAULT);
	/* the first two pages were pinned, and given back */
	KUNIT_EXPECT_EQ(test, umem_pinned(), 0);
	/* the rest still works */
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, base, 2 * PAGE_SIZE,
					   IB_ACCESS_LOCAL_WRITE),
			0);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 0);
}

/* Every umem charges its pages to pinned_vm until it is released. */
static void umem_accounting(struct kunit *test)
{
	struct ib_device *dev = umem_dev(test);
	unsigned long base = kt_user_mmap(test, 8 * PAGE_SIZE,
				       PROT_READ | PROT_WRITE);
	struct ib_umem *a, *b;

	KUNIT_EXPECT_EQ(test, umem_pinned(), 0);
	a = umem_get(test, dev, base, 5 * PAGE_SIZE, IB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 5);
	/* overlapping pages are charged again */
	b = umem_get(test, dev, base + 2 * PAGE_SIZE + 1, 2 * PAGE_SIZE, 0);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 8);
	umem_put(test, a);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 3);
	umem_put(test, b);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 0);
}

static void umem_set_memlock(unsigned long bytes)
{
	task_lock(current->group_leader);
	current->signal->rlim[RLIMIT_MEMLOCK].rlim_cur = bytes;
	task_unlock(current->group_leader);
}

/*
 * RLIMIT_MEMLOCK bounds pinned_vm for a caller without CAP_IPC_LOCK; with
 * it the limit does not apply.  The case's kthread has a signal_struct
 * (and so rlimits) of its own; its credentials are overridden only
 * between override_creds() and revert_creds(), where no assertion may end
 * the case.
 */
static void umem_memlock(struct kunit *test)
{
	struct ib_device *dev = umem_dev(test);
	unsigned long base = kt_user_mmap(test, 4 * PAGE_SIZE,
				       PROT_READ | PROT_WRITE);
	unsigned long saved = rlimit(RLIMIT_MEMLOCK);
	const struct cred *old;
	struct ib_umem *umem;
	struct cred *cred;

	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_lower(cred->cap_effective, CAP_IPC_LOCK);

	umem_set_memlock(2 * PAGE_SIZE);
	old = override_creds(cred);

	KUNIT_EXPECT_FALSE(test, capable(CAP_IPC_LOCK));
	/* up to the limit */
	umem = ib_umem_get(dev, base, 2 * PAGE_SIZE, IB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(umem), 0);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 2);
	/* one page over it */
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, base + 2 * PAGE_SIZE, 1, 0),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 2);
	if (!IS_ERR(umem))
		ib_umem_release(umem);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 0);
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, base, 3 * PAGE_SIZE, 0),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 0);
	/* no locked memory at all: refused before anything is charged */
	umem_set_memlock(0);
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, base, PAGE_SIZE, 0), -EPERM);

	revert_creds(old);
	put_cred(cred);

	/* with CAP_IPC_LOCK back, neither limit applies */
	KUNIT_EXPECT_TRUE(test, capable(CAP_IPC_LOCK));
	KUNIT_EXPECT_EQ(test, umem_get_err(dev, base, PAGE_SIZE, 0), 0);
	umem_set_memlock(2 * PAGE_SIZE);
	umem = umem_get(test, dev, base, 4 * PAGE_SIZE, 0);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 4);
	umem_put(test, umem);
	KUNIT_EXPECT_EQ(test, umem_pinned(), 0);
	umem_set_memlock(saved);
}

static struct kunit_case rdma_umem_cases[] = {
	KUNIT_CASE(umem_copy_pages),
	KUNIT_CASE(umem_unaligned),
	KUNIT_CASE(umem_best_pgsz),
	KUNIT_CASE(umem_best_pgsz_pinned),
	KUNIT_CASE(umem_blocks_fixture),
	KUNIT_CASE(umem_blocks_pinned),
	KUNIT_CASE(umem_access),
	KUNIT_CASE(umem_bad_ranges),
	KUNIT_CASE(umem_accounting),
	KUNIT_CASE(umem_memlock),
	{}
};

static struct kunit_suite rdma_umem_suite = {
	.name = "rdma_umem",
	.test_cases = rdma_umem_cases,
};

kunit_test_suite(rdma_umem_suite);

MODULE_DESCRIPTION("KUnit suite rdma_umem: pinned user memory");
MODULE_LICENSE("Dual BSD/GPL");
