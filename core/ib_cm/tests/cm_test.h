/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the IB CM's KUnit suites share: two loop devices on the loop
 * fabric (each port ACTIVE with a LID of its own), path records between
 * them, a consumer per side whose handler logs every event (and answers
 * the way the case asks), the CM IDs a case made or received (destroyed
 * when it ends), the fabric's GMP filter that loses or doubles CM
 * messages, and the CM's counters read back from sysfs.
 *
 * The two devices are the suite's: its suite_init makes them and its
 * suite_exit removes them (cmt_suite_init(), cmt_suite_exit()), because
 * making and removing a pair of loop devices took far longer than the
 * cases themselves.  Each case starts from a quiet fabric: its init
 * (cmt_case_init()) takes the counters' values, which the case's
 * readings are relative to, and its end destroys its CM IDs and then
 * makes sure that nothing it caused is still on its way (cmt_quiesce()).
 */
#ifndef IB_CM_TEST_H
#define IB_CM_TEST_H

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/fs.h>
#include <linux/wait.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_loop.h>

#include "../cm_priv.h"
#include <kunit/rdma_ib_cm.h>

/* How long a case waits for an event before it fails */
#define CMT_WAIT		(10 * HZ)
#define CMT_EVS			32
#define CMT_IDS			16

/* Response timeouts: 2^20 * 4.096 us = 4 s, and 2^12: 16 ms (lost cases) */
#define CMT_SLOW		20
#define CMT_FAST		12

/* One event a handler saw */
struct cmt_ev {
	enum ib_cm_event_type	type;
	struct ib_cm_id		*id;
	struct ib_cm_id		*listen_id;
	enum ib_cm_state	state;
	int			rej_reason;
	u8			ari[8];
	u8			ari_length;
	u8			mra_timeout;
	enum ib_wc_status	send_status;
	u8			priv[8];
	struct rdma_ucm_ece	ece;
	u32			remote_qpn;
	u32			starting_psn;
	bool			has_alt;
	__be64			service_id;
	u16			pkey;
	int			sidr_status;
	u32			sidr_qpn;
	u32			sidr_qkey;
	u8			info[4];
	u8			info_len;
};

/* A consumer: the events of its CM IDs, and how its handler answers */
struct cmt_peer {
	struct kunit		*test;
	struct kt_vt		*vt;
	spinlock_t		lock;	/* @n, @ev, @ids */
	wait_queue_head_t	wq;
	int			n;
	struct cmt_ev		ev[CMT_EVS];
	struct {
		struct ib_cm_id	*id;
		bool		gone;	/* the CM destroyed it */
	} ids[CMT_IDS];
	int			nids;
	/* the handler returns non-zero for this event (-1: never) */
	int			fail_on;
	/* the handler answers a DREQ with a DREP */
	bool			drep_on_dreq;
	/* the handler answers a REQ with an MRA (this service timeout) */
	int			mra_on_req;
	/* the handler, once it logged this event, waits for @release */
	int			block_on;
	struct completion	entered;
	struct completion	release;
};

static inline void cmt_track(struct cmt_peer *p, struct ib_cm_id *id)
{
	spin_lock(&p->lock);
	if (!WARN_ON(p->nids >= CMT_IDS))
		p->ids[p->nids++].id = id;
	spin_unlock(&p->lock);
}

static inline void cmt_mark_gone(struct cmt_peer *p, struct ib_cm_id *id)
{
	int i;

	spin_lock(&p->lock);
	for (i = 0; i < p->nids; i++)
		if (p->ids[i].id == id)
			p->ids[i].gone = true;
	spin_unlock(&p->lock);
}

static inline int cmt_handler(struct ib_cm_id *id,
			      const struct ib_cm_event *e)
{
	struct cmt_peer *p = id->context;
	struct cmt_ev ev = { .type = e->event, .id = id, .state = id->state };
	int ret = 0;

	switch (e->event) {
	case IB_CM_REQ_RECEIVED:
		ev.listen_id = e->param.req_rcvd.listen_id;
		ev.ece = e->param.req_rcvd.ece;
		ev.remote_qpn = e->param.req_rcvd.remote_qpn;
		ev.starting_psn = e->param.req_rcvd.starting_psn;
		ev.has_alt = !!e->param.req_rcvd.alternate_path;
		ev.pkey = e->param.req_rcvd.bth_pkey;
		memcpy(ev.priv, e->private_data, sizeof(ev.priv));
		break;
	case IB_CM_REP_RECEIVED:
		ev.ece = e->param.rep_rcvd.ece;
		ev.remote_qpn = e->param.rep_rcvd.remote_qpn;
		ev.starting_psn = e->param.rep_rcvd.starting_psn;
		memcpy(ev.priv, e->private_data, sizeof(ev.priv));
		break;
	case IB_CM_REJ_RECEIVED:
		ev.rej_reason = e->param.rej_rcvd.reason;
		ev.ari_length = e->param.rej_rcvd.ari_length;
		memcpy(ev.ari, e->param.rej_rcvd.ari, sizeof(ev.ari));
		memcpy(ev.priv, e->private_data, sizeof(ev.priv));
		break;
	case IB_CM_MRA_RECEIVED:
		ev.mra_timeout = e->param.mra_rcvd.service_timeout;
		break;
	case IB_CM_REQ_ERROR:
	case IB_CM_REP_ERROR:
	case IB_CM_DREQ_ERROR:
	case IB_CM_SIDR_REQ_ERROR:
		ev.send_status = e->param.send_status;
		break;
	case IB_CM_RTU_RECEIVED:
	case IB_CM_DREQ_RECEIVED:
	case IB_CM_DREP_RECEIVED:
		memcpy(ev.priv, e->private_data, sizeof(ev.priv));
		break;
	case IB_CM_SIDR_REQ_RECEIVED:
		ev.listen_id = e->param.sidr_req_rcvd.listen_id;
		ev.service_id = e->param.sidr_req_rcvd.service_id;
		ev.pkey = e->param.sidr_req_rcvd.pkey;
		memcpy(ev.priv, e->private_data, sizeof(ev.priv));
		break;
	case IB_CM_SIDR_REP_RECEIVED:
		ev.sidr_status = e->param.sidr_rep_rcvd.status;
		ev.sidr_qpn = e->param.sidr_rep_rcvd.qpn;
		ev.sidr_qkey = e->param.sidr_rep_rcvd.qkey;
		ev.info_len = e->param.sidr_rep_rcvd.info_len;
		memcpy(ev.info, e->param.sidr_rep_rcvd.info, sizeof(ev.info));
		memcpy(ev.priv, e->private_data, sizeof(ev.priv));
		break;
	default:
		break;
	}

	if (p->fail_on == e->event)
		ret = -ECONNABORTED;
	else if (e->event == IB_CM_DREQ_RECEIVED && p->drep_on_dreq)
		ib_send_cm_drep(id, "drep", 4);
	else if (e->event == IB_CM_REQ_RECEIVED && p->mra_on_req >= 0)
		ib_send_cm_mra(id, p->mra_on_req, "mra", 3);

	if (e->event == IB_CM_REQ_RECEIVED ||
	    e->event == IB_CM_SIDR_REQ_RECEIVED) {
		/* a new CM ID: the case's to destroy, unless the CM does */
		if (!ret)
			cmt_track(p, id);
	} else if (ret) {
		cmt_mark_gone(p, id);
	}

	spin_lock(&p->lock);
	if (p->n < CMT_EVS)
		p->ev[p->n++] = ev;
	spin_unlock(&p->lock);
	wake_up_all(&p->wq);
	if (e->event == p->block_on) {
		complete(&p->entered);
		wait_for_completion(&p->release);
	}
	return ret;
}

/*
 * KUnit action: destroy the CM IDs of a peer the CM did not destroy, the
 * newest first (a listener after the CM IDs it made), including any that
 * a REQ still in progress adds meanwhile
 */
static inline void cmt_destroy_ids(void *arg)
{
	struct cmt_peer *p = arg;
	struct ib_cm_id *id;
	bool gone;

	spin_lock(&p->lock);
	while (p->nids) {
		p->nids--;
		id = p->ids[p->nids].id;
		gone = p->ids[p->nids].gone;
		spin_unlock(&p->lock);
		if (!gone)
			ib_destroy_cm_id(id);
		spin_lock(&p->lock);
	}
	spin_unlock(&p->lock);
}

/* The CM's counters of a port in sysfs: its groups, and their files */
static const char * const cmt_groups[] = {
	"cm_tx_msgs", "cm_tx_retries", "cm_rx_msgs", "cm_rx_duplicates",
};

static const char * const cmt_names[] = {
	"req", "mra", "rej", "rep", "rtu", "dreq", "drep", "sidr_req",
	"sidr_rep", "lap", "apr",
};

#define CMT_GROUPS	ARRAY_SIZE(cmt_groups)
#define CMT_NAMES	ARRAY_SIZE(cmt_names)

/*
 * One of the suite's two loop devices with its PD, the files of its
 * port's CM counters (open for the suite: a read at offset 0 shows the
 * counter anew) and their values when the running case began.
 */
struct cmt_dev {
	struct kt_vt	vt;
	struct file	*ctr[CMT_GROUPS][CMT_NAMES];
	long		base[CMT_GROUPS][CMT_NAMES];
};

static struct cmt_dev cmt_devs[2];

/* What a case's init keeps: how many peers (devices) the case took */
struct cmt_case {
	int	npeers;
};

/* The value of a counter file, or a negative errno */
static inline int cmt_read_counter(struct file *f, long *v)
{
	char buf[32] = {};
	loff_t pos = 0;
	ssize_t len;

	len = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	if (len <= 0)
		return len ? len : -ENODATA;
	return kstrtol(strim(buf), 10, v);
}

/* The device of the suite that is @dev, or NULL */
static inline struct cmt_dev *cmt_dev_of(struct ib_device *dev)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(cmt_devs); i++)
		if (cmt_devs[i].vt.dev && cmt_devs[i].vt.dev == dev)
			return &cmt_devs[i];
	return NULL;
}

/* A peer on the suite's next device (a case has two: A, then B) */
static inline struct cmt_peer *cmt_new_peer(struct kunit *test)
{
	struct cmt_peer *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct cmt_case *c = test->priv;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL_MSG(test, c, "no cmt_case_init() ran");
	KUNIT_ASSERT_LT(test, c->npeers, (int)ARRAY_SIZE(cmt_devs));
	p->test = test;
	p->vt = &cmt_devs[c->npeers++].vt;
	KUNIT_ASSERT_NOT_NULL(test, p->vt->dev);
	spin_lock_init(&p->lock);
	init_waitqueue_head(&p->wq);
	p->fail_on = -1;
	p->mra_on_req = -1;
	p->block_on = -1;
	init_completion(&p->entered);
	init_completion(&p->release);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, cmt_destroy_ids,
							p), 0);
	return p;
}

/* A CM ID of @p's, destroyed when the case ends */
static inline struct ib_cm_id *cmt_new_id(struct kunit *test,
					  struct cmt_peer *p)
{
	struct ib_cm_id *id = ib_create_cm_id(p->vt->dev, cmt_handler, p);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, id);
	cmt_track(p, id);
	return id;
}

/* Event @idx of @p (waited for), which must be a @type */
static inline struct cmt_ev *cmt_wait(struct kunit *test, struct cmt_peer *p,
				      int idx, enum ib_cm_event_type type)
{
	wait_event_timeout(p->wq, READ_ONCE(p->n) > idx, CMT_WAIT);
	KUNIT_ASSERT_GT_MSG(test, READ_ONCE(p->n), idx,
			    "event %d (type %d) never came", idx, type);
	KUNIT_ASSERT_EQ_MSG(test, p->ev[idx].type, type,
			    "event %d is %d, not %d", idx, p->ev[idx].type,
			    type);
	return &p->ev[idx];
}

/* Wait until @p has seen @n events */
static inline void cmt_wait_n(struct kunit *test, struct cmt_peer *p, int n)
{
	wait_event_timeout(p->wq, READ_ONCE(p->n) >= n, CMT_WAIT);
	KUNIT_ASSERT_GE(test, READ_ONCE(p->n), n);
}

/* @p's first event of @type, or NULL */
static inline struct cmt_ev *cmt_find(struct cmt_peer *p,
				      enum ib_cm_event_type type)
{
	int i;

	for (i = 0; i < READ_ONCE(p->n); i++)
		if (p->ev[i].type == type)
			return &p->ev[i];
	return NULL;
}

/* How many events of @type @p has seen */
static inline int cmt_count(struct cmt_peer *p, enum ib_cm_event_type type)
{
	int i, n = 0;

	for (i = 0; i < READ_ONCE(p->n); i++)
		n += p->ev[i].type == type;
	return n;
}

/* The path from @from's port to @to's, as the SA would give it */
static inline void cmt_path(struct kunit *test, struct sa_path_rec *path,
			    struct cmt_peer *from, struct cmt_peer *to)
{
	KUNIT_ASSERT_EQ(test, kt_cm_loop_path(path, from->vt->dev, to->vt->dev),
			0);
}

/* A REQ's parameters for @qpn over @path to @service_id */
static inline void cmt_req_param(struct ib_cm_req_param *req,
				 struct sa_path_rec *path, __be64 service_id,
				 u32 qpn, u8 timeout, u8 retries)
{
	memset(req, 0, sizeof(*req));
	req->primary_path = path;
	req->service_id = service_id;
	req->qp_num = qpn;
	req->qp_type = IB_QPT_RC;
	req->starting_psn = 0x1234;
	req->private_data = "hello";
	req->private_data_len = 6;
	req->responder_resources = 4;
	req->initiator_depth = 4;
	req->remote_cm_response_timeout = timeout;
	req->local_cm_response_timeout = timeout;
	req->retry_count = 7;
	req->rnr_retry_count = 7;
	req->max_cm_retries = retries;
}

static inline void cmt_rep_param(struct ib_cm_rep_param *rep, u32 qpn)
{
	memset(rep, 0, sizeof(*rep));
	rep->qp_num = qpn;
	rep->starting_psn = 0x5678;
	rep->private_data = "world";
	rep->private_data_len = 6;
	rep->responder_resources = 4;
	rep->initiator_depth = 4;
	rep->rnr_retry_count = 7;
}

/*
 * A CM counter of @dev's port 1, read from sysfs: how much it grew since
 * the case began
 */
static inline long cmt_counter(struct kunit *test, struct ib_device *dev,
			       const char *group, const char *name)
{
	struct cmt_dev *d = cmt_dev_of(dev);
	int g, n;
	long v;

	KUNIT_ASSERT_NOT_NULL(test, d);
	for (g = 0; g < CMT_GROUPS && strcmp(cmt_groups[g], group); g++)
		;
	for (n = 0; n < CMT_NAMES && strcmp(cmt_names[n], name); n++)
		;
	KUNIT_ASSERT_TRUE_MSG(test, g < CMT_GROUPS && n < CMT_NAMES,
			      "no counter %s/%s", group, name);
	KUNIT_ASSERT_EQ_MSG(test, cmt_read_counter(d->ctr[g][n], &v), 0,
			    "%s/%s", group, name);
	return v - d->base[g][n];
}

/* Wait until a counter reaches @want (it only grows), then flush the CM */
static inline void cmt_wait_counter(struct kunit *test, struct ib_device *dev,
				    const char *group, const char *name,
				    long want)
{
	unsigned long end = jiffies + CMT_WAIT;

	while (cmt_counter(test, dev, group, name) < want &&
	       time_before(jiffies, end))
		usleep_range(5000, 10000);
	KUNIT_ASSERT_EQ_MSG(test, cmt_counter(test, dev, group, name), want,
			    "%s/%s", group, name);
	ib_cm_flush_work();
}

/* Wait until a counter reaches at least @want, then flush the CM */
static inline long cmt_wait_counter_ge(struct kunit *test,
				       struct ib_device *dev,
				       const char *group, const char *name,
				       long want)
{
	unsigned long end = jiffies + CMT_WAIT;
	long v;

	while ((v = cmt_counter(test, dev, group, name)) < want &&
	       time_before(jiffies, end))
		usleep_range(5000, 10000);
	KUNIT_ASSERT_GE_MSG(test, v, want, "%s/%s", group, name);
	ib_cm_flush_work();
	return v;
}

/* The fabric's filter of CM messages: lose or double some */
struct cmt_filter {
	struct ib_device	*from;	/* NULL: any sender */
	__be16			attr;
	atomic_t		drop;	/* lose the next this many */
	atomic_t		dup;	/* double the next this many */
	atomic_t		seen;
};

static inline enum rdma_loop_gmp_fate cmt_filter_fn(void *ctx,
						    struct ib_device *from,
						    const void *mad)
{
	const struct ib_mad_hdr *hdr = mad;
	struct cmt_filter *f = ctx;

	if (hdr->mgmt_class != IB_MGMT_CLASS_CM || hdr->attr_id != f->attr ||
	    (f->from && f->from != from))
		return RDMA_LOOP_GMP_PASS;
	atomic_inc(&f->seen);
	if (atomic_dec_if_positive(&f->drop) >= 0)
		return RDMA_LOOP_GMP_DROP;
	if (atomic_dec_if_positive(&f->dup) >= 0)
		return RDMA_LOOP_GMP_DUPLICATE;
	return RDMA_LOOP_GMP_PASS;
}

static inline void cmt_filter_off(void *arg)
{
	rdma_loop_set_gmp_filter(NULL, NULL);
}

/* Lose @drop, then double @dup of the @attr messages @from sends */
static inline struct cmt_filter *cmt_filter(struct kunit *test,
					    struct cmt_peer *from,
					    __be16 attr, int drop, int dup)
{
	struct cmt_filter *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->from = from ? from->vt->dev : NULL;
	f->attr = attr;
	atomic_set(&f->drop, drop);
	atomic_set(&f->dup, dup);
	KUNIT_ASSERT_EQ(test, rdma_loop_set_gmp_filter(cmt_filter_fn, f), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, cmt_filter_off,
							NULL), 0);
	return f;
}

/* A listener of @p on @sid */
static inline struct ib_cm_id *cmt_listen(struct kunit *test,
					  struct cmt_peer *p, __be64 sid)
{
	struct ib_cm_id *id = cmt_new_id(test, p);

	KUNIT_ASSERT_EQ(test, ib_cm_listen(id, sid), 0);
	return id;
}

#define CMT_SID		cpu_to_be64(0x1000000000000abcULL)
/* The service of the pings of cmt_quiesce(), which no case uses */
#define CMT_PING_SID	cpu_to_be64(0x1000000000000dadULL)

/* A SIDR REQ for CMT_SID along @path, 4 s for its answer */
static inline void cmt_sidr_param(struct ib_cm_sidr_req_param *req,
				  struct sa_path_rec *path)
{
	memset(req, 0, sizeof(*req));
	req->path = path;
	req->service_id = CMT_SID;
	req->timeout_ms = 4000;
}

/*
 * Connect a CM ID of @a to a listener of @b on CMT_SID, with QP numbers
 * that are not real QPs (the CM does not look): REQ, REP, RTU.  Returns
 * @a's CM ID; @b's is its event @b_first's id.  @a's events start at
 * @a_first.
 */
static inline struct ib_cm_id *cmt_connect(struct kunit *test,
					   struct cmt_peer *a,
					   struct cmt_peer *b, int a_first,
					   int b_first, u32 qpn_a)
{
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep;
	struct sa_path_rec path;
	struct ib_cm_id *id;
	struct cmt_ev *ev;

	cmt_path(test, &path, a, b);
	id = cmt_new_id(test, a);
	cmt_req_param(&req, &path, CMT_SID, qpn_a, CMT_SLOW, 3);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(id, &req), 0);
	ev = cmt_wait(test, b, b_first, IB_CM_REQ_RECEIVED);
	cmt_rep_param(&rep, qpn_a + 0x100);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(ev->id, &rep), 0);
	cmt_wait(test, a, a_first, IB_CM_REP_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(id, "rtu", 3), 0);
	cmt_wait(test, b, b_first + 1, IB_CM_RTU_RECEIVED);
	return id;
}

/* One round of pings between the suite's two devices (kt_cm_ping_round) */
static inline void cmt_ping_round(struct kunit *test)
{
	struct ib_device *devs[2] = { cmt_devs[0].vt.dev, cmt_devs[1].vt.dev };

	kt_cm_ping_round(test, devs, CMT_PING_SID, CMT_WAIT);
}

/*
 * KUnit action, a case's last: the fabric and the CM quiet again for the
 * next case.  The case's CM IDs are gone; what they sent on their way
 * out (REJ, DREQ, DREP, SIDR REP) may still travel, and so may what the
 * CM answers to it without a CM ID (a DREP for a DREQ, a REJ for a REP),
 * which is answered by nothing.  So two rounds of pings: the first has
 * the former handled, the second the answers.  Then no listener of the
 * case may be left on CMT_SID.
 */
static inline void cmt_quiesce(void *arg)
{
	struct kunit *test = arg;
	struct ib_cm_id *id;
	int i;

	cmt_ping_round(test);
	cmt_ping_round(test);
	for (i = 0; i < ARRAY_SIZE(cmt_devs); i++) {
		id = ib_create_cm_id(cmt_devs[i].vt.dev, kt_cm_ping_handler,
				     NULL);
		if (IS_ERR(id)) {
			KUNIT_FAIL(test, "cleanup: no CM ID");
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, ib_cm_listen(id, CMT_SID), 0,
				    "cleanup: a listener is left");
		ib_destroy_cm_id(id);
	}
}

/*
 * The init of each case: the counters' values now (the case reads how
 * they grow), and cmt_quiesce() registered to run after everything the
 * case registers.
 */
static inline int cmt_case_init(struct kunit *test)
{
	struct cmt_case *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct cmt_dev *d;
	int i, g, n, ret;

	if (!c)
		return -ENOMEM;
	test->priv = c;
	for (i = 0; i < ARRAY_SIZE(cmt_devs); i++) {
		d = &cmt_devs[i];
		for (g = 0; g < CMT_GROUPS; g++)
			for (n = 0; n < CMT_NAMES; n++) {
				ret = cmt_read_counter(d->ctr[g][n],
						       &d->base[g][n]);
				if (ret)
					return ret;
			}
	}
	return kunit_add_action_or_reset(test, cmt_quiesce, test);
}

/* The suite's exit: its devices go (and the files of their counters) */
static inline void cmt_suite_exit(struct kunit_suite *suite)
{
	struct cmt_dev *d;
	int i, g, n;

	for (i = 0; i < ARRAY_SIZE(cmt_devs); i++) {
		d = &cmt_devs[i];
		for (g = 0; g < CMT_GROUPS; g++)
			for (n = 0; n < CMT_NAMES; n++) {
				if (d->ctr[g][n])
					filp_close(d->ctr[g][n], NULL);
				d->ctr[g][n] = NULL;
			}
		if (d->vt.pd)
			ib_dealloc_pd(d->vt.pd);
		if (d->vt.dev)
			rdma_loop_remove_device(d->vt.dev);
		memset(d, 0, sizeof(*d));
	}
}

/* The suite's init: its two devices, each with a PD and its counters */
static inline int cmt_suite_init(struct kunit_suite *suite)
{
	char path[128];
	struct cmt_dev *d;
	int i, g, n, ret;
	struct file *f;

	for (i = 0; i < ARRAY_SIZE(cmt_devs); i++) {
		d = &cmt_devs[i];
		d->vt.dev = rdma_loop_add_device("kucm%d");
		if (IS_ERR(d->vt.dev)) {
			ret = PTR_ERR(d->vt.dev);
			d->vt.dev = NULL;
			goto err;
		}
		d->vt.pd = ib_alloc_pd(d->vt.dev, 0);
		if (IS_ERR(d->vt.pd)) {
			ret = PTR_ERR(d->vt.pd);
			d->vt.pd = NULL;
			goto err;
		}
		for (g = 0; g < CMT_GROUPS; g++)
			for (n = 0; n < CMT_NAMES; n++) {
				snprintf(path, sizeof(path),
					 "/sys/class/infiniband/%s/ports/1/%s/%s",
					 dev_name(&d->vt.dev->dev),
					 cmt_groups[g], cmt_names[n]);
				f = filp_open(path, O_RDONLY, 0);
				if (IS_ERR(f)) {
					ret = PTR_ERR(f);
					goto err;
				}
				d->ctr[g][n] = f;
			}
	}
	return 0;

err:
	cmt_suite_exit(suite);
	return ret;
}

#endif /* IB_CM_TEST_H */
