// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_rvt_sma": rdmavt's subnet management agent and port
 * model on loop devices.  Each case calls the device's process_mad with
 * SMPs built by hand, as the MAD layer will: every attribute's Get, the
 * PortInfo Set of a subnet manager walking a managed port from INIT to
 * ARMED and ACTIVE, the Sets it must refuse, LIDs and LMCs as the fabric
 * routes by them, the P_Key table, M_Key protection, ib_modify_port(),
 * and the events and ib_core cache entries that follow each change.
 *
 * Managed devices are the case's own (rdma_loop_add_device_flags()); LIDs
 * a case assigns lie far above those the loop driver hands out (from 1).
 * The two unmanaged devices U and P are the suite's (sma_suite_init()):
 * making and removing a device took longer than most cases.  At its end
 * a case gives them back as they were made (sma_restore()): capability
 * bits, InitType and Q_Key violations through ib_modify_port(), PortInfo
 * (M_Key and its protection and lease, LID, GID prefix, widths, speeds,
 * M_Key violations), the port ACTIVE, P_KeyTable, GUIDInfo, SLtoVL and
 * VLArbitration tables through the SMA, then the events that caused
 * delivered (ib_event_flush()); each case's init checks all of it
 * against what the suite's init read.
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/delay.h>
#include <linux/wait.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/rdma_vt.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define QKEY		0x1234
#define LEN		64
#define SM_LID		0x0101
#define EV_WAIT_MS	5000

#define RES_REPLY	(IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY)
#define RES_DROP	(IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_CONSUMED)

#define ST_BAD_VERSION	0x0004
#define ST_UNSUP_METHOD	0x0008
#define ST_UNSUP_ATTR	0x000c
#define ST_INVALID	0x001c

/*
 * CapabilityMask of a fresh port: SysImageGUID, ClientReregistration,
 * SLtoVL mapping, extended speeds
 */
#define CAP_DEFAULT	0x02004840

/* ------------------------------------------------------------------
 * SMPs
 */

static struct ib_smp *new_smp(struct kunit *test)
{
	struct ib_smp *smp = kunit_kzalloc(test, sizeof(*smp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, smp);
	return smp;
}

static void smp_fill(struct ib_smp *smp, u8 mgmt_class, u8 method,
		     __be16 attr, u32 mod)
{
	memset(smp, 0, sizeof(*smp));
	smp->base_version = IB_MGMT_BASE_VERSION;
	smp->mgmt_class = mgmt_class;
	smp->class_version = 1;
	smp->method = method;
	smp->tid = cpu_to_be64(0x5eed0001);
	smp->attr_id = attr;
	smp->attr_mod = cpu_to_be32(mod);
	if (mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
		smp->dr_slid = IB_LID_PERMISSIVE;
		smp->dr_dlid = IB_LID_PERMISSIVE;
	}
}

/* What process_mad of port 1 of @dev does with @in. */
static int sma_call(struct ib_device *dev, int flags, struct ib_smp *in,
		    struct ib_smp *out)
{
	size_t size = sizeof(struct ib_mad);
	u16 pkey_index = 0;

	memset(out, 0xa5, sizeof(*out));
	return dev->ops.process_mad(dev, flags, 1, NULL, NULL,
				    (const struct ib_mad *)in,
				    (struct ib_mad *)out, &size, &pkey_index);
}

/*
 * A LID-routed request with data @data (64 bytes, or NULL) and @mkey;
 * returns the result, the answer in @out.
 */
static int sma_do(struct kunit *test, struct ib_device *dev, u8 method,
		  __be16 attr, u32 mod, const void *data, __be64 mkey,
		  int flags, struct ib_smp *out)
{
	struct ib_smp *in = new_smp(test);

	smp_fill(in, IB_MGMT_CLASS_SUBN_LID_ROUTED, method, attr, mod);
	in->mkey = mkey;
	if (data)
		memcpy(in->data, data, IB_SMP_DATA_SIZE);
	return sma_call(dev, flags, in, out);
}

/* A Get that must be answered with status 0: its data in @out. */
static void sma_get(struct kunit *test, struct ib_device *dev, __be16 attr,
		    u32 mod, struct ib_smp *out)
{
	KUNIT_ASSERT_EQ(test, sma_do(test, dev, IB_MGMT_METHOD_GET, attr, mod,
				     NULL, 0, 0, out), RES_REPLY);
	KUNIT_ASSERT_EQ(test, out->method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_ASSERT_EQ(test, be16_to_cpu(out->status), 0);
}

/* The status (host order) of a Get of @attr, which must be answered. */
static u16 sma_get_status(struct kunit *test, struct ib_device *dev,
			  __be16 attr, u32 mod)
{
	struct ib_smp *out = new_smp(test);

	KUNIT_EXPECT_EQ(test, sma_do(test, dev, IB_MGMT_METHOD_GET, attr, mod,
				     NULL, 0, 0, out), RES_REPLY);
	return be16_to_cpu(out->status);
}

/* A Set that must be answered: returns its status, the answer in @out. */
static u16 sma_set(struct kunit *test, struct ib_device *dev, __be16 attr,
		   u32 mod, const void *data, struct ib_smp *out)
{
	KUNIT_EXPECT_EQ(test, sma_do(test, dev, IB_MGMT_METHOD_SET, attr, mod,
				     data, 0, 0, out), RES_REPLY);
	KUNIT_EXPECT_EQ(test, out->method, IB_MGMT_METHOD_GET_RESP);
	return be16_to_cpu(out->status);
}

/* ------------------------------------------------------------------
 * PortInfo as a subnet manager handles it: 64 bytes, read, changed and
 * written back with PortState and PortPhysicalState "no change".
 */

struct pinfo {
	union {
		struct ib_port_info	pi;
		u8			raw[IB_SMP_DATA_SIZE];
	};
};

static void pi_get(struct kunit *test, struct ib_device *dev,
		   struct pinfo *p)
{
	struct ib_smp *out = new_smp(test);

	sma_get(test, dev, IB_SMP_ATTR_PORT_INFO, 0, out);
	memcpy(p->raw, out->data, sizeof(p->raw));
}

/* @p as read, ready to be written: state and physical state NOP. */
static void pi_for_set(struct pinfo *p)
{
	p->pi.linkspeed_portstate &= 0xf0;
	p->pi.portphysstate_linkdown &= 0x0f;
}

static u8 pi_state(const struct pinfo *p)
{
	return p->pi.linkspeed_portstate & 0xf;
}

static u8 pi_phys(const struct pinfo *p)
{
	return p->pi.portphysstate_linkdown >> 4;
}

/* Write @p; returns the status, the answer in @ans (if not NULL). */
static u16 pi_set(struct kunit *test, struct ib_device *dev,
		  const struct pinfo *p, struct pinfo *ans)
{
	struct ib_smp *out = new_smp(test);
	u16 st = sma_set(test, dev, IB_SMP_ATTR_PORT_INFO, 0, p->raw, out);

	if (ans)
		memcpy(ans->raw, out->data, sizeof(ans->raw));
	return st;
}

/* The current PortInfo with PortState @state; written, status 0 expected. */
static void pi_set_state(struct kunit *test, struct ib_device *dev, u8 state)
{
	struct pinfo p;

	pi_get(test, dev, &p);
	pi_for_set(&p);
	p.pi.linkspeed_portstate |= state;
	KUNIT_ASSERT_EQ(test, pi_set(test, dev, &p, NULL), 0);
}

/* What a subnet manager does with a port: LID, LMC, SM, ARMED, ACTIVE. */
static void sm_bring_up(struct kunit *test, struct ib_device *dev, u16 lid,
			u8 lmc)
{
	struct pinfo p;

	pi_get(test, dev, &p);
	pi_for_set(&p);
	p.pi.lid = cpu_to_be16(lid);
	p.pi.sm_lid = cpu_to_be16(SM_LID);
	p.pi.mkeyprot_resv_lmc = (p.pi.mkeyprot_resv_lmc & ~7) | lmc;
	KUNIT_ASSERT_EQ(test, pi_set(test, dev, &p, NULL), 0);
	pi_set_state(test, dev, IB_PORT_ARMED);
	pi_set_state(test, dev, IB_PORT_ACTIVE);
}

static void query(struct kunit *test, struct ib_device *dev,
		  struct ib_port_attr *pa)
{
	KUNIT_ASSERT_EQ(test, ib_query_port(dev, 1, pa), 0);
}

/* ------------------------------------------------------------------
 * Events of a device, in the order the core delivered them (its event
 * workqueue is ordered and refreshes the cache before the handlers run).
 */

#define EV_MAX	32

struct evrec {
	struct ib_event_handler	h;
	spinlock_t		lock;	/* @n, @ev */
	wait_queue_head_t	wq;
	int			n;
	enum ib_event_type	ev[EV_MAX];
};

static void evrec_handler(struct ib_event_handler *h, struct ib_event *e)
{
	struct evrec *r = container_of(h, struct evrec, h);

	if (e->element.port_num != 1)
		return;
	spin_lock(&r->lock);
	if (r->n < EV_MAX)
		r->ev[r->n] = e->event;
	r->n++;
	spin_unlock(&r->lock);
	wake_up(&r->wq);
}

static void evrec_unregister(void *p)
{
	ib_unregister_event_handler(p);
}

static struct evrec *new_evrec(struct kunit *test, struct ib_device *dev)
{
	struct evrec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	spin_lock_init(&r->lock);
	init_waitqueue_head(&r->wq);
	INIT_IB_EVENT_HANDLER(&r->h, dev, evrec_handler);
	ib_register_event_handler(&r->h);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, evrec_unregister,
							&r->h), 0);
	return r;
}

static int evrec_count(struct evrec *r)
{
	int n;

	spin_lock(&r->lock);
	n = r->n;
	spin_unlock(&r->lock);
	return n;
}

/* Wait until @r holds @n events; then they are the cache's too. */
static void evrec_wait(struct kunit *test, struct evrec *r, int n)
{
	wait_event_timeout(r->wq, evrec_count(r) >= n,
			   msecs_to_jiffies(EV_WAIT_MS));
	KUNIT_ASSERT_GE(test, evrec_count(r), n);
}

/* Event @i of @r. */
static enum ib_event_type ev(struct evrec *r, int i)
{
	return r->ev[i];
}

/* ------------------------------------------------------------------
 * Datagrams
 */

struct udq {
	struct ib_qp	*qp;
	struct ib_cq	*cq;
};

static struct udq *new_udq(struct kunit *test, struct kt_vt *vt)
{
	struct udq *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_UD,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = 16,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.port_num = 1,
	};
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qkey = QKEY,
	};

	KUNIT_ASSERT_NOT_NULL(test, u);
	u->cq = kt_new_direct_cq(test, vt);
	init.send_cq = u->cq;
	init.recv_cq = u->cq;
	u->qp = kt_new_test_qp(test, vt, &init);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(u->qp, &a, IB_QP_STATE |
					   IB_QP_PORT | IB_QP_QKEY |
					   IB_QP_PKEY_INDEX), 0);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(u->qp, &a, IB_QP_STATE), 0);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(u->qp, &a, IB_QP_STATE |
					   IB_QP_SQ_PSN), 0);
	return u;
}

static struct ib_ah *new_ah(struct kunit *test, struct kt_vt *vt, u32 dlid,
			    u8 path_bits)
{
	struct rdma_ah_attr attr = {};
	struct ib_ah *ah;

	attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&attr, dlid);
	rdma_ah_set_port_num(&attr, 1);
	rdma_ah_set_path_bits(&attr, path_bits);
	ah = rdma_create_ah(vt->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_ah, ah),
			0);
	return ah;
}

/*
 * Send one datagram from @src through @ah (to QP @dst) with @qkey and
 * see whether @dst receives it; its receive completion in *@wc.
 */
static bool ud_reaches(struct kunit *test, struct udq *src, struct ib_ah *ah,
		       struct udq *dst, u32 qkey, struct ib_wc *wc)
{
	u8 *sbuf = kunit_kzalloc(test, LEN, GFP_KERNEL);
	u8 *rbuf = kunit_kzalloc(test, LEN + 40, GFP_KERNEL);
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	struct ib_sge ssge, rsge;
	struct ib_recv_wr rwr = { .num_sge = 1 };
	struct ib_ud_wr swr = {
		.wr = {
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.ah = ah,
		.remote_qpn = dst->qp->qp_num,
		.remote_qkey = qkey,
	};
	bool got;

	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	ssge = kt_sge_of(src->qp->pd, sbuf, LEN);
	rsge = kt_sge_of(dst->qp->pd, rbuf, LEN + 40);
	rwr.wr_cqe = &r->cqe;
	rwr.sg_list = &rsge;
	swr.wr.wr_cqe = &s->cqe;
	swr.wr.sg_list = &ssge;
	KUNIT_ASSERT_EQ(test, ib_post_recv(dst->qp, &rwr, NULL), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(src->qp, &swr.wr, NULL), 0);
	/* a datagram completes at its sender, arrived or not */
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(src->cq, s));
	KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_SUCCESS);
	msleep(20);
	ib_process_cq_direct(dst->cq, -1);
	got = atomic_read(&r->count) == 1;
	if (got)
		*wc = r->wc;
	/* take the receive back, so that the next case starts empty */
	if (!got) {
		struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };

		KUNIT_EXPECT_EQ(test, ib_modify_qp(dst->qp, &a, IB_QP_STATE),
				0);
		KUNIT_EXPECT_TRUE(test, kt_tcqe_wait(dst->cq, r));
		KUNIT_EXPECT_EQ(test, r->wc.status, IB_WC_WR_FLUSH_ERR);
	}
	return got;
}

/* ------------------------------------------------------------------
 * The suite's unmanaged devices
 */

/* What the SMA of a port says of it, all of it that a case may change. */
struct sma_state {
	struct pinfo	pi;		/* read with IB_MAD_IGNORE_MKEY */
	u8		pkeys[IB_SMP_DATA_SIZE];
	u8		guids[IB_SMP_DATA_SIZE];
	u8		sl2vl[IB_SMP_DATA_SIZE];
	u8		vlarb_low[IB_SMP_DATA_SIZE];	/* block 1 */
	u8		vlarb_high[IB_SMP_DATA_SIZE];	/* block 3 */
};

static struct {
	struct kt_vt		u, p;
	struct sma_state	u0, p0;	/* as sma_suite_init() read them */
} sma_bed;

/* One Get of @attr (any M_Key): 0, or -EIO if it was not answered. */
static int sma_read(struct ib_device *dev, __be16 attr, u32 mod, u8 *data)
{
	struct ib_smp *in, *out;
	int ret = -ENOMEM;

	in = kzalloc(sizeof(*in), GFP_KERNEL);
	out = kzalloc(sizeof(*out), GFP_KERNEL);
	if (in && out) {
		smp_fill(in, IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET,
			 attr, mod);
		ret = sma_call(dev, IB_MAD_IGNORE_MKEY, in, out) == RES_REPLY &&
		      !out->status ? 0 : -EIO;
		if (!ret)
			memcpy(data, out->data, IB_SMP_DATA_SIZE);
	}
	kfree(in);
	kfree(out);
	return ret;
}

static int sma_state_read(struct ib_device *dev, struct sma_state *st)
{
	return sma_read(dev, IB_SMP_ATTR_PORT_INFO, 0, st->pi.raw) ?:
	       sma_read(dev, IB_SMP_ATTR_PKEY_TABLE, 0, st->pkeys) ?:
	       sma_read(dev, IB_SMP_ATTR_GUID_INFO, 0, st->guids) ?:
	       sma_read(dev, IB_SMP_ATTR_SL_TO_VL_TABLE, 0, st->sl2vl) ?:
	       sma_read(dev, IB_SMP_ATTR_VL_ARB_TABLE, 1 << 16,
			st->vlarb_low) ?:
	       sma_read(dev, IB_SMP_ATTR_VL_ARB_TABLE, 3 << 16,
			st->vlarb_high);
}

/* A Set of @attr with @data, M_Key ignored, which must succeed. */
static void sma_write(struct kunit *test, struct ib_device *dev, __be16 attr,
		      u32 mod, const u8 *data)
{
	struct ib_smp *out = new_smp(test);

	KUNIT_EXPECT_EQ_MSG(test, sma_do(test, dev, IB_MGMT_METHOD_SET, attr,
					 mod, data, 0, IB_MAD_IGNORE_MKEY,
					 out), RES_REPLY,
			    "cleanup: %s attribute 0x%x", dev_name(&dev->dev),
			    be16_to_cpu(attr));
	KUNIT_EXPECT_EQ_MSG(test, be16_to_cpu(out->status), 0,
			    "cleanup: %s attribute 0x%x", dev_name(&dev->dev),
			    be16_to_cpu(attr));
}

/* @vt's port as @st0 says it was: see the head of the file. */
static void sma_restore(struct kunit *test, struct kt_vt *vt,
			const struct sma_state *st0)
{
	struct ib_device *dev = vt->dev;
	u32 cap0 = be32_to_cpu(st0->pi.pi.cap_mask), cap;
	struct ib_port_modify pm = {
		.init_type = st0->pi.pi.inittypereply_mtucap >> 4,
	};
	struct pinfo p;

	KUNIT_ASSERT_EQ(test, sma_read(dev, IB_SMP_ATTR_PORT_INFO, 0, p.raw),
			0);
	cap = be32_to_cpu(p.pi.cap_mask);
	pm.set_port_cap_mask = cap0 & ~cap;
	pm.clr_port_cap_mask = cap & ~cap0;
	KUNIT_EXPECT_EQ(test, ib_modify_port(dev, 1, IB_PORT_INIT_TYPE |
					     IB_PORT_RESET_QKEY_CNTR, &pm), 0);
	/* a disabled or trained-down link polls, then goes to ACTIVE */
	KUNIT_ASSERT_EQ(test, sma_read(dev, IB_SMP_ATTR_PORT_INFO, 0, p.raw),
			0);
	if (pi_phys(&p) != IB_PORT_PHYS_STATE_LINK_UP) {
		pi_for_set(&p);
		p.pi.portphysstate_linkdown |= IB_PORT_PHYS_STATE_POLLING << 4;
		sma_write(test, dev, IB_SMP_ATTR_PORT_INFO, 0, p.raw);
		KUNIT_ASSERT_EQ(test, sma_read(dev, IB_SMP_ATTR_PORT_INFO, 0,
					       p.raw), 0);
	}
	if (pi_state(&p) == IB_PORT_INIT) {
		pi_for_set(&p);
		p.pi.linkspeed_portstate |= IB_PORT_ARMED;
		sma_write(test, dev, IB_SMP_ATTR_PORT_INFO, 0, p.raw);
		KUNIT_ASSERT_EQ(test, sma_read(dev, IB_SMP_ATTR_PORT_INFO, 0,
					       p.raw), 0);
	}
	if (pi_state(&p) == IB_PORT_ARMED) {
		pi_for_set(&p);
		p.pi.linkspeed_portstate |= IB_PORT_ACTIVE;
		sma_write(test, dev, IB_SMP_ATTR_PORT_INFO, 0, p.raw);
	}
	/* everything else of PortInfo, M_Key violations 0 included */
	p = st0->pi;
	pi_for_set(&p);
	sma_write(test, dev, IB_SMP_ATTR_PORT_INFO, 0, p.raw);
	sma_write(test, dev, IB_SMP_ATTR_PKEY_TABLE, 0, st0->pkeys);
	sma_write(test, dev, IB_SMP_ATTR_GUID_INFO, 0, st0->guids);
	sma_write(test, dev, IB_SMP_ATTR_SL_TO_VL_TABLE, 0, st0->sl2vl);
	sma_write(test, dev, IB_SMP_ATTR_VL_ARB_TABLE, 1 << 16,
		  st0->vlarb_low);
	sma_write(test, dev, IB_SMP_ATTR_VL_ARB_TABLE, 3 << 16,
		  st0->vlarb_high);
	/* the events of all that reach nobody of the next case */
	ib_event_flush(dev);
}

/* KUnit action, a case's last: U and P as the suite made them. */
static void sma_case_exit(void *arg)
{
	struct kunit *test = arg;

	sma_restore(test, &sma_bed.u, &sma_bed.u0);
	sma_restore(test, &sma_bed.p, &sma_bed.p0);
}

/* @vt's port is as @st0 says, and ACTIVE. */
static void sma_expect_as_made(struct kunit *test, struct kt_vt *vt,
			       const struct sma_state *st0)
{
	struct sma_state *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	struct ib_port_attr pa;

	KUNIT_ASSERT_NOT_NULL(test, vt->dev);
	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_ASSERT_EQ(test, sma_state_read(vt->dev, st), 0);
	KUNIT_ASSERT_EQ_MSG(test, memcmp(st, st0, sizeof(*st)), 0,
			    "%s: not as the suite made it",
			    dev_name(&vt->dev->dev));
	KUNIT_ASSERT_EQ(test, ib_query_port(vt->dev, 1, &pa), 0);
	KUNIT_ASSERT_EQ(test, pa.state, IB_PORT_ACTIVE);
}

/*
 * Each case's init: U and P as the suite made them, and the case's end
 * (sma_case_exit()), which runs after everything the case registers.
 */
static int sma_case_init(struct kunit *test)
{
	sma_expect_as_made(test, &sma_bed.u, &sma_bed.u0);
	sma_expect_as_made(test, &sma_bed.p, &sma_bed.p0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sma_case_exit,
							test), 0);
	return 0;
}

/* The suite's exit: what its init made goes */
static void sma_suite_exit(struct kunit_suite *suite)
{
	struct kt_vt *vts[] = { &sma_bed.u, &sma_bed.p };
	int i;

	for (i = 0; i < ARRAY_SIZE(vts); i++)
		kt_suite_vt_free(vts[i]);
	memset(&sma_bed, 0, sizeof(sma_bed));
}

/* An unmanaged device of the suite, its PD, what its SMA says of it */
static int sma_new_dev(struct kt_vt *vt, struct sma_state *st0)
{
	int ret = kt_suite_vt_new(vt, "kusma%d");

	return ret ?: sma_state_read(vt->dev, st0);
}

/* The suite's init: U and P */
static int sma_suite_init(struct kunit_suite *suite)
{
	int ret = sma_new_dev(&sma_bed.u, &sma_bed.u0);

	if (!ret)
		ret = sma_new_dev(&sma_bed.p, &sma_bed.p0);
	if (ret)
		sma_suite_exit(suite);
	return ret;
}

/* ------------------------------------------------------------------ */

static struct kt_vt *new_managed(struct kunit *test)
{
	return kt_new_vt_flags(test, "kusmam%d", RDMA_LOOP_MANAGED);
}

/*
 * NodeDescription and NodeInfo, LID-routed and directed-route: the
 * answer is the request as a GetResp with the same TID, the directed-
 * route one with the direction bit (and nothing else) in its status.
 */
static void rvt_sma_node_attrs(struct kunit *test)
{
	struct kt_vt *vt = &sma_bed.u;
	struct ib_smp *in = new_smp(test), *out = new_smp(test);
	struct ib_smp *dr = new_smp(test);
	struct ib_node_info *ni = (struct ib_node_info *)out->data;
	const struct ib_device_attr *attrs = &vt->dev->attrs;
	union ib_gid gid;

	sma_get(test, vt->dev, IB_SMP_ATTR_NODE_DESC, 0, out);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(out->tid), 0x5eed0001ULL);
	KUNIT_EXPECT_EQ(test, out->mgmt_class, IB_MGMT_CLASS_SUBN_LID_ROUTED);
	KUNIT_EXPECT_EQ(test, memcmp(out->data, vt->dev->node_desc,
				     IB_SMP_DATA_SIZE), 0);
	KUNIT_EXPECT_STREQ(test, (char *)out->data, "rdma_loop");

	KUNIT_ASSERT_EQ(test, rdma_query_gid(vt->dev, 1, 0, &gid), 0);
	sma_get(test, vt->dev, IB_SMP_ATTR_NODE_INFO, 0, out);
	KUNIT_EXPECT_EQ(test, ni->base_version, 1);
	KUNIT_EXPECT_EQ(test, ni->class_version, 1);
	KUNIT_EXPECT_EQ(test, ni->node_type, 1);
	KUNIT_EXPECT_EQ(test, ni->num_ports, 1);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->sys_guid),
			be64_to_cpu(attrs->sys_image_guid));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->node_guid),
			be64_to_cpu(vt->dev->node_guid));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->port_guid),
			be64_to_cpu(gid.global.interface_id));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->port_guid),
			be64_to_cpu(vt->dev->node_guid) + 1);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(ni->partition_cap), 32);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(ni->device_id),
			(u16)attrs->vendor_part_id);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(ni->revision), attrs->hw_ver);
	KUNIT_EXPECT_EQ(test, ni->local_port_num, 1);
	KUNIT_EXPECT_EQ(test, ni->vendor_id[0] << 16 | ni->vendor_id[1] << 8 |
			ni->vendor_id[2], attrs->vendor_id & 0xffffff);

	/* directed route: the same data, the D bit set */
	smp_fill(in, IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, IB_MGMT_METHOD_GET,
		 IB_SMP_ATTR_NODE_INFO, 0);
	KUNIT_ASSERT_EQ(test, sma_call(vt->dev, 0, in, dr), RES_REPLY);
	KUNIT_EXPECT_EQ(test, dr->method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(dr->status), 0x8000);
	KUNIT_EXPECT_TRUE(test, ib_get_smp_direction(dr));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(dr->dr_slid), 0xffff);
	KUNIT_EXPECT_EQ(test, memcmp(dr->data, out->data, IB_SMP_DATA_SIZE),
			0);
	/* a directed-route error keeps the bit beside the status */
	smp_fill(in, IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, IB_MGMT_METHOD_GET,
		 IB_SMP_ATTR_SWITCH_INFO, 0);
	KUNIT_ASSERT_EQ(test, sma_call(vt->dev, 0, in, dr), RES_REPLY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(dr->status), 0x8000 | ST_UNSUP_ATTR);

	/* attribute modifiers these attributes do not have */
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_NODE_INFO, 1),
			ST_INVALID);
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_NODE_DESC, 1),
			ST_INVALID);
}

/*
 * An unmanaged port's PortInfo, field by field, and ib_query_port() (what
 * sysfs and "rdma link" show) saying the same.
 */
static void rvt_sma_portinfo_unmanaged(struct kunit *test)
{
	struct kt_vt *vt = &sma_bed.u;
	u32 lid = rdma_loop_port_lid(vt->dev);
	struct ib_port_attr pa;
	struct pinfo p;

	KUNIT_ASSERT_NE(test, lid, 0);
	pi_get(test, vt->dev, &p);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p.pi.mkey), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p.pi.gid_prefix),
			0xfe80000000000000ULL);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(p.pi.lid), lid);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(p.pi.sm_lid), lid);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p.pi.cap_mask), CAP_DEFAULT);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(p.pi.diag_code), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(p.pi.mkey_lease_period), 0);
	KUNIT_EXPECT_EQ(test, p.pi.local_port_num, 1);
	KUNIT_EXPECT_EQ(test, p.pi.link_width_enabled, 3);
	KUNIT_EXPECT_EQ(test, p.pi.link_width_supported, 3);
	KUNIT_EXPECT_EQ(test, p.pi.link_width_active, 2);
	KUNIT_EXPECT_EQ(test, p.pi.linkspeed_portstate, 0x74);
	KUNIT_EXPECT_EQ(test, p.pi.portphysstate_linkdown, 0x52);
	KUNIT_EXPECT_EQ(test, p.pi.mkeyprot_resv_lmc, 0);
	KUNIT_EXPECT_EQ(test, p.pi.linkspeedactive_enabled, 0x47);
	KUNIT_EXPECT_EQ(test, p.pi.neighbormtu_mastersmsl, 0x50);
	KUNIT_EXPECT_EQ(test, p.pi.vlcap_inittype, 0x10);
	KUNIT_EXPECT_EQ(test, p.pi.vl_high_limit, 0);
	KUNIT_EXPECT_EQ(test, p.pi.vl_arb_high_cap, 32);
	KUNIT_EXPECT_EQ(test, p.pi.vl_arb_low_cap, 32);
	KUNIT_EXPECT_EQ(test, p.pi.inittypereply_mtucap, 0x05);
	KUNIT_EXPECT_EQ(test, p.pi.vlstallcnt_hoqlife, 0);
	KUNIT_EXPECT_EQ(test, p.pi.operationalvl_pei_peo_fpi_fpo, 0x10);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(p.pi.mkey_violations), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(p.pi.pkey_violations), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(p.pi.qkey_violations), 0);
	KUNIT_EXPECT_EQ(test, p.pi.guid_cap, 8);
	KUNIT_EXPECT_EQ(test, p.pi.clientrereg_resv_subnetto, 18);
	KUNIT_EXPECT_EQ(test, p.pi.resv_resptimevalue, 18);
	KUNIT_EXPECT_EQ(test, p.pi.localphyerrors_overrunerrors, 0);
	/* CapabilityMask2 0; LinkSpeedExt EDR active, FDR|EDR supported */
	KUNIT_EXPECT_EQ(test, p.raw[60], 0);
	KUNIT_EXPECT_EQ(test, p.raw[61], 0);
	KUNIT_EXPECT_EQ(test, p.raw[62], 0x23);
	KUNIT_EXPECT_EQ(test, p.raw[63], 0x03);

	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.state, IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, pa.phys_state, IB_PORT_PHYS_STATE_LINK_UP);
	KUNIT_EXPECT_EQ(test, pa.lid, lid);
	KUNIT_EXPECT_EQ(test, pa.sm_lid, lid);
	KUNIT_EXPECT_EQ(test, pa.lmc, 0);
	KUNIT_EXPECT_EQ(test, pa.sm_sl, 0);
	KUNIT_EXPECT_EQ(test, pa.port_cap_flags, CAP_DEFAULT);
	KUNIT_EXPECT_EQ(test, pa.max_mtu, IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, pa.active_mtu, IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, pa.active_width, IB_WIDTH_4X);
	KUNIT_EXPECT_EQ(test, pa.active_speed, IB_SPEED_EDR);
	KUNIT_EXPECT_EQ(test, pa.subnet_timeout, 18);
	KUNIT_EXPECT_EQ(test, pa.init_type_reply, 0);
	KUNIT_EXPECT_EQ(test, pa.pkey_tbl_len, 32);
	KUNIT_EXPECT_EQ(test, pa.gid_tbl_len, 1);
	KUNIT_EXPECT_EQ(test, pa.max_vl_num, 1);
	KUNIT_EXPECT_EQ(test, pa.subnet_prefix, 0xfe80000000000000ULL);
}

/*
 * A managed port from registration to ACTIVE and back, as a subnet
 * manager drives it: events in order, ib_query_port() and the cache of
 * ib_core after each step.
 */
static void rvt_sma_portinfo_bringup(struct kunit *test)
{
	struct kt_vt *vt = new_managed(test);
	struct evrec *r = new_evrec(test, vt->dev);
	enum ib_port_state cached;
	struct ib_port_attr pa;
	struct pinfo p, ans;
	u8 lmc;

	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.state, IB_PORT_INIT);
	KUNIT_EXPECT_EQ(test, pa.phys_state, IB_PORT_PHYS_STATE_LINK_UP);
	KUNIT_EXPECT_EQ(test, pa.lid, 0);
	KUNIT_EXPECT_EQ(test, pa.sm_lid, 0);
	KUNIT_EXPECT_EQ(test, pa.subnet_timeout, 0);
	KUNIT_EXPECT_EQ(test, rdma_loop_port_lid(vt->dev), 0);
	KUNIT_ASSERT_EQ(test, ib_get_cached_port_state(vt->dev, 1, &cached),
			0);
	KUNIT_EXPECT_EQ(test, cached, IB_PORT_INIT);

	/* LID, LMC, SM LID and SL, subnet timeout; the state stays INIT */
	pi_get(test, vt->dev, &p);
	KUNIT_EXPECT_EQ(test, pi_state(&p), IB_PORT_INIT);
	pi_for_set(&p);
	p.pi.lid = cpu_to_be16(0x1300);
	p.pi.sm_lid = cpu_to_be16(SM_LID);
	p.pi.mkeyprot_resv_lmc = 1;
	p.pi.neighbormtu_mastersmsl = IB_MTU_2048 << 4 | 3;
	p.pi.clientrereg_resv_subnetto = 17;
	KUNIT_ASSERT_EQ(test, pi_set(test, vt->dev, &p, &ans), 0);
	KUNIT_EXPECT_EQ(test, pi_state(&ans), IB_PORT_INIT);
	KUNIT_EXPECT_EQ(test, pi_phys(&ans), IB_PORT_PHYS_STATE_LINK_UP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(ans.pi.lid), 0x1300);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(ans.pi.sm_lid), SM_LID);
	KUNIT_EXPECT_EQ(test, ans.pi.neighbormtu_mastersmsl,
			IB_MTU_2048 << 4 | 3);
	evrec_wait(test, r, 2);
	KUNIT_EXPECT_EQ(test, ev(r, 0), IB_EVENT_LID_CHANGE);
	KUNIT_EXPECT_EQ(test, ev(r, 1), IB_EVENT_SM_CHANGE);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.state, IB_PORT_INIT);
	KUNIT_EXPECT_EQ(test, pa.lid, 0x1300);
	KUNIT_EXPECT_EQ(test, pa.lmc, 1);
	KUNIT_EXPECT_EQ(test, pa.sm_lid, SM_LID);
	KUNIT_EXPECT_EQ(test, pa.sm_sl, 3);
	KUNIT_EXPECT_EQ(test, pa.subnet_timeout, 17);
	KUNIT_EXPECT_EQ(test, pa.active_mtu, IB_MTU_2048);
	KUNIT_EXPECT_EQ(test, rdma_loop_port_lid(vt->dev), 0x1300);
	KUNIT_ASSERT_EQ(test, ib_get_cached_lmc(vt->dev, 1, &lmc), 0);
	KUNIT_EXPECT_EQ(test, lmc, 1);

	/* ARMED: no event yet */
	pi_set_state(test, vt->dev, IB_PORT_ARMED);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.state, IB_PORT_ARMED);
	/* ACTIVE */
	pi_set_state(test, vt->dev, IB_PORT_ACTIVE);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.state, IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, pa.phys_state, IB_PORT_PHYS_STATE_LINK_UP);
	evrec_wait(test, r, 3);
	KUNIT_EXPECT_EQ(test, ev(r, 2), IB_EVENT_PORT_ACTIVE);
	KUNIT_ASSERT_EQ(test, ib_get_cached_port_state(vt->dev, 1, &cached),
			0);
	KUNIT_EXPECT_EQ(test, cached, IB_PORT_ACTIVE);

	/* DOWN: the link trains again at once, the port is in INIT */
	pi_get(test, vt->dev, &p);
	pi_for_set(&p);
	p.pi.linkspeed_portstate |= IB_PORT_DOWN;
	KUNIT_ASSERT_EQ(test, pi_set(test, vt->dev, &p, &ans), 0);
	KUNIT_EXPECT_EQ(test, pi_state(&ans), IB_PORT_INIT);
	KUNIT_EXPECT_EQ(test, pi_phys(&ans), IB_PORT_PHYS_STATE_LINK_UP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(ans.pi.lid), 0x1300);
	evrec_wait(test, r, 4);
	KUNIT_EXPECT_EQ(test, ev(r, 3), IB_EVENT_PORT_ERR);
	KUNIT_ASSERT_EQ(test, ib_get_cached_port_state(vt->dev, 1, &cached),
			0);
	KUNIT_EXPECT_EQ(test, cached, IB_PORT_INIT);

	/* up again, then disabled by PortPhysicalState, then polling */
	pi_set_state(test, vt->dev, IB_PORT_ARMED);
	pi_set_state(test, vt->dev, IB_PORT_ACTIVE);
	pi_get(test, vt->dev, &p);
	pi_for_set(&p);
	p.pi.portphysstate_linkdown |= IB_PORT_PHYS_STATE_DISABLED << 4;
	KUNIT_ASSERT_EQ(test, pi_set(test, vt->dev, &p, &ans), 0);
	KUNIT_EXPECT_EQ(test, pi_state(&ans), IB_PORT_DOWN);
	KUNIT_EXPECT_EQ(test, pi_phys(&ans), IB_PORT_PHYS_STATE_DISABLED);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.state, IB_PORT_DOWN);
	KUNIT_EXPECT_EQ(test, pa.phys_state, IB_PORT_PHYS_STATE_DISABLED);
	pi_get(test, vt->dev, &p);
	pi_for_set(&p);
	p.pi.portphysstate_linkdown |= IB_PORT_PHYS_STATE_POLLING << 4;
	KUNIT_ASSERT_EQ(test, pi_set(test, vt->dev, &p, &ans), 0);
	KUNIT_EXPECT_EQ(test, pi_state(&ans), IB_PORT_INIT);
	KUNIT_EXPECT_EQ(test, pi_phys(&ans), IB_PORT_PHYS_STATE_LINK_UP);

	evrec_wait(test, r, 6);
	KUNIT_EXPECT_EQ(test, ev(r, 4), IB_EVENT_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, ev(r, 5), IB_EVENT_PORT_ERR);
	ib_event_flush(vt->dev);
	KUNIT_EXPECT_EQ(test, evrec_count(r), 6);
}

/* @p with one byte of PortInfo changed to @v; the Set must be refused. */
static void pi_refused(struct kunit *test, struct ib_device *dev,
		       const struct pinfo *base, int off, u8 v)
{
	struct pinfo p = *base, ans, now;

	p.raw[off] = v;
	KUNIT_EXPECT_EQ_MSG(test, pi_set(test, dev, &p, &ans), ST_INVALID,
			    "byte %d = 0x%02x", off, v);
	/* nothing changed: the answer is the PortInfo as it was */
	pi_get(test, dev, &now);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(ans.raw, now.raw, sizeof(now.raw)),
			    0, "byte %d = 0x%02x", off, v);
}

#define PI_OFF(field)	offsetof(struct ib_port_info, field)

/*
 * Sets IBTA 14.2.5.6 does not allow are refused with 0x001c and change
 * nothing, the good fields of the same Set included; no event follows.
 */
static void rvt_sma_portinfo_invalid(struct kunit *test)
{
	struct kt_vt *vt = new_managed(test);
	struct evrec *r = new_evrec(test, vt->dev);
	struct ib_port_attr pa;
	struct pinfo base, p;
	u8 ls, pp;

	pi_get(test, vt->dev, &base);
	pi_for_set(&base);
	base.pi.lid = cpu_to_be16(0x1400);
	base.pi.sm_lid = cpu_to_be16(SM_LID);
	ls = base.pi.linkspeed_portstate;
	pp = base.pi.portphysstate_linkdown;

	/* from INIT: ACTIVE, INIT, and values beyond ACTIVE */
	pi_refused(test, vt->dev, &base, PI_OFF(linkspeed_portstate),
		   ls | IB_PORT_ACTIVE);
	pi_refused(test, vt->dev, &base, PI_OFF(linkspeed_portstate),
		   ls | IB_PORT_INIT);
	pi_refused(test, vt->dev, &base, PI_OFF(linkspeed_portstate), ls | 5);
	pi_refused(test, vt->dev, &base, PI_OFF(linkspeed_portstate), ls | 15);
	/* LIDs: none, multicast, an LMC range into multicast, SM LID */
	p = base;
	p.pi.lid = 0;
	pi_refused(test, vt->dev, &p, PI_OFF(linkspeed_portstate),
		   ls | IB_PORT_ARMED);
	p.pi.lid = cpu_to_be16(0xc000);
	pi_refused(test, vt->dev, &p, PI_OFF(linkspeed_portstate), ls);
	p.pi.lid = cpu_to_be16(0xbfff);
	pi_refused(test, vt->dev, &p, PI_OFF(mkeyprot_resv_lmc), 1);
	p = base;
	p.pi.sm_lid = 0;
	pi_refused(test, vt->dev, &p, PI_OFF(linkspeed_portstate), ls);
	p.pi.sm_lid = IB_LID_PERMISSIVE;
	pi_refused(test, vt->dev, &p, PI_OFF(linkspeed_portstate), ls);
	/* physical state: unknown values, and beside ARMED */
	pi_refused(test, vt->dev, &base, PI_OFF(portphysstate_linkdown),
		   pp | 4 << 4);
	pi_refused(test, vt->dev, &base, PI_OFF(portphysstate_linkdown),
		   pp | 5 << 4);
	p = base;
	p.pi.linkspeed_portstate |= IB_PORT_ARMED;
	pi_refused(test, vt->dev, &p, PI_OFF(portphysstate_linkdown),
		   pp | IB_PORT_PHYS_STATE_POLLING << 4);
	pi_refused(test, vt->dev, &base, PI_OFF(portphysstate_linkdown),
		   (pp & 0xf0) | 3);
	/* widths, speeds, MTU, VLs the port does not have */
	pi_refused(test, vt->dev, &base, PI_OFF(link_width_enabled), 4);
	pi_refused(test, vt->dev, &base, PI_OFF(link_width_enabled), 0x10);
	pi_refused(test, vt->dev, &base, PI_OFF(linkspeedactive_enabled), 8);
	pi_refused(test, vt->dev, &base, 63, 0x04);
	pi_refused(test, vt->dev, &base, PI_OFF(neighbormtu_mastersmsl), 0);
	pi_refused(test, vt->dev, &base, PI_OFF(neighbormtu_mastersmsl),
		   6 << 4);
	pi_refused(test, vt->dev, &base,
		   PI_OFF(operationalvl_pei_peo_fpi_fpo), 2 << 4);

	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.state, IB_PORT_INIT);
	KUNIT_EXPECT_EQ(test, pa.lid, 0);
	KUNIT_EXPECT_EQ(test, pa.sm_lid, 0);

	/* the same Set without the fault goes through */
	KUNIT_ASSERT_EQ(test, pi_set(test, vt->dev, &base, NULL), 0);
	evrec_wait(test, r, 2);
	/* ARMED twice is fine; then ACTIVE; ARMED from ACTIVE is not */
	pi_set_state(test, vt->dev, IB_PORT_ARMED);
	pi_set_state(test, vt->dev, IB_PORT_ARMED);
	pi_set_state(test, vt->dev, IB_PORT_ACTIVE);
	pi_set_state(test, vt->dev, IB_PORT_ACTIVE);
	pi_get(test, vt->dev, &p);
	pi_for_set(&p);
	pi_refused(test, vt->dev, &p, PI_OFF(linkspeed_portstate),
		   p.pi.linkspeed_portstate | IB_PORT_ARMED);
	evrec_wait(test, r, 3);
	KUNIT_EXPECT_EQ(test, ev(r, 0), IB_EVENT_LID_CHANGE);
	KUNIT_EXPECT_EQ(test, ev(r, 1), IB_EVENT_SM_CHANGE);
	KUNIT_EXPECT_EQ(test, ev(r, 2), IB_EVENT_PORT_ACTIVE);
	ib_event_flush(vt->dev);
	KUNIT_EXPECT_EQ(test, evrec_count(r), 3);
}

/*
 * The fabric routes by the LIDs a subnet manager sets: a datagram to a
 * port's new LID arrives, one to its old LID does not, an RC connection
 * works at the new LID, and a port that is not ACTIVE takes no data.
 */
static void rvt_sma_lid_routing(struct kunit *test)
{
	struct kt_vt *a = new_managed(test), *b = new_managed(test);
	struct udq *ua, *ub;
	struct ib_ah *old_ah, *new_ah_b;
	struct ib_wc wc;
	struct pinfo p;

	sm_bring_up(test, a->dev, 0x1500, 0);
	sm_bring_up(test, b->dev, 0x1510, 0);
	ua = new_udq(test, a);
	ub = new_udq(test, b);
	old_ah = new_ah(test, a, 0x1510, 0);
	KUNIT_ASSERT_TRUE(test, ud_reaches(test, ua, old_ah, ub, QKEY, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.slid, 0x1500);
	KUNIT_EXPECT_EQ(test, wc.src_qp, ua->qp->qp_num);
	KUNIT_EXPECT_EQ(test, wc.byte_len, LEN + 40);

	/* B moves to 0x1520 and stays ACTIVE */
	pi_get(test, b->dev, &p);
	pi_for_set(&p);
	p.pi.lid = cpu_to_be16(0x1520);
	KUNIT_ASSERT_EQ(test, pi_set(test, b->dev, &p, NULL), 0);
	KUNIT_EXPECT_EQ(test, rdma_loop_port_lid(b->dev), 0x1520);
	KUNIT_EXPECT_FALSE(test, ud_reaches(test, ua, old_ah, ub, QKEY, &wc));
	ub = new_udq(test, b);
	new_ah_b = new_ah(test, a, 0x1520, 0);
	KUNIT_ASSERT_TRUE(test, ud_reaches(test, ua, new_ah_b, ub, QKEY, &wc));
	KUNIT_EXPECT_EQ(test, wc.slid, 0x1500);

	/* B back in INIT (DOWN, link up again): no data reaches it */
	pi_get(test, b->dev, &p);
	pi_for_set(&p);
	p.pi.linkspeed_portstate |= IB_PORT_DOWN;
	KUNIT_ASSERT_EQ(test, pi_set(test, b->dev, &p, NULL), 0);
	KUNIT_EXPECT_FALSE(test, ud_reaches(test, ua, new_ah_b, ub, QKEY,
					    &wc));
	/* nor does a port that is not ACTIVE send any */
	pi_set_state(test, b->dev, IB_PORT_ARMED);
	pi_set_state(test, b->dev, IB_PORT_ACTIVE);
	ub = new_udq(test, b);
	pi_get(test, a->dev, &p);
	pi_for_set(&p);
	p.pi.linkspeed_portstate |= IB_PORT_DOWN;
	KUNIT_ASSERT_EQ(test, pi_set(test, a->dev, &p, NULL), 0);
	KUNIT_EXPECT_FALSE(test, ud_reaches(test, ua, new_ah_b, ub, QKEY,
					    &wc));
	pi_set_state(test, a->dev, IB_PORT_ARMED);
	pi_set_state(test, a->dev, IB_PORT_ACTIVE);
	ub = new_udq(test, b);
	KUNIT_EXPECT_TRUE(test, ud_reaches(test, ua, new_ah_b, ub, QKEY, &wc));
}

/* An RC SEND from @qa to @qb, connected through their ports' LIDs. */
static void rvt_sma_rc_at_new_lid(struct kunit *test)
{
	struct kt_vt *a = new_managed(test), *b = new_managed(test);
	struct ib_cq *cqa, *cqb;
	struct ib_qp *qa, *qb;
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 4, .max_recv_wr = 4,
			.max_send_sge = 1, .max_recv_sge = 1,
		},
	};
	struct rdma_loop_conn ca = { .dlid = 0x1621, .rnr_retry = 7 };
	struct rdma_loop_conn cb = { .dlid = 0x1611, .rnr_retry = 7 };
	u8 *sbuf = kunit_kzalloc(test, LEN, GFP_KERNEL);
	u8 *rbuf = kunit_kzalloc(test, LEN, GFP_KERNEL);
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	struct ib_sge ssge, rsge;
	struct ib_recv_wr rwr = { .num_sge = 1 };
	struct ib_send_wr swr = {
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};

	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	/* LMC 1 on both: each answers two LIDs; the odd ones are used */
	sm_bring_up(test, a->dev, 0x1610, 1);
	sm_bring_up(test, b->dev, 0x1620, 1);
	cqa = kt_new_direct_cq(test, a);
	cqb = kt_new_direct_cq(test, b);
	init.send_cq = cqa;
	init.recv_cq = cqa;
	qa = kt_new_test_qp(test, a, &init);
	init.send_cq = cqb;
	init.recv_cq = cqb;
	qb = kt_new_test_qp(test, b, &init);
	ca.dqpn = qb->qp_num;
	cb.dqpn = qa->qp_num;
	KUNIT_ASSERT_EQ(test, rdma_loop_connect_qp(qa, &ca, IB_QPS_RTS), 0);
	KUNIT_ASSERT_EQ(test, rdma_loop_connect_qp(qb, &cb, IB_QPS_RTS), 0);

	memset(sbuf, 0x3c, LEN);
	ssge = kt_sge_of(qa->pd, sbuf, LEN);
	rsge = kt_sge_of(qb->pd, rbuf, LEN);
	rwr.wr_cqe = &r->cqe;
	rwr.sg_list = &rsge;
	swr.wr_cqe = &s->cqe;
	swr.sg_list = &ssge;
	KUNIT_ASSERT_EQ(test, ib_post_recv(qb, &rwr, NULL), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(qa, &swr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cqa, s));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cqb, r));
	KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, r->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, LEN);
	KUNIT_EXPECT_EQ(test, memcmp(sbuf, rbuf, LEN), 0);
	/* the path bits of B's LID the request came to */
	KUNIT_EXPECT_EQ(test, r->wc.dlid_path_bits, 1);
}

/*
 * LMC: a port answers its base LID .. base + 2^LMC - 1 and nothing
 * else (no multicast or permissive LID); the sender's path bits show in
 * the receiver's SLID; the cache's LMC follows LID_CHANGE.
 */
static void rvt_sma_lmc(struct kunit *test)
{
	struct kt_vt *a = new_managed(test), *b = new_managed(test);
	struct rvt_dev_info *rb = ib_to_rvt(b->dev);
	struct evrec *r = new_evrec(test, b->dev);
	struct kt_vt *u = &sma_bed.u;
	struct udq *ua, *ub;
	struct ib_wc wc;
	struct pinfo p;
	u8 lmc;
	u32 l;

	sm_bring_up(test, a->dev, 0x1700, 1);
	sm_bring_up(test, b->dev, 0x1704, 2);
	evrec_wait(test, r, 3);
	KUNIT_EXPECT_EQ(test, ev(r, 0), IB_EVENT_LID_CHANGE);
	KUNIT_ASSERT_EQ(test, ib_get_cached_lmc(b->dev, 1, &lmc), 0);
	KUNIT_EXPECT_EQ(test, lmc, 2);

	for (l = 0x1704; l <= 0x1707; l++)
		KUNIT_EXPECT_EQ(test, rvt_port_by_lid(rb, l), 1);
	KUNIT_EXPECT_EQ(test, rvt_port_by_lid(rb, 0x1703), 0);
	KUNIT_EXPECT_EQ(test, rvt_port_by_lid(rb, 0x1708), 0);
	KUNIT_EXPECT_EQ(test, rvt_port_by_lid(rb, 0), 0);
	KUNIT_EXPECT_EQ(test, rvt_port_by_lid(rb, 0xc000), 0);
	KUNIT_EXPECT_EQ(test, rvt_port_by_lid(rb, 0xfffe), 0);
	KUNIT_EXPECT_EQ(test, rvt_port_by_lid(rb, 0xffff), 0);
	KUNIT_EXPECT_EQ(test, rvt_port_by_lid(ib_to_rvt(u->dev),
					      rdma_loop_port_lid(u->dev)), 1);

	ua = new_udq(test, a);
	ub = new_udq(test, b);
	KUNIT_ASSERT_TRUE(test, ud_reaches(test, ua, new_ah(test, a, 0x1707, 1),
					   ub, QKEY, &wc));
	KUNIT_EXPECT_EQ(test, wc.slid, 0x1701);
	KUNIT_EXPECT_EQ(test, wc.dlid_path_bits, 3);
	KUNIT_EXPECT_FALSE(test, ud_reaches(test, ua,
					    new_ah(test, a, 0x1708, 0), ub,
					    QKEY, &wc));

	/* the LMC alone changes: LID_CHANGE, cache follows, range shrinks */
	pi_get(test, b->dev, &p);
	pi_for_set(&p);
	p.pi.mkeyprot_resv_lmc = 0;
	KUNIT_ASSERT_EQ(test, pi_set(test, b->dev, &p, NULL), 0);
	evrec_wait(test, r, 4);
	KUNIT_EXPECT_EQ(test, ev(r, 3), IB_EVENT_LID_CHANGE);
	KUNIT_ASSERT_EQ(test, ib_get_cached_lmc(b->dev, 1, &lmc), 0);
	KUNIT_EXPECT_EQ(test, lmc, 0);
	KUNIT_EXPECT_EQ(test, rvt_port_by_lid(rb, 0x1704), 1);
	KUNIT_EXPECT_EQ(test, rvt_port_by_lid(rb, 0x1705), 0);
}

/* A new UD QP of @vt to INIT with P_Key index @index: the result. */
static int ud_to_init(struct kunit *test, struct kt_vt *vt, u16 index)
{
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IB_QPT_UD,
		.cap = {
			.max_send_wr = 1, .max_recv_wr = 1,
			.max_send_sge = 1, .max_recv_sge = 1,
		},
	};
	struct ib_qp *qp = kt_new_test_qp(test, vt, &init);
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qkey = QKEY,
		.pkey_index = index,
	};

	return ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PORT | IB_QP_QKEY |
			    IB_QP_PKEY_INDEX);
}

/*
 * P_KeyTable: Get and Set of block 0, PKEY_CHANGE only when something
 * changed, ib_query_pkey() and the cache after it, blocks that do not
 * exist, and pkey_index of a QP within the table.
 */
static void rvt_sma_pkey_table(struct kunit *test)
{
	struct kt_vt *vt = &sma_bed.u;
	struct evrec *r = new_evrec(test, vt->dev);
	struct ib_smp *out = new_smp(test);
	__be16 *pk = (__be16 *)out->data;
	__be16 tbl[32] = {};
	u16 key;
	int i;

	sma_get(test, vt->dev, IB_SMP_ATTR_PKEY_TABLE, 0, out);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(pk[0]), 0xffff);
	for (i = 1; i < 32; i++)
		KUNIT_EXPECT_EQ(test, be16_to_cpu(pk[i]), 0);

	tbl[0] = cpu_to_be16(0xffff);
	tbl[1] = cpu_to_be16(0x8001);
	tbl[2] = cpu_to_be16(0x7002);
	tbl[31] = cpu_to_be16(0x801f);
	KUNIT_ASSERT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_PKEY_TABLE, 0,
				      tbl, out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out->data, tbl, sizeof(tbl)), 0);
	evrec_wait(test, r, 1);
	KUNIT_EXPECT_EQ(test, ev(r, 0), IB_EVENT_PKEY_CHANGE);
	KUNIT_ASSERT_EQ(test, ib_query_pkey(vt->dev, 1, 1, &key), 0);
	KUNIT_EXPECT_EQ(test, key, 0x8001);
	KUNIT_ASSERT_EQ(test, ib_get_cached_pkey(vt->dev, 1, 1, &key), 0);
	KUNIT_EXPECT_EQ(test, key, 0x8001);
	KUNIT_ASSERT_EQ(test, ib_get_cached_pkey(vt->dev, 1, 2, &key), 0);
	KUNIT_EXPECT_EQ(test, key, 0x7002);
	KUNIT_ASSERT_EQ(test, ib_get_cached_pkey(vt->dev, 1, 31, &key), 0);
	KUNIT_EXPECT_EQ(test, key, 0x801f);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(vt->dev, 1, 32, &key), -EINVAL);

	/* the same table again: no event; then a change: one */
	KUNIT_ASSERT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_PKEY_TABLE, 0,
				      tbl, out), 0);
	tbl[1] = cpu_to_be16(0x8003);
	KUNIT_ASSERT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_PKEY_TABLE, 0,
				      tbl, out), 0);
	evrec_wait(test, r, 2);
	KUNIT_EXPECT_EQ(test, ev(r, 1), IB_EVENT_PKEY_CHANGE);
	KUNIT_ASSERT_EQ(test, ib_get_cached_pkey(vt->dev, 1, 1, &key), 0);
	KUNIT_EXPECT_EQ(test, key, 0x8003);

	/* block 1 and a switch's port number do not exist on this CA */
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_PKEY_TABLE, 1),
			ST_INVALID);
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_PKEY_TABLE, 0x10000),
			ST_INVALID);
	KUNIT_EXPECT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_PKEY_TABLE, 1,
				      tbl, out), ST_INVALID);

	/* a QP's P_Key index: the table's 32 entries */
	KUNIT_EXPECT_EQ(test, ud_to_init(test, vt, 31), 0);
	KUNIT_EXPECT_EQ(test, ud_to_init(test, vt, 32), -EINVAL);
	ib_event_flush(vt->dev);
	KUNIT_EXPECT_EQ(test, evrec_count(r), 2);
}

/* PortInfo Get of @dev with M_Key @key and @flags: the result. */
static int pi_get_key(struct kunit *test, struct ib_device *dev, u64 key,
		      int flags, struct pinfo *p)
{
	struct ib_smp *out = new_smp(test);
	int ret = sma_do(test, dev, IB_MGMT_METHOD_GET, IB_SMP_ATTR_PORT_INFO,
			 0, NULL, cpu_to_be64(key), flags, out);

	memcpy(p->raw, out->data, sizeof(p->raw));
	return ret;
}

/* PortInfo Set of @p with M_Key @key: the result. */
static int pi_set_key(struct kunit *test, struct ib_device *dev, u64 key,
		      const struct pinfo *p)
{
	struct ib_smp *out = new_smp(test);

	return sma_do(test, dev, IB_MGMT_METHOD_SET, IB_SMP_ATTR_PORT_INFO, 0,
		      p->raw, cpu_to_be64(key), 0, out);
}

#define MKEY	0x1122334455667788ULL

/* Set M_Key, protection and lease (with the right key). */
static void set_mkey(struct kunit *test, struct ib_device *dev, u8 prot,
		     u16 lease)
{
	struct pinfo p;

	KUNIT_ASSERT_EQ(test, pi_get_key(test, dev, MKEY, 0, &p), RES_REPLY);
	pi_for_set(&p);
	p.pi.mkey = cpu_to_be64(MKEY);
	p.pi.mkeyprot_resv_lmc = prot << 6;
	p.pi.mkey_lease_period = cpu_to_be16(lease);
	KUNIT_ASSERT_EQ(test, pi_set_key(test, dev, MKEY, &p), RES_REPLY);
}

static u16 mkey_violations(struct kunit *test, struct ib_device *dev)
{
	struct pinfo p;

	KUNIT_EXPECT_EQ(test, pi_get_key(test, dev, MKEY, 0, &p), RES_REPLY);
	return be16_to_cpu(p.pi.mkey_violations);
}

/*
 * M_Key protection (IBTA 14.2.4): level 1 hides the key from a Get with
 * another key, Sets need the key at every level, Gets from level 2;
 * violations are dropped without an answer and counted; the flag
 * IB_MAD_IGNORE_MKEY passes; a lease that runs out drops the level to
 * 0, a good key stops it.
 */
static void rvt_sma_mkey(struct kunit *test)
{
	struct kt_vt *vt = &sma_bed.u;
	struct ib_smp *out = new_smp(test);
	struct pinfo p, q;

	set_mkey(test, vt->dev, 1, 0);
	KUNIT_EXPECT_EQ(test, pi_get_key(test, vt->dev, 0, 0, &p), RES_REPLY);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p.pi.mkey), 0);
	KUNIT_EXPECT_EQ(test, p.pi.mkeyprot_resv_lmc, 1 << 6);
	KUNIT_EXPECT_EQ(test, pi_get_key(test, vt->dev, MKEY, 0, &p),
			RES_REPLY);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p.pi.mkey), MKEY);
	KUNIT_EXPECT_EQ(test, pi_get_key(test, vt->dev, 7, IB_MAD_IGNORE_MKEY,
					 &p), RES_REPLY);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p.pi.mkey), MKEY);
	KUNIT_EXPECT_EQ(test, mkey_violations(test, vt->dev), 0);

	/* a Set with another key: dropped, counted, nothing changed */
	q = p;
	pi_for_set(&q);
	q.pi.lid = cpu_to_be16(0x1800);
	KUNIT_EXPECT_EQ(test, pi_set_key(test, vt->dev, 7, &q), RES_DROP);
	KUNIT_EXPECT_EQ(test, mkey_violations(test, vt->dev), 1);
	KUNIT_EXPECT_EQ(test, rdma_loop_port_lid(vt->dev),
			be16_to_cpu(p.pi.lid));
	/* ... and with the flag it goes through */
	KUNIT_EXPECT_EQ(test, sma_do(test, vt->dev, IB_MGMT_METHOD_SET,
				     IB_SMP_ATTR_PORT_INFO, 0, q.raw,
				     cpu_to_be64(7), IB_MAD_IGNORE_MKEY, out),
			RES_REPLY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(out->status), 0);
	KUNIT_EXPECT_EQ(test, rdma_loop_port_lid(vt->dev), 0x1800);
	/* that Set wrote M_KeyViolations 0 (read before): a reset */
	KUNIT_EXPECT_EQ(test, mkey_violations(test, vt->dev), 0);

	/* level 2: a Get with another key is a violation, of any attribute */
	set_mkey(test, vt->dev, 2, 0);
	KUNIT_EXPECT_EQ(test, pi_get_key(test, vt->dev, 0, 0, &p), RES_DROP);
	KUNIT_EXPECT_EQ(test, sma_do(test, vt->dev, IB_MGMT_METHOD_GET,
				     IB_SMP_ATTR_NODE_INFO, 0, NULL, 0, 0,
				     out), RES_DROP);
	KUNIT_EXPECT_EQ(test, mkey_violations(test, vt->dev), 2);
	KUNIT_EXPECT_EQ(test, sma_do(test, vt->dev, IB_MGMT_METHOD_GET,
				     IB_SMP_ATTR_NODE_INFO, 0, NULL, 0,
				     IB_MAD_IGNORE_MKEY, out), RES_REPLY);
	/* writing 0 resets the counter */
	KUNIT_ASSERT_EQ(test, pi_get_key(test, vt->dev, MKEY, 0, &p),
			RES_REPLY);
	pi_for_set(&p);
	p.pi.mkey_violations = 0;
	KUNIT_EXPECT_EQ(test, pi_set_key(test, vt->dev, MKEY, &p), RES_REPLY);
	KUNIT_EXPECT_EQ(test, mkey_violations(test, vt->dev), 0);

	/* a lease of 1 s: a violation starts it, a good key stops it */
	set_mkey(test, vt->dev, 2, 1);
	KUNIT_EXPECT_EQ(test, pi_get_key(test, vt->dev, 0, 0, &p), RES_DROP);
	KUNIT_EXPECT_EQ(test, pi_get_key(test, vt->dev, MKEY, 0, &p),
			RES_REPLY);
	msleep(1200);
	KUNIT_EXPECT_EQ(test, pi_get_key(test, vt->dev, 0, 0, &p), RES_DROP);
	/* that violation started it again: when it ends, level 0 */
	msleep(1200);
	KUNIT_EXPECT_EQ(test, pi_get_key(test, vt->dev, 0, 0, &p), RES_REPLY);
	KUNIT_EXPECT_EQ(test, p.pi.mkeyprot_resv_lmc >> 6, 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p.pi.mkey), MKEY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(p.pi.mkey_lease_period), 1);
	/* level 0: Sets still need the key */
	q = p;
	pi_for_set(&q);
	KUNIT_EXPECT_EQ(test, pi_set_key(test, vt->dev, 0, &q), RES_DROP);
	KUNIT_EXPECT_EQ(test, mkey_violations(test, vt->dev), 3);
	/* a TrapRepress with another key is one too */
	KUNIT_EXPECT_EQ(test, sma_do(test, vt->dev,
				     IB_MGMT_METHOD_TRAP_REPRESS,
				     IB_SMP_ATTR_NOTICE, 0, NULL, 0, 0, out),
			RES_DROP);
	KUNIT_EXPECT_EQ(test, mkey_violations(test, vt->dev), 4);
}

/* Attributes and methods a CA's SMA does not have, and other MADs. */
static void rvt_sma_unsupported(struct kunit *test)
{
	struct kt_vt *vt = &sma_bed.u;
	struct ib_smp *in = new_smp(test), *out = new_smp(test);
	struct ib_port_modify pm = {};
	struct pinfo p;
	size_t size = sizeof(struct ib_mad);
	u16 pki;

	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_SWITCH_INFO, 0),
			ST_UNSUP_ATTR);
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_LINEAR_FORWARD_TABLE,
					     0), ST_UNSUP_ATTR);
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     cpu_to_be16(0xff01), 0),
			ST_UNSUP_ATTR);
	KUNIT_EXPECT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_NODE_INFO, 0,
				      NULL, out), ST_UNSUP_ATTR);
	KUNIT_EXPECT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_NODE_DESC, 0,
				      NULL, out), ST_UNSUP_ATTR);
	/* unknown methods */
	KUNIT_EXPECT_EQ(test, sma_do(test, vt->dev, 0x14,
				     IB_SMP_ATTR_PORT_INFO, 0, NULL, 0, 0,
				     out), RES_REPLY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(out->status), ST_UNSUP_METHOD);
	KUNIT_EXPECT_EQ(test, out->method, IB_MGMT_METHOD_GET_RESP);
	/* a class version the SMA does not speak */
	smp_fill(in, IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET,
		 IB_SMP_ATTR_NODE_INFO, 0);
	in->class_version = 2;
	KUNIT_EXPECT_EQ(test, sma_call(vt->dev, 0, in, out), RES_REPLY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(out->status), ST_BAD_VERSION);
	/* TrapRepress: taken silently for Notice, refused for others */
	KUNIT_EXPECT_EQ(test, sma_do(test, vt->dev,
				     IB_MGMT_METHOD_TRAP_REPRESS,
				     IB_SMP_ATTR_NOTICE, 0, NULL, 0, 0, out),
			RES_DROP);
	KUNIT_EXPECT_EQ(test, sma_do(test, vt->dev,
				     IB_MGMT_METHOD_TRAP_REPRESS,
				     IB_SMP_ATTR_PORT_INFO, 0, NULL, 0, 0,
				     out), RES_REPLY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(out->status), ST_UNSUP_ATTR);
	/* responses and traps go to the MAD layer's agents */
	KUNIT_EXPECT_EQ(test, sma_do(test, vt->dev, IB_MGMT_METHOD_GET_RESP,
				     IB_SMP_ATTR_PORT_INFO, 0, NULL, 0, 0,
				     out), IB_MAD_RESULT_SUCCESS);
	KUNIT_EXPECT_EQ(test, sma_do(test, vt->dev, IB_MGMT_METHOD_TRAP,
				     IB_SMP_ATTR_NOTICE, 0, NULL, 0, 0, out),
			IB_MAD_RESULT_SUCCESS);
	/* SMInfo: nobody; an SM on the port (IsSM); SMDisabled */
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_SM_INFO, 0),
			ST_UNSUP_ATTR);
	pm.set_port_cap_mask = IB_PORT_SM;
	KUNIT_ASSERT_EQ(test, ib_modify_port(vt->dev, 1, 0, &pm), 0);
	KUNIT_EXPECT_EQ(test, sma_do(test, vt->dev, IB_MGMT_METHOD_GET,
				     IB_SMP_ATTR_SM_INFO, 0, NULL, 0, 0, out),
			IB_MAD_RESULT_SUCCESS);
	pm.set_port_cap_mask = IB_PORT_SM_DISABLED;
	KUNIT_ASSERT_EQ(test, ib_modify_port(vt->dev, 1, 0, &pm), 0);
	KUNIT_EXPECT_EQ(test, sma_do(test, vt->dev, IB_MGMT_METHOD_SET,
				     IB_SMP_ATTR_SM_INFO, 0, NULL, 0, 0, out),
			RES_DROP);
	/* PortInfo of a port the device does not have */
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_PORT_INFO, 2),
			ST_INVALID);
	pi_get(test, vt->dev, &p);
	pi_for_set(&p);
	KUNIT_EXPECT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_PORT_INFO, 2,
				      p.raw, out), ST_INVALID);
	/* other classes are not the device's; a port it does not have */
	smp_fill(in, IB_MGMT_CLASS_SUBN_ADM, IB_MGMT_METHOD_GET,
		 IB_SMP_ATTR_NODE_INFO, 0);
	KUNIT_EXPECT_EQ(test, sma_call(vt->dev, 0, in, out),
			IB_MAD_RESULT_SUCCESS);
	smp_fill(in, IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET,
		 IB_SMP_ATTR_NODE_INFO, 0);
	KUNIT_EXPECT_EQ(test, vt->dev->ops.process_mad(vt->dev, 0, 2, NULL,
						       NULL,
						       (struct ib_mad *)in,
						       (struct ib_mad *)out,
						       &size, &pki),
			IB_MAD_RESULT_FAILURE);
}

/*
 * GUIDInfo: entry 0 is the port GUID and stays; entries 1..7 are
 * stored; there is no block 1.
 */
static void rvt_sma_guidinfo(struct kunit *test)
{
	struct kt_vt *vt = &sma_bed.u;
	struct ib_smp *out = new_smp(test);
	__be64 *g = (__be64 *)out->data;
	u64 port_guid = be64_to_cpu(vt->dev->node_guid) + 1;
	u64 set[8];
	__be64 wire[8];
	union ib_gid gid;
	int i;

	sma_get(test, vt->dev, IB_SMP_ATTR_GUID_INFO, 0, out);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(g[0]), port_guid);
	for (i = 1; i < 8; i++)
		KUNIT_EXPECT_EQ(test, be64_to_cpu(g[i]), 0);

	for (i = 0; i < 8; i++)
		set[i] = 0x0200000000000100ULL + i;
	for (i = 0; i < 8; i++)
		wire[i] = cpu_to_be64(set[i]);
	KUNIT_ASSERT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_GUID_INFO, 0,
				      wire, out), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(g[0]), port_guid);
	for (i = 1; i < 8; i++)
		KUNIT_EXPECT_EQ(test, be64_to_cpu(g[i]), set[i]);
	sma_get(test, vt->dev, IB_SMP_ATTR_GUID_INFO, 0, out);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(g[0]), port_guid);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(g[7]), set[7]);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(vt->dev, 1, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(gid.global.interface_id),
			port_guid);

	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_GUID_INFO, 1),
			ST_INVALID);
	KUNIT_EXPECT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_GUID_INFO, 1,
				      wire, out), ST_INVALID);
}

/* SLtoVLMappingTable and VLArbitrationTable: stored and read back. */
static void rvt_sma_sl2vl_vlarb(struct kunit *test)
{
	struct kt_vt *vt = &sma_bed.u;
	struct ib_smp *out = new_smp(test);
	u8 sl2vl[64] = { 0x01, 0x23, 0x45, 0x67, 0x01, 0x23, 0x45, 0xff };
	u8 low[64], high[64];
	int i;

	sma_get(test, vt->dev, IB_SMP_ATTR_SL_TO_VL_TABLE, 0, out);
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, out->data[i], 0);
	KUNIT_ASSERT_EQ(test, sma_set(test, vt->dev,
				      IB_SMP_ATTR_SL_TO_VL_TABLE, 0, sl2vl,
				      out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out->data, sl2vl, 64), 0);
	sma_get(test, vt->dev, IB_SMP_ATTR_SL_TO_VL_TABLE, 0, out);
	KUNIT_EXPECT_EQ(test, memcmp(out->data, sl2vl, 64), 0);

	for (i = 0; i < 64; i += 2) {
		low[i] = i / 2 % 8;
		low[i + 1] = i;
		high[i] = 7 - i / 2 % 8;
		high[i + 1] = 255 - i;
	}
	KUNIT_ASSERT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_VL_ARB_TABLE,
				      1 << 16, low, out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out->data, low, 64), 0);
	KUNIT_ASSERT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_VL_ARB_TABLE,
				      3 << 16, high, out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out->data, high, 64), 0);
	sma_get(test, vt->dev, IB_SMP_ATTR_VL_ARB_TABLE, 1 << 16, out);
	KUNIT_EXPECT_EQ(test, memcmp(out->data, low, 64), 0);
	sma_get(test, vt->dev, IB_SMP_ATTR_VL_ARB_TABLE, 3 << 16, out);
	KUNIT_EXPECT_EQ(test, memcmp(out->data, high, 64), 0);
	/* entries 32..63 (blocks 2 and 4) are beyond the capacity of 32 */
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_VL_ARB_TABLE, 2 << 16),
			ST_INVALID);
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_VL_ARB_TABLE, 4 << 16),
			ST_INVALID);
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_VL_ARB_TABLE, 0),
			ST_INVALID);
	KUNIT_EXPECT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_VL_ARB_TABLE,
				      4 << 16, high, out), ST_INVALID);
	sma_get(test, vt->dev, IB_SMP_ATTR_VL_ARB_TABLE, 3 << 16, out);
	KUNIT_EXPECT_EQ(test, memcmp(out->data, high, 64), 0);
}

/*
 * ib_modify_port(): capability bits as the next PortInfo shows them,
 * InitTypeReply, resetting the Q_Key violations a bad datagram counted,
 * and shutting the port down until a subnet manager polls it again.
 */
static void rvt_sma_modify_port(struct kunit *test)
{
	struct kt_vt *vt = &sma_bed.u, *b = &sma_bed.p;
	struct evrec *r = new_evrec(test, vt->dev);
	struct ib_port_modify pm = {};
	enum ib_port_state cached;
	struct ib_port_attr pa;
	struct udq *ua, *ub;
	struct ib_wc wc;
	struct pinfo p;

	pm.set_port_cap_mask = IB_PORT_SM | IB_PORT_CM_SUP;
	KUNIT_ASSERT_EQ(test, ib_modify_port(vt->dev, 1, 0, &pm), 0);
	pi_get(test, vt->dev, &p);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p.pi.cap_mask),
			CAP_DEFAULT | IB_PORT_SM | IB_PORT_CM_SUP);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.port_cap_flags,
			CAP_DEFAULT | IB_PORT_SM | IB_PORT_CM_SUP);
	pm.set_port_cap_mask = 0;
	pm.clr_port_cap_mask = IB_PORT_SM;
	KUNIT_ASSERT_EQ(test, ib_modify_port(vt->dev, 1, 0, &pm), 0);
	pi_get(test, vt->dev, &p);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p.pi.cap_mask),
			CAP_DEFAULT | IB_PORT_CM_SUP);

	pm.clr_port_cap_mask = 0;
	pm.init_type = 0x5;
	KUNIT_ASSERT_EQ(test, ib_modify_port(vt->dev, 1, IB_PORT_INIT_TYPE,
					     &pm), 0);
	pi_get(test, vt->dev, &p);
	KUNIT_EXPECT_EQ(test, p.pi.inittypereply_mtucap, 0x55);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.init_type_reply, 5);

	/* a datagram with the wrong Q_Key: dropped, counted at the receiver */
	ua = new_udq(test, b);
	ub = new_udq(test, vt);
	KUNIT_EXPECT_FALSE(test, ud_reaches(test, ua,
					    new_ah(test, b,
						   rdma_loop_port_lid(vt->dev),
						   0),
					    ub, QKEY + 1, &wc));
	pi_get(test, vt->dev, &p);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(p.pi.qkey_violations), 1);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.qkey_viol_cntr, 1);
	KUNIT_ASSERT_EQ(test, ib_modify_port(vt->dev, 1,
					     IB_PORT_RESET_QKEY_CNTR, &pm), 0);
	pi_get(test, vt->dev, &p);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(p.pi.qkey_violations), 0);

	/* shut down: DOWN, Disabled, PORT_ERR */
	KUNIT_ASSERT_EQ(test, ib_modify_port(vt->dev, 1, IB_PORT_SHUTDOWN,
					     &pm), 0);
	pi_get(test, vt->dev, &p);
	KUNIT_EXPECT_EQ(test, pi_state(&p), IB_PORT_DOWN);
	KUNIT_EXPECT_EQ(test, pi_phys(&p), IB_PORT_PHYS_STATE_DISABLED);
	evrec_wait(test, r, 1);
	KUNIT_EXPECT_EQ(test, ev(r, 0), IB_EVENT_PORT_ERR);
	KUNIT_ASSERT_EQ(test, ib_get_cached_port_state(vt->dev, 1, &cached),
			0);
	KUNIT_EXPECT_EQ(test, cached, IB_PORT_DOWN);
	/* Polling brings the link up in INIT; the SM makes it ACTIVE */
	pi_for_set(&p);
	p.pi.portphysstate_linkdown |= IB_PORT_PHYS_STATE_POLLING << 4;
	KUNIT_ASSERT_EQ(test, pi_set(test, vt->dev, &p, &p), 0);
	KUNIT_EXPECT_EQ(test, pi_state(&p), IB_PORT_INIT);
	pi_set_state(test, vt->dev, IB_PORT_ARMED);
	pi_set_state(test, vt->dev, IB_PORT_ACTIVE);
	evrec_wait(test, r, 2);
	KUNIT_EXPECT_EQ(test, ev(r, 1), IB_EVENT_PORT_ACTIVE);
	KUNIT_ASSERT_EQ(test, ib_get_cached_port_state(vt->dev, 1, &cached),
			0);
	KUNIT_EXPECT_EQ(test, cached, IB_PORT_ACTIVE);
}

/*
 * ClientReregister raises CLIENT_REREGISTER and is echoed in the answer
 * only; a new GID prefix raises GID_CHANGE and is the port's GID in the
 * cache and in query_port, the port GUID staying.
 */
static void rvt_sma_rereg_gid_prefix(struct kunit *test)
{
	struct kt_vt *vt = &sma_bed.u;
	struct evrec *r = new_evrec(test, vt->dev);
	struct ib_port_attr pa;
	union ib_gid gid;
	struct pinfo p, ans;

	pi_get(test, vt->dev, &p);
	pi_for_set(&p);
	p.pi.clientrereg_resv_subnetto = 0x80 | 18;
	KUNIT_ASSERT_EQ(test, pi_set(test, vt->dev, &p, &ans), 0);
	KUNIT_EXPECT_EQ(test, ans.pi.clientrereg_resv_subnetto, 0x80 | 18);
	evrec_wait(test, r, 1);
	KUNIT_EXPECT_EQ(test, ev(r, 0), IB_EVENT_CLIENT_REREGISTER);
	pi_get(test, vt->dev, &p);
	KUNIT_EXPECT_EQ(test, p.pi.clientrereg_resv_subnetto, 18);

	pi_for_set(&p);
	p.pi.gid_prefix = cpu_to_be64(0xfec0000000000000ULL);
	KUNIT_ASSERT_EQ(test, pi_set(test, vt->dev, &p, &ans), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ans.pi.gid_prefix),
			0xfec0000000000000ULL);
	evrec_wait(test, r, 2);
	KUNIT_EXPECT_EQ(test, ev(r, 1), IB_EVENT_GID_CHANGE);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(vt->dev, 1, 0, &gid), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(gid.global.subnet_prefix),
			0xfec0000000000000ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(gid.global.interface_id),
			be64_to_cpu(vt->dev->node_guid) + 1);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.subnet_prefix, 0xfec0000000000000ULL);
	ib_event_flush(vt->dev);
	KUNIT_EXPECT_EQ(test, evrec_count(r), 2);
}

/* Enabled widths and speeds decide the active ones. */
static void rvt_sma_width_speed(struct kunit *test)
{
	struct kt_vt *vt = &sma_bed.u;
	struct ib_port_modify pm = {};
	struct ib_port_attr pa;
	struct pinfo p, ans;

	pi_get(test, vt->dev, &p);
	pi_for_set(&p);
	p.pi.link_width_enabled = IB_WIDTH_1X;
	p.pi.linkspeedactive_enabled = 0x1;	/* SDR */
	p.raw[63] = 0x1e;			/* no extended speed */
	KUNIT_ASSERT_EQ(test, pi_set(test, vt->dev, &p, &ans), 0);
	KUNIT_EXPECT_EQ(test, ans.pi.link_width_enabled, 1);
	KUNIT_EXPECT_EQ(test, ans.pi.link_width_active, 1);
	KUNIT_EXPECT_EQ(test, ans.pi.linkspeedactive_enabled, 0x11);
	KUNIT_EXPECT_EQ(test, ans.raw[62], 0x03);
	KUNIT_EXPECT_EQ(test, ans.raw[63], 0x1e);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.active_width, IB_WIDTH_1X);
	KUNIT_EXPECT_EQ(test, pa.active_speed, IB_SPEED_SDR);

	/* 0xF and 0xFF: all supported; QDR; FDR only */
	p.pi.link_width_enabled = 0xff;
	p.pi.linkspeedactive_enabled = 0xf;
	p.raw[63] = 0x01;
	KUNIT_ASSERT_EQ(test, pi_set(test, vt->dev, &p, &ans), 0);
	KUNIT_EXPECT_EQ(test, ans.pi.link_width_enabled, 3);
	KUNIT_EXPECT_EQ(test, ans.pi.link_width_active, 2);
	KUNIT_EXPECT_EQ(test, ans.pi.linkspeedactive_enabled, 0x47);
	KUNIT_EXPECT_EQ(test, ans.raw[62], 0x13);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.active_width, IB_WIDTH_4X);
	KUNIT_EXPECT_EQ(test, pa.active_speed, IB_SPEED_FDR);
	p.raw[63] = 0x1f;
	KUNIT_ASSERT_EQ(test, pi_set(test, vt->dev, &p, &ans), 0);
	KUNIT_EXPECT_EQ(test, ans.raw[62], 0x23);
	KUNIT_EXPECT_EQ(test, ans.raw[63], 0x03);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.active_speed, IB_SPEED_EDR);

	/* without the extended speeds capability: QDR, no extended fields */
	pm.clr_port_cap_mask = IB_PORT_EXTENDED_SPEEDS_SUP;
	KUNIT_ASSERT_EQ(test, ib_modify_port(vt->dev, 1, 0, &pm), 0);
	pi_get(test, vt->dev, &p);
	KUNIT_EXPECT_EQ(test, p.raw[62], 0);
	KUNIT_EXPECT_EQ(test, p.raw[63], 0);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.active_speed, IB_SPEED_QDR);
}

/*
 * PortInfo's attribute modifier bit 31 (SMSupportsExtendedSpeeds), which
 * opensm sets in its Sets to ports with the extended speeds: the port
 * is still the low byte, the Set is applied; reserved bits 8..30 are
 * refused.
 */
static void rvt_sma_portinfo_ext_mod(struct kunit *test)
{
	struct kt_vt *vt = new_managed(test);
	struct ib_smp *out = new_smp(test);
	struct ib_port_info *ans = (struct ib_port_info *)out->data;
	struct ib_port_attr pa;
	struct pinfo p;

	sma_get(test, vt->dev, IB_SMP_ATTR_PORT_INFO, BIT(31), out);
	KUNIT_EXPECT_EQ(test, ans->local_port_num, 1);
	sma_get(test, vt->dev, IB_SMP_ATTR_PORT_INFO, BIT(31) | 1, out);
	KUNIT_EXPECT_EQ(test, ans->local_port_num, 1);

	pi_get(test, vt->dev, &p);
	pi_for_set(&p);
	p.pi.lid = cpu_to_be16(0x77);
	p.pi.sm_lid = cpu_to_be16(SM_LID);
	KUNIT_EXPECT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_PORT_INFO,
				      BIT(31) | 1, p.raw, out), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(ans->lid), 0x77);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.lid, 0x77);
	KUNIT_EXPECT_EQ(test, pa.sm_lid, SM_LID);

	/* reserved bits: refused, nothing changes */
	p.pi.lid = cpu_to_be16(0x78);
	KUNIT_EXPECT_EQ(test, sma_set(test, vt->dev, IB_SMP_ATTR_PORT_INFO,
				      BIT(8) | 1, p.raw, out), ST_INVALID);
	KUNIT_EXPECT_EQ(test, sma_get_status(test, vt->dev,
					     IB_SMP_ATTR_PORT_INFO, BIT(30)),
			ST_INVALID);
	query(test, vt->dev, &pa);
	KUNIT_EXPECT_EQ(test, pa.lid, 0x77);
}

/* rdma_loop_add_device_flags() refuses flags it does not know. */
static void rvt_sma_loop_flags(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_loop_add_device_flags("kusmax%d",
								 1 << 2)),
			-EINVAL);
}

static struct kunit_case rdma_rvt_sma_cases[] = {
	KUNIT_CASE(rvt_sma_node_attrs),
	KUNIT_CASE(rvt_sma_portinfo_unmanaged),
	KUNIT_CASE(rvt_sma_portinfo_bringup),
	KUNIT_CASE(rvt_sma_portinfo_invalid),
	KUNIT_CASE(rvt_sma_lid_routing),
	KUNIT_CASE(rvt_sma_rc_at_new_lid),
	KUNIT_CASE(rvt_sma_lmc),
	KUNIT_CASE(rvt_sma_pkey_table),
	KUNIT_CASE_SLOW(rvt_sma_mkey),
	KUNIT_CASE(rvt_sma_unsupported),
	KUNIT_CASE(rvt_sma_guidinfo),
	KUNIT_CASE(rvt_sma_sl2vl_vlarb),
	KUNIT_CASE(rvt_sma_modify_port),
	KUNIT_CASE(rvt_sma_rereg_gid_prefix),
	KUNIT_CASE(rvt_sma_width_speed),
	KUNIT_CASE(rvt_sma_loop_flags),
	KUNIT_CASE(rvt_sma_portinfo_ext_mod),
	{}
};

static struct kunit_suite rdma_rvt_sma_suite = {
	.name = "rdma_rvt_sma",
	.suite_init = sma_suite_init,
	.suite_exit = sma_suite_exit,
	.init = sma_case_init,
	.test_cases = rdma_rvt_sma_cases,
};

kunit_test_suite(rdma_rvt_sma_suite);

MODULE_DESCRIPTION("KUnit tests of rdmavt's subnet management agent on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
