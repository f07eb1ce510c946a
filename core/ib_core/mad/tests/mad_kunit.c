// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_mad": the MAD layer (core/ib_core/mad/mad_*.c) on loop
 * devices: agent registration and its refusals and conflicts, requests and
 * responses on QP1 between two devices (matching by TID, the response
 * before the send's completion), the MAD layer's own "unsupported"
 * answer, timeouts with retries, cancel (refused once the response
 * matched), malformed MADs dropped, the send queue's overflow, and
 * unregistering agents and devices with MADs in flight.
 *
 * The two loop devices A and B are the suite's (mad_suite_init()):
 * making and removing them took longer than most cases.  Agents are
 * each case's own, so a case's counters start at 0.  At its end
 * (mad_quiesce()) a case's agents are gone, which ended their sends,
 * and a round trip each way between A and B shows that nothing the case
 * sent is still on its way; each case's init checks that the devices
 * are as the suite made them and that no agent holds the test class.
 */

#include <kunit/test.h>
#include <kunit/rdma_mad.h>
#include <kunit/rdma_verbs.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>

/* A class nobody else uses: vendor range 1, no RMPP, no OUI. */
#define KU_CLASS	0x0a
/* The class of mad_quiesce()'s round trips, which nobody takes. */
#define KU_QUIET_CLASS	0x0c
#define KU_ATTR		cpu_to_be16(0x0123)
#define KU_WAIT		(10 * HZ)

/* The suite's devices and their port LIDs, made by mad_suite_init(). */
static struct {
	struct kt_vt	a, b;
	u32		lid_a, lid_b;
} mad_bed;

/* What a test agent saw. */
struct rec {
	struct ib_mad_agent	*agent;
	spinlock_t		lock;	/* the counters and @last */
	int			recvs;
	int			responses;	/* received with a send_buf */
	int			sends;
	int			flushed;
	bool			answer;	/* answer Gets with a GetResp */
	bool			keep;	/* the test frees its send buffers */
	bool			resp_before_send;
	struct ib_mad		last;
	struct ib_wc		last_wc;
	enum ib_wc_status	last_status;
	int			last_retries;
	struct completion	recv_done;
	struct completion	send_done;
	struct completion	*resp_gate;	/* responses wait for it */
	struct completion	resp_in;	/* a response waits */
};

static void rec_reset(struct rec *r)
{
	spin_lock(&r->lock);
	r->recvs = 0;
	r->responses = 0;
	r->sends = 0;
	r->flushed = 0;
	spin_unlock(&r->lock);
	reinit_completion(&r->recv_done);
	reinit_completion(&r->send_done);
}

static void ku_send_handler(struct ib_mad_agent *agent,
			    struct ib_mad_send_wc *wc)
{
	struct rec *r = agent->context;
	struct ib_mad_send_buf *sb = wc->send_buf;

	if (kt_mad_is_reply(sb)) {
		kt_mad_reply_free(sb);
		return;
	}
	spin_lock(&r->lock);
	r->sends++;
	r->flushed += wc->status == IB_WC_WR_FLUSH_ERR;
	r->last_status = wc->status;
	r->last_retries = sb->retries;
	if (r->responses)
		r->resp_before_send = true;
	spin_unlock(&r->lock);
	rdma_destroy_ah(sb->ah, RDMA_DESTROY_AH_SLEEPABLE);
	if (!r->keep)
		ib_free_send_mad(sb);
	complete(&r->send_done);
}

static void ku_recv_handler(struct ib_mad_agent *agent,
			    struct ib_mad_send_buf *send_buf,
			    struct ib_mad_recv_wc *rwc)
{
	struct rec *r = agent->context;
	bool request = !ib_response_mad(&rwc->recv_buf.mad->mad_hdr);

	if (send_buf && r->resp_gate) {
		complete(&r->resp_in);
		wait_for_completion(r->resp_gate);
	}
	spin_lock(&r->lock);
	r->recvs++;
	r->responses += !!send_buf;
	r->last = *rwc->recv_buf.mad;
	r->last_wc = *rwc->wc;
	spin_unlock(&r->lock);
	if (request && r->answer &&
	    rwc->recv_buf.mad->mad_hdr.method == IB_MGMT_METHOD_GET)
		kt_mad_answer_get(agent, rwc);
	ib_free_recv_mad(rwc);
	complete(&r->recv_done);
}

static struct rec *new_rec(struct kunit *test)
{
	struct rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	spin_lock_init(&r->lock);
	init_completion(&r->recv_done);
	init_completion(&r->send_done);
	init_completion(&r->resp_in);
	return r;
}

/* An agent on QP1 of @dev for KU_CLASS (version 1), @methods (a mask). */
static struct rec *new_agent(struct kunit *test, struct ib_device *dev,
			     unsigned long methods)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = KU_CLASS,
		.mgmt_class_version = 1,
	};
	struct rec *r = new_rec(test);
	int m;

	for_each_set_bit(m, &methods, BITS_PER_LONG)
		__set_bit(m, req.method_mask);
	r->agent = ib_register_mad_agent(dev, 1, IB_QPT_GSI,
					 methods ? &req : NULL, 0,
					 ku_send_handler, ku_recv_handler, r,
					 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r->agent);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_unregister_agent,
							r->agent), 0);
	return r;
}

/*
 * A request of @agent to QP @dqpn at @dlid through port 1, with its own
 * AH (the send handler destroys it); an ERR_PTR if either could not be
 * made.
 */
static struct ib_mad_send_buf *ku_build(struct ib_mad_agent *agent, u32 dlid,
					u32 dqpn, u8 mgmt_class, u8 method,
					u32 tid_lo, int timeout_ms, int retries)
{
	struct rdma_ah_attr attr = {};
	struct ib_mad_send_buf *sb;
	struct ib_mad *mad;
	struct ib_ah *ah;

	attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_port_num(&attr, 1);
	rdma_ah_set_dlid(&attr, dlid);
	ah = rdma_create_ah(agent->qp->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(ah))
		return ERR_CAST(ah);
	sb = ib_create_send_mad(agent, dqpn, 0, 0, IB_MGMT_MAD_HDR,
				IB_MGMT_MAD_DATA, GFP_KERNEL,
				IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return sb;
	}
	mad = sb->mad;
	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = mgmt_class;
	mad->mad_hdr.class_version = 1;
	mad->mad_hdr.method = method;
	mad->mad_hdr.attr_id = KU_ATTR;
	mad->mad_hdr.tid = cpu_to_be64((u64)agent->hi_tid << 32 | tid_lo);
	mad->data[1] = 0x5a;
	sb->ah = ah;
	sb->timeout_ms = timeout_ms;
	sb->retries = retries;
	return sb;
}

static struct ib_mad_send_buf *ku_request_qp(struct kunit *test,
					     struct rec *r, u32 dlid, u32 dqpn,
					     u8 mgmt_class, u8 method,
					     u32 tid_lo, int timeout_ms,
					     int retries)
{
	struct ib_mad_send_buf *sb = ku_build(r->agent, dlid, dqpn,
					      mgmt_class, method, tid_lo,
					      timeout_ms, retries);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	return sb;
}

/* A request to QP0 for an SMP class, else to QP1. */
static struct ib_mad_send_buf *ku_request(struct kunit *test, struct rec *r,
					  u32 dlid, u8 mgmt_class, u8 method,
					  u32 tid_lo, int timeout_ms,
					  int retries)
{
	u32 dqpn = mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
		   mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE ? 0 : 1;

	return ku_request_qp(test, r, dlid, dqpn, mgmt_class, method, tid_lo,
			     timeout_ms, retries);
}

static int ku_post(struct kunit *test, struct rec *r, u32 dlid, u8 cls,
		   u8 method, u32 tid_lo, int timeout_ms, int retries)
{
	struct ib_mad_send_buf *sb = ku_request(test, r, dlid, cls, method,
						tid_lo, timeout_ms, retries);
	int ret = ib_post_send_mad(sb, NULL);

	if (ret) {
		rdma_destroy_ah(sb->ah, RDMA_DESTROY_AH_SLEEPABLE);
		ib_free_send_mad(sb);
	}
	return ret;
}

static bool wait_sends(struct rec *r, int n)
{
	unsigned long end = jiffies + KU_WAIT;

	while (time_before(jiffies, end)) {
		if (READ_ONCE(r->sends) >= n)
			return true;
		wait_for_completion_timeout(&r->send_done, HZ / 10);
		reinit_completion(&r->send_done);
	}
	return READ_ONCE(r->sends) >= n;
}

static bool wait_recvs(struct rec *r, int n)
{
	unsigned long end = jiffies + KU_WAIT;

	while (time_before(jiffies, end)) {
		if (READ_ONCE(r->recvs) >= n)
			return true;
		wait_for_completion_timeout(&r->recv_done, HZ / 10);
		reinit_completion(&r->recv_done);
	}
	return READ_ONCE(r->recvs) >= n;
}

/*
 * A Get of KU_QUIET_CLASS from @from to @to, which @to's MAD layer
 * answers itself (unsupported): true when the answer came back.  QP1 of
 * each device handles its MADs in the order they came, so what was on
 * its way from @from to @to before, and what @to sent back before
 * answering, was handled by then.
 */
static bool mad_round_trip(struct kt_vt *from, u32 lid_to)
{
	struct rec *r = kzalloc(sizeof(*r), GFP_KERNEL);
	struct ib_mad_send_buf *sb;
	bool ok = false;

	if (!r)
		return false;
	spin_lock_init(&r->lock);
	init_completion(&r->recv_done);
	init_completion(&r->send_done);
	init_completion(&r->resp_in);
	r->agent = ib_register_mad_agent(from->dev, 1, IB_QPT_GSI, NULL, 0,
					 ku_send_handler, ku_recv_handler, r,
					 0);
	if (IS_ERR(r->agent))
		goto out;
	sb = ku_build(r->agent, lid_to, 1, KU_QUIET_CLASS, IB_MGMT_METHOD_GET,
		      1, 10000, 0);
	if (!IS_ERR(sb) && ib_post_send_mad(sb, NULL)) {
		rdma_destroy_ah(sb->ah, RDMA_DESTROY_AH_SLEEPABLE);
		ib_free_send_mad(sb);
	} else if (!IS_ERR(sb)) {
		ok = wait_sends(r, 1) && r->last_status == IB_WC_SUCCESS &&
		     r->responses == 1 &&
		     be16_to_cpu(r->last.mad_hdr.status) ==
		     IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	}
	ib_unregister_mad_agent(r->agent);
out:
	kfree(r);
	return ok;
}

/*
 * KUnit action, a case's last (its agents went before, which ended
 * their sends): a round trip from A to B and one from B to A, for the
 * MADs still on their way and the answers B's and A's MAD layers give
 * them.
 */
static void mad_quiesce(void *arg)
{
	struct kunit *test = arg;

	KUNIT_EXPECT_TRUE_MSG(test, mad_round_trip(&mad_bed.a, mad_bed.lid_b),
			      "cleanup: no round trip from A to B");
	KUNIT_EXPECT_TRUE_MSG(test, mad_round_trip(&mad_bed.b, mad_bed.lid_a),
			      "cleanup: no round trip from B to A");
}

/* No agent of @dev holds KU_CLASS (any of the methods the cases take). */
static void expect_class_free(struct kunit *test, struct ib_device *dev)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = KU_CLASS,
		.mgmt_class_version = 1,
	};
	struct ib_mad_agent *agent;

	__set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	__set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	__set_bit(IB_MGMT_METHOD_SEND, req.method_mask);
	agent = ib_register_mad_agent(dev, 1, IB_QPT_GSI, &req, 0,
				      ku_send_handler, ku_recv_handler, NULL,
				      0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(agent),
			       "%s: an agent of an earlier case holds the class",
			       dev_name(&dev->dev));
	ib_unregister_mad_agent(agent);
}

/*
 * Each case's init: the suite's devices as mad_suite_init() made them
 * (their LIDs, their ports ACTIVE, the test class free), and the case's
 * end (mad_quiesce()), which runs after everything the case registers.
 */
static int mad_case_init(struct kunit *test)
{
	struct kt_vt *vts[] = { &mad_bed.a, &mad_bed.b };
	u32 lids[] = { mad_bed.lid_a, mad_bed.lid_b };
	struct ib_port_attr pa;
	int i;

	for (i = 0; i < ARRAY_SIZE(vts); i++) {
		KUNIT_ASSERT_NOT_NULL(test, vts[i]->dev);
		KUNIT_ASSERT_EQ(test, rdma_loop_port_lid(vts[i]->dev), lids[i]);
		KUNIT_ASSERT_EQ(test, ib_query_port(vts[i]->dev, 1, &pa), 0);
		KUNIT_ASSERT_EQ(test, pa.state, IB_PORT_ACTIVE);
		expect_class_free(test, vts[i]->dev);
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mad_quiesce,
							test), 0);
	return 0;
}

/* The suite's exit: what its init made goes */
static void mad_suite_exit(struct kunit_suite *suite)
{
	struct kt_vt *vts[] = { &mad_bed.a, &mad_bed.b };
	int i;

	for (i = 0; i < ARRAY_SIZE(vts); i++)
		kt_suite_vt_free(vts[i]);
	memset(&mad_bed, 0, sizeof(mad_bed));
}

/* The suite's init: A and B */
static int mad_suite_init(struct kunit_suite *suite)
{
	int ret = kt_suite_vt_new(&mad_bed.a, "kumad%d");

	if (!ret)
		ret = kt_suite_vt_new(&mad_bed.b, "kumad%d");
	if (ret) {
		mad_suite_exit(suite);
		return ret;
	}
	mad_bed.lid_a = rdma_loop_port_lid(mad_bed.a.dev);
	mad_bed.lid_b = rdma_loop_port_lid(mad_bed.b.dev);
	return 0;
}

/* Every IB port has QP0 and QP1, each agent its own hi_tid. */
static void mad_port_qps(struct kunit *test)
{
	struct kt_vt *vt = &mad_bed.a;
	struct ib_mad_agent *smi, *gsi;
	struct ib_mad_reg_req req = {
		.mgmt_class = IB_MGMT_CLASS_SUBN_LID_ROUTED,
		.mgmt_class_version = 1,
	};

	__set_bit(IB_MGMT_METHOD_TRAP, req.method_mask);
	smi = ib_register_mad_agent(vt->dev, 1, IB_QPT_SMI, &req, 0,
				    ku_send_handler, ku_recv_handler,
				    new_rec(test), 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, smi);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_unregister_agent,
							smi), 0);
	gsi = ib_register_mad_agent(vt->dev, 1, IB_QPT_GSI, NULL, 0,
				    ku_send_handler, NULL, new_rec(test), 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gsi);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_unregister_agent,
							gsi), 0);
	KUNIT_EXPECT_EQ(test, smi->qp->qp_num, 0u);
	KUNIT_EXPECT_EQ(test, gsi->qp->qp_num, 1u);
	KUNIT_EXPECT_EQ(test, smi->qp->qp_type, IB_QPT_SMI);
	KUNIT_EXPECT_EQ(test, gsi->qp->qp_type, IB_QPT_GSI);
	KUNIT_EXPECT_EQ(test, smi->port_num, 1);
	KUNIT_EXPECT_NE(test, smi->hi_tid, 0u);
	KUNIT_EXPECT_NE(test, smi->hi_tid, gsi->hi_tid);
	KUNIT_EXPECT_LT(test, gsi->hi_tid, 1u << 24);
}

static struct ib_mad_agent *try_register(struct ib_device *dev, u32 port,
					 enum ib_qp_type type,
					 struct ib_mad_reg_req *req, u8 rmpp,
					 bool send, bool recv, u32 flags)
{
	return ib_register_mad_agent(dev, port, type, req, rmpp,
				     send ? ku_send_handler : NULL,
				     recv ? ku_recv_handler : NULL, NULL,
				     flags);
}

#define EXPECT_REFUSED(test, agent, err)				\
	do {								\
		struct ib_mad_agent *__a = (agent);			\
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(__a), (long)(err)); \
		if (!IS_ERR_OR_NULL(__a))				\
			ib_unregister_mad_agent(__a);			\
	} while (0)

/* What ib_register_mad_agent() refuses, with its errno. */
static void mad_register_refusals(struct kunit *test)
{
	struct kt_vt *vt = &mad_bed.a;
	struct ib_device *d = vt->dev;
	struct ib_mad_reg_req req = {
		.mgmt_class = KU_CLASS,
		.mgmt_class_version = 1,
	};

	__set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	/* not a MAD QP */
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_UD, &req, 0, 1, 1, 0),
		       -EINVAL);
	/* no such port */
	EXPECT_REFUSED(test, try_register(d, 2, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       -ENODEV);
	EXPECT_REFUSED(test, try_register(d, 0, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       -ENODEV);
	/* RMPP version 2 does not exist */
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 2, 1, 1, 0),
		       -EINVAL);
	/* RMPP for a class without it */
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req,
					  IB_MGMT_RMPP_VERSION, 1, 1, 0),
		       -EINVAL);
	/* unsolicited MADs need a receive handler */
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 0, 0),
		       -EINVAL);
	/* an agent without registration needs a send handler, no user RMPP */
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, NULL, 0, 0, 1, 0),
		       -EINVAL);
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, NULL, 0, 1, 1,
					  IB_MAD_USER_RMPP), -EINVAL);
	/* class version 8 and up */
	req.mgmt_class_version = 8;
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       -EINVAL);
	req.mgmt_class_version = 1;
	/* class 0 (reserved) and classes past the table */
	req.mgmt_class = 0;
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       -EINVAL);
	req.mgmt_class = 0x90;
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       -EINVAL);
	/* a vendor class of range 2 needs an OUI */
	req.mgmt_class = IB_MGMT_CLASS_VENDOR_RANGE2_START;
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       -EINVAL);
	/* SMPs on QP0 only, the rest on QP1 only */
	req.mgmt_class = IB_MGMT_CLASS_SUBN_LID_ROUTED;
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       -EINVAL);
	req.mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       -EINVAL);
	req.mgmt_class = KU_CLASS;
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_SMI, &req, 0, 1, 1, 0),
		       -EINVAL);
	/* and what is right is taken */
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       0);
}

/* One agent per (version, class, OUI, method); freed by unregistering. */
static void mad_register_conflicts(struct kunit *test)
{
	struct kt_vt *vt = &mad_bed.a;
	struct ib_device *d = vt->dev;
	struct ib_mad_reg_req req = {
		.mgmt_class = KU_CLASS,
		.mgmt_class_version = 1,
	};
	struct ib_mad_reg_req vreq = {
		.mgmt_class = IB_MGMT_CLASS_VENDOR_RANGE2_START + 1,
		.mgmt_class_version = 1,
		.oui = { 0x00, 0x14, 0x05 },
	};
	struct ib_mad_agent *a, *b;

	__set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	__set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	a = try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);

	/* SET is taken: nothing of this registration is entered */
	bitmap_zero(req.method_mask, IB_MGMT_MAX_METHODS);
	__set_bit(IB_MGMT_METHOD_SEND, req.method_mask);
	__set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       -EINVAL);
	/* ... so SEND alone is still free */
	__clear_bit(IB_MGMT_METHOD_SET, req.method_mask);
	b = try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0);
	KUNIT_EXPECT_FALSE(test, IS_ERR(b));
	if (!IS_ERR(b))
		ib_unregister_mad_agent(b);
	/* another class version is another table */
	req.mgmt_class_version = 2;
	__set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       0);
	req.mgmt_class_version = 1;
	ib_unregister_mad_agent(a);
	/* GET and SET are free again */
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &req, 0, 1, 1, 0),
		       0);

	/* vendor classes: the OUI is part of the key */
	__set_bit(IB_MGMT_METHOD_GET, vreq.method_mask);
	a = try_register(d, 1, IB_QPT_GSI, &vreq, 0, 1, 1, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &vreq, 0, 1, 1, 0),
		       -EINVAL);
	vreq.oui[2] = 0x06;
	EXPECT_REFUSED(test, try_register(d, 1, IB_QPT_GSI, &vreq, 0, 1, 1, 0),
		       0);
	ib_unregister_mad_agent(a);
}

/*
 * A Get on QP1 from one device to another: the agent there gets it, its
 * GetResp comes back to the sender with the send buffer, before the
 * send completes with success.
 */
static void mad_request_response(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct kt_vt *vb = &mad_bed.b;
	struct rec *a = new_agent(test, va->dev, 0);
	struct rec *b = new_agent(test, vb->dev, BIT(IB_MGMT_METHOD_GET));
	u32 lid_a = rdma_loop_port_lid(va->dev);

	b->answer = true;
	KUNIT_ASSERT_EQ(test, ku_post(test, a, rdma_loop_port_lid(vb->dev),
				      KU_CLASS, IB_MGMT_METHOD_GET, 7, 2000, 0),
			0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, a->responses, 1);
	KUNIT_EXPECT_TRUE(test, a->resp_before_send);
	KUNIT_EXPECT_EQ(test, a->last.mad_hdr.method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(a->last.mad_hdr.tid),
			(u64)a->agent->hi_tid << 32 | 7);
	KUNIT_EXPECT_EQ(test, a->last.data[0], 0xab);
	KUNIT_EXPECT_EQ(test, a->last.data[1], 0x5a);
	KUNIT_EXPECT_EQ(test, a->last_retries, 0);

	/* what b saw: the request, from a's QP1 and LID */
	KUNIT_EXPECT_EQ(test, b->recvs, 1);
	KUNIT_EXPECT_EQ(test, b->responses, 0);
	KUNIT_EXPECT_EQ(test, b->last.mad_hdr.method, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_EQ(test, b->last_wc.src_qp, 1u);
	KUNIT_EXPECT_EQ(test, b->last_wc.slid, lid_a);
	KUNIT_EXPECT_EQ(test, b->last.data[1], 0x5a);
}

/*
 * A Get nobody registered for is answered by the MAD layer itself:
 * GetResp, "unsupported method/attribute combination".  A Send is not
 * answered at all.
 */
static void mad_unsupported_answer(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct kt_vt *vb = &mad_bed.b;
	struct rec *a = new_agent(test, va->dev, 0);
	struct rec *b = new_agent(test, vb->dev, BIT(IB_MGMT_METHOD_GET));
	u32 lid_b = rdma_loop_port_lid(vb->dev);

	/* b takes Gets only */
	KUNIT_ASSERT_EQ(test, ku_post(test, a, lid_b, KU_CLASS,
				      IB_MGMT_METHOD_SET, 1, 2000, 0), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, a->responses, 1);
	KUNIT_EXPECT_EQ(test, a->last.mad_hdr.method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->last.mad_hdr.status),
			IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
	KUNIT_EXPECT_EQ(test, b->recvs, 0);

	/* a class nobody has */
	rec_reset(a);
	KUNIT_ASSERT_EQ(test, ku_post(test, a, lid_b, KU_CLASS + 1,
				      IB_MGMT_METHOD_GET, 2, 2000, 0), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->responses, 1);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->last.mad_hdr.status),
			IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);

	/* a Send to nobody: no answer, so the send times out */
	rec_reset(a);
	KUNIT_ASSERT_EQ(test, ku_post(test, a, lid_b, KU_CLASS + 1,
				      IB_MGMT_METHOD_SEND, 3, 200, 0), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->responses, 0);
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_RESP_TIMEOUT_ERR);
}

/*
 * Nobody answers: the send goes 1 + retries times (the peer's agent sees
 * each, with the same TID, and nothing more), then completes with
 * RESP_TIMEOUT_ERR and ->retries counting the resends.
 */
static void mad_timeout_retries(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct kt_vt *vb = &mad_bed.b;
	struct rec *a = new_agent(test, va->dev, 0);
	struct rec *b = new_agent(test, vb->dev, BIT(IB_MGMT_METHOD_GET));
	unsigned long t0 = jiffies;

	KUNIT_ASSERT_EQ(test, ku_post(test, a, rdma_loop_port_lid(vb->dev),
				      KU_CLASS, IB_MGMT_METHOD_GET, 9, 50, 2),
			0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, a->last_retries, 2);
	KUNIT_EXPECT_EQ(test, a->recvs, 0);
	/* three waits of 50 ms at least */
	KUNIT_EXPECT_GE(test, jiffies_to_msecs(jiffies - t0), 150u);
	KUNIT_ASSERT_TRUE(test, wait_recvs(b, 3));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(b->last.mad_hdr.tid),
			(u64)a->agent->hi_tid << 32 | 9);
	/*
	 * and no fourth try: a Get answered after them, on the same QPs, is
	 * the fourth MAD b got
	 */
	b->answer = true;
	KUNIT_ASSERT_EQ(test, ku_post(test, a, rdma_loop_port_lid(vb->dev),
				      KU_CLASS, IB_MGMT_METHOD_GET, 11, 60000,
				      0), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 2));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, b->recvs, 4);

	/* to a LID nobody has: the same, without anybody seeing it */
	rec_reset(a);
	KUNIT_ASSERT_EQ(test, ku_post(test, a, 0xbeef, KU_CLASS,
				      IB_MGMT_METHOD_GET, 10, 50, 1), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, a->last_retries, 1);
}

/* ib_cancel_mad(): the send ends flushed, once. */
static void mad_cancel(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct kt_vt *vb = &mad_bed.b;
	struct rec *a = new_agent(test, va->dev, 0);
	struct rec *b = new_agent(test, vb->dev, BIT(IB_MGMT_METHOD_GET));
	struct ib_mad_send_buf *sb;

	a->keep = true;
	sb = ku_request(test, a, rdma_loop_port_lid(vb->dev), KU_CLASS,
			IB_MGMT_METHOD_GET, 11, 60000, 0);
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wait_recvs(b, 1));
	ib_cancel_mad(sb);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_WR_FLUSH_ERR);
	/* no longer outstanding */
	KUNIT_EXPECT_EQ(test, ib_modify_mad(sb, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_modify_mad(sb, 100), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_modify_mad(NULL, 100), -EINVAL);
	ib_free_send_mad(sb);

	/* a shorter wait set with ib_modify_mad() ends it sooner */
	rec_reset(a);
	sb = ku_request(test, a, rdma_loop_port_lid(vb->dev), KU_CLASS,
			IB_MGMT_METHOD_GET, 12, 60000, 0);
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wait_recvs(b, 2));
	KUNIT_EXPECT_EQ(test, ib_modify_mad(sb, 50), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_RESP_TIMEOUT_ERR);
	ib_free_send_mad(sb);
}

static void open_gate(void *gate)
{
	complete_all(gate);
}

/*
 * A send whose response matched is not outstanding any more, even while
 * its agent's receive handler still has the response: ib_modify_mad()
 * (and so ib_cancel_mad()) refuses it and changes nothing, the send
 * ends with success.
 */
static void mad_cancel_after_response(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct kt_vt *vb = &mad_bed.b;
	struct rec *a = new_agent(test, va->dev, 0);
	struct rec *b = new_agent(test, vb->dev, BIT(IB_MGMT_METHOD_GET));
	struct completion *gate = kunit_kzalloc(test, sizeof(*gate),
						GFP_KERNEL);
	struct ib_mad_send_buf *sb;

	KUNIT_ASSERT_NOT_NULL(test, gate);
	init_completion(gate);
	/* before the agents go at the end, whatever happened */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, open_gate, gate),
			0);
	a->resp_gate = gate;
	a->keep = true;
	b->answer = true;
	sb = ku_request(test, a, rdma_loop_port_lid(vb->dev), KU_CLASS,
			IB_MGMT_METHOD_GET, 13, 60000, 0);
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&a->resp_in,
							    KU_WAIT));
	KUNIT_EXPECT_EQ(test, ib_modify_mad(sb, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_modify_mad(sb, 100), -EINVAL);
	complete_all(gate);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, a->responses, 1);
	KUNIT_EXPECT_EQ(test, a->sends, 1);
	ib_free_send_mad(sb);
}

/*
 * Responses that answer nothing are dropped: a TID the agent never sent,
 * an agent ID of another port.  The real response, sent after them on
 * the same QP, still matches; a's QP1 handles its receives in the order
 * they came, so by then the two others were handled (and dropped).
 */
static void mad_response_matching(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct kt_vt *vb = &mad_bed.b;
	struct rec *a = new_agent(test, va->dev, 0);
	struct rec *b = new_agent(test, vb->dev, BIT(IB_MGMT_METHOD_GET));
	u32 lid_a = rdma_loop_port_lid(va->dev);
	u32 lid_b = rdma_loop_port_lid(vb->dev);
	struct ib_mad_send_buf *sb;

	/* a waits for the answer to TID 5, which b never gives */
	KUNIT_ASSERT_EQ(test, ku_post(test, a, lid_b, KU_CLASS,
				      IB_MGMT_METHOD_GET, 5, 60000, 0), 0);
	KUNIT_ASSERT_TRUE(test, wait_recvs(b, 1));
	/* a GetResp with a's agent ID and TID 6 */
	sb = ku_request(test, b, lid_a, KU_CLASS, IB_MGMT_METHOD_GET_RESP, 0,
			0, 0);
	((struct ib_mad *)sb->mad)->mad_hdr.tid =
		cpu_to_be64((u64)a->agent->hi_tid << 32 | 6);
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	/* a GetResp with b's agent ID (not an agent of a's port), TID 5 */
	KUNIT_ASSERT_EQ(test, ku_post(test, b, lid_a, KU_CLASS,
				      IB_MGMT_METHOD_GET_RESP, 5, 0, 0), 0);

	/* the right one: a's agent ID and TID 5 */
	sb = ku_request(test, b, lid_a, KU_CLASS, IB_MGMT_METHOD_GET_RESP, 0,
			0, 0);
	((struct ib_mad *)sb->mad)->mad_hdr.tid =
		cpu_to_be64((u64)a->agent->hi_tid << 32 | 5);
	((struct ib_mad *)sb->mad)->data[2] = 0x77;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	/* it alone reached a */
	KUNIT_EXPECT_EQ(test, a->recvs, 1);
	KUNIT_EXPECT_EQ(test, a->responses, 1);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(a->last.mad_hdr.tid),
			(u64)a->agent->hi_tid << 32 | 5);
	KUNIT_EXPECT_EQ(test, a->last.data[2], 0x77);
	KUNIT_EXPECT_TRUE(test, wait_sends(b, 3));
}

/* Malformed MADs are dropped silently: nothing arrives, nothing answers. */
static void mad_malformed_dropped(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct kt_vt *vb = &mad_bed.b;
	struct rec *a = new_agent(test, va->dev, 0);
	struct rec *b = new_agent(test, vb->dev, BIT(IB_MGMT_METHOD_GET) |
				   BIT(IB_MGMT_METHOD_SEND));
	u32 lid_b = rdma_loop_port_lid(vb->dev);
	struct ib_mad_send_buf *sb;

	b->answer = true;
	/* base version 2 */
	sb = ku_request(test, a, lid_b, KU_CLASS, IB_MGMT_METHOD_GET, 20, 50,
			0);
	((struct ib_mad *)sb->mad)->mad_hdr.base_version = 2;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_RESP_TIMEOUT_ERR);
	/* an SMP class on QP1 */
	sb = ku_request_qp(test, a, lid_b, 1, IB_MGMT_CLASS_SUBN_LID_ROUTED,
			   IB_MGMT_METHOD_GET, 21, 50, 0);
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 2));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_RESP_TIMEOUT_ERR);
	/* a CM Get other than ClassPortInfo */
	KUNIT_ASSERT_EQ(test, ku_post(test, a, lid_b, IB_MGMT_CLASS_CM,
				      IB_MGMT_METHOD_GET, 22, 50, 0), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 3));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, a->recvs, 0);
	KUNIT_EXPECT_EQ(test, b->recvs, 0);

	/*
	 * and a good one still goes through; sent after them on the same
	 * QPs, it is the only MAD b's agent got
	 */
	KUNIT_ASSERT_EQ(test, ku_post(test, a, lid_b, KU_CLASS,
				      IB_MGMT_METHOD_GET, 23, 60000, 0), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 4));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, b->recvs, 1);
	KUNIT_EXPECT_EQ(test, a->recvs, 1);
}

/* What ib_create_send_mad() and ib_post_send_mad() refuse. */
static void mad_send_refusals(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct rec *a = new_agent(test, va->dev, 0);
	struct ib_mad_send_buf *sb;

	/* more than one MAD without RMPP */
	sb = ib_create_send_mad(a->agent, 1, 0, 0, IB_MGMT_MAD_HDR,
				IB_MGMT_MAD_DATA + 1, GFP_KERNEL,
				IB_MGMT_BASE_VERSION);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(sb), -EINVAL);
	/* RMPP from an agent that has none */
	sb = ib_create_send_mad(a->agent, 1, 0, 1, IB_MGMT_SA_HDR, 100,
				GFP_KERNEL, IB_MGMT_BASE_VERSION);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(sb), -EINVAL);

	/* a send with a timeout needs a receive handler to get the answer */
	a->agent->recv_handler = NULL;
	sb = ku_request(test, a, 1, KU_CLASS, IB_MGMT_METHOD_GET, 1, 100, 0);
	KUNIT_EXPECT_EQ(test, ib_post_send_mad(sb, NULL), -EINVAL);
	a->agent->recv_handler = ku_recv_handler;
	rdma_destroy_ah(sb->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(sb);
	KUNIT_EXPECT_EQ(test, a->sends, 0);
}

/* More sends at once than the send queue holds: all complete. */
static void mad_send_overflow(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct kt_vt *vb = &mad_bed.b;
	struct rec *a = new_agent(test, va->dev, 0);
	struct rec *b = new_agent(test, vb->dev, BIT(IB_MGMT_METHOD_GET));
	u32 lid_b = rdma_loop_port_lid(vb->dev);
	int i, n = 300;

	b->answer = true;
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, ku_post(test, a, lid_b, KU_CLASS,
					      IB_MGMT_METHOD_GET, 100 + i,
					      5000, 3), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, n));
	KUNIT_EXPECT_EQ(test, a->responses, n);
	KUNIT_EXPECT_EQ(test, a->flushed, 0);
}

/*
 * Unregistering an agent with sends waiting for their responses: each
 * completes flushed before ib_unregister_mad_agent() returns.
 */
static void mad_unregister_in_flight(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct kt_vt *vb = &mad_bed.b;
	struct rec *a = new_rec(test);
	struct rec *b = new_agent(test, vb->dev, BIT(IB_MGMT_METHOD_GET));
	int i;

	a->agent = ib_register_mad_agent(va->dev, 1, IB_QPT_GSI, NULL, 0,
					 ku_send_handler, ku_recv_handler, a,
					 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a->agent);
	for (i = 0; i < 8; i++)
		KUNIT_ASSERT_EQ(test, ku_post(test, a,
					      rdma_loop_port_lid(vb->dev),
					      KU_CLASS, IB_MGMT_METHOD_GET, i,
					      60000, 0), 0);
	KUNIT_ASSERT_TRUE(test, wait_recvs(b, 8));
	ib_unregister_mad_agent(a->agent);
	KUNIT_EXPECT_EQ(test, a->sends, 8);
	KUNIT_EXPECT_EQ(test, a->flushed, 8);
}

/*
 * A device goes away while MADs fly both ways: its own client drops its
 * agent (sends flushed) and the MAD layer closes its QPs; the peer's
 * sends to it time out.
 */
static struct rec *gone_rec;

static int gone_add(struct ib_device *dev)
{
	if (strncmp(dev_name(&dev->dev), "kugone", 6) || !gone_rec)
		return -EOPNOTSUPP;
	gone_rec->agent = ib_register_mad_agent(dev, 1, IB_QPT_GSI, NULL, 0,
						ku_send_handler,
						ku_recv_handler, gone_rec, 0);
	return PTR_ERR_OR_ZERO(gone_rec->agent);
}

static void gone_remove(struct ib_device *dev, void *data)
{
	ib_unregister_mad_agent(gone_rec->agent);
}

static struct ib_client gone_client = {
	.name = "kumad_gone",
	.add = gone_add,
	.remove = gone_remove,
};

static void unregister_gone_client(void *p)
{
	ib_unregister_client(&gone_client);
	gone_rec = NULL;
}

static void mad_device_removed_in_flight(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct rec *a = new_agent(test, va->dev, BIT(IB_MGMT_METHOD_GET));
	struct rec *g = new_rec(test);
	struct ib_device *gone;
	u32 lid_a = rdma_loop_port_lid(va->dev), lid_g;
	int i;

	a->answer = true;
	gone_rec = g;
	KUNIT_ASSERT_EQ(test, ib_register_client(&gone_client), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							unregister_gone_client,
							NULL), 0);
	gone = rdma_loop_add_device("kugone%d");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gone);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, g->agent);
	lid_g = rdma_loop_port_lid(gone);

	/* g asks a (answered), a asks g (unsupported answers), many */
	for (i = 0; i < 64; i++) {
		KUNIT_EXPECT_EQ(test, ku_post(test, g, lid_a, KU_CLASS,
					      IB_MGMT_METHOD_GET, i, 60000, 0),
				0);
		KUNIT_EXPECT_EQ(test, ku_post(test, a, lid_g, KU_CLASS,
					      IB_MGMT_METHOD_GET, i, 1000, 0),
				0);
	}
	rdma_loop_remove_device(gone);
	/* every send of g ended, flushed or answered */
	KUNIT_EXPECT_EQ(test, g->sends, 64);
	KUNIT_EXPECT_EQ(test, g->sends - g->flushed, g->responses);
	/* a's ended too: answered, or timed out once g was gone */
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 64));
	KUNIT_EXPECT_EQ(test, a->flushed, 0);
}

/* An agent of @dev on QP0 (SMI), taking nothing unsolicited. */
static struct rec *new_smi_agent(struct kunit *test, struct ib_device *dev)
{
	struct rec *r = new_rec(test);

	r->agent = ib_register_mad_agent(dev, 1, IB_QPT_SMI, NULL, 0,
					 ku_send_handler, ku_recv_handler, r,
					 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r->agent);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_unregister_agent,
							r->agent), 0);
	return r;
}

/* A SubnGet(NodeInfo) from @r's agent: directed route of no hop, or LID. */
static struct ib_mad_send_buf *ku_nodeinfo_get(struct kunit *test,
					       struct rec *r, bool dr,
					       u32 dlid)
{
	struct ib_mad_send_buf *sb;
	struct ib_smp *smp;

	sb = ku_request(test, r, dr ? be16_to_cpu(IB_LID_PERMISSIVE) : dlid,
			IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET, 30,
			2000, 0);
	smp = sb->mad;
	memset(smp->data, 0, sizeof(smp->data));
	smp->attr_id = IB_SMP_ATTR_NODE_INFO;
	if (dr) {
		smp->mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
		smp->hop_cnt = 0;
		smp->hop_ptr = 0;
		smp->dr_slid = IB_LID_PERMISSIVE;
		smp->dr_dlid = IB_LID_PERMISSIVE;
	}
	return sb;
}

/*
 * SMPs answered by the device's process_mad (rdmavt's SMA): a
 * directed-route SubnGet of hop count 0 never leaves the port (the
 * answer comes from local work, with the send buffer, before the send
 * completes); a LID-routed one to another device crosses the fabric and
 * comes back from that device's responder on QP0.
 */
static void mad_smp_answered(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct kt_vt *vb = &mad_bed.b;
	struct rec *a = new_smi_agent(test, va->dev);
	struct ib_mad_send_buf *sb;
	struct ib_node_info *ni;
	struct ib_smp *smp;

	sb = ku_nodeinfo_get(test, a, true, 0);
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, a->responses, 1);
	KUNIT_EXPECT_TRUE(test, a->resp_before_send);
	smp = (struct ib_smp *)&a->last;
	KUNIT_EXPECT_EQ(test, smp->method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, smp->mgmt_class,
			IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE);
	KUNIT_EXPECT_TRUE(test, !!(smp->status & IB_SMP_DIRECTION));
	ni = (struct ib_node_info *)smp->data;
	KUNIT_EXPECT_EQ(test, ni->node_type, RDMA_NODE_IB_CA);
	KUNIT_EXPECT_EQ(test, ni->num_ports, 1);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->node_guid),
			be64_to_cpu(va->dev->node_guid));
	KUNIT_EXPECT_EQ(test, ni->local_port_num, 1);

	/* LID-routed to b: b's SMA answers through the fabric */
	rec_reset(a);
	sb = ku_nodeinfo_get(test, a, false, rdma_loop_port_lid(vb->dev));
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, a->responses, 1);
	KUNIT_EXPECT_EQ(test, a->last_wc.src_qp, 0u);
	KUNIT_EXPECT_EQ(test, a->last_wc.slid, rdma_loop_port_lid(vb->dev));
	ni = (struct ib_node_info *)((struct ib_smp *)&a->last)->data;
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->node_guid),
			be64_to_cpu(vb->dev->node_guid));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->last.mad_hdr.status), 0);
}

/* A PerfMgt Get(ClassPortInfo) to another device: its PMA answers. */
static void mad_pma_answered(struct kunit *test)
{
	struct kt_vt *va = &mad_bed.a;
	struct kt_vt *vb = &mad_bed.b;
	struct rec *a = new_agent(test, va->dev, 0);
	struct ib_mad_send_buf *sb;

	sb = ku_request(test, a, rdma_loop_port_lid(vb->dev),
			IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_METHOD_GET, 40, 2000,
			0);
	((struct ib_mad *)sb->mad)->mad_hdr.attr_id =
		IB_MGMT_CLASSPORTINFO_ATTR_ID;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, a->responses, 1);
	KUNIT_EXPECT_EQ(test, a->last.mad_hdr.mgmt_class,
			IB_MGMT_CLASS_PERF_MGMT);
	KUNIT_EXPECT_EQ(test, a->last.mad_hdr.method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->last.mad_hdr.status), 0);
	KUNIT_EXPECT_EQ(test, a->last_wc.slid, rdma_loop_port_lid(vb->dev));
}

static struct kunit_case rdma_mad_cases[] = {
	KUNIT_CASE(mad_port_qps),
	KUNIT_CASE(mad_register_refusals),
	KUNIT_CASE(mad_register_conflicts),
	KUNIT_CASE(mad_request_response),
	KUNIT_CASE(mad_unsupported_answer),
	KUNIT_CASE(mad_timeout_retries),
	KUNIT_CASE(mad_cancel),
	KUNIT_CASE(mad_cancel_after_response),
	KUNIT_CASE(mad_response_matching),
	KUNIT_CASE(mad_malformed_dropped),
	KUNIT_CASE(mad_send_refusals),
	KUNIT_CASE(mad_send_overflow),
	KUNIT_CASE(mad_unregister_in_flight),
	KUNIT_CASE(mad_device_removed_in_flight),
	KUNIT_CASE(mad_smp_answered),
	KUNIT_CASE(mad_pma_answered),
	{}
};

static struct kunit_suite rdma_mad_suite = {
	.name = "rdma_mad",
	.suite_init = mad_suite_init,
	.suite_exit = mad_suite_exit,
	.init = mad_case_init,
	.test_cases = rdma_mad_cases,
};

kunit_test_suite(rdma_mad_suite);

MODULE_DESCRIPTION("KUnit tests of the MAD layer on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
