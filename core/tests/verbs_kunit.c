// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_verbs": the kernel verbs of ib_core (core/verbs_pd.c,
 * qp.c, cq.c, cq_pool.c, mr.c, srq.c, ah.c) end to end on loop devices
 * (hw/loop on hw/sw/rdmavt), which move real data between QPs.
 *
 * Every case gets a loop device of its own and a PD; its QPs, CQs and
 * MRs are released by KUnit actions in reverse order of creation.
 * Payloads are random and checked byte for byte; completions are checked
 * for status, opcode, length and the QP they belong to.
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/delay.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>

#define BUF_LEN		4096

/* No completion arrives on @cq for a while. */
static bool cq_stays_empty(struct ib_cq *cq, struct tcqe *t)
{
	msleep(50);
	if (cq->poll_ctx == IB_POLL_DIRECT)
		ib_process_cq_direct(cq, -1);
	return !completion_done(&t->done);
}

static struct vt *new_vt(struct kunit *test)
{
	return new_vt_named(test, "kuvb%d");
}

static struct ib_cq *new_cq(struct kunit *test, struct vt *vt,
			    enum ib_poll_context ctx)
{
	struct ib_cq *cq = ib_alloc_cq(vt->dev, NULL, 256, 0, ctx);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_cq, cq), 0);
	return cq;
}

static struct ib_qp *new_qp_on(struct kunit *test, struct vt *vt,
			       struct ib_pd *pd, enum ib_qp_type type,
			       struct ib_cq *scq, struct ib_cq *rcq,
			       struct ib_srq *srq)
{
	struct ib_qp_init_attr attr = {
		.send_cq = scq,
		.recv_cq = rcq,
		.srq = srq,
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 128,
			.max_recv_wr = srq ? 0 : 128,
			.max_send_sge = 4,
			.max_recv_sge = srq ? 0 : 4,
			.max_inline_data = 64,
		},
		.port_num = 1,
	};
	struct ib_qp *qp = ib_create_qp(pd, &attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_qp, qp),
			0);
	return qp;
}

static struct ib_qp *new_qp(struct kunit *test, struct vt *vt,
			    enum ib_qp_type type, struct ib_cq *scq,
			    struct ib_cq *rcq)
{
	return new_qp_on(test, vt, vt->pd, type, scq, rcq, NULL);
}

static u32 port_lid(struct ib_device *dev)
{
	return rdma_loop_port_lid(dev);
}

/*
 * RESET -> INIT -> RTR -> RTS of a connected QP towards @dqpn at @dlid,
 * stopping at @stop.
 */
static int to_state(struct ib_qp *qp, u32 dqpn, u32 dlid, u8 rnr_retry,
		    enum ib_qp_state stop)
{
	struct rdma_loop_conn conn = {
		.dqpn = dqpn,
		.dlid = dlid,
		.access = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
			  IB_ACCESS_REMOTE_ATOMIC,
		.rd_atomic = 4,
		.rnr_retry = rnr_retry,
	};

	return rdma_loop_connect_qp(qp, &conn, stop);
}

static int to_rts(struct ib_qp *qp, u32 dqpn, u32 dlid, u8 rnr_retry)
{
	return to_state(qp, dqpn, dlid, rnr_retry, IB_QPS_RTS);
}

/* Two connected QPs of @type, each with its own direct CQ. */
struct pair {
	struct vt	*vt;
	struct ib_cq	*cq[2];
	struct ib_qp	*qp[2];
	u8		*buf[2];
};

static struct pair *new_pair(struct kunit *test, enum ib_qp_type type,
			     enum ib_poll_context ctx, u8 rnr_retry)
{
	struct pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->vt = new_vt(test);
	for (i = 0; i < 2; i++) {
		p->cq[i] = new_cq(test, p->vt, ctx);
		p->qp[i] = new_qp(test, p->vt, type, p->cq[i], p->cq[i]);
		p->buf[i] = kunit_kzalloc(test, BUF_LEN, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p->buf[i]);
	}
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, to_rts(p->qp[i], p->qp[!i]->qp_num,
					     port_lid(p->vt->dev), rnr_retry),
				0);
	return p;
}

static int post_recv(struct ib_qp *qp, struct tcqe *t, struct ib_sge *sge,
		     int num_sge)
{
	struct ib_recv_wr wr = {
		.wr_cqe = &t->cqe,
		.sg_list = sge,
		.num_sge = num_sge,
	};

	return ib_post_recv(qp, &wr, NULL);
}

static int post_send(struct ib_qp *qp, struct tcqe *t, enum ib_wr_opcode op,
		     struct ib_sge *sge, int num_sge, int flags)
{
	struct ib_send_wr wr = {
		.wr_cqe = &t->cqe,
		.sg_list = sge,
		.num_sge = num_sge,
		.opcode = op,
		.send_flags = IB_SEND_SIGNALED | flags,
	};

	return ib_post_send(qp, &wr, NULL);
}

static int post_rdma(struct ib_qp *qp, struct tcqe *t, enum ib_wr_opcode op,
		     struct ib_sge *sge, u64 raddr, u32 rkey)
{
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &t->cqe,
			.sg_list = sge,
			.num_sge = 1,
			.opcode = op,
			.send_flags = IB_SEND_SIGNALED,
			.ex.imm_data = cpu_to_be32(0xc0ffee),
		},
		.remote_addr = raddr,
		.rkey = rkey,
	};

	return ib_post_send(qp, &wr.wr, NULL);
}

static enum ib_qp_state qp_state(struct ib_qp *qp)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr a;

	if (ib_query_qp(qp, &a, IB_QP_STATE, &init))
		return -1;
	return a.qp_state;
}

#define EXPECT_WC(test, t, st, op)					\
	do {								\
		KUNIT_EXPECT_EQ_MSG(test, (t)->wc.status, st, "%s",	\
				    ib_wc_status_msg((t)->wc.status));	\
		if ((st) == IB_WC_SUCCESS)				\
			KUNIT_EXPECT_EQ(test, (t)->wc.opcode, op);	\
	} while (0)

/* ------------------------------------------------------------------ */

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
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(vt->dev, RDMA_RESTRACK_PD,
						  false), 2);
	KUNIT_EXPECT_STREQ(test, pd->res.kern_name, KBUILD_MODNAME);
	ib_dealloc_pd(pd);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(vt->dev, RDMA_RESTRACK_PD,
						  false), 1);
}

static void verbs_rc_send(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge ssge[3], rsge[2];
	struct tcqe *s = new_tcqe(test), *r = new_tcqe(test);

	get_random_bytes(p->buf[0], BUF_LEN);
	/* gather 100 + 900 + 24 bytes, scatter into 600 + 1000 */
	ssge[0] = sge_of(pd, p->buf[0], 100);
	ssge[1] = sge_of(pd, p->buf[0] + 1000, 900);
	ssge[2] = sge_of(pd, p->buf[0] + 3000, 24);
	rsge[0] = sge_of(pd, p->buf[1], 600);
	rsge[1] = sge_of(pd, p->buf[1] + 2048, 1000);

	tcqe_init(r);
	tcqe_init(s);
	KUNIT_ASSERT_EQ(test, post_recv(p->qp[1], r, rsge, 2), 0);
	KUNIT_ASSERT_EQ(test, post_send(p->qp[0], s, IB_WR_SEND, ssge, 3, 0),
			0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], s));
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], r));

	EXPECT_WC(test, s, IB_WC_SUCCESS, IB_WC_SEND);
	KUNIT_EXPECT_PTR_EQ(test, s->wc.qp, p->qp[0]);
	EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_PTR_EQ(test, r->wc.qp, p->qp[1]);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, 1024);
	KUNIT_EXPECT_EQ(test, r->wc.src_qp, p->qp[0]->qp_num);
	KUNIT_EXPECT_FALSE(test, r->wc.wc_flags & IB_WC_WITH_IMM);

	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1], p->buf[0], 100), 0);
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1] + 100, p->buf[0] + 1000, 500),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1] + 2048, p->buf[0] + 1500,
				     400), 0);
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1] + 2448, p->buf[0] + 3000, 24),
			0);
	/* nothing written past the message */
	KUNIT_EXPECT_EQ(test, p->buf[1][2472], 0);
}

static void verbs_rc_send_imm_inline(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge ssge, rsge;
	struct ib_send_wr wr = {};
	struct tcqe *s = new_tcqe(test), *r = new_tcqe(test);

	get_random_bytes(p->buf[0], 64);
	ssge.addr = (uintptr_t)p->buf[0];	/* inline: no key needed */
	ssge.length = 64;
	ssge.lkey = 0xdead;
	rsge = sge_of(pd, p->buf[1], 128);

	tcqe_init(r);
	tcqe_init(s);
	KUNIT_ASSERT_EQ(test, post_recv(p->qp[1], r, &rsge, 1), 0);
	wr.wr_cqe = &s->cqe;
	wr.sg_list = &ssge;
	wr.num_sge = 1;
	wr.opcode = IB_WR_SEND_WITH_IMM;
	wr.send_flags = IB_SEND_SIGNALED | IB_SEND_INLINE | IB_SEND_SOLICITED;
	wr.ex.imm_data = cpu_to_be32(0x12345678);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr, NULL), 0);
	/* the data was copied at post time */
	memset(p->buf[0], 0, 64);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], s));
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], r));
	EXPECT_WC(test, s, IB_WC_SUCCESS, IB_WC_SEND);
	EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_TRUE(test, r->wc.wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(r->wc.ex.imm_data), 0x12345678);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, 64);
	KUNIT_EXPECT_NOT_NULL(test, memchr_inv(p->buf[1], 0, 64));

	/* too much inline data is refused at post time */
	ssge.length = 65;
	KUNIT_EXPECT_EQ(test, ib_post_send(p->qp[0], &wr, NULL), -EINVAL);
}

static struct ib_mr *new_fr_mr(struct kunit *test, struct vt *vt, u8 *buf,
			       int npages, int access, struct tcqe *t,
			       struct ib_qp *qp, struct ib_cq *cq)
{
	struct scatterlist *sg;
	struct ib_reg_wr reg = {};
	struct ib_mr *mr;
	int i, n;

	sg = kunit_kcalloc(test, npages, sizeof(*sg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sg);
	mr = ib_alloc_mr(vt->pd, IB_MR_TYPE_MEM_REG, npages);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dereg_mr, mr),
			0);

	sg_init_table(sg, npages);
	for (i = 0; i < npages; i++)
		sg_set_buf(&sg[i], buf + i * PAGE_SIZE, PAGE_SIZE);
	n = ib_dma_map_sg(vt->dev, sg, npages, DMA_BIDIRECTIONAL);
	KUNIT_ASSERT_EQ(test, n, npages);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, sg, n, NULL, PAGE_SIZE), n);
	KUNIT_EXPECT_EQ(test, mr->length, (u64)npages * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, mr->iova, (u64)(uintptr_t)buf);

	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey) & 0xff);
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.wr_cqe = &t->cqe;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = mr;
	reg.key = mr->rkey;
	reg.access = access;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &reg.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, t));
	EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_REG_MR);
	return mr;
}

static void verbs_rc_write_read(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_pd *pd = p->vt->pd;
	u8 *remote, *back;
	struct tcqe *t = new_tcqe(test), *r = new_tcqe(test);
	struct ib_sge sge;
	struct ib_mr *mr;

	remote = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	back = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, remote);
	KUNIT_ASSERT_NOT_NULL(test, back);
	KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(remote));

	tcqe_init(t);
	mr = new_fr_mr(test, p->vt, remote, 2,
		       IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		       IB_ACCESS_REMOTE_READ, t, p->qp[1], p->cq[1]);

	/* WRITE 3000 bytes across the page boundary of the remote MR */
	get_random_bytes(p->buf[0], BUF_LEN);
	sge = sge_of(pd, p->buf[0], 3000);
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, post_rdma(p->qp[0], t, IB_WR_RDMA_WRITE, &sge,
					mr->iova + 2000, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, memcmp(remote + 2000, p->buf[0], 3000), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(remote, 0, 2000));

	/* READ it back into another buffer */
	sge = sge_of(pd, back, 3000);
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, post_rdma(p->qp[0], t, IB_WR_RDMA_READ, &sge,
					mr->iova + 2000, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test, t->wc.byte_len, 3000);
	KUNIT_EXPECT_EQ(test, memcmp(back, p->buf[0], 3000), 0);

	/* WRITE with immediate consumes a receive request */
	sge = sge_of(pd, p->buf[0] + 3000, 8);
	tcqe_init(r);
	KUNIT_ASSERT_EQ(test, post_recv(p->qp[1], r, NULL, 0), 0);
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, post_rdma(p->qp[0], t,
					IB_WR_RDMA_WRITE_WITH_IMM, &sge,
					mr->iova, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], r));
	EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_RDMA_WRITE);
	EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(r->wc.ex.imm_data), 0xc0ffee);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, 8);
	KUNIT_EXPECT_EQ(test, memcmp(remote, p->buf[0] + 3000, 8), 0);

	/* invalidate: the old rkey stops working, the QP errors out */
	tcqe_init(t);
	{
		struct ib_send_wr inv = {
			.wr_cqe = &t->cqe,
			.opcode = IB_WR_LOCAL_INV,
			.send_flags = IB_SEND_SIGNALED,
			.ex.invalidate_rkey = mr->rkey,
		};

		KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[1], &inv, NULL), 0);
	}
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], t));
	EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_LOCAL_INV);
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, post_rdma(p->qp[0], t, IB_WR_RDMA_WRITE, &sge,
					mr->iova, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	EXPECT_WC(test, t, IB_WC_REM_ACCESS_ERR, 0);
	KUNIT_EXPECT_EQ(test, qp_state(p->qp[0]), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, qp_state(p->qp[1]), IB_QPS_ERR);
}

static void verbs_rc_atomics(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	u64 *target = (u64 *)p->buf[1], *result = (u64 *)p->buf[0];
	struct ib_atomic_wr wr = {};
	struct ib_pd *pd;
	struct ib_sge sge;
	struct tcqe *t = new_tcqe(test);

	/* remote access through the unsafe global rkey of a second PD */
	pd = ib_alloc_pd(p->vt->dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	ib_dealloc_pd(pd);

	*target = 40;
	sge = sge_of(p->vt->pd, result, 8);
	wr.wr.wr_cqe = &t->cqe;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.wr.opcode = IB_WR_ATOMIC_FETCH_AND_ADD;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.remote_addr = (uintptr_t)target;
	wr.rkey = p->vt->pd->__internal_mr->rkey;
	wr.compare_add = 2;

	/* the PD's DMA MR has no remote rights: access error */
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	EXPECT_WC(test, t, IB_WC_REM_ACCESS_ERR, 0);
	KUNIT_EXPECT_EQ(test, *target, 40);
}

static void verbs_rc_atomics_ok(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_atomic_wr wr = {};
	u64 *target, *result;
	struct ib_sge sge;
	struct ib_mr *mr;
	struct tcqe *t = new_tcqe(test);

	target = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	result = kunit_kzalloc(test, 16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, target);
	KUNIT_ASSERT_NOT_NULL(test, result);
	KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(target));
	mr = new_fr_mr(test, p->vt, (u8 *)target, 1,
		       IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_ATOMIC, t,
		       p->qp[1], p->cq[1]);
	*target = 40;

	sge = sge_of(p->vt->pd, result, 8);
	wr.wr.wr_cqe = &t->cqe;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.wr.opcode = IB_WR_ATOMIC_FETCH_AND_ADD;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.remote_addr = mr->iova;
	wr.rkey = mr->rkey;
	wr.compare_add = 2;
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_FETCH_ADD);
	KUNIT_EXPECT_EQ(test, t->wc.byte_len, 8);
	KUNIT_EXPECT_EQ(test, *result, 40);
	KUNIT_EXPECT_EQ(test, *target, 42);

	/* compare and swap: a mismatch leaves the target alone */
	wr.wr.opcode = IB_WR_ATOMIC_CMP_AND_SWP;
	wr.compare_add = 41;
	wr.swap = 7;
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_COMP_SWAP);
	KUNIT_EXPECT_EQ(test, *result, 42);
	KUNIT_EXPECT_EQ(test, *target, 42);
	wr.compare_add = 42;
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_COMP_SWAP);
	KUNIT_EXPECT_EQ(test, *target, 7);

	/* misaligned target: remote access error */
	wr.remote_addr = mr->iova + 4;
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	EXPECT_WC(test, t, IB_WC_REM_ACCESS_ERR, 0);
}

/* SEND with invalidate ends the responder's registration. */
static void verbs_rc_send_inv(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct tcqe *t = new_tcqe(test), *r = new_tcqe(test);
	struct ib_send_wr wr = {};
	struct ib_sge sge, rsge;
	struct ib_mr *mr;
	u8 *remote;

	remote = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, remote);
	mr = new_fr_mr(test, p->vt, remote, 1,
		       IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE, t,
		       p->qp[1], p->cq[1]);

	sge = sge_of(p->vt->pd, p->buf[0], 16);
	rsge = sge_of(p->vt->pd, p->buf[1], 16);
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, post_recv(p->qp[1], r, &rsge, 1), 0);
	wr.wr_cqe = &t->cqe;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IB_WR_SEND_WITH_INV;
	wr.send_flags = IB_SEND_SIGNALED;
	wr.ex.invalidate_rkey = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], r));
	EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_SEND);
	EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_TRUE(test, r->wc.wc_flags & IB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, r->wc.ex.invalidate_rkey, mr->rkey);

	/* the invalidated rkey no longer opens the MR */
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, post_rdma(p->qp[0], t, IB_WR_RDMA_WRITE, &sge,
					mr->iova, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	EXPECT_WC(test, t, IB_WC_REM_ACCESS_ERR, 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(remote, 0, PAGE_SIZE));
}

/* UC: WRITE works, a missing receive loses the message silently. */
static void verbs_uc(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_UC, IB_POLL_DIRECT, 0);
	struct tcqe *t = new_tcqe(test), *r = new_tcqe(test);
	struct ib_sge sge, rsge;
	struct ib_mr *mr;
	u8 *remote;

	remote = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, remote);
	mr = new_fr_mr(test, p->vt, remote, 1,
		       IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE, t,
		       p->qp[1], p->cq[1]);

	get_random_bytes(p->buf[0], 100);
	sge = sge_of(p->vt->pd, p->buf[0], 100);
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, post_rdma(p->qp[0], t, IB_WR_RDMA_WRITE, &sge,
					mr->iova + 8, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, memcmp(remote + 8, p->buf[0], 100), 0);

	/* READ is not a UC operation */
	tcqe_init(t);
	KUNIT_EXPECT_EQ(test, post_rdma(p->qp[0], t, IB_WR_RDMA_READ, &sge,
					mr->iova, mr->rkey), -EINVAL);

	/* no receive posted: the sender completes, nothing arrives */
	tcqe_init(t);
	KUNIT_ASSERT_EQ(test, post_send(p->qp[0], t, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], t));
	EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_SEND);
	rsge = sge_of(p->vt->pd, p->buf[1], 100);
	KUNIT_ASSERT_EQ(test, post_recv(p->qp[1], r, &rsge, 1), 0);
	KUNIT_EXPECT_TRUE(test, cq_stays_empty(p->cq[1], r));
	KUNIT_EXPECT_EQ(test, qp_state(p->qp[0]), IB_QPS_RTS);
	ib_drain_qp(p->qp[1]);
	EXPECT_WC(test, r, IB_WC_WR_FLUSH_ERR, 0);
}

/* ib_map_mr_sg(): a gap between entries ends the mapping there. */
static void verbs_map_mr_sg_gap(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct scatterlist sg[3];
	unsigned int offset = 100;
	struct ib_mr *mr;
	u8 *buf;

	buf = kunit_kzalloc(test, 4 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	mr = ib_alloc_mr(vt->pd, IB_MR_TYPE_MEM_REG, 8);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dereg_mr, mr),
			0);

	/* page 0 (from byte 100), page 1, then a jump to page 3: gap */
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], buf, PAGE_SIZE);
	sg_set_buf(&sg[1], buf + PAGE_SIZE, PAGE_SIZE / 2);
	sg_set_buf(&sg[2], buf + 3 * PAGE_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(vt->dev, sg, 3, DMA_TO_DEVICE), 3);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sg, 3, &offset, PAGE_SIZE), 2);
	KUNIT_EXPECT_EQ(test, mr->iova, (u64)(uintptr_t)buf + 100);
	KUNIT_EXPECT_EQ(test, mr->length, (u64)PAGE_SIZE - 100 + PAGE_SIZE / 2);
	KUNIT_EXPECT_EQ(test, offset, 0);

	/* more pages than the MR holds: partial, offset says where */
	sg_init_table(sg, 1);
	sg_set_buf(&sg[0], buf, 4 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(vt->dev, sg, 1, DMA_TO_DEVICE), 1);
	mr->page_size = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sg, 1, NULL, SZ_1K), 0);
	KUNIT_EXPECT_EQ(test, mr->length, 8 * SZ_1K);
}

/* Errors: each with the status IBTA gives, then everything flushes. */
static void verbs_rc_errors(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge sge, rsge;
	struct tcqe *s = new_tcqe(test), *r = new_tcqe(test);
	struct tcqe *s2 = new_tcqe(test), *r2 = new_tcqe(test);

	/* receive buffer too small: LOC_LEN_ERR there, REM_INV_REQ here */
	sge = sge_of(pd, p->buf[0], 200);
	rsge = sge_of(pd, p->buf[1], 100);
	tcqe_init(r);
	tcqe_init(r2);
	tcqe_init(s);
	tcqe_init(s2);
	KUNIT_ASSERT_EQ(test, post_recv(p->qp[1], r, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, post_recv(p->qp[1], r2, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, post_send(p->qp[0], s, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_ASSERT_EQ(test, post_send(p->qp[0], s2, IB_WR_SEND, &sge, 1,
					0), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], s));
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], r));
	EXPECT_WC(test, s, IB_WC_REM_INV_REQ_ERR, 0);
	EXPECT_WC(test, r, IB_WC_LOC_LEN_ERR, 0);
	/* the rest is flushed on both sides */
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], s2));
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], r2));
	EXPECT_WC(test, s2, IB_WC_WR_FLUSH_ERR, 0);
	EXPECT_WC(test, r2, IB_WC_WR_FLUSH_ERR, 0);
	KUNIT_EXPECT_PTR_EQ(test, s2->wc.qp, p->qp[0]);
	KUNIT_EXPECT_EQ(test, qp_state(p->qp[0]), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, qp_state(p->qp[1]), IB_QPS_ERR);

	/* work posted to an errored QP completes as flushed */
	tcqe_init(s);
	KUNIT_ASSERT_EQ(test, post_send(p->qp[0], s, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], s));
	EXPECT_WC(test, s, IB_WC_WR_FLUSH_ERR, 0);
}

static void verbs_rc_local_errors(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge sge;
	struct tcqe *s = new_tcqe(test);

	/* a wrong lkey is a local protection error */
	sge = sge_of(pd, p->buf[0], 16);
	sge.lkey ^= 0x100;
	tcqe_init(s);
	KUNIT_ASSERT_EQ(test, post_send(p->qp[0], s, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], s));
	EXPECT_WC(test, s, IB_WC_LOC_PROT_ERR, 0);
	KUNIT_EXPECT_EQ(test, qp_state(p->qp[0]), IB_QPS_ERR);
	/* the responder saw nothing */
	KUNIT_EXPECT_EQ(test, qp_state(p->qp[1]), IB_QPS_RTS);
}

static void verbs_rc_rnr(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 2);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge sge;
	struct tcqe *s = new_tcqe(test);

	/* no receive request, two retries: RNR retry exceeded */
	sge = sge_of(pd, p->buf[0], 16);
	tcqe_init(s);
	KUNIT_ASSERT_EQ(test, post_send(p->qp[0], s, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], s));
	EXPECT_WC(test, s, IB_WC_RNR_RETRY_EXC_ERR, 0);
	KUNIT_EXPECT_EQ(test, qp_state(p->qp[0]), IB_QPS_ERR);
}

static void verbs_rc_rnr_recovers(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 7);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge sge, rsge;
	struct tcqe *s = new_tcqe(test), *r = new_tcqe(test);

	/* rnr_retry 7 retries for ever: the late receive is found */
	get_random_bytes(p->buf[0], 32);
	sge = sge_of(pd, p->buf[0], 32);
	rsge = sge_of(pd, p->buf[1], 32);
	tcqe_init(s);
	tcqe_init(r);
	KUNIT_ASSERT_EQ(test, post_send(p->qp[0], s, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_EXPECT_TRUE(test, cq_stays_empty(p->cq[0], s));
	KUNIT_ASSERT_EQ(test, post_recv(p->qp[1], r, &rsge, 1), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], s));
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], r));
	EXPECT_WC(test, s, IB_WC_SUCCESS, IB_WC_SEND);
	EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[0], p->buf[1], 32), 0);
}

/* Posting and modifying against the QP state rules. */
static void verbs_qp_state_rules(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *cq = new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_qp *qp = new_qp(test, vt, IB_QPT_RC, cq, cq);
	struct ib_qp_attr a = {};
	struct ib_sge sge;
	struct tcqe *t = new_tcqe(test);
	u8 buf[8];

	sge = sge_of(vt->pd, buf, sizeof(buf));
	tcqe_init(t);
	KUNIT_EXPECT_EQ(test, qp_state(qp), IB_QPS_RESET);
	KUNIT_EXPECT_EQ(test, post_recv(qp, t, &sge, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, post_send(qp, t, IB_WR_SEND, &sge, 1, 0),
			-EINVAL);

	/* RESET -> RTR skips INIT; RESET -> INIT without the port fails */
	a.qp_state = IB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), -EINVAL);
	a.qp_state = IB_QPS_INIT;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), -EINVAL);
	a.port_num = 1;
	a.qp_access_flags = 0;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_PKEY_INDEX |
					   IB_QP_ACCESS_FLAGS), 0);
	KUNIT_EXPECT_EQ(test, qp_state(qp), IB_QPS_INIT);
	/* a port that does not exist */
	a.port_num = 2;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_PORT), -EINVAL);

	/* INIT takes receives but no sends */
	KUNIT_EXPECT_EQ(test, post_recv(qp, t, &sge, 1), 0);
	KUNIT_EXPECT_EQ(test, post_send(qp, t, IB_WR_SEND, &sge, 1, 0),
			-EINVAL);

	/* too many SGEs */
	{
		struct ib_sge many[5] = {};
		struct ib_recv_wr wr = { .sg_list = many, .num_sge = 5 };
		const struct ib_recv_wr *bad = NULL;

		KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &wr, &bad), -EINVAL);
		KUNIT_EXPECT_PTR_EQ(test, bad, &wr);
	}

	/* back to RESET forgets the receive without a completion */
	a.qp_state = IB_QPS_RESET;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	KUNIT_EXPECT_TRUE(test, cq_stays_empty(cq, t));
	/* RESET -> ERR is not an arrow of the diagram */
	a.qp_state = IB_QPS_ERR;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), -EINVAL);
}

/* ib_drain_qp() from each state a QP can be drained in. */
static const enum ib_qp_state drain_states[] = {
	IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS, IB_QPS_ERR,
};

static void drain_desc(const enum ib_qp_state *s, char *desc)
{
	static const char * const n[] = { "RESET", "INIT", "RTR", "RTS",
					  "SQD", "SQE", "ERR" };

	strscpy(desc, n[*s], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(drain, drain_states, drain_desc);

static void verbs_drain(struct kunit *test)
{
	enum ib_qp_state target = *(const enum ib_qp_state *)test->param_value;
	struct vt *vt = new_vt(test);
	struct ib_cq *cq = new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_qp *qp = new_qp(test, vt, IB_QPT_RC, cq, cq);
	struct ib_qp *peer = new_qp(test, vt, IB_QPT_RC, cq, cq);
	struct ib_qp_attr a = {};
	struct tcqe *r = new_tcqes(test, 3), *s = new_tcqe(test);
	struct ib_sge sge;
	u8 *buf;
	int i;

	buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	sge = sge_of(vt->pd, buf, 64);

	a.qp_state = IB_QPS_INIT;
	a.port_num = 1;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_PKEY_INDEX |
					   IB_QP_ACCESS_FLAGS), 0);
	for (i = 0; i < 3; i++) {
		tcqe_init(&r[i]);
		KUNIT_ASSERT_EQ(test, post_recv(qp, &r[i], &sge, 1), 0);
	}
	tcqe_init(s);
	if (target == IB_QPS_RTR || target == IB_QPS_RTS) {
		a.qp_state = IB_QPS_RESET;
		KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
		KUNIT_ASSERT_EQ(test, to_state(qp, peer->qp_num,
					       port_lid(vt->dev), 7, target),
				0);
		KUNIT_ASSERT_EQ(test, qp_state(qp), target);
		for (i = 0; i < 3; i++) {
			tcqe_init(&r[i]);
			KUNIT_ASSERT_EQ(test, post_recv(qp, &r[i], &sge, 1),
					0);
		}
		/* in RTS, a send the peer (in RESET) never answers */
		if (target == IB_QPS_RTS)
			KUNIT_ASSERT_EQ(test, post_send(qp, s, IB_WR_SEND,
							&sge, 1, 0), 0);
	} else if (target == IB_QPS_ERR) {
		a.qp_state = IB_QPS_ERR;
		KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	}

	ib_drain_qp(qp);

	KUNIT_EXPECT_EQ(test, qp_state(qp), IB_QPS_ERR);
	/* every receive completed (flushed) before the drain returned */
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_TRUE(test, completion_done(&r[i].done));
		EXPECT_WC(test, &r[i], IB_WC_WR_FLUSH_ERR, 0);
	}
	if (target == IB_QPS_RTS) {
		KUNIT_EXPECT_TRUE(test, completion_done(&s->done));
		KUNIT_EXPECT_NE(test, s->wc.status, IB_WC_SUCCESS);
	}
}

/* Completions arrive through each poll context of the CQ API. */
static const enum ib_poll_context poll_ctxs[] = {
	IB_POLL_DIRECT, IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE,
	IB_POLL_UNBOUND_WORKQUEUE,
};

static void poll_desc(const enum ib_poll_context *c, char *desc)
{
	static const char * const n[] = { "softirq", "workqueue",
					  "unbound_workqueue", "direct" };

	strscpy(desc, n[*c], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(poll, poll_ctxs, poll_desc);

#define NMSG	100

static void verbs_poll_context(struct kunit *test)
{
	enum ib_poll_context ctx =
		*(const enum ib_poll_context *)test->param_value;
	struct pair *p = new_pair(test, IB_QPT_RC, ctx, 7);
	struct ib_pd *pd = p->vt->pd;
	struct tcqe *s, *r;
	atomic_t sent = ATOMIC_INIT(0), recvd = ATOMIC_INIT(0);
	struct ib_sge sge, rsge;
	int i;

	s = kunit_kcalloc(test, NMSG, sizeof(*s), GFP_KERNEL);
	r = kunit_kcalloc(test, NMSG, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, p->cq[0]->poll_ctx, ctx);

	sge = sge_of(pd, p->buf[0], 16);
	rsge = sge_of(pd, p->buf[1], 16);
	for (i = 0; i < NMSG; i++) {
		tcqe_init(&r[i]);
		r[i].counter = &recvd;
		KUNIT_ASSERT_EQ(test, post_recv(p->qp[1], &r[i], &rsge, 1), 0);
	}
	for (i = 0; i < NMSG; i++) {
		tcqe_init(&s[i]);
		s[i].counter = &sent;
		KUNIT_ASSERT_EQ(test, post_send(p->qp[0], &s[i], IB_WR_SEND,
						&sge, 1, 0), 0);
	}
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], &s[NMSG - 1]));
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], &r[NMSG - 1]));
	KUNIT_EXPECT_EQ(test, atomic_read(&sent), NMSG);
	KUNIT_EXPECT_EQ(test, atomic_read(&recvd), NMSG);
	for (i = 0; i < NMSG; i++) {
		EXPECT_WC(test, &s[i], IB_WC_SUCCESS, IB_WC_SEND);
		EXPECT_WC(test, &r[i], IB_WC_SUCCESS, IB_WC_RECV);
	}
	/* drain before the CQs go: nothing may complete after free */
	ib_drain_qp(p->qp[0]);
	ib_drain_qp(p->qp[1]);
}

/* Two users share a pool CQ; room comes back on put. */
static void verbs_cq_pool(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *a, *b, *c;

	a = ib_cq_pool_get(vt->dev, 100, -1, IB_POLL_WORKQUEUE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = ib_cq_pool_get(vt->dev, 200, -1, IB_POLL_WORKQUEUE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_PTR_EQ(test, a, b);	/* one vector, room for both */
	KUNIT_EXPECT_TRUE(test, a->shared);
	KUNIT_EXPECT_EQ(test, a->cqe_used, 300);
	KUNIT_EXPECT_GE(test, a->cqe, 300);
	/* a shared CQ cannot be moderated or resized by a user */
	KUNIT_EXPECT_EQ(test, rdma_set_cq_moderation(a, 4, 4), -EOPNOTSUPP);

	/* another context has a pool of its own */
	c = ib_cq_pool_get(vt->dev, 10, 0, IB_POLL_SOFTIRQ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	KUNIT_EXPECT_PTR_NE(test, c, a);
	KUNIT_EXPECT_EQ(test, c->poll_ctx, IB_POLL_SOFTIRQ);

	/* more than a CQ can hold is refused */
	KUNIT_EXPECT_TRUE(test, IS_ERR(ib_cq_pool_get(vt->dev, 1U << 30, 0,
						      IB_POLL_WORKQUEUE)));

	ib_cq_pool_put(a, 100);
	KUNIT_EXPECT_EQ(test, b->cqe_used, 200);
	ib_cq_pool_put(b, 200);
	KUNIT_EXPECT_EQ(test, a->cqe_used, 0);
	ib_cq_pool_put(c, 10);
	/* the pool is freed when the device unregisters */
}

/* UD: datagrams through an address handle, with the GRH room. */
static void verbs_ud_send(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *cq = new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_qp *qp[2];
	struct rdma_ah_attr ah_attr = {};
	struct ib_qp_attr a = {};
	struct ib_ud_wr wr = {};
	struct ib_sge sge, rsge;
	struct ib_ah *ah;
	struct tcqe *s = new_tcqe(test), *r = new_tcqe(test);
	u8 *sbuf, *rbuf;
	int i;

	for (i = 0; i < 2; i++) {
		qp[i] = new_qp(test, vt, IB_QPT_UD, cq, cq);
		a.qp_state = IB_QPS_INIT;
		a.port_num = 1;
		a.qkey = 0x1234;
		KUNIT_ASSERT_EQ(test, ib_modify_qp(qp[i], &a, IB_QP_STATE |
						   IB_QP_PORT | IB_QP_QKEY |
						   IB_QP_PKEY_INDEX), 0);
		a.qp_state = IB_QPS_RTR;
		KUNIT_ASSERT_EQ(test, ib_modify_qp(qp[i], &a, IB_QP_STATE), 0);
		a.qp_state = IB_QPS_RTS;
		KUNIT_ASSERT_EQ(test, ib_modify_qp(qp[i], &a, IB_QP_STATE |
						   IB_QP_SQ_PSN), 0);
	}

	ah_attr.type = rdma_ah_find_type(vt->dev, 1);
	KUNIT_EXPECT_EQ(test, ah_attr.type, RDMA_AH_ATTR_TYPE_IB);
	rdma_ah_set_dlid(&ah_attr, port_lid(vt->dev));
	rdma_ah_set_port_num(&ah_attr, 1);
	ah = rdma_create_ah(vt->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_ah, ah),
			0);
	memset(&ah_attr, 0, sizeof(ah_attr));
	KUNIT_EXPECT_EQ(test, rdma_query_ah(ah, &ah_attr), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&ah_attr), port_lid(vt->dev));

	sbuf = kunit_kzalloc(test, 256, GFP_KERNEL);
	rbuf = kunit_kzalloc(test, 256 + 40, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	get_random_bytes(sbuf, 256);
	sge = sge_of(vt->pd, sbuf, 256);
	rsge = sge_of(vt->pd, rbuf, 256 + 40);

	tcqe_init(r);
	tcqe_init(s);
	KUNIT_ASSERT_EQ(test, post_recv(qp[1], r, &rsge, 1), 0);
	wr.wr.wr_cqe = &s->cqe;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.wr.opcode = IB_WR_SEND;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.ah = ah;
	wr.remote_qpn = qp[1]->qp_num;
	wr.remote_qkey = 0x1234;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, s));
	KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, r));
	EXPECT_WC(test, s, IB_WC_SUCCESS, IB_WC_SEND);
	EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, 256 + 40);
	KUNIT_EXPECT_EQ(test, r->wc.src_qp, qp[0]->qp_num);
	KUNIT_EXPECT_EQ(test, r->wc.slid, port_lid(vt->dev));
	KUNIT_EXPECT_EQ(test, memcmp(rbuf + 40, sbuf, 256), 0);

	/* a wrong Q_Key drops the datagram: the sender still succeeds */
	tcqe_init(r);
	tcqe_init(s);
	KUNIT_ASSERT_EQ(test, post_recv(qp[1], r, &rsge, 1), 0);
	wr.remote_qkey = 0x4321;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, s));
	EXPECT_WC(test, s, IB_WC_SUCCESS, IB_WC_SEND);
	KUNIT_EXPECT_TRUE(test, cq_stays_empty(cq, r));
	ib_drain_qp(qp[1]);
	EXPECT_WC(test, r, IB_WC_WR_FLUSH_ERR, 0);
}

/* An SRQ feeds two QPs; the limit event fires once armed. */
static atomic_t srq_limit_events;

static void srq_event(struct ib_event *ev, void *ctx)
{
	if (ev->event == IB_EVENT_SRQ_LIMIT_REACHED)
		atomic_inc(&srq_limit_events);
}

static void verbs_srq(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *cq = new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_srq_init_attr sattr = {
		.event_handler = srq_event,
		.attr = { .max_wr = 16, .max_sge = 2 },
		.srq_type = IB_SRQT_BASIC,
	};
	struct ib_srq_attr qattr;
	struct ib_qp *a, *b, *c;
	struct ib_sge sge, rsge;
	struct tcqe *r = new_tcqes(test, 4), *s = new_tcqes(test, 2);
	unsigned long start;
	struct ib_srq *srq;
	u8 *sbuf, *rbuf;
	int i;

	atomic_set(&srq_limit_events, 0);
	srq = ib_create_srq(vt->pd, &sattr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_srq,
							srq), 0);
	KUNIT_EXPECT_EQ(test, ib_query_srq(srq, &qattr), 0);
	KUNIT_EXPECT_EQ(test, qattr.max_wr, 16);

	a = new_qp(test, vt, IB_QPT_RC, cq, cq);
	b = new_qp_on(test, vt, vt->pd, IB_QPT_RC, cq, cq, srq);
	c = new_qp_on(test, vt, vt->pd, IB_QPT_RC, cq, cq, srq);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq->usecnt), 2);
	/* b and c both answer a: b first, then c */
	KUNIT_ASSERT_EQ(test, to_rts(a, b->qp_num, port_lid(vt->dev), 0), 0);
	KUNIT_ASSERT_EQ(test, to_rts(b, a->qp_num, port_lid(vt->dev), 0), 0);
	KUNIT_ASSERT_EQ(test, to_rts(c, a->qp_num, port_lid(vt->dev), 0), 0);

	sbuf = kunit_kzalloc(test, 64, GFP_KERNEL);
	rbuf = kunit_kzalloc(test, 4 * 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	for (i = 0; i < 4; i++) {
		struct ib_recv_wr wr = { .sg_list = &rsge, .num_sge = 1 };

		rsge = sge_of(vt->pd, rbuf + i * 64, 64);
		tcqe_init(&r[i]);
		wr.wr_cqe = &r[i].cqe;
		KUNIT_ASSERT_EQ(test, ib_post_srq_recv(srq, &wr, NULL), 0);
	}
	qattr.srq_limit = 3;
	KUNIT_ASSERT_EQ(test, ib_modify_srq(srq, &qattr, IB_SRQ_LIMIT), 0);

	get_random_bytes(sbuf, 64);
	sge = sge_of(vt->pd, sbuf, 64);
	for (i = 0; i < 2; i++) {
		tcqe_init(&s[i]);
		KUNIT_ASSERT_EQ(test, post_send(a, &s[i], IB_WR_SEND, &sge, 1,
						0), 0);
		KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, &s[i]));
		EXPECT_WC(test, &s[i], IB_WC_SUCCESS, IB_WC_SEND);
		KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, &r[i]));
		EXPECT_WC(test, &r[i], IB_WC_SUCCESS, IB_WC_RECV);
		KUNIT_EXPECT_PTR_EQ(test, r[i].wc.qp, b);
		KUNIT_EXPECT_EQ(test, memcmp(rbuf + i * 64, sbuf, 64), 0);
	}
	/* 2 left < limit 3: one event, then disarmed */
	KUNIT_EXPECT_EQ(test, atomic_read(&srq_limit_events), 1);

	/* an SRQ with QPs attached cannot go */
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), -EBUSY);
	/*
	 * Draining a QP on an SRQ waits for the last WQE event (and gives up
	 * after a minute without it): it must come at once.
	 */
	start = jiffies;
	ib_drain_qp(c);
	KUNIT_EXPECT_EQ(test, qp_state(c), IB_QPS_ERR);
	KUNIT_EXPECT_LT(test, jiffies - start, 10 * HZ);
}

/* Connect two RC QPs of one loop device to each other. */
static void connect_rc(struct kunit *test, struct vt *vt, struct ib_qp *a,
		       struct ib_qp *b)
{
	KUNIT_ASSERT_EQ(test, to_rts(a, b->qp_num, port_lid(vt->dev), 0), 0);
	KUNIT_ASSERT_EQ(test, to_rts(b, a->qp_num, port_lid(vt->dev), 0), 0);
}

/* A send buffer of random bytes and a zeroed receive buffer. */
static void new_bufs(struct kunit *test, size_t len, u8 **sbuf, u8 **rbuf)
{
	*sbuf = kunit_kzalloc(test, len, GFP_KERNEL);
	*rbuf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *sbuf);
	KUNIT_ASSERT_NOT_NULL(test, *rbuf);
	get_random_bytes(*sbuf, len);
}

/* Post @n receives of @len bytes each into @rbuf on @qp. */
static void post_recvs(struct kunit *test, struct ib_qp *qp, struct tcqe *r,
		       u8 *rbuf, u32 len, int n)
{
	struct ib_sge rsge;
	int i;

	for (i = 0; i < n; i++) {
		rsge = sge_of(qp->pd, rbuf + i * len, len);
		tcqe_init(&r[i]);
		KUNIT_ASSERT_EQ(test, post_recv(qp, &r[i], &rsge, 1), 0);
	}
}

/* Send @n messages of @len bytes from @sbuf on @qp and wait for each. */
static void send_n(struct kunit *test, struct ib_qp *qp, struct ib_cq *cq,
		   struct tcqe *s, u8 *sbuf, u32 len, int n)
{
	struct ib_sge sge;
	int i;

	for (i = 0; i < n; i++) {
		sge = sge_of(qp->pd, sbuf + i * len, len);
		tcqe_init(&s[i]);
		KUNIT_ASSERT_EQ(test, post_send(qp, &s[i], IB_WR_SEND, &sge, 1,
						0), 0);
		KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, &s[i]));
		EXPECT_WC(test, &s[i], IB_WC_SUCCESS, IB_WC_SEND);
	}
}

/*
 * A CQ grows with completions waiting in it, which it keeps in order; it
 * cannot shrink below what waits; shared CQs cannot be resized.
 */
static void verbs_cq_resize(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *scq = new_cq(test, vt, IB_POLL_DIRECT), *rcq, *pcq;
	struct tcqe *r = new_tcqes(test, 12), *s = new_tcqes(test, 12);
	struct ib_device_attr *da = &vt->dev->attrs;
	struct ib_qp *a, *b;
	u8 *sbuf, *rbuf;
	int i;

	rcq = ib_alloc_cq(vt->dev, NULL, 4, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rcq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_cq, rcq),
			0);
	KUNIT_ASSERT_EQ(test, rcq->cqe, 4);
	a = new_qp(test, vt, IB_QPT_RC, scq, scq);
	b = new_qp(test, vt, IB_QPT_RC, scq, rcq);
	connect_rc(test, vt, a, b);

	new_bufs(test, 12 * 32, &sbuf, &rbuf);

	/* a sender's completion follows its receiver's: 3 wait in rcq */
	post_recvs(test, b, r, rbuf, 32, 3);
	send_n(test, a, scq, s, sbuf, 32, 3);

	KUNIT_EXPECT_EQ(test, ib_resize_cq(rcq, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(rcq, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(rcq, da->max_cqe + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcq->cqe, 4);
	KUNIT_ASSERT_EQ(test, ib_resize_cq(rcq, 12), 0);
	KUNIT_EXPECT_EQ(test, rcq->cqe, 12);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_FALSE(test, completion_done(&r[i].done));
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(rcq, -1), 3);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_TRUE(test, completion_done(&r[i].done));
		EXPECT_WC(test, &r[i], IB_WC_SUCCESS, IB_WC_RECV);
	}

	/* 12 completions now fit where 4 did */
	post_recvs(test, b, r, rbuf, 32, 12);
	send_n(test, a, scq, s, sbuf, 32, 12);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(rcq, -1), 12);
	for (i = 0; i < 12; i++)
		EXPECT_WC(test, &r[i], IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, memcmp(rbuf, sbuf, 12 * 32), 0);
	/* shrinking an empty CQ works */
	KUNIT_EXPECT_EQ(test, ib_resize_cq(rcq, 1), 0);
	KUNIT_EXPECT_EQ(test, rcq->cqe, 1);

	pcq = ib_cq_pool_get(vt->dev, 8, 0, IB_POLL_SOFTIRQ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pcq);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(pcq, 64), -EOPNOTSUPP);
	ib_cq_pool_put(pcq, 8);
}

static atomic_t cq_err_events;

static void cq_event(struct ib_event *ev, void *ctx)
{
	if (ev->event == IB_EVENT_CQ_ERR && ev->element.cq == ctx)
		atomic_inc(&cq_err_events);
}

/* A CQ that overruns reports IB_EVENT_CQ_ERR and keeps what it held. */
static void verbs_cq_overrun(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq_init_attr cattr = { .cqe = 2 };
	struct ib_cq *scq = new_cq(test, vt, IB_POLL_DIRECT), *rcq;
	struct tcqe *r = new_tcqes(test, 3), *s = new_tcqes(test, 3);
	struct ib_wc wc[4];
	struct ib_qp *a, *b;
	u8 *sbuf, *rbuf;
	int i;

	atomic_set(&cq_err_events, 0);
	rcq = ib_create_cq(vt->dev, NULL, cq_event, NULL, &cattr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rcq);
	rcq->cq_context = rcq;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_cq, rcq),
			0);
	a = new_qp(test, vt, IB_QPT_RC, scq, scq);
	b = new_qp(test, vt, IB_QPT_RC, scq, rcq);
	connect_rc(test, vt, a, b);

	new_bufs(test, 3 * 16, &sbuf, &rbuf);
	post_recvs(test, b, r, rbuf, 16, 3);
	send_n(test, a, scq, s, sbuf, 16, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq_err_events), 0);
	send_n(test, a, scq, s, sbuf + 32, 16, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq_err_events), 1);

	/* the two that fitted, in order; the third is lost */
	KUNIT_ASSERT_EQ(test, ib_poll_cq(rcq, ARRAY_SIZE(wc), wc), 2);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_SUCCESS);
		KUNIT_EXPECT_PTR_EQ(test, wc[i].wr_cqe, &r[i].cqe);
	}
	KUNIT_EXPECT_EQ(test, memcmp(rbuf, sbuf, 3 * 16), 0);
}

/*
 * An SRQ grows with receives posted, which it hands out in order; it
 * cannot shrink below what it holds; limit and size change in one call.
 */
static void verbs_srq_resize(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *cq = new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_srq_init_attr sattr = {
		.attr = { .max_wr = 4, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};
	struct tcqe *r = new_tcqes(test, 10), *s = new_tcqes(test, 10);
	struct ib_srq_attr qattr = {};
	struct ib_recv_wr wr = { .num_sge = 1 };
	struct ib_sge rsge;
	struct ib_srq *srq;
	struct ib_qp *a, *b;
	u8 *sbuf, *rbuf;
	int i;

	srq = ib_create_srq(vt->pd, &sattr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_srq,
							srq), 0);
	a = new_qp(test, vt, IB_QPT_RC, cq, cq);
	b = new_qp_on(test, vt, vt->pd, IB_QPT_RC, cq, cq, srq);
	connect_rc(test, vt, a, b);

	new_bufs(test, 10 * 32, &sbuf, &rbuf);

	wr.sg_list = &rsge;
	for (i = 0; i < 10; i++) {
		rsge = sge_of(vt->pd, rbuf + i * 32, 32);
		tcqe_init(&r[i]);
		wr.wr_cqe = &r[i].cqe;
		if (i == 4) {
			/* full with 4: it cannot shrink to 2, it grows to 10 */
			KUNIT_EXPECT_EQ(test, ib_post_srq_recv(srq, &wr, NULL),
					-ENOMEM);
			qattr.max_wr = 2;
			KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &qattr,
							    IB_SRQ_MAX_WR),
					-EINVAL);
			qattr.max_wr = 10;
			qattr.srq_limit = 10;
			KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &qattr,
							    IB_SRQ_MAX_WR |
							    IB_SRQ_LIMIT),
					-EINVAL);
			qattr.srq_limit = 0;
			KUNIT_ASSERT_EQ(test, ib_modify_srq(srq, &qattr,
							    IB_SRQ_MAX_WR), 0);
			KUNIT_ASSERT_EQ(test, ib_query_srq(srq, &qattr), 0);
			KUNIT_EXPECT_EQ(test, qattr.max_wr, 10);
		}
		KUNIT_ASSERT_EQ(test, ib_post_srq_recv(srq, &wr, NULL), 0);
	}
	send_n(test, a, cq, s, sbuf, 32, 10);
	for (i = 0; i < 10; i++) {
		KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, &r[i]));
		EXPECT_WC(test, &r[i], IB_WC_SUCCESS, IB_WC_RECV);
	}
	KUNIT_EXPECT_EQ(test, memcmp(rbuf, sbuf, 10 * 32), 0);
}

/* Send @len bytes of @sbuf over UD from @qp to @dqpn through @ah. */
static void ud_send(struct kunit *test, struct ib_qp *qp, struct ib_cq *cq,
		    struct ib_ah *ah, u32 dqpn, u8 *sbuf, u32 len)
{
	struct tcqe *s = new_tcqe(test);
	struct ib_sge sge = sge_of(qp->pd, sbuf, len);
	struct ib_ud_wr wr = {
		.wr = {
			.wr_cqe = &s->cqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.ah = ah,
		.remote_qpn = dqpn,
		.remote_qkey = 0x1234,
	};

	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, s));
	EXPECT_WC(test, s, IB_WC_SUCCESS, IB_WC_SEND);
}

static struct ib_qp *new_ud_qp(struct kunit *test, struct vt *vt,
			       struct ib_cq *cq)
{
	struct ib_qp *qp = new_qp(test, vt, IB_QPT_UD, cq, cq);
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qkey = 0x1234,
	};

	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_QKEY | IB_QP_PKEY_INDEX), 0);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE |
					   IB_QP_SQ_PSN), 0);
	return qp;
}

/*
 * A datagram sent through an AH with a GRH lands after that GRH and says
 * so in its completion; the AH made from the completion answers it, GRH
 * included.  Without a GRH the 40 bytes stay untouched.
 */
static void verbs_ud_grh(struct kunit *test)
{
	struct vt *x = new_vt(test), *y = new_vt(test);
	struct ib_cq *cx = new_cq(test, x, IB_POLL_DIRECT);
	struct ib_cq *cy = new_cq(test, y, IB_POLL_DIRECT);
	struct ib_qp *qx = new_ud_qp(test, x, cx), *qy = new_ud_qp(test, y, cy);
	struct rdma_ah_attr attr = {};
	union ib_gid xgid, ygid;
	struct tcqe *r = new_tcqe(test);
	struct ib_grh *grh;
	struct ib_ah *ah, *back;
	struct ib_sge rsge;
	u8 *sbuf, *rbuf;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(x->dev, 1, 0, &xgid), 0);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(y->dev, 1, 0, &ygid), 0);
	sbuf = kunit_kzalloc(test, 100, GFP_KERNEL);
	rbuf = kunit_kzalloc(test, 100 + 40, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	get_random_bytes(sbuf, 100);
	grh = (struct ib_grh *)rbuf;

	attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&attr, port_lid(y->dev));
	rdma_ah_set_port_num(&attr, 1);
	rdma_ah_set_grh(&attr, &ygid, 0x12345, 0, 64, 0x5a);
	ah = rdma_create_ah(x->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_ah, ah),
			0);

	rsge = sge_of(y->pd, rbuf, 100 + 40);
	tcqe_init(r);
	KUNIT_ASSERT_EQ(test, post_recv(qy, r, &rsge, 1), 0);
	ud_send(test, qx, cx, ah, qy->qp_num, sbuf, 100);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(cy, r));
	EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_TRUE(test, r->wc.wc_flags & IB_WC_GRH);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, 100 + 40);
	KUNIT_EXPECT_EQ(test, memcmp(rbuf + 40, sbuf, 100), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(grh->version_tclass_flow),
			6U << 28 | 0x5aU << 20 | 0x12345);
	KUNIT_EXPECT_EQ(test, grh->next_hdr, 0x1b);
	KUNIT_EXPECT_EQ(test, grh->hop_limit, 64);
	KUNIT_EXPECT_EQ(test, memcmp(&grh->sgid, &xgid, sizeof(xgid)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&grh->dgid, &ygid, sizeof(ygid)), 0);

	/* the answer goes back to x with a GRH towards x's GID */
	back = ib_create_ah_from_wc(y->pd, &r->wc, grh, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, back);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_ah, back),
			0);
	memset(&attr, 0, sizeof(attr));
	KUNIT_ASSERT_EQ(test, rdma_query_ah(back, &attr), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr), port_lid(x->dev));
	KUNIT_EXPECT_TRUE(test, rdma_ah_get_ah_flags(&attr) & IB_AH_GRH);
	KUNIT_EXPECT_EQ(test, memcmp(&rdma_ah_read_grh(&attr)->dgid, &xgid,
				     sizeof(xgid)), 0);

	KUNIT_EXPECT_EQ(test, r->wc.src_qp, qx->qp_num);
	memset(rbuf, 0xee, 100 + 40);
	rsge = sge_of(x->pd, rbuf, 100 + 40);
	tcqe_init(r);
	KUNIT_ASSERT_EQ(test, post_recv(qx, r, &rsge, 1), 0);
	ud_send(test, qy, cy, back, qx->qp_num, sbuf, 100);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(cx, r));
	EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, r->wc.src_qp, qy->qp_num);
	KUNIT_EXPECT_TRUE(test, r->wc.wc_flags & IB_WC_GRH);
	KUNIT_EXPECT_EQ(test, memcmp(&grh->sgid, &ygid, sizeof(ygid)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&grh->dgid, &xgid, sizeof(xgid)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(rbuf + 40, sbuf, 100), 0);

	/* no GRH: flag clear, the reserved bytes untouched */
	memset(&attr, 0, sizeof(attr));
	attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&attr, port_lid(y->dev));
	rdma_ah_set_port_num(&attr, 1);
	ah = rdma_create_ah(x->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_ah, ah),
			0);
	memset(rbuf, 0xee, 100 + 40);
	rsge = sge_of(y->pd, rbuf, 100 + 40);
	tcqe_init(r);
	KUNIT_ASSERT_EQ(test, post_recv(qy, r, &rsge, 1), 0);
	ud_send(test, qx, cx, ah, qy->qp_num, sbuf, 100);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(cy, r));
	EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_FALSE(test, r->wc.wc_flags & IB_WC_GRH);
	KUNIT_EXPECT_EQ(test, rbuf[0], 0xee);
	KUNIT_EXPECT_EQ(test, rbuf[39], 0xee);
	KUNIT_EXPECT_EQ(test, memcmp(rbuf + 40, sbuf, 100), 0);
}

static atomic_t sq_drained_events;

static void qp_event(struct ib_event *ev, void *ctx)
{
	struct tcqe *t = ctx;

	if (ev->event == IB_EVENT_SQ_DRAINED) {
		atomic_inc(&sq_drained_events);
		complete(&t->done);
	}
}

/*
 * RTS -> SQD stops the send queue and, when asked, reports that it has
 * drained; requests posted in SQD wait for the return to RTS.
 */
static void verbs_sqd(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct tcqe *r = new_tcqes(test, 2), *s = new_tcqes(test, 2);
	struct tcqe *ev = new_tcqe(test);
	struct ib_qp *a = p->qp[0], *b = p->qp[1];
	struct ib_qp_attr attr = {};
	struct ib_sge sge;

	atomic_set(&sq_drained_events, 0);
	a->qp_context = ev;
	a->event_handler = qp_event;
	get_random_bytes(p->buf[0], 2 * 64);
	post_recvs(test, b, r, p->buf[1], 64, 2);

	attr.qp_state = IB_QPS_SQD;
	attr.en_sqd_async_notify = 1;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE |
					   IB_QP_EN_SQD_ASYNC_NOTIFY), 0);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&ev->done,
							    HZ * 10));
	KUNIT_EXPECT_EQ(test, qp_state(a), IB_QPS_SQD);

	/* posted in SQD: held */
	sge = sge_of(a->pd, p->buf[0], 64);
	KUNIT_ASSERT_EQ(test, post_send(a, &s[0], IB_WR_SEND, &sge, 1, 0), 0);
	KUNIT_EXPECT_TRUE(test, cq_stays_empty(p->cq[0], &s[0]));
	KUNIT_EXPECT_TRUE(test, cq_stays_empty(p->cq[1], &r[0]));

	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], &s[0]));
	EXPECT_WC(test, &s[0], IB_WC_SUCCESS, IB_WC_SEND);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], &r[0]));
	EXPECT_WC(test, &r[0], IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1], p->buf[0], 64), 0);

	/* without the notify flag SQD is as quiet as before */
	attr.qp_state = IB_QPS_SQD;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE), 0);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&sq_drained_events), 1);
	/* SQD -> SQD may change attributes; then back to RTS */
	attr.timeout = 15;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE |
					   IB_QP_TIMEOUT), 0);
	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE), 0);
	sge = sge_of(a->pd, p->buf[0] + 64, 64);
	KUNIT_ASSERT_EQ(test, post_send(a, &s[1], IB_WR_SEND, &sge, 1, 0), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], &s[1]));
	EXPECT_WC(test, &s[1], IB_WC_SUCCESS, IB_WC_SEND);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], &r[1]));
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1] + 64, p->buf[0] + 64, 64), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&sq_drained_events), 1);
}

/* A QP of one loop device talks to a QP of another (by LID). */
static void verbs_two_devices(struct kunit *test)
{
	struct vt *x = new_vt(test), *y = new_vt(test);
	struct ib_cq *cx = new_cq(test, x, IB_POLL_DIRECT);
	struct ib_cq *cy = new_cq(test, y, IB_POLL_DIRECT);
	struct ib_qp *qx = new_qp(test, x, IB_QPT_RC, cx, cx);
	struct ib_qp *qy = new_qp(test, y, IB_QPT_RC, cy, cy);
	struct ib_sge sge, rsge;
	struct tcqe *s = new_tcqe(test), *r = new_tcqe(test);
	u8 *sbuf, *rbuf;

	KUNIT_ASSERT_NE(test, port_lid(x->dev), port_lid(y->dev));
	KUNIT_ASSERT_EQ(test, to_rts(qx, qy->qp_num, port_lid(y->dev), 0), 0);
	KUNIT_ASSERT_EQ(test, to_rts(qy, qx->qp_num, port_lid(x->dev), 0), 0);

	sbuf = kunit_kzalloc(test, 512, GFP_KERNEL);
	rbuf = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	get_random_bytes(sbuf, 512);
	sge = sge_of(x->pd, sbuf, 512);
	rsge = sge_of(y->pd, rbuf, 512);
	tcqe_init(s);
	tcqe_init(r);
	KUNIT_ASSERT_EQ(test, post_recv(qy, r, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, post_send(qx, s, IB_WR_SEND, &sge, 1, 0), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(cx, s));
	KUNIT_ASSERT_TRUE(test, tcqe_wait(cy, r));
	EXPECT_WC(test, s, IB_WC_SUCCESS, IB_WC_SEND);
	EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, r->wc.slid, port_lid(x->dev));
	KUNIT_EXPECT_EQ(test, memcmp(rbuf, sbuf, 512), 0);
}

/* Objects are tracked with their owner and counted in their parents. */
static void verbs_restrack(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_device *dev = p->vt->dev;
	struct ib_mr *mr;

	KUNIT_EXPECT_EQ(test, rdma_restrack_count(dev, RDMA_RESTRACK_QP,
						  false), 2);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(dev, RDMA_RESTRACK_CQ,
						  false), 2);
	KUNIT_EXPECT_STREQ(test, p->qp[0]->res.kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_STREQ(test, p->cq[0]->res.kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_EQ(test, p->qp[0]->res.id, p->qp[0]->qp_num);
	/* PD: 2 QPs and the internal DMA MR is not counted by the core */
	KUNIT_EXPECT_EQ(test, atomic_read(&p->vt->pd->usecnt), 2);
	/* a QP counts once as send and once as receive CQ user */
	KUNIT_EXPECT_EQ(test, atomic_read(&p->cq[0]->usecnt), 2);

	mr = ib_alloc_mr(p->vt->pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(dev, RDMA_RESTRACK_MR,
						  false), 1);
	KUNIT_EXPECT_STREQ(test, mr->res.kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->vt->pd->usecnt), 3);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->vt->pd->usecnt), 2);
	/* a CQ with a QP on it cannot be destroyed */
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(p->cq[1], NULL), -EBUSY);
}

/*
 * A client with QPs and posted work on a device that goes away: its
 * remove() drains and frees everything, and the unregistration finishes.
 */
struct ulp {
	struct ib_pd	*pd;
	struct ib_cq	*cq;
	struct ib_qp	*qp[2];
	struct tcqe	r[8], s;
	u8		*buf;
	bool		added, removed;
	int		flushed;
};

static struct ib_device *ulp_dev;
static struct ulp ulp_state;

static int ulp_add(struct ib_device *dev)
{
	struct ulp *u = &ulp_state;
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_sge sge;
	int i, j;

	if (dev != ulp_dev)
		return -EOPNOTSUPP;
	u->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(u->pd))
		return PTR_ERR(u->pd);
	u->cq = ib_alloc_cq(dev, u, 64, 0, IB_POLL_WORKQUEUE);
	if (IS_ERR(u->cq))
		goto err_pd;
	attr.send_cq = u->cq;
	attr.recv_cq = u->cq;
	for (i = 0; i < 2; i++) {
		u->qp[i] = ib_create_qp(u->pd, &attr);
		if (IS_ERR(u->qp[i]))
			goto err_qp;
	}
	for (i = 0; i < 2; i++)
		if (to_rts(u->qp[i], u->qp[!i]->qp_num, port_lid(dev), 7))
			goto err_qp;
	sge = sge_of(u->pd, u->buf, 64);
	for (j = 0; j < 8; j++) {
		tcqe_init(&u->r[j]);
		if (post_recv(u->qp[0], &u->r[j], &sge, 1))
			goto err_qp;
	}
	/* a send nobody receives: it waits for ever (RNR retry 7) */
	tcqe_init(&u->s);
	if (post_send(u->qp[0], &u->s, IB_WR_SEND, &sge, 1, 0))
		goto err_qp;
	u->added = true;
	return 0;

err_qp:
	while (i-- > 0)
		ib_destroy_qp(u->qp[i]);
	ib_free_cq(u->cq);
err_pd:
	ib_dealloc_pd(u->pd);
	return -ENOMEM;
}

static void ulp_remove(struct ib_device *dev, void *client_data)
{
	struct ulp *u = &ulp_state;
	int i;

	if (!u->added || dev != ulp_dev)
		return;
	for (i = 0; i < 2; i++)
		ib_drain_qp(u->qp[i]);
	for (i = 0; i < 8; i++)
		if (completion_done(&u->r[i].done) &&
		    u->r[i].wc.status == IB_WC_WR_FLUSH_ERR)
			u->flushed++;
	if (completion_done(&u->s.done) &&
	    u->s.wc.status == IB_WC_WR_FLUSH_ERR)
		u->flushed++;
	for (i = 0; i < 2; i++)
		ib_destroy_qp(u->qp[i]);
	ib_free_cq(u->cq);
	ib_dealloc_pd(u->pd);
	u->removed = true;
}

static struct ib_client ulp_client = {
	.name = "verbs_kunit_ulp",
	.add = ulp_add,
	.remove = ulp_remove,
};

static void verbs_unregister_with_work(struct kunit *test)
{
	struct ib_device *dev;

	memset(&ulp_state, 0, sizeof(ulp_state));
	ulp_state.buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ulp_state.buf);

	dev = rdma_loop_add_device("kuvb%d");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	ulp_dev = dev;
	if (ib_register_client(&ulp_client)) {
		rdma_loop_remove_device(dev);
		KUNIT_FAIL(test, "client registration failed");
		return;
	}
	KUNIT_EXPECT_TRUE(test, ulp_state.added);
	/* let the send spin in RNR retries for a moment */
	msleep(20);

	rdma_loop_remove_device(dev);
	KUNIT_EXPECT_TRUE(test, ulp_state.removed);
	KUNIT_EXPECT_EQ(test, ulp_state.flushed, 9);
	ib_unregister_client(&ulp_client);
	ulp_dev = NULL;
}

/*
 * Receive work queues are optional for drivers and rdmavt has none (as
 * upstream's software drivers): ib_create_wq() says -EOPNOTSUPP and
 * leaves the PD and CQ untouched.
 */
static void verbs_wq_unsupported(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *cq = new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_wq_init_attr attr = {
		.wq_type = IB_WQT_RQ,
		.max_wr = 16,
		.max_sge = 1,
		.cq = cq,
	};
	int pd_users = atomic_read(&vt->pd->usecnt);
	int cq_users = atomic_read(&cq->usecnt);

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_wq(vt->pd, &attr)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&vt->pd->usecnt), pd_users);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), cq_users);
}

static struct kunit_case rdma_verbs_cases[] = {
	KUNIT_CASE(verbs_pd_keys),
	KUNIT_CASE(verbs_rc_send),
	KUNIT_CASE(verbs_rc_send_imm_inline),
	KUNIT_CASE(verbs_rc_write_read),
	KUNIT_CASE(verbs_rc_atomics),
	KUNIT_CASE(verbs_rc_atomics_ok),
	KUNIT_CASE(verbs_rc_send_inv),
	KUNIT_CASE(verbs_uc),
	KUNIT_CASE(verbs_map_mr_sg_gap),
	KUNIT_CASE(verbs_rc_errors),
	KUNIT_CASE(verbs_rc_local_errors),
	KUNIT_CASE(verbs_rc_rnr),
	KUNIT_CASE(verbs_rc_rnr_recovers),
	KUNIT_CASE(verbs_qp_state_rules),
	KUNIT_CASE_PARAM(verbs_drain, drain_gen_params),
	KUNIT_CASE_PARAM(verbs_poll_context, poll_gen_params),
	KUNIT_CASE(verbs_cq_pool),
	KUNIT_CASE(verbs_ud_send),
	KUNIT_CASE(verbs_ud_grh),
	KUNIT_CASE(verbs_srq),
	KUNIT_CASE(verbs_srq_resize),
	KUNIT_CASE(verbs_cq_resize),
	KUNIT_CASE(verbs_cq_overrun),
	KUNIT_CASE(verbs_sqd),
	KUNIT_CASE(verbs_two_devices),
	KUNIT_CASE(verbs_restrack),
	KUNIT_CASE(verbs_unregister_with_work),
	KUNIT_CASE(verbs_wq_unsupported),
	{}
};

static struct kunit_suite rdma_verbs_suite = {
	.name = "rdma_verbs",
	.test_cases = rdma_verbs_cases,
};

kunit_test_suite(rdma_verbs_suite);

MODULE_DESCRIPTION("KUnit tests of the RDMA kernel verbs on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
