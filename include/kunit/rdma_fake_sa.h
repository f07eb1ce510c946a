/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A fake SA for the KUnit suites of ib_core's SA client (rdma_sa,
 * rdma_sa_ls): on two loop devices, S plays the SA (a GSI agent of class
 * SubnAdm that answers PathRecord, GUIDInfoRecord and ClassPortInfo Gets
 * with records the case chose, stays silent or holds requests), C is the
 * client, its SM LID set to S's LID by a SubnSet(PortInfo) through C's
 * process_mad (kt_ksa_set_sm() of <kunit/rdma_sa.h>).  "bed" puts it all
 * together with an SA client; S and C are the suite's, the fake SA and
 * the client each case's own.  A case that checks that nothing (more)
 * happened first waits for the barriers at the end: every query of the
 * client ended (kt_bed_queries_ended()), everything C sent was handled by
 * S and the other way round (kt_bed_round_trip()).
 *
 * Include core/ib_core/sa/sa_priv.h (ib_sa_test.sm_ah_attr()) and
 * <kunit/rdma_loop.h> before this file.
 */
#ifndef KUNIT_RDMA_FAKE_SA_H
#define KUNIT_RDMA_FAKE_SA_H

#include <kunit/rdma_mad.h>
#include <kunit/rdma_sa.h>
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_smi.h>

#define KT_WAIT_MS		10000
#define KT_MAX_HELD	16
/* SA status ERR_NO_RECORDS (IBTA 15.2.1.2), in the class-specific bits */
#define KT_SA_ERR_NO_RECORDS	0x0300
#define KT_UNSUP_METHOD_ATTR	0x000c

/* ------------------------------------------------------------------
 * The fake SA
 */

struct kt_fake_sa {
	struct ib_device	*dev;
	struct ib_mad_agent	*agent;
	spinlock_t		lock;	/* everything below */
	bool			silent;	/* answer nothing */
	bool			hold;	/* keep PathRecord Gets, answer later */
	u16			status;	/* of the answers (host order) */
	struct sa_path_rec	path;	/* the PathRecord answered */
	u8			guidinfo[72];	/* the wire record */
	struct ib_class_port_info cpi;
	int			n_path, n_guid, n_cpi;
	struct ib_sa_mad	first_path, last_path, last_guid, last_cpi;
	struct ib_wc		last_wc;
	int			n_held;
	struct ib_sa_mad	held[KT_MAX_HELD];
	struct ib_wc		held_wc[KT_MAX_HELD];
	int			replies;	/* answers whose send ended */
	wait_queue_head_t	wq;
};

static inline void kt_fsa_send_done(struct ib_mad_agent *agent,
				    struct ib_mad_send_wc *wc)
{
	struct kt_fake_sa *sa = agent->context;

	kt_ksa_reply_done(wc);
	spin_lock(&sa->lock);
	sa->replies++;
	spin_unlock(&sa->lock);
	wake_up(&sa->wq);
}

/* The answer to @req, which came as @wc. */
static inline void kt_fsa_reply(struct kt_fake_sa *sa, const struct ib_sa_mad *req,
				const struct ib_wc *wc)
{
	u8 *data = kzalloc(IB_MGMT_SA_DATA, GFP_KERNEL);
	u16 status;
	int ret;

	if (!data)
		return;
	spin_lock(&sa->lock);
	status = sa->status;
	switch (be16_to_cpu(req->mad_hdr.attr_id)) {
	case IB_SA_ATTR_PATH_REC:
		ib_sa_pack_path(&sa->path, data);
		break;
	case IB_SA_ATTR_GUID_INFO_REC:
		memcpy(data, sa->guidinfo, sizeof(sa->guidinfo));
		break;
	case IB_SA_ATTR_CLASS_PORTINFO:
		memcpy(data, &sa->cpi, sizeof(sa->cpi));
		break;
	}
	spin_unlock(&sa->lock);
	ret = kt_ksa_reply(sa->agent, req, wc, IB_MGMT_METHOD_GET_RESP, status,
			   data, IB_MGMT_SA_DATA);
	/* nothing was sent: say why, a case waiting for the answer fails */
	if (ret)
		pr_warn("fake SA: the answer was not sent: %d\n", ret);
	kfree(data);
}

static inline void kt_fsa_recv(struct ib_mad_agent *agent,
			       struct ib_mad_send_buf *send_buf,
			       struct ib_mad_recv_wc *rwc)
{
	struct kt_fake_sa *sa = agent->context;
	struct ib_sa_mad *mad = (struct ib_sa_mad *)rwc->recv_buf.mad;
	bool answer;

	spin_lock(&sa->lock);
	answer = !sa->silent;
	sa->last_wc = *rwc->wc;
	switch (be16_to_cpu(mad->mad_hdr.attr_id)) {
	case IB_SA_ATTR_PATH_REC:
		if (!sa->n_path++)
			sa->first_path = *mad;
		sa->last_path = *mad;
		if (sa->hold && sa->n_held < KT_MAX_HELD) {
			sa->held[sa->n_held] = *mad;
			sa->held_wc[sa->n_held] = *rwc->wc;
			sa->n_held++;
			answer = false;
		}
		break;
	case IB_SA_ATTR_GUID_INFO_REC:
		sa->n_guid++;
		sa->last_guid = *mad;
		break;
	case IB_SA_ATTR_CLASS_PORTINFO:
		sa->n_cpi++;
		sa->last_cpi = *mad;
		break;
	}
	spin_unlock(&sa->lock);
	if (answer)
		kt_fsa_reply(sa, mad, rwc->wc);
	ib_free_recv_mad(rwc);
	wake_up(&sa->wq);
}

/* The ClassPortInfo S answers with. */
static inline void kt_fsa_default_cpi(struct ib_class_port_info *cpi)
{
	memset(cpi, 0, sizeof(*cpi));
	cpi->base_version = IB_MGMT_BASE_VERSION;
	cpi->class_version = IB_SA_CLASS_VERSION;
	cpi->capability_mask = cpu_to_be16(0x0602);
	ib_set_cpi_capmask2(cpi, IB_SA_CAP_MASK2_SENDONLY_FULL_MEM_SUPPORT);
	ib_set_cpi_resp_time(cpi, 18);
	cpi->redirect_qkey = cpu_to_be32(IB_QP1_QKEY);
	cpi->trap_lid = cpu_to_be16(0x0123);
}

/* A path every field of which differs from the zero and from the others. */
static inline void kt_sample_path(struct sa_path_rec *rec)
{
	int i;

	memset(rec, 0, sizeof(*rec));
	rec->rec_type = SA_PATH_REC_TYPE_IB;
	rec->service_id = cpu_to_be64(0x1122334455667788ULL);
	for (i = 0; i < 16; i++) {
		rec->dgid.raw[i] = 0xd0 + i;
		rec->sgid.raw[i] = 0x50 + i;
	}
	rec->ib.dlid = cpu_to_be16(0x0bcd);
	rec->ib.slid = cpu_to_be16(0x0a12);
	rec->ib.raw_traffic = 1;
	rec->flow_label = cpu_to_be32(0xfedcb);
	rec->hop_limit = 0x3f;
	rec->traffic_class = 0xa5;
	rec->reversible = 1;
	rec->numb_path = 0x55;
	rec->pkey = cpu_to_be16(0xbeef);
	rec->qos_class = cpu_to_be16(0x0abc);
	rec->sl = 0xd;
	rec->mtu_selector = IB_SA_EQ;
	rec->mtu = IB_MTU_2048;
	rec->rate_selector = IB_SA_LT;
	rec->rate = IB_RATE_56_GBPS;
	rec->packet_life_time_selector = IB_SA_GT;
	rec->packet_life_time = 0x2b;
	rec->preference = 0x7e;
}

static inline struct kt_fake_sa *kt_fsa_new(struct kunit *test, struct ib_device *dev)
{
	struct kt_fake_sa *sa = kunit_kzalloc(test, sizeof(*sa), GFP_KERNEL);
	struct ib_mad_reg_req req = {
		.mgmt_class = IB_MGMT_CLASS_SUBN_ADM,
		.mgmt_class_version = IB_SA_CLASS_VERSION,
	};

	KUNIT_ASSERT_NOT_NULL(test, sa);
	sa->dev = dev;
	spin_lock_init(&sa->lock);
	init_waitqueue_head(&sa->wq);
	kt_sample_path(&sa->path);
	kt_fsa_default_cpi(&sa->cpi);
	__set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	__set_bit(IB_SA_METHOD_GET_TABLE, req.method_mask);
	sa->agent = ib_register_mad_agent(dev, 1, IB_QPT_GSI, &req, 0,
					  kt_fsa_send_done, kt_fsa_recv, sa, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sa->agent);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_unregister_agent,
							sa->agent), 0);
	return sa;
}

/* Read a member of @sa (named last) under its lock. */
#define KT_FSA_READ(sa, ...) ({						\
	struct kt_fake_sa *__s = (sa);					\
	typeof(__s->__VA_ARGS__) __v;					\
	spin_lock(&__s->lock);						\
	__v = __s->__VA_ARGS__;						\
	spin_unlock(&__s->lock);					\
	__v; })

/* Wait until @cond, evaluated under @sa's lock, holds. */
#define KT_FSA_WAIT(sa, cond) ({						\
	struct kt_fake_sa *__s = (sa);					\
	wait_event_timeout(__s->wq, ({ bool __c;			\
		spin_lock(&__s->lock); __c = (cond);			\
		spin_unlock(&__s->lock); __c; }),			\
		msecs_to_jiffies(KT_WAIT_MS)); })

/*
 * Answer the held requests now, from the case's context; S holds none
 * afterwards and answers what comes next.
 */
static inline void kt_fsa_answer_held(struct kt_fake_sa *sa)
{
	struct ib_sa_mad *req = kmalloc(sizeof(*req), GFP_KERNEL);
	struct ib_wc wc;
	int i, n;

	if (!req)
		return;
	spin_lock(&sa->lock);
	n = sa->n_held;
	sa->n_held = 0;
	sa->hold = false;
	spin_unlock(&sa->lock);
	for (i = 0; i < n; i++) {
		spin_lock(&sa->lock);
		*req = sa->held[i];
		wc = sa->held_wc[i];
		spin_unlock(&sa->lock);
		kt_fsa_reply(sa, req, &wc);
	}
	kfree(req);
}

/* ------------------------------------------------------------------
 * The client side
 */

struct kt_cres {
	atomic_t		calls;
	int			status;
	unsigned int		num;
	bool			have_rec;
	struct sa_path_rec	rec;
	struct ib_sa_guidinfo_rec grec;
	wait_queue_head_t	wq;
};

static inline void kt_path_cb(int status, struct sa_path_rec *resp,
			      unsigned int num_prs, void *context)
{
	struct kt_cres *r = context;

	r->status = status;
	r->num = num_prs;
	r->have_rec = resp;
	if (resp)
		r->rec = *resp;
	/* the fields above are seen by whoever sees the count */
	smp_mb__before_atomic();
	atomic_inc(&r->calls);
	wake_up(&r->wq);
}

static inline void kt_guid_cb(int status, struct ib_sa_guidinfo_rec *resp,
			      void *context)
{
	struct kt_cres *r = context;

	r->status = status;
	r->have_rec = resp;
	if (resp)
		r->grec = *resp;
	/* the fields above are seen by whoever sees the count */
	smp_mb__before_atomic();
	atomic_inc(&r->calls);
	wake_up(&r->wq);
}

static inline bool kt_cres_wait(struct kt_cres *r, int n)
{
	return wait_event_timeout(r->wq, atomic_read(&r->calls) >= n,
				  msecs_to_jiffies(KT_WAIT_MS));
}

/* C asking S: both devices, the fake SA, a client, C's SM LID at S. */
struct kt_bed {
	struct kt_vt		*s;
	struct kt_vt		*c;
	struct kt_fake_sa		*sa;
	struct ib_sa_client	client;
	u16			lid_s;
	u16			lid_c;
};

static inline void kt_unregister_client(void *p)
{
	ib_sa_unregister_client(p);
}

/*
 * S and C are the suite's: made by its suite_init (kt_bed_client_suite_init(),
 * which also points C's SM LID at S) and removed by its suite_exit
 * (kt_bed_suite_exit()).  A loop device costs more to make and remove
 * than most cases take.  What a case changes is its own: it registers a
 * fake SA of its own on S and an SA client of its own, so their counters
 * start at 0; a case that moves C's SM puts it back (kt_bed_set_sm()).
 * At its start each case checks that the earlier ones left the bed as
 * made (kt_bed_check()); at its end a round trip shows that nothing the
 * case sent is still on its way (kt_bed_quiesce()).
 */
static struct kt_vt kt_bed_s, kt_bed_c;
static u16 kt_bed_lid_s, kt_bed_lid_c;

static inline void kt_bed_suite_exit(struct kunit_suite *suite)
{
	if (kt_bed_c.dev)
		rdma_loop_remove_device(kt_bed_c.dev);
	kt_bed_c.dev = NULL;
	if (kt_bed_s.dev)
		rdma_loop_remove_device(kt_bed_s.dev);
	kt_bed_s.dev = NULL;
}

/* S alone, for a suite of its own clients (rdma_cma_ib). */
static inline int kt_bed_suite_init(struct kunit_suite *suite)
{
	struct ib_device *dev = rdma_loop_add_device("kusa%d");

	if (IS_ERR_OR_NULL(dev))
		return dev ? PTR_ERR(dev) : -ENODEV;
	kt_bed_s.dev = dev;
	kt_bed_lid_s = rdma_loop_port_lid(kt_bed_s.dev);
	return 0;
}

/* S and C, C's SM LID at S: the suites of kt_bed_new(). */
static inline int kt_bed_client_suite_init(struct kunit_suite *suite)
{
	struct rdma_ah_attr attr;
	struct ib_device *dev;
	int ret;

	ret = kt_bed_suite_init(suite);
	if (ret)
		return ret;
	dev = rdma_loop_add_device("kusa%d");
	if (IS_ERR_OR_NULL(dev)) {
		kt_bed_suite_exit(suite);
		return dev ? PTR_ERR(dev) : -ENODEV;
	}
	kt_bed_c.dev = dev;
	kt_bed_lid_c = rdma_loop_port_lid(kt_bed_c.dev);
	ret = kt_ksa_set_sm(kt_bed_c.dev, kt_bed_lid_s, 0);
	if (!ret && !kt_wait_sm_ah(kt_bed_c.dev, kt_bed_lid_s, &attr))
		ret = -ETIMEDOUT;
	if (ret)
		kt_bed_suite_exit(suite);
	return ret;
}

/* The bed of the case that runs (one case runs at a time), or NULL. */
static struct kt_bed *kt_bed_running;

static inline void kt_bed_gone(void *unused)
{
	kt_bed_running = NULL;
}

/*
 * Wait until port 1 of @dev has an SA address handle to @lid with SL
 * @sl, after the events of the last SubnSet were handled.
 */
static inline bool kt_bed_wait_sm(struct ib_device *dev, u16 lid, u8 sl)
{
	unsigned long end = jiffies + msecs_to_jiffies(KT_WAIT_MS);
	struct rdma_ah_attr attr;

	ib_event_flush(dev);
	do {
		if (kt_wait_sm_ah(dev, lid, &attr) && rdma_ah_get_sl(&attr) == sl)
			return true;
		msleep(20);
	} while (time_before(jiffies, end));
	return false;
}

/*
 * The shared bed as its suite_init made it: both ports ACTIVE with
 * their LIDs, C's SM at S's LID with SL 0, C's SA address handle there.
 */
static inline void kt_bed_check(struct kunit *test)
{
	kt_assert_sm_bed(test, kt_bed_s.dev, kt_bed_lid_s, kt_bed_c.dev,
			 kt_bed_lid_c);
	KUNIT_ASSERT_TRUE(test, kt_bed_wait_sm(kt_bed_c.dev, kt_bed_lid_s, 0));
}

/* C's SM back at S with SL 0, as the suite's init set it. */
static inline void kt_bed_restore_sm(void *p)
{
	struct kunit *test = p;

	KUNIT_EXPECT_EQ(test, kt_ksa_set_sm(kt_bed_c.dev, kt_bed_lid_s, 0), 0);
	KUNIT_EXPECT_TRUE(test, kt_bed_wait_sm(kt_bed_c.dev, kt_bed_lid_s, 0));
}

/*
 * Move C's SM to @lid with SL @sl and wait for the SA address handle
 * there; at the end of the case it goes back (kt_bed_restore_sm()).
 */
static inline void kt_bed_set_sm(struct kunit *test, u16 lid, u8 sl)
{
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_bed_restore_sm,
							test), 0);
	kt_set_sm(test, kt_bed_c.dev, lid, sl);
	KUNIT_ASSERT_TRUE(test, kt_bed_wait_sm(kt_bed_c.dev, lid, sl));
}

static inline bool kt_bed_round_trip(struct kunit *test, struct kt_bed *b);
static inline bool kt_bed_queries_ended(struct kt_bed *b);

/*
 * The end of a case, before its client and fake SA go: the client's
 * queries ended, then a round trip C to S and back, so that nothing the
 * case sent reaches the next case's fake SA or client.
 */
static inline void kt_bed_quiesce(void *p)
{
	struct kt_bed *b = kt_bed_running;
	struct kunit *test = p;

	if (!b)
		return;
	KUNIT_EXPECT_TRUE(test, kt_bed_queries_ended(b));
	KUNIT_EXPECT_TRUE(test, kt_bed_round_trip(test, b));
}

static inline struct kt_bed *kt_bed_new(struct kunit *test)
{
	struct kt_bed *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	kt_bed_check(test);
	kt_bed_running = b;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_bed_gone, NULL),
			0);
	b->s = &kt_bed_s;
	b->c = &kt_bed_c;
	b->sa = kt_fsa_new(test, b->s->dev);
	b->lid_s = kt_bed_lid_s;
	b->lid_c = kt_bed_lid_c;
	ib_sa_register_client(&b->client);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							kt_unregister_client,
							&b->client), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_bed_quiesce,
							test), 0);
	return b;
}

static inline int kt_sa_path_get(struct kt_bed *b, struct sa_path_rec *rec,
				 ib_sa_comp_mask mask, unsigned long timeout_ms,
				 struct kt_cres *r, struct ib_sa_query **q)
{
	return ib_sa_path_rec_get(&b->client, b->c->dev, 1, rec, mask,
				  timeout_ms, GFP_KERNEL, kt_path_cb, r, q);
}

static inline void kt_expect_path_eq(struct kunit *test, const struct sa_path_rec *a,
				     const struct sa_path_rec *e)
{
	KUNIT_EXPECT_EQ(test, a->rec_type, SA_PATH_REC_TYPE_IB);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(a->service_id),
			be64_to_cpu(e->service_id));
	KUNIT_EXPECT_MEMEQ(test, a->dgid.raw, e->dgid.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, a->sgid.raw, e->sgid.raw, 16);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->ib.dlid), be16_to_cpu(e->ib.dlid));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->ib.slid), be16_to_cpu(e->ib.slid));
	KUNIT_EXPECT_EQ(test, a->ib.raw_traffic, e->ib.raw_traffic);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(a->flow_label),
			be32_to_cpu(e->flow_label));
	KUNIT_EXPECT_EQ(test, a->hop_limit, e->hop_limit);
	KUNIT_EXPECT_EQ(test, a->traffic_class, e->traffic_class);
	KUNIT_EXPECT_EQ(test, a->reversible, e->reversible);
	KUNIT_EXPECT_EQ(test, a->numb_path, e->numb_path);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->pkey), be16_to_cpu(e->pkey));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->qos_class),
			be16_to_cpu(e->qos_class));
	KUNIT_EXPECT_EQ(test, a->sl, e->sl);
	KUNIT_EXPECT_EQ(test, a->mtu_selector, e->mtu_selector);
	KUNIT_EXPECT_EQ(test, a->mtu, e->mtu);
	KUNIT_EXPECT_EQ(test, a->rate_selector, e->rate_selector);
	KUNIT_EXPECT_EQ(test, a->rate, e->rate);
	KUNIT_EXPECT_EQ(test, a->packet_life_time_selector,
			e->packet_life_time_selector);
	KUNIT_EXPECT_EQ(test, a->packet_life_time, e->packet_life_time);
	KUNIT_EXPECT_EQ(test, a->preference, e->preference);
}

/* A PathRecord request of C: GIDs, P_Key, one path. */
static inline void kt_request_path(struct kt_bed *b, struct sa_path_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->rec_type = SA_PATH_REC_TYPE_IB;
	rdma_query_gid(b->c->dev, 1, 0, &rec->sgid);
	rdma_query_gid(b->s->dev, 1, 0, &rec->dgid);
	rec->pkey = cpu_to_be16(0xffff);
	rec->numb_path = 1;
}

#define KT_REQ_MASK	(IB_SA_PATH_REC_DGID | IB_SA_PATH_REC_SGID | \
			 IB_SA_PATH_REC_PKEY | IB_SA_PATH_REC_NUMB_PATH)

/* ------------------------------------------------------------------
 * Barriers: what makes "nothing (more) happened" certain
 */

/*
 * Wait until every query of @b's client has ended: a query holds a
 * reference to its client from its start until after its last callback
 * (ib_sa_unregister_client() waits for the same), so once only the
 * registration's own reference is left no callback of them runs or
 * will run, and none of them sends anything any more.
 */
static inline bool kt_bed_queries_ended_within(struct kt_bed *b, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (atomic_read(&b->client.users) > 1) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
	return true;
}

static inline bool kt_bed_queries_ended(struct kt_bed *b)
{
	return kt_bed_queries_ended_within(b, KT_WAIT_MS);
}

/*
 * A case's results.  A case that stopped half-way (a failed assertion)
 * may leave queries of its bed out, which would call back into them:
 * they are freed once those ended (KUnit runs a case's actions in the
 * reverse order of their registration, so before the bed goes), or
 * left allocated should they not end.
 */
static inline void kt_cres_free(void *p)
{
	/* a little longer than the longest timeout of the cases' queries */
	if (kt_bed_running && !kt_bed_queries_ended_within(kt_bed_running, 70000))
		return;
	kfree(p);
}

static inline struct kt_cres *kt_cres_new(struct kunit *test)
{
	struct kt_cres *r = kzalloc(sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	init_waitqueue_head(&r->wq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_cres_free, r),
			0);
	return r;
}

/*
 * A round trip from C to S and back (kt_ksa_round_trip()): a GUIDInfoRecord
 * Set, which S registered none of.  Once it is in, S has handled every
 * MAD C posted before, and C every MAD S posted before.
 */
static inline bool kt_bed_round_trip(struct kunit *test, struct kt_bed *b)
{
	return kt_ksa_round_trip(test, &b->client, b->c->dev, IB_MGMT_METHOD_SET);
}

#endif /* KUNIT_RDMA_FAKE_SA_H */
