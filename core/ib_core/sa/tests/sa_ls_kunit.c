// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_sa_ls": path queries through the local service
 * (core/ib_core/sa/sa_ls.c, RDMA_NL_LS).  The fake SA of <kunit/rdma_fake_sa.h>
 * answers what falls back to the SA; a KUnit tap stands for a process
 * listening on RDMA_NL_GROUP_LS and keeps the RESOLVE requests; the
 * service's answers are skbs built here and handed to the handlers
 * (ib_sa_test.ls_resolve_resp(), ib_sa_test.ls_set_timeout()) directly.
 *
 * Cases: the RESOLVE request (header and attributes, both path uses);
 * a good answer used (two records, every field); an answer with
 * RDMA_NL_LS_F_ERR, a short record or a known attribute of the wrong
 * size: to the SA; an answer with no usable record (none, unknown
 * attribute, wrong flags): -EIO; an unknown sequence number and
 * refused messages: nothing changes; the deadline: to the SA;
 * SET_TIMEOUT clamping, its effect on waiting queries and its
 * refusals; the ops' permission flags; cancel while waiting; device
 * removal while waiting; no listener (or a failed multicast): straight
 * to the SA; the IP_RESOLVE answer.
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/net.h>
#include <linux/skbuff.h>
#include <net/netlink.h>
#include <rdma/ib_user_sa.h>
#include <rdma/rdma_netlink.h>
#include "../../core_priv.h"
#include "../sa_priv.h"
#include <kunit/rdma_fake_sa.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define LS_DEFAULT_MS	2000
#define LS_TYPE(op)	RDMA_NL_GET_TYPE(RDMA_NL_LS, op)

/* ------------------------------------------------------------------
 * The tap: what would have been multicast to RDMA_NL_GROUP_LS
 */

static struct sk_buff_head ls_requests;
static DECLARE_WAIT_QUEUE_HEAD(ls_wq);
static int ls_tap_errno;	/* what the "multicast" returns */

static int ls_tap(struct sk_buff *skb)
{
	if (ls_tap_errno) {
		kfree_skb(skb);
		return ls_tap_errno;
	}
	skb_queue_tail(&ls_requests, skb);
	wake_up(&ls_wq);
	return 0;
}

/* The netlink socket the answers claim to come from. */
static struct socket *ls_sock;

static void ls_untap(void *unused)
{
	ib_sa_ls_divert_requests(NULL);
	skb_queue_purge(&ls_requests);
	ls_tap_errno = 0;
}

static void ls_tap_on(struct kunit *test)
{
	ls_tap_errno = 0;
	ib_sa_ls_divert_requests(ls_tap);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ls_untap, NULL),
			0);
}

/* The next RESOLVE request (the caller frees it), or NULL. */
static struct sk_buff *ls_next_request(void)
{
	wait_event_timeout(ls_wq, !skb_queue_empty(&ls_requests),
			   msecs_to_jiffies(KT_WAIT_MS));
	return skb_dequeue(&ls_requests);
}

/* The sequence number of the next request; the request goes. */
static u32 ls_next_seq(struct kunit *test)
{
	struct sk_buff *skb = ls_next_request();
	u32 seq;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	seq = nlmsg_hdr(skb)->nlmsg_seq;
	kfree_skb(skb);
	return seq;
}

/* ------------------------------------------------------------------
 * Messages of the "service"
 */

struct ls_msg {
	struct sk_buff		*skb;
	struct nlmsghdr		*nlh;
	struct netlink_ext_ack	extack;
};

static void free_skb_action(void *p)
{
	kfree_skb(p);
}

static struct ls_msg *ls_msg_new(struct kunit *test, int op, u32 seq,
				 u16 flags)
{
	struct ls_msg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->skb = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->skb);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_skb_action,
							m->skb), 0);
	m->nlh = nlmsg_put(m->skb, 1234, seq, LS_TYPE(op), 0, flags);
	KUNIT_ASSERT_NOT_NULL(test, m->nlh);
	NETLINK_CB(m->skb).sk = ls_sock->sk;
	return m;
}

static void ls_put(struct kunit *test, struct ls_msg *m, int type, int len,
		   const void *data)
{
	KUNIT_ASSERT_EQ(test, nla_put(m->skb, type, len, data), 0);
}

/* A path record attribute of @rec with @flags; @len bytes of it. */
static void ls_put_rec(struct kunit *test, struct ls_msg *m,
		       struct sa_path_rec *rec, u32 flags, int len)
{
	struct ib_path_rec_data data = { .flags = flags };

	ib_sa_pack_path(rec, data.path_rec);
	ls_put(test, m, LS_NLA_TYPE_PATH_RECORD, len, &data);
}

static int ls_resolve(struct ls_msg *m)
{
	nlmsg_end(m->skb, m->nlh);
	return ib_sa_test.ls_resolve_resp(m->skb, m->nlh, &m->extack);
}

static int ls_set_timeout_msg(struct ls_msg *m)
{
	nlmsg_end(m->skb, m->nlh);
	return ib_sa_test.ls_set_timeout(m->skb, m->nlh, &m->extack);
}

/* SET_TIMEOUT @ms as the service would send it. */
static int ls_set_timeout(struct kunit *test, u32 ms)
{
	struct ls_msg *m = ls_msg_new(test, RDMA_NL_LS_OP_SET_TIMEOUT, 1,
				      NLM_F_REQUEST);

	ls_put(test, m, LS_NLA_TYPE_TIMEOUT, sizeof(ms), &ms);
	return ls_set_timeout_msg(m);
}

static void ls_restore_timeout(void *test)
{
	ls_set_timeout(test, LS_DEFAULT_MS);
}

/* The answer's flags a unidirectional request needs. */
#define UNI_FLAGS	(IB_PATH_PRIMARY | IB_PATH_OUTBOUND)

/* A path unlike the fake SA's (kt_sample_path()): SL 7, lifetime 0x11. */
static void ls_path(struct sa_path_rec *rec, u16 dlid)
{
	kt_sample_path(rec);
	rec->ib.dlid = cpu_to_be16(dlid);
	rec->sl = 7;
	rec->packet_life_time = 0x11;
	rec->mtu = IB_MTU_1024;
	rec->rate = IB_RATE_10_GBPS;
}

/* A bed with the tap on and a query out; its sequence number. */
static u32 ls_query(struct kunit *test, struct kt_bed *b, struct kt_cres *r,
		    int *id, struct ib_sa_query **q)
{
	struct sa_path_rec req;

	kt_request_path(b, &req);
	*id = kt_sa_path_get(b, &req, KT_REQ_MASK, 3000, r, q);
	KUNIT_ASSERT_GE(test, *id, 0);
	return ls_next_seq(test);
}

static void ls_sock_release(void *unused)
{
	sock_release(ls_sock);
	ls_sock = NULL;
}

/*
 * The socket goes with the case's first action, so after everything
 * registered later (ls_restore_timeout() sends from it).
 */
static int ls_init(struct kunit *test)
{
	int ret;

	skb_queue_head_init(&ls_requests);
	ret = sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW, NETLINK_RDMA,
			       &ls_sock);
	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, ls_sock_release, NULL);
}

/* ------------------------------------------------------------------
 * Cases
 */

/* The RESOLVE request: header, attributes, path use; no MAD yet. */
static void ls_request_format(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct nlattr *tb[LS_NLA_TYPE_MAX] = {};
	struct rdma_ls_resolve_header *hdr;
	struct ib_sa_query *q;
	struct sa_path_rec req;
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	struct nlattr *a;
	int id, rem, n = 0;

	ls_tap_on(test);
	kt_request_path(b, &req);
	req.service_id = cpu_to_be64(0x0102030405060708ULL);
	req.traffic_class = 0x5c;
	req.qos_class = cpu_to_be16(0x0321);
	id = kt_sa_path_get(b, &req, KT_REQ_MASK | IB_SA_PATH_REC_SERVICE_ID |
			    IB_SA_PATH_REC_TRAFFIC_CLASS |
			    IB_SA_PATH_REC_QOS_CLASS, 3000, r, &q);
	KUNIT_ASSERT_GE(test, id, 0);
	skb = ls_next_request();
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_skb_action,
							skb), 0);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), 1);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 0);

	nlh = nlmsg_hdr(skb);
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_type, LS_TYPE(RDMA_NL_LS_OP_RESOLVE));
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_flags, NLM_F_REQUEST);
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_len, skb->len);
	KUNIT_ASSERT_GE(test, nlmsg_len(nlh),
			(int)NLMSG_ALIGN(sizeof(*hdr)));
	hdr = nlmsg_data(nlh);
	KUNIT_EXPECT_STREQ(test, (char *)hdr->device_name,
			   dev_name(&b->c->dev->dev));
	KUNIT_EXPECT_EQ(test, hdr->port_num, 1);
	KUNIT_EXPECT_EQ(test, hdr->path_use, LS_RESOLVE_PATH_USE_UNIDIRECTIONAL);

	nla_for_each_attr(a, nlmsg_data(nlh) + NLMSG_ALIGN(sizeof(*hdr)),
			  nlmsg_len(nlh) - NLMSG_ALIGN(sizeof(*hdr)), rem) {
		int t = a->nla_type & RDMA_NLA_TYPE_MASK;

		KUNIT_EXPECT_TRUE(test, a->nla_type & RDMA_NLA_F_MANDATORY);
		KUNIT_ASSERT_LT(test, t, LS_NLA_TYPE_MAX);
		KUNIT_EXPECT_NULL(test, tb[t]);
		tb[t] = a;
		n++;
	}
	KUNIT_EXPECT_EQ(test, rem, 0);
	KUNIT_EXPECT_EQ(test, n, 6);
	KUNIT_ASSERT_NOT_NULL(test, tb[LS_NLA_TYPE_SERVICE_ID]);
	KUNIT_ASSERT_NOT_NULL(test, tb[LS_NLA_TYPE_DGID]);
	KUNIT_ASSERT_NOT_NULL(test, tb[LS_NLA_TYPE_SGID]);
	KUNIT_ASSERT_NOT_NULL(test, tb[LS_NLA_TYPE_TCLASS]);
	KUNIT_ASSERT_NOT_NULL(test, tb[LS_NLA_TYPE_PKEY]);
	KUNIT_ASSERT_NOT_NULL(test, tb[LS_NLA_TYPE_QOS_CLASS]);
	/* integers in host order, GIDs as on the wire */
	KUNIT_EXPECT_EQ(test, nla_len(tb[LS_NLA_TYPE_SERVICE_ID]), 8);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[LS_NLA_TYPE_SERVICE_ID]),
			0x0102030405060708ULL);
	KUNIT_EXPECT_EQ(test, nla_len(tb[LS_NLA_TYPE_DGID]), 16);
	KUNIT_EXPECT_MEMEQ(test, nla_data(tb[LS_NLA_TYPE_DGID]), req.dgid.raw,
			   16);
	KUNIT_EXPECT_EQ(test, nla_len(tb[LS_NLA_TYPE_SGID]), 16);
	KUNIT_EXPECT_MEMEQ(test, nla_data(tb[LS_NLA_TYPE_SGID]), req.sgid.raw,
			   16);
	KUNIT_EXPECT_EQ(test, nla_len(tb[LS_NLA_TYPE_TCLASS]), 1);
	KUNIT_EXPECT_EQ(test, nla_get_u8(tb[LS_NLA_TYPE_TCLASS]), 0x5c);
	KUNIT_EXPECT_EQ(test, nla_len(tb[LS_NLA_TYPE_PKEY]), 2);
	KUNIT_EXPECT_EQ(test, nla_get_u16(tb[LS_NLA_TYPE_PKEY]), 0xffff);
	KUNIT_EXPECT_EQ(test, nla_len(tb[LS_NLA_TYPE_QOS_CLASS]), 2);
	KUNIT_EXPECT_EQ(test, nla_get_u16(tb[LS_NLA_TYPE_QOS_CLASS]), 0x321);

	/* reversible asked for: all uses */
	req.reversible = 1;
	KUNIT_ASSERT_GE(test, kt_sa_path_get(b, &req, KT_REQ_MASK |
					     IB_SA_PATH_REC_REVERSIBLE, 3000, r,
					     &q), 0);
	skb = ls_next_request();
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_skb_action,
							skb), 0);
	hdr = nlmsg_data(nlmsg_hdr(skb));
	KUNIT_EXPECT_EQ(test, hdr->path_use, LS_RESOLVE_PATH_USE_ALL);
	KUNIT_EXPECT_NE(test, nlmsg_hdr(skb)->nlmsg_seq, nlh->nlmsg_seq);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), 2);

	/* both end with the deadline, at the SA */
	KUNIT_EXPECT_EQ(test, ls_set_timeout(test, 100), 0);
	KUNIT_EXPECT_EQ(test, kunit_add_action_or_reset(test,
							ls_restore_timeout,
							test), 0);
	KUNIT_EXPECT_TRUE(test, kt_cres_wait(r, 2));
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 2);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), 0);
}

/* A good answer: its two records to the callback; the SA never asked. */
static void ls_good_answer(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct sa_path_rec p1, p2, alt;
	struct sa_path_rec *got;
	struct ib_sa_query *q;
	struct ls_msg *m;
	int id;
	u32 seq;

	ls_tap_on(test);
	seq = ls_query(test, b, r, &id, &q);
	ls_path(&p1, 0x0111);
	ls_path(&p2, 0x0222);
	ls_path(&alt, 0x0333);

	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, 0);
	ls_put_rec(test, m, &p1, UNI_FLAGS | IB_PATH_GMP,
		   sizeof(struct ib_path_rec_data));
	/* not usable for a unidirectional request: skipped */
	ls_put_rec(test, m, &alt, IB_PATH_ALTERNATE | IB_PATH_OUTBOUND,
		   sizeof(struct ib_path_rec_data));
	ls_put_rec(test, m, &p2, UNI_FLAGS, sizeof(struct ib_path_rec_data));
	KUNIT_EXPECT_EQ(test, ls_resolve(m), 0);

	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_EXPECT_EQ(test, r->num, 2);
	KUNIT_EXPECT_TRUE(test, r->have_rec);
	kt_expect_path_eq(test, &r->rec, &p1);
	got = &r->rec;
	KUNIT_EXPECT_EQ(test, got->flags, UNI_FLAGS | IB_PATH_GMP);
	KUNIT_EXPECT_EQ(test, got->sl, 7);
	KUNIT_EXPECT_EQ(test, got->packet_life_time, 0x11);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), 0);
	/* the query ended without a MAD: S never saw one */
	KUNIT_ASSERT_TRUE(test, kt_bed_queries_ended(b));
	KUNIT_ASSERT_TRUE(test, kt_bed_round_trip(test, b));
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 1);

	/* a second answer of the same number finds nobody */
	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, 0);
	ls_put_rec(test, m, &p2, UNI_FLAGS, sizeof(struct ib_path_rec_data));
	KUNIT_EXPECT_EQ(test, ls_resolve(m), 0);
	KUNIT_EXPECT_NOT_NULL(test, m->extack._msg);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 1);
}

/* What an answer does that is not used: @fallback to the SA or -EIO. */
static void ls_answer_expect(struct kunit *test, struct kt_bed *b,
			     struct kt_cres *r, struct ls_msg *m, bool fallback)
{
	KUNIT_EXPECT_EQ(test, ls_resolve(m), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), 0);
	if (fallback) {
		/* the fake SA's own path */
		KUNIT_EXPECT_EQ(test, r->status, 0);
		KUNIT_EXPECT_EQ(test, r->num, 1);
		kt_expect_path_eq(test, &r->rec, &b->sa->path);
		KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 1);
	} else {
		KUNIT_EXPECT_EQ(test, r->status, -EIO);
		KUNIT_EXPECT_FALSE(test, r->have_rec);
		KUNIT_ASSERT_TRUE(test, kt_bed_queries_ended(b));
		KUNIT_ASSERT_TRUE(test, kt_bed_round_trip(test, b));
		KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 1);
	}
}

/* RDMA_NL_LS_F_ERR: the SA answers instead (its record is used). */
static void ls_error_answer(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q;
	struct sa_path_rec p;
	struct ls_msg *m;
	int id;
	u32 seq;

	ls_tap_on(test);
	seq = ls_query(test, b, r, &id, &q);
	ls_path(&p, 0x0111);
	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, RDMA_NL_LS_F_ERR);
	/* a record in a failed answer is not looked at */
	ls_put_rec(test, m, &p, UNI_FLAGS, sizeof(struct ib_path_rec_data));
	ls_answer_expect(test, b, r, m, true);
}

/* A record shorter than struct ib_path_rec_data: to the SA. */
static void ls_short_record(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q;
	struct sa_path_rec p;
	struct ls_msg *m;
	int id;
	u32 seq;

	ls_tap_on(test);
	seq = ls_query(test, b, r, &id, &q);
	ls_path(&p, 0x0111);
	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, 0);
	ls_put_rec(test, m, &p, UNI_FLAGS, 40);
	ls_answer_expect(test, b, r, m, true);
	KUNIT_EXPECT_NOT_NULL(test, m->extack._msg);
}

/* A known attribute of the wrong size (a 2-byte TIMEOUT): to the SA. */
static void ls_wrong_attr_len(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q;
	struct sa_path_rec p;
	struct ls_msg *m;
	u16 two = 2;
	int id;
	u32 seq;

	ls_tap_on(test);
	seq = ls_query(test, b, r, &id, &q);
	ls_path(&p, 0x0111);
	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, 0);
	ls_put_rec(test, m, &p, UNI_FLAGS, sizeof(struct ib_path_rec_data));
	ls_put(test, m, LS_NLA_TYPE_TIMEOUT, sizeof(two), &two);
	ls_answer_expect(test, b, r, m, true);
}

/* A valid answer without records: -EIO, as upstream (no SA). */
static void ls_zero_records(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q;
	struct ls_msg *m;
	int id;
	u32 seq;

	ls_tap_on(test);
	seq = ls_query(test, b, r, &id, &q);
	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, 0);
	ls_answer_expect(test, b, r, m, false);
}

/*
 * Unknown attribute types are skipped (liberal parsing, as upstream):
 * a record under another type is no record: -EIO.
 */
static void ls_unknown_attr_type(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_path_rec_data data = { .flags = UNI_FLAGS };
	struct ib_sa_query *q;
	struct sa_path_rec p;
	struct ls_msg *m;
	int id;
	u32 seq;

	ls_tap_on(test);
	seq = ls_query(test, b, r, &id, &q);
	ls_path(&p, 0x0111);
	ib_sa_pack_path(&p, data.path_rec);
	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, 0);
	ls_put(test, m, 50, sizeof(data), &data);
	ls_answer_expect(test, b, r, m, false);
}

/* Records, none with the flags a unidirectional path needs: -EIO. */
static void ls_unusable_records(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q;
	struct sa_path_rec p;
	struct ls_msg *m;
	int id;
	u32 seq;

	ls_tap_on(test);
	seq = ls_query(test, b, r, &id, &q);
	ls_path(&p, 0x0111);
	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, 0);
	ls_put_rec(test, m, &p, IB_PATH_PRIMARY,
		   sizeof(struct ib_path_rec_data));
	ls_put_rec(test, m, &p, IB_PATH_OUTBOUND | IB_PATH_ALTERNATE,
		   sizeof(struct ib_path_rec_data));
	ls_answer_expect(test, b, r, m, false);
}

/*
 * Ignored: an unknown sequence number, a "request", a message from the
 * kernel; the query keeps waiting and then takes a good answer.
 */
static void ls_ignored_messages(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q;
	struct sa_path_rec p;
	struct ls_msg *m;
	int id;
	u32 seq;

	ls_tap_on(test);
	seq = ls_query(test, b, r, &id, &q);
	ls_path(&p, 0x0111);

	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq + 1000, 0);
	ls_put_rec(test, m, &p, UNI_FLAGS, sizeof(struct ib_path_rec_data));
	KUNIT_EXPECT_EQ(test, ls_resolve(m), 0);
	KUNIT_EXPECT_NOT_NULL(test, m->extack._msg);

	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, NLM_F_REQUEST);
	ls_put_rec(test, m, &p, UNI_FLAGS, sizeof(struct ib_path_rec_data));
	KUNIT_EXPECT_EQ(test, ls_resolve(m), -EPERM);
	KUNIT_EXPECT_NOT_NULL(test, m->extack._msg);

	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, 0);
	ls_put_rec(test, m, &p, UNI_FLAGS, sizeof(struct ib_path_rec_data));
	NETLINK_CB(m->skb).sk = NULL;
	KUNIT_EXPECT_EQ(test, ls_resolve(m), -EPERM);

	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 0);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), 1);

	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, 0);
	ls_put_rec(test, m, &p, UNI_FLAGS, sizeof(struct ib_path_rec_data));
	KUNIT_EXPECT_EQ(test, ls_resolve(m), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_EXPECT_EQ(test, r->num, 1);
	kt_expect_path_eq(test, &r->rec, &p);
}

/*
 * No answer: after the timeout (the shortest there is), the SA's.  That
 * the deadline work leaves a query alone before its time is
 * ls_set_timeout_moves_deadline()'s to show.
 */
static void ls_timeout_falls_back(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q;
	unsigned long t0;
	int id;

	ls_tap_on(test);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							ls_restore_timeout,
							test), 0);
	KUNIT_ASSERT_EQ(test, ls_set_timeout(test, 100), 0);
	t0 = jiffies;
	ls_query(test, b, r, &id, &q);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_GE(test, jiffies_to_msecs(jiffies - t0), 100);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), 0);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	kt_expect_path_eq(test, &r->rec, &b->sa->path);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 1);
}

/* SET_TIMEOUT: clamped to [100, 200000]; refusals leave it as it was. */
static void ls_set_timeout_clamp(struct kunit *test)
{
	struct ls_msg *m;
	u32 ms = 700;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							ls_restore_timeout,
							test), 0);
	KUNIT_EXPECT_EQ(test, ls_set_timeout(test, 5), 0);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_timeout_ms(), 100);
	KUNIT_EXPECT_EQ(test, ls_set_timeout(test, 300000), 0);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_timeout_ms(), 200000);
	KUNIT_EXPECT_EQ(test, ls_set_timeout(test, 0xffffffff), 0);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_timeout_ms(), 200000);
	KUNIT_EXPECT_EQ(test, ls_set_timeout(test, 1234), 0);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_timeout_ms(), 1234);

	/* an answer, not a request */
	m = ls_msg_new(test, RDMA_NL_LS_OP_SET_TIMEOUT, 1, 0);
	ls_put(test, m, LS_NLA_TYPE_TIMEOUT, sizeof(ms), &ms);
	KUNIT_EXPECT_EQ(test, ls_set_timeout_msg(m), -EPERM);
	KUNIT_EXPECT_NOT_NULL(test, m->extack._msg);
	/* from the kernel */
	m = ls_msg_new(test, RDMA_NL_LS_OP_SET_TIMEOUT, 1, NLM_F_REQUEST);
	ls_put(test, m, LS_NLA_TYPE_TIMEOUT, sizeof(ms), &ms);
	NETLINK_CB(m->skb).sk = NULL;
	KUNIT_EXPECT_EQ(test, ls_set_timeout_msg(m), -EPERM);
	/* no timeout */
	m = ls_msg_new(test, RDMA_NL_LS_OP_SET_TIMEOUT, 1, NLM_F_REQUEST);
	KUNIT_EXPECT_EQ(test, ls_set_timeout_msg(m), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, m->extack._msg);
	/* a timeout of 2 bytes */
	m = ls_msg_new(test, RDMA_NL_LS_OP_SET_TIMEOUT, 1, NLM_F_REQUEST);
	ls_put(test, m, LS_NLA_TYPE_TIMEOUT, 2, &ms);
	KUNIT_EXPECT_EQ(test, ls_set_timeout_msg(m), -ERANGE);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_timeout_ms(), 1234);
}

/*
 * The deadline work leaves a query whose deadline is ahead waiting; a
 * shorter timeout moves that deadline.
 */
static void ls_set_timeout_moves_deadline(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test), *r2 = kt_cres_new(test);
	struct ib_sa_query *q, *q2;
	unsigned long t0;
	int id, id2;

	ls_tap_on(test);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							ls_restore_timeout,
							test), 0);
	KUNIT_ASSERT_EQ(test, ls_set_timeout(test, 200000), 0);
	t0 = jiffies;
	ls_query(test, b, r, &id, &q);
	/*
	 * A second query cancelled: the deadline work runs now and ends it
	 * with -EINTR once it went over the list, the first query too.
	 */
	ls_query(test, b, r2, &id2, &q2);
	ib_sa_cancel_query(id2, q2);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r2, 1));
	KUNIT_EXPECT_EQ(test, r2->status, -EINTR);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 0);

	KUNIT_ASSERT_EQ(test, ls_set_timeout(test, 100), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_LT(test, jiffies_to_msecs(jiffies - t0), KT_WAIT_MS);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 1);
}

/* Every LS op needs CAP_NET_ADMIN (RDMA_NL_ADMIN_PERM), as upstream. */
static void ls_ops_need_admin(struct kunit *test)
{
	const struct rdma_nl_cbs *cbs;

	cbs = rdma_nl_replace_client(RDMA_NL_LS, NULL);
	KUNIT_ASSERT_NOT_NULL(test, cbs);
	rdma_nl_replace_client(RDMA_NL_LS, cbs);
	KUNIT_EXPECT_TRUE(test, cbs[RDMA_NL_LS_OP_RESOLVE].doit ==
			  ib_sa_test.ls_resolve_resp);
	KUNIT_EXPECT_TRUE(test, cbs[RDMA_NL_LS_OP_SET_TIMEOUT].doit ==
			  ib_sa_test.ls_set_timeout);
	KUNIT_EXPECT_TRUE(test, cbs[RDMA_NL_LS_OP_IP_RESOLVE].doit ==
			  ib_sa_test.ls_ip_res_resp);
	KUNIT_EXPECT_EQ(test, cbs[RDMA_NL_LS_OP_RESOLVE].flags,
			RDMA_NL_ADMIN_PERM);
	KUNIT_EXPECT_EQ(test, cbs[RDMA_NL_LS_OP_SET_TIMEOUT].flags,
			RDMA_NL_ADMIN_PERM);
	KUNIT_EXPECT_EQ(test, cbs[RDMA_NL_LS_OP_IP_RESOLVE].flags,
			RDMA_NL_ADMIN_PERM);
}

/* Cancel while waiting: -EINTR, no SA; a later answer finds nobody. */
static void ls_cancel(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q;
	struct sa_path_rec p;
	struct ls_msg *m;
	int id;
	u32 seq;

	ls_tap_on(test);
	seq = ls_query(test, b, r, &id, &q);
	ib_sa_cancel_query(id, q);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_EQ(test, r->status, -EINTR);
	KUNIT_EXPECT_FALSE(test, r->have_rec);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), 0);

	ls_path(&p, 0x0111);
	m = ls_msg_new(test, RDMA_NL_LS_OP_RESOLVE, seq, 0);
	ls_put_rec(test, m, &p, UNI_FLAGS, sizeof(struct ib_path_rec_data));
	KUNIT_EXPECT_EQ(test, ls_resolve(m), 0);
	KUNIT_EXPECT_NOT_NULL(test, m->extack._msg);
	/* the query ended without a MAD: S never saw one */
	KUNIT_ASSERT_TRUE(test, kt_bed_queries_ended(b));
	KUNIT_ASSERT_TRUE(test, kt_bed_round_trip(test, b));
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 1);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 0);
}

/* The client's device goes while the service has its queries: -EINTR. */
#define N_GONE	4
static void ls_device_removed(struct kunit *test)
{
	struct kt_vt *s = &kt_bed_s;
	struct kt_fake_sa *sa;
	struct ib_sa_client *cl = kunit_kzalloc(test, sizeof(*cl), GFP_KERNEL);
	struct kt_cres *r = kunit_kcalloc(test, N_GONE, sizeof(*r), GFP_KERNEL);
	struct sa_path_rec req = { .rec_type = SA_PATH_REC_TYPE_IB };
	struct rdma_ah_attr attr;
	struct ib_sa_query *q;
	struct ib_device *gone;
	int i, posted = 0, seen = 0;

	KUNIT_ASSERT_NOT_NULL(test, cl);
	KUNIT_ASSERT_NOT_NULL(test, r);
	kt_bed_check(test);
	sa = kt_fsa_new(test, s->dev);
	for (i = 0; i < N_GONE; i++)
		init_waitqueue_head(&r[i].wq);
	ls_tap_on(test);
	ib_sa_register_client(cl);

	gone = rdma_loop_add_device("kusagone%d");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gone);
	kt_set_sm(test, gone, rdma_loop_port_lid(s->dev), 0);
	if (kt_wait_sm_ah(gone, rdma_loop_port_lid(s->dev), &attr)) {
		rdma_query_gid(s->dev, 1, 0, &req.dgid);
		for (i = 0; i < N_GONE; i++)
			posted += ib_sa_path_rec_get(cl, gone, 1, &req,
						     IB_SA_PATH_REC_DGID,
						     60000, GFP_KERNEL,
						     kt_path_cb, &r[i], &q) >= 0;
		for (i = 0; i < posted; i++)
			seen += ls_next_seq(test) != 0;
	}
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), posted);
	rdma_loop_remove_device(gone);
	ib_sa_unregister_client(cl);

	KUNIT_EXPECT_EQ(test, posted, N_GONE);
	KUNIT_EXPECT_EQ(test, seen, N_GONE);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), 0);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(sa, n_path), 0);
	for (i = 0; i < N_GONE; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&r[i].calls), 1);
		KUNIT_EXPECT_EQ(test, r[i].status, -EINTR);
	}
}

/*
 * Straight to the SA: no listener; a failed multicast; a query naming
 * none of the fields the service is told about.
 */
static void ls_not_offered(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q;
	struct sa_path_rec req;

	kt_request_path(b, &req);
	/* nobody listens in the test VM */
	KUNIT_ASSERT_FALSE(test, rdma_nl_chk_listeners(RDMA_NL_GROUP_LS));
	KUNIT_ASSERT_GE(test, kt_sa_path_get(b, &req, KT_REQ_MASK, 3000, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 1);

	ls_tap_on(test);
	ls_tap_errno = -ESRCH;
	KUNIT_ASSERT_GE(test, kt_sa_path_get(b, &req, KT_REQ_MASK, 3000, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 2));
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 2);

	ls_tap_errno = 0;
	KUNIT_ASSERT_GE(test, kt_sa_path_get(b, &req, IB_SA_PATH_REC_NUMB_PATH,
					     3000, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 3));
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 3);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&ls_requests));
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_pending(), 0);
}

/* IP_RESOLVE answers: checked, nothing waits for them here. */
static void ls_ip_resolve_answer(struct kunit *test)
{
	struct rdma_nla_ls_gid gid = { .gid = { 0xfe, 0x80 } };
	struct ls_msg *m;

	m = ls_msg_new(test, RDMA_NL_LS_OP_IP_RESOLVE, 9, NLM_F_REQUEST);
	nlmsg_end(m->skb, m->nlh);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_ip_res_resp(m->skb, m->nlh,
							&m->extack), -EPERM);
	KUNIT_EXPECT_NOT_NULL(test, m->extack._msg);

	m = ls_msg_new(test, RDMA_NL_LS_OP_IP_RESOLVE, 9, 0);
	ls_put(test, m, LS_NLA_TYPE_DGID, sizeof(gid), &gid);
	nlmsg_end(m->skb, m->nlh);
	KUNIT_EXPECT_EQ(test, ib_sa_test.ls_ip_res_resp(m->skb, m->nlh,
							&m->extack), 0);
	KUNIT_EXPECT_NOT_NULL(test, m->extack._msg);
}

static struct kunit_case rdma_sa_ls_cases[] = {
	KUNIT_CASE(ls_request_format),
	KUNIT_CASE(ls_good_answer),
	KUNIT_CASE(ls_error_answer),
	KUNIT_CASE(ls_short_record),
	KUNIT_CASE(ls_wrong_attr_len),
	KUNIT_CASE(ls_zero_records),
	KUNIT_CASE(ls_unknown_attr_type),
	KUNIT_CASE(ls_unusable_records),
	KUNIT_CASE(ls_ignored_messages),
	KUNIT_CASE(ls_timeout_falls_back),
	KUNIT_CASE(ls_set_timeout_clamp),
	KUNIT_CASE(ls_set_timeout_moves_deadline),
	KUNIT_CASE(ls_ops_need_admin),
	KUNIT_CASE(ls_cancel),
	KUNIT_CASE(ls_device_removed),
	KUNIT_CASE(ls_not_offered),
	KUNIT_CASE(ls_ip_resolve_answer),
	{}
};

static struct kunit_suite rdma_sa_ls_suite = {
	.name = "rdma_sa_ls",
	.init = ls_init,
	.suite_init = kt_bed_client_suite_init,
	.suite_exit = kt_bed_suite_exit,
	.test_cases = rdma_sa_ls_cases,
};

kunit_test_suite(rdma_sa_ls_suite);

MODULE_DESCRIPTION("KUnit tests of the SA client's local service (RDMA_NL_LS)");
MODULE_LICENSE("Dual BSD/GPL");
