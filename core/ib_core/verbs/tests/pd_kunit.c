// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_pd": protection domains (core/ib_core/verbs/verbs_pd.c) on
 * a loop device, which has no local DMA lkey of its own: the DMA MR the core
 * makes for the PD's local_dma_lkey, the unsafe global rkey of a PD
 * that asks for one, and the PDs' restrack entries.
 */

#include <kunit/test.h>
#include <kunit/rdma_verbs.h>
#include <rdma/restrack.h>

static void verbs_pd_keys(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_pd *pd;

	/* no local DMA lkey on loop devices: the core made a DMA MR */
	KUNIT_EXPECT_FALSE(test, vt->dev->attrs.kernel_cap_flags &
			   IBK_LOCAL_DMA_LKEY);
	KUNIT_ASSERT_NOT_NULL(test, vt->pd->__internal_mr);
	KUNIT_EXPECT_EQ(test, vt->pd->local_dma_lkey,
			vt->pd->__internal_mr->lkey);
	KUNIT_EXPECT_EQ(test, vt->pd->unsafe_global_rkey, 0);

	pd = ib_alloc_pd(vt->dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	KUNIT_EXPECT_NE(test, pd->unsafe_global_rkey, 0);
	KUNIT_EXPECT_NE(test, pd->local_dma_lkey, vt->pd->local_dma_lkey);
	/* with the test's first PD and the MAD layer's */
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(vt->dev, RDMA_RESTRACK_PD,
						  false), 3);
	KUNIT_EXPECT_STREQ(test, pd->res.kern_name, KBUILD_MODNAME);
	ib_dealloc_pd(pd);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(vt->dev, RDMA_RESTRACK_PD,
						  false), 2);
}

static struct kunit_case rdma_pd_cases[] = {
	KUNIT_CASE(verbs_pd_keys),
	{}
};

static struct kunit_suite rdma_pd_suite = {
	.name = "rdma_pd",
	.test_cases = rdma_pd_cases,
};

kunit_test_suite(rdma_pd_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA protection domains on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
