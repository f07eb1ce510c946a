// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_cma_ib": rdma_cm over InfiniBand (core/rdma_cm/cma_ib.c)
 * on the loop fabric, with the real IB CM, SA client and IPoIB.
 *
 * The bed of every case: loop devices A and B (port 1 each, ACTIVE with
 * a LID of its own), their SM LID set to the suite's device S, on which
 * a fake SA answers PathRecord Gets with the path the case chose
 * (<kunit/rdma_fake_sa.h>) and MCMemberRecord Sets and Deletes for any
 * group (below: an MLID per MGID, the Q_Key asked for or its own).
 * Cases over IP bring up the IPoIB interfaces of A and B (ib_ipoib) with
 * an address each: A 10.201.1.1/24, B 10.201.2.1/24.
 *
 * A, B, S, their PDs, IPoIB interfaces and SM LIDs are the suite's
 * (cma_ib_suite_init()): making and removing two loop devices with their
 * IPoIB interfaces took far longer than a case.  The fake SAs are each
 * case's own (cma_ib_case_init()).  At its end a case gives the bed back
 * as it found it (fx_reset(), then fx_quiesce()): the IPoIB interfaces
 * down without addresses (which drops their neighbours and groups), the
 * SA's multicast joins and leaves answered, nothing of the case on its
 * way through the IB CM or to the SA, no listener or bound port left;
 * each case's init checks that start.
 *
 * One network namespace cannot hold two ends of an IP connection on two
 * ports: a local destination routes through the device that owns it, so
 * an IP connection to B's address runs between two ids on B's port (the
 * loop fabric delivers a port's packets to itself), as upstream would do
 * on one host.  Connections between A and B use AF_IB addresses (and
 * rdma_set_ib_path()).  Address resolution towards a remote IP address
 * over IPoIB is checked with a neighbour entry that names B's port.
 *
 * Waits are for the event with a deadline; "nothing more came" checks
 * follow a barrier (a later event of the same ordered source).
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <kunit/rdma_ipoib.h>
#include <kunit/rdma_mad.h>
#include <kunit/rdma_rtnl.h>
#include <linux/delay.h>
#include <linux/if_infiniband.h>
#include <linux/inet.h>
#include <linux/inetdevice.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/wait.h>
#include <net/arp.h>
#include <net/if_inet6.h>
#include <net/ip.h>
#include <net/neighbour.h>
#include <net/netlink.h>
#include <rdma/ib.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_pack.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_cm.h>
#include <rdma/rdma_cm_ib.h>
#include <rdma/rdma_loop.h>

#include "../../ib_cm/cm_priv.h"
#include <kunit/rdma_ib_cm.h>
#include "../../ib_core/core_priv.h"
#include "../../ib_core/sa/sa_priv.h"
#include <kunit/rdma_fake_sa.h>
#include "../cma_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define EV_MAX		32
#define IDS_MAX		16
#define EV_WAIT		(10 * HZ)
#define BASE_PORT	47100
#define MC_LOG		64
#define MC_GROUPS	16
#define FMC_QKEY	0x0b1b0000
#define FMC_MLID	0xc101
#define BUF_LEN		256
#define PATH_PLT	12	/* packet life time: time wait ~34 ms */
/* rdma_cm's header before the owner's data in an IP id's REQ/SIDR REQ */
#define CMA_HDR_LEN	36

static const char * const ip_a = "10.201.1.1";
static const char * const ip_b = "10.201.2.1";

/* ------------------------------------------------------------------
 * The fake SA's multicast side: MCMemberRecord Set and Delete
 */

struct fmc_entry {
	u8			method;
	struct ib_sa_mcmember_rec rec;
};

struct fmc {
	struct ib_mad_agent	*agent;
	spinlock_t		lock;	/* everything below */
	int			n;
	struct fmc_entry	log[MC_LOG];
	int			ngroups;
	union ib_gid		groups[MC_GROUPS];
	wait_queue_head_t	wq;
};

static void fmc_send_done(struct ib_mad_agent *agent,
			  struct ib_mad_send_wc *wc)
{
	kt_ksa_reply_done(wc);
}

/* The MLID of @mgid: one per group, in the order they were first asked. */
static u16 fmc_mlid(struct fmc *sa, const union ib_gid *mgid)
{
	int i;

	for (i = 0; i < sa->ngroups; i++)
		if (!memcmp(&sa->groups[i], mgid, sizeof(*mgid)))
			return FMC_MLID + i;
	if (sa->ngroups == MC_GROUPS)
		return FMC_MLID + MC_GROUPS;
	sa->groups[sa->ngroups] = *mgid;
	return FMC_MLID + sa->ngroups++;
}

static void fmc_recv(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *rwc)
{
	struct fmc *sa = agent->context;
	struct ib_sa_mad *mad = (struct ib_sa_mad *)rwc->recv_buf.mad;
	struct ib_sa_mcmember_rec in, out;
	u8 data[64] = {};
	u8 method;

	/* the rest "unsupported", as the MAD layer would (round trips) */
	if (be16_to_cpu(mad->mad_hdr.attr_id) != IB_SA_ATTR_MC_MEMBER_REC) {
		kt_ksa_reply(sa->agent, mad, rwc->wc, IB_MGMT_METHOD_GET_RESP,
			     KT_UNSUP_METHOD_ATTR, data, 0);
		ib_free_recv_mad(rwc);
		return;
	}
	ib_sa_test.unpack_mcmember(mad->data, &in);
	out = in;
	spin_lock(&sa->lock);
	if (sa->n < MC_LOG) {
		sa->log[sa->n].method = mad->mad_hdr.method;
		sa->log[sa->n].rec = in;
		sa->n++;
	}
	out.mlid = cpu_to_be16(fmc_mlid(sa, &in.mgid));
	spin_unlock(&sa->lock);
	if (!out.qkey)
		out.qkey = cpu_to_be32(FMC_QKEY);
	if (!out.mtu)
		out.mtu = IB_MTU_2048;
	out.mtu_selector = IB_SA_EQ;
	if (!out.rate)
		out.rate = IB_RATE_10_GBPS;
	out.rate_selector = IB_SA_EQ;
	out.packet_life_time = PATH_PLT;
	out.scope = 2;
	method = mad->mad_hdr.method == IB_MGMT_METHOD_SET ?
		 IB_MGMT_METHOD_GET_RESP : IB_SA_METHOD_DELETE_RESP;
	ib_sa_test.pack_mcmember(&out, data);
	kt_ksa_reply(sa->agent, mad, rwc->wc, method, 0, data, sizeof(data));
	ib_free_recv_mad(rwc);
	wake_up(&sa->wq);
}

static struct fmc *fmc_new(struct kunit *test, struct ib_device *dev)
{
	struct fmc *sa = kunit_kzalloc(test, sizeof(*sa), GFP_KERNEL);
	struct ib_mad_reg_req req = {
		.mgmt_class = IB_MGMT_CLASS_SUBN_ADM,
		.mgmt_class_version = IB_SA_CLASS_VERSION,
	};

	KUNIT_ASSERT_NOT_NULL(test, sa);
	spin_lock_init(&sa->lock);
	init_waitqueue_head(&sa->wq);
	__set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	__set_bit(IB_SA_METHOD_DELETE, req.method_mask);
	sa->agent = ib_register_mad_agent(dev, 1, IB_QPT_GSI, &req, 0,
					  fmc_send_done, fmc_recv, sa, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sa->agent);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							kt_unregister_agent,
							sa->agent), 0);
	return sa;
}

/* The first request of @method for @mgid (and @gid, when given). */
static bool fmc_find(struct fmc *sa, u8 method, const union ib_gid *mgid,
		     const union ib_gid *gid, struct ib_sa_mcmember_rec *rec)
{
	bool found = false;
	int i;

	spin_lock(&sa->lock);
	for (i = 0; i < sa->n && !found; i++) {
		if (sa->log[i].method != method ||
		    memcmp(&sa->log[i].rec.mgid, mgid, sizeof(*mgid)) ||
		    (gid && memcmp(&sa->log[i].rec.port_gid, gid,
				   sizeof(*gid))))
			continue;
		if (rec)
			*rec = sa->log[i].rec;
		found = true;
	}
	spin_unlock(&sa->lock);
	return found;
}

static bool fmc_wait(struct fmc *sa, u8 method, const union ib_gid *mgid,
		     const union ib_gid *gid, struct ib_sa_mcmember_rec *rec)
{
	return wait_event_timeout(sa->wq,
				  fmc_find(sa, method, mgid, gid, rec),
				  EV_WAIT);
}

/* ------------------------------------------------------------------
 * rtnetlink (<kunit/rdma_rtnl.h>): addresses /24, IPoIB neighbours
 */

struct rtc {
	struct kt_rtnl	*k;
};

static struct rtc *rtc_open(struct kunit *test)
{
	struct rtc *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->k = kt_rtnl_open(test, &init_net);
	KUNIT_ASSERT_NOT_NULL(test, c->k);
	return c;
}

static void rtc_addr4(struct kunit *test, struct rtc *c,
		      struct net_device *ndev, const char *ip)
{
	KUNIT_ASSERT_EQ_MSG(test, kt_rtnl_addr(c->k, RTM_NEWADDR,
					       ndev->ifindex, ip, 24), 0,
			    "address %s", ip);
}

static void rtc_neigh4(struct kunit *test, struct rtc *c,
		       struct net_device *ndev, const char *ip, const u8 *ha)
{
	KUNIT_ASSERT_EQ_MSG(test, kt_rtnl_neigh_ll(c->k, ndev->ifindex, ip, ha,
						   INFINIBAND_ALEN), 0,
			    "neighbour %s", ip);
}

/* ------------------------------------------------------------------
 * The bed
 */

/*
 * The suite's part of the bed, made by cma_ib_suite_init(): A and B,
 * each with a PD (with an unsafe global rkey), its SM LID at S and the
 * IPoIB interface of its port (held; NULL without ib_ipoib, which fails
 * the cases over IP only), and an SA client for the round trips of the
 * cases' ends.
 */
static struct {
	struct kt_vt		a, b;
	struct net_device	*nda, *ndb;
	struct ib_sa_client	client;
	bool			client_on;
} cib;

struct fx {
	struct kunit		*test;
	struct kt_vt		*a, *b;
	struct ib_pd		*pda, *pdb;	/* with an unsafe global rkey */
	struct kt_fake_sa	*sa;
	struct fmc		*mc;
	u16			lid_a, lid_b, lid_s;
	union ib_gid		gid_a, gid_b;
	struct net_device	*nda, *ndb;	/* IPoIB, once up */
	u16			port;		/* the next port to use */
	struct rtc		*rtc;		/* of fx_reset() */
};

/* The IPoIB interface of @vt's port, up with @ip/24; carrier if @wait. */
static struct net_device *ipoib_up(struct kunit *test, struct kt_vt *vt,
				   struct rtc *c, const char *ip, bool carrier)
{
	struct net_device *nd = vt == &cib.a ? cib.nda : cib.ndb;
	unsigned long end = jiffies + EV_WAIT;
	int ret;

	KUNIT_ASSERT_NOT_NULL_MSG(test, nd, "no IPoIB interface on %s",
				  dev_name(&vt->dev->dev));
	KUNIT_ASSERT_EQ(test, nd->type, ARPHRD_INFINIBAND);
	rtnl_lock();
	ret = dev_change_flags(nd, nd->flags | IFF_UP, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);
	rtc_addr4(test, c, nd, ip);
	/* the broadcast group joined: the link's Q_Key and MTU known */
	while (carrier && !netif_carrier_ok(nd) && time_before(jiffies, end))
		msleep(20);
	KUNIT_ASSERT_TRUE_MSG(test, !carrier || netif_carrier_ok(nd),
			      "%s: no carrier (broadcast group not joined)",
			      nd->name);
	return nd;
}

static void fx_ipoib(struct fx *fx, bool carrier)
{
	fx->nda = ipoib_up(fx->test, fx->a, fx->rtc, ip_a, carrier);
	fx->ndb = ipoib_up(fx->test, fx->b, fx->rtc, ip_b, carrier);
}

/* The path S answers with: @sgid/@slid to @dgid/@dlid, in full. */
static void fx_set_path(struct fx *fx, const union ib_gid *sgid, u16 slid,
			const union ib_gid *dgid, u16 dlid, enum ib_mtu mtu,
			u8 sl)
{
	struct sa_path_rec p = {};

	p.rec_type = SA_PATH_REC_TYPE_IB;
	p.sgid = *sgid;
	p.dgid = *dgid;
	p.ib.slid = cpu_to_be16(slid);
	p.ib.dlid = cpu_to_be16(dlid);
	p.reversible = 1;
	p.numb_path = 1;
	p.pkey = cpu_to_be16(0xffff);
	p.sl = sl;
	p.mtu_selector = IB_SA_EQ;
	p.mtu = mtu;
	p.rate_selector = IB_SA_EQ;
	p.rate = IB_RATE_10_GBPS;
	p.packet_life_time_selector = IB_SA_EQ;
	p.packet_life_time = PATH_PLT;
	spin_lock(&fx->sa->lock);
	fx->sa->path = p;
	spin_unlock(&fx->sa->lock);
}

/* ------------------------------------------------------------------
 * Owners of ids: every event logged
 */

struct tev {
	enum rdma_cm_event_type	type;
	int			status;
	struct rdma_cm_id	*id;
	u8			priv[64];
	u8			priv_len;
	struct rdma_conn_param	conn;
	u32			qp_num;
	u32			qkey;
	struct rdma_ah_attr	ah;
	void			*ud_context;
};

struct tpeer {
	struct kunit		*test;
	spinlock_t		lock;	/* @n, @ev, @ids */
	wait_queue_head_t	wq;
	int			n;
	struct tev		ev[EV_MAX];
	struct {
		struct rdma_cm_id *id;
		bool		gone;	/* rdma_cm destroyed it */
	} ids[IDS_MAX];
	int			nids;
	/* the handler returns non-zero for this event (-1: never) */
	int			fail_on;
	/* a CONNECT_REQUEST handler rejects with this data (NULL: no) */
	const char		*reject_with;
};

static void tp_track(struct tpeer *p, struct rdma_cm_id *id)
{
	spin_lock(&p->lock);
	if (!WARN_ON(p->nids >= IDS_MAX))
		p->ids[p->nids++].id = id;
	spin_unlock(&p->lock);
}

static int tp_handler(struct rdma_cm_id *id, struct rdma_cm_event *e)
{
	struct tpeer *p = id->context;
	struct tev ev = { .type = e->event, .status = e->status, .id = id };
	bool ud = id->qp_type == IB_QPT_UD;
	const void *data = NULL;
	int ret = 0;
	int i;

	switch (e->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
	case RDMA_CM_EVENT_CONNECT_RESPONSE:
	case RDMA_CM_EVENT_ESTABLISHED:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_UNREACHABLE:
		if (ud) {
			data = e->param.ud.private_data;
			ev.priv_len = e->param.ud.private_data_len;
			ev.qp_num = e->param.ud.qp_num;
			ev.qkey = e->param.ud.qkey;
			ev.ah = e->param.ud.ah_attr;
			ev.ah.grh.sgid_attr = NULL;
		} else {
			data = e->param.conn.private_data;
			ev.priv_len = e->param.conn.private_data_len;
			ev.conn = e->param.conn;
			ev.conn.private_data = NULL;
		}
		break;
	case RDMA_CM_EVENT_MULTICAST_JOIN:
	case RDMA_CM_EVENT_MULTICAST_ERROR:
		ev.ud_context = (void *)e->param.ud.private_data;
		ev.qp_num = e->param.ud.qp_num;
		ev.qkey = e->param.ud.qkey;
		ev.ah = e->param.ud.ah_attr;
		ev.ah.grh.sgid_attr = NULL;
		break;
	default:
		break;
	}
	if (data)
		memcpy(ev.priv, data, min_t(u8, ev.priv_len, sizeof(ev.priv)));

	if (e->event == RDMA_CM_EVENT_CONNECT_REQUEST && p->reject_with)
		KUNIT_EXPECT_EQ(p->test,
				rdma_reject(id, p->reject_with,
					    strlen(p->reject_with),
					    IB_CM_REJ_CONSUMER_DEFINED), 0);
	if (p->fail_on == e->event)
		ret = -ECONNABORTED;
	if (e->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		/* a new id: the case's, unless rdma_cm destroys it */
		if (!ret)
			tp_track(p, id);
	} else if (ret) {
		spin_lock(&p->lock);
		for (i = 0; i < p->nids; i++)
			if (p->ids[i].id == id)
				p->ids[i].gone = true;
		spin_unlock(&p->lock);
	}

	spin_lock(&p->lock);
	if (p->n < EV_MAX)
		p->ev[p->n++] = ev;
	spin_unlock(&p->lock);
	wake_up_all(&p->wq);
	return ret;
}

/* KUnit action: destroy the ids of a peer rdma_cm did not destroy. */
static void tp_destroy_ids(void *arg)
{
	struct tpeer *p = arg;
	int i;

	for (i = p->nids - 1; i >= 0; i--)
		if (!p->ids[i].gone)
			rdma_destroy_id(p->ids[i].id);
	p->nids = 0;
}

static struct tpeer *new_peer(struct kunit *test)
{
	struct tpeer *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->test = test;
	spin_lock_init(&p->lock);
	init_waitqueue_head(&p->wq);
	p->fail_on = -1;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tp_destroy_ids,
							p), 0);
	return p;
}

static struct rdma_cm_id *tp_new_id(struct kunit *test, struct tpeer *p,
				    enum rdma_ucm_port_space ps,
				    enum ib_qp_type qp_type)
{
	struct rdma_cm_id *id = rdma_create_id(&init_net, tp_handler, p, ps,
					       qp_type);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, id);
	tp_track(p, id);
	return id;
}

/* Event @idx of @p (waited for), which must be a @type. */
static struct tev *tp_wait(struct kunit *test, struct tpeer *p, int idx,
			   enum rdma_cm_event_type type)
{
	int n;

	wait_event_timeout(p->wq, READ_ONCE(p->n) > idx, EV_WAIT);
	n = READ_ONCE(p->n);
	KUNIT_ASSERT_GT_MSG(test, n, idx, "event %d (%s) never came", idx,
			    rdma_event_msg(type));
	KUNIT_ASSERT_EQ_MSG(test, p->ev[idx].type, type,
			    "event %d is %s (status %d), not %s", idx,
			    rdma_event_msg(p->ev[idx].type), p->ev[idx].status,
			    rdma_event_msg(type));
	return &p->ev[idx];
}

static enum rdma_cm_state st(struct rdma_cm_id *id)
{
	return READ_ONCE(to_id_priv(id)->state);
}

static struct sockaddr *ip4(struct sockaddr_storage *ss, const char *ip,
			    u16 port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = in_aton(ip);
	sin->sin_port = htons(port);
	return (struct sockaddr *)ss;
}

/* An AF_IB address: @gid, P_Key 0xffff, the IB port space's @port. */
static struct sockaddr *ibaddr(struct sockaddr_storage *ss,
			       const union ib_gid *gid, u16 port)
{
	struct sockaddr_ib *sib = (struct sockaddr_ib *)ss;

	memset(ss, 0, sizeof(*ss));
	sib->sib_family = AF_IB;
	sib->sib_pkey = cpu_to_be16(0xffff);
	memcpy(&sib->sib_addr, gid, sizeof(*gid));
	sib->sib_sid = cpu_to_be64(RDMA_IB_IP_PS_IB | port);
	sib->sib_sid_mask = cpu_to_be64(~0ULL);
	return (struct sockaddr *)ss;
}

/* rdma_resolve_addr() from A's GID to @dst's, port @port (AF_IB). */
static int resolve_ib(struct rdma_cm_id *id, const union ib_gid *src,
		      const union ib_gid *dst, u16 port)
{
	struct sockaddr_storage *ss = kcalloc(2, sizeof(*ss), GFP_KERNEL);
	int ret;

	if (!ss)
		return -ENOMEM;
	ret = rdma_resolve_addr(id, ibaddr(&ss[0], src, 0),
				ibaddr(&ss[1], dst, port), 2000);
	kfree(ss);
	return ret;
}

/* ------------------------------------------------------------------
 * QPs and data
 */

struct tqp {
	struct rdma_cm_id	*id;
	struct ib_pd		*pd;
	struct ib_cq		*cq;
	struct ib_qp		*qp;
	u8			*buf;
};

static void tq_destroy(void *arg)
{
	struct tqp *q = arg;

	if (q->id)
		rdma_destroy_qp(q->id);
	else
		ib_destroy_qp(q->qp);
}

/*
 * A QP of @type for @id on @pd (rdma_create_qp()), or with @own a QP the
 * case makes itself and moves through its states (rdma_cm has none).
 */
static struct tqp *tq_new(struct kunit *test, struct rdma_cm_id *id,
			  struct ib_pd *pd, enum ib_qp_type type, bool own)
{
	struct tqp *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	struct ib_qp_init_attr attr = {
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct kt_vt vt = { .dev = pd->device, .pd = pd };

	KUNIT_ASSERT_NOT_NULL(test, q);
	q->buf = kunit_kzalloc(test, BUF_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, q->buf);
	q->pd = pd;
	q->cq = kt_new_direct_cq(test, &vt);
	attr.send_cq = q->cq;
	attr.recv_cq = q->cq;
	if (own) {
		q->qp = ib_create_qp(pd, &attr);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, q->qp);
	} else {
		KUNIT_ASSERT_EQ(test, rdma_create_qp(id, pd, &attr), 0);
		q->id = id;
		q->qp = id->qp;
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tq_destroy, q),
			0);
	return q;
}

/* Move a QP of the case's own to @state with rdma_cm's attributes. */
static void tq_modify(struct kunit *test, struct tqp *q, struct rdma_cm_id *id,
		      enum ib_qp_state state)
{
	struct ib_qp_attr attr = { .qp_state = state };
	int mask;

	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(id, &attr, &mask), 0);
	/* a UD QP takes only its state (and the SQ PSN) after INIT */
	if (state == IB_QPS_RTR && q->qp->qp_type == IB_QPT_UD)
		mask = IB_QP_STATE;
	if (state == IB_QPS_RTS && q->qp->qp_type == IB_QPT_UD) {
		attr.sq_psn = 0;
		mask = IB_QP_STATE | IB_QP_SQ_PSN;
	}
	KUNIT_ASSERT_EQ(test, ib_modify_qp(q->qp, &attr, mask), 0);
}

static void tq_post_recv(struct kunit *test, struct tqp *q,
			 struct kt_tcqe *t, u32 len)
{
	struct ib_sge sge = kt_sge_of(q->pd, q->buf, len);
	struct ib_recv_wr wr = { .wr_cqe = &t->cqe, .sg_list = &sge,
				 .num_sge = 1 };

	KUNIT_ASSERT_EQ(test, ib_post_recv(q->qp, &wr, NULL), 0);
}

/* SEND, RDMA WRITE and RDMA READ from @a to @b, each checked. */
static void tq_rc_traffic(struct kunit *test, struct tqp *a, struct tqp *b)
{
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	struct ib_sge sge;
	struct ib_send_wr wr = { .num_sge = 1, .send_flags = IB_SEND_SIGNALED };
	struct ib_rdma_wr rwr = { .wr = wr };

	/* SEND */
	memcpy(a->buf, "send over ib", 12);
	tq_post_recv(test, b, r, BUF_LEN);
	sge = kt_sge_of(a->pd, a->buf, 12);
	wr.wr_cqe = &s->cqe;
	wr.sg_list = &sge;
	wr.opcode = IB_WR_SEND;
	KUNIT_ASSERT_EQ(test, ib_post_send(a->qp, &wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(a->cq, s));
	KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(b->cq, r));
	KUNIT_EXPECT_EQ(test, r->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, 12);
	KUNIT_EXPECT_MEMEQ(test, b->buf, "send over ib", 12);

	/* RDMA WRITE into b's buffer */
	kt_tcqe_reinit(s);
	memcpy(a->buf, "written", 7);
	sge = kt_sge_of(a->pd, a->buf, 7);
	rwr.wr.wr_cqe = &s->cqe;
	rwr.wr.sg_list = &sge;
	rwr.wr.num_sge = 1;
	rwr.wr.send_flags = IB_SEND_SIGNALED;
	rwr.wr.opcode = IB_WR_RDMA_WRITE;
	rwr.remote_addr = ib_dma_map_single(b->pd->device, b->buf + 64, 7,
					    DMA_BIDIRECTIONAL);
	rwr.rkey = b->pd->unsafe_global_rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(a->qp, &rwr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(a->cq, s));
	KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_MEMEQ(test, b->buf + 64, "written", 7);

	/* RDMA READ of b's buffer */
	kt_tcqe_reinit(s);
	memcpy(b->buf + 128, "read back", 9);
	memset(a->buf, 0, BUF_LEN);
	sge = kt_sge_of(a->pd, a->buf, 9);
	rwr.wr.opcode = IB_WR_RDMA_READ;
	rwr.remote_addr = ib_dma_map_single(b->pd->device, b->buf + 128, 9,
					    DMA_BIDIRECTIONAL);
	KUNIT_ASSERT_EQ(test, ib_post_send(a->qp, &rwr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(a->cq, s));
	KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_MEMEQ(test, a->buf, "read back", 9);
}

static enum ib_qp_state tq_state(struct tqp *q)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	if (ib_query_qp(q->qp, &attr, IB_QP_STATE, &init))
		return -1;
	return attr.qp_state;
}

/* ------------------------------------------------------------------
 * Cases: routes (step 2)
 */

/* What the SA saw of the last PathRecord Get, as a record. */
static void sa_last_path(struct fx *fx, struct sa_path_rec *rec,
			 ib_sa_comp_mask *mask)
{
	struct ib_sa_mad mad = KT_FSA_READ(fx->sa, last_path);

	memset(rec, 0, sizeof(*rec));
	rec->rec_type = SA_PATH_REC_TYPE_IB;
	ib_sa_unpack_path(mad.data, rec);
	*mask = mad.sa_hdr.comp_mask;
}

/* Resolve @id to @dst and route it; the events are 0 and 1 of @p. */
static void resolve_and_route(struct kunit *test, struct tpeer *p,
			      struct rdma_cm_id *id, struct sockaddr *src,
			      struct sockaddr *dst)
{
	int base = READ_ONCE(p->n);

	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(id, src, dst, 2000), 0);
	tp_wait(test, p, base, RDMA_CM_EVENT_ADDR_RESOLVED);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(id, 2000), 0);
	tp_wait(test, p, base + 1, RDMA_CM_EVENT_ROUTE_RESOLVED);
	KUNIT_ASSERT_EQ(test, st(id), RDMA_CM_ROUTE_RESOLVED);
}

/*
 * An IP address over IPoIB: the id lands on the port of the IPoIB
 * interface, its GIDs and P_Key come from the hardware addresses; the
 * route is the SA's answer to a PathRecord Get for exactly those, the
 * service ID of the TCP port space and port, and the ToS as QoS class.
 */
static void cma_ib_route_from_sa(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *p = new_peer(test);
	struct rdma_cm_id *id;
	struct sockaddr_storage dst;
	union ib_gid sgid, dgid;
	struct sa_path_rec seen;
	ib_sa_comp_mask mask;
	int n_path;

	fx_ipoib(fx, false);
	fx_set_path(fx, &fx->gid_b, fx->lid_b, &fx->gid_b, fx->lid_b,
		    IB_MTU_1024, 3);
	id = tp_new_id(test, p, RDMA_PS_TCP, IB_QPT_RC);
	rdma_set_service_type(id, 0x28);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(id, NULL,
						ip4(&dst, ip_b, 4791), 2000),
			0);
	tp_wait(test, p, 0, RDMA_CM_EVENT_ADDR_RESOLVED);
	KUNIT_EXPECT_PTR_EQ(test, id->device, fx->b->dev);
	KUNIT_EXPECT_EQ(test, id->port_num, 1);
	KUNIT_EXPECT_EQ(test, id->route.addr.dev_addr.dev_type,
			ARPHRD_INFINIBAND);
	KUNIT_EXPECT_EQ(test, ib_addr_get_pkey(&id->route.addr.dev_addr),
			0xffff);
	rdma_read_gids(id, &sgid, &dgid);
	KUNIT_EXPECT_MEMEQ(test, sgid.raw, fx->gid_b.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, dgid.raw, fx->gid_b.raw, 16);

	n_path = KT_FSA_READ(fx->sa, n_path);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(id, 2000), 0);
	tp_wait(test, p, 1, RDMA_CM_EVENT_ROUTE_RESOLVED);
	KUNIT_EXPECT_EQ(test, st(id), RDMA_CM_ROUTE_RESOLVED);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(fx->sa, n_path), n_path + 1);
	sa_last_path(fx, &seen, &mask);
	KUNIT_EXPECT_MEMEQ(test, seen.sgid.raw, fx->gid_b.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, seen.dgid.raw, fx->gid_b.raw, 16);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(seen.pkey), 0xffff);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(seen.service_id),
			RDMA_IB_IP_PS_TCP | 4791);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(seen.qos_class), 0x28);
	KUNIT_EXPECT_EQ(test, seen.numb_path, 1);
	KUNIT_EXPECT_EQ(test, seen.reversible, 1);
	KUNIT_EXPECT_EQ(test, (__force u64)mask,
			(__force u64)(IB_SA_PATH_REC_DGID | IB_SA_PATH_REC_SGID |
				    IB_SA_PATH_REC_PKEY |
				    IB_SA_PATH_REC_NUMB_PATH |
				    IB_SA_PATH_REC_REVERSIBLE |
				    IB_SA_PATH_REC_SERVICE_ID |
				    IB_SA_PATH_REC_QOS_CLASS));
	/* the route is the SA's answer */
	KUNIT_ASSERT_NOT_NULL(test, id->route.path_rec);
	KUNIT_EXPECT_EQ(test, id->route.num_pri_alt_paths, 1);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(id->route.path_rec->ib.dlid),
			fx->lid_b);
	KUNIT_EXPECT_EQ(test, id->route.path_rec->mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, id->route.path_rec->sl, 3);
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(id, 2000), -EINVAL);
}

/*
 * A remote IP address over IPoIB: the neighbour's hardware address (QPN
 * and GID) gives the destination GID, the interface's the source GID
 * and the broadcast address the P_Key.
 */
static void cma_ib_addr_ipoib_neigh(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *p = new_peer(test);
	struct rtc *c = rtc_open(test);
	u8 ha[INFINIBAND_ALEN];
	struct sockaddr_storage dst;
	union ib_gid sgid, dgid;
	struct rdma_cm_id *id;

	fx->nda = ipoib_up(test, fx->a, c, ip_a, false);
	ipoib_make_hwaddr(ha, 0, 0x123456, &fx->gid_b);
	rtc_neigh4(test, c, fx->nda, "10.201.1.9", ha);

	id = tp_new_id(test, p, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(id, NULL,
						ip4(&dst, "10.201.1.9", 1),
						2000), 0);
	tp_wait(test, p, 0, RDMA_CM_EVENT_ADDR_RESOLVED);
	KUNIT_EXPECT_PTR_EQ(test, id->device, fx->a->dev);
	KUNIT_EXPECT_EQ(test, id->route.addr.dev_addr.bound_dev_if,
			fx->nda->ifindex);
	KUNIT_EXPECT_MEMEQ(test, id->route.addr.dev_addr.dst_dev_addr, ha,
			   INFINIBAND_ALEN);
	rdma_read_gids(id, &sgid, &dgid);
	KUNIT_EXPECT_MEMEQ(test, sgid.raw, fx->gid_a.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, dgid.raw, fx->gid_b.raw, 16);
	KUNIT_EXPECT_EQ(test, ib_addr_get_pkey(&id->route.addr.dev_addr),
			0xffff);
	/* the source is the interface's address */
	KUNIT_EXPECT_EQ(test,
			ntohl(((struct sockaddr_in *)&id->route.addr.src_addr)->sin_addr.s_addr),
			ntohl(in_aton(ip_a)));
}

/*
 * The SA answers an error, or nothing: ROUTE_ERROR with the errno, the
 * id ADDR_RESOLVED again, and a new query may start.
 */
static void cma_ib_route_error(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *p = new_peer(test);
	struct sockaddr_storage dst;
	struct rdma_cm_id *id;
	struct tev *ev;

	id = tp_new_id(test, p, RDMA_PS_IB, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(id, ibaddr(&dst, &fx->gid_a, 0)),
			0);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(id, NULL,
						ibaddr(&dst, &fx->gid_b, 9),
						2000), 0);
	tp_wait(test, p, 0, RDMA_CM_EVENT_ADDR_RESOLVED);

	spin_lock(&fx->sa->lock);
	fx->sa->status = KT_SA_ERR_NO_RECORDS;
	spin_unlock(&fx->sa->lock);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(id, 2000), 0);
	ev = tp_wait(test, p, 1, RDMA_CM_EVENT_ROUTE_ERROR);
	KUNIT_EXPECT_LT(test, ev->status, 0);
	KUNIT_EXPECT_EQ(test, st(id), RDMA_CM_ADDR_RESOLVED);

	spin_lock(&fx->sa->lock);
	fx->sa->status = 0;
	fx->sa->silent = true;
	spin_unlock(&fx->sa->lock);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(id, 300), 0);
	ev = tp_wait(test, p, 2, RDMA_CM_EVENT_ROUTE_ERROR);
	KUNIT_EXPECT_EQ(test, ev->status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, st(id), RDMA_CM_ADDR_RESOLVED);

	spin_lock(&fx->sa->lock);
	fx->sa->silent = false;
	spin_unlock(&fx->sa->lock);
	fx_set_path(fx, &fx->gid_a, fx->lid_a, &fx->gid_b, fx->lid_b,
		    IB_MTU_2048, 0);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(id, 2000), 0);
	tp_wait(test, p, 3, RDMA_CM_EVENT_ROUTE_RESOLVED);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(id->route.path_rec->ib.dlid),
			fx->lid_b);
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(id, 0), -EINVAL);
}

/*
 * A route destroyed while its SA query is out: the query is cancelled,
 * no event reaches the owner and the id is freed (kmemleak and KASAN
 * watch).
 */
static void cma_ib_route_destroyed(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *p = new_peer(test);
	struct rdma_cm_id *id;

	id = rdma_create_id(&init_net, tp_handler, p, RDMA_PS_IB, IB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, id);
	KUNIT_ASSERT_EQ(test, resolve_ib(id, &fx->gid_a, &fx->gid_b, 9), 0);
	tp_wait(test, p, 0, RDMA_CM_EVENT_ADDR_RESOLVED);
	spin_lock(&fx->sa->lock);
	fx->sa->hold = true;
	spin_unlock(&fx->sa->lock);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(id, 5000), 0);
	KUNIT_ASSERT_TRUE(test, KT_FSA_WAIT(fx->sa, __s->n_held == 1));
	rdma_destroy_id(id);
	/* the answer now finds no query */
	kt_fsa_answer_held(fx->sa);
	/*
	 * A second id's route, answered after it: once its event came, A has
	 * handled the first answer too (QP1 in order, cma_wq in order).
	 */
	id = tp_new_id(test, p, RDMA_PS_IB, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, resolve_ib(id, &fx->gid_a, &fx->gid_b, 9), 0);
	tp_wait(test, p, 1, RDMA_CM_EVENT_ADDR_RESOLVED);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(id, 5000), 0);
	tp_wait(test, p, 2, RDMA_CM_EVENT_ROUTE_RESOLVED);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(fx->sa, n_path), 2);
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->n), 3);
}

/*
 * rdma_set_ib_path(): the route without a query (no event, the SA
 * asked nothing); only ADDR_RESOLVED ids take one.
 */
static void cma_ib_set_ib_path(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *p = new_peer(test);
	struct sa_path_rec path = {};
	struct rdma_cm_id *id;
	int n_path = KT_FSA_READ(fx->sa, n_path);

	id = tp_new_id(test, p, RDMA_PS_IB, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, rdma_set_ib_path(id, &path), -EINVAL);
	KUNIT_ASSERT_EQ(test, resolve_ib(id, &fx->gid_a, &fx->gid_b, 9), 0);
	tp_wait(test, p, 0, RDMA_CM_EVENT_ADDR_RESOLVED);
	path.rec_type = SA_PATH_REC_TYPE_IB;
	path.sgid = fx->gid_a;
	path.dgid = fx->gid_b;
	path.ib.slid = cpu_to_be16(fx->lid_a);
	path.ib.dlid = cpu_to_be16(fx->lid_b);
	path.mtu = IB_MTU_512;
	path.sl = 5;
	KUNIT_ASSERT_EQ(test, rdma_set_ib_path(id, &path), 0);
	KUNIT_EXPECT_EQ(test, st(id), RDMA_CM_ROUTE_RESOLVED);
	KUNIT_ASSERT_NOT_NULL(test, id->route.path_rec);
	KUNIT_EXPECT_EQ(test, id->route.path_rec->mtu, IB_MTU_512);
	KUNIT_EXPECT_EQ(test, id->route.path_rec->sl, 5);
	KUNIT_EXPECT_EQ(test, id->route.num_pri_alt_paths, 1);
	KUNIT_EXPECT_EQ(test, rdma_set_ib_path(id, &path), -EINVAL);
	KUNIT_EXPECT_EQ(test, KT_FSA_READ(fx->sa, n_path), n_path);
	KUNIT_EXPECT_EQ(test, READ_ONCE(p->n), 1);
}

/* ------------------------------------------------------------------
 * Cases: RC connections (step 1)
 */

/* A listener of @p on @addr (bound first), backlog 4. */
static struct rdma_cm_id *listen_on(struct kunit *test, struct tpeer *p,
				    enum rdma_ucm_port_space ps,
				    enum ib_qp_type type, struct sockaddr *addr)
{
	struct rdma_cm_id *id = tp_new_id(test, p, ps, type);

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(id, addr), 0);
	KUNIT_ASSERT_EQ(test, rdma_listen(id, 4), 0);
	KUNIT_EXPECT_EQ(test, st(id), RDMA_CM_LISTEN);
	return id;
}

static void accept_locked(struct kunit *test, struct rdma_cm_id *id,
			  struct rdma_conn_param *param, int want)
{
	rdma_lock_handler(id);
	KUNIT_EXPECT_EQ(test, rdma_accept(id, param), want);
	rdma_unlock_handler(id);
}

/*
 * IP over IPoIB, both ends on B's port: a REQ with rdma_cm's header
 * (the server's new id has both IP addresses and the owner's data after
 * the header), REP with the server's data, RTU; the QP attributes come
 * from the path and from rdma_set_ack_timeout()/rdma_set_min_rnr_timer();
 * SEND, RDMA WRITE and READ; a disconnect (DREQ, DREP), both QPs in
 * error, and both ids' time wait ending.
 */
static void cma_ib_rc_ip_connect(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *srv = new_peer(test), *cli = new_peer(test);
	struct rdma_conn_param param = {
		.private_data = "hello", .private_data_len = 5,
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 7, .rnr_retry_count = 7,
	};
	struct sockaddr_storage ss;
	struct rdma_cm_id *lid, *cid, *sid;
	struct tqp *cq, *sq;
	struct ib_qp_attr attr;
	struct sockaddr_in *sin;
	struct tev *ev;
	int mask;

	fx_ipoib(fx, false);
	fx_set_path(fx, &fx->gid_b, fx->lid_b, &fx->gid_b, fx->lid_b,
		    IB_MTU_1024, 3);
	lid = listen_on(test, srv, RDMA_PS_TCP, IB_QPT_RC,
			ip4(&ss, ip_b, fx->port));
	KUNIT_EXPECT_PTR_EQ(test, lid->device, fx->b->dev);

	cid = tp_new_id(test, cli, RDMA_PS_TCP, IB_QPT_RC);
	resolve_and_route(test, cli, cid, NULL, ip4(&ss, ip_b, fx->port));
	KUNIT_ASSERT_EQ(test, rdma_set_ack_timeout(cid, 17), 0);
	cq = tq_new(test, cid, fx->pdb, IB_QPT_RC, false);
	KUNIT_ASSERT_EQ(test, rdma_connect(cid, &param), 0);
	KUNIT_EXPECT_EQ(test, st(cid), RDMA_CM_CONNECT);

	ev = tp_wait(test, srv, 0, RDMA_CM_EVENT_CONNECT_REQUEST);
	sid = ev->id;
	KUNIT_EXPECT_EQ(test, ev->priv_len, IB_CM_REQ_PRIVATE_DATA_SIZE - CMA_HDR_LEN);
	KUNIT_EXPECT_MEMEQ(test, ev->priv, "hello", 5);
	KUNIT_EXPECT_EQ(test, ev->conn.qp_num, cq->qp->qp_num);
	KUNIT_EXPECT_EQ(test, ev->conn.responder_resources, 1);
	KUNIT_EXPECT_EQ(test, ev->conn.initiator_depth, 1);
	KUNIT_EXPECT_EQ(test, ev->conn.rnr_retry_count, 7);
	KUNIT_EXPECT_PTR_EQ(test, sid->device, fx->b->dev);
	KUNIT_EXPECT_EQ(test, sid->ps, RDMA_PS_TCP);
	KUNIT_EXPECT_EQ(test, st(sid), RDMA_CM_CONNECT);
	sin = (struct sockaddr_in *)&sid->route.addr.src_addr;
	KUNIT_EXPECT_EQ(test, sin->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr), ntohl(in_aton(ip_b)));
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), fx->port);
	sin = (struct sockaddr_in *)&sid->route.addr.dst_addr;
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr), ntohl(in_aton(ip_b)));
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port),
			ntohs(((struct sockaddr_in *)&cid->route.addr.src_addr)->sin_port));
	KUNIT_EXPECT_EQ(test, sid->route.addr.dev_addr.bound_dev_if,
			fx->ndb->ifindex);

	KUNIT_ASSERT_EQ(test, rdma_set_min_rnr_timer(sid, IB_RNR_TIMER_000_32),
			0);
	sq = tq_new(test, sid, fx->pdb, IB_QPT_RC, false);
	param.private_data = "world";
	accept_locked(test, sid, &param, 0);

	ev = tp_wait(test, cli, 2, RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ev->priv_len, IB_CM_REP_PRIVATE_DATA_SIZE);
	KUNIT_EXPECT_MEMEQ(test, ev->priv, "world", 5);
	KUNIT_EXPECT_EQ(test, ev->conn.qp_num, sq->qp->qp_num);
	tp_wait(test, srv, 1, RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, tq_state(cq), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, tq_state(sq), IB_QPS_RTS);

	/* the QP's attributes from the path and the options */
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_INIT;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(cid, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, attr.pkey_index, 0);
	KUNIT_EXPECT_EQ(test, attr.port_num, 1);
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(cid, &attr, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_PATH_MTU);
	KUNIT_EXPECT_EQ(test, attr.path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr.ah_attr), fx->lid_b);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&attr.ah_attr), 3);
	KUNIT_EXPECT_EQ(test, attr.dest_qp_num, sq->qp->qp_num);
	KUNIT_EXPECT_EQ(test, attr.rq_psn, to_id_priv(cid)->seq_num);
	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(cid, &attr, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_TIMEOUT);
	KUNIT_EXPECT_EQ(test, attr.timeout, 17);
	KUNIT_EXPECT_EQ(test, attr.sq_psn, to_id_priv(sid)->seq_num);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(sid, &attr, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_MIN_RNR_TIMER);
	KUNIT_EXPECT_EQ(test, attr.min_rnr_timer, IB_RNR_TIMER_000_32);
	KUNIT_EXPECT_EQ(test, attr.dest_qp_num, cq->qp->qp_num);
	/* the server's QP took its attributes: min RNR timer and timeout */
	KUNIT_ASSERT_EQ(test, ib_query_qp(sq->qp, &attr,
					  IB_QP_MIN_RNR_TIMER | IB_QP_TIMEOUT,
					  &(struct ib_qp_init_attr){}), 0);
	KUNIT_EXPECT_EQ(test, attr.min_rnr_timer, IB_RNR_TIMER_000_32);
	KUNIT_ASSERT_EQ(test, ib_query_qp(cq->qp, &attr, IB_QP_TIMEOUT,
					  &(struct ib_qp_init_attr){}), 0);
	KUNIT_EXPECT_EQ(test, attr.timeout, 17);

	tq_rc_traffic(test, cq, sq);
	tq_rc_traffic(test, sq, cq);

	/* the client disconnects: DREQ; the server answers with a DREP */
	KUNIT_ASSERT_EQ(test, rdma_disconnect(cid), 0);
	tp_wait(test, srv, 2, RDMA_CM_EVENT_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, st(sid), RDMA_CM_DISCONNECT);
	KUNIT_EXPECT_EQ(test, tq_state(cq), IB_QPS_ERR);
	KUNIT_ASSERT_EQ(test, rdma_disconnect(sid), 0);
	tp_wait(test, cli, 3, RDMA_CM_EVENT_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, tq_state(sq), IB_QPS_ERR);
	tp_wait(test, cli, 4, RDMA_CM_EVENT_TIMEWAIT_EXIT);
	tp_wait(test, srv, 3, RDMA_CM_EVENT_TIMEWAIT_EXIT);
	KUNIT_EXPECT_EQ(test, st(cid), RDMA_CM_DISCONNECT);
}

/*
 * The server refuses with data of its own: REJECTED with the consumer's
 * reason and data; a connect to a port nobody listens on is refused by
 * the IB CM itself (invalid service ID: no consumer data).
 */
static void cma_ib_rc_reject(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *srv = new_peer(test), *cli = new_peer(test);
	struct rdma_conn_param param = { .retry_count = 7 };
	struct sockaddr_storage ss;
	struct rdma_cm_id *cid, *cid2;
	struct rdma_cm_event rej = {};
	const void *data;
	struct tqp *cq;
	struct tev *ev;
	u8 len;

	fx_ipoib(fx, false);
	fx_set_path(fx, &fx->gid_b, fx->lid_b, &fx->gid_b, fx->lid_b,
		    IB_MTU_2048, 0);
	srv->reject_with = "not you";
	listen_on(test, srv, RDMA_PS_TCP, IB_QPT_RC, ip4(&ss, ip_b, fx->port));

	cid = tp_new_id(test, cli, RDMA_PS_TCP, IB_QPT_RC);
	resolve_and_route(test, cli, cid, NULL, ip4(&ss, ip_b, fx->port));
	cq = tq_new(test, cid, fx->pdb, IB_QPT_RC, false);
	KUNIT_ASSERT_EQ(test, rdma_connect(cid, &param), 0);
	tp_wait(test, srv, 0, RDMA_CM_EVENT_CONNECT_REQUEST);
	ev = tp_wait(test, cli, 2, RDMA_CM_EVENT_REJECTED);
	KUNIT_EXPECT_EQ(test, ev->status, IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_STREQ(test, rdma_reject_msg(cid, ev->status),
			   "consumer defined");
	rej.event = RDMA_CM_EVENT_REJECTED;
	rej.status = ev->status;
	rej.param.conn.private_data = ev->priv;
	rej.param.conn.private_data_len = ev->priv_len;
	data = rdma_consumer_reject_data(cid, &rej, &len);
	KUNIT_EXPECT_EQ(test, len, IB_CM_REJ_PRIVATE_DATA_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_EXPECT_MEMEQ(test, data, "not you", 7);
	KUNIT_EXPECT_EQ(test, tq_state(cq), IB_QPS_ERR);

	/* nobody listens on the next port */
	cid2 = tp_new_id(test, cli, RDMA_PS_TCP, IB_QPT_RC);
	resolve_and_route(test, cli, cid2, NULL,
			  ip4(&ss, ip_b, fx->port + 1));
	param.qp_num = 0x77;
	KUNIT_ASSERT_EQ(test, rdma_connect(cid2, &param), 0);
	ev = tp_wait(test, cli, 5, RDMA_CM_EVENT_REJECTED);
	KUNIT_EXPECT_PTR_EQ(test, ev->id, cid2);
	KUNIT_EXPECT_EQ(test, ev->status, IB_CM_REJ_INVALID_SERVICE_ID);
	rej.status = ev->status;
	KUNIT_EXPECT_NULL(test, rdma_consumer_reject_data(cid2, &rej, &len));
	KUNIT_EXPECT_EQ(test, len, 0);
	KUNIT_EXPECT_STREQ(test, rdma_reject_msg(cid2, ev->status),
			   "invalid service ID");
}

/* Refusals, each with its errno, and the id left where it was. */
static void cma_ib_rc_errors(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *srv = new_peer(test), *cli = new_peer(test);
	u8 *big = kunit_kzalloc(test, 256, GFP_KERNEL);
	struct rdma_conn_param param = { .private_data = big };
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct sockaddr_storage ss;
	struct rdma_cm_id *id, *cid, *sid, *ud;
	struct tev *ev;
	int mask;

	KUNIT_ASSERT_NOT_NULL(test, big);
	fx_ipoib(fx, false);
	fx_set_path(fx, &fx->gid_b, fx->lid_b, &fx->gid_b, fx->lid_b,
		    IB_MTU_2048, 0);

	/* no connection yet: nothing to accept, reject, tear down, notify */
	id = tp_new_id(test, cli, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(id, ip4(&ss, ip_b, 0)), 0);
	KUNIT_EXPECT_PTR_EQ(test, id->device, fx->b->dev);
	accept_locked(test, id, &param, -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_reject(id, NULL, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_disconnect(id), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_notify(id, IB_EVENT_COMM_EST), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_connect(id, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(id, 1000), -EINVAL);
	/* INIT without a connection: the port's P_Key index, no access */
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_STATE | IB_QP_PKEY_INDEX |
			IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	KUNIT_EXPECT_EQ(test, attr.qp_access_flags, 0);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(id, 0x20), -EINVAL);
	ud = tp_new_id(test, cli, RDMA_PS_UDP, IB_QPT_UD);
	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(ud, 10), -EINVAL);
	/* a UD id's INIT has the UDP port space's Q_Key */
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(ud, ip4(&ss, ip_b, 0)), 0);
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(ud, &attr, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_QKEY);
	KUNIT_EXPECT_EQ(test, attr.qkey, RDMA_UDP_QKEY);

	/* a port is listened on once */
	listen_on(test, srv, RDMA_PS_TCP, IB_QPT_RC, ip4(&ss, ip_b, fx->port));
	id = tp_new_id(test, srv, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, ip4(&ss, ip_b, fx->port)),
			-EADDRINUSE);

	/* 36 bytes of header leave 56 for the owner in a REQ */
	cid = tp_new_id(test, cli, RDMA_PS_TCP, IB_QPT_RC);
	resolve_and_route(test, cli, cid, NULL, ip4(&ss, ip_b, fx->port));
	param.private_data_len = IB_CM_REQ_PRIVATE_DATA_SIZE - CMA_HDR_LEN + 1;
	KUNIT_EXPECT_EQ(test, rdma_connect(cid, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, st(cid), RDMA_CM_ROUTE_RESOLVED);
	param.private_data_len = 250;	/* over a u8 with the header */
	KUNIT_EXPECT_EQ(test, rdma_connect(cid, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, st(cid), RDMA_CM_ROUTE_RESOLVED);
	KUNIT_EXPECT_NULL(test, to_id_priv(cid)->cm_id.ib);
	memset(big, 0x5a, 256);
	param.private_data_len = IB_CM_REQ_PRIVATE_DATA_SIZE - CMA_HDR_LEN;
	param.qp_num = 0x99;
	KUNIT_ASSERT_EQ(test, rdma_connect(cid, &param), 0);
	KUNIT_EXPECT_EQ(test, rdma_connect(cid, &param), -EINVAL);
	ev = tp_wait(test, srv, 0, RDMA_CM_EVENT_CONNECT_REQUEST);
	sid = ev->id;
	KUNIT_EXPECT_EQ(test, ev->priv_len, 56);
	KUNIT_EXPECT_EQ(test, ev->priv[0], 0x5a);
	KUNIT_EXPECT_EQ(test, ev->priv[55 > 63 ? 0 : 55], 0x5a);

	/* a REP holds 196 bytes: more fails the accept, which rejects */
	param.private_data_len = IB_CM_REP_PRIVATE_DATA_SIZE + 1;
	param.qp_num = 0x98;
	accept_locked(test, sid, &param, -EINVAL);
	ev = tp_wait(test, cli, 2, RDMA_CM_EVENT_REJECTED);
	KUNIT_EXPECT_EQ(test, ev->status, IB_CM_REJ_CONSUMER_DEFINED);
}

/* A GMP filter of the loop fabric: lose every CM message of @attr. */
struct rtu_filter {
	__be16		attr;
	atomic_t	dropped;
};

static enum rdma_loop_gmp_fate drop_attr(void *ctx, struct ib_device *from,
					 const void *mad)
{
	const struct ib_mad_hdr *hdr = mad;
	struct rtu_filter *f = ctx;

	if (hdr->mgmt_class != IB_MGMT_CLASS_CM || hdr->attr_id != f->attr)
		return RDMA_LOOP_GMP_PASS;
	atomic_inc(&f->dropped);
	return RDMA_LOOP_GMP_DROP;
}

static void filter_off(void *unused)
{
	rdma_loop_set_gmp_filter(NULL, NULL);
}

/*
 * Owners that bring up their QPs themselves (upstream's rules): the
 * client gets CONNECT_RESPONSE instead of ESTABLISHED and answers with
 * rdma_accept() without parameters (the RTU); here the RTU is lost, and
 * the server's owner, whose QP saw data first, tells rdma_cm with
 * rdma_notify(IB_EVENT_COMM_EST): ESTABLISHED.  Between A and B (AF_IB:
 * the fabric's filter sees only what crosses it).
 */
static void cma_ib_rc_own_qp(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *srv = new_peer(test), *cli = new_peer(test);
	struct rtu_filter *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct rdma_conn_param param = {
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 7, .rnr_retry_count = 7,
		.private_data = "\0\0own", .private_data_len = 5,
	};
	struct sockaddr_storage ss;
	unsigned long end = jiffies + EV_WAIT;
	struct rdma_cm_id *cid, *sid;
	struct tqp *cq, *sq;
	struct tev *ev;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->attr = CM_RTU_ATTR_ID;
	KUNIT_ASSERT_EQ(test, rdma_loop_set_gmp_filter(drop_attr, f), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, filter_off,
							NULL), 0);
	fx_set_path(fx, &fx->gid_a, fx->lid_a, &fx->gid_b, fx->lid_b,
		    IB_MTU_2048, 1);
	listen_on(test, srv, RDMA_PS_IB, IB_QPT_RC,
		  ibaddr(&ss, &fx->gid_b, fx->port));

	cid = tp_new_id(test, cli, RDMA_PS_IB, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(cid, ibaddr(&ss, &fx->gid_a, 0)),
			0);
	resolve_and_route(test, cli, cid, NULL,
			  ibaddr(&ss, &fx->gid_b, fx->port));
	cq = tq_new(test, cid, fx->pda, IB_QPT_RC, true);
	tq_modify(test, cq, cid, IB_QPS_INIT);
	param.qp_num = cq->qp->qp_num;
	KUNIT_ASSERT_EQ(test, rdma_connect(cid, &param), 0);

	ev = tp_wait(test, srv, 0, RDMA_CM_EVENT_CONNECT_REQUEST);
	sid = ev->id;
	KUNIT_EXPECT_EQ(test, ev->conn.qp_num, cq->qp->qp_num);
	sq = tq_new(test, sid, fx->pdb, IB_QPT_RC, true);
	tq_modify(test, sq, sid, IB_QPS_INIT);
	tq_modify(test, sq, sid, IB_QPS_RTR);
	tq_modify(test, sq, sid, IB_QPS_RTS);
	param.qp_num = sq->qp->qp_num;
	accept_locked(test, sid, &param, 0);

	ev = tp_wait(test, cli, 2, RDMA_CM_EVENT_CONNECT_RESPONSE);
	KUNIT_EXPECT_EQ(test, ev->conn.qp_num, sq->qp->qp_num);
	KUNIT_EXPECT_EQ(test, st(cid), RDMA_CM_CONNECT);
	KUNIT_EXPECT_EQ(test, tq_state(cq), IB_QPS_INIT);
	/* INIT again, now with the connection's remote access (librdmacm's) */
	tq_modify(test, cq, cid, IB_QPS_INIT);
	tq_modify(test, cq, cid, IB_QPS_RTR);
	tq_modify(test, cq, cid, IB_QPS_RTS);
	accept_locked(test, cid, NULL, 0);
	tq_rc_traffic(test, cq, sq);

	/* the RTU was lost: the server knows of the connection from its QP */
	while (!atomic_read(&f->dropped) && time_before(jiffies, end))
		msleep(20);
	KUNIT_EXPECT_GE(test, atomic_read(&f->dropped), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(srv->n), 1);
	KUNIT_EXPECT_EQ(test, rdma_notify(sid, IB_EVENT_COMM_EST), 0);
	tp_wait(test, srv, 1, RDMA_CM_EVENT_ESTABLISHED);
	tq_rc_traffic(test, sq, cq);
	KUNIT_EXPECT_EQ(test, READ_ONCE(cli->n), 3);

	/* the server disconnects this time */
	KUNIT_ASSERT_EQ(test, rdma_disconnect(sid), 0);
	tp_wait(test, cli, 3, RDMA_CM_EVENT_DISCONNECTED);
	KUNIT_ASSERT_EQ(test, rdma_disconnect(cid), 0);
	tp_wait(test, srv, 2, RDMA_CM_EVENT_DISCONNECTED);
}

/* ------------------------------------------------------------------
 * Cases: AF_IB (step 6)
 */

/*
 * AF_IB ids between A and B: the port space and service ID from the
 * address, the source port found by GID, the route asked by GIDs with
 * the traffic class of the flow information, a REQ without rdma_cm's
 * header, the server's id with the path's GIDs and the service ID as
 * addresses; data both ways.
 */
static void cma_ib_af_ib_connect(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *srv = new_peer(test), *cli = new_peer(test);
	struct rdma_conn_param param = {
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 7, .rnr_retry_count = 7,
		.private_data = "\0\0afib", .private_data_len = 6,
	};
	struct sockaddr_storage ss;
	struct rdma_cm_id *lid, *cid, *sid;
	struct sockaddr_ib *sib;
	struct sa_path_rec seen;
	ib_sa_comp_mask mask;
	struct tqp *cq, *sq;
	struct tev *ev;

	fx_set_path(fx, &fx->gid_a, fx->lid_a, &fx->gid_b, fx->lid_b,
		    IB_MTU_2048, 2);
	lid = listen_on(test, srv, RDMA_PS_IB, IB_QPT_RC,
			ibaddr(&ss, &fx->gid_b, fx->port));
	KUNIT_EXPECT_PTR_EQ(test, lid->device, fx->b->dev);
	sib = (struct sockaddr_ib *)&lid->route.addr.src_addr;
	KUNIT_EXPECT_EQ(test,
			be64_to_cpu(rdma_get_service_id(lid,
							(struct sockaddr *)sib)),
			RDMA_IB_IP_PS_IB | fx->port);
	KUNIT_EXPECT_EQ(test, to_id_priv(lid)->bind_list->ps, RDMA_PS_IB);

	/* port 0: the IB port space gives one; a TCP service ID refused */
	cid = tp_new_id(test, cli, RDMA_PS_UDP, IB_QPT_UD);
	sib = (struct sockaddr_ib *)ibaddr(&ss, &fx->gid_a, 0);
	sib->sib_sid = cpu_to_be64(RDMA_IB_IP_PS_TCP);
	sib->sib_sid_mask = cpu_to_be64(RDMA_IB_IP_PS_MASK);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(cid, (struct sockaddr *)sib),
			-EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, st(cid), RDMA_CM_IDLE);

	cid = tp_new_id(test, cli, RDMA_PS_IB, IB_QPT_RC);
	sib = (struct sockaddr_ib *)ibaddr(&ss, &fx->gid_a, 0);
	sib->sib_flowinfo = cpu_to_be32(0x0a500000);	/* traffic class 0xa5 */
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(cid, (struct sockaddr *)sib), 0);
	KUNIT_EXPECT_PTR_EQ(test, cid->device, fx->a->dev);
	sib = (struct sockaddr_ib *)&cid->route.addr.src_addr;
	KUNIT_EXPECT_EQ(test, be64_to_cpu(sib->sib_sid) & RDMA_IB_IP_PS_MASK,
			RDMA_IB_IP_PS_IB);
	KUNIT_EXPECT_NE(test, be64_to_cpu(sib->sib_sid) & 0xffff, 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(sib->sib_sid_mask), ~0ULL);

	resolve_and_route(test, cli, cid, NULL,
			  ibaddr(&ss, &fx->gid_b, fx->port));
	sa_last_path(fx, &seen, &mask);
	KUNIT_EXPECT_MEMEQ(test, seen.sgid.raw, fx->gid_a.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, seen.dgid.raw, fx->gid_b.raw, 16);
	KUNIT_EXPECT_EQ(test, seen.traffic_class, 0xa5);
	KUNIT_EXPECT_TRUE(test, !!(mask & IB_SA_PATH_REC_TRAFFIC_CLASS));
	KUNIT_EXPECT_FALSE(test, !!(mask & IB_SA_PATH_REC_QOS_CLASS));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(seen.service_id),
			RDMA_IB_IP_PS_IB | fx->port);

	cq = tq_new(test, cid, fx->pda, IB_QPT_RC, false);
	KUNIT_ASSERT_EQ(test, rdma_connect(cid, &param), 0);
	ev = tp_wait(test, srv, 0, RDMA_CM_EVENT_CONNECT_REQUEST);
	sid = ev->id;
	KUNIT_EXPECT_EQ(test, ev->priv_len, IB_CM_REQ_PRIVATE_DATA_SIZE);
	KUNIT_EXPECT_MEMEQ(test, ev->priv, "\0\0afib", 6);
	KUNIT_EXPECT_PTR_EQ(test, sid->device, fx->b->dev);
	sib = (struct sockaddr_ib *)&sid->route.addr.src_addr;
	KUNIT_EXPECT_EQ(test, sib->sib_family, AF_IB);
	KUNIT_EXPECT_MEMEQ(test, &sib->sib_addr, fx->gid_b.raw, 16);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(sib->sib_sid),
			RDMA_IB_IP_PS_IB | fx->port);
	sib = (struct sockaddr_ib *)&sid->route.addr.dst_addr;
	KUNIT_EXPECT_EQ(test, sib->sib_family, AF_IB);
	KUNIT_EXPECT_MEMEQ(test, &sib->sib_addr, fx->gid_a.raw, 16);
	sq = tq_new(test, sid, fx->pdb, IB_QPT_RC, false);
	accept_locked(test, sid, &param, 0);
	tp_wait(test, cli, 2, RDMA_CM_EVENT_ESTABLISHED);
	tp_wait(test, srv, 1, RDMA_CM_EVENT_ESTABLISHED);
	tq_rc_traffic(test, cq, sq);
	tq_rc_traffic(test, sq, cq);

	/* an AF_IB destination no port reaches */
	cid = tp_new_id(test, cli, RDMA_PS_IB, IB_QPT_RC);
	sib = (struct sockaddr_ib *)ibaddr(&ss, &fx->gid_b, fx->port);
	sib->sib_addr.sib_subnet_prefix = cpu_to_be64(0xfec0000000000000ULL);
	KUNIT_EXPECT_EQ(test, rdma_resolve_addr(cid, NULL,
						(struct sockaddr *)sib, 1000),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, st(cid), RDMA_CM_ADDR_BOUND);
}

/* rdma_set_ib_path()'s route carries a connection across the fabric. */
static void cma_ib_set_ib_path_connect(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *srv = new_peer(test), *cli = new_peer(test);
	struct rdma_conn_param param = {
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 7,
	};
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTR };
	struct sa_path_rec path = {};
	struct sockaddr_storage ss;
	struct rdma_cm_id *cid, *sid;
	struct tqp *cq, *sq;
	struct tev *ev;
	int mask;

	listen_on(test, srv, RDMA_PS_IB, IB_QPT_RC,
		  ibaddr(&ss, &fx->gid_b, fx->port));
	cid = tp_new_id(test, cli, RDMA_PS_IB, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, resolve_ib(cid, &fx->gid_a, &fx->gid_b, fx->port),
			0);
	tp_wait(test, cli, 0, RDMA_CM_EVENT_ADDR_RESOLVED);
	path.rec_type = SA_PATH_REC_TYPE_IB;
	path.sgid = fx->gid_a;
	path.dgid = fx->gid_b;
	path.ib.slid = cpu_to_be16(fx->lid_a);
	path.ib.dlid = cpu_to_be16(fx->lid_b);
	path.pkey = cpu_to_be16(0xffff);
	path.mtu = IB_MTU_512;
	path.sl = 5;
	path.packet_life_time = PATH_PLT;
	KUNIT_ASSERT_EQ(test, rdma_set_ib_path(cid, &path), 0);
	cq = tq_new(test, cid, fx->pda, IB_QPT_RC, false);
	KUNIT_ASSERT_EQ(test, rdma_connect(cid, &param), 0);
	ev = tp_wait(test, srv, 0, RDMA_CM_EVENT_CONNECT_REQUEST);
	sid = ev->id;
	sq = tq_new(test, sid, fx->pdb, IB_QPT_RC, false);
	accept_locked(test, sid, &param, 0);
	tp_wait(test, cli, 1, RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(cid, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, attr.path_mtu, IB_MTU_512);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&attr.ah_attr), 5);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr.ah_attr), fx->lid_b);
	/* the server's side of the path: back to A, same MTU and SL */
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(sid, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, attr.path_mtu, IB_MTU_512);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&attr.ah_attr), 5);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr.ah_attr), fx->lid_a);
	tp_wait(test, srv, 1, RDMA_CM_EVENT_ESTABLISHED);
	tq_rc_traffic(test, cq, sq);
}

/* ------------------------------------------------------------------
 * Cases: wildcard listeners (step 3)
 */

/*
 * A wildcard listener listens on the IB devices too (each through the
 * IB CM), and a request to any of them reaches its owner: over IP (on
 * B's port) and over AF_IB (from A to B).
 */
static void cma_ib_wildcard_listen(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *srv = new_peer(test), *cli = new_peer(test);
	struct rdma_conn_param param = {
		.retry_count = 7, .qp_num = 0x42,
		.private_data = "\0wild", .private_data_len = 5,
	};
	static const union ib_gid any_gid;
	struct rdma_cm_id *lid, *lib, *cid;
	struct sockaddr_storage ss;
	struct tev *ev;

	fx_ipoib(fx, false);
	lid = tp_new_id(test, srv, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(lid, ip4(&ss, "0.0.0.0",
						      fx->port)), 0);
	KUNIT_ASSERT_EQ(test, rdma_listen(lid, 2), 0);
	KUNIT_EXPECT_NULL(test, lid->device);
	KUNIT_EXPECT_EQ(test, st(lid), RDMA_CM_LISTEN);

	/* the AF_IB wildcard on the IB port space */
	lib = tp_new_id(test, srv, RDMA_PS_IB, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(lib, ibaddr(&ss, &any_gid,
							 fx->port + 1)), 0);
	KUNIT_EXPECT_NULL(test, lib->device);
	KUNIT_ASSERT_EQ(test, rdma_listen(lib, 2), 0);
	KUNIT_EXPECT_EQ(test, st(lib), RDMA_CM_LISTEN);

	/* over IP, on B's port */
	fx_set_path(fx, &fx->gid_b, fx->lid_b, &fx->gid_b, fx->lid_b,
		    IB_MTU_2048, 0);
	cid = tp_new_id(test, cli, RDMA_PS_TCP, IB_QPT_RC);
	resolve_and_route(test, cli, cid, NULL, ip4(&ss, ip_b, fx->port));
	KUNIT_ASSERT_EQ(test, rdma_connect(cid, &param), 0);
	ev = tp_wait(test, srv, 0, RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_PTR_EQ(test, ev->id->device, fx->b->dev);
	KUNIT_EXPECT_PTR_EQ(test, ev->id->context, srv);
	KUNIT_EXPECT_MEMEQ(test, ev->priv, "\0wild", 5);
	KUNIT_EXPECT_EQ(test, rdma_reject(ev->id, NULL, 0,
					  IB_CM_REJ_CONSUMER_DEFINED), 0);
	tp_wait(test, cli, 2, RDMA_CM_EVENT_REJECTED);

	/* over AF_IB, from A to B */
	fx_set_path(fx, &fx->gid_a, fx->lid_a, &fx->gid_b, fx->lid_b,
		    IB_MTU_2048, 0);
	cid = tp_new_id(test, cli, RDMA_PS_IB, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(cid, ibaddr(&ss, &fx->gid_a, 0)),
			0);
	resolve_and_route(test, cli, cid, NULL,
			  ibaddr(&ss, &fx->gid_b, fx->port + 1));
	KUNIT_ASSERT_EQ(test, rdma_connect(cid, &param), 0);
	ev = tp_wait(test, srv, 1, RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_PTR_EQ(test, ev->id->device, fx->b->dev);
	KUNIT_EXPECT_EQ(test, ev->id->ps, RDMA_PS_IB);
	KUNIT_EXPECT_EQ(test, rdma_reject(ev->id, NULL, 0,
					  IB_CM_REJ_CONSUMER_DEFINED), 0);
	tp_wait(test, cli, 5, RDMA_CM_EVENT_REJECTED);
}

/* ------------------------------------------------------------------
 * Cases: UD through SIDR (step 4)
 */

/*
 * A UD id asks the server's QP number and Q_Key with a SIDR REQ (with
 * rdma_cm's header before the owner's data); the server's owner accepts:
 * ESTABLISHED with the address, QPN and Q_Key, and a datagram goes
 * through.  A refusal and a port nobody serves give UNREACHABLE.
 */
static void cma_ib_ud_sidr(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *srv = new_peer(test), *cli = new_peer(test);
	struct tpeer *rej = new_peer(test);
	struct rdma_conn_param param = {
		.private_data = "sidr", .private_data_len = 4,
	};
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	struct sockaddr_storage ss;
	struct rdma_cm_id *cid, *sid;
	struct ib_ud_wr wr = {};
	struct tqp *cq, *sq;
	struct ib_sge sge;
	struct ib_ah *ah;
	struct tev *ev;

	fx_ipoib(fx, false);
	fx_set_path(fx, &fx->gid_b, fx->lid_b, &fx->gid_b, fx->lid_b,
		    IB_MTU_2048, 0);
	listen_on(test, srv, RDMA_PS_UDP, IB_QPT_UD, ip4(&ss, ip_b, fx->port));
	cid = tp_new_id(test, cli, RDMA_PS_UDP, IB_QPT_UD);
	resolve_and_route(test, cli, cid, NULL, ip4(&ss, ip_b, fx->port));
	cq = tq_new(test, cid, fx->pdb, IB_QPT_UD, false);
	KUNIT_EXPECT_EQ(test, tq_state(cq), IB_QPS_RTS);
	KUNIT_ASSERT_EQ(test, rdma_connect(cid, &param), 0);

	ev = tp_wait(test, srv, 0, RDMA_CM_EVENT_CONNECT_REQUEST);
	sid = ev->id;
	KUNIT_EXPECT_EQ(test, sid->qp_type, IB_QPT_UD);
	KUNIT_EXPECT_EQ(test, ev->priv_len,
			IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE - CMA_HDR_LEN);
	KUNIT_EXPECT_MEMEQ(test, ev->priv, "sidr", 4);
	KUNIT_EXPECT_EQ(test,
			ntohl(((struct sockaddr_in *)&sid->route.addr.dst_addr)->sin_addr.s_addr),
			ntohl(in_aton(ip_b)));
	sq = tq_new(test, sid, fx->pdb, IB_QPT_UD, false);
	param.private_data = "ok";
	param.private_data_len = 2;
	accept_locked(test, sid, &param, 0);

	ev = tp_wait(test, cli, 2, RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ev->qp_num, sq->qp->qp_num);
	KUNIT_EXPECT_EQ(test, ev->qkey, RDMA_UDP_QKEY);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&ev->ah), fx->lid_b);
	KUNIT_EXPECT_EQ(test, ev->priv_len, IB_CM_SIDR_REP_PRIVATE_DATA_SIZE);
	KUNIT_EXPECT_MEMEQ(test, ev->priv, "ok", 2);

	/* a datagram with what the event gave */
	ah = rdma_create_ah(fx->pdb, &ev->ah, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_ah,
							ah), 0);
	tq_post_recv(test, sq, r, BUF_LEN);
	memcpy(cq->buf, "datagram", 8);
	sge = kt_sge_of(cq->pd, cq->buf, 8);
	wr.wr.wr_cqe = &s->cqe;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.wr.opcode = IB_WR_SEND;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.ah = ah;
	wr.remote_qpn = ev->qp_num;
	wr.remote_qkey = ev->qkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(cq->qp, &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cq->cq, s));
	KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(sq->cq, r));
	KUNIT_EXPECT_EQ(test, r->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, 8 + IB_GRH_BYTES);
	KUNIT_EXPECT_MEMEQ(test, sq->buf + IB_GRH_BYTES, "datagram", 8);
	KUNIT_EXPECT_EQ(test, r->wc.src_qp, cq->qp->qp_num);

	/* a server that refuses */
	rej->reject_with = "no";
	listen_on(test, rej, RDMA_PS_UDP, IB_QPT_UD,
		  ip4(&ss, ip_b, fx->port + 1));
	cid = tp_new_id(test, cli, RDMA_PS_UDP, IB_QPT_UD);
	resolve_and_route(test, cli, cid, NULL, ip4(&ss, ip_b, fx->port + 1));
	param.qp_num = 0x55;
	KUNIT_ASSERT_EQ(test, rdma_connect(cid, &param), 0);
	ev = tp_wait(test, cli, 5, RDMA_CM_EVENT_UNREACHABLE);
	KUNIT_EXPECT_EQ(test, ev->status, IB_SIDR_REJECT);
	KUNIT_EXPECT_MEMEQ(test, ev->priv, "no", 2);

	/* a port nobody serves */
	cid = tp_new_id(test, cli, RDMA_PS_UDP, IB_QPT_UD);
	resolve_and_route(test, cli, cid, NULL, ip4(&ss, ip_b, fx->port + 2));
	KUNIT_ASSERT_EQ(test, rdma_connect(cid, &param), 0);
	ev = tp_wait(test, cli, 8, RDMA_CM_EVENT_UNREACHABLE);
	KUNIT_EXPECT_EQ(test, ev->status, IB_SIDR_UNSUPPORTED);
}

/* ------------------------------------------------------------------
 * Cases: multicast (step 5)
 */

/* The MGID rdma_cm asks for an IPv4 group in the UDP port space. */
static void udp_mgid(struct net_device *nd, const char *group,
		     union ib_gid *mgid)
{
	unsigned char map[MAX_ADDR_LEN];

	ip_ib_mc_map(in_aton(group), nd->broadcast, map);
	map[7] = 0x01;
	memcpy(mgid, map + 4, sizeof(*mgid));
}

/*
 * Joins through the SA (the group's MGID mapped from the IP address, the
 * UDP Q_Key, the JoinState asked for, from the IPoIB broadcast group's
 * record), MULTICAST_JOIN with the group's address, a datagram from A's
 * member to B's, the leave (a Delete), a send-only join, an IPoIB port
 * space id's Q_Key (the broadcast group's), and the refusals.
 */
static void cma_ib_multicast(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct tpeer *pa = new_peer(test), *pb = new_peer(test);
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	struct sockaddr_storage *ss = kunit_kzalloc(test, 3 * sizeof(*ss),
						     GFP_KERNEL);
	struct sockaddr *grp, *grp2;
	struct rdma_cm_id *ida, *idb, *ida2, *ipo, *rc;
	struct ib_sa_mcmember_rec rec;
	union ib_gid mgid, mgid2;
	struct ib_ud_wr wr = {};
	struct tqp *qa, *qb;
	struct ib_sge sge;
	struct ib_ah *ah;
	struct tev *ev;
	u16 mlid;

	KUNIT_ASSERT_NOT_NULL(test, ss);
	fx_ipoib(fx, true);
	udp_mgid(fx->ndb, "239.1.2.3", &mgid);
	udp_mgid(fx->ndb, "239.1.2.4", &mgid2);
	grp = ip4(&ss[1], "239.1.2.3", 0);
	grp2 = ip4(&ss[2], "239.1.2.4", 0);

	ida = tp_new_id(test, pa, RDMA_PS_UDP, IB_QPT_UD);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(ida, ip4(ss, ip_a, 0)), 0);
	idb = tp_new_id(test, pb, RDMA_PS_UDP, IB_QPT_UD);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(idb, ip4(ss, ip_b, 0)), 0);
	KUNIT_ASSERT_EQ(test, rdma_join_multicast(ida, grp,
						  BIT(FULLMEMBER_JOIN), pa),
			0);
	KUNIT_ASSERT_EQ(test, rdma_join_multicast(idb, grp,
						  BIT(FULLMEMBER_JOIN), pb),
			0);
	ev = tp_wait(test, pa, 0, RDMA_CM_EVENT_MULTICAST_JOIN);
	KUNIT_EXPECT_PTR_EQ(test, ev->ud_context, pa);
	KUNIT_EXPECT_EQ(test, ev->qp_num, 0xffffff);
	KUNIT_EXPECT_EQ(test, ev->qkey, RDMA_UDP_QKEY);
	KUNIT_EXPECT_TRUE(test, !!(rdma_ah_get_ah_flags(&ev->ah) &
				   IB_AH_GRH));
	KUNIT_EXPECT_MEMEQ(test, rdma_ah_read_grh(&ev->ah)->dgid.raw,
			   mgid.raw, 16);
	mlid = rdma_ah_get_dlid(&ev->ah);
	KUNIT_EXPECT_GE(test, mlid, FMC_MLID);
	ev = tp_wait(test, pb, 0, RDMA_CM_EVENT_MULTICAST_JOIN);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&ev->ah), mlid);

	KUNIT_ASSERT_TRUE(test, fmc_wait(fx->mc, IB_MGMT_METHOD_SET, &mgid,
					 &fx->gid_a, &rec));
	KUNIT_EXPECT_EQ(test, rec.join_state, BIT(FULLMEMBER_JOIN));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(rec.qkey), RDMA_UDP_QKEY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec.pkey), 0xffff);
	KUNIT_ASSERT_TRUE(test, fmc_wait(fx->mc, IB_MGMT_METHOD_SET, &mgid,
					 &fx->gid_b, NULL));

	/* a datagram from A's member to B's */
	qa = tq_new(test, ida, fx->pda, IB_QPT_UD, true);
	qb = tq_new(test, idb, fx->pdb, IB_QPT_UD, true);
	tq_modify(test, qa, ida, IB_QPS_INIT);
	tq_modify(test, qa, ida, IB_QPS_RTR);
	tq_modify(test, qa, ida, IB_QPS_RTS);
	tq_modify(test, qb, idb, IB_QPS_INIT);
	tq_modify(test, qb, idb, IB_QPS_RTR);
	tq_modify(test, qb, idb, IB_QPS_RTS);
	KUNIT_ASSERT_EQ(test, ib_attach_mcast(qb->qp, &mgid, mlid), 0);
	ah = rdma_create_ah(fx->pda, &pa->ev[0].ah, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_ah,
							ah), 0);
	tq_post_recv(test, qb, r, BUF_LEN);
	memcpy(qa->buf, "to the group", 12);
	sge = kt_sge_of(qa->pd, qa->buf, 12);
	wr.wr.wr_cqe = &s->cqe;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.wr.opcode = IB_WR_SEND;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.ah = ah;
	wr.remote_qpn = pa->ev[0].qp_num;
	wr.remote_qkey = pa->ev[0].qkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(qa->qp, &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qa->cq, s));
	KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, kt_tcqe_wait(qb->cq, r));
	KUNIT_EXPECT_EQ(test, r->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_MEMEQ(test, qb->buf + IB_GRH_BYTES, "to the group", 12);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(qb->qp, &mgid, mlid), 0);

	/* B leaves: a Delete of B's membership */
	rdma_leave_multicast(idb, grp);
	KUNIT_EXPECT_TRUE(test, list_empty(&to_id_priv(idb)->mc_list));
	KUNIT_EXPECT_TRUE(test, fmc_wait(fx->mc, IB_SA_METHOD_DELETE, &mgid,
					 &fx->gid_b, &rec));
	KUNIT_EXPECT_EQ(test, rec.join_state, BIT(FULLMEMBER_JOIN));
	/* leaving a group not joined does nothing */
	rdma_leave_multicast(idb, grp2);

	/* a send-only full member, left when its id goes */
	ida2 = rdma_create_id(&init_net, tp_handler, pa, RDMA_PS_UDP,
			      IB_QPT_UD);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ida2);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(ida2, ip4(ss, ip_a, 0)), 0);
	KUNIT_ASSERT_EQ(test, rdma_join_multicast(ida2,
						  grp2,
						  BIT(SENDONLY_FULLMEMBER_JOIN),
						  NULL), 0);
	ev = tp_wait(test, pa, 1, RDMA_CM_EVENT_MULTICAST_JOIN);
	KUNIT_EXPECT_MEMEQ(test, rdma_ah_read_grh(&ev->ah)->dgid.raw,
			   mgid2.raw, 16);
	KUNIT_ASSERT_TRUE(test, fmc_wait(fx->mc, IB_MGMT_METHOD_SET, &mgid2,
					 &fx->gid_a, &rec));
	KUNIT_EXPECT_EQ(test, rec.join_state, BIT(SENDONLY_FULLMEMBER_JOIN));
	rdma_destroy_id(ida2);
	KUNIT_EXPECT_TRUE(test, fmc_wait(fx->mc, IB_SA_METHOD_DELETE, &mgid2,
					 &fx->gid_a, NULL));

	/* the IPoIB port space takes the broadcast group's Q_Key */
	ipo = tp_new_id(test, pb, RDMA_PS_IPOIB, IB_QPT_UD);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(ipo, ip4(ss, ip_b, 0)), 0);
	KUNIT_ASSERT_EQ(test, rdma_join_multicast(ipo, grp,
						  BIT(FULLMEMBER_JOIN), NULL),
			0);
	ev = tp_wait(test, pb, 1, RDMA_CM_EVENT_MULTICAST_JOIN);
	KUNIT_EXPECT_EQ(test, ev->qkey, FMC_QKEY);

	/* refusals: an RC id, an id with a QP of rdma_cm's */
	rc = tp_new_id(test, pb, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(rc, ip4(ss, ip_b, 0)), 0);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(rc, grp,
						  BIT(FULLMEMBER_JOIN), NULL),
			-EINVAL);
	tq_new(test, ipo, fx->pdb, IB_QPT_UD, false);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(ipo, grp2,
						  BIT(FULLMEMBER_JOIN), NULL),
			-EINVAL);
}

/* ------------------------------------------------------------------
 * The bed between cases
 */

struct neigh_count {
	const struct net_device	*dev;
	int			n;
};

static void neigh_count_one(struct neighbour *n, void *arg)
{
	struct neigh_count *nc = arg;

	if (n->dev == nc->dev)
		nc->n++;
}

/* How many ARP neighbours @nd has. */
static int ipoib_neighbours(struct net_device *nd)
{
	struct neigh_count nc = { .dev = nd };

	neigh_for_each(&arp_tbl, neigh_count_one, &nc);
	return nc.n;
}

static bool ipoib_has_addr4(struct net_device *nd)
{
	struct in_device *in_dev;
	bool has;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(nd);
	has = in_dev && rcu_access_pointer(in_dev->ifa_list);
	rcu_read_unlock();
	return has;
}

/* An IPoIB interface as a case finds it: down, no address, no neighbour. */
static void ipoib_expect_clean(struct kunit *test, struct net_device *nd)
{
	if (!nd)
		return;
	KUNIT_ASSERT_FALSE_MSG(test, !!(nd->flags & IFF_UP), "%s is up",
			       nd->name);
	KUNIT_ASSERT_FALSE_MSG(test, ipoib_has_addr4(nd),
			       "%s has an IPv4 address", nd->name);
	KUNIT_ASSERT_EQ_MSG(test, ipoib_neighbours(nd), 0,
			    "%s has neighbours", nd->name);
}

/* Remove @nd's IPv4 addresses (RTM_DELADDR), then take it down. */
static int ipoib_reset(struct rtc *c, struct net_device *nd)
{
	struct in_device *in_dev;
	struct in_ifaddr *a;
	char ip[INET_ADDRSTRLEN];
	u8 prefixlen = 0;
	int ret, n;

	for (n = 0; n < 8; n++) {
		rcu_read_lock();
		in_dev = __in_dev_get_rcu(nd);
		a = in_dev ? rcu_dereference(in_dev->ifa_list) : NULL;
		if (a) {
			snprintf(ip, sizeof(ip), "%pI4", &a->ifa_local);
			prefixlen = a->ifa_prefixlen;
		}
		rcu_read_unlock();
		if (!a)
			break;
		ret = kt_rtnl_addr(c->k, RTM_DELADDR, nd->ifindex, ip,
				   prefixlen);
		if (ret)
			return ret;
	}
	/* down: the neighbours, IPv6 addresses and groups go too */
	rtnl_lock();
	ret = dev_change_flags(nd, nd->flags & ~IFF_UP, NULL);
	rtnl_unlock();
	return ret;
}

/*
 * What the SA's multicast joins of A and B decided has happened and was
 * answered by the case's fake SA: each round has the groups' work post
 * what it decided (ib_sa_mcast_flush()) and waits for S's answers with
 * a round trip from each port (S answers in order).  Two rounds, for a
 * Set still out when its member left: its answer, then the Delete that
 * follows.
 */
static void fx_sa_settle(struct kunit *test)
{
	int i;

	for (i = 0; i < 2; i++) {
		ib_sa_mcast_flush();
		KUNIT_EXPECT_TRUE_MSG(test,
				      kt_ksa_round_trip(test, &cib.client,
							cib.a.dev,
							IB_MGMT_METHOD_SET),
				      "cleanup: no round trip from A to S");
		KUNIT_EXPECT_TRUE_MSG(test,
				      kt_ksa_round_trip(test, &cib.client,
							cib.b.dev,
							IB_MGMT_METHOD_SET),
				      "cleanup: no round trip from B to S");
	}
	ib_sa_mcast_flush();
}

/*
 * KUnit action, after the case's ids, QPs and AHs went and before its
 * fake SAs go: the IPoIB interfaces without addresses and down, and the
 * joins and leaves that caused (and the case's own) answered.
 */
static void fx_reset(void *arg)
{
	struct fx *fx = arg;
	struct net_device *nds[] = { cib.nda, cib.ndb };
	int i;

	for (i = 0; i < ARRAY_SIZE(nds); i++)
		if (nds[i])
			KUNIT_EXPECT_EQ_MSG(fx->test, ipoib_reset(fx->rtc, nds[i]),
					    0, "cleanup: %s not reset",
					    nds[i]->name);
	fx_sa_settle(fx->test);
}

/* The service of the pings of fx_quiesce(), which no case uses */
#define PING_SID	cpu_to_be64(0x1000000000000dadULL)

/* One round of pings between A and B (kt_cm_ping_round) */
static void ping_round(struct kunit *test)
{
	struct ib_device *devs[2] = { cib.a.dev, cib.b.dev };

	kt_cm_ping_round(test, devs, PING_SID, EV_WAIT);
}

static int quiet_handler(struct rdma_cm_id *id, struct rdma_cm_event *e)
{
	return 0;
}

/*
 * No id of the case is left on the ports the cases use, in any of their
 * port spaces: a wildcard bind of each takes it, and the IB CM has no
 * listener on its service ID on A or B.
 */
static void expect_ports_free(struct kunit *test)
{
	static const enum rdma_ucm_port_space spaces[] = {
		RDMA_PS_TCP, RDMA_PS_UDP, RDMA_PS_IB,
	};
	static const union ib_gid any_gid;
	struct ib_device *devs[2] = { cib.a.dev, cib.b.dev };
	struct sockaddr_storage ss;
	struct rdma_cm_id *id;
	struct ib_cm_id *cm_id;
	int i, d, port;
	__be64 sid;

	for (i = 0; i < ARRAY_SIZE(spaces); i++) {
		for (port = BASE_PORT; port < BASE_PORT + 3; port++) {
			id = rdma_create_id(&init_net, quiet_handler, NULL,
					    spaces[i],
					    spaces[i] == RDMA_PS_UDP ?
					    IB_QPT_UD : IB_QPT_RC);
			if (IS_ERR(id)) {
				KUNIT_FAIL(test, "cleanup: no rdma_cm id");
				return;
			}
			KUNIT_EXPECT_EQ_MSG(test,
					    rdma_bind_addr(id,
							   spaces[i] == RDMA_PS_IB ?
							   ibaddr(&ss, &any_gid, port) :
							   ip4(&ss, "0.0.0.0", port)),
					    0, "cleanup: port %d of space %d taken",
					    port, spaces[i]);
			rdma_destroy_id(id);
			sid = cpu_to_be64(((u64)spaces[i] << 16) | port);
			for (d = 0; d < ARRAY_SIZE(devs); d++) {
				cm_id = ib_create_cm_id(devs[d],
							kt_cm_ping_handler,
							NULL);
				if (IS_ERR(cm_id)) {
					KUNIT_FAIL(test, "cleanup: no CM ID");
					return;
				}
				KUNIT_EXPECT_EQ_MSG(test,
						    ib_cm_listen(cm_id, sid), 0,
						    "cleanup: a listener on %llx is left",
						    be64_to_cpu(sid));
				ib_destroy_cm_id(cm_id);
			}
		}
	}
}

/*
 * KUnit action, a case's last (its fake SAs went): two rounds of pings,
 * for what the case's ids sent on their way out (REJ, DREQ, DREP, SIDR
 * REP) and for what the IB CM answers to that without a CM ID; a round
 * trip to S from A and B, for the MADs that came after the fake SAs went
 * (S's MAD layer drops or refuses them); then no port of the case taken.
 */
static void fx_quiesce(void *arg)
{
	struct kunit *test = arg;

	ping_round(test);
	ping_round(test);
	KUNIT_EXPECT_TRUE_MSG(test, kt_ksa_round_trip(test, &cib.client,
						      cib.a.dev,
						      IB_MGMT_METHOD_SET),
			      "cleanup: no round trip from A to S");
	KUNIT_EXPECT_TRUE_MSG(test, kt_ksa_round_trip(test, &cib.client,
						      cib.b.dev,
						      IB_MGMT_METHOD_SET),
			      "cleanup: no round trip from B to S");
	expect_ports_free(test);
}

/*
 * Each case's init: its fx on the suite's devices, after checking that
 * they are as the case expects them (SM LIDs at S, IPoIB down, without
 * addresses or neighbours); the case's own fake SA; its end, which runs
 * after everything the case registers (fx_reset(), then fx_quiesce()).
 */
static int cma_ib_case_init(struct kunit *test)
{
	struct fx *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	struct rdma_ah_attr attr;

	KUNIT_ASSERT_NOT_NULL(test, fx);
	KUNIT_ASSERT_NOT_NULL(test, kt_bed_s.dev);
	KUNIT_ASSERT_NOT_NULL(test, cib.a.dev);
	KUNIT_ASSERT_NOT_NULL(test, cib.b.dev);
	test->priv = fx;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fx_quiesce,
							test), 0);
	fx->test = test;
	fx->port = BASE_PORT;
	fx->a = &cib.a;
	fx->b = &cib.b;
	fx->pda = cib.a.pd;
	fx->pdb = cib.b.pd;
	fx->lid_a = rdma_loop_port_lid(fx->a->dev);
	fx->lid_b = rdma_loop_port_lid(fx->b->dev);
	fx->lid_s = rdma_loop_port_lid(kt_bed_s.dev);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(fx->a->dev, 1, 0, &fx->gid_a), 0);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(fx->b->dev, 1, 0, &fx->gid_b), 0);
	KUNIT_ASSERT_TRUE(test, kt_wait_sm_ah(fx->a->dev, fx->lid_s, &attr));
	KUNIT_ASSERT_TRUE(test, kt_wait_sm_ah(fx->b->dev, fx->lid_s, &attr));
	ipoib_expect_clean(test, cib.nda);
	ipoib_expect_clean(test, cib.ndb);
	fx->sa = kt_fsa_new(test, kt_bed_s.dev);
	fx->mc = fmc_new(test, kt_bed_s.dev);
	fx->rtc = rtc_open(test);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fx_reset, fx),
			0);
	return 0;
}

/* The suite's exit: what its init made goes (the devices last) */
static void cma_ib_suite_exit(struct kunit_suite *suite)
{
	struct kt_vt *vts[] = { &cib.a, &cib.b };
	int i;

	if (cib.client_on)
		ib_sa_unregister_client(&cib.client);
	if (cib.nda)
		dev_put(cib.nda);
	if (cib.ndb)
		dev_put(cib.ndb);
	for (i = 0; i < ARRAY_SIZE(vts); i++) {
		if (vts[i]->pd)
			ib_dealloc_pd(vts[i]->pd);
		if (vts[i]->dev)
			rdma_loop_remove_device(vts[i]->dev);
	}
	memset(&cib, 0, sizeof(cib));
	kt_bed_suite_exit(suite);
}

/* A device of the suite: its PD, SM LID at S, IPoIB interface (if any) */
static int cma_ib_new_dev(struct kt_vt *vt, struct net_device **nd)
{
	u16 lid_s = rdma_loop_port_lid(kt_bed_s.dev);
	struct rdma_ah_attr attr;
	struct ib_device *dev;
	struct ib_pd *pd;
	int ret;

	dev = rdma_loop_add_device("kucmib%d");
	if (IS_ERR_OR_NULL(dev))
		return dev ? PTR_ERR(dev) : -ENODEV;
	vt->dev = dev;
	pd = ib_alloc_pd(dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	vt->pd = pd;
	ret = kt_ksa_set_sm(dev, lid_s, 0);
	if (ret)
		return ret;
	if (!kt_wait_sm_ah(dev, lid_s, &attr))
		return -ETIMEDOUT;
	*nd = ib_get_net_dev_by_params(dev, 1, 0xffff, NULL, NULL);
	return 0;
}

/* The suite's init: S, then A and B, and the cleanup's SA client */
static int cma_ib_suite_init(struct kunit_suite *suite)
{
	int ret;

	ret = kt_bed_suite_init(suite);
	if (ret)
		return ret;
	ret = cma_ib_new_dev(&cib.a, &cib.nda);
	if (!ret)
		ret = cma_ib_new_dev(&cib.b, &cib.ndb);
	if (ret) {
		cma_ib_suite_exit(suite);
		return ret;
	}
	ib_sa_register_client(&cib.client);
	cib.client_on = true;
	return 0;
}

static struct kunit_case cma_ib_cases[] = {
	KUNIT_CASE(cma_ib_route_from_sa),
	KUNIT_CASE(cma_ib_addr_ipoib_neigh),
	KUNIT_CASE(cma_ib_route_error),
	KUNIT_CASE(cma_ib_route_destroyed),
	KUNIT_CASE(cma_ib_set_ib_path),
	KUNIT_CASE(cma_ib_rc_ip_connect),
	KUNIT_CASE(cma_ib_rc_reject),
	KUNIT_CASE(cma_ib_rc_errors),
	KUNIT_CASE(cma_ib_rc_own_qp),
	KUNIT_CASE(cma_ib_af_ib_connect),
	KUNIT_CASE(cma_ib_set_ib_path_connect),
	KUNIT_CASE(cma_ib_wildcard_listen),
	KUNIT_CASE(cma_ib_ud_sidr),
	KUNIT_CASE(cma_ib_multicast),
	{}
};

static struct kunit_suite cma_ib_suite = {
	.name = "rdma_cma_ib",
	.suite_init = cma_ib_suite_init,
	.suite_exit = cma_ib_suite_exit,
	.init = cma_ib_case_init,
	.test_cases = cma_ib_cases,
};

kunit_test_suite(cma_ib_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm over InfiniBand");
MODULE_LICENSE("Dual BSD/GPL");
