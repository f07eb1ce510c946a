// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_rvt": the rdmavt library API on loop devices
 * (hw/loop on hw/sw/rdmavt): multicast groups through ib_attach_mcast()
 * and ib_detach_mcast() and their delivery across the loop fabric,
 * rvt_mcast_find(), the QP iterator, rvt_check_ah(), rvt_comm_est(), the
 * state table ib_rvt_state_ops against what the verbs accept in each
 * state, rvt_add_retry_timer_ext() and rvt_rc_error(), a receive WQE
 * of the most SGEs a QP may have, completions polled after their QP
 * was destroyed.
 *
 * Every case creates loop devices of its own; objects are released by
 * KUnit actions in reverse order of creation.  Payloads are random and
 * checked byte for byte.
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/delay.h>
#include <linux/random.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>

#define QKEY		0x1234
#define MLID		0xC012
#define LEN		200
#define GRH_LEN		40

/* Nothing more arrives for @t on @cq for a while. */
static bool tcqe_quiet(struct ib_cq *cq, struct kt_tcqe *t, int expected)
{
	msleep(50);
	ib_process_cq_direct(cq, -1);
	return atomic_read(&t->count) == expected;
}

static struct kt_vt *new_vt(struct kunit *test)
{
	return kt_new_vt_named(test, "kurvt%d");
}

/* The attributes of the cases' QPs: 16 WRs of one SGE each way. */
static struct ib_qp_init_attr qp_init_of(enum ib_qp_type type,
					 struct ib_cq *scq, struct ib_cq *rcq)
{
	return (struct ib_qp_init_attr) {
		.send_cq = scq,
		.recv_cq = rcq,
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = 16,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.port_num = 1,
	};
}

static struct ib_qp *new_qp(struct kunit *test, struct kt_vt *vt,
			    enum ib_qp_type type, struct ib_cq *scq,
			    struct ib_cq *rcq,
			    void (*handler)(struct ib_event *, void *))
{
	struct ib_qp_init_attr attr = qp_init_of(type, scq, rcq);

	attr.event_handler = handler;
	return kt_new_test_qp(test, vt, &attr);
}

/* A UD QP in RTS on its own CQ. */
static struct ib_qp *new_ud_qp(struct kunit *test, struct kt_vt *vt,
			       struct ib_cq **cqp)
{
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *qp = new_qp(test, vt, IB_QPT_UD, cq, cq, NULL);
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qkey = QKEY,
	};

	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_QKEY | IB_QP_PKEY_INDEX), 0);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE |
					   IB_QP_SQ_PSN), 0);
	if (cqp)
		*cqp = cq;
	return qp;
}

static u32 port_lid(struct ib_device *dev)
{
	return rdma_loop_port_lid(dev);
}

static void mgid_of(union ib_gid *gid, u8 n)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[0] = 0xff;
	gid->raw[1] = 0x12;
	gid->raw[2] = 0x40;
	gid->raw[3] = 0x1b;
	gid->raw[15] = n;
}

static void post_recv(struct kunit *test, struct ib_qp *qp, struct kt_tcqe *t,
		      u8 *buf, u32 len)
{
	struct ib_sge sge = kt_sge_of(qp->pd, buf, len);
	struct ib_recv_wr wr = {
		.wr_cqe = &t->cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};

	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, NULL), 0);
}

static void post_ud_send(struct kunit *test, struct ib_qp *qp,
			 struct kt_tcqe *t, struct ib_ah *ah, u32 dqpn,
			 u8 *buf, u32 len)
{
	struct ib_sge sge = kt_sge_of(qp->pd, buf, len);
	struct ib_ud_wr wr = {
		.wr = {
			.wr_cqe = &t->cqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.ah = ah,
		.remote_qpn = dqpn,
		.remote_qkey = QKEY,
	};

	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &wr.wr, NULL), 0);
}

/* An AH towards the multicast group @mgid at MLID @mlid. */
static struct ib_ah *mcast_ah(struct kunit *test, struct kt_vt *vt,
			      union ib_gid *mgid, u16 mlid)
{
	struct rdma_ah_attr attr = {};
	struct ib_ah *ah;

	attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&attr, mlid);
	rdma_ah_set_port_num(&attr, 1);
	rdma_ah_set_grh(&attr, mgid, 0, 0, 1, 0);
	ah = rdma_create_ah(vt->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_ah, ah),
			0);
	return ah;
}

static struct rvt_ibport *port_of(struct kt_vt *vt)
{
	return ib_to_rvt(vt->dev)->ports[0];
}

/* Is @mgid/@lid a group of the port of @vt? */
static bool group_exists(struct kt_vt *vt, union ib_gid *mgid, u16 lid)
{
	struct rvt_mcast *m = rvt_mcast_find(port_of(vt), mgid, lid);

	if (m)
		rvt_mcast_put(m);
	return m;
}

/* ------------------------------------------------------------------ */

/*
 * The errors of attach and detach, upstream's errnos: the core's checks
 * (-EINVAL for a QP that is not UD, a GID that is not multicast, a LID
 * outside 0xC000..0xFFFE) and rdmavt's (-EINVAL for attaching a QP in
 * RESET, an MGID used with another MLID, detaching what is not
 * attached).  A second attach of the same QP succeeds and takes a second
 * detach; an attached QP cannot be destroyed; a QP reset while attached
 * can still be detached.
 */
static void rvt_mcast_errors(struct kunit *test)
{
	struct kt_vt *vt = new_vt(test);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *ud = new_ud_qp(test, vt, NULL);
	struct ib_qp *ud2 = new_ud_qp(test, vt, NULL);
	struct ib_qp *rc = new_qp(test, vt, IB_QPT_RC, cq, cq, NULL);
	struct ib_qp *reset = new_qp(test, vt, IB_QPT_UD, cq, cq, NULL);
	struct ib_qp_attr rst = { .qp_state = IB_QPS_RESET };
	union ib_gid mgid, other, ucast;
	struct rvt_mcast *m;

	mgid_of(&mgid, 1);
	mgid_of(&other, 2);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(vt->dev, 1, 0, &ucast), 0);

	KUNIT_EXPECT_EQ(test, ib_attach_mcast(rc, &mgid, MLID), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(ud, &ucast, MLID), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(ud, &mgid, 0x1234), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(ud, &mgid, 0xBFFF), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(ud, &mgid, 0xFFFF), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(reset, &mgid, MLID), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(ud, &mgid, MLID), -EINVAL);
	KUNIT_EXPECT_FALSE(test, group_exists(vt, &mgid, MLID));
	KUNIT_EXPECT_EQ(test, atomic_read(&ud->usecnt), 0);

	KUNIT_ASSERT_EQ(test, ib_attach_mcast(ud, &mgid, MLID), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ud->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(ud, &mgid, MLID), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ud->usecnt), 2);

	/* one MGID, one MLID */
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(ud2, &mgid, MLID + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&ud2->usecnt), 0);
	/* not attached to the group, or no such group */
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(ud2, &mgid, MLID), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(ud, &other, MLID), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(ud, &mgid, MLID + 1), -EINVAL);

	/* found with its MLID only; the group holds one QP once */
	m = rvt_mcast_find(port_of(vt), &mgid, MLID);
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, m->n_attached, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&m->refcount), 2);
	rvt_mcast_put(m);
	KUNIT_EXPECT_FALSE(test, group_exists(vt, &mgid, MLID + 1));
	KUNIT_EXPECT_FALSE(test, group_exists(vt, &other, MLID));

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(ud), -EBUSY);

	KUNIT_EXPECT_EQ(test, ib_detach_mcast(ud, &mgid, MLID), 0);
	KUNIT_EXPECT_TRUE(test, group_exists(vt, &mgid, MLID));
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(ud, &mgid, MLID), 0);
	KUNIT_EXPECT_FALSE(test, group_exists(vt, &mgid, MLID));
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(ud, &mgid, MLID), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&ud->usecnt), 0);
	KUNIT_EXPECT_EQ(test, ib_to_rvt(vt->dev)->n_mcast_grps_allocated, 0);
	KUNIT_EXPECT_EQ(test, ib_to_rvt(vt->dev)->n_mcast_qp_attached, 0);

	/* a QP moved back to RESET while attached can still leave */
	KUNIT_ASSERT_EQ(test, ib_attach_mcast(ud, &mgid, MLID), 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(ud, &rst, IB_QP_STATE), 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(ud, &mgid, MLID), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ud->usecnt), 0);
	KUNIT_EXPECT_FALSE(test, group_exists(vt, &mgid, MLID));
}

/*
 * A datagram to a group reaches the 3 QPs attached to it on two loop
 * devices, each with its own completion, the payload after a GRH whose
 * DGID is the MGID; the sender (attached too) completes once and does
 * not receive its own datagram; a QP not attached gets nothing.  After a
 * detach the QP receives no more.
 */
static void rvt_mcast_send(struct kunit *test)
{
	struct kt_vt *x = new_vt(test), *y = new_vt(test);
	struct ib_cq *scq, *ncq, *cq[3];
	struct ib_qp *s = new_ud_qp(test, x, &scq);
	struct ib_qp *none = new_ud_qp(test, y, &ncq);
	struct ib_qp *m[3];
	struct kt_tcqe *r[3], *sr, *nr, *st;
	u8 *sbuf, *rbuf[3], *srbuf, *nrbuf;
	union ib_gid mgid;
	struct ib_ah *ah;
	int i, round;

	m[0] = new_ud_qp(test, x, &cq[0]);
	m[1] = new_ud_qp(test, y, &cq[1]);
	m[2] = new_ud_qp(test, y, &cq[2]);
	mgid_of(&mgid, 7);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, ib_attach_mcast(m[i], &mgid, MLID), 0);
	KUNIT_ASSERT_EQ(test, ib_attach_mcast(s, &mgid, MLID), 0);
	ah = mcast_ah(test, x, &mgid, MLID);

	sbuf = kunit_kzalloc(test, LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	srbuf = kunit_kzalloc(test, LEN + GRH_LEN, GFP_KERNEL);
	nrbuf = kunit_kzalloc(test, LEN + GRH_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, srbuf);
	KUNIT_ASSERT_NOT_NULL(test, nrbuf);
	for (i = 0; i < 3; i++) {
		rbuf[i] = kunit_kzalloc(test, LEN + GRH_LEN, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, rbuf[i]);
	}

	/* the sender's and the outsider's receives must stay posted */
	sr = kt_new_tcqe(test);
	nr = kt_new_tcqe(test);
	post_recv(test, s, sr, srbuf, LEN + GRH_LEN);
	post_recv(test, none, nr, nrbuf, LEN + GRH_LEN);

	for (round = 0; round < 2; round++) {
		/* round 1: m[2] left the group */
		int members = round ? 2 : 3;

		get_random_bytes(sbuf, LEN);
		for (i = 0; i < 3; i++) {
			r[i] = kt_new_tcqe(test);
			memset(rbuf[i], 0, LEN + GRH_LEN);
			post_recv(test, m[i], r[i], rbuf[i], LEN + GRH_LEN);
		}
		st = kt_new_tcqe(test);
		post_ud_send(test, s, st, ah, 0xffffff, sbuf, LEN);
		KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(scq, st));
		KUNIT_EXPECT_EQ(test, st->wc.status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, st->wc.opcode, IB_WC_SEND);

		for (i = 0; i < members; i++) {
			struct ib_grh *grh = (struct ib_grh *)rbuf[i];

			KUNIT_ASSERT_TRUE_MSG(test, kt_tcqe_wait(cq[i], r[i]),
					      "member %d round %d", i, round);
			KUNIT_EXPECT_EQ(test, r[i]->wc.status, IB_WC_SUCCESS);
			KUNIT_EXPECT_EQ(test, r[i]->wc.opcode, IB_WC_RECV);
			KUNIT_EXPECT_PTR_EQ(test, r[i]->wc.qp, m[i]);
			KUNIT_EXPECT_EQ(test, r[i]->wc.src_qp, s->qp_num);
			KUNIT_EXPECT_EQ(test, r[i]->wc.slid, port_lid(x->dev));
			KUNIT_EXPECT_EQ(test, r[i]->wc.byte_len,
					LEN + GRH_LEN);
			KUNIT_EXPECT_TRUE(test, r[i]->wc.wc_flags & IB_WC_GRH);
			KUNIT_EXPECT_EQ(test, memcmp(&grh->dgid, &mgid,
						     sizeof(mgid)), 0);
			KUNIT_EXPECT_EQ(test, memcmp(rbuf[i] + GRH_LEN, sbuf,
						     LEN), 0);
			KUNIT_EXPECT_TRUE(test, tcqe_quiet(cq[i], r[i], 1));
		}
		for (; i < 3; i++)
			KUNIT_EXPECT_TRUE(test, tcqe_quiet(cq[i], r[i], 0));
		KUNIT_EXPECT_TRUE(test, tcqe_quiet(scq, st, 1));
		KUNIT_EXPECT_TRUE(test, tcqe_quiet(scq, sr, 0));
		KUNIT_EXPECT_TRUE(test, tcqe_quiet(ncq, nr, 0));

		if (!round)
			KUNIT_ASSERT_EQ(test,
					ib_detach_mcast(m[2], &mgid, MLID), 0);
	}

	/* m[2] keeps its receive posted: nobody sends it anything */
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_EQ(test, ib_detach_mcast(m[i], &mgid, MLID), 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(s, &mgid, MLID), 0);
	KUNIT_EXPECT_FALSE(test, group_exists(x, &mgid, MLID));
	KUNIT_EXPECT_FALSE(test, group_exists(y, &mgid, MLID));
}

/*
 * The limits of dparms.props: QPs per group, groups per device and
 * attachments per device give -ENOMEM; a detach makes room again.
 */
static void rvt_mcast_limits(struct kunit *test)
{
	struct kt_vt *vt = new_vt(test);
	struct ib_device_attr *props = &ib_to_rvt(vt->dev)->dparms.props;
	struct ib_device_attr saved = *props;
	struct ib_qp *qp[3];
	union ib_gid g[4];
	int i;

	for (i = 0; i < 3; i++)
		qp[i] = new_ud_qp(test, vt, NULL);
	for (i = 0; i < 4; i++)
		mgid_of(&g[i], 0x20 + i);

	props->max_mcast_qp_attach = 2;
	props->max_mcast_grp = 2;
	props->max_total_mcast_qp_attach = 4;

	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[0], &g[0], MLID), 0);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[1], &g[0], MLID), 0);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[2], &g[0], MLID), -ENOMEM);
	KUNIT_EXPECT_EQ(test, atomic_read(&qp[2]->usecnt), 0);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[0], &g[1], MLID + 1), 0);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[0], &g[2], MLID + 2),
			-ENOMEM);
	KUNIT_EXPECT_FALSE(test, group_exists(vt, &g[2], MLID + 2));
	/* the fourth attachment of the device reaches the total */
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[1], &g[1], MLID + 1), 0);
	props->max_mcast_qp_attach = 3;
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[2], &g[1], MLID + 1),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, ib_to_rvt(vt->dev)->n_mcast_qp_attached, 4);
	KUNIT_EXPECT_EQ(test, ib_to_rvt(vt->dev)->n_mcast_grps_allocated, 2);

	/* a group freed makes room for another */
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(qp[0], &g[0], MLID), 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(qp[1], &g[0], MLID), 0);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[2], &g[3], MLID + 3), 0);

	KUNIT_EXPECT_EQ(test, ib_detach_mcast(qp[2], &g[3], MLID + 3), 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(qp[0], &g[1], MLID + 1), 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(qp[1], &g[1], MLID + 1), 0);
	KUNIT_EXPECT_EQ(test, ib_to_rvt(vt->dev)->n_mcast_qp_attached, 0);
	KUNIT_EXPECT_EQ(test, ib_to_rvt(vt->dev)->n_mcast_grps_allocated, 0);
	*props = saved;

	/* the defaults rdmavt gives are reported */
	KUNIT_EXPECT_GT(test, vt->dev->attrs.max_mcast_grp, 0);
	KUNIT_EXPECT_GT(test, vt->dev->attrs.max_mcast_qp_attach, 0);
	KUNIT_EXPECT_GT(test, vt->dev->attrs.max_total_mcast_qp_attach, 0);
}

#define ITER_MAGIC	0x5eed0123abcdULL
#define ITER_MAX	16

struct iter_seen {
	u32	qpn[ITER_MAX];
	int	n;
	bool	bad_v;
	bool	unref;
};

static struct iter_seen iter_seen;

static void iter_cb(struct rvt_qp *qp, u64 v)
{
	if (v != ITER_MAGIC)
		iter_seen.bad_v = true;
	/* the walk holds a reference besides the QP table's */
	if (refcount_read(&qp->refcount) < 2)
		iter_seen.unref = true;
	if (iter_seen.n < ITER_MAX)
		iter_seen.qpn[iter_seen.n] = qp->ibqp.qp_num;
	iter_seen.n++;
}

static int seen_times(u32 qpn)
{
	int i, n = 0;

	for (i = 0; i < min(iter_seen.n, ITER_MAX); i++)
		n += iter_seen.qpn[i] == qpn;
	return n;
}

/*
 * rvt_qp_iter() calls back once for every QP of the device with the
 * value given, holding a reference; rvt_qp_iter_next() walks the same
 * QPs and lets go of each.
 */
static void rvt_qp_iter_walk(struct kunit *test)
{
	struct kt_vt *vt = new_vt(test);
	struct rvt_dev_info *rdi = ib_to_rvt(vt->dev);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct rvt_qp_iter *it;
	struct ib_qp *qp[4];
	int base, i, n;

	/* what the device had before (special QPs of the MAD layer) */
	memset(&iter_seen, 0, sizeof(iter_seen));
	rvt_qp_iter(rdi, ITER_MAGIC, iter_cb);
	base = iter_seen.n;
	KUNIT_ASSERT_LE(test, base, ITER_MAX - 4);

	qp[0] = new_qp(test, vt, IB_QPT_RC, cq, cq, NULL);
	qp[1] = new_qp(test, vt, IB_QPT_UD, cq, cq, NULL);
	qp[2] = new_qp(test, vt, IB_QPT_UC, cq, cq, NULL);
	qp[3] = new_qp(test, vt, IB_QPT_RC, cq, cq, NULL);

	memset(&iter_seen, 0, sizeof(iter_seen));
	rvt_qp_iter(rdi, ITER_MAGIC, iter_cb);
	KUNIT_EXPECT_EQ(test, iter_seen.n, base + 4);
	KUNIT_EXPECT_FALSE(test, iter_seen.bad_v);
	KUNIT_EXPECT_FALSE(test, iter_seen.unref);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, seen_times(qp[i]->qp_num), 1);

	it = rvt_qp_iter_init(rdi, ITER_MAGIC, iter_cb);
	KUNIT_ASSERT_NOT_NULL(test, it);
	n = 0;
	while (!rvt_qp_iter_next(it)) {
		KUNIT_EXPECT_NOT_NULL(test, it->qp);
		n++;
	}
	KUNIT_EXPECT_NULL(test, it->qp);
	KUNIT_EXPECT_EQ(test, rvt_qp_iter_next(it), 1);
	kfree(it);
	KUNIT_EXPECT_EQ(test, n, base + 4);

	/* no reference left behind: only the QP table's */
	for (i = 0; i < 4; i++) {
		struct rvt_qp *rqp = container_of(qp[i], struct rvt_qp, ibqp);

		KUNIT_EXPECT_EQ(test, refcount_read(&rqp->refcount), 1);
	}

	/* a destroyed QP is not visited */
	KUNIT_ASSERT_EQ(test, ib_destroy_qp(qp[1]), 0);
	kunit_remove_action(test, kt_destroy_qp, qp[1]);
	memset(&iter_seen, 0, sizeof(iter_seen));
	rvt_qp_iter(rdi, ITER_MAGIC, iter_cb);
	KUNIT_EXPECT_EQ(test, iter_seen.n, base + 3);
}

/*
 * rvt_check_ah() rejects an SL over 15, an invalid port, DLID 0, a
 * multicast DLID without a GRH, a bad static rate and a GID index past
 * the table; rdma_create_ah() and a QP's IB_QP_AV return its error.
 */
static void rvt_check_ah_rules(struct kunit *test)
{
	struct kt_vt *vt = new_vt(test);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *rc = new_qp(test, vt, IB_QPT_RC, cq, cq, NULL);
	struct rdma_ah_attr good = {}, a;
	struct ib_qp_attr qa = {};
	union ib_gid mgid;
	struct ib_ah *ah;

	good.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&good, port_lid(vt->dev));
	rdma_ah_set_port_num(&good, 1);
	rdma_ah_set_sl(&good, 15);
	KUNIT_EXPECT_EQ(test, rvt_check_ah(vt->dev, &good), 0);
	ah = rdma_create_ah(vt->pd, &good, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);

	a = good;
	rdma_ah_set_sl(&a, 16);
	KUNIT_EXPECT_EQ(test, rvt_check_ah(vt->dev, &a), -EINVAL);
	ah = rdma_create_ah(vt->pd, &a, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ah), -EINVAL);
	if (!IS_ERR(ah))
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);

	a = good;
	rdma_ah_set_dlid(&a, 0);
	KUNIT_EXPECT_EQ(test, rvt_check_ah(vt->dev, &a), -EINVAL);
	ah = rdma_create_ah(vt->pd, &a, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ah), -EINVAL);
	if (!IS_ERR(ah))
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);

	a = good;
	rdma_ah_set_dlid(&a, MLID);
	KUNIT_EXPECT_EQ(test, rvt_check_ah(vt->dev, &a), -EINVAL);
	ah = rdma_create_ah(vt->pd, &a, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ah), -EINVAL);
	if (!IS_ERR(ah))
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	/* with a GRH it is a valid multicast address */
	mgid_of(&mgid, 9);
	rdma_ah_set_grh(&a, &mgid, 0, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, rvt_check_ah(vt->dev, &a), 0);
	ah = rdma_create_ah(vt->pd, &a, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ah), 0);
	if (!IS_ERR(ah))
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	/* the permissive LID needs none */
	a = good;
	rdma_ah_set_dlid(&a, 0xffff);
	KUNIT_EXPECT_EQ(test, rvt_check_ah(vt->dev, &a), 0);

	a = good;
	rdma_ah_set_static_rate(&a, 0x3f);
	KUNIT_EXPECT_EQ(test, rvt_check_ah(vt->dev, &a), -EINVAL);
	rdma_ah_set_static_rate(&a, IB_RATE_10_GBPS);
	KUNIT_EXPECT_EQ(test, rvt_check_ah(vt->dev, &a), 0);

	a = good;
	rdma_ah_set_port_num(&a, 2);
	KUNIT_EXPECT_EQ(test, rvt_check_ah(vt->dev, &a), -EINVAL);
	rdma_ah_set_port_num(&a, 0);
	KUNIT_EXPECT_EQ(test, rvt_check_ah(vt->dev, &a), -EINVAL);

	a = good;
	rdma_ah_set_grh(&a, &mgid, 0, 1, 1, 0);
	KUNIT_EXPECT_EQ(test, rvt_check_ah(vt->dev, &a), -EINVAL);

	/* a QP's address vector goes through the same checks */
	qa.qp_state = IB_QPS_INIT;
	qa.port_num = 1;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(rc, &qa, IB_QP_STATE |
					   IB_QP_PKEY_INDEX | IB_QP_PORT |
					   IB_QP_ACCESS_FLAGS), 0);
	memset(&qa, 0, sizeof(qa));
	qa.qp_state = IB_QPS_RTR;
	qa.path_mtu = IB_MTU_4096;
	qa.dest_qp_num = rc->qp_num;
	qa.max_dest_rd_atomic = 1;
	qa.min_rnr_timer = 1;
	qa.ah_attr = good;
	rdma_ah_set_sl(&qa.ah_attr, 16);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(rc, &qa, IB_QP_STATE | IB_QP_AV |
					   IB_QP_PATH_MTU | IB_QP_DEST_QPN |
					   IB_QP_RQ_PSN |
					   IB_QP_MAX_DEST_RD_ATOMIC |
					   IB_QP_MIN_RNR_TIMER), -EINVAL);
	qa.ah_attr = good;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(rc, &qa, IB_QP_STATE | IB_QP_AV |
					   IB_QP_PATH_MTU | IB_QP_DEST_QPN |
					   IB_QP_RQ_PSN |
					   IB_QP_MAX_DEST_RD_ATOMIC |
					   IB_QP_MIN_RNR_TIMER), 0);
}

static atomic_t comm_est_events;

static void comm_est_handler(struct ib_event *ev, void *ctx)
{
	if (ev->event == IB_EVENT_COMM_EST)
		atomic_inc(&comm_est_events);
}

/* RESET -> INIT -> RTR (-> RTS) of an RC QP towards @dqpn at @dlid. */
static int rc_connect(struct ib_qp *qp, u32 dqpn, u32 dlid, bool rts)
{
	struct rdma_loop_conn conn = {
		.dqpn = dqpn,
		.dlid = dlid,
		.rnr_retry = 7,
	};

	return rdma_loop_connect_qp(qp, &conn, rts ? IB_QPS_RTS : IB_QPS_RTR);
}

/*
 * The first request reaching an RC responder in RTR raises
 * IB_EVENT_COMM_EST, the next ones and direct calls of rvt_comm_est()
 * do not; after RESET the next connection gets one again.
 */
static void rvt_comm_est_once(struct kunit *test)
{
	struct kt_vt *vt = new_vt(test);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *a = new_qp(test, vt, IB_QPT_RC, cq, cq, NULL);
	struct ib_qp *b = new_qp(test, vt, IB_QPT_RC, cq, cq,
				 comm_est_handler);
	struct rvt_qp *rb = container_of(b, struct rvt_qp, ibqp);
	struct ib_qp_attr reset = { .qp_state = IB_QPS_RESET };
	u8 *sbuf, *rbuf;
	int i;

	atomic_set(&comm_est_events, 0);
	sbuf = kunit_kzalloc(test, LEN, GFP_KERNEL);
	rbuf = kunit_kzalloc(test, LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	KUNIT_ASSERT_EQ(test, rc_connect(a, b->qp_num, port_lid(vt->dev),
					 true), 0);
	KUNIT_ASSERT_EQ(test, rc_connect(b, a->qp_num, port_lid(vt->dev),
					 false), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&comm_est_events), 0);

	for (i = 0; i < 3; i++) {
		struct kt_tcqe *r = kt_new_tcqe(test), *s = kt_new_tcqe(test);
		struct ib_sge sge = kt_sge_of(a->pd, sbuf, LEN);
		struct ib_send_wr wr = {
			.wr_cqe = &s->cqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		};

		get_random_bytes(sbuf, LEN);
		post_recv(test, b, r, rbuf, LEN);
		KUNIT_ASSERT_EQ(test, ib_post_send(a, &wr, NULL), 0);
		KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cq, s));
		KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cq, r));
		KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, r->wc.status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, memcmp(rbuf, sbuf, LEN), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&comm_est_events), 1);
	}
	rvt_comm_est(rb);
	KUNIT_EXPECT_EQ(test, atomic_read(&comm_est_events), 1);

	/* a new connection after RESET */
	KUNIT_ASSERT_EQ(test, ib_modify_qp(b, &reset, IB_QP_STATE), 0);
	KUNIT_EXPECT_FALSE(test, rb->r_flags & RVT_R_COMM_EST);
	rvt_comm_est(rb);
	KUNIT_EXPECT_EQ(test, atomic_read(&comm_est_events), 2);
	rvt_comm_est(rb);
	KUNIT_EXPECT_EQ(test, atomic_read(&comm_est_events), 2);
}

/* Post one receive of @buf on @qp; its status. */
static int try_recv(struct ib_qp *qp, struct kt_tcqe *t, void *buf)
{
	struct ib_sge sge = kt_sge_of(qp->pd, buf, LEN);
	struct ib_recv_wr wr = {
		.wr_cqe = &t->cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};

	return ib_post_recv(qp, &wr, NULL);
}

/* Post one signalled SEND of @buf on @qp; its status. */
static int try_send(struct ib_qp *qp, struct kt_tcqe *t, void *buf)
{
	struct ib_sge sge = kt_sge_of(qp->pd, buf, LEN);
	struct ib_send_wr wr = {
		.wr_cqe = &t->cqe,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};

	return ib_post_send(qp, &wr, NULL);
}

/*
 * ib_rvt_state_ops says what each state allows, and the verbs do as it
 * says: an RC QP put in RESET, INIT, RTR, RTS and ERR (from RESET each
 * time) takes a receive and a send exactly where the table has
 * RVT_POST_RECV_OK and RVT_POST_SEND_OK (-EINVAL elsewhere); the SEND
 * of RTS arrives, ERR flushes what it took (RVT_FLUSH_SEND,
 * RVT_FLUSH_RECV).
 */
static void rvt_state_ops_posts(struct kunit *test)
{
	static const enum ib_qp_state states[] = {
		IB_QPS_RESET, IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS, IB_QPS_ERR,
	};
	struct kt_vt *vt = new_vt(test);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *a = new_qp(test, vt, IB_QPT_RC, cq, cq, NULL);
	struct ib_qp *b = new_qp(test, vt, IB_QPT_RC, cq, cq, NULL);
	struct ib_qp_attr attr = {};
	struct kt_tcqe *r, *s, *br = kt_new_tcqe(test);
	int i, ret, want;
	u8 *buf;

	buf = kunit_kzalloc(test, LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, rc_connect(b, a->qp_num, port_lid(vt->dev),
					 false), 0);
	post_recv(test, b, br, buf, LEN);
	KUNIT_EXPECT_EQ(test, ib_rvt_state_ops[IB_QPS_SQD] &
			(RVT_POST_SEND_OK | RVT_PROCESS_SEND_OK |
			 RVT_PROCESS_NEXT_SEND_OK),
			RVT_POST_SEND_OK | RVT_PROCESS_SEND_OK);
	KUNIT_EXPECT_EQ(test, ib_rvt_state_ops[IB_QPS_SQE] &
			RVT_PROCESS_OR_FLUSH_SEND, RVT_FLUSH_SEND);

	for (i = 0; i < ARRAY_SIZE(states); i++) {
		/* from RESET to the state each time: connect goes forward */
		attr.qp_state = IB_QPS_RESET;
		KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE), 0);
		if (states[i] != IB_QPS_RESET) {
			struct rdma_loop_conn conn = {
				.dqpn = b->qp_num,
				.dlid = port_lid(vt->dev),
				.rnr_retry = 7,
			};

			/* ERR through INIT: RESET goes to INIT only */
			KUNIT_ASSERT_EQ(test,
					rdma_loop_connect_qp(a, &conn,
							     states[i] ==
							     IB_QPS_ERR ?
							     IB_QPS_INIT :
							     states[i]), 0);
		}
		if (states[i] == IB_QPS_ERR) {
			attr.qp_state = IB_QPS_ERR;
			KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr,
							   IB_QP_STATE), 0);
		}
		r = kt_new_tcqe(test);
		s = kt_new_tcqe(test);
		ret = try_recv(a, r, buf);
		want = ib_rvt_state_ops[states[i]] & RVT_POST_RECV_OK;
		KUNIT_EXPECT_EQ_MSG(test, ret, want ? 0 : -EINVAL,
				    "receive in state %d", states[i]);
		ret = try_send(a, s, buf);
		want = ib_rvt_state_ops[states[i]] & RVT_POST_SEND_OK;
		KUNIT_EXPECT_EQ_MSG(test, ret, want ? 0 : -EINVAL,
				    "send in state %d", states[i]);
		if (states[i] == IB_QPS_RTS) {
			KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cq, s));
			KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_SUCCESS);
			KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cq, br));
			KUNIT_EXPECT_EQ(test, br->wc.status, IB_WC_SUCCESS);
		}
		if (states[i] == IB_QPS_ERR) {
			/* both flushed, as the receives taken before */
			KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cq, s));
			KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_WR_FLUSH_ERR);
			KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cq, r));
			KUNIT_EXPECT_EQ(test, r->wc.status, IB_WC_WR_FLUSH_ERR);
		}
	}
}

/*
 * rvt_add_retry_timer_ext() arms the retry timer for the local ACK
 * timeout shifted left, rvt_stop_rc_timers() disarms it; rvt_rc_error()
 * takes a connected QP to the error state.
 */
static void rvt_retry_timer_ext_rc_error(struct kunit *test)
{
	struct kt_vt *vt = new_vt(test);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *a = new_qp(test, vt, IB_QPT_RC, cq, cq, NULL);
	struct rvt_qp *ra = container_of(a, struct rvt_qp, ibqp);
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	unsigned long flags, left;

	KUNIT_ASSERT_EQ(test, rc_connect(a, a->qp_num + 1, port_lid(vt->dev),
					 true), 0);
	KUNIT_ASSERT_GT(test, ra->timeout_jiffies, 0UL);
	spin_lock_irqsave(&ra->s_lock, flags);
	rvt_add_retry_timer_ext(ra, 3);
	left = ra->s_timer.expires - jiffies;
	KUNIT_EXPECT_TRUE(test, ra->s_flags & RVT_S_TIMER);
	KUNIT_EXPECT_TRUE(test, timer_pending(&ra->s_timer));
	KUNIT_EXPECT_LE(test, left, ra->timeout_jiffies << 3);
	KUNIT_EXPECT_GT(test, left, ra->timeout_jiffies << 2);
	rvt_stop_rc_timers(ra);
	KUNIT_EXPECT_FALSE(test, ra->s_flags & RVT_S_TIMER);
	KUNIT_EXPECT_FALSE(test, timer_pending(&ra->s_timer));
	spin_unlock_irqrestore(&ra->s_lock, flags);

	rvt_rc_error(ra, IB_WC_RETRY_EXC_ERR);
	KUNIT_ASSERT_EQ(test, ib_query_qp(a, &attr, IB_QP_STATE, &init), 0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_ERR);
}

/*
 * A receive WQE of the device's max_recv_sge (32) SGEs, none adjacent
 * to the one before (no merging): a SEND scatters into all of them.
 * The responder's list of checked SGEs (r_sg_list) must hold them all
 * (it held 16 once: KASAN saw the responder write past it).
 */
static void rvt_recv_max_sge(struct kunit *test)
{
	struct kt_vt *vt = new_vt(test);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 4,
			.max_recv_wr = 4,
			.max_send_sge = 1,
			.max_recv_sge = vt->dev->attrs.max_recv_sge,
		},
		.port_num = 1,
	};
	struct kt_tcqe *r = kt_new_tcqe(test), *s = kt_new_tcqe(test);
	u32 n = init.cap.max_recv_sge, i, len = n * 8;
	struct ib_recv_wr rwr = { .wr_cqe = &r->cqe, .num_sge = n };
	struct ib_send_wr swr = {
		.wr_cqe = &s->cqe,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};
	struct ib_sge *sges, sge;
	struct ib_qp *a, *b;
	u8 *sbuf, *rbuf;

	KUNIT_ASSERT_EQ(test, n, 32);
	a = kt_new_test_qp(test, vt, &init);
	b = kt_new_test_qp(test, vt, &init);
	sbuf = kunit_kzalloc(test, len, GFP_KERNEL);
	rbuf = kunit_kzalloc(test, 2 * len, GFP_KERNEL);
	sges = kunit_kcalloc(test, n, sizeof(*sges), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	KUNIT_ASSERT_NOT_NULL(test, sges);
	KUNIT_ASSERT_EQ(test, rc_connect(a, b->qp_num, port_lid(vt->dev),
					 true), 0);
	KUNIT_ASSERT_EQ(test, rc_connect(b, a->qp_num, port_lid(vt->dev),
					 false), 0);

	/* every other 8 bytes of rbuf */
	for (i = 0; i < n; i++)
		sges[i] = kt_sge_of(b->pd, rbuf + 16 * i, 8);
	rwr.sg_list = sges;
	KUNIT_ASSERT_EQ(test, ib_post_recv(b, &rwr, NULL), 0);
	get_random_bytes(sbuf, len);
	sge = kt_sge_of(a->pd, sbuf, len);
	swr.sg_list = &sge;
	KUNIT_ASSERT_EQ(test, ib_post_send(a, &swr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cq, s));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cq, r));
	KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, r->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, len);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, memcmp(rbuf + 16 * i, sbuf + 8 * i, 8), 0);
		KUNIT_EXPECT_TRUE(test, !memchr_inv(rbuf + 16 * i + 8, 0, 8));
	}
}

/* Post a receive of @buf on @qp naming @wr_id (polled raw, no wr_cqe). */
static void post_recv_id(struct kunit *test, struct ib_qp *qp, void *buf,
			 u64 wr_id)
{
	struct ib_sge sge = kt_sge_of(qp->pd, buf, LEN);
	struct ib_recv_wr wr = {
		.wr_id = wr_id,
		.sg_list = &sge,
		.num_sge = 1,
	};

	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, NULL), 0);
}

/* An RC QP on @cq in ERR with @n receives flushed, named @id. */
static struct ib_qp *flushed_qp(struct kunit *test, struct kt_vt *vt,
				struct ib_cq *cq, void *buf, int n, u64 id)
{
	struct ib_qp_init_attr init = qp_init_of(IB_QPT_RC, cq, cq);
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
	};
	struct ib_qp *qp = ib_create_qp(vt->pd, &init);
	int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	if (!n)
		return qp;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE |
					   IB_QP_PORT | IB_QP_PKEY_INDEX |
					   IB_QP_ACCESS_FLAGS), 0);
	for (i = 0; i < n; i++)
		post_recv_id(test, qp, buf, id);
	attr.qp_state = IB_QPS_ERR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	return qp;
}

/*
 * Completions outlive their QP: two QPs flush receives into one CQ and
 * are destroyed before anything is polled.  Polling then reads each
 * completion with its own QP's number through wc->qp (what ib_uverbs's
 * POLL_CQ does), not freed memory (KASAN watches); once all are polled
 * the CQ keeps no stand-ins.  A QP destroyed with nothing queued
 * leaves none either.
 */
static void rvt_destroyed_qp_completions(struct kunit *test)
{
	struct kt_vt *vt = new_vt(test);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct rvt_cq *rcq = container_of(cq, struct rvt_cq, ibcq);
	int seen[2] = {}, got = 0, i;
	unsigned long deadline;
	struct ib_qp *qp[3];
	u32 qpn[2];
	u8 *buf;

	buf = kunit_kzalloc(test, LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* 3 receives on the first, 2 on the second, none on the third */
	for (i = 0; i < 3; i++)
		qp[i] = flushed_qp(test, vt, cq, buf, i < 2 ? 3 - i : 0, i);
	for (i = 0; i < 2; i++)
		qpn[i] = qp[i]->qp_num;
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, ib_destroy_qp(qp[i]), 0);

	deadline = jiffies + 5 * HZ;
	while (got < 5 && time_before(jiffies, deadline)) {
		struct ib_wc wc;
		int n;
		u32 num;

		rcu_read_lock();
		n = ib_poll_cq(cq, 1, &wc);
		num = n == 1 ? wc.qp->qp_num : 0;
		rcu_read_unlock();
		if (n != 1) {
			msleep(20);
			continue;
		}
		got++;
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
		KUNIT_ASSERT_LT(test, wc.wr_id, 2ULL);
		KUNIT_EXPECT_EQ(test, num, qpn[wc.wr_id]);
		seen[wc.wr_id]++;
	}
	KUNIT_EXPECT_EQ(test, seen[0], 3);
	KUNIT_EXPECT_EQ(test, seen[1], 2);
	KUNIT_EXPECT_TRUE(test, list_empty(&rcq->gone_qps));
	/* the stand-ins' frees have run before kmemleak looks */
	rcu_barrier();
}

static struct kunit_case rdma_rvt_cases[] = {
	KUNIT_CASE(rvt_mcast_errors),
	KUNIT_CASE(rvt_mcast_send),
	KUNIT_CASE(rvt_mcast_limits),
	KUNIT_CASE(rvt_qp_iter_walk),
	KUNIT_CASE(rvt_check_ah_rules),
	KUNIT_CASE(rvt_comm_est_once),
	KUNIT_CASE(rvt_state_ops_posts),
	KUNIT_CASE(rvt_retry_timer_ext_rc_error),
	KUNIT_CASE(rvt_recv_max_sge),
	KUNIT_CASE(rvt_destroyed_qp_completions),
	{}
};

static struct kunit_suite rdma_rvt_suite = {
	.name = "rdma_rvt",
	.test_cases = rdma_rvt_cases,
};

kunit_test_suite(rdma_rvt_suite);

MODULE_DESCRIPTION("KUnit tests of the rdmavt library API on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
