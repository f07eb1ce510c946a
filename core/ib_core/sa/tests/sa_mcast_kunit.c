// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_sa_mcast": the multicast joins of ib_core's SA
 * client (core/ib_core/sa/sa_mcast*.c, core/ib_core/sa/sa_mcmember.c) against a
 * fake SA on loop devices.  Device S plays the SA: a GSI agent of class SubnAdm
 * for Set and Delete that keeps, for its one client port, the join
 * states of one group and answers MCMemberRecord Sets and Deletes with
 * the group's record (naming the group itself when asked for MGID 0),
 * or stays silent, or holds the Sets to answer them later.  Device C
 * is the client, its SM LID set to S's LID as a subnet manager would.
 *
 * Cases: a join answered and the request as S saw it; a second member
 * of the same state without a second Set; a join state upgrade (a new
 * Set) and the Deletes of the states nobody needs; an SA error status;
 * timeout; MGID 0; a member freed while its Set is out; the free
 * waiting for the member's callback that runs; a record the
 * group does not match; CLIENT_REREGISTER (members told -ENETRESET, a
 * callback returning non-zero frees its member, the rejoin);
 * ib_sa_unregister_client() waiting for a member; the device removed
 * with members; ib_init_ah_from_mcmember(); ib_sa_get_mcmember_rec();
 * the MCMemberRecord layout; the refusals.
 *
 * S and C are made once for the suite (see bed_new()).
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <kunit/rdma_mad.h>
#include <linux/delay.h>
#include <linux/wait.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>
#include "../../core_priv.h"
#include "../sa_priv.h"
#include <kunit/rdma_sa.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define WAIT_MS		10000
#define MAX_HELD	8
/* SA status ERR_REQ_INVALID (IBTA 15.2.1.2), in the class-specific bits */
#define SA_ERR_REQ_INVALID	0x0200

#define FULL		BIT(FULLMEMBER_JOIN)
#define NON		BIT(NONMEMBER_JOIN)
#define SENDONLY	BIT(SENDONLY_NONMEBER_JOIN)

/* ------------------------------------------------------------------
 * The fake SA
 */

struct fake_mcsa {
	struct ib_mad_agent	*agent;
	spinlock_t		lock;	/* everything below */
	bool			silent;	/* answer nothing */
	bool			hold;	/* keep Sets, answer later */
	u16			status;	/* of the answers (host order) */
	struct ib_sa_mcmember_rec grp;	/* the group's record */
	union ib_gid		named;	/* the MGID it gives for MGID 0 */
	u8			joined;	/* the client port's join states */
	int			n_set, n_delete;
	struct ib_sa_mad	last_set, last_delete;
	int			n_held;
	struct ib_sa_mad	held[MAX_HELD];
	struct ib_wc		held_wc[MAX_HELD];
	wait_queue_head_t	wq;
};

static void fmc_send_done(struct ib_mad_agent *agent,
			  struct ib_mad_send_wc *wc)
{
	kt_ksa_reply_done(wc);
}

/*
 * What S answers to @req (a Set or a Delete): the group's record, the
 * client port's join states updated.  Called under @sa's lock, when the
 * request is counted, so a case that saw the count sees the states.
 */
static u16 fmc_answer(struct fake_mcsa *sa, const struct ib_sa_mad *req,
		      u8 *data, u8 *method)
{
	struct ib_sa_mcmember_rec in, out;

	ib_sa_test.unpack_mcmember(req->data, &in);
	out = sa->grp;
	out.port_gid = in.port_gid;
	if (req->mad_hdr.method == IB_MGMT_METHOD_SET) {
		if (!sa->status)
			sa->joined |= in.join_state;
		out.join_state = sa->joined;
		*method = IB_MGMT_METHOD_GET_RESP;
	} else {
		if (!sa->status)
			sa->joined &= ~in.join_state;
		out.join_state = in.join_state;
		*method = IB_SA_METHOD_DELETE_RESP;
	}
	if (in.mgid.global.subnet_prefix || in.mgid.global.interface_id)
		out.mgid = in.mgid;
	else
		out.mgid = sa->named;
	ib_sa_test.pack_mcmember(&out, data);
	return sa->status;
}

static void fmc_recv(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *rwc)
{
	struct fake_mcsa *sa = agent->context;
	struct ib_sa_mad *mad = (struct ib_sa_mad *)rwc->recv_buf.mad;
	bool answer = false;
	u8 data[64] = {};
	u8 method = 0;
	u16 status = 0;

	spin_lock(&sa->lock);
	if (be16_to_cpu(mad->mad_hdr.attr_id) == IB_SA_ATTR_MC_MEMBER_REC) {
		answer = !sa->silent;
		if (mad->mad_hdr.method == IB_MGMT_METHOD_SET) {
			sa->n_set++;
			sa->last_set = *mad;
			if (sa->hold && sa->n_held < MAX_HELD) {
				sa->held[sa->n_held] = *mad;
				sa->held_wc[sa->n_held] = *rwc->wc;
				sa->n_held++;
				answer = false;
			}
		} else {
			sa->n_delete++;
			sa->last_delete = *mad;
		}
		if (answer)
			status = fmc_answer(sa, mad, data, &method);
	}
	spin_unlock(&sa->lock);
	if (answer)
		kt_ksa_reply(sa->agent, mad, rwc->wc, method, status, data,
			     sizeof(data));
	ib_free_recv_mad(rwc);
	wake_up(&sa->wq);
}

/* The record of S's group: every field set, none zero. */
static void sample_group(struct ib_sa_mcmember_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->qkey = cpu_to_be32(0x0b1b);
	rec->mlid = cpu_to_be16(0xc012);
	rec->mtu_selector = IB_SA_EQ;
	rec->mtu = IB_MTU_2048;
	rec->traffic_class = 0x40;
	rec->pkey = cpu_to_be16(0xffff);
	rec->rate_selector = IB_SA_EQ;
	rec->rate = IB_RATE_10_GBPS;
	rec->packet_life_time_selector = IB_SA_EQ;
	rec->packet_life_time = 0x12;
	rec->sl = 2;
	rec->flow_label = cpu_to_be32(0x1234);
	rec->hop_limit = 3;
	rec->scope = 2;
}

static struct fake_mcsa *fmc_new(struct kunit *test, struct ib_device *dev)
{
	struct fake_mcsa *sa = kunit_kzalloc(test, sizeof(*sa), GFP_KERNEL);
	struct ib_mad_reg_req req = {
		.mgmt_class = IB_MGMT_CLASS_SUBN_ADM,
		.mgmt_class_version = IB_SA_CLASS_VERSION,
	};

	KUNIT_ASSERT_NOT_NULL(test, sa);
	spin_lock_init(&sa->lock);
	init_waitqueue_head(&sa->wq);
	sample_group(&sa->grp);
	sa->named.global.subnet_prefix = cpu_to_be64(0xff12401bffff0000ULL);
	sa->named.global.interface_id = cpu_to_be64(0x5a);
	__set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	__set_bit(IB_SA_METHOD_DELETE, req.method_mask);
	sa->agent = ib_register_mad_agent(dev, 1, IB_QPT_GSI, &req, 0,
					  fmc_send_done, fmc_recv, sa, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sa->agent);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_unregister_agent,
							sa->agent), 0);
	return sa;
}

/* Read a member of @sa (named last) under its lock. */
#define FMC_READ(sa, ...) ({						\
	struct fake_mcsa *__s = (sa);					\
	typeof(__s->__VA_ARGS__) __v;					\
	spin_lock(&__s->lock);						\
	__v = __s->__VA_ARGS__;						\
	spin_unlock(&__s->lock);					\
	__v; })

/* Wait until @cond, evaluated under @sa's lock, holds. */
#define FMC_WAIT(sa, cond) ({						\
	struct fake_mcsa *__s = (sa);					\
	wait_event_timeout(__s->wq, ({ bool __c;			\
		spin_lock(&__s->lock); __c = (cond);			\
		spin_unlock(&__s->lock); __c; }),			\
		msecs_to_jiffies(WAIT_MS)); })

static void fmc_set(struct fake_mcsa *sa, bool silent, bool hold,
		    u16 status)
{
	spin_lock(&sa->lock);
	sa->silent = silent;
	sa->hold = hold;
	sa->status = status;
	spin_unlock(&sa->lock);
}

/* Answer the held Sets now, from the case's context. */
static void fmc_answer_held(struct fake_mcsa *sa)
{
	struct ib_sa_mad *req = kmalloc(sizeof(*req), GFP_KERNEL);
	u8 data[64] = {};
	struct ib_wc wc;
	u8 method;
	u16 status;
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
		status = fmc_answer(sa, req, data, &method);
		spin_unlock(&sa->lock);
		kt_ksa_reply(sa->agent, req, &wc, method, status, data,
			     sizeof(data));
	}
	kfree(req);
}

/* The MCMemberRecord of the last Set or Delete S got. */
static struct ib_sa_mcmember_rec fmc_last_rec(struct fake_mcsa *sa, bool set)
{
	struct ib_sa_mcmember_rec rec;

	spin_lock(&sa->lock);
	ib_sa_test.unpack_mcmember(set ? sa->last_set.data : sa->last_delete.data,
			      &rec);
	spin_unlock(&sa->lock);
	return rec;
}

/* ------------------------------------------------------------------
 * The client side
 */

/* What a member's callbacks saw. */
struct mres {
	atomic_t		calls;
	int			status[4];	/* of the first four calls */
	struct ib_sa_mcmember_rec rec;		/* at the last call */
	int			ret;		/* what the callback returns */
	atomic_t		entered;	/* callbacks begun */
	struct completion	*gate;		/* callbacks wait for it */
	wait_queue_head_t	wq;
};

static int mc_cb(int status, struct ib_sa_multicast *mc)
{
	struct mres *r = mc->context;
	int n = atomic_read(&r->calls), ret;

	atomic_inc(&r->entered);
	wake_up(&r->wq);
	if (r->gate)
		wait_for_completion(r->gate);
	if (n < ARRAY_SIZE(r->status))
		r->status[n] = status;
	r->rec = mc->rec;
	/*
	 * What to return is read before the count goes up: a case that
	 * saw this call may set the next call's answer at once
	 */
	ret = READ_ONCE(r->ret);
	/* the fields above are seen by whoever sees the count */
	smp_mb__before_atomic();
	atomic_inc(&r->calls);
	wake_up(&r->wq);
	return ret;
}

static bool mres_wait(struct mres *r, int n)
{
	return wait_event_timeout(r->wq, atomic_read(&r->calls) >= n,
				  msecs_to_jiffies(WAIT_MS));
}

/* A member of the case: freed by the case, or at its end. */
struct tmc {
	struct ib_sa_multicast	*mc;
	struct mres		r;
};

static void tmc_release(void *p)
{
	struct tmc *t = p;

	if (t->mc)
		ib_sa_free_multicast(t->mc);
}

static struct tmc *tmc_new(struct kunit *test)
{
	struct tmc *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	init_waitqueue_head(&t->r.wq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tmc_release, t),
			0);
	return t;
}

static void tmc_free(struct tmc *t)
{
	ib_sa_free_multicast(t->mc);
	t->mc = NULL;
}

/* C joining at S: both devices, the fake SA, a client, C's SM LID at S. */
struct bed {
	struct kt_vt		*s;
	struct kt_vt		*c;
	struct fake_mcsa	*sa;
	struct ib_sa_client	client;
	union ib_gid		mgid;	/* the group the cases join */
	union ib_gid		gid_c;	/* C's port GID 0 */
};

static void unregister_client(void *p)
{
	ib_sa_unregister_client(p);
}

/*
 * S and C are the suite's: made by its suite_init, removed by its
 * suite_exit; a loop device costs more to make and remove than most
 * cases take.  Each case registers a fake SA of its own on S and an SA
 * client of its own, so their counters start at 0; a case that changes
 * C's P_Key table puts it back (mc_restore_pkeys()).  At its start each
 * case checks that the earlier ones left the bed as made (bed_check():
 * ports, LIDs, C's SM and SA address handle, C's P_Key table, no group
 * on C's port); at its end, once its members went, bed_quiesce() shows
 * that nothing of it is left (its groups gone, hence no Set or Delete
 * of them out, and a round trip).
 */
static struct kt_vt bed_s, bed_c;
static u16 bed_lid_s, bed_lid_c;
#define N_PKEYS	32	/* a P_KeyTable block */
static u16 bed_pkeys[N_PKEYS];	/* C's block 0 as made */

/* Block 0 of port 1's P_Key table by SubnGet(P_KeyTable). */
static int mc_get_pkeys(struct ib_device *dev, u16 *pkeys)
{
	struct ib_smp *in = kzalloc(sizeof(*in), GFP_KERNEL);
	struct ib_smp *out = kzalloc(sizeof(*out), GFP_KERNEL);
	__be16 *p = (__be16 *)out->data;
	int i, ret = -ENOMEM;

	if (!in || !out)
		goto out;
	ret = -EIO;
	if (kt_ksa_smp_call(dev, IB_MGMT_METHOD_GET, IB_SMP_ATTR_PKEY_TABLE, 0,
			    in, out) !=
	    (IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY) || out->status)
		goto out;
	for (i = 0; i < N_PKEYS; i++)
		pkeys[i] = be16_to_cpu(p[i]);
	ret = 0;
out:
	kfree(out);
	kfree(in);
	return ret;
}

static void mc_suite_exit(struct kunit_suite *suite)
{
	if (bed_c.dev)
		rdma_loop_remove_device(bed_c.dev);
	bed_c.dev = NULL;
	if (bed_s.dev)
		rdma_loop_remove_device(bed_s.dev);
	bed_s.dev = NULL;
}

static int mc_suite_init(struct kunit_suite *suite)
{
	struct rdma_ah_attr attr;
	struct ib_device *dev;
	int ret;

	dev = rdma_loop_add_device("kumc%d");
	if (IS_ERR_OR_NULL(dev))
		return dev ? PTR_ERR(dev) : -ENODEV;
	bed_s.dev = dev;
	dev = rdma_loop_add_device("kumc%d");
	if (IS_ERR_OR_NULL(dev)) {
		mc_suite_exit(suite);
		return dev ? PTR_ERR(dev) : -ENODEV;
	}
	bed_c.dev = dev;
	bed_lid_s = rdma_loop_port_lid(bed_s.dev);
	bed_lid_c = rdma_loop_port_lid(bed_c.dev);
	ret = mc_get_pkeys(bed_c.dev, bed_pkeys);
	if (!ret)
		ret = kt_ksa_set_sm(bed_c.dev, bed_lid_s, 0);
	if (!ret && !kt_wait_sm_ah(bed_c.dev, bed_lid_s, &attr))
		ret = -ETIMEDOUT;
	if (ret)
		mc_suite_exit(suite);
	return ret;
}

/* The MGIDs the cases join: the bed's group and the one S names. */
static void bed_mgids(union ib_gid *mgid, union ib_gid *named)
{
	mgid->global.subnet_prefix = cpu_to_be64(0xff12401bffff0000ULL);
	mgid->global.interface_id = cpu_to_be64(0x1);
	named->global.subnet_prefix = cpu_to_be64(0xff12401bffff0000ULL);
	named->global.interface_id = cpu_to_be64(0x5a);
}

/*
 * Wait until C's SA address handle goes to S with SL 0, after the
 * events of the last change were handled.
 */
static bool bed_wait_sm(void)
{
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);
	struct rdma_ah_attr attr;

	ib_event_flush(bed_c.dev);
	do {
		if (kt_wait_sm_ah(bed_c.dev, bed_lid_s, &attr) &&
		    !rdma_ah_get_sl(&attr))
			return true;
		msleep(20);
	} while (time_before(jiffies, end));
	return false;
}

/* The shared devices as the suite's init made them. */
static void bed_check(struct kunit *test)
{
	struct ib_sa_mcmember_rec grp;
	union ib_gid mgid, named;
	u16 *pkeys = kunit_kcalloc(test, N_PKEYS, sizeof(*pkeys), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pkeys);
	kt_assert_sm_bed(test, bed_s.dev, bed_lid_s, bed_c.dev, bed_lid_c);
	KUNIT_ASSERT_EQ(test, mc_get_pkeys(bed_c.dev, pkeys), 0);
	KUNIT_ASSERT_MEMEQ(test, pkeys, bed_pkeys, sizeof(bed_pkeys));
	KUNIT_ASSERT_TRUE(test, bed_wait_sm());
	bed_mgids(&mgid, &named);
	KUNIT_ASSERT_EQ(test, ib_sa_get_mcmember_rec(bed_c.dev, 1, &mgid, &grp),
			-EADDRNOTAVAIL);
	KUNIT_ASSERT_EQ(test, ib_sa_get_mcmember_rec(bed_c.dev, 1, &named,
						     &grp), -EADDRNOTAVAIL);
	memset(&mgid, 0, sizeof(mgid));
	KUNIT_ASSERT_EQ(test, ib_sa_get_mcmember_rec(bed_c.dev, 1, &mgid, &grp),
			-EADDRNOTAVAIL);
}

/*
 * C's P_Key table back as made by SubnSet(P_KeyTable), then the SA
 * address handle back (an action: expectations, no assertion).
 */
static void mc_restore_pkeys(void *p)
{
	struct ib_smp *in = kzalloc(sizeof(*in), GFP_KERNEL);
	struct ib_smp *out = kzalloc(sizeof(*out), GFP_KERNEL);
	struct kunit *test = p;
	int i;

	if (in && out) {
		for (i = 0; i < N_PKEYS; i++)
			((__be16 *)in->data)[i] = cpu_to_be16(bed_pkeys[i]);
		KUNIT_EXPECT_EQ(test,
				kt_ksa_smp_call(bed_c.dev, IB_MGMT_METHOD_SET,
						IB_SMP_ATTR_PKEY_TABLE, 0, in,
						out),
				IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY);
		KUNIT_EXPECT_EQ(test, be16_to_cpu(out->status), 0);
	} else {
		KUNIT_FAIL(test, "no memory to restore the P_Key table");
	}
	kfree(out);
	kfree(in);
	KUNIT_EXPECT_TRUE(test, bed_wait_sm());
}

/* Wait until C's port has no group of @mgid (its last Delete ended). */
static bool wait_no_group(struct bed *b, union ib_gid *mgid)
{
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);
	struct ib_sa_mcmember_rec grp;

	do {
		if (ib_sa_get_mcmember_rec(b->c->dev, 1, mgid, &grp) ==
		    -EADDRNOTAVAIL)
			return true;
		msleep(20);
	} while (time_before(jiffies, end));
	return false;
}

static bool mc_settle(struct kunit *test, struct bed *b);

/* The bed of the case that runs (one case runs at a time), or NULL. */
static struct bed *bed_running;

static void bed_gone(void *unused)
{
	bed_running = NULL;
}

/*
 * The end of a case, after its members went (they are registered
 * later), before its client and fake SA go: its groups gone (a group
 * holds itself while its Set or Delete is out), then a round trip.
 */
static void bed_quiesce(void *p)
{
	struct kunit *test = p;
	struct bed *b = bed_running;
	union ib_gid mgid, named;

	if (!b)
		return;
	bed_mgids(&mgid, &named);
	ib_sa_mcast_flush();
	KUNIT_EXPECT_TRUE(test, wait_no_group(b, &mgid));
	KUNIT_EXPECT_TRUE(test, wait_no_group(b, &named));
	memset(&mgid, 0, sizeof(mgid));
	KUNIT_EXPECT_TRUE(test, wait_no_group(b, &mgid));
	KUNIT_EXPECT_TRUE(test, mc_settle(test, b));
}

static struct bed *bed_new(struct kunit *test)
{
	struct bed *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	union ib_gid named;

	KUNIT_ASSERT_NOT_NULL(test, b);
	bed_check(test);
	bed_running = b;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, bed_gone, NULL),
			0);
	b->s = &bed_s;
	b->c = &bed_c;
	b->sa = fmc_new(test, b->s->dev);
	ib_sa_register_client(&b->client);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							unregister_client,
							&b->client), 0);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(b->c->dev, 1, 0, &b->gid_c), 0);
	bed_mgids(&b->mgid, &named);
	KUNIT_ASSERT_MEMEQ(test, named.raw, b->sa->named.raw, 16);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, bed_quiesce,
							test), 0);
	return b;
}

/*
 * Make "nothing more happens" certain: the groups' work queued so far
 * has run (what it decided is done: callbacks called, Sets and Deletes
 * posted), then a round trip to S and back (a GUIDInfoRecord Get, which
 * S registered none of: S has handled every MAD posted before, C every
 * answer S gave before), then the work those answers queued.
 */
static bool mc_settle(struct kunit *test, struct bed *b)
{
	bool ok;

	ib_sa_mcast_flush();
	ok = kt_ksa_round_trip(test, &b->client, b->c->dev, IB_MGMT_METHOD_GET);
	ib_sa_mcast_flush();
	return ok;
}

#define JOIN_MASK	(IB_SA_MCMEMBER_REC_MGID | IB_SA_MCMEMBER_REC_PORT_GID | \
			 IB_SA_MCMEMBER_REC_JOIN_STATE)

/* Join @b's group (or @mgid) with @state as member @t. */
static void join(struct kunit *test, struct bed *b, struct tmc *t,
		 const union ib_gid *mgid, u8 state, ib_sa_comp_mask mask,
		 const struct ib_sa_mcmember_rec *extra)
{
	struct ib_sa_mcmember_rec rec = {};

	if (extra)
		rec = *extra;
	rec.mgid = mgid ? *mgid : b->mgid;
	rec.port_gid = b->gid_c;
	rec.join_state = state;
	t->mc = ib_sa_join_multicast(&b->client, b->c->dev, 1, &rec,
				     JOIN_MASK | mask, GFP_KERNEL, mc_cb,
				     &t->r);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->mc);
}

static void expect_group_fields(struct kunit *test,
				const struct ib_sa_mcmember_rec *a,
				const struct ib_sa_mcmember_rec *e)
{
	KUNIT_EXPECT_EQ(test, be32_to_cpu(a->qkey), be32_to_cpu(e->qkey));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->mlid), be16_to_cpu(e->mlid));
	KUNIT_EXPECT_EQ(test, a->mtu_selector, e->mtu_selector);
	KUNIT_EXPECT_EQ(test, a->mtu, e->mtu);
	KUNIT_EXPECT_EQ(test, a->traffic_class, e->traffic_class);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->pkey), be16_to_cpu(e->pkey));
	KUNIT_EXPECT_EQ(test, a->rate_selector, e->rate_selector);
	KUNIT_EXPECT_EQ(test, a->rate, e->rate);
	KUNIT_EXPECT_EQ(test, a->packet_life_time_selector,
			e->packet_life_time_selector);
	KUNIT_EXPECT_EQ(test, a->packet_life_time, e->packet_life_time);
	KUNIT_EXPECT_EQ(test, a->sl, e->sl);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(a->flow_label),
			be32_to_cpu(e->flow_label));
	KUNIT_EXPECT_EQ(test, a->hop_limit, e->hop_limit);
	KUNIT_EXPECT_EQ(test, a->scope, e->scope);
}

/* ------------------------------------------------------------------
 * Cases
 */

/* A join answered: the SA's record, and the Set as S got it. */
static void mc_join_answered(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct tmc *t = tmc_new(test);
	struct ib_sa_mcmember_rec want = { .qkey = cpu_to_be32(0x0b1b),
					   .pkey = cpu_to_be16(0xffff) };
	struct ib_sa_mcmember_rec sent, grp;
	ib_sa_comp_mask mask = IB_SA_MCMEMBER_REC_QKEY |
			       IB_SA_MCMEMBER_REC_PKEY;

	join(test, b, t, NULL, FULL, mask, &want);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t->r, 1));
	KUNIT_EXPECT_EQ(test, t->r.status[0], 0);
	KUNIT_EXPECT_MEMEQ(test, t->r.rec.mgid.raw, b->mgid.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, t->r.rec.port_gid.raw, b->gid_c.raw, 16);
	KUNIT_EXPECT_EQ(test, t->r.rec.join_state, FULL);
	expect_group_fields(test, &t->r.rec, &b->sa->grp);
	KUNIT_EXPECT_MEMEQ(test, t->mc->rec.mgid.raw, b->mgid.raw, 16);
	KUNIT_EXPECT_PTR_EQ(test, t->mc->context, (void *)&t->r);

	/* the Set: SubnAdm, MCMemberRecord, the caller's mask and fields */
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 1);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, last_set.mad_hdr.mgmt_class),
			IB_MGMT_CLASS_SUBN_ADM);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, last_set.mad_hdr.class_version),
			IB_SA_CLASS_VERSION);
	KUNIT_EXPECT_EQ(test,
			be16_to_cpu(FMC_READ(b->sa, last_set.mad_hdr.attr_id)),
			0x0038);
	KUNIT_EXPECT_EQ(test, be64_to_cpu((__force __be64)
				FMC_READ(b->sa, last_set.sa_hdr.comp_mask)),
			be64_to_cpu((__force __be64)(JOIN_MASK | mask)));
	sent = fmc_last_rec(b->sa, true);
	KUNIT_EXPECT_MEMEQ(test, sent.mgid.raw, b->mgid.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, sent.port_gid.raw, b->gid_c.raw, 16);
	KUNIT_EXPECT_EQ(test, sent.join_state, FULL);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sent.qkey), 0x0b1bu);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(sent.pkey), 0xffff);

	/* the port's record of the group */
	KUNIT_ASSERT_EQ(test, ib_sa_get_mcmember_rec(b->c->dev, 1, &b->mgid,
						     &grp), 0);
	KUNIT_EXPECT_EQ(test, grp.join_state, FULL);
	expect_group_fields(test, &grp, &b->sa->grp);
	/* the join is over: one callback, no Delete */
	KUNIT_ASSERT_TRUE(test, mc_settle(test, b));
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_delete), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->r.calls), 1);
}

/*
 * A second member of a state the port holds: joined at once from the
 * group's record, no second Set; the first leaving sends nothing, the
 * last one's leaving a Delete of that state.
 */
static void mc_second_member_shares(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct tmc *t1 = tmc_new(test), *t2 = tmc_new(test);
	struct ib_sa_mcmember_rec del, grp;

	join(test, b, t1, NULL, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t1->r, 1));
	KUNIT_ASSERT_EQ(test, t1->r.status[0], 0);
	join(test, b, t2, NULL, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t2->r, 1));
	KUNIT_EXPECT_EQ(test, t2->r.status[0], 0);
	KUNIT_EXPECT_EQ(test, t2->r.rec.join_state, FULL);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(t2->r.rec.mlid), 0xc012);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 1);

	/* the group's work ran after the free: no Delete went */
	tmc_free(t1);
	KUNIT_ASSERT_TRUE(test, mc_settle(test, b));
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_delete), 0);
	KUNIT_EXPECT_EQ(test, ib_sa_get_mcmember_rec(b->c->dev, 1, &b->mgid,
						     &grp), 0);

	tmc_free(t2);
	KUNIT_ASSERT_TRUE(test, FMC_WAIT(b->sa, b->sa->n_delete == 1));
	del = fmc_last_rec(b->sa, false);
	KUNIT_EXPECT_EQ(test, del.join_state, FULL);
	KUNIT_EXPECT_MEMEQ(test, del.mgid.raw, b->mgid.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, del.port_gid.raw, b->gid_c.raw, 16);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, last_delete.mad_hdr.method),
			IB_SA_METHOD_DELETE);
	KUNIT_EXPECT_EQ(test, be64_to_cpu((__force __be64)
				FMC_READ(b->sa, last_delete.sa_hdr.comp_mask)),
			be64_to_cpu((__force __be64)JOIN_MASK));
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, joined), 0);
	/* the group is gone once the Delete ended */
	KUNIT_EXPECT_TRUE(test, wait_no_group(b, &b->mgid));
}

/*
 * A member of a state the port lacks: a Set of that state.  Each
 * leaving member has the states nobody else needs deleted.
 */
static void mc_state_upgrade(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct tmc *t1 = tmc_new(test), *t2 = tmc_new(test);
	struct ib_sa_mcmember_rec grp;

	join(test, b, t1, NULL, SENDONLY, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t1->r, 1));
	KUNIT_ASSERT_EQ(test, t1->r.status[0], 0);
	join(test, b, t2, NULL, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t2->r, 1));
	KUNIT_EXPECT_EQ(test, t2->r.status[0], 0);
	KUNIT_EXPECT_EQ(test, t2->r.rec.join_state, FULL);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 2);
	KUNIT_EXPECT_EQ(test, fmc_last_rec(b->sa, true).join_state, FULL);
	KUNIT_ASSERT_EQ(test, ib_sa_get_mcmember_rec(b->c->dev, 1, &b->mgid,
						     &grp), 0);
	KUNIT_EXPECT_EQ(test, grp.join_state, FULL | SENDONLY);

	tmc_free(t2);
	KUNIT_ASSERT_TRUE(test, FMC_WAIT(b->sa, b->sa->n_delete == 1));
	KUNIT_EXPECT_EQ(test, fmc_last_rec(b->sa, false).join_state, FULL);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, joined), SENDONLY);
	tmc_free(t1);
	KUNIT_ASSERT_TRUE(test, FMC_WAIT(b->sa, b->sa->n_delete == 2));
	KUNIT_EXPECT_EQ(test, fmc_last_rec(b->sa, false).join_state, SENDONLY);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 2);
}

/* The SA refuses: the callback gets -EINVAL; nothing to leave. */
static void mc_sa_error(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct tmc *t = tmc_new(test);

	fmc_set(b->sa, false, false, SA_ERR_REQ_INVALID);
	join(test, b, t, NULL, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t->r, 1));
	KUNIT_EXPECT_EQ(test, t->r.status[0], -EINVAL);
	tmc_free(t);
	KUNIT_ASSERT_TRUE(test, mc_settle(test, b));
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 1);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_delete), 0);
}

static unsigned int saved_timeout_ms;

static void restore_timeout(void *unused)
{
	ib_sa_mcast_timeout_ms = saved_timeout_ms;
}

/*
 * How long the case's join waits for a silent SA (3 s in production,
 * which the case checks and puts back): 55 ms a try.
 */
#define MC_TIMEOUT_MS	550

/* A silent SA: -ETIMEDOUT after the join's timeout, in 1 + 10 tries. */
static void mc_timeout(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct tmc *t = tmc_new(test);
	unsigned long t0;

	saved_timeout_ms = ib_sa_mcast_timeout_ms;
	KUNIT_EXPECT_EQ(test, saved_timeout_ms, 3000u);
	ib_sa_mcast_timeout_ms = MC_TIMEOUT_MS;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, restore_timeout,
							NULL), 0);
	fmc_set(b->sa, true, false, 0);
	t0 = jiffies;
	join(test, b, t, NULL, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t->r, 1));
	KUNIT_EXPECT_GE(test, jiffies_to_msecs(jiffies - t0),
			(unsigned int)MC_TIMEOUT_MS);
	KUNIT_EXPECT_EQ(test, t->r.status[0], -ETIMEDOUT);
	tmc_free(t);
	KUNIT_ASSERT_TRUE(test, mc_settle(test, b));
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 11);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_delete), 0);
}

/* MGID 0: the SA names the group; a join of that name shares it. */
static void mc_mgid_zero(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct tmc *t1 = tmc_new(test), *t2 = tmc_new(test);
	union ib_gid zero = {};
	struct ib_sa_mcmember_rec grp;

	join(test, b, t1, &zero, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t1->r, 1));
	KUNIT_ASSERT_EQ(test, t1->r.status[0], 0);
	KUNIT_EXPECT_MEMEQ(test, fmc_last_rec(b->sa, true).mgid.raw,
			   zero.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, t1->r.rec.mgid.raw, b->sa->named.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, t1->mc->rec.mgid.raw, b->sa->named.raw, 16);
	KUNIT_ASSERT_EQ(test, ib_sa_get_mcmember_rec(b->c->dev, 1,
						     &b->sa->named, &grp), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(grp.mlid), 0xc012);

	join(test, b, t2, &b->sa->named, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t2->r, 1));
	KUNIT_EXPECT_EQ(test, t2->r.status[0], 0);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 1);

	tmc_free(t1);
	tmc_free(t2);
	KUNIT_ASSERT_TRUE(test, FMC_WAIT(b->sa, b->sa->n_delete == 1));
	KUNIT_EXPECT_MEMEQ(test, fmc_last_rec(b->sa, false).mgid.raw,
			   b->sa->named.raw, 16);
}

/*
 * A member freed while its Set is out: the free does not wait for the
 * SA, the callback never runs, and the state the SA then grants is
 * left again.
 */
static void mc_free_in_flight(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct tmc *t = tmc_new(test);
	unsigned long t0;

	fmc_set(b->sa, false, true, 0);
	join(test, b, t, NULL, NON, 0, NULL);
	KUNIT_ASSERT_TRUE(test, FMC_WAIT(b->sa, b->sa->n_held == 1));
	t0 = jiffies;
	tmc_free(t);
	KUNIT_EXPECT_LT(test, jiffies_to_msecs(jiffies - t0), 1000u);
	fmc_answer_held(b->sa);
	KUNIT_ASSERT_TRUE(test, FMC_WAIT(b->sa, b->sa->n_delete == 1));
	KUNIT_EXPECT_EQ(test, fmc_last_rec(b->sa, false).join_state, NON);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, joined), 0);
	KUNIT_ASSERT_TRUE(test, mc_settle(test, b));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->r.calls), 0);
}

/* A join the group's record does not satisfy fails without a Set. */
static void mc_record_mismatch(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct tmc *t1 = tmc_new(test), *t2 = tmc_new(test);
	struct ib_sa_mcmember_rec want = { .qkey = cpu_to_be32(0x7777) };

	join(test, b, t1, NULL, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t1->r, 1));
	KUNIT_ASSERT_EQ(test, t1->r.status[0], 0);
	join(test, b, t2, NULL, FULL, IB_SA_MCMEMBER_REC_QKEY, &want);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t2->r, 1));
	KUNIT_EXPECT_EQ(test, t2->r.status[0], -EINVAL);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 1);

	/* an MTU selector the group's MTU meets is fine */
	want.mtu_selector = IB_SA_GT;
	want.mtu = IB_MTU_1024;
	tmc_free(t2);
	join(test, b, t2, NULL, FULL, IB_SA_MCMEMBER_REC_MTU_SELECTOR |
	     IB_SA_MCMEMBER_REC_MTU, &want);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t2->r, 2));
	KUNIT_EXPECT_EQ(test, t2->r.status[1], 0);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 1);
}

struct unreg_work {
	struct work_struct	work;
	struct ib_sa_client	*client;
	struct completion	done;
};

static void unreg_fn(struct work_struct *work)
{
	struct unreg_work *u = container_of(work, struct unreg_work, work);

	ib_sa_unregister_client(u->client);
	complete(&u->done);
}

/* Unregister @cl on a worker; whether it returned within @ms. */
static bool unreg_within(struct unreg_work *u, struct ib_sa_client *cl,
			 unsigned int ms)
{
	INIT_WORK(&u->work, unreg_fn);
	u->client = cl;
	init_completion(&u->done);
	queue_work(system_unbound_wq, &u->work);
	return wait_for_completion_timeout(&u->done, msecs_to_jiffies(ms));
}

struct free_work {
	struct work_struct	work;
	struct ib_sa_multicast	*mc;
	struct completion	done;
};

static void free_fn(struct work_struct *work)
{
	struct free_work *f = container_of(work, struct free_work, work);

	ib_sa_free_multicast(f->mc);
	complete(&f->done);
}

/* ib_sa_free_multicast() waits for the member's callback that runs. */
static void mc_free_waits_callback(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct tmc *t = tmc_new(test);
	struct free_work *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct completion *gate = kunit_kzalloc(test, sizeof(*gate),
						GFP_KERNEL);
	bool early;

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_NOT_NULL(test, gate);
	init_completion(gate);
	t->r.gate = gate;
	join(test, b, t, NULL, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test,
			  wait_event_timeout(t->r.wq,
					     atomic_read(&t->r.entered) == 1,
					     msecs_to_jiffies(WAIT_MS)));
	INIT_WORK(&f->work, free_fn);
	f->mc = t->mc;
	t->mc = NULL;
	init_completion(&f->done);
	queue_work(system_unbound_wq, &f->work);
	early = wait_for_completion_timeout(&f->done, msecs_to_jiffies(300));
	KUNIT_EXPECT_FALSE(test, early);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->r.calls), 0);
	complete_all(gate);
	KUNIT_ASSERT_TRUE(test,
			  wait_for_completion_timeout(&f->done,
						      msecs_to_jiffies(WAIT_MS)));
	flush_work(&f->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->r.calls), 1);
	KUNIT_EXPECT_EQ(test, t->r.status[0], 0);
	KUNIT_EXPECT_TRUE(test, FMC_WAIT(b->sa, b->sa->n_delete == 1));
}

/*
 * CLIENT_REREGISTER: every joined member gets -ENETRESET (one returning
 * non-zero is freed by the core: its client can go), the group holds
 * no state any more, and a new join sends a new Set.
 */
static void mc_reregister(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct tmc *t1 = tmc_new(test), *t3 = tmc_new(test);
	struct ib_sa_client *cl = kzalloc(sizeof(*cl), GFP_KERNEL);
	struct unreg_work *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct mres *r2 = kzalloc(sizeof(*r2), GFP_KERNEL);
	struct ib_sa_mcmember_rec rec = {}, grp;
	struct ib_event ev = {
		.device = b->c->dev,
		.event = IB_EVENT_CLIENT_REREGISTER,
		.element.port_num = 1,
	};
	struct ib_sa_multicast *mc2;
	struct rdma_ah_attr attr;

	KUNIT_ASSERT_NOT_NULL(test, cl);
	KUNIT_ASSERT_NOT_NULL(test, u);
	KUNIT_ASSERT_NOT_NULL(test, r2);
	init_waitqueue_head(&r2->wq);
	ib_sa_register_client(cl);

	join(test, b, t1, NULL, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t1->r, 1));
	rec.mgid = b->mgid;
	rec.port_gid = b->gid_c;
	rec.join_state = FULL;
	mc2 = ib_sa_join_multicast(cl, b->c->dev, 1, &rec, JOIN_MASK,
				   GFP_KERNEL, mc_cb, r2);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mc2);
	/* its first callback returns 0; the next one gives it up */
	KUNIT_ASSERT_TRUE(test, mres_wait(r2, 1));
	KUNIT_EXPECT_EQ(test, r2->status[0], 0);
	r2->ret = 1;
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 1);

	ib_dispatch_event(&ev);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t1->r, 2));
	KUNIT_EXPECT_EQ(test, t1->r.status[1], -ENETRESET);
	KUNIT_ASSERT_TRUE(test, mres_wait(r2, 2));
	KUNIT_EXPECT_EQ(test, r2->status[1], -ENETRESET);
	KUNIT_ASSERT_EQ(test, ib_sa_get_mcmember_rec(b->c->dev, 1, &b->mgid,
						     &grp), 0);
	KUNIT_EXPECT_EQ(test, grp.join_state, 0);
	/* the core freed member 2: its client goes at once */
	KUNIT_EXPECT_TRUE(test, unreg_within(u, cl, WAIT_MS));
	/* and no Delete: the port lost the states, there is none to leave */
	KUNIT_ASSERT_TRUE(test, mc_settle(test, b));
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_delete), 0);

	/* the ULP's rejoin (once the SA's address is back) */
	KUNIT_ASSERT_TRUE(test, kt_wait_sm_ah(b->c->dev,
					      rdma_loop_port_lid(b->s->dev),
					      &attr));
	tmc_free(t1);
	join(test, b, t3, NULL, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t3->r, 1));
	KUNIT_EXPECT_EQ(test, t3->r.status[0], 0);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t1->r.calls), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&r2->calls), 2);
	flush_work(&u->work);
	kfree(cl);
	kfree(r2);
}

/*
 * PKEY_CHANGE: a new P_Key table that keeps the group's P_Key at its
 * index changes nothing; once the P_Key moves, the members get
 * -ENETRESET and the group holds no state, as upstream's multicast
 * does (a ULP joins again on the new index).
 */
static void mc_pkey_change(struct kunit *test)
{
	static const u16 same[] = { 0xffff, 0x8001 };
	static const u16 moved[] = { 0x8001, 0xffff };
	struct bed *b = bed_new(test);
	struct tmc *t;
	struct ib_sa_mcmember_rec grp;

	/* back as made after the member went, before the bed goes */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mc_restore_pkeys,
							test), 0);
	t = tmc_new(test);
	join(test, b, t, NULL, FULL, 0, NULL);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t->r, 1));
	KUNIT_ASSERT_EQ(test, t->r.status[0], 0);

	/* 0xffff stays at index 0: the SMA raises the event all the same */
	kt_set_pkeys(test, b->c->dev, same, ARRAY_SIZE(same));
	/* the event delivered, and the group's work ran */
	ib_event_flush(b->c->dev);
	KUNIT_ASSERT_TRUE(test, mc_settle(test, b));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->r.calls), 1);
	KUNIT_ASSERT_EQ(test, ib_sa_get_mcmember_rec(b->c->dev, 1, &b->mgid,
						     &grp), 0);
	KUNIT_EXPECT_EQ(test, grp.join_state, FULL);

	/* 0xffff moves to index 1 */
	kt_set_pkeys(test, b->c->dev, moved, ARRAY_SIZE(moved));
	KUNIT_ASSERT_TRUE(test, mres_wait(&t->r, 2));
	KUNIT_EXPECT_EQ(test, t->r.status[1], -ENETRESET);
	KUNIT_ASSERT_EQ(test, ib_sa_get_mcmember_rec(b->c->dev, 1, &b->mgid,
						     &grp), 0);
	KUNIT_EXPECT_EQ(test, grp.join_state, 0);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 1);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_delete), 0);
}

/* ib_sa_unregister_client() waits until the client's member is freed. */
static void mc_unregister_waits(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct ib_sa_client *cl = kzalloc(sizeof(*cl), GFP_KERNEL);
	struct unreg_work *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct mres *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct ib_sa_mcmember_rec rec = {};
	struct ib_sa_multicast *mc;

	KUNIT_ASSERT_NOT_NULL(test, cl);
	KUNIT_ASSERT_NOT_NULL(test, u);
	KUNIT_ASSERT_NOT_NULL(test, r);
	init_waitqueue_head(&r->wq);
	ib_sa_register_client(cl);
	rec.mgid = b->mgid;
	rec.port_gid = b->gid_c;
	rec.join_state = FULL;
	mc = ib_sa_join_multicast(cl, b->c->dev, 1, &rec, JOIN_MASK,
				  GFP_KERNEL, mc_cb, r);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mc);
	KUNIT_ASSERT_TRUE(test, mres_wait(r, 1));

	KUNIT_EXPECT_FALSE(test, unreg_within(u, cl, 300));
	ib_sa_free_multicast(mc);
	KUNIT_EXPECT_TRUE(test,
			  wait_for_completion_timeout(&u->done,
						      msecs_to_jiffies(WAIT_MS)));
	flush_work(&u->work);
	kfree(cl);
	KUNIT_EXPECT_TRUE(test, FMC_WAIT(b->sa, b->sa->n_delete == 1));
}

/*
 * The client's device goes with a joined member and a pending one: the
 * joined one gets -ENETRESET, the pending one's Set is flushed
 * (-EINTR); both are freed after the device is gone.
 */
static void mc_device_removed(struct kunit *test)
{
	struct kt_vt *s = &bed_s;
	struct fake_mcsa *sa;
	struct ib_sa_client *cl = kunit_kzalloc(test, sizeof(*cl), GFP_KERNEL);
	struct mres *r = kunit_kcalloc(test, 2, sizeof(*r), GFP_KERNEL);
	struct ib_sa_multicast *mc[2] = {};
	struct ib_sa_mcmember_rec rec = {};
	struct rdma_ah_attr attr;
	struct ib_device *gone;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, cl);
	KUNIT_ASSERT_NOT_NULL(test, r);
	bed_check(test);
	sa = fmc_new(test, s->dev);
	init_waitqueue_head(&r[0].wq);
	init_waitqueue_head(&r[1].wq);
	ib_sa_register_client(cl);

	gone = rdma_loop_add_device("kumcgone%d");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gone);
	kt_set_sm(test, gone, rdma_loop_port_lid(s->dev), 0);
	if (kt_wait_sm_ah(gone, rdma_loop_port_lid(s->dev), &attr)) {
		rdma_query_gid(gone, 1, 0, &rec.port_gid);
		rec.mgid.raw[0] = 0xff;
		rec.mgid.raw[15] = 1;
		rec.join_state = FULL;
		mc[0] = ib_sa_join_multicast(cl, gone, 1, &rec, JOIN_MASK,
					     GFP_KERNEL, mc_cb, &r[0]);
		if (!IS_ERR(mc[0]))
			mres_wait(&r[0], 1);
		fmc_set(sa, false, true, 0);
		rec.mgid.raw[15] = 2;
		mc[1] = ib_sa_join_multicast(cl, gone, 1, &rec, JOIN_MASK,
					     GFP_KERNEL, mc_cb, &r[1]);
		FMC_WAIT(sa, sa->n_held == 1);
	}
	rdma_loop_remove_device(gone);

	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(mc[i]));
		if (!IS_ERR_OR_NULL(mc[i]))
			ib_sa_free_multicast(mc[i]);
	}
	ib_sa_unregister_client(cl);
	KUNIT_EXPECT_EQ(test, atomic_read(&r[0].calls), 2);
	KUNIT_EXPECT_EQ(test, r[0].status[0], 0);
	KUNIT_EXPECT_EQ(test, r[0].status[1], -ENETRESET);
	KUNIT_EXPECT_EQ(test, atomic_read(&r[1].calls), 1);
	KUNIT_EXPECT_EQ(test, r[1].status[0], -EINTR);
	KUNIT_EXPECT_EQ(test, FMC_READ(sa, n_held), 1);
}

/* The AH attributes that send to a group. */
static void mc_init_ah(struct kunit *test)
{
	struct kt_vt *c = &bed_c;
	struct ib_sa_mcmember_rec rec;
	const struct ib_global_route *grh;
	struct rdma_ah_attr attr;

	bed_check(test);
	sample_group(&rec);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(c->dev, 1, 0, &rec.port_gid), 0);
	rec.mgid.raw[0] = 0xff;
	rec.mgid.raw[1] = 0x12;
	rec.mgid.raw[15] = 0x77;
	rec.flow_label = cpu_to_be32(0x54321);
	KUNIT_ASSERT_EQ(test, ib_init_ah_from_mcmember(c->dev, 1, &rec, NULL,
						       IB_GID_TYPE_IB, &attr),
			0);
	KUNIT_EXPECT_EQ(test, attr.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr), 0xc012u);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&attr), 2);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&attr), 1u);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_static_rate(&attr), IB_RATE_10_GBPS);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_ah_flags(&attr) & IB_AH_GRH,
			IB_AH_GRH);
	grh = rdma_ah_read_grh(&attr);
	KUNIT_EXPECT_MEMEQ(test, grh->dgid.raw, rec.mgid.raw, 16);
	KUNIT_EXPECT_EQ(test, grh->flow_label, 0x54321u);
	KUNIT_EXPECT_EQ(test, grh->hop_limit, 3);
	KUNIT_EXPECT_EQ(test, grh->traffic_class, 0x40);
	KUNIT_ASSERT_NOT_NULL(test, grh->sgid_attr);
	KUNIT_EXPECT_EQ(test, grh->sgid_attr->index, 0);
	KUNIT_EXPECT_MEMEQ(test, grh->sgid_attr->gid.raw, rec.port_gid.raw, 16);
	rdma_destroy_ah_attr(&attr);

	/* a port GID the port does not have */
	rec.port_gid.global.interface_id = cpu_to_be64(0xdead);
	KUNIT_EXPECT_EQ(test, ib_init_ah_from_mcmember(c->dev, 1, &rec, NULL,
						       IB_GID_TYPE_IB, &attr),
			-ENOENT);
}

/*
 * MCMemberRecord as IBTA 15.2.5.17 lays it out, written by hand:
 * MGID ff12:401b:ffff::1, PortGID fe80::2:c903:1:2345, Q_Key 0xb1b,
 * MLID 0xc001, MTUSelector 2, MTU 4, TClass 0x5c, P_Key 0xffff,
 * RateSelector 2, Rate 3, PacketLifeTimeSelector 2, PacketLifeTime
 * 0x12, SL 0xa, FlowLabel 0x12345, HopLimit 0x40, Scope 2, JoinState 1,
 * ProxyJoin 1, the rest reserved.
 */
static const u8 mcm_vector[52] = {
	0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0x00, 0x00,		/* 0 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,		/* 16 */
	0x00, 0x02, 0xc9, 0x03, 0x00, 0x01, 0x23, 0x45,
	0x00, 0x00, 0x0b, 0x1b,					/* 32 */
	0xc0, 0x01, 0x84, 0x5c,					/* 36 */
	0xff, 0xff, 0x83, 0x92,					/* 40 */
	0xa1, 0x23, 0x45, 0x40,					/* 44 */
	0x21, 0x80, 0x00, 0x00,					/* 48 */
};

static void mc_pack_vector(struct kunit *test)
{
	struct ib_sa_mcmember_rec rec;
	u8 buf[52];

	memset(&rec, 0xee, sizeof(rec));
	ib_sa_test.unpack_mcmember(mcm_vector, &rec);
	KUNIT_EXPECT_MEMEQ(test, rec.mgid.raw, &mcm_vector[0], 16);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rec.port_gid.global.interface_id),
			0x0002c90300012345ULL);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(rec.qkey), 0xb1bu);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec.mlid), 0xc001);
	KUNIT_EXPECT_EQ(test, rec.mtu_selector, IB_SA_EQ);
	KUNIT_EXPECT_EQ(test, rec.mtu, IB_MTU_2048);
	KUNIT_EXPECT_EQ(test, rec.traffic_class, 0x5c);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec.pkey), 0xffff);
	KUNIT_EXPECT_EQ(test, rec.rate_selector, IB_SA_EQ);
	KUNIT_EXPECT_EQ(test, rec.rate, IB_RATE_10_GBPS);
	KUNIT_EXPECT_EQ(test, rec.packet_life_time_selector, IB_SA_EQ);
	KUNIT_EXPECT_EQ(test, rec.packet_life_time, 0x12);
	KUNIT_EXPECT_EQ(test, rec.sl, 0xa);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(rec.flow_label), 0x12345u);
	KUNIT_EXPECT_EQ(test, rec.hop_limit, 0x40);
	KUNIT_EXPECT_EQ(test, rec.scope, 2);
	KUNIT_EXPECT_EQ(test, rec.join_state, 1);
	KUNIT_EXPECT_EQ(test, rec.proxy_join, 1);

	memset(buf, 0xff, sizeof(buf));
	ib_sa_test.pack_mcmember(&rec, buf);
	KUNIT_EXPECT_MEMEQ(test, buf, mcm_vector, sizeof(buf));
}

static void noop_cb(int status, struct ib_sa_mcmember_rec *rec, void *ctx)
{
}

/* What the calls refuse, with their errnos. */
static void mc_refusals(struct kunit *test)
{
	struct bed *b = bed_new(test);
	struct kt_vt *m = kt_new_vt_flags(test, "kumc%d", RDMA_LOOP_MANAGED);
	struct tmc *t = tmc_new(test);
	struct ib_sa_mcmember_rec rec = {}, grp;
	struct ib_sa_multicast *mc;
	struct ib_sa_query *q;
	union ib_gid other = b->mgid;

	rec.mgid = b->mgid;
	rec.join_state = FULL;
	mc = ib_sa_join_multicast(&b->client, b->c->dev, 2, &rec, JOIN_MASK,
				  GFP_KERNEL, mc_cb, &t->r);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mc), -ENODEV);
	mc = ib_sa_join_multicast(&b->client, b->c->dev, 1, NULL, JOIN_MASK,
				  GFP_KERNEL, mc_cb, &t->r);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mc), -EINVAL);
	mc = ib_sa_join_multicast(&b->client, b->c->dev, 1, &rec, JOIN_MASK,
				  GFP_KERNEL, NULL, &t->r);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mc), -EINVAL);

	KUNIT_EXPECT_EQ(test, ib_sa_test.mcmember_rec_query(&b->client, b->c->dev,
							    1, IB_MGMT_METHOD_GET_RESP,
							    &rec, JOIN_MASK, 1000,
							    GFP_KERNEL, noop_cb,
							    NULL, &q), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_sa_test.mcmember_rec_query(&b->client, b->c->dev,
							    2, IB_MGMT_METHOD_SET,
							    &rec, JOIN_MASK, 1000,
							    GFP_KERNEL, noop_cb,
							    NULL, &q), -ENODEV);
	KUNIT_EXPECT_EQ(test, ib_sa_get_mcmember_rec(b->c->dev, 2, &b->mgid,
						     &grp), -ENODEV);
	other.raw[15] = 0x99;
	KUNIT_EXPECT_EQ(test, ib_sa_get_mcmember_rec(b->c->dev, 1, &other,
						     &grp), -EADDRNOTAVAIL);

	/* no SM on the port: the join fails in its callback, -EAGAIN */
	rec.port_gid = b->gid_c;
	t->mc = ib_sa_join_multicast(&b->client, m->dev, 1, &rec, JOIN_MASK,
				     GFP_KERNEL, mc_cb, &t->r);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->mc);
	KUNIT_ASSERT_TRUE(test, mres_wait(&t->r, 1));
	KUNIT_EXPECT_EQ(test, t->r.status[0], -EAGAIN);
	tmc_free(t);
	KUNIT_ASSERT_TRUE(test, mc_settle(test, b));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->r.calls), 1);
	KUNIT_EXPECT_EQ(test, FMC_READ(b->sa, n_set), 0);
}

static struct kunit_case rdma_sa_mcast_cases[] = {
	KUNIT_CASE(mc_join_answered),
	KUNIT_CASE(mc_second_member_shares),
	KUNIT_CASE(mc_state_upgrade),
	KUNIT_CASE(mc_sa_error),
	KUNIT_CASE(mc_timeout),
	KUNIT_CASE(mc_mgid_zero),
	KUNIT_CASE(mc_free_in_flight),
	KUNIT_CASE(mc_free_waits_callback),
	KUNIT_CASE(mc_record_mismatch),
	KUNIT_CASE(mc_reregister),
	KUNIT_CASE(mc_pkey_change),
	KUNIT_CASE(mc_unregister_waits),
	KUNIT_CASE(mc_device_removed),
	KUNIT_CASE(mc_init_ah),
	KUNIT_CASE(mc_pack_vector),
	KUNIT_CASE(mc_refusals),
	{}
};

static struct kunit_suite rdma_sa_mcast_suite = {
	.name = "rdma_sa_mcast",
	.suite_init = mc_suite_init,
	.suite_exit = mc_suite_exit,
	.test_cases = rdma_sa_mcast_cases,
};

kunit_test_suite(rdma_sa_mcast_suite);

MODULE_DESCRIPTION("KUnit tests of the SA client's multicast joins");
MODULE_LICENSE("Dual BSD/GPL");
