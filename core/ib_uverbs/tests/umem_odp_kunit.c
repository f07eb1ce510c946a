// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_umem_odp": on-demand paging umem
 * (core/ib_uverbs/umem_odp.c).
 *
 * The memory is real: kunit_vm_mmap() gives the case's kthread an mm and
 * anonymous mappings in it.  The device is a registered fake HCA with
 * virtual DMA, so a mapped entry is the kernel address of the page and a
 * case reads through it what "user space" wrote.  The notifier's ops are
 * the suite's: they do what a driver's invalidate must (umem_mutex,
 * mmu_interval_set_seq(), unmap the range) and count their calls, so a
 * case sees which changes of the page tables reached the umem.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <kunit/rdma_umem.h>
#include <linux/err.h>
#include <linux/mman.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/uaccess.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_umem_odp.h>
#include <rdma/ib_verbs.h>

#define ODP_ACC (IB_ACCESS_ON_DEMAND | IB_ACCESS_LOCAL_WRITE)
#define ODP_RW	(ODP_READ_ALLOWED_BIT | ODP_WRITE_ALLOWED_BIT)

/* invalidations the suite's ops saw, and the last range */
static int odp_invalidations;
static unsigned long odp_inval_start, odp_inval_end;

static bool odp_invalidate(struct mmu_interval_notifier *mni,
			   const struct mmu_notifier_range *range,
			   unsigned long cur_seq)
{
	struct ib_umem_odp *odp =
		container_of(mni, struct ib_umem_odp, notifier);

	if (!mmu_notifier_range_blockable(range))
		return false;
	mutex_lock(&odp->umem_mutex);
	mmu_interval_set_seq(mni, cur_seq);
	odp_invalidations++;
	odp_inval_start = range->start;
	odp_inval_end = range->end;
	ib_umem_odp_unmap_dma_pages(odp, range->start, range->end);
	mutex_unlock(&odp->umem_mutex);
	return true;
}

static const struct mmu_interval_notifier_ops odp_ops = {
	.invalidate = odp_invalidate,
};

static struct ib_device *odp_dev(struct kunit *test)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *hca;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kuodp%d";
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	KUNIT_ASSERT_TRUE(test, ib_uses_virt_dma(&hca->ibdev));
	odp_invalidations = 0;
	return &hca->ibdev;
}

static void odp_release_action(void *odp)
{
	ib_umem_odp_release(odp);
}

static struct ib_umem_odp *odp_get(struct kunit *test, struct ib_device *dev,
				   unsigned long addr, size_t len, int access)
{
	struct ib_umem_odp *odp = ib_umem_odp_get(dev, addr, len, access,
						  &odp_ops);

	KUNIT_ASSERT_EQ(test, PTR_ERR_OR_ZERO(odp), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							odp_release_action,
							odp), 0);
	return odp;
}

/* the kernel address of dma_list entry @idx (virtual DMA) */
static u8 *odp_kva(struct ib_umem_odp *odp, unsigned int idx)
{
	return (u8 *)(uintptr_t)(odp->dma_list[idx] & ODP_DMA_ADDR_MASK);
}

/* A umem over 4 pages, nothing mapped; refusals of the range and rights. */
static void odp_get_and_refusals(struct kunit *test)
{
	struct ib_device *dev = odp_dev(test);
	unsigned long addr = kt_user_mmap(test, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_umem_odp *odp;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_umem_odp_get(dev, addr, PAGE_SIZE,
						      IB_ACCESS_LOCAL_WRITE,
						      &odp_ops)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_umem_odp_get(dev, -PAGE_SIZE,
						      2 * PAGE_SIZE, ODP_ACC,
						      &odp_ops)), -EOVERFLOW);
	/* a range not on page boundaries covers the pages it touches */
	odp = odp_get(test, dev, addr + 100, 3 * PAGE_SIZE, ODP_ACC);
	KUNIT_EXPECT_TRUE(test, odp->umem.is_odp);
	KUNIT_EXPECT_TRUE(test, odp->umem.writable);
	KUNIT_EXPECT_EQ(test, ib_umem_start(odp), addr);
	KUNIT_EXPECT_EQ(test, ib_umem_end(odp), addr + 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ib_umem_odp_num_pages(odp), 4);
	KUNIT_EXPECT_EQ(test, odp->npages, 0);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, odp->dma_list[i], 0);

	KUNIT_EXPECT_EQ(test, ib_umem_odp_map_dma_and_lock(odp, addr, 8, 0,
							   true), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_umem_odp_map_dma_and_lock(odp,
							   addr - PAGE_SIZE,
							   8, ODP_RW, true),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, ib_umem_odp_map_dma_and_lock(odp,
							   addr + 3 * PAGE_SIZE,
							   PAGE_SIZE + 1,
							   ODP_RW, true),
			-EFAULT);
	/* nothing was left locked by the refusals */
	KUNIT_EXPECT_TRUE(test, mutex_trylock(&odp->umem_mutex));
	mutex_unlock(&odp->umem_mutex);
}

/* Faulting in maps the pages the range covers; the device reads them. */
static void odp_fault_maps(struct kunit *test)
{
	struct ib_device *dev = odp_dev(test);
	unsigned long addr = kt_user_mmap(test, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_umem_odp *odp = odp_get(test, dev, addr, 4 * PAGE_SIZE,
					  ODP_ACC);
	static const char msg[] = "paged in on demand";
	int ret;

	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)(addr + PAGE_SIZE + 8),
					   msg, sizeof(msg)), 0);
	/* bytes in pages 1 and 2: both mapped, nothing else */
	ret = ib_umem_odp_map_dma_and_lock(odp, addr + PAGE_SIZE + 8,
					   PAGE_SIZE, ODP_RW, true);
	KUNIT_ASSERT_EQ(test, ret, 2);
	mutex_unlock(&odp->umem_mutex);
	KUNIT_EXPECT_EQ(test, odp->npages, 2);
	KUNIT_EXPECT_EQ(test, odp->dma_list[0], 0);
	KUNIT_EXPECT_EQ(test, odp->dma_list[3], 0);
	KUNIT_EXPECT_EQ(test, odp->dma_list[1] & ~ODP_DMA_ADDR_MASK, ODP_RW);
	KUNIT_EXPECT_EQ(test, odp->dma_list[2] & ~ODP_DMA_ADDR_MASK, ODP_RW);
	KUNIT_EXPECT_MEMEQ(test, odp_kva(odp, 1) + 8, msg, sizeof(msg));

	/* the device writes, user space reads it */
	memcpy(odp_kva(odp, 2), "dev", 4);
	{
		char got[4];

		KUNIT_ASSERT_EQ(test, copy_from_user(got,
						     (void __user *)(addr + 2 * PAGE_SIZE),
						     4), 0);
		KUNIT_EXPECT_STREQ(test, got, "dev");
	}
	/* mapping again maps nothing new */
	KUNIT_ASSERT_EQ(test, ib_umem_odp_map_dma_and_lock(odp, addr,
							   4 * PAGE_SIZE,
							   ODP_READ_ALLOWED_BIT,
							   true), 4);
	mutex_unlock(&odp->umem_mutex);
	KUNIT_EXPECT_EQ(test, odp->npages, 4);
	/* no page table changed under it */
	KUNIT_EXPECT_EQ(test, odp_invalidations, 0);
}

/* Without faulting only the pages present map. */
static void odp_nofault_maps_present(struct kunit *test)
{
	struct ib_device *dev = odp_dev(test);
	unsigned long addr = kt_user_mmap(test, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_umem_odp *odp = odp_get(test, dev, addr, 4 * PAGE_SIZE,
					  ODP_ACC);
	u8 one = 1;

	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)(addr + 2 * PAGE_SIZE),
					   &one, 1), 0);
	KUNIT_ASSERT_EQ(test, ib_umem_odp_map_dma_and_lock(odp, addr,
							   4 * PAGE_SIZE,
							   ODP_RW, false), 4);
	mutex_unlock(&odp->umem_mutex);
	KUNIT_EXPECT_EQ(test, odp->npages, 1);
	KUNIT_EXPECT_EQ(test, odp->dma_list[0], 0);
	KUNIT_EXPECT_EQ(test, odp->dma_list[2] & ~ODP_DMA_ADDR_MASK, ODP_RW);
	KUNIT_EXPECT_EQ(test, odp_kva(odp, 2)[0], 1);
}

/*
 * A page the process unmaps reaches the driver's invalidate, which
 * unmaps it for the device; the others stay.  The hole cannot be
 * faulted in; a page written again maps anew.
 */
static void odp_invalidate_unmaps(struct kunit *test)
{
	struct ib_device *dev = odp_dev(test);
	unsigned long addr = kt_user_mmap(test, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_umem_odp *odp = odp_get(test, dev, addr, 4 * PAGE_SIZE,
					  ODP_ACC);
	u8 v = 7;

	KUNIT_ASSERT_EQ(test, ib_umem_odp_map_dma_and_lock(odp, addr,
							   4 * PAGE_SIZE,
							   ODP_RW, true), 4);
	mutex_unlock(&odp->umem_mutex);
	KUNIT_ASSERT_EQ(test, odp->npages, 4);

	/* page 1 goes from the process */
	KUNIT_ASSERT_EQ(test, vm_munmap(addr + PAGE_SIZE, PAGE_SIZE), 0);
	KUNIT_EXPECT_GE(test, odp_invalidations, 1);
	KUNIT_EXPECT_LE(test, odp_inval_start, addr + PAGE_SIZE);
	KUNIT_EXPECT_GE(test, odp_inval_end, addr + 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, odp->dma_list[1], 0);
	KUNIT_EXPECT_NE(test, odp->dma_list[0], 0);
	KUNIT_EXPECT_NE(test, odp->dma_list[2], 0);
	KUNIT_EXPECT_EQ(test, odp->npages, 3);
	KUNIT_EXPECT_EQ(test, ib_umem_odp_map_dma_and_lock(odp, addr + PAGE_SIZE,
							   8, ODP_RW, true),
			-EFAULT);

	/* page 3 unmapped, mapped again and written: a new page */
	KUNIT_ASSERT_EQ(test, vm_munmap(addr + 3 * PAGE_SIZE, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, odp->dma_list[3], 0);
	KUNIT_ASSERT_EQ(test, vm_mmap(NULL, addr + 3 * PAGE_SIZE, PAGE_SIZE,
				      PROT_READ | PROT_WRITE,
				      MAP_ANONYMOUS | MAP_PRIVATE | MAP_FIXED,
				      0), addr + 3 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)(addr + 3 * PAGE_SIZE),
					   &v, 1), 0);
	KUNIT_ASSERT_EQ(test, ib_umem_odp_map_dma_and_lock(odp,
							   addr + 3 * PAGE_SIZE,
							   1, ODP_RW, true), 1);
	mutex_unlock(&odp->umem_mutex);
	KUNIT_EXPECT_EQ(test, odp_kva(odp, 3)[0], 7);
	KUNIT_EXPECT_EQ(test, odp->npages, 3);
}

/* A read-only mapping that becomes writable keeps its page, gains the right. */
static void odp_rights_resync(struct kunit *test)
{
	struct ib_device *dev = odp_dev(test);
	unsigned long addr = kt_user_mmap(test, PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_umem_odp *odp = odp_get(test, dev, addr, PAGE_SIZE, ODP_ACC);
	u8 v = 3;
	dma_addr_t before;

	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)addr, &v, 1), 0);
	KUNIT_ASSERT_EQ(test, ib_umem_odp_map_dma_and_lock(odp, addr, 1,
							   ODP_READ_ALLOWED_BIT,
							   true), 1);
	mutex_unlock(&odp->umem_mutex);
	before = odp->dma_list[0];
	KUNIT_EXPECT_EQ(test, before & ~ODP_DMA_ADDR_MASK,
			ODP_READ_ALLOWED_BIT);
	KUNIT_ASSERT_EQ(test, ib_umem_odp_map_dma_and_lock(odp, addr, 1,
							   ODP_RW, true), 1);
	mutex_unlock(&odp->umem_mutex);
	KUNIT_EXPECT_EQ(test, odp->dma_list[0], (before & ODP_DMA_ADDR_MASK) |
			ODP_RW);
	KUNIT_EXPECT_EQ(test, odp->npages, 1);
}

/* A write fault on read-only memory is refused; read works. */
static void odp_readonly_memory(struct kunit *test)
{
	struct ib_device *dev = odp_dev(test);
	unsigned long addr = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ,
					   MAP_ANONYMOUS | MAP_PRIVATE, 0);
	struct ib_umem_odp *odp;

	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(addr) || !addr);
	odp = odp_get(test, dev, addr, PAGE_SIZE, IB_ACCESS_ON_DEMAND);
	KUNIT_EXPECT_FALSE(test, odp->umem.writable);
	KUNIT_EXPECT_EQ(test, ib_umem_odp_map_dma_and_lock(odp, addr, 1,
							   ODP_RW, true),
			-EFAULT);
	KUNIT_ASSERT_EQ(test, ib_umem_odp_map_dma_and_lock(odp, addr, 1,
							   ODP_READ_ALLOWED_BIT,
							   true), 1);
	mutex_unlock(&odp->umem_mutex);
	KUNIT_EXPECT_EQ(test, odp->dma_list[0] & ~ODP_DMA_ADDR_MASK,
			ODP_READ_ALLOWED_BIT);
	KUNIT_EXPECT_EQ(test, odp_kva(odp, 0)[0], 0);
}

/* An implicit umem maps nothing; its children map their ranges. */
static void odp_implicit_children(struct kunit *test)
{
	struct ib_device *dev = odp_dev(test);
	unsigned long addr = kt_user_mmap(test, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_umem_odp *root, *child;
	u8 v = 9;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_umem_odp_alloc_implicit(dev,
								 ODP_ACC | IB_ACCESS_HUGETLB)),
			-EINVAL);
	root = ib_umem_odp_alloc_implicit(dev, ODP_ACC);
	KUNIT_ASSERT_EQ(test, PTR_ERR_OR_ZERO(root), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							odp_release_action,
							root), 0);
	KUNIT_EXPECT_TRUE(test, root->is_implicit_odp);
	KUNIT_EXPECT_EQ(test, ib_umem_odp_map_dma_and_lock(root, addr, 1,
							   ODP_RW, true),
			-EINVAL);
	/* a child of a child is refused: only an implicit umem has them */
	child = ib_umem_odp_alloc_child(root, addr, 2 * PAGE_SIZE, &odp_ops);
	KUNIT_ASSERT_EQ(test, PTR_ERR_OR_ZERO(child), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							odp_release_action,
							child), 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_umem_odp_alloc_child(child, addr,
							      PAGE_SIZE,
							      &odp_ops)),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, child->umem.writable);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)(addr + PAGE_SIZE),
					   &v, 1), 0);
	KUNIT_ASSERT_EQ(test, ib_umem_odp_map_dma_and_lock(child,
							   addr + PAGE_SIZE,
							   1, ODP_RW, true), 1);
	mutex_unlock(&child->umem_mutex);
	KUNIT_EXPECT_EQ(test, odp_kva(child, 1)[0], 9);
}

/* ib_umem_release() of an ODP umem takes the ODP path. */
static void odp_umem_release(struct kunit *test)
{
	struct ib_device *dev = odp_dev(test);
	unsigned long addr = kt_user_mmap(test, PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_umem_odp *odp = ib_umem_odp_get(dev, addr, PAGE_SIZE,
						  ODP_ACC, &odp_ops);

	KUNIT_ASSERT_EQ(test, PTR_ERR_OR_ZERO(odp), 0);
	KUNIT_ASSERT_EQ(test, ib_umem_odp_map_dma_and_lock(odp, addr, 1,
							   ODP_RW, true), 1);
	mutex_unlock(&odp->umem_mutex);
	/* kmemleak and KASAN judge it: nothing left, nothing touched after */
	ib_umem_release(&odp->umem);
	/* the notifier is gone: unmapping the range calls nobody */
	KUNIT_ASSERT_EQ(test, vm_munmap(addr, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, odp_invalidations, 0);
}

static struct kunit_case odp_cases[] = {
	KUNIT_CASE(odp_get_and_refusals),
	KUNIT_CASE(odp_fault_maps),
	KUNIT_CASE(odp_nofault_maps_present),
	KUNIT_CASE(odp_invalidate_unmaps),
	KUNIT_CASE(odp_rights_resync),
	KUNIT_CASE(odp_readonly_memory),
	KUNIT_CASE(odp_implicit_children),
	KUNIT_CASE(odp_umem_release),
	{}
};

static struct kunit_suite odp_suite = {
	.name = "rdma_umem_odp",
	.test_cases = odp_cases,
};

kunit_test_suite(odp_suite);

MODULE_DESCRIPTION("KUnit tests of on-demand paging umem");
MODULE_LICENSE("Dual BSD/GPL");
