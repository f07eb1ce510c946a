/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the IB CM's KUnit suites share: two loop devices on the loop
 * fabric (each port ACTIVE with a LID of its own), path records between
 * them, a consumer per side whose handler logs every event (and answers
 * the way the case asks), the CM IDs a case made or received (destroyed
 * when it ends), the fabric's GMP filter that loses or doubles CM
 * messages, and the CM's counters read back from sysfs.
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
	return ret;
}

/* KUnit action: destroy the CM IDs of a peer the CM did not destroy */
static inline void cmt_destroy_ids(void *arg)
{
	struct cmt_peer *p = arg;
	int i;

	for (i = p->nids - 1; i >= 0; i--)
		if (!p->ids[i].gone)
			ib_destroy_cm_id(p->ids[i].id);
	p->nids = 0;
}

/* A peer on a new loop device */
static inline struct cmt_peer *cmt_new_peer(struct kunit *test)
{
	struct cmt_peer *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->test = test;
	p->vt = kt_new_vt_named(test, "kucm%d");
	spin_lock_init(&p->lock);
	init_waitqueue_head(&p->wq);
	p->fail_on = -1;
	p->mra_on_req = -1;
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
	memset(path, 0, sizeof(*path));
	path->rec_type = SA_PATH_REC_TYPE_IB;
	KUNIT_ASSERT_EQ(test, rdma_query_gid(from->vt->dev, 1, 0,
					     &path->sgid), 0);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(to->vt->dev, 1, 0, &path->dgid),
			0);
	sa_path_set_slid(path, rdma_loop_port_lid(from->vt->dev));
	sa_path_set_dlid(path, rdma_loop_port_lid(to->vt->dev));
	path->pkey = cpu_to_be16(0xffff);
	path->mtu = IB_MTU_1024;
	path->rate = IB_RATE_10_GBPS;
	path->reversible = 1;
	path->packet_life_time = 0;
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

/* A CM counter of @dev's port 1, read from sysfs */
static inline long cmt_counter(struct kunit *test, struct ib_device *dev,
			       const char *group, const char *name)
{
	char path[128], buf[32] = {};
	struct file *f;
	loff_t pos = 0;
	ssize_t len;
	long v = -1;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/%s/%s",
		 dev_name(&dev->dev), group, name);
	f = filp_open(path, O_RDONLY, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "%s: %d", path,
			       (int)PTR_ERR_OR_ZERO(f));
	len = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_EQ(test, kstrtol(strim(buf), 10, &v), 0);
	return v;
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

#endif /* IB_CM_TEST_H */
