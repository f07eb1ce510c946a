// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_nldev_res": the nldev resource commands
 * (core/ib_core/netlink/nldev_res.c) as "rdma res show" uses them, STAT_GET
 * (core/ib_core/netlink/nldev_stat.c) on devices without per-QP counters,
 * GET_CHARDEV's refusals (core/ib_core/netlink/nldev_chardev.c; the answers of
 * umad and issm are rdma_umad's), and the monitor events
 * (core/ib_core/netlink/nldev_monitor.c).
 *
 * Each case creates verbs objects on the suite's loop device (hw/loop),
 * then asks ib_core about them through a NETLINK_RDMA socket of its own
 * and checks every attribute against the objects.  The owner of every
 * object is this module, so RDMA_NLDEV_ATTR_RES_KERN_NAME must be
 * KBUILD_MODNAME.
 *
 * The loop device, its PD and its CQ are made once, by the suite's init
 * (making and removing a device per case was most of the suite's time),
 * and removed by its exit.  Every object a case adds goes when the case
 * ends (KUnit actions, synchronous verbs calls: nothing of it is still
 * under way afterwards), and each case that uses the device first checks
 * that it is as the suite made it: the number of tracked objects of
 * every type and the PD's use count as after the suite's init, the CQ
 * unused.
 * The monitor case makes devices of its own: their events are what it
 * checks.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <kunit/rdma_loop.h>
#include <kunit/rdma_nldev.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/net.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/socket.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>
#include <rdma/restrack.h>

/* Reads of this size make a dump of a hundred QPs take several reads. */
#define DUMP_READ_LEN	4096
#define MANY_QPS	150
/* QP numbers of MANY_QPS new QPs lie within this span. */
#define QPN_SPAN	(4 * MANY_QPS)

/*
 * The suite's loop device with its PD and CQ (nldev_res_suite_init()), and
 * the PD's use count and how many objects of each type the device tracked
 * then.
 */
static struct {
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	int pd_usecnt;
	u64 count[RDMA_RESTRACK_MAX];
} res_bed;

/* The suite's device and objects as a case sees them, and its socket. */
struct res_env {
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct kt_nlc *c;
	struct kt_req *r;
	struct nlattr **tb;
};

/*
 * A dump being read: @on_msg sees every data message; @done and @error
 * come from NLMSG_DONE (or an NLMSG_ERROR).
 */
struct dump {
	void (*on_msg)(struct kunit *test, struct nlmsghdr *nlh, void *priv);
	void *priv;
	unsigned int msgs;
	bool done;
	int error;
};

/* Read one datagram of a dump; false when nothing was queued. */
static bool dump_read(struct kt_nlc *c, struct dump *d, int len)
{
	struct nlmsghdr *nlh;
	int rem = kt_nlc_recv(c, len);

	if (!rem)
		return false;
	for (nlh = (struct nlmsghdr *)c->rx; nlmsg_ok(nlh, rem);
	     nlh = nlmsg_next(nlh, &rem)) {
		KUNIT_EXPECT_EQ(c->test, nlh->nlmsg_seq, c->seq);
		if (nlh->nlmsg_type == NLMSG_DONE) {
			d->error = *(int *)nlmsg_data(nlh);
			d->done = true;
			break;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			d->error = kt_nlc_error(c, nlh);
			d->done = true;
			break;
		}
		KUNIT_EXPECT_TRUE(c->test, nlh->nlmsg_flags & NLM_F_MULTI);
		d->msgs++;
		if (d->on_msg)
			d->on_msg(c->test, nlh, d->priv);
	}
	return true;
}

/* Send a dump request and read it to its end; the dump's error. */
static int nlc_dump(struct kt_nlc *c, struct kt_req *r, struct dump *d, int len)
{
	r->nlh->nlmsg_flags |= NLM_F_DUMP;
	kt_nlc_send(c, r);
	while (!d->done)
		KUNIT_ASSERT_TRUE(c->test, dump_read(c, d, len));
	return d->error;
}

/* Parse into @tb, which is cleared first. */
static void parse(struct kunit *test, struct nlattr *start, int len,
		  struct nlattr **tb)
{
	memset(tb, 0, RDMA_NLDEV_ATTR_MAX * sizeof(*tb));
	KUNIT_ASSERT_EQ(test, 0,
			nla_parse_deprecated(tb, RDMA_NLDEV_ATTR_MAX - 1, start,
					     len, NULL, NULL));
}

static void parse_msg(struct kunit *test, struct nlmsghdr *nlh,
		      struct nlattr **tb)
{
	parse(test, nlmsg_attrdata(nlh, 0), nlmsg_attrlen(nlh, 0), tb);
}

/*
 * A case's view of the suite's device, after checking that the earlier
 * cases left it as the suite's init made it; a socket of the case's own.
 */
static struct res_env *new_env(struct kunit *test)
{
	struct res_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	int t;

	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_NOT_NULL_MSG(test, res_bed.cq, "no suite device");
	e->dev = res_bed.dev;
	e->pd = res_bed.pd;
	e->cq = res_bed.cq;
	KUNIT_ASSERT_TRUE(test, fake_hca_try_get_put(e->dev));
	for (t = 0; t < RDMA_RESTRACK_MAX; t++)
		KUNIT_ASSERT_EQ_MSG(test, rdma_restrack_count(e->dev, t, false),
				    res_bed.count[t],
				    "objects of type %d left by an earlier case",
				    t);
	KUNIT_ASSERT_EQ(test, atomic_read(&e->pd->usecnt), res_bed.pd_usecnt);
	KUNIT_ASSERT_EQ(test, atomic_read(&e->cq->usecnt), 0);
	e->c = kt_nlc_open(test);
	e->r = kunit_kzalloc(test, sizeof(*e->r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->r);
	e->tb = kt_tb_alloc(test);
	return e;
}

static struct ib_qp *new_qp(struct kunit *test, struct res_env *e,
			    enum ib_qp_type type, struct ib_srq *srq)
{
	struct ib_qp_init_attr attr = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.srq = srq,
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 2,
			.max_recv_wr = srq ? 0 : 2,
			.max_send_sge = 1,
			.max_recv_sge = srq ? 0 : 1,
		},
		.port_num = 1,
	};
	struct ib_qp *qp = ib_create_qp(e->pd, &attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_qp, qp),
			0);
	return qp;
}

/* RESET -> INIT on port 1. */
static void qp_to_init(struct kunit *test, struct ib_qp *qp)
{
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qkey = 0x11111111,
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE,
	};
	int mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT;

	mask |= qp->qp_type == IB_QPT_UD ? IB_QP_QKEY : IB_QP_ACCESS_FLAGS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, mask), 0);
}

/* Send a doit request for object @id of type @cmd; the ack's error. */
static int res_doit(struct res_env *e, u32 cmd, u16 id_attr, u32 id,
		    u32 port, struct nlmsghdr **reply)
{
	kt_req_init(e->r, cmd, 0);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_DEV_INDEX, e->dev->index);
	if (port)
		kt_req_u32(e->r, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	kt_req_u32(e->r, id_attr, id);
	return kt_nlc_do(e->c, e->r, reply);
}

/* The doit reply of @cmd for @id, parsed into e->tb; checks the handle. */
static void res_get_one(struct kunit *test, struct res_env *e, u32 cmd,
			u16 id_attr, u32 id, u32 port)
{
	struct nlmsghdr *reply;

	memset(e->tb, 0, RDMA_NLDEV_ATTR_MAX * sizeof(*e->tb));
	KUNIT_ASSERT_EQ(test, res_doit(e, cmd, id_attr, id, port, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_EQ(test, reply->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd));
	parse_msg(test, reply, e->tb);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, e->tb[RDMA_NLDEV_ATTR_DEV_INDEX]),
			e->dev->index);
	KUNIT_EXPECT_STREQ(test,
			   kt_attr_str(test, e->tb[RDMA_NLDEV_ATTR_DEV_NAME]),
			   dev_name(&e->dev->dev));
	KUNIT_EXPECT_STREQ(test,
			   kt_attr_str(test, e->tb[RDMA_NLDEV_ATTR_RES_KERN_NAME]),
			   KBUILD_MODNAME);
	KUNIT_EXPECT_NULL(test, e->tb[RDMA_NLDEV_ATTR_RES_PID]);
}

/* ------------------------------------------------------------------
 * RES_GET
 */

struct summary {
	u32 dev_index;
	bool found;
	u64 curr[RDMA_RESTRACK_MAX];
	unsigned int entries;
};

static const char * const summary_names[] = {
	"pd", "cq", "qp", "cm_id", "mr", "ctx", "srq",
};

static const enum rdma_restrack_type summary_types[] = {
	RDMA_RESTRACK_PD, RDMA_RESTRACK_CQ, RDMA_RESTRACK_QP,
	RDMA_RESTRACK_CM_ID, RDMA_RESTRACK_MR, RDMA_RESTRACK_CTX,
	RDMA_RESTRACK_SRQ,
};

/* Read a RES_GET message into @s when it is about s->dev_index. */
static void summary_msg(struct kunit *test, struct nlmsghdr *nlh, void *priv)
{
	struct nlattr **tb = kt_tb_alloc(test), **etb = kt_tb_alloc(test);
	struct summary *s = priv;
	struct nlattr *entry;
	int rem;

	KUNIT_EXPECT_EQ(test, nlh->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_RES_GET));
	parse_msg(test, nlh, tb);
	if (kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_DEV_INDEX]) != s->dev_index)
		return;
	s->found = true;
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_SUMMARY]);
	nla_for_each_nested(entry, tb[RDMA_NLDEV_ATTR_RES_SUMMARY], rem) {
		KUNIT_ASSERT_EQ(test, nla_type(entry),
				RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
		KUNIT_ASSERT_LT(test, s->entries, ARRAY_SIZE(summary_names));
		parse(test, nla_data(entry), nla_len(entry), etb);
		/* Upstream's names, in upstream's order. */
		KUNIT_EXPECT_STREQ(test,
				   kt_attr_str(test,
					       etb[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME]),
				   summary_names[s->entries]);
		s->curr[summary_types[s->entries]] =
			kt_attr_u64(test, etb[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR]);
		s->entries++;
	}
}

static void res_summary_get(struct kunit *test, struct res_env *e,
			    struct summary *s)
{
	struct nlmsghdr *reply;

	memset(s, 0, sizeof(*s));
	s->dev_index = e->dev->index;
	kt_req_init(e->r, RDMA_NLDEV_CMD_RES_GET, 0);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_DEV_INDEX, e->dev->index);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(e->c, e->r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_FALSE(test, reply->nlmsg_flags & NLM_F_MULTI);
	summary_msg(test, reply, s);
	KUNIT_EXPECT_TRUE(test, s->found);
	KUNIT_EXPECT_EQ(test, s->entries, ARRAY_SIZE(summary_names));
}

static void nldev_res_summary(struct kunit *test)
{
	struct res_env *e = new_env(test);
	struct summary before, after, dumped;
	struct dump d = { .on_msg = summary_msg, .priv = &dumped };
	struct ib_srq_init_attr sattr = {
		.attr = { .max_wr = 8, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};
	struct ib_srq *srq;
	struct ib_mr *mr;
	int i;

	res_summary_get(test, e, &before);
	/* new_env() made a PD and a CQ; no user space objects exist. */
	KUNIT_EXPECT_GE(test, before.curr[RDMA_RESTRACK_PD], 1ULL);
	KUNIT_EXPECT_GE(test, before.curr[RDMA_RESTRACK_CQ], 1ULL);
	KUNIT_EXPECT_EQ(test, before.curr[RDMA_RESTRACK_CM_ID], 0ULL);
	KUNIT_EXPECT_EQ(test, before.curr[RDMA_RESTRACK_CTX], 0ULL);

	srq = ib_create_srq(e->pd, &sattr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_srq,
							srq), 0);
	mr = ib_alloc_mr(e->pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dereg_mr, mr),
			0);
	for (i = 0; i < 3; i++)
		new_qp(test, e, IB_QPT_UD, NULL);

	res_summary_get(test, e, &after);
	KUNIT_EXPECT_EQ(test, after.curr[RDMA_RESTRACK_QP],
			before.curr[RDMA_RESTRACK_QP] + 3);
	KUNIT_EXPECT_EQ(test, after.curr[RDMA_RESTRACK_SRQ],
			before.curr[RDMA_RESTRACK_SRQ] + 1);
	KUNIT_EXPECT_EQ(test, after.curr[RDMA_RESTRACK_MR],
			before.curr[RDMA_RESTRACK_MR] + 1);
	KUNIT_EXPECT_EQ(test, after.curr[RDMA_RESTRACK_PD],
			before.curr[RDMA_RESTRACK_PD]);
	KUNIT_EXPECT_EQ(test, after.curr[RDMA_RESTRACK_CQ],
			before.curr[RDMA_RESTRACK_CQ]);
	for (i = 0; i < ARRAY_SIZE(summary_types); i++)
		KUNIT_EXPECT_EQ(test, after.curr[summary_types[i]],
				(u64)rdma_restrack_count(e->dev,
							 summary_types[i],
							 false));

	/* The dump has the same numbers for this device. */
	memset(&dumped, 0, sizeof(dumped));
	dumped.dev_index = e->dev->index;
	kt_req_init(e->r, RDMA_NLDEV_CMD_RES_GET, 0);
	KUNIT_EXPECT_EQ(test, nlc_dump(e->c, e->r, &d, KT_RXBUF_LEN), 0);
	KUNIT_EXPECT_TRUE(test, dumped.found);
	KUNIT_EXPECT_GE(test, d.msgs, 1U);
	KUNIT_EXPECT_EQ(test, memcmp(dumped.curr, after.curr,
				     sizeof(after.curr)), 0);

	/* Destroying shows at once. */
	kunit_release_action(test, kt_destroy_srq, srq);
	res_summary_get(test, e, &after);
	KUNIT_EXPECT_EQ(test, after.curr[RDMA_RESTRACK_SRQ],
			before.curr[RDMA_RESTRACK_SRQ]);
}

/* ------------------------------------------------------------------
 * One object per type
 */

static void nldev_res_qp_doit(struct kunit *test)
{
	struct res_env *e = new_env(test);
	struct ib_qp *rc = new_qp(test, e, IB_QPT_RC, NULL);
	struct ib_qp *ud = new_qp(test, e, IB_QPT_UD, NULL);
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };
	struct nlattr **tb = e->tb;

	/* A new RC QP: RESET, on the port it was created for. */
	res_get_one(test, e, RDMA_NLDEV_CMD_RES_QP_GET,
		    RDMA_NLDEV_ATTR_RES_LQPN, rc->qp_num, 1);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			1U);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_LQPN]),
			rc->qp_num);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_RES_TYPE]),
			(u8)IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_RES_STATE]),
			(u8)IB_QPS_RESET);
	/* Connected QPs show their peer and receive PSN. */
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_RQPN]), 0U);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_RQ_PSN]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_SQ_PSN]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE]);
	/* Kernel QPs do not show their PD. */
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_PDN]);

	/* The state follows modify_qp. */
	qp_to_init(test, rc);
	res_get_one(test, e, RDMA_NLDEV_CMD_RES_QP_GET,
		    RDMA_NLDEV_ATTR_RES_LQPN, rc->qp_num, 1);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_RES_STATE]),
			(u8)IB_QPS_INIT);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(rc, &a, IB_QP_STATE), 0);
	res_get_one(test, e, RDMA_NLDEV_CMD_RES_QP_GET,
		    RDMA_NLDEV_ATTR_RES_LQPN, rc->qp_num, 1);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_RES_STATE]),
			(u8)IB_QPS_ERR);

	/* A datagram QP has no peer and no path migration state. */
	qp_to_init(test, ud);
	res_get_one(test, e, RDMA_NLDEV_CMD_RES_QP_GET,
		    RDMA_NLDEV_ATTR_RES_LQPN, ud->qp_num, 1);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_RES_TYPE]),
			(u8)IB_QPT_UD);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_RES_STATE]),
			(u8)IB_QPS_INIT);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_RQPN]);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_RQ_PSN]);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_SQ_PSN]);
}

static void nldev_res_cq_pd_mr_doit(struct kunit *test)
{
	struct res_env *e = new_env(test);
	struct nlattr **tb = e->tb;
	struct ib_pd *gpd;
	struct ib_mr *mr;

	new_qp(test, e, IB_QPT_UD, NULL);

	res_get_one(test, e, RDMA_NLDEV_CMD_RES_CQ_GET,
		    RDMA_NLDEV_ATTR_RES_CQN, e->cq->res.id, 0);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_CQN]),
			e->cq->res.id);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_CQE]),
			(u32)e->cq->cqe);
	/* The QP uses it as send and as receive CQ. */
	KUNIT_EXPECT_EQ(test, kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_RES_USECNT]),
			2ULL);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_RES_POLL_CTX]),
			(u8)IB_POLL_DIRECT);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_DEV_DIM]), 0);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_CTXN]);

	res_get_one(test, e, RDMA_NLDEV_CMD_RES_PD_GET,
		    RDMA_NLDEV_ATTR_RES_PDN, e->pd->res.id, 0);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_PDN]),
			e->pd->res.id);
	KUNIT_EXPECT_EQ(test,
			kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY]),
			e->pd->local_dma_lkey);
	KUNIT_EXPECT_EQ(test, kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_RES_USECNT]),
			(u64)atomic_read(&e->pd->usecnt));
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY]);

	/* The global rkey only of a PD that asked for one. */
	gpd = ib_alloc_pd(e->dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gpd);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dealloc_pd, gpd),
			0);
	res_get_one(test, e, RDMA_NLDEV_CMD_RES_PD_GET,
		    RDMA_NLDEV_ATTR_RES_PDN, gpd->res.id, 0);
	KUNIT_EXPECT_EQ(test,
			kt_attr_u32(test,
				    tb[RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY]),
			gpd->unsafe_global_rkey);

	mr = ib_alloc_mr(e->pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dereg_mr, mr),
			0);
	res_get_one(test, e, RDMA_NLDEV_CMD_RES_MR_GET,
		    RDMA_NLDEV_ATTR_RES_MRN, mr->res.id, 0);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_MRN]),
			mr->res.id);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_RKEY]),
			mr->rkey);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_LKEY]),
			mr->lkey);
	KUNIT_EXPECT_EQ(test, kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_RES_MRLEN]),
			mr->length);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_PDN]);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_IOVA]);
}

static void nldev_res_srq_doit(struct kunit *test)
{
	struct res_env *e = new_env(test);
	struct ib_srq_init_attr sattr = {
		.attr = { .max_wr = 8, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};
	struct nlattr **qtb = kt_tb_alloc(test);
	struct nlattr **tb = e->tb;
	struct ib_qp *qp[3];
	struct nlattr *entry;
	struct ib_srq *srq;
	u32 total = 0;
	int i, rem;

	srq = ib_create_srq(e->pd, &sattr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_srq,
							srq), 0);
	/* One QP of the device does not use the SRQ. */
	new_qp(test, e, IB_QPT_RC, NULL);
	for (i = 0; i < ARRAY_SIZE(qp); i++)
		qp[i] = new_qp(test, e, IB_QPT_RC, srq);

	res_get_one(test, e, RDMA_NLDEV_CMD_RES_SRQ_GET,
		    RDMA_NLDEV_ATTR_RES_SRQN, srq->res.id, 0);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_SRQN]),
			srq->res.id);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_RES_TYPE]),
			(u8)IB_SRQT_BASIC);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_PDN]),
			e->pd->res.id);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_CQN]);

	/* Its QPs, as numbers or ranges: three QPs in all. */
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_QP]);
	nla_for_each_nested(entry, tb[RDMA_NLDEV_ATTR_RES_QP], rem) {
		parse(test, nla_data(entry), nla_len(entry), qtb);
		if (qtb[RDMA_NLDEV_ATTR_RES_LQPN]) {
			total++;
			continue;
		}
		total += kt_attr_u32(test, qtb[RDMA_NLDEV_ATTR_MAX_RANGE]) -
			 kt_attr_u32(test, qtb[RDMA_NLDEV_ATTR_MIN_RANGE]) + 1;
		KUNIT_EXPECT_LE(test,
				kt_attr_u32(test, qtb[RDMA_NLDEV_ATTR_MAX_RANGE]),
				qp[2]->qp_num);
		KUNIT_EXPECT_GE(test,
				kt_attr_u32(test, qtb[RDMA_NLDEV_ATTR_MIN_RANGE]),
				qp[0]->qp_num);
	}
	KUNIT_EXPECT_EQ(test, total, 3U);
}

/* ------------------------------------------------------------------
 * Dumps
 */

/* What a QP dump delivered: how often each QP number came. */
struct qp_seen {
	struct res_env *e;
	u8 count[QPN_SPAN];
	u32 base;
	unsigned int entries;
	unsigned int stray;
	unsigned int foreign;
};

static void qp_dump_msg(struct kunit *test, struct nlmsghdr *nlh, void *priv)
{
	struct nlattr **tb = kt_tb_alloc(test), **etb = kt_tb_alloc(test);
	struct qp_seen *s = priv;
	struct nlattr *entry;
	u32 qpn;
	int rem;

	KUNIT_EXPECT_EQ(test, nlh->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					 RDMA_NLDEV_CMD_RES_QP_GET));
	parse_msg(test, nlh, tb);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_DEV_INDEX]),
			s->e->dev->index);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_QP]);
	nla_for_each_nested(entry, tb[RDMA_NLDEV_ATTR_RES_QP], rem) {
		KUNIT_ASSERT_EQ(test, nla_type(entry),
				RDMA_NLDEV_ATTR_RES_QP_ENTRY);
		parse(test, nla_data(entry), nla_len(entry), etb);
		KUNIT_EXPECT_NOT_NULL(test, etb[RDMA_NLDEV_ATTR_RES_STATE]);
		qpn = kt_attr_u32(test, etb[RDMA_NLDEV_ATTR_RES_LQPN]);
		/* QPs of other kernel users (QP0/QP1 of a MAD layer). */
		if (strcmp(kt_attr_str(test, etb[RDMA_NLDEV_ATTR_RES_KERN_NAME]),
			   KBUILD_MODNAME)) {
			s->foreign++;
			continue;
		}
		s->entries++;
		if (qpn < s->base || qpn - s->base >= ARRAY_SIZE(s->count))
			s->stray++;
		else
			s->count[qpn - s->base]++;
	}
}

static void new_many_qps(struct kunit *test, struct res_env *e,
			 struct ib_qp **qp, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		qp[i] = new_qp(test, e, IB_QPT_UD, NULL);
		/*
		 * QP numbers come in order: the next free one from the
		 * last one given (cyclic, far from wrapping here).
		 */
		if (i)
			KUNIT_ASSERT_GT(test, qp[i]->qp_num, qp[i - 1]->qp_num);
	}
	KUNIT_ASSERT_LT(test, qp[n - 1]->qp_num - qp[0]->qp_num,
			(u32)QPN_SPAN);
}

static void nldev_res_qp_dump_many(struct kunit *test)
{
	struct res_env *e = new_env(test);
	struct qp_seen *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct ib_qp **qp = kunit_kcalloc(test, MANY_QPS, sizeof(*qp),
					  GFP_KERNEL);
	struct dump d = { .on_msg = qp_dump_msg };
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	new_many_qps(test, e, qp, MANY_QPS);
	s->e = e;
	s->base = qp[0]->qp_num;
	d.priv = s;

	kt_req_init(e->r, RDMA_NLDEV_CMD_RES_QP_GET, 0);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_DEV_INDEX, e->dev->index);
	KUNIT_EXPECT_EQ(test, nlc_dump(e->c, e->r, &d, DUMP_READ_LEN), 0);
	/* Small reads: the QPs came in several messages, each QP once. */
	KUNIT_EXPECT_GE(test, d.msgs, 3U);
	KUNIT_EXPECT_EQ(test, s->entries, (unsigned int)MANY_QPS);
	KUNIT_EXPECT_EQ(test, s->stray, 0U);
	for (i = 0; i < MANY_QPS; i++)
		KUNIT_EXPECT_EQ_MSG(test, s->count[qp[i]->qp_num - s->base], 1,
				    "QP %u", qp[i]->qp_num);

	/* A port filter: all of them are on port 1, none on port 2. */
	memset(s->count, 0, sizeof(s->count));
	s->entries = 0;
	memset(&d, 0, sizeof(d));
	d.on_msg = qp_dump_msg;
	d.priv = s;
	kt_req_init(e->r, RDMA_NLDEV_CMD_RES_QP_GET, 0);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_DEV_INDEX, e->dev->index);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	KUNIT_EXPECT_EQ(test, nlc_dump(e->c, e->r, &d, KT_RXBUF_LEN), 0);
	KUNIT_EXPECT_EQ(test, s->entries, (unsigned int)MANY_QPS);
}

static void nldev_res_qp_dump_destroy_between_reads(struct kunit *test)
{
	struct res_env *e = new_env(test);
	struct qp_seen *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct ib_qp **qp = kunit_kcalloc(test, MANY_QPS, sizeof(*qp),
					  GFP_KERNEL);
	struct dump d = { .on_msg = qp_dump_msg };
	u32 gone_first, gone_last;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	new_many_qps(test, e, qp, MANY_QPS);
	s->e = e;
	s->base = qp[0]->qp_num;
	d.priv = s;

	kt_req_init(e->r, RDMA_NLDEV_CMD_RES_QP_GET, NLM_F_DUMP);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_DEV_INDEX, e->dev->index);
	kt_nlc_send(e->c, e->r);
	KUNIT_ASSERT_TRUE(test, dump_read(e->c, &d, DUMP_READ_LEN));
	KUNIT_ASSERT_FALSE(test, d.done);
	KUNIT_ASSERT_EQ(test, s->count[0], 1);
	KUNIT_ASSERT_LT(test, s->entries, (unsigned int)MANY_QPS / 2);

	/*
	 * Between two reads, one QP that was sent and the last one (not
	 * sent yet) go away.  The dump must neither skip nor repeat any
	 * of the others.
	 */
	gone_first = qp[0]->qp_num;
	gone_last = qp[MANY_QPS - 1]->qp_num;
	kunit_release_action(test, kt_destroy_qp, qp[0]);
	kunit_release_action(test, kt_destroy_qp, qp[MANY_QPS - 1]);

	while (!d.done)
		KUNIT_ASSERT_TRUE(test, dump_read(e->c, &d, DUMP_READ_LEN));
	KUNIT_EXPECT_EQ(test, d.error, 0);
	KUNIT_EXPECT_EQ(test, s->stray, 0U);
	for (i = 1; i < MANY_QPS - 1; i++)
		KUNIT_EXPECT_EQ_MSG(test, s->count[qp[i]->qp_num - s->base], 1,
				    "QP %u", qp[i]->qp_num);
	KUNIT_EXPECT_EQ(test, s->count[gone_first - s->base], 1);
	KUNIT_EXPECT_EQ(test, s->count[gone_last - s->base], 0);
}

/* Count the entries of a dump of @cmd in nest @table. */
static void count_msg(struct kunit *test, struct nlmsghdr *nlh, void *priv)
{
	struct nlattr **tb = kt_tb_alloc(test);
	unsigned int *n = priv;
	struct nlattr *entry;
	int rem, i;

	parse_msg(test, nlh, tb);
	for (i = 0; i < RDMA_NLDEV_ATTR_MAX; i++) {
		if (!tb[i] || i == RDMA_NLDEV_ATTR_DEV_INDEX ||
		    i == RDMA_NLDEV_ATTR_DEV_NAME)
			continue;
		nla_for_each_nested(entry, tb[i], rem)
			(*n)++;
	}
}

static unsigned int dump_count(struct kunit *test, struct res_env *e,
			       u32 cmd, int *error)
{
	unsigned int n = 0;
	struct dump d = { .on_msg = count_msg, .priv = &n };

	kt_req_init(e->r, cmd, 0);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_DEV_INDEX, e->dev->index);
	*error = nlc_dump(e->c, e->r, &d, KT_RXBUF_LEN);
	return n;
}

static void nldev_res_dump_types(struct kunit *test)
{
	struct res_env *e = new_env(test);
	int err;

	new_qp(test, e, IB_QPT_UD, NULL);
	new_qp(test, e, IB_QPT_RC, NULL);
	KUNIT_EXPECT_EQ(test, dump_count(test, e, RDMA_NLDEV_CMD_RES_QP_GET,
					 &err),
			(unsigned int)rdma_restrack_count(e->dev,
							  RDMA_RESTRACK_QP,
							  false));
	KUNIT_EXPECT_GE(test, rdma_restrack_count(e->dev, RDMA_RESTRACK_QP,
						  false), 2);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, dump_count(test, e, RDMA_NLDEV_CMD_RES_CQ_GET,
					 &err),
			(unsigned int)rdma_restrack_count(e->dev,
							  RDMA_RESTRACK_CQ,
							  false));
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, dump_count(test, e, RDMA_NLDEV_CMD_RES_PD_GET,
					 &err),
			(unsigned int)rdma_restrack_count(e->dev,
							  RDMA_RESTRACK_PD,
							  false));
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, dump_count(test, e, RDMA_NLDEV_CMD_RES_MR_GET,
					 &err),
			(unsigned int)rdma_restrack_count(e->dev,
							  RDMA_RESTRACK_MR,
							  false));
	KUNIT_EXPECT_EQ(test, err, 0);
	/* Nothing tracked: only NLMSG_DONE, as "rdma res show" expects. */
	KUNIT_EXPECT_EQ(test, dump_count(test, e, RDMA_NLDEV_CMD_RES_SRQ_GET,
					 &err), 0U);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, dump_count(test, e,
					 RDMA_NLDEV_CMD_RES_CM_ID_GET, &err),
			0U);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, dump_count(test, e, RDMA_NLDEV_CMD_RES_CTX_GET,
					 &err), 0U);
	KUNIT_EXPECT_EQ(test, err, 0);
	/* The loop driver has no raw dumper: upstream's -EINVAL. */
	dump_count(test, e, RDMA_NLDEV_CMD_RES_QP_GET_RAW, &err);
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
}

/* ------------------------------------------------------------------
 * Bad requests
 */

static void nldev_res_bad_requests(struct kunit *test)
{
	struct res_env *e = new_env(test);
	struct ib_qp *qp = new_qp(test, e, IB_QPT_UD, NULL);
	struct nlmsghdr *reply;
	struct dump d = {};

	/* Unknown IDs. */
	KUNIT_EXPECT_EQ(test, res_doit(e, RDMA_NLDEV_CMD_RES_QP_GET,
				       RDMA_NLDEV_ATTR_RES_LQPN, 0xfffff0, 1,
				       NULL), -ENOENT);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "No such QP");
	KUNIT_EXPECT_EQ(test, res_doit(e, RDMA_NLDEV_CMD_RES_CQ_GET,
				       RDMA_NLDEV_ATTR_RES_CQN, 12345, 0,
				       NULL), -ENOENT);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "No such CQ");
	KUNIT_EXPECT_EQ(test, res_doit(e, RDMA_NLDEV_CMD_RES_CTX_GET,
				       RDMA_NLDEV_ATTR_RES_CTXN, 0, 0,
				       NULL), -ENOENT);

	/* A QP is looked up on a port, a CQ on the device. */
	KUNIT_EXPECT_EQ(test, res_doit(e, RDMA_NLDEV_CMD_RES_QP_GET,
				       RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num,
				       0, NULL), -EINVAL);
	KUNIT_EXPECT_GT(test, strlen(e->c->extack), 0);
	KUNIT_EXPECT_EQ(test, res_doit(e, RDMA_NLDEV_CMD_RES_CQ_GET,
				       RDMA_NLDEV_ATTR_RES_CQN, e->cq->res.id,
				       1, NULL), -EINVAL);
	KUNIT_EXPECT_GT(test, strlen(e->c->extack), 0);
	KUNIT_EXPECT_EQ(test, res_doit(e, RDMA_NLDEV_CMD_RES_QP_GET,
				       RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num,
				       9, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "No such port");
	/* The wrong ID attribute for the type. */
	KUNIT_EXPECT_EQ(test, res_doit(e, RDMA_NLDEV_CMD_RES_CQ_GET,
				       RDMA_NLDEV_ATTR_RES_PDN, e->pd->res.id,
				       0, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "The object's ID is missing");

	/* No device index, an unknown one, one of the wrong size. */
	kt_req_init(e->r, RDMA_NLDEV_CMD_RES_GET, 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, e->r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "Device index is missing");
	kt_req_init(e->r, RDMA_NLDEV_CMD_RES_CQ_GET, 0);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_DEV_INDEX, 0x7ffffff0);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_RES_CQN, 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, e->r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "No such device");
	kt_req_init(e->r, RDMA_NLDEV_CMD_RES_QP_GET, 0);
	kt_req_u8(e->r, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
	KUNIT_EXPECT_LT(test, kt_nlc_do(e->c, e->r, NULL), 0);
	KUNIT_EXPECT_GT(test, strlen(e->c->extack), 0);
	kt_req_init(e->r, RDMA_NLDEV_CMD_RES_QP_GET, 0);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_DEV_INDEX, e->dev->index);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	kt_req_u8(e->r, RDMA_NLDEV_ATTR_RES_LQPN, 1);
	KUNIT_EXPECT_LT(test, kt_nlc_do(e->c, e->r, NULL), 0);
	KUNIT_EXPECT_GT(test, strlen(e->c->extack), 0);

	/* Dumps refuse the same way. */
	kt_req_init(e->r, RDMA_NLDEV_CMD_RES_QP_GET, 0);
	KUNIT_EXPECT_EQ(test, nlc_dump(e->c, e->r, &d, KT_RXBUF_LEN), -EINVAL);
	memset(&d, 0, sizeof(d));
	kt_req_init(e->r, RDMA_NLDEV_CMD_RES_QP_GET, 0);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_DEV_INDEX, e->dev->index);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_PORT_INDEX, 0);
	KUNIT_EXPECT_EQ(test, nlc_dump(e->c, e->r, &d, KT_RXBUF_LEN), -EINVAL);
	KUNIT_EXPECT_EQ(test, d.msgs, 0U);

	/* The raw doit of a driver without raw dumpers. */
	KUNIT_EXPECT_EQ(test, res_doit(e, RDMA_NLDEV_CMD_RES_QP_GET_RAW,
				       RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num, 1,
				       &reply), -EINVAL);
	KUNIT_EXPECT_NULL(test, reply);
}

static void drop_cred(void *cred)
{
	put_cred(cred);
}

/* Keys are shown to CAP_NET_ADMIN only; the raw commands need it. */
static void nldev_res_unprivileged(struct kunit *test)
{
	struct res_env *e = new_env(test);
	struct ib_qp *qp = new_qp(test, e, IB_QPT_UD, NULL);
	struct nlattr **tb = e->tb;
	struct nlmsghdr *reply;
	struct ib_mr *mr;
	struct cred *cred;

	mr = ib_alloc_mr(e->pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dereg_mr, mr),
			0);

	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_lower(cred->cap_effective, CAP_NET_ADMIN);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, drop_cred, cred),
			0);
	e->c->cred = cred;

	res_get_one(test, e, RDMA_NLDEV_CMD_RES_MR_GET,
		    RDMA_NLDEV_ATTR_RES_MRN, mr->res.id, 0);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_RKEY]);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_LKEY]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_MRLEN]);
	res_get_one(test, e, RDMA_NLDEV_CMD_RES_PD_GET,
		    RDMA_NLDEV_ATTR_RES_PDN, e->pd->res.id, 0);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY]);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_USECNT]);
	/* QPs are not secret. */
	res_get_one(test, e, RDMA_NLDEV_CMD_RES_QP_GET,
		    RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num, 1);

	KUNIT_EXPECT_EQ(test, res_doit(e, RDMA_NLDEV_CMD_RES_QP_GET_RAW,
				       RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num, 1,
				       &reply), -EPERM);
	KUNIT_EXPECT_EQ(test, res_doit(e, RDMA_NLDEV_CMD_RES_MR_GET_RAW,
				       RDMA_NLDEV_ATTR_RES_MRN, mr->res.id, 0,
				       &reply), -EPERM);
}

/* ------------------------------------------------------------------
 * STAT_GET on a device without per-QP counters; GET_CHARDEV refused
 */

static void stat_req(struct res_env *e, u32 res, u32 port)
{
	kt_req_init(e->r, RDMA_NLDEV_CMD_STAT_GET, 0);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_DEV_INDEX, e->dev->index);
	if (port)
		kt_req_u32(e->r, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	if (res)
		kt_req_u32(e->r, RDMA_NLDEV_ATTR_STAT_RES, res);
}

static void nldev_stat_get(struct kunit *test)
{
	struct res_env *e = new_env(test);
	struct nlattr **tb = e->tb;
	struct nlmsghdr *reply;
	unsigned int n = 0;
	struct dump d = { .on_msg = count_msg, .priv = &n };
	struct ib_mr *mr;

	mr = ib_alloc_mr(e->pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dereg_mr, mr),
			0);

	/* Hardware counters: rdmavt's (rdma_counters tests their values). */
	stat_req(e, 0, 1);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(e->c, e->r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	parse_msg(test, reply, tb);
	KUNIT_EXPECT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]);
	stat_req(e, 0, 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, e->r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "Port index is missing");
	stat_req(e, 0, 7);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, e->r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "No such port");

	/* QP counters: mode "none", and no counter to find. */
	stat_req(e, RDMA_NLDEV_ATTR_RES_QP, 1);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, e->r, NULL), -EINVAL);
	stat_req(e, RDMA_NLDEV_ATTR_RES_QP, 1);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(e->c, e->r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_EQ(test, reply->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					 RDMA_NLDEV_CMD_STAT_GET));
	parse_msg(test, reply, tb);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_DEV_INDEX]),
			e->dev->index);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			1U);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_STAT_MODE]),
			(u32)RDMA_COUNTER_MODE_NONE);
	stat_req(e, RDMA_NLDEV_ATTR_RES_QP, 1);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, e->r, NULL), -ENOENT);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "No such counter");

	/* MR statistics: the MR number. */
	stat_req(e, RDMA_NLDEV_ATTR_RES_MR, 0);
	kt_req_u32(e->r, RDMA_NLDEV_ATTR_RES_MRN, mr->res.id);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(e->c, e->r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	parse_msg(test, reply, tb);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_MRN]),
			mr->res.id);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_RKEY]);

	stat_req(e, 77, 1);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, e->r, NULL), -EINVAL);
	KUNIT_EXPECT_GT(test, strlen(e->c->extack), 0);

	/* Dumps: no counters; the MRs; a dump needs the resource. */
	stat_req(e, RDMA_NLDEV_ATTR_RES_QP, 0);
	KUNIT_EXPECT_EQ(test, nlc_dump(e->c, e->r, &d, KT_RXBUF_LEN), 0);
	KUNIT_EXPECT_EQ(test, d.msgs, 0U);
	memset(&d, 0, sizeof(d));
	d.on_msg = count_msg;
	d.priv = &n;
	stat_req(e, RDMA_NLDEV_ATTR_RES_MR, 0);
	KUNIT_EXPECT_EQ(test, nlc_dump(e->c, e->r, &d, KT_RXBUF_LEN), 0);
	KUNIT_EXPECT_EQ(test, n,
			(unsigned int)rdma_restrack_count(e->dev,
							  RDMA_RESTRACK_MR,
							  false));
	memset(&d, 0, sizeof(d));
	stat_req(e, 0, 0);
	KUNIT_EXPECT_EQ(test, nlc_dump(e->c, e->r, &d, KT_RXBUF_LEN), -EINVAL);
}

static void nldev_get_chardev(struct kunit *test)
{
	struct res_env *e = new_env(test);
	struct kt_req *r = e->r;

	kt_req_init(r, RDMA_NLDEV_CMD_GET_CHARDEV, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, e->dev->index);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, e->c->extack,
			   "Character device type is missing");

	/* A port needs a device; the port must exist; so must the device. */
	kt_req_init(r, RDMA_NLDEV_CMD_GET_CHARDEV, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	kt_req_str(r, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "umad");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "A port needs its device index");
	kt_req_init(r, RDMA_NLDEV_CMD_GET_CHARDEV, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, e->dev->index);
	kt_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, 9);
	kt_req_str(r, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "umad");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "No such port");
	kt_req_init(r, RDMA_NLDEV_CMD_GET_CHARDEV, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, 0x7ffffff0);
	kt_req_str(r, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "uverbs");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, e->c->extack, "No such device");
}

/*
 * A type no client provides is refused with -EOPNOTSUPP and its extack,
 * also after the module request for the type (nothing loads).  The
 * answers of "uverbs" (ib_uverbs) and "rdma_cm" (rdma_ucm) are their
 * suites' (rdma_uverbs_main, rdma_ucm): asking for "rdma_cm" here would
 * load rdma_ucm and leave it loaded.
 */
static void nldev_get_chardev_unknown_refused(struct kunit *test)
{
	struct res_env *e = new_env(test);
	struct kt_req *r = e->r;

	kt_req_init(r, RDMA_NLDEV_CMD_GET_CHARDEV, 0);
	kt_req_str(r, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "kt_nosuch");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(e->c, r, NULL), -EOPNOTSUPP);
	KUNIT_EXPECT_STREQ(test, e->c->extack,
			   "No client provides this character device");
}

/* ------------------------------------------------------------------
 * Monitor events
 */

/*
 * The next RDMA_NLDEV_CMD_MONITOR event about device @index, parsed into
 * @tb; false when none is queued.  Events of other devices are skipped.
 */
static bool next_event(struct kt_nlc *c, u32 index, struct nlattr **tb)
{
	struct kunit *test = c->test;
	struct nlmsghdr *nlh = (struct nlmsghdr *)c->rx;

	while (kt_nlc_recv(c, KT_RXBUF_LEN) > 0) {
		KUNIT_EXPECT_EQ(test, nlh->nlmsg_type,
				RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
						 RDMA_NLDEV_CMD_MONITOR));
		parse_msg(test, nlh, tb);
		if (kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_DEV_INDEX]) == index)
			return true;
	}
	return false;
}

/*
 * A fake HCA whose port 2 is RoCE on a net device of its own: after its
 * registration event comes an attach event naming that net device.
 */
static void nldev_monitor_roce(struct kunit *test, struct kt_nlc *c,
			       struct nlattr **tb)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 2);
	struct net_device *ndev;
	struct fake_hca *hca;
	bool attached = false;
	u8 type;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kumonf";
	fake_hca_desc_set_eth(desc, 2);
	desc->port[1].netdev_name = "kumon%d";
	desc->dealloc_driver = true;
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(hca));
	ndev = ib_device_get_netdev(&hca->ibdev, 2);
	KUNIT_ASSERT_NOT_NULL(test, ndev);

	KUNIT_ASSERT_TRUE(test, next_event(c, hca->ibdev.index, tb));
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_EVENT_TYPE]),
			(u8)RDMA_REGISTER_EVENT);
	while (!attached && next_event(c, hca->ibdev.index, tb)) {
		type = kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_EVENT_TYPE]);
		if (type != RDMA_NETDEV_ATTACH_EVENT)
			continue;
		attached = true;
		KUNIT_EXPECT_EQ(test,
				kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
				2U);
		KUNIT_EXPECT_EQ(test,
				kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_NDEV_INDEX]),
				(u32)ndev->ifindex);
		KUNIT_EXPECT_STREQ(test,
				   kt_attr_str(test,
					       tb[RDMA_NLDEV_ATTR_NDEV_NAME]),
				   ndev->name);
	}
	dev_put(ndev);
	KUNIT_EXPECT_TRUE(test, attached);
}

static void nldev_monitor_events(struct kunit *test)
{
	struct nlattr **tb = kt_tb_alloc(test);
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_req *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	int group = RDMA_NL_GROUP_NOTIFY;
	struct net_device *lo = init_net.loopback_dev;
	struct nlmsghdr *reply;
	struct ib_device *dev;
	char name[IB_DEVICE_NAME_MAX];
	u32 index;

	KUNIT_ASSERT_NOT_NULL(test, r);
	/* SYS_GET says events are sent; it also binds the socket. */
	kt_req_init(r, RDMA_NLDEV_CMD_SYS_GET, 0);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	parse_msg(test, reply, tb);
	KUNIT_EXPECT_EQ(test,
			kt_attr_u8(test, tb[RDMA_NLDEV_SYS_ATTR_MONITOR_MODE]), 1);
	KUNIT_ASSERT_EQ(test, 0,
			c->sock->ops->setsockopt(c->sock, SOL_NETLINK,
						 NETLINK_ADD_MEMBERSHIP,
						 KERNEL_SOCKPTR(&group),
						 sizeof(group)));

	dev = rdma_loop_add_device("kumon%d");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_remove_loop,
							dev), 0);
	index = dev->index;
	strscpy(name, dev_name(&dev->dev), sizeof(name));

	KUNIT_ASSERT_TRUE(test, next_event(c, index, tb));
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_EVENT_TYPE]),
			(u8)RDMA_REGISTER_EVENT);
	KUNIT_EXPECT_STREQ(test, kt_attr_str(test, tb[RDMA_NLDEV_ATTR_DEV_NAME]),
			   name);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	/* A loop device has no net device: nothing else. */
	KUNIT_EXPECT_FALSE(test, next_event(c, index, tb));

	/*
	 * Attach and detach a net device to port 1.  The port is
	 * InfiniBand, whose net device ib_device_get_netdev() does not
	 * report: the events name the port only (as upstream's).
	 */
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(dev, lo, 1), 0);
	KUNIT_ASSERT_TRUE(test, next_event(c, index, tb));
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_EVENT_TYPE]),
			(u8)RDMA_NETDEV_ATTACH_EVENT);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			1U);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_NDEV_INDEX]);
	/* Setting the same net device again is no event. */
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(dev, lo, 1), 0);
	KUNIT_EXPECT_FALSE(test, next_event(c, index, tb));
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(dev, NULL, 1), 0);
	KUNIT_ASSERT_TRUE(test, next_event(c, index, tb));
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_EVENT_TYPE]),
			(u8)RDMA_NETDEV_DETACH_EVENT);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			1U);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_NDEV_INDEX]);

	kunit_release_action(test, kt_remove_loop, dev);
	KUNIT_ASSERT_TRUE(test, next_event(c, index, tb));
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_EVENT_TYPE]),
			(u8)RDMA_UNREGISTER_EVENT);
	KUNIT_EXPECT_STREQ(test, kt_attr_str(test, tb[RDMA_NLDEV_ATTR_DEV_NAME]),
			   name);

	nldev_monitor_roce(test, c, tb);
}

/*
 * The driver attribute helpers (core/ib_core/netlink/nldev_driver.c): each
 * entry flat in the driver's nest, name first, a print type only for hex, then
 * the value; -EMSGSIZE once the message is full.
 */
static void nldev_driver_attrs(struct kunit *test)
{
	static const struct {
		int type;
		const char *str;
		u64 val;
	} want[] = {
		{ RDMA_NLDEV_ATTR_DRIVER_STRING, "a" },
		{ RDMA_NLDEV_ATTR_DRIVER_U32, NULL, 5 },
		{ RDMA_NLDEV_ATTR_DRIVER_STRING, "b" },
		{ RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE, NULL,
		  RDMA_NLDEV_PRINT_TYPE_HEX },
		{ RDMA_NLDEV_ATTR_DRIVER_U32, NULL, 0x10 },
		{ RDMA_NLDEV_ATTR_DRIVER_STRING, "c" },
		{ RDMA_NLDEV_ATTR_DRIVER_U64, NULL, 1ULL << 40 },
		{ RDMA_NLDEV_ATTR_DRIVER_STRING, "d" },
		{ RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE, NULL,
		  RDMA_NLDEV_PRINT_TYPE_HEX },
		{ RDMA_NLDEV_ATTR_DRIVER_U64, NULL, 0xabcdef0123ULL },
		{ RDMA_NLDEV_ATTR_DRIVER_STRING, "e" },
		{ RDMA_NLDEV_ATTR_DRIVER_STRING, "value" },
	};
	struct sk_buff *skb = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	struct nlattr *nest, *a;
	unsigned int i = 0;
	int rem;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	nest = nla_nest_start_noflag(skb, RDMA_NLDEV_ATTR_DRIVER);
	KUNIT_ASSERT_NOT_NULL(test, nest);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u32(skb, "a", 5), 0);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u32_hex(skb, "b", 0x10), 0);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u64(skb, "c", 1ULL << 40), 0);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u64_hex(skb, "d",
							 0xabcdef0123ULL), 0);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_string(skb, "e", "value"), 0);
	nla_nest_end(skb, nest);

	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) == RDMA_NLDEV_ATTR_PAD)
			continue;	/* alignment of the u64 values */
		KUNIT_ASSERT_LT_MSG(test, i, ARRAY_SIZE(want), "extra attr %d",
				    nla_type(a));
		KUNIT_EXPECT_EQ_MSG(test, nla_type(a), want[i].type, "entry %u",
				    i);
		if (want[i].str)
			KUNIT_EXPECT_STREQ(test, (char *)nla_data(a),
					   want[i].str);
		else if (nla_type(a) == RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE)
			KUNIT_EXPECT_EQ(test, nla_get_u8(a), want[i].val);
		else if (nla_type(a) == RDMA_NLDEV_ATTR_DRIVER_U32)
			KUNIT_EXPECT_EQ(test, nla_get_u32(a), want[i].val);
		else
			KUNIT_EXPECT_EQ(test, nla_get_u64(a), want[i].val);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, ARRAY_SIZE(want));
	kfree_skb(skb);

	/* a full message: every helper refuses, none writes past the end */
	skb = alloc_skb(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	/* room for the first name ("a": 8 bytes) and 2 bytes more */
	skb_reserve(skb, skb_tailroom(skb) - (nla_total_size(2) + 2));
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u32(skb, "a", 1), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u32_hex(skb, "a", 1),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u64(skb, "a", 1), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_u64_hex(skb, "a", 1),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_string(skb, "a", "b"),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rdma_nl_put_driver_string(skb, "abcdefgh", "b"),
			-EMSGSIZE);
	kfree_skb(skb);
}

/* What the suite's init made goes, the device last. */
static void nldev_res_suite_exit(struct kunit_suite *suite)
{
	if (res_bed.cq)
		ib_free_cq(res_bed.cq);
	if (res_bed.pd)
		ib_dealloc_pd(res_bed.pd);
	if (res_bed.dev)
		rdma_loop_remove_device(res_bed.dev);
	memset(&res_bed, 0, sizeof(res_bed));
}

/* The suite's loop device, its PD and its CQ; what the device tracks. */
static int nldev_res_suite_init(struct kunit_suite *suite)
{
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	int t, ret;

	dev = rdma_loop_add_device("kures%d");
	if (IS_ERR_OR_NULL(dev))
		return dev ? PTR_ERR(dev) : -ENODEV;
	res_bed.dev = dev;
	pd = ib_alloc_pd(dev, 0);
	ret = PTR_ERR_OR_ZERO(pd);
	if (ret)
		goto err;
	res_bed.pd = pd;
	cq = ib_alloc_cq(dev, NULL, 64, 0, IB_POLL_DIRECT);
	ret = PTR_ERR_OR_ZERO(cq);
	if (ret)
		goto err;
	res_bed.cq = cq;
	res_bed.pd_usecnt = atomic_read(&pd->usecnt);
	for (t = 0; t < RDMA_RESTRACK_MAX; t++)
		res_bed.count[t] = rdma_restrack_count(dev, t, false);
	return 0;

err:
	nldev_res_suite_exit(suite);
	return ret;
}

static struct kunit_case rdma_nldev_res_cases[] = {
	KUNIT_CASE(nldev_res_summary),
	KUNIT_CASE(nldev_res_qp_doit),
	KUNIT_CASE(nldev_res_cq_pd_mr_doit),
	KUNIT_CASE(nldev_res_srq_doit),
	KUNIT_CASE(nldev_res_qp_dump_many),
	KUNIT_CASE(nldev_res_qp_dump_destroy_between_reads),
	KUNIT_CASE(nldev_res_dump_types),
	KUNIT_CASE(nldev_res_bad_requests),
	KUNIT_CASE(nldev_res_unprivileged),
	KUNIT_CASE(nldev_stat_get),
	KUNIT_CASE(nldev_driver_attrs),
	KUNIT_CASE(nldev_get_chardev),
	KUNIT_CASE(nldev_get_chardev_unknown_refused),
	KUNIT_CASE(nldev_monitor_events),
	{}
};

static struct kunit_suite rdma_nldev_res_suite = {
	.name = "rdma_nldev_res",
	.suite_init = nldev_res_suite_init,
	.suite_exit = nldev_res_suite_exit,
	.test_cases = rdma_nldev_res_cases,
};

kunit_test_suite(rdma_nldev_res_suite);

MODULE_DESCRIPTION("KUnit tests of the nldev resource commands");
MODULE_LICENSE("Dual BSD/GPL");
