// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_ib_cm_fault": the IB CM when the fabric loses or
 * doubles its messages (the loop fabric's GMP filter): a REQ, REP or
 * DREQ lost for good ends in the *_ERROR event after the retries, one
 * lost once is resent; a resent REQ is answered with the MRA again, a
 * resent REP with the RTU again, a resent DREQ in timewait with the DREP
 * again; a doubled RTU or REJ is counted and ignored; a REQ from a peer
 * QP we are connected to is a stale connection; a SIDR exchange, its
 * refusals and its loss.  Counters checked from sysfs.
 */

#include "cm_test.h"

/* A REQ from QP @qpn of @a to @b's CMT_SID, @retries resends @timeout apart */
static struct ib_cm_id *cmt_req(struct kunit *test, struct cmt_peer *a,
				struct cmt_peer *b, u8 timeout, u8 retries,
				u32 qpn)
{
	struct ib_cm_req_param req;
	struct sa_path_rec path;
	struct ib_cm_id *ia;

	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, qpn, timeout, retries);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	return ia;
}

/* Every REQ lost: REQ_ERROR after 1 + 2 sends */
static void cm_lost_req(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct cmt_filter *f;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;

	f = cmt_filter(test, a, CM_REQ_ATTR_ID, 100, 0);
	cmt_listen(test, b, CMT_SID);
	ia = cmt_req(test, a, b, CMT_FAST, 2, 0x111);
	ev = cmt_wait(test, a, 0, IB_CM_REQ_ERROR);
	KUNIT_EXPECT_EQ(test, ev->send_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->seen), 3);
	cmt_wait_counter(test, a->vt->dev, "cm_tx_msgs", "req", 3);
	KUNIT_EXPECT_EQ(test, cmt_counter(test, a->vt->dev, "cm_tx_retries",
					  "req"), 2);
	KUNIT_EXPECT_EQ(test, cmt_counter(test, b->vt->dev, "cm_rx_msgs",
					  "req"), 0);
	KUNIT_EXPECT_EQ(test, b->n, 0);
}

/* The first REQ lost: the resend connects */
static void cm_lost_req_once(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_rep_param rep;
	struct cmt_filter *f;
	struct cmt_ev *ev;

	f = cmt_filter(test, a, CM_REQ_ATTR_ID, 1, 0);
	cmt_listen(test, b, CMT_SID);
	/*
	 * Retries enough that a loaded VM answers before they run out: the
	 * case is about the one lost REQ, not about the REQ's time limit
	 */
	cmt_req(test, a, b, CMT_FAST, 15, 0x111);
	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	cmt_rep_param(&rep, 0x222);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(ev->id, &rep), 0);
	cmt_wait(test, a, 0, IB_CM_REP_RECEIVED);
	/* one resend at least (more when the VM is slow to answer) */
	cmt_wait_counter_ge(test, a->vt->dev, "cm_tx_retries", "req", 1);
	/* a resend that crossed the REP may still be on its way to B */
	cmt_wait_counter_ge(test, b->vt->dev, "cm_rx_msgs", "req",
			    atomic_read(&f->seen) - 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->seen),
			cmt_counter(test, b->vt->dev, "cm_rx_msgs", "req") + 1);
}

/* Every REP lost: REP_ERROR at B, REQ_ERROR at A */
static void cm_lost_rep(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_rep_param rep;
	struct cmt_ev *ev;

	cmt_filter(test, b, CM_REP_ATTR_ID, 100, 0);
	cmt_listen(test, b, CMT_SID);
	cmt_req(test, a, b, CMT_FAST, 2, 0x111);
	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	cmt_rep_param(&rep, 0x222);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(ev->id, &rep), 0);
	ev = cmt_wait(test, b, 1, IB_CM_REP_ERROR);
	KUNIT_EXPECT_EQ(test, ev->send_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, b->ev[0].id->state, IB_CM_IDLE);
	ev = cmt_wait(test, a, 0, IB_CM_REQ_ERROR);
	ib_cm_flush_work();
	/* A resent its REQ meanwhile: B took those as duplicates */
	KUNIT_EXPECT_GE(test, cmt_counter(test, b->vt->dev, "cm_rx_duplicates",
					  "req"), 1);
	KUNIT_EXPECT_GE(test, cmt_counter(test, b->vt->dev, "cm_tx_retries",
					  "rep"), 2);
}

/* Every DREQ lost: DREQ_ERROR, then timewait all the same */
static void cm_lost_dreq(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_rep_param rep;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;

	cmt_filter(test, a, CM_DREQ_ATTR_ID, 100, 0);
	cmt_listen(test, b, CMT_SID);
	ia = cmt_req(test, a, b, CMT_FAST, 2, 0x111);
	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	cmt_rep_param(&rep, 0x222);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(ev->id, &rep), 0);
	cmt_wait(test, a, 0, IB_CM_REP_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(ia, NULL, 0), 0);
	cmt_wait(test, b, 1, IB_CM_RTU_RECEIVED);

	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(ia, NULL, 0), 0);
	ev = cmt_wait(test, a, 1, IB_CM_DREQ_ERROR);
	KUNIT_EXPECT_EQ(test, ev->send_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, ev->state, IB_CM_TIMEWAIT);
	cmt_wait(test, a, 2, IB_CM_TIMEWAIT_EXIT);
	cmt_wait_counter(test, a->vt->dev, "cm_tx_msgs", "dreq", 3);
	KUNIT_EXPECT_EQ(test, b->ev[0].id->state, IB_CM_ESTABLISHED);
}

/* The MRA lost: the resent REQ is answered with the MRA again */
static void cm_dup_req_mra_again(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct cmt_ev *ev;

	cmt_filter(test, b, CM_MRA_ATTR_ID, 1, 0);
	b->mra_on_req = 20;
	cmt_listen(test, b, CMT_SID);
	cmt_req(test, a, b, CMT_FAST, 3, 0x111);
	cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	ev = cmt_wait(test, a, 0, IB_CM_MRA_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->mra_timeout, 20);
	cmt_wait_counter_ge(test, b->vt->dev, "cm_rx_duplicates", "req", 1);
	/* one REQ event only, and the MRA went again */
	KUNIT_EXPECT_EQ(test, b->n, 1);
	cmt_wait_counter_ge(test, b->vt->dev, "cm_tx_msgs", "mra", 2);
}

/* The RTU lost: the resent REP is answered with the RTU again */
static void cm_dup_rep_rtu_again(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_rep_param rep;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;

	cmt_filter(test, a, CM_RTU_ATTR_ID, 1, 0);
	cmt_listen(test, b, CMT_SID);
	ia = cmt_req(test, a, b, CMT_FAST, 3, 0x111);
	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	cmt_rep_param(&rep, 0x222);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(ev->id, &rep), 0);
	cmt_wait(test, a, 0, IB_CM_REP_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(ia, "rtu", 3), 0);
	ev = cmt_wait(test, b, 1, IB_CM_RTU_RECEIVED);
	/* the RTU resent carries the first one's private data */
	KUNIT_EXPECT_STREQ(test, (char *)ev->priv, "rtu");
	cmt_wait_counter_ge(test, a->vt->dev, "cm_rx_duplicates", "rep", 1);
	KUNIT_EXPECT_EQ(test, a->n, 1);
	KUNIT_EXPECT_EQ(test, b->n, 2);
}

/*
 * A DREQ doubled: the second finds B in timewait (its handler answered
 * the first at once) and gets the DREP again.
 */
static void cm_dup_dreq_drep_again(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;

	b->drep_on_dreq = true;
	cmt_listen(test, b, CMT_SID);
	/*
	 * A packet life time of 2^14 * 4.096 us: B's timewait lasts some
	 * 128 ms, long enough for the copy to find it.
	 */
	cmt_path(test, &path, a, b);
	path.packet_life_time = 14;
	ia = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, 0x111, CMT_SLOW, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(ia, &req), 0);
	ev = cmt_wait(test, b, 0, IB_CM_REQ_RECEIVED);
	cmt_rep_param(&rep, 0x222);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(ev->id, &rep), 0);
	cmt_wait(test, a, 0, IB_CM_REP_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(ia, NULL, 0), 0);
	cmt_wait(test, b, 1, IB_CM_RTU_RECEIVED);
	cmt_filter(test, a, CM_DREQ_ATTR_ID, 0, 1);
	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(ia, NULL, 0), 0);
	cmt_wait(test, b, 2, IB_CM_DREQ_RECEIVED);
	ev = cmt_wait(test, a, 1, IB_CM_DREP_RECEIVED);
	KUNIT_EXPECT_STREQ(test, (char *)ev->priv, "drep");
	cmt_wait_counter(test, b->vt->dev, "cm_rx_duplicates", "dreq", 1);
	/*
	 * The DREP, then its copy: an answer without a CM ID counts as a
	 * send and a resend (Linux 6.12's accounting), so 1 + 2.
	 */
	cmt_wait_counter(test, b->vt->dev, "cm_tx_msgs", "drep", 3);
	KUNIT_EXPECT_EQ(test, cmt_counter(test, b->vt->dev, "cm_tx_retries",
					  "drep"), 1);
	/* the second DREP found A in timewait: ignored */
	cmt_wait_counter(test, a->vt->dev, "cm_rx_msgs", "drep", 2);
	/* B's consumer heard of one DREQ (its timewait may be over now) */
	KUNIT_EXPECT_EQ(test, cmt_count(b, IB_CM_DREQ_RECEIVED), 1);
}

/* A doubled RTU and a doubled REJ: counted, no second event */
static void cm_doubled_rtu_rej(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_id *ia;
	struct cmt_ev *ev;

	cmt_filter(test, a, CM_RTU_ATTR_ID, 0, 1);
	cmt_listen(test, b, CMT_SID);
	ia = cmt_connect(test, a, b, 0, 0, 0x111);
	cmt_wait_counter(test, b->vt->dev, "cm_rx_duplicates", "rtu", 1);
	KUNIT_EXPECT_EQ(test, b->n, 2);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_ESTABLISHED);
	cmt_filter_off(NULL);

	/* a REJ for a connection that is gone is ignored */
	cmt_filter(test, b, CM_REJ_ATTR_ID, 0, 1);
	ia = cmt_req(test, a, b, CMT_SLOW, 3, 0x999);
	ev = cmt_wait(test, b, 2, IB_CM_REQ_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rej(ev->id, IB_CM_REJ_NO_QP, NULL, 0,
					     NULL, 0), 0);
	ev = cmt_wait(test, a, 1, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->rej_reason, IB_CM_REJ_NO_QP);
	cmt_wait_counter(test, a->vt->dev, "cm_rx_msgs", "rej", 2);
	KUNIT_EXPECT_EQ(test, a->n, 2);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_IDLE);
}

/*
 * A new REQ from a peer QP that has a connection with us: REJ stale
 * connection to it, and the old connection is disconnected (a DREQ).
 */
static void cm_stale_connection(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_id *old, *ia;
	struct cmt_ev *ev;

	cmt_listen(test, b, CMT_SID);
	a->drep_on_dreq = true;
	old = cmt_connect(test, a, b, 0, 0, 0x111);
	/* the same QP number asks again, from a new CM ID */
	ia = cmt_req(test, a, b, CMT_SLOW, 3, 0x111);
	/*
	 * A hears the REJ and the DREQ, in either order; the new CM ID's
	 * timewait may end (IB_CM_TIMEWAIT_EXIT) before the DREQ comes
	 */
	wait_event_timeout(a->wq, cmt_find(a, IB_CM_REJ_RECEIVED) &&
			   cmt_find(a, IB_CM_DREQ_RECEIVED), CMT_WAIT);
	ev = cmt_find(a, IB_CM_REJ_RECEIVED);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_PTR_EQ(test, ev->id, ia);
	KUNIT_EXPECT_EQ(test, ev->rej_reason, IB_CM_REJ_STALE_CONN);
	/* a stale REJ puts the requester into timewait */
	KUNIT_EXPECT_EQ(test, ev->state, IB_CM_TIMEWAIT);
	ev = cmt_find(a, IB_CM_DREQ_RECEIVED);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_PTR_EQ(test, ev->id, old);
	cmt_wait(test, b, 2, IB_CM_DREP_RECEIVED);
	/* the listener never saw the second REQ */
	KUNIT_EXPECT_EQ(test, b->ev[1].type, IB_CM_RTU_RECEIVED);
	cmt_wait_counter(test, b->vt->dev, "cm_rx_msgs", "req", 2);
	cmt_wait_counter(test, b->vt->dev, "cm_tx_msgs", "rej", 1);
}

/* SIDR: a UD service resolved; refused; unanswered */
static void cm_sidr(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_sidr_req_param req = {};
	struct ib_cm_sidr_rep_param rep = {};
	struct ib_cm_id *ia, *listen;
	struct sa_path_rec path;
	struct cmt_filter *f;
	u8 info[3] = { 1, 2, 3 };
	struct cmt_ev *ev;

	listen = cmt_listen(test, b, CMT_SID);
	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	req.path = &path;
	req.service_id = CMT_SID;
	req.timeout_ms = 4000;
	req.max_cm_retries = 2;
	req.private_data = "sidr";
	req.private_data_len = 5;
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_req(ia, &req), 0);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_SIDR_REQ_SENT);
	KUNIT_EXPECT_EQ(test, ib_send_cm_sidr_req(ia, &req), -EINVAL);
	ev = cmt_wait(test, b, 0, IB_CM_SIDR_REQ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, ev->listen_id, listen);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ev->service_id),
			be64_to_cpu(CMT_SID));
	KUNIT_EXPECT_EQ(test, ev->pkey, 0xffff);
	KUNIT_EXPECT_STREQ(test, (char *)ev->priv, "sidr");
	rep.status = IB_SIDR_SUCCESS;
	rep.qp_num = 0x4321;
	rep.qkey = 0x11223344;
	rep.info = info;
	rep.info_length = sizeof(info);
	rep.private_data = "ok";
	rep.private_data_len = 3;
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_rep(ev->id, &rep), 0);
	KUNIT_EXPECT_EQ(test, ev->id->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, ib_send_cm_sidr_rep(ev->id, &rep), -EINVAL);
	ev = cmt_wait(test, a, 0, IB_CM_SIDR_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->sidr_status, IB_SIDR_SUCCESS);
	KUNIT_EXPECT_EQ(test, ev->sidr_qpn, 0x4321);
	KUNIT_EXPECT_EQ(test, ev->sidr_qkey, 0x11223344);
	KUNIT_EXPECT_EQ(test, ev->info_len, 3);
	KUNIT_EXPECT_EQ(test, ev->info[2], 3);
	KUNIT_EXPECT_STREQ(test, (char *)ev->priv, "ok");
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_IDLE);

	/* the listener's handler refuses: SIDR REP with status reject */
	b->fail_on = IB_CM_SIDR_REQ_RECEIVED;
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_req(ia, &req), 0);
	cmt_wait(test, b, 1, IB_CM_SIDR_REQ_RECEIVED);
	ev = cmt_wait(test, a, 1, IB_CM_SIDR_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->sidr_status, IB_SIDR_REJECT);

	/* nobody listens there: unsupported */
	req.service_id = CMT_SID ^ cpu_to_be64(2);
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_req(ia, &req), 0);
	ev = cmt_wait(test, a, 2, IB_CM_SIDR_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, ev->sidr_status, IB_SIDR_UNSUPPORTED);

	/* every SIDR REQ lost: SIDR_REQ_ERROR after 1 + 2 sends */
	f = cmt_filter(test, a, CM_SIDR_REQ_ATTR_ID, 100, 0);
	req.timeout_ms = 20;
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_req(ia, &req), 0);
	ev = cmt_wait(test, a, 3, IB_CM_SIDR_REQ_ERROR);
	KUNIT_EXPECT_EQ(test, ev->send_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->seen), 3);
	KUNIT_EXPECT_EQ(test, ia->state, IB_CM_IDLE);
	cmt_wait_counter(test, a->vt->dev, "cm_rx_msgs", "sidr_rep", 3);
	KUNIT_EXPECT_EQ(test, cmt_counter(test, b->vt->dev, "cm_tx_msgs",
					  "sidr_rep"), 3);
}

/* A doubled SIDR REQ while the first is being answered: counted once */
static void cm_sidr_doubled(struct kunit *test)
{
	struct cmt_peer *a = cmt_new_peer(test), *b = cmt_new_peer(test);
	struct ib_cm_sidr_req_param req = {};
	struct ib_cm_sidr_rep_param rep = { .status = IB_SIDR_SUCCESS };
	struct sa_path_rec path;
	struct ib_cm_id *ia;
	struct cmt_ev *ev;

	cmt_filter(test, a, CM_SIDR_REQ_ATTR_ID, 0, 1);
	cmt_listen(test, b, CMT_SID);
	cmt_path(test, &path, a, b);
	ia = cmt_new_id(test, a);
	cmt_sidr_param(&req, &path);
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_req(ia, &req), 0);
	ev = cmt_wait(test, b, 0, IB_CM_SIDR_REQ_RECEIVED);
	cmt_wait_counter(test, b->vt->dev, "cm_rx_duplicates", "sidr_req", 1);
	KUNIT_EXPECT_EQ(test, b->n, 1);
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_rep(ev->id, &rep), 0);
	cmt_wait(test, a, 0, IB_CM_SIDR_REP_RECEIVED);
}

static struct kunit_case cm_fault_cases[] = {
	KUNIT_CASE(cm_lost_req),
	KUNIT_CASE(cm_lost_req_once),
	KUNIT_CASE(cm_lost_rep),
	KUNIT_CASE(cm_lost_dreq),
	KUNIT_CASE(cm_dup_req_mra_again),
	KUNIT_CASE(cm_dup_rep_rtu_again),
	KUNIT_CASE(cm_dup_dreq_drep_again),
	KUNIT_CASE(cm_doubled_rtu_rej),
	KUNIT_CASE(cm_stale_connection),
	KUNIT_CASE(cm_sidr),
	KUNIT_CASE(cm_sidr_doubled),
	{}
};

static struct kunit_suite cm_fault_suite = {
	.suite_init = cmt_suite_init,
	.suite_exit = cmt_suite_exit,
	.init = cmt_case_init,
	.name = "rdma_ib_cm_fault",
	.test_cases = cm_fault_cases,
};

kunit_test_suite(cm_fault_suite);

MODULE_DESCRIPTION("KUnit tests of the IB CM with lost and doubled messages");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
