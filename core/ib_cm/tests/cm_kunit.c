// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_ib_cm": the IB CM between two loop devices, every
 * message a real MAD on QP1: connect (REQ, REP, RTU) and disconnect
 * (DREQ, DREP) with both ends' events and states, timewait and its exit,
 * REJ by the consumer and by the CM (no listener), MRA, the listen rules
 * (exact service IDs, assigned ones, ib_cm_insert_listen()), ECE and the
 * alternate path of a REQ, ib_cm_init_qp_attr() taking two real RC QPs
 * to RTS and data over them, ib_cm_notify(), CM IDs destroyed by their
 * handler's return and by the consumer in mid-exchange (a SIDR REQ's
 * while its handler runs), and the counters in sysfs.
 */

#include <kunit/rdma_verbs.h>
#include <linux/delay.h>
#include <linux/kthread.h>

#include "cm_test.h"

/* REQ, REP, RTU, then DREQ and DREP, with what each side sees */
static void cm_connect_disconnect(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct ib_cm_id *ia, *ib;
	struct sa_path_rec path;
	struct cmt_ev *ev;

	cmt_listen(test, b, CMT_SID);
	b->drep_on_dreq = true;
	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, 0x111, CMT_SLOW, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_REQ_SENT);

	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	ib = ev->id;
	KUNIT_EXPECT_EQ(test, ev->state, IB_CM_REQ_RCVD);
	KUNIT_EXPECT_STREQ(test, (char *)ev->priv, "hello");
	KUNIT_EXPECT_EQ(test, ev->remote_qpn, 0x111);
	KUNIT_EXPECT_EQ(test, ev->starting_psn, 0x1234);
	KUNIT_EXPECT_EQ(test, ev->pkey, 0xffff);
	KUNIT_EXPECT_FALSE(test, ev->has_alt);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(ib->remote_id),
			be32_to_cpu(ia->local_id));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ib->service_id),
			be64_to_cpu(CMT_SID));
	KUNIT_EXPECT_PTR_EQ(test, ev->listen_id, b->ids[0].id);

	cmt_rep_param(&rep, 0x222);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(ib, &rep), 0);
	KUNIT_EXPECT_EQ(test, ib->state, IB_CM_REP_SENT);
	/* a second REP is refused */
	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(ib, &rep), -EINVAL);

	ev = cmt_wait(test, a, 0, IB_CM_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->state, IB_CM_REP_RCVD);
	KUNIT_EXPECT_STREQ(test, (char *)ev->priv, "world");
	KUNIT_EXPECT_EQ(test, ev->remote_qpn, 0x222);
	KUNIT_EXPECT_EQ(test, ev->starting_psn, 0x5678);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(ia->remote_id),
			be32_to_cpu(ib->local_id));

	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(ia, "rtu", 3), 0);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_ESTABLISHED);
	ev = cmt_wait(test, b, 1, IB_CM_RTU_RECEIVED);
	KUNIT_EXPECT_STREQ(test, (char *)ev->priv, "rtu");
	KUNIT_EXPECT_EQ(test, ib->state, IB_CM_ESTABLISHED);

	/* disconnect: B's handler answers the DREQ with a DREP */
	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(ia, "bye", 4), 0);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_DREQ_SENT);
	ev = cmt_wait(test, b, 2, IB_CM_DREQ_RECEIVED);
	KUNIT_EXPECT_STREQ(test, (char *)ev->priv, "bye");
	KUNIT_EXPECT_EQ(test, ev->state, IB_CM_DREQ_RCVD);
	ev = cmt_wait(test, a, 1, IB_CM_DREP_RECEIVED);
	KUNIT_EXPECT_STREQ(test, (char *)ev->priv, "drep");
	KUNIT_EXPECT_EQ(test, ev->state, IB_CM_TIMEWAIT);

	/* both ends leave timewait on their own */
	cmt_wait(test, a, 2, IB_CM_TIMEWAIT_EXIT);
	cmt_wait(test, b, 3, IB_CM_TIMEWAIT_EXIT);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, ib->state, IB_CM_IDLE);
	/* not established any more */
	KUNIT_EXPECT_EQ(test, ib_send_cm_dreq(ia, NULL, 0), -EINVAL);

	/* each message counted once at each end, none twice */
	cmt_wait_counter(test, a->vt->dev, "cm_tx_msgs", "req", 1);
	cmt_wait_counter(test, a->vt->dev, "cm_tx_msgs", "rtu", 1);
	cmt_wait_counter(test, a->vt->dev, "cm_tx_msgs", "dreq", 1);
	cmt_wait_counter(test, a->vt->dev, "cm_rx_msgs", "rep", 1);
	cmt_wait_counter(test, a->vt->dev, "cm_rx_msgs", "drep", 1);
	cmt_wait_counter(test, b->vt->dev, "cm_rx_msgs", "req", 1);
	cmt_wait_counter(test, b->vt->dev, "cm_rx_msgs", "rtu", 1);
	cmt_wait_counter(test, b->vt->dev, "cm_rx_msgs", "dreq", 1);
	cmt_wait_counter(test, b->vt->dev, "cm_tx_msgs", "rep", 1);
	cmt_wait_counter(test, b->vt->dev, "cm_tx_msgs", "drep", 1);
	KUNIT_EXPECT_EQ(test, cmt_counter(test, a->vt->dev, "cm_tx_retries",
					  "req"), 0);
	KUNIT_EXPECT_EQ(test, cmt_counter(test, b->vt->dev, "cm_rx_duplicates",
					  "req"), 0);
	KUNIT_EXPECT_EQ(test, a->n, 3);
	KUNIT_EXPECT_EQ(test, b->n, 4);
}

/* The listener's consumer refuses: REJ consumer-defined with its data */
static void cm_reject_by_consumer(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	u8 ari[2] = { 0xa5, 0x5a };
	struct ib_cm_req_param req;
	struct sa_path_rec path;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;

	cmt_listen(test, b, CMT_SID);
	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, 0x111, CMT_SLOW, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rej(ev->id, IB_CM_REJ_CONSUMER_DEFINED,
					     ari, sizeof(ari), "nope", 5), 0);
	KUNIT_EXPECT_EQ(test, ev->id->state, IB_CM_IDLE);
	/* nothing left to reject */
	KUNIT_EXPECT_EQ(test, ib_send_cm_rej(ev->id, IB_CM_REJ_CONSUMER_DEFINED,
					     NULL, 0, NULL, 0), -EINVAL);

	ev = cmt_wait(test, a, 0, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->rej_reason, IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, ev->ari_length, 2);
	KUNIT_EXPECT_EQ(test, ev->ari[0], 0xa5);
	KUNIT_EXPECT_EQ(test, ev->ari[1], 0x5a);
	KUNIT_EXPECT_STREQ(test, (char *)ev->priv, "nope");
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_IDLE);
	KUNIT_EXPECT_STREQ(test, ibcm_reject_msg(ev->rej_reason),
			   "consumer defined");
	KUNIT_EXPECT_STREQ(test, ibcm_reject_msg(99), "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, ibcm_reject_msg(-1), "unrecognized reason");
}

/* Nobody listens on the service (exactly): the CM answers REJ */
static void cm_reject_no_listener(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_req_param req;
	struct sa_path_rec path;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;

	/* a listener one bit away does not match: 6.12 has no mask */
	cmt_listen(test, b, CMT_SID ^ cpu_to_be64(1));
	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, 0x111, CMT_SLOW, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	ev = cmt_wait(test, a, 0, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->rej_reason, IB_CM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_IDLE);
	cmt_wait_counter(test, b->vt->dev, "cm_tx_msgs", "rej", 1);
	KUNIT_EXPECT_EQ(test, b->n, 0);

	/* the CM ID may try again, now to the listener */
	req.service_id = CMT_SID ^ cpu_to_be64(1);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
}

/* MRA: the requester waits longer, then gets the REP */
static void cm_mra(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;

	cmt_listen(test, b, CMT_SID);
	b->mra_on_req = 17;
	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, 0x111, CMT_SLOW, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->id->state, IB_CM_MRA_REQ_SENT);
	ev = cmt_wait(test, a, 0, IB_CM_MRA_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->mra_timeout, 17);
	KUNIT_EXPECT_EQ(test, ev->state, IB_CM_MRA_REQ_RCVD);

	/* an MRA of an MRA is refused; the REP goes from MRA_REQ_SENT */
	KUNIT_EXPECT_EQ(test, ib_send_cm_mra(b->ev[0].id, 17, NULL, 0),
			-EINVAL);
	cmt_rep_param(&rep, 0x222);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(b->ev[0].id, &rep), 0);
	cmt_wait(test, a, 1, IB_CM_REP_RECEIVED);
	/* the active side may ask for time too */
	KUNIT_ASSERT_EQ(test, ib_send_cm_mra(ia, 18, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_MRA_REP_SENT);
	ev = cmt_wait(test, b, 1, IB_CM_MRA_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->mra_timeout, 18);
	KUNIT_EXPECT_EQ(test, ev->state, IB_CM_MRA_REP_RCVD);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(ia, NULL, 0), 0);
	cmt_wait(test, b, 2, IB_CM_RTU_RECEIVED);
	cmt_wait_counter(test, a->vt->dev, "cm_rx_msgs", "mra", 1);
	cmt_wait_counter(test, b->vt->dev, "cm_rx_msgs", "mra", 1);
}

static int cmt_other_handler(struct ib_cm_id *id, const struct ib_cm_event *e)
{
	return 0;
}

/* Who may listen on what */
static void cm_listen_rules(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_id *l1, *l2, *l3, *s1, *s2, *bad;
	__be64 sid2 = cpu_to_be64(0x2000);

	l1 = cmt_listen(test, a, CMT_SID);
	l2 = cmt_new_id(test, a);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(l2, CMT_SID), -EBUSY);
	/* the same service on another device is another listener */
	cmt_listen(test, b, CMT_SID);
	/* not twice */
	KUNIT_EXPECT_EQ(test, ib_cm_listen(l1, sid2), -EINVAL);
	/* the CM assigns from its range, and only it */
	KUNIT_EXPECT_EQ(test, ib_cm_listen(l2, IB_CM_ASSIGN_SERVICE_ID |
					   cpu_to_be64(5)), -EINVAL);
	KUNIT_ASSERT_EQ(test, ib_cm_listen(l2, IB_CM_ASSIGN_SERVICE_ID), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(l2->service_id) >> 56, 0x02);
	/* the next listener gets the next ID */
	l3 = cmt_new_id(test, a);
	KUNIT_ASSERT_EQ(test, ib_cm_listen(l3, IB_CM_ASSIGN_SERVICE_ID), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(l3->service_id),
			be64_to_cpu(l2->service_id) + 1);

	/* ib_cm_insert_listen(): shared by the same handler */
	s1 = ib_cm_insert_listen(a->vt->dev, cmt_handler, sid2);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s1);
	s2 = ib_cm_insert_listen(a->vt->dev, cmt_handler, sid2);
	KUNIT_EXPECT_PTR_EQ(test, s1, s2);
	KUNIT_EXPECT_EQ(test, s1->state, IB_CM_LISTEN);
	bad = ib_cm_insert_listen(a->vt->dev, cmt_other_handler, sid2);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(bad), -EINVAL);
	/* nor over a listener of ib_cm_listen() */
	bad = ib_cm_insert_listen(a->vt->dev, cmt_handler, CMT_SID);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(bad), -EINVAL);
	/* the first destroy leaves it to the second user */
	ib_destroy_cm_id(s1);
	KUNIT_EXPECT_EQ(test, s2->state, IB_CM_LISTEN);
	bad = ib_cm_insert_listen(a->vt->dev, cmt_other_handler, sid2);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(bad), -EINVAL);
	ib_destroy_cm_id(s2);
	/* gone: the service is free again */
	s1 = ib_cm_insert_listen(a->vt->dev, cmt_other_handler, sid2);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s1);
	ib_destroy_cm_id(s1);
}

/* A real RC QP of @p's with its CQ */
static struct ib_qp *cmt_qp(struct kunit *test, struct cmt_peer *p,
			    struct ib_cq **cq)
{
	*cq = kt_new_direct_cq(test, p->vt);
	return kt_new_qp(test, p->vt, IB_QPT_RC, *cq, *cq);
}

/* Move @qp to @state with the attributes the CM gives */
static void cmt_modify(struct kunit *test, struct ib_cm_id *id,
		       struct ib_qp *qp, enum ib_qp_state state)
{
	struct ib_qp_attr attr = { .qp_state = state };
	int mask;

	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(id, &attr, &mask), 0);
	KUNIT_ASSERT_TRUE(test, mask & IB_QP_STATE);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, mask), 0);
}

/* ib_cm_init_qp_attr() takes two RC QPs to RTS; data then flows */
static void cm_qp_to_rts_and_data(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_qp_attr *attrp = kunit_kzalloc(test, sizeof(*attrp),
						 GFP_KERNEL);
	struct kt_tcqe *ts = kt_new_tcqe(test), *tr = kt_new_tcqe(test);
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct ib_qp *qa, *qb;
	struct ib_cq *ca, *cb;
	struct sa_path_rec path;
	struct ib_sge ssge, rsge;
	struct ib_cm_id *ia, *ib;
	struct cmt_ev *ev;
	char *sbuf, *rbuf;
	int mask;

	KUNIT_ASSERT_NOT_NULL(test, attrp);
	attrp->qp_state = IB_QPS_RTR;

	sbuf = kunit_kzalloc(test, 64, GFP_KERNEL);
	rbuf = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	qa = cmt_qp(test, a, &ca);
	qb = cmt_qp(test, b, &cb);
	cmt_listen(test, b, CMT_SID);
	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);

	/* no connection yet: no attributes */
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(ia, attrp, &mask), -EINVAL);
	attrp->qp_state = IB_QPS_SQD;
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(ia, attrp, &mask), -EINVAL);

	cmt_req_param(&req, &path, CMT_SID, qa->qp_num, CMT_SLOW, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	cmt_modify(test, ia, qa, IB_QPS_INIT);
	/* RTR needs the REP */
	attrp->qp_state = IB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(ia, attrp, &mask), -EINVAL);

	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	ib = ev->id;
	cmt_modify(test, ib, qb, IB_QPS_INIT);
	/* the REP sets the PSN B receives from */
	cmt_rep_param(&rep, qb->qp_num);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(ib, &rep), 0);
	attrp->qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(ib, attrp, &mask), 0);
	KUNIT_EXPECT_EQ(test, attrp->dest_qp_num, qa->qp_num);
	KUNIT_EXPECT_EQ(test, attrp->path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attrp->ah_attr),
			rdma_loop_port_lid(a->vt->dev));
	KUNIT_EXPECT_EQ(test, attrp->rq_psn, 0x5678);
	KUNIT_EXPECT_EQ(test, attrp->max_dest_rd_atomic, 4);
	KUNIT_EXPECT_FALSE(test, mask & IB_QP_ALT_PATH);
	cmt_modify(test, ib, qb, IB_QPS_RTR);
	cmt_modify(test, ib, qb, IB_QPS_RTS);
	cmt_wait(test, a, 0, IB_CM_REP_RECEIVED);
	cmt_modify(test, ia, qa, IB_QPS_RTR);
	cmt_modify(test, ia, qa, IB_QPS_RTS);
	attrp->qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(ia, attrp, &mask), 0);
	/* A sends from the PSN B's REP named, B from the REQ's */
	KUNIT_EXPECT_EQ(test, attrp->sq_psn, 0x5678);
	KUNIT_EXPECT_EQ(test, attrp->max_rd_atomic, 4);
	KUNIT_EXPECT_EQ(test, attrp->retry_cnt, 7);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_TIMEOUT);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(ia, NULL, 0), 0);
	cmt_wait(test, b, 1, IB_CM_RTU_RECEIVED);

	/* a send from A's QP lands in B's */
	strscpy(sbuf, "over the CM's QPs", 64);
	rsge = kt_sge_of(b->vt->pd, rbuf, 64);
	ssge = kt_sge_of(a->vt->pd, sbuf, 32);
	KUNIT_ASSERT_EQ(test, kt_post_recv(qb, tr, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, kt_post_send(qa, ts, IB_WR_SEND, &ssge, 1, 0), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(ca, ts));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cb, tr));
	KUNIT_EXPECT_EQ(test, ts->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, tr->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, tr->wc.byte_len, 32);
	KUNIT_EXPECT_EQ(test, tr->wc.src_qp, qa->qp_num);
	KUNIT_EXPECT_STREQ(test, rbuf, "over the CM's QPs");
}

/* The handler's non-zero return destroys its CM ID, REJ goes out */
static void cm_destroy_by_handler(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;

	/* the listener's consumer refuses in its REQ handler */
	cmt_listen(test, b, CMT_SID);
	b->fail_on = IB_CM_REQ_RECEIVED;
	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, 0x111, CMT_SLOW, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	ev = cmt_wait(test, a, 0, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->rej_reason, IB_CM_REJ_CONSUMER_DEFINED);

	/* now the requester's consumer refuses the REP in its handler */
	b->fail_on = -1;
	a->fail_on = IB_CM_REP_RECEIVED;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	ev = cmt_wait(test, b, 1, IB_CM_REQ_RECEIVED);
	cmt_rep_param(&rep, 0x222);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(ev->id, &rep), 0);
	cmt_wait(test, a, 1, IB_CM_REP_RECEIVED);
	ev = cmt_wait(test, b, 2, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->rej_reason, IB_CM_REJ_CONSUMER_DEFINED);
	/* a REJ of a REP sent: IDLE again (timewait only when stale) */
	KUNIT_EXPECT_EQ(test, ev->state, IB_CM_IDLE);
	/* A's CM ID is gone: nothing more reaches A's handler */
	KUNIT_EXPECT_EQ(test, a->n, 2);
}

/* The consumer destroys CM IDs in mid-exchange */
static void cm_destroy_midway(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_req_param req;
	struct sa_path_rec path;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;
	__be64 guid;

	cmt_listen(test, b, CMT_SID);
	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, 0x111, CMT_SLOW, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	/* A gives up before an answer: REJ timeout naming A's CA */
	cmt_mark_gone(a, ia);
	ib_destroy_cm_id(ia);
	ev = cmt_wait(test, b, 1, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->rej_reason, IB_CM_REJ_TIMEOUT);
	KUNIT_EXPECT_EQ(test, ev->ari_length, 8);
	memcpy(&guid, ev->ari, sizeof(guid));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(guid),
			be64_to_cpu(a->vt->dev->node_guid));
	KUNIT_EXPECT_EQ(test, ev->state, IB_CM_IDLE);

	/* an established connection destroyed on B: A hears a DREQ */
	a->drep_on_dreq = true;
	ia = cmt_connect(test, a, b, 0, 2, 0x333);
	ev = &b->ev[2];
	cmt_mark_gone(b, ev->id);
	ib_destroy_cm_id(ev->id);
	ev = cmt_wait(test, a, 1, IB_CM_DREQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->state, IB_CM_DREQ_RCVD);
	cmt_wait(test, a, 2, IB_CM_TIMEWAIT_EXIT);
	/* B's DREP came back to nobody: B's CM answered nothing more */
	cmt_wait_counter(test, b->vt->dev, "cm_rx_msgs", "drep", 1);
	KUNIT_EXPECT_EQ(test, b->n, 4);
}

struct cmt_destroyer {
	struct cmt_peer		*peer;
	struct ib_cm_id		*id;
	bool			started;
	bool			done;
	wait_queue_head_t	wq;
};

static int cmt_destroy_thread(void *arg)
{
	struct cmt_destroyer *d = arg;

	ib_destroy_cm_id(d->id);
	WRITE_ONCE(d->done, true);
	wake_up_all(&d->wq);
	return 0;
}

/* KUnit action: let the handler go, then wait for the destroy */
static void cmt_destroyer_finish(void *arg)
{
	struct cmt_destroyer *d = arg;

	complete_all(&d->peer->release);
	if (d->started)
		wait_event_timeout(d->wq, READ_ONCE(d->done), CMT_WAIT);
}

/*
 * The new CM ID of a SIDR REQ, destroyed by another task while the
 * handler that brought it still runs (rdma_cm may do so once it let go
 * of its handler lock): the destroy sends the SIDR REP (reject) at once
 * but then waits for the handler, as it does for any other event's
 * handler, so that the CM never touches a freed CM ID.  The handler
 * holds the CM's work queue meanwhile, so A hears the REP only after.
 */
static void cm_sidr_destroy_in_handler(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_sidr_req_param req = {};
	struct cmt_destroyer *d;
	struct task_struct *t;
	struct sa_path_rec path;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;
	unsigned long end;

	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	d->peer = b;
	init_waitqueue_head(&d->wq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							cmt_destroyer_finish,
							d), 0);
	b->block_on = IB_CM_SIDR_REQ_RECEIVED;
	cmt_listen(test, b, CMT_SID);
	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	cmt_sidr_param(&req, &path);
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_req(ia, &req), 0);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&b->entered,
							    CMT_WAIT));
	d->id = b->ev[0].id;
	cmt_mark_gone(b, d->id);
	t = kthread_run(cmt_destroy_thread, d, "cm_kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	d->started = true;
	/* the destroy sent the REP, then sleeps until the handler is done */
	end = jiffies + CMT_WAIT;
	while (!READ_ONCE(d->done) &&
	       (cmt_counter(test, b->vt->dev, "cm_tx_msgs", "sidr_rep") < 1 ||
		!(READ_ONCE(t->__state) & TASK_UNINTERRUPTIBLE)) &&
	       time_before(jiffies, end))
		usleep_range(200, 500);
	KUNIT_EXPECT_EQ(test, cmt_counter(test, b->vt->dev, "cm_tx_msgs",
					  "sidr_rep"), 1);
	KUNIT_EXPECT_FALSE_MSG(test, READ_ONCE(d->done),
			       "the destroy did not wait for the handler");
	complete_all(&b->release);
	KUNIT_EXPECT_GT(test, wait_event_timeout(d->wq, READ_ONCE(d->done),
						 CMT_WAIT), 0L);
	ev = cmt_wait(test, a, 0, IB_CM_SIDR_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->sidr_status, IB_SIDR_REJECT);
	KUNIT_EXPECT_EQ(test, b->n, 1);
}

/* Traffic before the RTU stands for it (ib_cm_notify()) */
static void cm_notify_established(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct ib_cm_id *ia, *ib;
	struct cmt_ev *ev;

	cmt_filter(test, a, CM_RTU_ATTR_ID, 1, 0);
	cmt_listen(test, b, CMT_SID);
	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, 0x111, CMT_SLOW, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	ib = ev->id;
	KUNIT_EXPECT_EQ(test, ib_cm_notify(ib, IB_EVENT_COMM_EST), -EINVAL);
	cmt_rep_param(&rep, 0x222);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(ib, &rep), 0);
	cmt_wait(test, a, 0, IB_CM_REP_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(ia, NULL, 0), 0);
	/* the RTU is lost; the QP's first packet tells B */
	KUNIT_EXPECT_EQ(test, ib_cm_notify(ib, IB_EVENT_QP_FATAL), -EINVAL);
	KUNIT_ASSERT_EQ(test, ib_cm_notify(ib, IB_EVENT_COMM_EST), 0);
	KUNIT_EXPECT_EQ(test, ib->state, IB_CM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(ib, IB_EVENT_COMM_EST), -EISCONN);
	cmt_wait(test, b, 1, IB_CM_USER_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, b->n, 2);
}

/* ECE options and the alternate path travel in REQ and REP */
static void cm_ece_alt_path(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTR };
	struct sa_path_rec path, alt;
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;
	int mask;

	cmt_listen(test, b, CMT_SID);
	cmt_path(test, &path, a, b);
	alt = path;
	alt.sl = 3;
	ia = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, 0x111, CMT_SLOW, 3);
	req.alternate_path = &alt;
	req.ece.vendor_id = 0x15b3;
	req.ece.attr_mod = 0xabcd;
	/* an alternate path must share the P_Key and MTU */
	alt.mtu = IB_MTU_2048;
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(ia, &req), -EINVAL);
	alt.mtu = path.mtu;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);

	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->ece.vendor_id, 0x15b3);
	KUNIT_EXPECT_EQ(test, ev->ece.attr_mod, 0xabcd);
	KUNIT_EXPECT_TRUE(test, ev->has_alt);
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(ev->id, &attr, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_ALT_PATH);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&attr.alt_ah_attr), 3);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr.alt_ah_attr),
			rdma_loop_port_lid(a->vt->dev));

	cmt_rep_param(&rep, 0x222);
	rep.ece.vendor_id = 0x123456;
	rep.ece.attr_mod = 0x77;
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(ev->id, &rep), 0);
	ev = cmt_wait(test, a, 0, IB_CM_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->ece.vendor_id, 0x123456);
	KUNIT_EXPECT_EQ(test, ev->ece.attr_mod, 0x77);
}

/* Bad parameters are refused before anything is sent */
static void cm_refusals(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_req_param req;
	struct sa_path_rec path;
	struct ib_cm_id *ia;
	u8 big[IB_CM_REQ_PRIVATE_DATA_SIZE + 1] = {};

	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, 0x111, CMT_SLOW, 3);
	req.primary_path = NULL;
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(ia, &req), -EINVAL);
	req.primary_path = &path;
	req.qp_type = IB_QPT_UD;
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(ia, &req), -EINVAL);
	req.qp_type = IB_QPT_RC;
	req.private_data = big;
	req.private_data_len = sizeof(big);
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(ia, &req), -EINVAL);
	req.private_data_len = 0;
	/* a path from a GID nobody has */
	path.sgid.global.interface_id ^= cpu_to_be64(0xdead);
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(ia, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_IDLE);
	/* IDLE answers nothing */
	KUNIT_EXPECT_EQ(test, ib_send_cm_rtu(ia, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_drep(ia, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_send_cm_mra(ia, 1, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, cmt_counter(test, a->vt->dev, "cm_tx_msgs",
					  "req"), 0);
}

static struct kunit_case cm_cases[] = {
	KUNIT_CASE(cm_connect_disconnect),
	KUNIT_CASE(cm_reject_by_consumer),
	KUNIT_CASE(cm_reject_no_listener),
	KUNIT_CASE(cm_mra),
	KUNIT_CASE(cm_listen_rules),
	KUNIT_CASE(cm_qp_to_rts_and_data),
	KUNIT_CASE(cm_destroy_by_handler),
	KUNIT_CASE(cm_destroy_midway),
	KUNIT_CASE(cm_sidr_destroy_in_handler),
	KUNIT_CASE(cm_notify_established),
	KUNIT_CASE(cm_ece_alt_path),
	KUNIT_CASE(cm_refusals),
	{}
};

static struct kunit_suite cm_suite = {
	.suite_init = cmt_suite_init,
	.suite_exit = cmt_suite_exit,
	.init = cmt_case_init,
	.name = "rdma_ib_cm",
	.test_cases = cm_cases,
};

kunit_test_suite(cm_suite);

MODULE_DESCRIPTION("KUnit tests of the IB CM");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
