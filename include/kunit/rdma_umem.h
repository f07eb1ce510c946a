/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit helpers of the suites that work on real user memory (rdma_umem,
 * rdma_umem_odp, rdma_rvt_odp, rdma_rxe_rc): kunit_vm_mmap() gives the
 * case's kthread an mm, and anonymous mappings in it, which the case
 * fills and reads with copy_to_user() and copy_from_user() as the
 * process would, and unmaps and maps again as the process would.
 */
#ifndef KUNIT_RDMA_UMEM_H
#define KUNIT_RDMA_UMEM_H

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <rdma/ib_verbs.h>

/*
 * @len bytes of anonymous private memory with @prot in the case's mm,
 * unmapped when the case ends; the case stops if it cannot have them.
 */
static inline unsigned long kt_user_mmap(struct kunit *test, size_t len,
					 unsigned long prot)
{
	unsigned long addr = kunit_vm_mmap(test, NULL, 0, len, prot,
					   MAP_ANONYMOUS | MAP_PRIVATE, 0);

	KUNIT_ASSERT_NE_MSG(test, addr, 0, "kunit_vm_mmap failed");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_VALUE(addr), "vm_mmap: %ld",
			       (long)addr);
	KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(addr));
	return addr;
}

/*
 * The process unmaps @len bytes at @addr and maps fresh anonymous memory
 * there, readable and writable: what an on-demand paging MR had of the
 * old pages is invalidated, and the new ones are not faulted in.
 */
static inline void kt_user_remap(struct kunit *test, unsigned long addr,
				 size_t len)
{
	KUNIT_ASSERT_EQ(test, vm_munmap(addr, len), 0);
	KUNIT_ASSERT_EQ(test, vm_mmap(NULL, addr, len, PROT_READ | PROT_WRITE,
				      MAP_ANONYMOUS | MAP_PRIVATE | MAP_FIXED,
				      0), addr);
}

static inline void kt_user_mr_dereg(void *p)
{
	struct ib_mr *mr = p;

	mr->device->ops.dereg_mr(mr, NULL);
}

/*
 * An MR of @pd over @len bytes of user memory at @uva (its iova), as
 * ib_uverbs registers one (the driver's reg_user_mr, no udata), with
 * @access (IB_ACCESS_ON_DEMAND for an on-demand paging MR);
 * deregistered when the case ends, after what the case set up later
 * (a QP that holds it must go first: register the MR before).
 */
static inline struct ib_mr *kt_user_mr(struct kunit *test, struct ib_pd *pd,
				       unsigned long uva, size_t len,
				       int access)
{
	struct ib_device *dev = pd->device;
	struct ib_mr *mr;

	mr = dev->ops.reg_user_mr(pd, uva, len, uva, access, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	mr->device = dev;
	mr->pd = pd;
	mr->type = IB_MR_TYPE_USER;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_user_mr_dereg,
							mr), 0);
	return mr;
}

#endif /* KUNIT_RDMA_UMEM_H */
