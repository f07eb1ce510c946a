// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_sa": ib_core's SA client (core/ib_core/sa/sa_*.c) against a
 * fake SA on loop devices.  Device S plays the SA: a GSI agent of class
 * SubnAdm (version 2) for Get and GetTable that answers PathRecord,
 * GUIDInfoRecord and ClassPortInfo Gets with records the case chose
 * (or stays silent, or holds a request to answer it later).  Device C
 * is the client: its PortInfo's SM LID is set to S's LID with a
 * SubnSet(PortInfo) through C's process_mad, as a subnet manager would.
 *
 * Cases: a path query answered and every field unpacked; the request as
 * S received it; an SA error status; timeout with the retries counted;
 * cancel; ib_sa_unregister_client() waiting for a query; SM LID change;
 * no SM LID yet; device removal with queries in flight; GUIDInfo;
 * the ClassPortInfo the client reads itself; ib_sa_pack_path() and
 * ib_sa_unpack_path() against a PathRecord written out by hand;
 * ib_init_ah_attr_from_path(); the refusals.
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/delay.h>
#include <linux/wait.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_smi.h>
#include "../sa_priv.h"
#include <kunit/rdma_fake_sa.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* ------------------------------------------------------------------
 * Cases
 */

/* A PathRecord Get answered: status 0, one record, every field as sent. */
static void sa_path_answered(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q = NULL;
	struct sa_path_rec req;
	int id;

	kt_request_path(b, &req);
	id = kt_sa_path_get(b, &req, KT_REQ_MASK, 5000, r, &q);
	KUNIT_ASSERT_GE(test, id, 0);
	KUNIT_EXPECT_NOT_NULL(test, q);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_EXPECT_EQ(test, r->num, 1u);
	KUNIT_ASSERT_TRUE(test, r->have_rec);
	kt_expect_path_eq(test, &r->rec, &b->sa->path);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 1);

	/*
	 * Answered: a cancel now does nothing, whether the query is still
	 * ending or gone; once it ended the callback is still at one.
	 */
	ib_sa_cancel_query(id, q);
	KUNIT_ASSERT_TRUE(test, kt_bed_queries_ended(b));
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 1);
	KUNIT_EXPECT_EQ(test, r->status, 0);
}

/* The request as S got it: headers, TID, component mask and fields. */
static void sa_path_request_seen(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	ib_sa_comp_mask mask = IB_SA_PATH_REC_SERVICE_ID |
			       IB_SA_PATH_REC_DGID | IB_SA_PATH_REC_SGID |
			       IB_SA_PATH_REC_REVERSIBLE |
			       IB_SA_PATH_REC_NUMB_PATH |
			       IB_SA_PATH_REC_PKEY |
			       IB_SA_PATH_REC_MTU_SELECTOR |
			       IB_SA_PATH_REC_MTU;
	struct ib_sa_mad *seen = kunit_kzalloc(test, sizeof(*seen),
					       GFP_KERNEL);
	struct ib_sa_query *q;
	struct sa_path_rec req, got = {};
	u64 tid1, tid2;

	KUNIT_ASSERT_NOT_NULL(test, seen);
	kt_sample_path(&req);
	KUNIT_ASSERT_GE(test, kt_sa_path_get(b, &req, mask, 5000, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_EQ(test, r->status, 0);

	spin_lock(&b->sa->lock);
	*seen = b->sa->last_path;
	spin_unlock(&b->sa->lock);
	KUNIT_EXPECT_EQ(test, seen->mad_hdr.base_version, IB_MGMT_BASE_VERSION);
	KUNIT_EXPECT_EQ(test, seen->mad_hdr.mgmt_class, IB_MGMT_CLASS_SUBN_ADM);
	KUNIT_EXPECT_EQ(test, seen->mad_hdr.class_version, IB_SA_CLASS_VERSION);
	KUNIT_EXPECT_EQ(test, seen->mad_hdr.method, IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(seen->mad_hdr.attr_id),
			IB_SA_ATTR_PATH_REC);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(seen->mad_hdr.status), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(seen->mad_hdr.attr_mod), 0u);
	tid1 = be64_to_cpu(seen->mad_hdr.tid);
	KUNIT_EXPECT_EQ(test, (u32)(tid1 >> 32),
			ib_sa_test.agent_hi_tid(b->c->dev, 1));
	KUNIT_EXPECT_EQ(test, be64_to_cpu((__force __be64)seen->sa_hdr.comp_mask),
			be64_to_cpu((__force __be64)mask));
	KUNIT_EXPECT_EQ(test, be64_to_cpu((__force __be64)seen->sa_hdr.comp_mask),
			0x3380fULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(seen->sa_hdr.sm_key), 0ULL);
	ib_sa_unpack_path(seen->data, &got);
	got.rec_type = SA_PATH_REC_TYPE_IB;
	kt_expect_path_eq(test, &got, &req);
	/* from C's QP1 and LID, through the SA address handle */
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, last_wc.src_qp), 1u);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, last_wc.slid), (u32)b->lid_c);

	/* the next query has a TID of its own, same upper half */
	KUNIT_ASSERT_GE(test, kt_sa_path_get(b, &req, mask, 5000, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 2));
	tid2 = be64_to_cpu(KT_FSA_READ(b->sa, last_path.mad_hdr.tid));
	KUNIT_EXPECT_NE(test, tid2, tid1);
	KUNIT_EXPECT_EQ(test, tid2 >> 32, tid1 >> 32);
}

/* An answer with an SA error status: -EINVAL, the record still given. */
static void sa_status_error(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q;
	struct sa_path_rec req;

	spin_lock(&b->sa->lock);
	b->sa->status = KT_SA_ERR_NO_RECORDS;
	spin_unlock(&b->sa->lock);
	kt_request_path(b, &req);
	/* tries of 6 s: S answers the first one */
	KUNIT_ASSERT_GE(test, kt_sa_path_get(b, &req, KT_REQ_MASK, 60000, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_EQ(test, r->status, -EINVAL);
	KUNIT_EXPECT_EQ(test, r->num, 1u);
	KUNIT_EXPECT_TRUE(test, r->have_rec);
	/* the query ended there: no second callback, no second try */
	KUNIT_ASSERT_TRUE(test, kt_bed_queries_ended(b));
	KUNIT_ASSERT_TRUE(test, kt_bed_round_trip(test, b));
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 1);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 1);
}

/*
 * S silent: the query is sent 1 + 10 times (a tenth of the timeout
 * each), with one TID, and ends with -ETIMEDOUT after the whole timeout;
 * nothing follows.
 */
static void sa_timeout_retries(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_query *q;
	struct sa_path_rec req;
	unsigned long t0;

	spin_lock(&b->sa->lock);
	b->sa->silent = true;
	spin_unlock(&b->sa->lock);
	kt_request_path(b, &req);
	t0 = jiffies;
	KUNIT_ASSERT_GE(test, kt_sa_path_get(b, &req, KT_REQ_MASK, 200, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_GE(test, jiffies_to_msecs(jiffies - t0), 200u);
	KUNIT_EXPECT_EQ(test, r->status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, r->num, 0u);
	KUNIT_EXPECT_FALSE(test, r->have_rec);
	/* the query ended, and S has seen all it ever sent */
	KUNIT_ASSERT_TRUE(test, kt_bed_queries_ended(b));
	KUNIT_ASSERT_TRUE(test, kt_bed_round_trip(test, b));
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 1);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 11);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(KT_FSA_READ(b->sa, first_path.mad_hdr.tid)),
			be64_to_cpu(KT_FSA_READ(b->sa, last_path.mad_hdr.tid)));
	KUNIT_EXPECT_EQ(test,
			be64_to_cpu(KT_FSA_READ(b->sa, last_path.mad_hdr.tid)) >> 32,
			(u64)ib_sa_test.agent_hi_tid(b->c->dev, 1));
}

/*
 * Cancel: -EINTR once; the answer that comes later is dropped, a second
 * cancel does nothing.  A cancel with another id leaves the query alone:
 * its answer is then taken.
 */
static void sa_cancel(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test), *r2 = kt_cres_new(test);
	struct ib_sa_query *q, *q2;
	struct sa_path_rec req;
	int id, id2, replies;

	spin_lock(&b->sa->lock);
	b->sa->hold = true;
	spin_unlock(&b->sa->lock);
	kt_request_path(b, &req);
	id = kt_sa_path_get(b, &req, KT_REQ_MASK, 60000, r, &q);
	KUNIT_ASSERT_GE(test, id, 0);
	KUNIT_ASSERT_TRUE(test, KT_FSA_WAIT(b->sa, b->sa->n_held == 1));
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 0);

	ib_sa_cancel_query(id, q);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_EQ(test, r->status, -EINTR);
	KUNIT_EXPECT_FALSE(test, r->have_rec);

	/*
	 * the late answer: once C has handled it, nothing came of it.  The
	 * client reads ClassPortInfo a second after its port went active
	 * (sa_classport.c), and the SA may answer that meanwhile: wait for
	 * one send more than before, not for a total (a slow run saw 2).
	 */
	replies = KT_FSA_READ(b->sa, replies);
	kt_fsa_answer_held(b->sa);
	KUNIT_ASSERT_TRUE(test, KT_FSA_WAIT(b->sa, b->sa->replies > replies));
	ib_sa_cancel_query(id, q);
	KUNIT_ASSERT_TRUE(test, kt_bed_queries_ended(b));
	KUNIT_ASSERT_TRUE(test, kt_bed_round_trip(test, b));
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 1);
	KUNIT_EXPECT_EQ(test, r->status, -EINTR);

	/* another id: the query goes on and takes S's answer */
	spin_lock(&b->sa->lock);
	b->sa->hold = true;
	spin_unlock(&b->sa->lock);
	id2 = kt_sa_path_get(b, &req, KT_REQ_MASK, 60000, r2, &q2);
	KUNIT_ASSERT_GE(test, id2, 0);
	KUNIT_ASSERT_TRUE(test, KT_FSA_WAIT(b->sa, b->sa->n_held == 1));
	ib_sa_cancel_query(id2 + 1, q2);
	kt_fsa_answer_held(b->sa);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r2, 1));
	KUNIT_EXPECT_EQ(test, r2->status, 0);
	KUNIT_EXPECT_TRUE(test, r2->have_rec);
	KUNIT_ASSERT_TRUE(test, kt_bed_queries_ended(b));
	KUNIT_EXPECT_EQ(test, atomic_read(&r2->calls), 1);
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

/*
 * ib_sa_unregister_client() returns only once the query ended.  The
 * client is not the case's memory: should the case fail half-way, its
 * query still ends (after the timeout) in a live client.
 */
static void sa_unregister_waits(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_client *cl = kzalloc(sizeof(*cl), GFP_KERNEL);
	struct unreg_work *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct ib_sa_query *q;
	struct sa_path_rec req;
	bool early;

	KUNIT_ASSERT_NOT_NULL(test, cl);
	KUNIT_ASSERT_NOT_NULL(test, u);
	ib_sa_register_client(cl);
	spin_lock(&b->sa->lock);
	b->sa->hold = true;
	spin_unlock(&b->sa->lock);
	kt_request_path(b, &req);
	KUNIT_ASSERT_GE(test, ib_sa_path_rec_get(cl, b->c->dev, 1, &req,
						 KT_REQ_MASK, 5000, GFP_KERNEL,
						 kt_path_cb, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, KT_FSA_WAIT(b->sa, b->sa->n_held == 1));

	INIT_WORK(&u->work, unreg_fn);
	u->client = cl;
	init_completion(&u->done);
	queue_work(system_unbound_wq, &u->work);
	early = wait_for_completion_timeout(&u->done, msecs_to_jiffies(300));
	KUNIT_EXPECT_FALSE(test, early);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 0);

	kt_fsa_answer_held(b->sa);
	KUNIT_ASSERT_TRUE(test,
			  wait_for_completion_timeout(&u->done,
						      msecs_to_jiffies(KT_WAIT_MS)));
	/* the callback ran, once, before the unregistration returned */
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 1);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	flush_work(&u->work);
	kfree(cl);
}

/* A new SM LID (and SL): the next query goes there. */
static void sa_sm_lid_change(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_vt *s2 = kt_new_vt_named(test, "kusa%d");
	struct kt_fake_sa *sa2 = kt_fsa_new(test, s2->dev);
	u16 lid2 = rdma_loop_port_lid(s2->dev);
	struct kt_cres *r = kt_cres_new(test);
	struct rdma_ah_attr attr;
	struct ib_sa_query *q;
	struct sa_path_rec req;

	spin_lock(&sa2->lock);
	sa2->path.preference = 0x11;
	spin_unlock(&sa2->lock);

	kt_bed_set_sm(test, lid2, 3);
	KUNIT_ASSERT_TRUE(test, kt_wait_sm_ah(b->c->dev, lid2, &attr));
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&attr), 3);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&attr), 1u);
	KUNIT_EXPECT_EQ(test, attr.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_FALSE(test, !!(rdma_ah_get_ah_flags(&attr) & IB_AH_GRH));

	kt_request_path(b, &req);
	KUNIT_ASSERT_GE(test, kt_sa_path_get(b, &req, KT_REQ_MASK, 5000, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_EXPECT_EQ(test, r->rec.preference, 0x11);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(sa2, n_path), 1);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 0);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(sa2, last_wc.slid), (u32)b->lid_c);
}

/* A port no SM has set up yet: queries are refused with -EAGAIN. */
static void sa_no_sm_lid(struct kunit *test)
{
	struct kt_vt *m = kt_new_vt_flags(test, "kusa%d", RDMA_LOOP_MANAGED);
	struct ib_sa_client *cl = kunit_kzalloc(test, sizeof(*cl), GFP_KERNEL);
	struct ib_sa_guidinfo_rec grec = {};
	struct kt_cres *r = kt_cres_new(test);
	struct ib_port_attr pa;
	struct ib_sa_query *q = NULL;
	struct sa_path_rec req = { .rec_type = SA_PATH_REC_TYPE_IB };

	KUNIT_ASSERT_NOT_NULL(test, cl);
	KUNIT_ASSERT_EQ(test, ib_query_port(m->dev, 1, &pa), 0);
	KUNIT_ASSERT_EQ(test, pa.sm_lid, 0u);
	ib_sa_register_client(cl);
	KUNIT_EXPECT_EQ(test, ib_sa_path_rec_get(cl, m->dev, 1, &req, 0, 1000,
						 GFP_KERNEL, kt_path_cb, r, &q),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test,
			ib_sa_guid_info_rec_query(cl, m->dev, 1, &grec, 0,
						  IB_MGMT_METHOD_GET, 1000,
						  GFP_KERNEL, kt_guid_cb, r, &q),
			-EAGAIN);
	ib_sa_unregister_client(cl);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 0);
}

/* The client's device goes with queries out: each ends with -EINTR. */
#define N_GONE	8
static void sa_device_removed(struct kunit *test)
{
	struct kt_vt *s = &kt_bed_s;
	struct kt_fake_sa *sa;
	struct ib_sa_client *cl = kunit_kzalloc(test, sizeof(*cl), GFP_KERNEL);
	struct kt_cres *r = kunit_kcalloc(test, N_GONE, sizeof(*r), GFP_KERNEL);
	struct rdma_ah_attr attr;
	struct ib_sa_query *q;
	struct sa_path_rec req = { .rec_type = SA_PATH_REC_TYPE_IB };
	struct ib_device *gone;
	int i, posted = 0;

	KUNIT_ASSERT_NOT_NULL(test, cl);
	KUNIT_ASSERT_NOT_NULL(test, r);
	kt_bed_check(test);
	sa = kt_fsa_new(test, s->dev);
	for (i = 0; i < N_GONE; i++)
		init_waitqueue_head(&r[i].wq);
	spin_lock(&sa->lock);
	sa->hold = true;
	spin_unlock(&sa->lock);
	ib_sa_register_client(cl);

	gone = rdma_loop_add_device("kusagone%d");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gone);
	kt_set_sm(test, gone, rdma_loop_port_lid(s->dev), 0);
	if (kt_wait_sm_ah(gone, rdma_loop_port_lid(s->dev), &attr)) {
		for (i = 0; i < N_GONE; i++)
			posted += ib_sa_path_rec_get(cl, gone, 1, &req, 0,
						     60000, GFP_KERNEL,
						     kt_path_cb, &r[i], &q) >= 0;
		KT_FSA_WAIT(sa, sa->n_held == N_GONE);
	}
	rdma_loop_remove_device(gone);
	ib_sa_unregister_client(cl);

	KUNIT_EXPECT_EQ(test, posted, N_GONE);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(sa, n_held), N_GONE);
	for (i = 0; i < N_GONE; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&r[i].calls), 1);
		KUNIT_EXPECT_EQ(test, r[i].status, -EINTR);
	}
}

/* GUIDInfoRecord: Get answered; Set goes out (S has no Set: refused). */
static void sa_guidinfo(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_guidinfo_rec grec = {};
	struct ib_sa_query *q;
	ib_sa_comp_mask mask = IB_SA_GUIDINFO_REC_LID |
			       IB_SA_GUIDINFO_REC_BLOCK_NUM;
	u8 *d;
	int i;

	spin_lock(&b->sa->lock);
	d = b->sa->guidinfo;
	d[0] = b->lid_c >> 8;
	d[1] = b->lid_c & 0xff;
	d[2] = 2;		/* block */
	for (i = 0; i < 64; i++)
		d[8 + i] = 0x80 + i;
	spin_unlock(&b->sa->lock);

	grec.lid = cpu_to_be16(b->lid_c);
	grec.block_num = 2;
	grec.guid_info_list[8] = 0x42;
	KUNIT_ASSERT_GE(test, ib_sa_guid_info_rec_query(&b->client, b->c->dev,
							1, &grec, mask,
							IB_MGMT_METHOD_GET,
							5000, GFP_KERNEL,
							kt_guid_cb, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 1));
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_ASSERT_TRUE(test, r->have_rec);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(r->grec.lid), b->lid_c);
	KUNIT_EXPECT_EQ(test, r->grec.block_num, 2);
	KUNIT_EXPECT_EQ(test, r->grec.res1, 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(r->grec.res2), 0u);
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, r->grec.guid_info_list[i], 0x80 + i);

	/* what S got */
	spin_lock(&b->sa->lock);
	d = b->sa->last_guid.data;
	KUNIT_EXPECT_EQ(test, b->sa->n_guid, 1);
	KUNIT_EXPECT_EQ(test, b->sa->last_guid.mad_hdr.method,
			IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(b->sa->last_guid.mad_hdr.attr_id),
			IB_SA_ATTR_GUID_INFO_REC);
	KUNIT_EXPECT_EQ(test,
			be64_to_cpu((__force __be64)b->sa->last_guid.sa_hdr.comp_mask),
			3ULL);
	KUNIT_EXPECT_EQ(test, d[0] << 8 | d[1], b->lid_c);
	KUNIT_EXPECT_EQ(test, d[2], 2);
	KUNIT_EXPECT_EQ(test, d[16], 0x42);
	spin_unlock(&b->sa->lock);

	/* Set: S registered no Set, the MAD layer answers "unsupported" */
	KUNIT_ASSERT_GE(test, ib_sa_guid_info_rec_query(&b->client, b->c->dev,
							1, &grec, mask,
							IB_MGMT_METHOD_SET,
							5000, GFP_KERNEL,
							kt_guid_cb, r, &q), 0);
	KUNIT_ASSERT_TRUE(test, kt_cres_wait(r, 2));
	KUNIT_EXPECT_EQ(test, r->status, -EINVAL);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_guid), 1);
}

/*
 * The ClassPortInfo the client reads after the SM change (here its SL),
 * cached.
 */
static void sa_classport_info(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct ib_class_port_info info, *sent = &b->sa->cpi;
	unsigned long end;
	int ret;

	/* the change's event dropped what an earlier case's SA said */
	kt_bed_set_sm(test, b->lid_s, 1);
	end = jiffies + msecs_to_jiffies(KT_WAIT_MS);
	do {
		ret = ib_sa_test.classport_info_get(b->c->dev, 1, &info);
		if (!ret)
			break;
		msleep(50);
	} while (time_before(jiffies, end));
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_GE(test, KT_FSA_READ(b->sa, n_cpi), 1);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, last_cpi.mad_hdr.method),
			IB_MGMT_METHOD_GET);
	KUNIT_EXPECT_EQ(test, be64_to_cpu((__force __be64)
				KT_FSA_READ(b->sa, last_cpi.sa_hdr.comp_mask)),
			0ULL);
	KUNIT_EXPECT_EQ(test, info.base_version, sent->base_version);
	KUNIT_EXPECT_EQ(test, info.class_version, IB_SA_CLASS_VERSION);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(info.capability_mask), 0x0602);
	KUNIT_EXPECT_EQ(test, ib_get_cpi_capmask2(&info),
			(u32)IB_SA_CAP_MASK2_SENDONLY_FULL_MEM_SUPPORT);
	KUNIT_EXPECT_EQ(test, ib_get_cpi_resp_time(&info), 18);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(info.redirect_qkey), IB_QP1_QKEY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(info.trap_lid), 0x0123);
	KUNIT_EXPECT_EQ(test, ib_sa_test.classport_info_get(b->s->dev, 2, &info),
			-ENODEV);
}

/*
 * PathRecord as IBTA 15.2.5.16 lays it out, written by hand:
 * ServiceID 0x0102030405060708, DGID fe80::11:2233:4455:6677,
 * SGID fe80::8899:aabb:ccdd:eeff, DLID 0x1234, SLID 0x5678, RawTraffic 1,
 * FlowLabel 0xabcde, HopLimit 0x40, TClass 0x5c, Reversible 1,
 * NumbPath 5, P_Key 0xffff, QosClass 0x123, SL 0xa, MTUSelector 2,
 * MTU 4 (2048), RateSelector 2, Rate 7 (40 Gb/s), PacketLifeTimeSelector
 * 2, PacketLifeTime 0x12, Preference 1, the rest reserved.
 */
static const u8 path_vector[64] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,		/* 0 */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,		/* 8 */
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,		/* 24 */
	0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	0x12, 0x34, 0x56, 0x78,					/* 40 */
	0x8a, 0xbc, 0xde, 0x40,					/* 44 */
	0x5c, 0x85, 0xff, 0xff,					/* 48 */
	0x12, 0x3a, 0x84, 0x87,					/* 52 */
	0x92, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,		/* 56 */
};

static void sa_pack_unpack_vector(struct kunit *test)
{
	struct sa_path_rec rec;
	u8 buf[64];

	memset(&rec, 0xee, sizeof(rec));
	ib_sa_unpack_path((void *)path_vector, &rec);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rec.service_id),
			0x0102030405060708ULL);
	KUNIT_EXPECT_MEMEQ(test, rec.dgid.raw, &path_vector[8], 16);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rec.sgid.global.subnet_prefix),
			0xfe80000000000000ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rec.sgid.global.interface_id),
			0x8899aabbccddeeffULL);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec.ib.dlid), 0x1234);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec.ib.slid), 0x5678);
	KUNIT_EXPECT_EQ(test, rec.ib.raw_traffic, 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(rec.flow_label), 0xabcdeu);
	KUNIT_EXPECT_EQ(test, rec.hop_limit, 0x40);
	KUNIT_EXPECT_EQ(test, rec.traffic_class, 0x5c);
	KUNIT_EXPECT_EQ(test, rec.reversible, 1);
	KUNIT_EXPECT_EQ(test, rec.numb_path, 5);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec.pkey), 0xffff);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec.qos_class), 0x123);
	KUNIT_EXPECT_EQ(test, rec.sl, 0xa);
	KUNIT_EXPECT_EQ(test, rec.mtu_selector, IB_SA_EQ);
	KUNIT_EXPECT_EQ(test, rec.mtu, IB_MTU_2048);
	KUNIT_EXPECT_EQ(test, rec.rate_selector, IB_SA_EQ);
	KUNIT_EXPECT_EQ(test, rec.rate, IB_RATE_40_GBPS);
	KUNIT_EXPECT_EQ(test, rec.packet_life_time_selector, IB_SA_EQ);
	KUNIT_EXPECT_EQ(test, rec.packet_life_time, 0x12);
	KUNIT_EXPECT_EQ(test, rec.preference, 1);

	/* and back: the same 64 bytes, reserved bits cleared */
	memset(buf, 0xff, sizeof(buf));
	ib_sa_pack_path(&rec, buf);
	KUNIT_EXPECT_MEMEQ(test, buf, path_vector, sizeof(buf));

	/* every field of the sample path survives the round trip */
	{
		struct sa_path_rec in, out = {};

		kt_sample_path(&in);
		ib_sa_pack_path(&in, buf);
		ib_sa_unpack_path(buf, &out);
		out.rec_type = SA_PATH_REC_TYPE_IB;
		kt_expect_path_eq(test, &out, &in);
	}
}

/* The AH attributes of an IB path, without and with a GRH. */
static void sa_init_ah_attr(struct kunit *test)
{
	struct kt_vt *c = &kt_bed_c;
	struct rdma_ah_attr attr;
	struct sa_path_rec rec;
	const struct ib_global_route *grh;
	union ib_gid gid0;

	kt_bed_check(test);
	kt_sample_path(&rec);
	rec.ib.dlid = cpu_to_be16(0x0042);
	rec.ib.slid = cpu_to_be16(rdma_loop_port_lid(c->dev) | 3);
	rec.sl = 5;
	rec.rate = IB_RATE_10_GBPS;
	rec.hop_limit = 0;
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_path(c->dev, 1, &rec, &attr,
							NULL), 0);
	KUNIT_EXPECT_EQ(test, attr.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr), 0x42u);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&attr), 5);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&attr), 1u);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_static_rate(&attr), IB_RATE_10_GBPS);
	/* LMC 0: no path bits */
	KUNIT_EXPECT_EQ(test, rdma_ah_get_path_bits(&attr), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_ah_flags(&attr) & IB_AH_GRH, 0);
	KUNIT_EXPECT_NULL(test, attr.grh.sgid_attr);

	/* a hop limit: a GRH from the path, the SGID's table entry held */
	KUNIT_ASSERT_EQ(test, rdma_query_gid(c->dev, 1, 0, &gid0), 0);
	rec.sgid = gid0;
	rec.hop_limit = 4;
	rec.flow_label = cpu_to_be32(0x12345);
	rec.traffic_class = 0x20;
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_path(c->dev, 1, &rec, &attr,
							NULL), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_ah_flags(&attr) & IB_AH_GRH,
			IB_AH_GRH);
	grh = rdma_ah_read_grh(&attr);
	KUNIT_EXPECT_MEMEQ(test, grh->dgid.raw, rec.dgid.raw, 16);
	KUNIT_EXPECT_EQ(test, grh->flow_label, 0x12345u);
	KUNIT_EXPECT_EQ(test, grh->hop_limit, 4);
	KUNIT_EXPECT_EQ(test, grh->traffic_class, 0x20);
	KUNIT_ASSERT_NOT_NULL(test, grh->sgid_attr);
	KUNIT_EXPECT_EQ(test, grh->sgid_attr->index, 0);
	KUNIT_EXPECT_MEMEQ(test, grh->sgid_attr->gid.raw, gid0.raw, 16);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr), 0x42u);
	rdma_destroy_ah_attr(&attr);

	/* an SGID the port does not have */
	rec.sgid.global.interface_id = cpu_to_be64(0xdead);
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_path(c->dev, 1, &rec, &attr,
							NULL), -ENOENT);
}

/* What the calls refuse before anything goes out. */
static void sa_refusals(struct kunit *test)
{
	struct kt_bed *b = kt_bed_new(test);
	struct kt_cres *r = kt_cres_new(test);
	struct ib_sa_guidinfo_rec grec = {};
	struct ib_sa_query *q;
	struct sa_path_rec req;

	kt_request_path(b, &req);
	req.rec_type = SA_PATH_REC_TYPE_ROCE_V2;
	KUNIT_EXPECT_EQ(test, kt_sa_path_get(b, &req, KT_REQ_MASK, 1000, r, &q),
			-EINVAL);
	req.rec_type = SA_PATH_REC_TYPE_IB;
	KUNIT_EXPECT_EQ(test, ib_sa_path_rec_get(&b->client, b->c->dev, 2,
						 &req, KT_REQ_MASK, 1000,
						 GFP_KERNEL, kt_path_cb, r, &q),
			-ENODEV);
	KUNIT_EXPECT_EQ(test,
			ib_sa_guid_info_rec_query(&b->client, b->c->dev, 1,
						  &grec, 0, IB_MGMT_METHOD_GET_RESP,
						  1000, GFP_KERNEL, kt_guid_cb,
						  r, &q),
			-EINVAL);
	/* nothing is left to call back, and nothing reached S */
	KUNIT_ASSERT_TRUE(test, kt_bed_queries_ended(b));
	KUNIT_ASSERT_TRUE(test, kt_bed_round_trip(test, b));
	KUNIT_EXPECT_EQ(test, atomic_read(&r->calls), 0);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_path), 0);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(b->sa, n_guid), 0);
}

static struct kunit_case rdma_sa_cases[] = {
	KUNIT_CASE(sa_path_answered),
	KUNIT_CASE(sa_path_request_seen),
	KUNIT_CASE(sa_status_error),
	KUNIT_CASE(sa_timeout_retries),
	KUNIT_CASE(sa_cancel),
	KUNIT_CASE(sa_unregister_waits),
	KUNIT_CASE(sa_sm_lid_change),
	KUNIT_CASE(sa_no_sm_lid),
	KUNIT_CASE(sa_device_removed),
	KUNIT_CASE(sa_guidinfo),
	KUNIT_CASE(sa_classport_info),
	KUNIT_CASE(sa_pack_unpack_vector),
	KUNIT_CASE(sa_init_ah_attr),
	KUNIT_CASE(sa_refusals),
	{}
};

static struct kunit_suite rdma_sa_suite = {
	.name = "rdma_sa",
	.suite_init = kt_bed_client_suite_init,
	.suite_exit = kt_bed_suite_exit,
	.test_cases = rdma_sa_cases,
};

kunit_test_suite(rdma_sa_suite);

MODULE_DESCRIPTION("KUnit tests of the SA client against a fake SA");
MODULE_LICENSE("Dual BSD/GPL");
