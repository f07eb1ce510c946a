/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit helpers for the suites that run on rdma_loop devices
 * (<rdma/rdma_loop.h>), those of ib_core and of rdmavt: the KUnit actions
 * that release verbs objects (kunit_add_action_or_reset() takes a
 * void (*)(void *)), so each case's objects go in reverse order of
 * creation even when an assertion ends it early; expected completions;
 * and a loop device of the case's own with a PD.
 */
#ifndef KUNIT_RDMA_LOOP_H
#define KUNIT_RDMA_LOOP_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_loop.h>

/*
 * ib_core's wait for the delivery of the events dispatched so far
 * (core/ib_core/event.c, exported for KUnit only: a suite that calls it
 * imports EXPORTED_FOR_KUNIT_TESTING).
 */
void ib_event_flush(struct ib_device *device);

static inline void kt_remove_loop(void *p)
{
	rdma_loop_remove_device(p);
}

static inline void kt_dealloc_pd(void *p)
{
	ib_dealloc_pd(p);
}

static inline void kt_free_cq(void *p)
{
	ib_free_cq(p);
}

static inline void kt_destroy_cq(void *p)
{
	ib_destroy_cq(p);
}

static inline void kt_destroy_qp(void *p)
{
	ib_destroy_qp(p);
}

static inline void kt_dereg_mr(void *p)
{
	ib_dereg_mr(p);
}

static inline void kt_destroy_srq(void *p)
{
	ib_destroy_srq(p);
}

static inline void kt_destroy_ah(void *p)
{
	rdma_destroy_ah(p, RDMA_DESTROY_AH_SLEEPABLE);
}

/*
 * One expected completion: the ib_cqe of a work request and its result.
 * @count counts the completions it got; @counter, if set, too.
 */
struct kt_tcqe {
	struct ib_cqe		cqe;
	struct ib_wc		wc;
	struct completion	done;
	atomic_t		count;
	atomic_t		*counter;
};

/* how long kt_tcqe_wait() waits */
#define KT_TCQE_WAIT_MS	10000

static inline void kt_tcqe_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct kt_tcqe *t = container_of(wc->wr_cqe, struct kt_tcqe, cqe);

	t->wc = *wc;
	atomic_inc(&t->count);
	if (t->counter)
		atomic_inc(t->counter);
	complete(&t->done);
}

static inline void kt_tcqe_init(struct kt_tcqe *t)
{
	memset(t, 0, sizeof(*t));
	t->cqe.done = kt_tcqe_done;
	init_completion(&t->done);
}

/* @n expected completions in test-managed memory. */
static inline struct kt_tcqe *kt_new_tcqes(struct kunit *test, int n)
{
	struct kt_tcqe *t = kunit_kcalloc(test, n, sizeof(*t), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < n; i++)
		kt_tcqe_init(&t[i]);
	return t;
}

static inline struct kt_tcqe *kt_new_tcqe(struct kunit *test)
{
	return kt_new_tcqes(test, 1);
}

/* Expect @t again: forget its last completion. */
static inline void kt_tcqe_reinit(struct kt_tcqe *t)
{
	memset(&t->wc, 0, sizeof(t->wc));
	reinit_completion(&t->done);
}

/* Wait for @t, polling @cq ourselves when it is a direct CQ. */
static inline bool kt_tcqe_wait(struct ib_cq *cq, struct kt_tcqe *t)
{
	unsigned long end = jiffies + msecs_to_jiffies(KT_TCQE_WAIT_MS);

	do {
		if (cq->poll_ctx == IB_POLL_DIRECT)
			ib_process_cq_direct(cq, -1);
		if (wait_for_completion_timeout(&t->done, 1))
			return true;
	} while (time_before(jiffies, end));
	return false;
}

/* A case's loop device and its PD. */
struct kt_vt {
	struct ib_device	*dev;
	struct ib_pd		*pd;
};

/*
 * A new loop device named after @name (a "%d" template) with a PD;
 * @flags as rdma_loop_add_device_flags() takes them.
 */
static inline struct kt_vt *kt_new_vt_flags(struct kunit *test, const char *name,
					    unsigned int flags)
{
	struct kt_vt *vt = kunit_kzalloc(test, sizeof(*vt), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, vt);
	vt->dev = rdma_loop_add_device_flags(name, flags);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, vt->dev);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_remove_loop,
							vt->dev), 0);
	vt->pd = ib_alloc_pd(vt->dev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, vt->pd);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dealloc_pd,
							vt->pd), 0);
	return vt;
}

/* A new loop device named after @name (a "%d" template) with a PD. */
static inline struct kt_vt *kt_new_vt_named(struct kunit *test, const char *name)
{
	return kt_new_vt_flags(test, name, 0);
}

/*
 * A suite's loop device with a PD, for its suite_init (no test to tie
 * them to): 0 or an error; kt_suite_vt_free() undoes what was made.
 */
static inline int kt_suite_vt_new(struct kt_vt *vt, const char *name)
{
	struct ib_device *dev = rdma_loop_add_device(name);
	struct ib_pd *pd;

	if (IS_ERR_OR_NULL(dev))
		return dev ? PTR_ERR(dev) : -ENODEV;
	vt->dev = dev;
	pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	vt->pd = pd;
	return 0;
}

/*
 * The two ports of an SM bed as its cases expect them: S and C ACTIVE
 * with the LIDs they had, C's SM at S's LID with SL 0.
 */
static inline void kt_assert_sm_bed(struct kunit *test, struct ib_device *s,
				    u32 lid_s, struct ib_device *c, u32 lid_c)
{
	struct ib_port_attr pa;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, ib_query_port(s, 1, &pa), 0);
	KUNIT_ASSERT_EQ(test, pa.state, IB_PORT_ACTIVE);
	KUNIT_ASSERT_EQ(test, pa.lid, lid_s);
	KUNIT_ASSERT_EQ(test, ib_query_port(c, 1, &pa), 0);
	KUNIT_ASSERT_EQ(test, pa.state, IB_PORT_ACTIVE);
	KUNIT_ASSERT_EQ(test, pa.lid, lid_c);
	KUNIT_ASSERT_EQ(test, pa.sm_lid, lid_s);
	KUNIT_ASSERT_EQ(test, pa.sm_sl, 0);
}

/* For a suite_exit: the PD and the device of kt_suite_vt_new(), if any. */
static inline void kt_suite_vt_free(struct kt_vt *vt)
{
	if (vt->pd)
		ib_dealloc_pd(vt->pd);
	vt->pd = NULL;
	if (vt->dev)
		rdma_loop_remove_device(vt->dev);
	vt->dev = NULL;
}

/* An SGE of @len bytes at @buf through the PD's local_dma_lkey. */
static inline struct ib_sge kt_sge_of(struct ib_pd *pd, void *buf, u32 len)
{
	struct ib_sge sge = {
		.addr = ib_dma_map_single(pd->device, buf, len,
					  DMA_BIDIRECTIONAL),
		.length = len,
		.lkey = pd->local_dma_lkey,
	};

	return sge;
}

/* A new QP of @vt's PD, destroyed when the case ends. */
static inline struct ib_qp *kt_new_test_qp(struct kunit *test, struct kt_vt *vt,
					   struct ib_qp_init_attr *attr)
{
	struct ib_qp *qp = ib_create_qp(vt->pd, attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_qp, qp),
			0);
	return qp;
}

/* A CQ of @vt polled by the case itself (IB_POLL_DIRECT), 64 entries. */
static inline struct ib_cq *kt_new_direct_cq(struct kunit *test, struct kt_vt *vt)
{
	struct ib_cq *cq = ib_alloc_cq(vt->dev, NULL, 64, 0, IB_POLL_DIRECT);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_free_cq, cq), 0);
	return cq;
}

#endif /* KUNIT_RDMA_LOOP_H */
