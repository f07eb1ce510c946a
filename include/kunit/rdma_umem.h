/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit helper of the suites that work on real user memory (rdma_umem,
 * rdma_umem_odp, rdma_rvt_odp): kunit_vm_mmap() gives the case's kthread
 * an mm, and anonymous mappings in it, which the case fills and reads
 * with copy_to_user() and copy_from_user() as the process would.
 */
#ifndef KUNIT_RDMA_UMEM_H
#define KUNIT_RDMA_UMEM_H

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/mman.h>

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

#endif /* KUNIT_RDMA_UMEM_H */
