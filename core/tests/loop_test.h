/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the KUnit suites that run on loop devices share: the KUnit
 * actions that release verbs objects (kunit_add_action_or_reset() takes
 * a void (*)(void *)), so each case's objects go in reverse order of
 * creation even when an assertion ends it early.
 */
#ifndef RDMA_LOOP_TEST_H
#define RDMA_LOOP_TEST_H

#include <rdma/ib_verbs.h>

#include "../../hw/loop/loop.h"

static inline void remove_loop(void *p)
{
	rdma_loop_remove_device(p);
}

static inline void dealloc_pd(void *p)
{
	ib_dealloc_pd(p);
}

static inline void free_cq(void *p)
{
	ib_free_cq(p);
}

static inline void destroy_cq(void *p)
{
	ib_destroy_cq(p);
}

static inline void destroy_qp(void *p)
{
	ib_destroy_qp(p);
}

static inline void dereg_mr(void *p)
{
	ib_dereg_mr(p);
}

static inline void destroy_srq(void *p)
{
	ib_destroy_srq(p);
}

static inline void destroy_ah(void *p)
{
	rdma_destroy_ah(p, RDMA_DESTROY_AH_SLEEPABLE);
}

#endif /* RDMA_LOOP_TEST_H */
