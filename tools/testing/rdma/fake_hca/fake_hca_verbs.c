// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: the kernel verbs objects.  The core requires the verbs
 * of upstream's ib_device_check_mandatory() list of a kverbs provider;
 * the fake has them, and none works yet: PDs, QPs, CQs and MRs are
 * refused with -EOPNOTSUPP.  A description with no_kverbs leaves them
 * out.
 */

#include <linux/err.h>
#include <rdma/ib_verbs.h>

#include "fake_hca_priv.h"

/* Kernel verbs the core requires of a kverbs provider; none works yet. */
static int fake_hca_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

static int fake_hca_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int fake_hca_create_qp(struct ib_qp *qp,
			      struct ib_qp_init_attr *init_attr,
			      struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

static int fake_hca_modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr,
			      int attr_mask, struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

static int fake_hca_destroy_qp(struct ib_qp *qp, struct ib_udata *udata)
{
	return 0;
}

static int fake_hca_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
			      const struct ib_send_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static int fake_hca_post_recv(struct ib_qp *qp, const struct ib_recv_wr *wr,
			      const struct ib_recv_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static int fake_hca_create_cq(struct ib_cq *cq,
			      const struct ib_cq_init_attr *attr,
			      struct uverbs_attr_bundle *attrs)
{
	return -EOPNOTSUPP;
}

static int fake_hca_destroy_cq(struct ib_cq *cq, struct ib_udata *udata)
{
	return 0;
}

static int fake_hca_poll_cq(struct ib_cq *cq, int num_entries,
			    struct ib_wc *wc)
{
	return 0;
}

static int fake_hca_req_notify_cq(struct ib_cq *cq,
				  enum ib_cq_notify_flags flags)
{
	return 0;
}

static struct ib_mr *fake_hca_get_dma_mr(struct ib_pd *pd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static struct ib_mr *fake_hca_reg_user_mr(struct ib_pd *pd, u64 start,
					  u64 length, u64 virt_addr,
					  int access, struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static int fake_hca_dereg_mr(struct ib_mr *mr, struct ib_udata *udata)
{
	return 0;
}

/* The rest of upstream's ib_device_check_mandatory() list. */
const struct ib_device_ops fake_hca_kverbs_ops = {
	.alloc_pd = fake_hca_alloc_pd,
	.dealloc_pd = fake_hca_dealloc_pd,
	.create_qp = fake_hca_create_qp,
	.modify_qp = fake_hca_modify_qp,
	.destroy_qp = fake_hca_destroy_qp,
	.post_send = fake_hca_post_send,
	.post_recv = fake_hca_post_recv,
	.create_cq = fake_hca_create_cq,
	.destroy_cq = fake_hca_destroy_cq,
	.poll_cq = fake_hca_poll_cq,
	.req_notify_cq = fake_hca_req_notify_cq,
	.get_dma_mr = fake_hca_get_dma_mr,
	.reg_user_mr = fake_hca_reg_user_mr,
	.dereg_mr = fake_hca_dereg_mr,
};
