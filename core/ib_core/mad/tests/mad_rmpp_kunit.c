// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_mad_rmpp": RMPP of kernel RMPP agents (core/
 * mad_rmpp.c) between two loop devices: segmentation and reassembly with
 * every byte checked, the receiver's window, lost segments and ACKs, the
 * receiver's STOP and ABORT, bad ACKs and bad headers answered with an
 * ABORT, the sender's and the receiver's timeouts, a transfer repeated
 * with its TID, unregistering in the middle, and an RMPP response.
 *
 * Packets are lost on purpose by mad_rmpp.c's receive hook; malformed
 * RMPP packets come from a "raw" agent (no RMPP version) that writes the
 * RMPP header itself.
 */

#include <kunit/test.h>
#include <kunit/rdma_mad.h>
#include <kunit/rdma_verbs.h>
#include <linux/delay.h>
#include <linux/vmalloc.h>
#include <rdma/ib_mad.h>

#include "../mad_rmpp.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A vendor class of range 2 (RMPP), with an OUI of nobody's. */
#define KR_CLASS	0x33
#define KR_ATTR		cpu_to_be16(0x0456)
#define KR_HDR		IB_MGMT_VENDOR_HDR
#define KR_SEG		(sizeof(struct ib_mad) - KR_HDR)	/* 216 */
#define KR_MAX_SEGS	200
#define KR_WAIT		(20 * HZ)
#define KR_WINDOW	64	/* recv_queue_size 512 / 8 */
/* Its last byte is the case's: see rmpp_init(). */
static u8 kr_oui[3] = { 0x4b, 0x52, 0x01 };

/* How a raw agent answers a DATA segment it receives. */
struct raw_reply {
	u8	type;		/* 0: no answer */
	u8	version;
	u8	status;
	u32	seg_num;
	u32	newwin;
};

/* What a test agent saw. */
struct rec {
	struct ib_mad_agent	*agent;
	spinlock_t		lock;	/* everything below */
	int			recvs;
	int			responses;	/* received with a send_buf */
	struct ib_mad_send_buf	*resp_send_buf;
	int			sends;
	int			flushed;
	enum ib_wc_status	last_status;
	u32			last_vendor_err;
	int			last_retries;
	bool			resp_before_send;
	/* the last message received: its length, segments and data */
	int			mad_len;
	int			segs;
	struct ib_mad		first;	/* its first segment */
	u8			*data;
	/* kernel agents: answer Gets with an RMPP response of this size */
	int			answer_len;
	/* raw agents */
	struct raw_reply	reply;
	int			reply_delay_ms;
	struct completion	recv_done;
	struct completion	send_done;
};

/* What mad_rmpp.c's hook saw and drops. */
static struct {
	spinlock_t			lock;	/* everything below */
	const struct ib_mad_agent	*drop_at;
	u8				drop_type;
	int				drop_seg;	/* 0: any */
	int				drop_count;	/* left to drop */
	int				drop_from;	/* DATA >= it, always */
	int				dropped;
	const struct ib_mad_agent	*watch;	/* ACKs and DATA seen */
	int				acks;
	u32				ack_seg[8];
	u32				ack_win[8];
	int				data;
	int				data_seg[4];	/* DATA 1..3 seen */
} hk;

static u8 pattern(int i, int salt)
{
	return (i * 31 + salt) & 0xff;
}

static bool kr_hook(const struct ib_mad_agent *agent,
		    const struct ib_mad_recv_wc *wc)
{
	const struct ib_rmpp_hdr *h =
		&((const struct ib_rmpp_mad *)wc->recv_buf.mad)->rmpp_hdr;
	u32 seg = be32_to_cpu(h->seg_num);
	bool drop = false;

	spin_lock(&hk.lock);
	if (agent == hk.drop_at) {
		if (h->rmpp_type == hk.drop_type && hk.drop_count &&
		    (!hk.drop_seg || seg == hk.drop_seg)) {
			hk.drop_count--;
			drop = true;
		}
		if (hk.drop_from && h->rmpp_type == IB_MGMT_RMPP_TYPE_DATA &&
		    seg >= hk.drop_from)
			drop = true;
		hk.dropped += drop;
	}
	if (agent == hk.watch || hk.watch == (void *)1) {
		if (h->rmpp_type == IB_MGMT_RMPP_TYPE_ACK) {
			if (hk.acks < ARRAY_SIZE(hk.ack_seg)) {
				hk.ack_seg[hk.acks] = seg;
				hk.ack_win[hk.acks] =
					be32_to_cpu(h->paylen_newwin);
			}
			hk.acks++;
		} else if (h->rmpp_type == IB_MGMT_RMPP_TYPE_DATA && !drop) {
			hk.data++;
			if (seg < ARRAY_SIZE(hk.data_seg))
				hk.data_seg[seg]++;
		}
	}
	spin_unlock(&hk.lock);
	return drop;
}

static void hook_off(void *unused)
{
	WRITE_ONCE(ib_rmpp_recv_hook, NULL);
}

static void hook_on(struct kunit *test)
{
	spin_lock_init(&hk.lock);
	spin_lock(&hk.lock);
	hk.drop_at = NULL;
	hk.drop_type = 0;
	hk.drop_seg = 0;
	hk.drop_count = 0;
	hk.drop_from = 0;
	hk.dropped = 0;
	hk.watch = NULL;
	hk.acks = 0;
	hk.data = 0;
	memset(hk.data_seg, 0, sizeof(hk.data_seg));
	spin_unlock(&hk.lock);
	WRITE_ONCE(ib_rmpp_recv_hook, kr_hook);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hook_off, NULL),
			0);
}

static int hk_read(int *v)
{
	int n;

	spin_lock(&hk.lock);
	n = *v;
	spin_unlock(&hk.lock);
	return n;
}

/* Copy a message's data (after the headers of each segment). */
static int rec_copy(struct rec *r, struct ib_mad_recv_wc *rwc)
{
	struct ib_mad_recv_buf *buf;
	int left = rwc->mad_len - KR_HDR, off = 0, segs = 0;

	list_for_each_entry(buf, &rwc->rmpp_list, list) {
		int n = min_t(int, left, KR_SEG);

		segs++;
		if (n > 0 && r->data && off + n <= KR_MAX_SEGS * KR_SEG) {
			memcpy(r->data + off, (u8 *)buf->mad + KR_HDR, n);
			off += n;
			left -= n;
		}
	}
	return segs;
}

static void kr_send_handler(struct ib_mad_agent *agent,
			    struct ib_mad_send_wc *wc)
{
	struct rec *r = agent->context;
	struct ib_mad_send_buf *sb = wc->send_buf;

	if (kunit_mad_is_reply(sb)) {
		kunit_mad_reply_free(sb);
		return;
	}
	spin_lock(&r->lock);
	r->sends++;
	r->flushed += wc->status == IB_WC_WR_FLUSH_ERR;
	r->last_status = wc->status;
	r->last_vendor_err = wc->vendor_err;
	r->last_retries = sb->retries;
	if (r->responses)
		r->resp_before_send = true;
	spin_unlock(&r->lock);
	rdma_destroy_ah(sb->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(sb);
	complete(&r->send_done);
}

/* Fill an RMPP send's data with pattern(@salt). */
static void fill_segments(struct ib_mad_send_buf *sb, int data_len, int salt)
{
	int i, j, k = 0;

	for (i = 1; i <= sb->seg_count; i++) {
		u8 *seg = ib_get_rmpp_segment(sb, i);

		for (j = 0; j < sb->seg_size && k < data_len; j++, k++)
			seg[j] = pattern(k, salt);
	}
}

static void kr_set_hdr(struct ib_vendor_mad *mad, u8 method, __be64 tid)
{
	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = KR_CLASS;
	mad->mad_hdr.class_version = 1;
	mad->mad_hdr.method = method;
	mad->mad_hdr.attr_id = KR_ATTR;
	mad->mad_hdr.tid = tid;
	memcpy(mad->oui, kr_oui, sizeof(kr_oui));
}

/* A kernel agent answers a Get with an RMPP GetResp of answer_len. */
static void kr_answer(struct ib_mad_agent *agent, struct ib_mad_recv_wc *rwc,
		      int len)
{
	struct ib_mad_send_buf *sb;

	sb = kunit_mad_reply_buf(agent, rwc, 1, KR_HDR, len);
	if (!sb)
		return;
	kr_set_hdr(sb->mad, IB_MGMT_METHOD_GET_RESP,
		   rwc->recv_buf.mad->mad_hdr.tid);
	fill_segments(sb, len, 0x77);
	kunit_mad_reply_post(sb);
}

/* A raw agent answers a DATA segment as its ->reply says. */
static void raw_answer(struct ib_mad_agent *agent, struct ib_mad_recv_wc *rwc,
		       const struct raw_reply *rp)
{
	struct ib_mad_send_buf *sb;
	struct ib_rmpp_mad *mad;

	sb = kunit_mad_reply_buf(agent, rwc, 0, KR_HDR, KR_SEG);
	if (!sb)
		return;
	mad = sb->mad;
	memcpy(mad, rwc->recv_buf.mad, KR_HDR);
	mad->mad_hdr.method ^= IB_MGMT_METHOD_RESP;
	mad->rmpp_hdr.rmpp_version = rp->version;
	mad->rmpp_hdr.rmpp_type = rp->type;
	mad->rmpp_hdr.rmpp_rtime_flags = IB_MGMT_RMPP_FLAG_ACTIVE;
	mad->rmpp_hdr.rmpp_status = rp->status;
	mad->rmpp_hdr.seg_num = cpu_to_be32(rp->seg_num);
	mad->rmpp_hdr.paylen_newwin = cpu_to_be32(rp->newwin);
	kunit_mad_reply_post(sb);
}

static void kr_recv_handler(struct ib_mad_agent *agent,
			    struct ib_mad_send_buf *send_buf,
			    struct ib_mad_recv_wc *rwc)
{
	struct rec *r = agent->context;
	const struct ib_rmpp_mad *rm = (const void *)rwc->recv_buf.mad;
	bool request = !ib_response_mad(&rm->mad_hdr);
	struct raw_reply rp;
	int segs;

	segs = rec_copy(r, rwc);
	spin_lock(&r->lock);
	r->recvs++;
	r->responses += !!send_buf;
	if (send_buf)
		r->resp_send_buf = send_buf;
	r->mad_len = rwc->mad_len;
	r->segs = segs;
	r->first = *rwc->recv_buf.mad;
	rp = r->reply;
	spin_unlock(&r->lock);

	if (!ib_mad_kernel_rmpp_agent(agent) && rp.type &&
	    rm->rmpp_hdr.rmpp_type == IB_MGMT_RMPP_TYPE_DATA) {
		if (r->reply_delay_ms)
			msleep(r->reply_delay_ms);
		raw_answer(agent, rwc, &rp);
	}
	if (ib_mad_kernel_rmpp_agent(agent) && request && r->answer_len &&
	    rm->mad_hdr.method == IB_MGMT_METHOD_GET)
		kr_answer(agent, rwc, r->answer_len);
	ib_free_recv_mad(rwc);
	complete(&r->recv_done);
}

static void free_data(void *p)
{
	vfree(p);
}

static struct rec *new_rec(struct kunit *test)
{
	struct rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	spin_lock_init(&r->lock);
	init_completion(&r->recv_done);
	init_completion(&r->send_done);
	r->data = vzalloc(KR_MAX_SEGS * KR_SEG);
	KUNIT_ASSERT_NOT_NULL(test, r->data);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_data,
							r->data), 0);
	return r;
}

/*
 * An agent on QP1 of @dev for KR_CLASS, taking @methods (a mask):
 * a kernel RMPP agent if @rmpp, else a raw one.  @unreg: the test's end
 * unregisters it.
 */
static struct rec *new_agent(struct kunit *test, struct ib_device *dev,
			     unsigned long methods, bool rmpp, bool unreg)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = KR_CLASS,
		.mgmt_class_version = 1,
	};
	struct rec *r = new_rec(test);
	int m;

	memcpy(req.oui, kr_oui, sizeof(kr_oui));
	for_each_set_bit(m, &methods, BITS_PER_LONG)
		__set_bit(m, req.method_mask);
	r->agent = ib_register_mad_agent(dev, 1, IB_QPT_GSI,
					 methods ? &req : NULL,
					 rmpp ? IB_MGMT_RMPP_VERSION : 0,
					 kr_send_handler, kr_recv_handler, r,
					 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r->agent);
	KUNIT_ASSERT_EQ(test, ib_mad_kernel_rmpp_agent(r->agent),
			(int)rmpp);
	if (unreg)
		KUNIT_ASSERT_EQ(test,
				kunit_add_action_or_reset(test,
							  unregister_agent,
							  r->agent), 0);
	return r;
}

static struct ib_ah *kr_ah(struct kunit *test, struct rec *r, u32 dlid)
{
	struct rdma_ah_attr attr = {};
	struct ib_ah *ah;

	attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_port_num(&attr, 1);
	rdma_ah_set_dlid(&attr, dlid);
	ah = rdma_create_ah(r->agent->qp->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	return ah;
}

static __be64 kr_tid(struct rec *r, u32 lo)
{
	return cpu_to_be64((u64)r->agent->hi_tid << 32 | lo);
}

/* Post an RMPP message of @len data bytes from a kernel agent. */
static struct ib_mad_send_buf *kr_post(struct kunit *test, struct rec *r,
				       u32 dlid, u8 method, u32 tid_lo,
				       int len, int timeout_ms, int retries)
{
	struct ib_mad_send_buf *sb;

	sb = ib_create_send_mad(r->agent, 1, 0, 1, KR_HDR, len, GFP_KERNEL,
				IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	kr_set_hdr(sb->mad, method, kr_tid(r, tid_lo));
	fill_segments(sb, len, tid_lo);
	sb->ah = kr_ah(test, r, dlid);
	sb->timeout_ms = timeout_ms;
	sb->retries = retries;
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	return sb;
}

/* Send one MAD with an RMPP header of our making, from a raw agent. */
static void raw_post(struct kunit *test, struct rec *r, u32 dlid, u8 method,
		     __be64 tid, u8 version, u8 type, u8 flags, u8 status,
		     u32 seg_num, u32 paylen)
{
	struct ib_mad_send_buf *sb;
	struct ib_rmpp_mad *mad;

	sb = ib_create_send_mad(r->agent, 1, 0, 0, KR_HDR, KR_SEG, GFP_KERNEL,
				IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	mad = sb->mad;
	kr_set_hdr(sb->mad, method, tid);
	mad->rmpp_hdr.rmpp_version = version;
	mad->rmpp_hdr.rmpp_type = type;
	mad->rmpp_hdr.rmpp_rtime_flags = flags;
	mad->rmpp_hdr.rmpp_status = status;
	mad->rmpp_hdr.seg_num = cpu_to_be32(seg_num);
	mad->rmpp_hdr.paylen_newwin = cpu_to_be32(paylen);
	memset(mad->data + 4, seg_num, KR_SEG);
	sb->ah = kr_ah(test, r, dlid);
	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
}

static bool wait_count(struct rec *r, int *v, int n, struct completion *c)
{
	unsigned long end = jiffies + KR_WAIT;

	while (time_before(jiffies, end)) {
		if (READ_ONCE(*v) >= n)
			return true;
		wait_for_completion_timeout(c, HZ / 10);
		reinit_completion(c);
	}
	return READ_ONCE(*v) >= n;
}

static bool wait_sends(struct rec *r, int n)
{
	return wait_count(r, &r->sends, n, &r->send_done);
}

static bool wait_recvs(struct rec *r, int n)
{
	return wait_count(r, &r->recvs, n, &r->recv_done);
}

/* Did @r receive a message of @len data bytes of pattern(@salt)? */
static void expect_message(struct kunit *test, struct rec *r, int len,
			   int salt)
{
	int i, bad = -1;

	KUNIT_EXPECT_EQ(test, r->mad_len, KR_HDR + len);
	KUNIT_EXPECT_EQ(test, r->segs, (int)DIV_ROUND_UP(len, KR_SEG));
	KUNIT_EXPECT_EQ(test, r->first.mad_hdr.mgmt_class, KR_CLASS);
	for (i = 0; i < len; i++) {
		if (r->data[i] != pattern(i, salt)) {
			bad = i;
			break;
		}
	}
	KUNIT_EXPECT_EQ(test, bad, -1);
}

struct duo {
	struct vt	*va, *vb;
	u32		lid_a, lid_b;
};

/*
 * The two devices are the suite's (made by its suite_init, removed by its
 * suite_exit): making and removing a pair of loop devices took longer
 * than most cases.  Each case registers agents of its own on them, which
 * its end unregisters (flushing their sends and transfers), under an OUI
 * of its own, so nothing a case left on the wire reaches the next one's
 * agents.
 */
static struct vt duo_a, duo_b;

static void new_duo(struct kunit *test, struct duo *d)
{
	KUNIT_ASSERT_NOT_NULL(test, duo_a.dev);
	KUNIT_ASSERT_NOT_NULL(test, duo_b.dev);
	d->va = &duo_a;
	d->vb = &duo_b;
	d->lid_a = rdma_loop_port_lid(d->va->dev);
	d->lid_b = rdma_loop_port_lid(d->vb->dev);
}

static void rmpp_suite_exit(struct kunit_suite *suite)
{
	if (duo_b.dev)
		rdma_loop_remove_device(duo_b.dev);
	if (duo_a.dev)
		rdma_loop_remove_device(duo_a.dev);
	duo_a.dev = NULL;
	duo_b.dev = NULL;
}

static int rmpp_suite_init(struct kunit_suite *suite)
{
	struct ib_device *a, *b;

	a = rdma_loop_add_device("kurmpp%d");
	if (IS_ERR_OR_NULL(a))
		return a ? PTR_ERR(a) : -ENODEV;
	duo_a.dev = a;
	b = rdma_loop_add_device("kurmpp%d");
	if (IS_ERR_OR_NULL(b)) {
		rmpp_suite_exit(suite);
		return b ? PTR_ERR(b) : -ENODEV;
	}
	duo_b.dev = b;
	return 0;
}

/* Each case's OUI: the one before it plus one. */
static int rmpp_init(struct kunit *test)
{
	kr_oui[2]++;
	return 0;
}

/* 1, 2, 37 and 200 segments: reassembled whole, every byte right. */
static void rmpp_segments(struct kunit *test)
{
	static const int lens[] = { 100, KR_SEG + 1, 37 * KR_SEG - 7,
				    KR_MAX_SEGS * KR_SEG };
	struct duo d;
	struct rec *a, *b;
	int i;

	new_duo(test, &d);
	a = new_agent(test, d.va->dev, 0, true, true);
	b = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_SET), true, true);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		kr_post(test, a, d.lid_b, IB_MGMT_METHOD_SET, i + 1, lens[i],
			0, 0);
		KUNIT_ASSERT_TRUE(test, wait_recvs(b, i + 1));
		KUNIT_ASSERT_TRUE(test, wait_sends(a, i + 1));
		KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, a->last_retries, 0);
		expect_message(test, b, lens[i], i + 1);
		KUNIT_EXPECT_EQ(test, be64_to_cpu(b->first.mad_hdr.tid),
				(u64)a->agent->hi_tid << 32 | (i + 1));
		KUNIT_EXPECT_EQ(test, b->first.mad_hdr.method,
				IB_MGMT_METHOD_SET);
	}
	KUNIT_EXPECT_EQ(test, b->recvs, 4);
	KUNIT_EXPECT_EQ(test, a->sends, 4);
}

/* The receiver's ACKs open a window of 64 segments each time. */
static void rmpp_window_growth(struct kunit *test)
{
	static const u32 seg[] = { 1, 65, 129, 193, 200 };
	static const u32 win[] = { 65, 129, 193, 257, 257 };
	struct duo d;
	struct rec *a, *b;
	int i;

	new_duo(test, &d);
	a = new_agent(test, d.va->dev, 0, true, true);
	b = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_SET), true, true);
	hook_on(test);
	hk.watch = (void *)1;	/* both sides */
	kr_post(test, a, d.lid_b, IB_MGMT_METHOD_SET, 9, KR_MAX_SEGS * KR_SEG,
		0, 0);
	KUNIT_ASSERT_TRUE(test, wait_recvs(b, 1));
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	expect_message(test, b, KR_MAX_SEGS * KR_SEG, 9);
	KUNIT_EXPECT_EQ(test, hk_read(&hk.data), KR_MAX_SEGS);
	KUNIT_ASSERT_EQ(test, hk_read(&hk.acks), (int)ARRAY_SIZE(seg));
	for (i = 0; i < ARRAY_SIZE(seg); i++) {
		KUNIT_EXPECT_EQ(test, hk.ack_seg[i], seg[i]);
		KUNIT_EXPECT_EQ(test, hk.ack_win[i], win[i]);
	}
}

static unsigned int saved_reassembly, saved_linger, saved_ack_wait;

static void restore_times(void *unused)
{
	ib_rmpp_reassembly_ms = saved_reassembly;
	ib_rmpp_linger_ms = saved_linger;
	ib_rmpp_ack_wait_ms = saved_ack_wait;
}

/*
 * The RMPP layer's own times for the case: how long a stalled reassembly
 * lives, a finished one is remembered and a sender waits for an ACK
 * (instead of 40 s, 10 s and 2 s).
 */
static void short_times(struct kunit *test, unsigned int reassembly,
			unsigned int linger, unsigned int ack_wait)
{
	saved_reassembly = ib_rmpp_reassembly_ms;
	saved_linger = ib_rmpp_linger_ms;
	saved_ack_wait = ib_rmpp_ack_wait_ms;
	KUNIT_EXPECT_EQ(test, saved_reassembly, 40000u);
	KUNIT_EXPECT_EQ(test, saved_linger, 10000u);
	KUNIT_EXPECT_EQ(test, saved_ack_wait, 2000u);
	ib_rmpp_reassembly_ms = reassembly;
	ib_rmpp_linger_ms = linger;
	ib_rmpp_ack_wait_ms = ack_wait;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, restore_times,
							NULL), 0);
}

/*
 * How long the lost segment and the lost ACK leave the sender waiting
 * before it resends (a Set's ACK wait, 2 s in production): the first
 * ACK, which must not time out, comes within it by far.
 */
#define KR_ACK_WAIT_MS	500

/* Segment 3 lost: the sender's timeout resends from the last ACK (1). */
static void rmpp_lost_segment(struct kunit *test)
{
	struct duo d;
	struct rec *a, *b;

	short_times(test, 40000, 10000, KR_ACK_WAIT_MS);
	new_duo(test, &d);
	a = new_agent(test, d.va->dev, 0, true, true);
	b = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_SET), true, true);
	hook_on(test);
	spin_lock(&hk.lock);
	hk.drop_at = b->agent;
	hk.drop_type = IB_MGMT_RMPP_TYPE_DATA;
	hk.drop_seg = 3;
	hk.drop_count = 1;
	hk.watch = b->agent;
	spin_unlock(&hk.lock);

	kr_post(test, a, d.lid_b, IB_MGMT_METHOD_SET, 3, 37 * KR_SEG, 0, 3);
	KUNIT_ASSERT_TRUE(test, wait_recvs(b, 1));
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, a->last_retries, 1);
	KUNIT_EXPECT_EQ(test, hk_read(&hk.dropped), 1);
	/*
	 * 1, 2, 4..37 first, then from 2 again (how far the resend goes
	 * before the last ACK stops it depends on timing)
	 */
	KUNIT_EXPECT_EQ(test, hk_read(&hk.data_seg[1]), 1);
	KUNIT_EXPECT_EQ(test, hk_read(&hk.data_seg[2]), 2);
	KUNIT_EXPECT_EQ(test, hk_read(&hk.data_seg[3]), 1);
	KUNIT_EXPECT_GE(test, hk_read(&hk.data), 36 + 2);
	KUNIT_EXPECT_LE(test, hk_read(&hk.data), 36 + 36);
	msleep(100);
	KUNIT_EXPECT_EQ(test, b->recvs, 1);
	expect_message(test, b, 37 * KR_SEG, 3);
}

/* The first ACK lost: segment 1 goes again and is ACKed again. */
static void rmpp_lost_ack(struct kunit *test)
{
	struct duo d;
	struct rec *a, *b;

	short_times(test, 40000, 10000, KR_ACK_WAIT_MS);
	new_duo(test, &d);
	a = new_agent(test, d.va->dev, 0, true, true);
	b = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_SET), true, true);
	hook_on(test);
	spin_lock(&hk.lock);
	hk.drop_at = a->agent;
	hk.drop_type = IB_MGMT_RMPP_TYPE_ACK;
	hk.drop_count = 1;
	hk.watch = b->agent;
	spin_unlock(&hk.lock);

	kr_post(test, a, d.lid_b, IB_MGMT_METHOD_SET, 4, 37 * KR_SEG - 1, 0, 2);
	KUNIT_ASSERT_TRUE(test, wait_recvs(b, 1));
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, a->last_retries, 1);
	KUNIT_EXPECT_EQ(test, hk_read(&hk.dropped), 1);
	KUNIT_EXPECT_EQ(test, hk_read(&hk.data_seg[1]), 2);
	KUNIT_EXPECT_EQ(test, hk_read(&hk.data_seg[2]), 1);
	KUNIT_EXPECT_EQ(test, hk_read(&hk.data), 38);
	expect_message(test, b, 37 * KR_SEG - 1, 4);
}

/*
 * A raw receiver answers segment 1 with @rp; the kernel sender's send
 * ends with @status/@vendor_err, and the raw side receives what the
 * sender sent back (@back_status: an ABORT with it, or 0: nothing).
 */
static void check_receiver_answer(struct kunit *test, struct duo *d,
				  struct rec *a, struct rec *r, u32 tid_lo,
				  const struct raw_reply *rp,
				  enum ib_wc_status status, u32 vendor_err,
				  u8 back_status)
{
	const struct ib_rmpp_mad *m = (const void *)&r->first;
	int sends = a->sends, recvs = r->recvs;

	spin_lock(&r->lock);
	r->reply = *rp;
	spin_unlock(&r->lock);
	kr_post(test, a, d->lid_b, IB_MGMT_METHOD_SET, tid_lo, 5 * KR_SEG, 0,
		0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, sends + 1));
	KUNIT_EXPECT_EQ(test, a->last_status, status);
	KUNIT_EXPECT_EQ(test, a->last_vendor_err, vendor_err);
	if (back_status) {
		KUNIT_ASSERT_TRUE(test, wait_recvs(r, recvs + 2));
		KUNIT_EXPECT_EQ(test, m->rmpp_hdr.rmpp_type,
				IB_MGMT_RMPP_TYPE_ABORT);
		KUNIT_EXPECT_EQ(test, m->rmpp_hdr.rmpp_status, back_status);
		KUNIT_EXPECT_EQ(test, m->rmpp_hdr.rmpp_version,
				IB_MGMT_RMPP_VERSION);
		KUNIT_EXPECT_EQ(test, m->mad_hdr.method, IB_MGMT_METHOD_SET);
		KUNIT_EXPECT_EQ(test, be64_to_cpu(m->mad_hdr.tid),
				(u64)a->agent->hi_tid << 32 | tid_lo);
	} else {
		msleep(200);
	}
	/* segment 1 only (and the ABORT back) */
	KUNIT_EXPECT_EQ(test, r->recvs, recvs + 1 + !!back_status);
}

/* The receiver's STOP and ABORT end the send (IB_WC_REM_ABORT_ERR). */
static void rmpp_receiver_stops(struct kunit *test)
{
	struct raw_reply abort = { IB_MGMT_RMPP_TYPE_ABORT,
				   IB_MGMT_RMPP_VERSION,
				   IB_MGMT_RMPP_STATUS_UNSPEC };
	struct raw_reply stop = { IB_MGMT_RMPP_TYPE_STOP, IB_MGMT_RMPP_VERSION,
				  IB_MGMT_RMPP_STATUS_RESX };
	struct raw_reply bad_stop = { IB_MGMT_RMPP_TYPE_STOP,
				      IB_MGMT_RMPP_VERSION, 5 };
	struct raw_reply bad_abort = { IB_MGMT_RMPP_TYPE_ABORT,
				       IB_MGMT_RMPP_VERSION, 50 };
	struct duo d;
	struct rec *a, *r;

	new_duo(test, &d);
	a = new_agent(test, d.va->dev, 0, true, true);
	r = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_SET), false, true);
	r->reply_delay_ms = 50;	/* after the QP's completion of segment 1 */
	check_receiver_answer(test, &d, a, r, 1, &abort, IB_WC_REM_ABORT_ERR,
			      IB_MGMT_RMPP_STATUS_UNSPEC, 0);
	check_receiver_answer(test, &d, a, r, 2, &stop, IB_WC_REM_ABORT_ERR,
			      IB_MGMT_RMPP_STATUS_RESX, 0);
	check_receiver_answer(test, &d, a, r, 3, &bad_stop,
			      IB_WC_REM_ABORT_ERR,
			      IB_MGMT_RMPP_STATUS_BAD_STATUS,
			      IB_MGMT_RMPP_STATUS_BAD_STATUS);
	check_receiver_answer(test, &d, a, r, 4, &bad_abort,
			      IB_WC_REM_ABORT_ERR,
			      IB_MGMT_RMPP_STATUS_BAD_STATUS,
			      IB_MGMT_RMPP_STATUS_BAD_STATUS);
	KUNIT_EXPECT_EQ(test, a->sends, 4);
}

/* Bad ACKs: the send aborts and the receiver gets an ABORT, each status. */
static void rmpp_bad_acks(struct kunit *test)
{
	const struct {
		struct raw_reply	rp;
		u8			status;
	} bad[] = {
		/* NewWindowLast below the segment */
		{ { IB_MGMT_RMPP_TYPE_ACK, 1, 0, 1, 0 },
		  IB_MGMT_RMPP_STATUS_W2S },
		/* a segment the sender's window never let go */
		{ { IB_MGMT_RMPP_TYPE_ACK, 1, 0, 3, 5 },
		  IB_MGMT_RMPP_STATUS_S2B },
		/* an ACK with a status */
		{ { IB_MGMT_RMPP_TYPE_ACK, 1, 1, 1, 5 },
		  IB_MGMT_RMPP_STATUS_BAD_STATUS },
		/* no such type */
		{ { 7, 1, 0, 1, 5 }, IB_MGMT_RMPP_STATUS_BADT },
		/* no such version */
		{ { IB_MGMT_RMPP_TYPE_ACK, 2, 0, 1, 5 },
		  IB_MGMT_RMPP_STATUS_UNV },
	};
	struct duo d;
	struct rec *a, *r;
	int i;

	new_duo(test, &d);
	a = new_agent(test, d.va->dev, 0, true, true);
	r = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_SET), false, true);
	r->reply_delay_ms = 50;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		check_receiver_answer(test, &d, a, r, 10 + i, &bad[i].rp,
				      IB_WC_REM_ABORT_ERR, bad[i].status,
				      bad[i].status);
	KUNIT_EXPECT_EQ(test, a->sends, (int)ARRAY_SIZE(bad));
}

/* What a raw sender got back after sending a header: type and status. */
static void expect_back(struct kunit *test, struct rec *r, int recvs,
			u8 type, u8 status, u32 seg, u32 win)
{
	const struct ib_rmpp_mad *m = (const void *)&r->first;

	KUNIT_ASSERT_TRUE(test, wait_recvs(r, recvs));
	KUNIT_EXPECT_EQ(test, r->recvs, recvs);
	KUNIT_EXPECT_EQ(test, m->rmpp_hdr.rmpp_type, type);
	KUNIT_EXPECT_EQ(test, m->rmpp_hdr.rmpp_status, status);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(m->rmpp_hdr.seg_num), seg);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(m->rmpp_hdr.paylen_newwin), win);
	KUNIT_EXPECT_EQ(test, m->mad_hdr.method, IB_MGMT_METHOD_SET |
			IB_MGMT_METHOD_RESP);
}

/* Malformed headers at a kernel receiver: ABORTs, or silence. */
static void rmpp_bad_headers(struct kunit *test)
{
	const u8 act = IB_MGMT_RMPP_FLAG_ACTIVE;
	const u8 first = act | IB_MGMT_RMPP_FLAG_FIRST;
	const u8 last = act | IB_MGMT_RMPP_FLAG_LAST;
	const u8 data = IB_MGMT_RMPP_TYPE_DATA;
	struct duo d;
	struct rec *r, *b;
	__be64 tid;

	new_duo(test, &d);
	r = new_agent(test, d.va->dev, 0, false, true);
	b = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_SET), true, true);

	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, kr_tid(r, 1), 2, data,
		 first, 0, 1, 0);
	expect_back(test, r, 1, IB_MGMT_RMPP_TYPE_ABORT,
		    IB_MGMT_RMPP_STATUS_UNV, 0, 0);
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, kr_tid(r, 2), 1, 9,
		 first, 0, 1, 0);
	expect_back(test, r, 2, IB_MGMT_RMPP_TYPE_ABORT,
		    IB_MGMT_RMPP_STATUS_BADT, 0, 0);
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, kr_tid(r, 3), 1, data,
		 first, 3, 1, 0);
	expect_back(test, r, 3, IB_MGMT_RMPP_TYPE_ABORT,
		    IB_MGMT_RMPP_STATUS_BAD_STATUS, 0, 0);
	/* segment 1 without First, segment 2 with it */
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, kr_tid(r, 4), 1, data,
		 act, 0, 1, 0);
	expect_back(test, r, 4, IB_MGMT_RMPP_TYPE_ABORT,
		    IB_MGMT_RMPP_STATUS_BAD_SEG, 0, 0);
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, kr_tid(r, 5), 1, data,
		 first, 0, 2, 0);
	expect_back(test, r, 5, IB_MGMT_RMPP_TYPE_ABORT,
		    IB_MGMT_RMPP_STATUS_BAD_SEG, 0, 0);
	/* a STOP that is not about resources */
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, kr_tid(r, 6), 1,
		 IB_MGMT_RMPP_TYPE_STOP, act, 7, 0, 0);
	expect_back(test, r, 6, IB_MGMT_RMPP_TYPE_ABORT,
		    IB_MGMT_RMPP_STATUS_BAD_STATUS, 0, 0);
	/* segment 0 of no transfer: dropped, no answer */
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, kr_tid(r, 7), 1, data,
		 act, 0, 0, 0);
	msleep(200);
	KUNIT_EXPECT_EQ(test, r->recvs, 6);

	/* a transfer: segment 1 is ACKed with the window 1 + 64 */
	tid = kr_tid(r, 8);
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, tid, 1, data, first, 0,
		 1, 2 * IB_MGMT_RMPP_DATA - 10);
	expect_back(test, r, 7, IB_MGMT_RMPP_TYPE_ACK, 0, 1, 1 + KR_WINDOW);
	/* beyond the window: dropped; segment 1 again: ACKed again */
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, tid, 1, data, act, 0,
		 KR_WINDOW + 5, 0);
	msleep(200);
	KUNIT_EXPECT_EQ(test, r->recvs, 7);
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, tid, 1, data, first, 0,
		 1, 2 * IB_MGMT_RMPP_DATA - 10);
	expect_back(test, r, 8, IB_MGMT_RMPP_TYPE_ACK, 0, 1, 1 + KR_WINDOW);
	/* the last segment completes it: 2 segments, 10 bytes of padding */
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, tid, 1, data, last, 0,
		 2, IB_MGMT_RMPP_DATA - 10);
	expect_back(test, r, 9, IB_MGMT_RMPP_TYPE_ACK, 0, 2, 1 + KR_WINDOW);
	KUNIT_ASSERT_TRUE(test, wait_recvs(b, 1));
	KUNIT_EXPECT_EQ(test, b->recvs, 1);
	KUNIT_EXPECT_EQ(test, b->segs, 2);
	KUNIT_EXPECT_EQ(test, b->mad_len, KR_HDR + 2 * (int)KR_SEG - 10);
	KUNIT_EXPECT_EQ(test, b->data[0], 1);	/* raw_post's filler */
	KUNIT_EXPECT_EQ(test, b->data[KR_SEG], 2);
}

/* No ACK ever: the send times out after its retries. */
static void rmpp_send_timeout(struct kunit *test)
{
	struct duo d;
	struct rec *a, *r;
	const struct ib_rmpp_mad *m;

	new_duo(test, &d);
	a = new_agent(test, d.va->dev, 0, true, true);
	r = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_SET), false, true);
	m = (const void *)&r->first;
	kr_post(test, a, d.lid_b, IB_MGMT_METHOD_SET, 1, 3 * KR_SEG, 200, 1);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, a->last_retries, 1);
	/* segment 1, twice (the window is one segment until an ACK) */
	KUNIT_EXPECT_EQ(test, r->recvs, 2);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(m->rmpp_hdr.seg_num), 1);
	KUNIT_EXPECT_EQ(test, ib_get_rmpp_flags((struct ib_rmpp_hdr *)
						&m->rmpp_hdr),
			IB_MGMT_RMPP_FLAG_ACTIVE | IB_MGMT_RMPP_FLAG_FIRST);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(m->rmpp_hdr.paylen_newwin),
			3 * IB_MGMT_RMPP_DATA);
}

/* A stalled reassembly is given up (ABORT T2L) and freed. */
static void rmpp_reassembly_timeout(struct kunit *test)
{
	const u8 first = IB_MGMT_RMPP_FLAG_ACTIVE | IB_MGMT_RMPP_FLAG_FIRST;
	struct duo d;
	struct rec *r, *b;
	__be64 tid;

	short_times(test, 300, 10000, 2000);
	new_duo(test, &d);
	r = new_agent(test, d.va->dev, 0, false, true);
	b = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_SET), true, true);
	tid = kr_tid(r, 1);
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, tid, 1,
		 IB_MGMT_RMPP_TYPE_DATA, first, 0, 1, 3 * IB_MGMT_RMPP_DATA);
	expect_back(test, r, 1, IB_MGMT_RMPP_TYPE_ACK, 0, 1, 1 + KR_WINDOW);
	expect_back(test, r, 2, IB_MGMT_RMPP_TYPE_ABORT,
		    IB_MGMT_RMPP_STATUS_T2L, 0, 0);
	/* the transfer is gone: its segment 2 goes nowhere */
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, tid, 1,
		 IB_MGMT_RMPP_TYPE_DATA, IB_MGMT_RMPP_FLAG_ACTIVE, 0, 2, 0);
	msleep(200);
	KUNIT_EXPECT_EQ(test, r->recvs, 2);
	KUNIT_EXPECT_EQ(test, b->recvs, 0);
}

/*
 * A finished transfer is remembered: its segments sent again are only
 * ACKed; once forgotten, the same TID is a new transfer.
 */
static void rmpp_same_tid(struct kunit *test)
{
	struct duo d;
	struct rec *a, *b, *r;

	short_times(test, 40000, 300, 2000);
	new_duo(test, &d);
	a = new_agent(test, d.va->dev, 0, true, true);
	r = new_agent(test, d.va->dev, 0, false, true);
	b = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_SET), true, true);
	hook_on(test);
	hk.watch = a->agent;

	kr_post(test, a, d.lid_b, IB_MGMT_METHOD_SET, 5, 2 * KR_SEG, 0, 0);
	KUNIT_ASSERT_TRUE(test, wait_recvs(b, 1));
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, hk_read(&hk.acks), 2);
	/* segment 2 again, from the same QP and LID: ACKed, not delivered */
	raw_post(test, r, d.lid_b, IB_MGMT_METHOD_SET, kr_tid(a, 5), 1,
		 IB_MGMT_RMPP_TYPE_DATA,
		 IB_MGMT_RMPP_FLAG_ACTIVE | IB_MGMT_RMPP_FLAG_LAST, 0, 2,
		 IB_MGMT_RMPP_DATA);
	msleep(150);
	KUNIT_EXPECT_EQ(test, hk_read(&hk.acks), 3);
	KUNIT_EXPECT_EQ(test, hk.ack_seg[2], 2);
	KUNIT_EXPECT_EQ(test, b->recvs, 1);

	msleep(600);	/* forgotten */
	kr_post(test, a, d.lid_b, IB_MGMT_METHOD_SET, 5, 2 * KR_SEG + 3, 0,
		0);
	KUNIT_ASSERT_TRUE(test, wait_recvs(b, 2));
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 2));
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	expect_message(test, b, 2 * KR_SEG + 3, 5);
}

/* Both agents unregistered with a transfer half way: all freed. */
static void rmpp_unregister_mid_transfer(struct kunit *test)
{
	struct duo d;
	struct rec *a, *b;

	new_duo(test, &d);
	a = new_agent(test, d.va->dev, 0, true, false);
	b = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_SET), true, false);
	hook_on(test);
	spin_lock(&hk.lock);
	hk.drop_at = b->agent;
	hk.drop_from = 5;
	hk.watch = b->agent;
	spin_unlock(&hk.lock);

	kr_post(test, a, d.lid_b, IB_MGMT_METHOD_SET, 1, KR_MAX_SEGS * KR_SEG,
		0, 5);
	/* segments 5..65 of the first window are lost */
	KUNIT_ASSERT_TRUE(test, wait_count(b, &hk.dropped, 61, &b->recv_done));
	KUNIT_EXPECT_EQ(test, hk_read(&hk.data), 4);
	ib_unregister_mad_agent(b->agent);
	ib_unregister_mad_agent(a->agent);
	KUNIT_EXPECT_EQ(test, a->sends, 1);
	KUNIT_EXPECT_EQ(test, a->flushed, 1);
	KUNIT_EXPECT_EQ(test, b->recvs, 0);
}

/* An RMPP request answered by an RMPP response: both whole. */
static void rmpp_response(struct kunit *test)
{
	const int resp_len = 37 * KR_SEG - 5;
	struct ib_mad_send_buf *sb;
	struct duo d;
	struct rec *a, *b;

	new_duo(test, &d);
	a = new_agent(test, d.va->dev, 0, true, true);
	b = new_agent(test, d.vb->dev, BIT(IB_MGMT_METHOD_GET), true, true);
	b->answer_len = resp_len;
	sb = kr_post(test, a, d.lid_b, IB_MGMT_METHOD_GET, 6, 2 * KR_SEG, 10000,
		     0);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, 1));
	KUNIT_EXPECT_EQ(test, b->recvs, 1);
	expect_message(test, b, 2 * KR_SEG, 6);
	KUNIT_EXPECT_EQ(test, a->last_status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, a->recvs, 1);
	KUNIT_EXPECT_EQ(test, a->responses, 1);
	KUNIT_EXPECT_PTR_EQ(test, a->resp_send_buf, sb);
	KUNIT_EXPECT_TRUE(test, a->resp_before_send);
	KUNIT_EXPECT_EQ(test, a->first.mad_hdr.method,
			IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(a->first.mad_hdr.tid),
			(u64)a->agent->hi_tid << 32 | 6);
	expect_message(test, a, resp_len, 0x77);
}

static struct kunit_case rdma_mad_rmpp_cases[] = {
	KUNIT_CASE(rmpp_segments),
	KUNIT_CASE(rmpp_window_growth),
	KUNIT_CASE(rmpp_lost_segment),
	KUNIT_CASE(rmpp_lost_ack),
	KUNIT_CASE(rmpp_receiver_stops),
	KUNIT_CASE(rmpp_bad_acks),
	KUNIT_CASE(rmpp_bad_headers),
	KUNIT_CASE(rmpp_send_timeout),
	KUNIT_CASE(rmpp_reassembly_timeout),
	KUNIT_CASE(rmpp_same_tid),
	KUNIT_CASE(rmpp_unregister_mid_transfer),
	KUNIT_CASE(rmpp_response),
	{}
};

static struct kunit_suite rdma_mad_rmpp_suite = {
	.name = "rdma_mad_rmpp",
	.test_cases = rdma_mad_rmpp_cases,
	.suite_init = rmpp_suite_init,
	.suite_exit = rmpp_suite_exit,
	.init = rmpp_init,
};

kunit_test_suite(rdma_mad_rmpp_suite);

MODULE_DESCRIPTION("KUnit tests of RMPP in the MAD layer on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
