// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_ah": address handles (core/ib_core/verbs/ah.c) on loop
 * devices: UD datagrams through an AH, with a wrong Q_Key, through an AH with a
 * GRH (checked field by field) and back through the AH that
 * ib_create_ah_from_wc() makes of the completion.
 */

#include <kunit/test.h>
#include <kunit/rdma_verbs.h>

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

static struct kunit_case rdma_ah_cases[] = {
	KUNIT_CASE(verbs_ud_send),
	KUNIT_CASE(verbs_ud_grh),
	{}
};

static struct kunit_suite rdma_ah_suite = {
	.name = "rdma_ah",
	.test_cases = rdma_ah_cases,
};

kunit_test_suite(rdma_ah_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA address handles on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
