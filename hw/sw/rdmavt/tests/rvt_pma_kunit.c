// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_rvt_pma": rdmavt's performance management agent on
 * loop devices.  Traffic between two (three) of the suite's devices,
 * their counters cleared by the case first, then
 * PortCounters and PortCountersExtended read through process_mad as a
 * performance manager reads them: exact packets and 4-byte words at both
 * ends (the packet model of hw/sw/rdmavt/counters.c) for UD datagrams
 * (with and without GRH and immediate data), multicast, RC SEND, RDMA
 * WRITE and READ with their ACKs, an RNR NAK, and nothing for traffic a
 * port sends itself; CounterSelect clearing; 32-bit saturation (counters
 * preloaded with rvt_pma_preload()); the statuses of what the agent does
 * not answer.
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/delay.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>
#include <rdma/rdma_vt.h>

#include "../mad.h"

#define QKEY		0x4321
#define MLID		0xC044

#define RES_REPLY	(IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY)

#define ST_BAD_VERSION	0x0004
#define ST_UNSUP_METHOD	0x0008
#define ST_UNSUP_ATTR	0x000c
#define ST_INVALID	0x001c

/* Words of a UD packet: LRH, BTH, DETH, payload padded, ICRC (+GRH, imm) */
#define UD_WORDS(len, grh, imm) \
	((8 + ((grh) ? 40 : 0) + 12 + 8 + ((imm) ? 4 : 0) + \
	  ALIGN(len, 4) + 4) / 4)
/* An RC ACK or NAK: LRH, BTH, AETH, ICRC */
#define ACK_WORDS	7

/* ------------------------------------------------------------------
 * PMA MADs
 */

static struct ib_pma_mad *new_pma(struct kunit *test)
{
	struct ib_pma_mad *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	return m;
}

/*
 * A performance MAD to port 1 of @dev, its attribute @data (192 bytes,
 * or NULL for zeros); the answer in @out.
 */
static int pma_call(struct kunit *test, struct ib_device *dev, u8 cls_ver,
		    u8 method, __be16 attr, u32 mod, const void *data,
		    struct ib_pma_mad *out)
{
	struct ib_pma_mad *in = new_pma(test);
	size_t size = sizeof(struct ib_mad);
	u16 pki = 0;

	in->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	in->mad_hdr.mgmt_class = IB_MGMT_CLASS_PERF_MGMT;
	in->mad_hdr.class_version = cls_ver;
	in->mad_hdr.method = method;
	in->mad_hdr.tid = cpu_to_be64(0xfeed);
	in->mad_hdr.attr_id = attr;
	in->mad_hdr.attr_mod = cpu_to_be32(mod);
	if (data)
		memcpy(in->data, data, sizeof(in->data));
	memset(out, 0xa5, sizeof(*out));
	return dev->ops.process_mad(dev, 0, 1, NULL, NULL,
				    (const struct ib_mad *)in,
				    (struct ib_mad *)out, &size, &pki);
}

/* The status of an answered performance MAD. */
static u16 pma_status(struct kunit *test, struct ib_device *dev, u8 method,
		      __be16 attr, u32 mod, const void *data)
{
	struct ib_pma_mad *out = new_pma(test);

	KUNIT_EXPECT_EQ(test, pma_call(test, dev, 1, method, attr, mod, data,
				       out), RES_REPLY);
	KUNIT_EXPECT_EQ(test, out->mad_hdr.method, IB_MGMT_METHOD_GET_RESP);
	return be16_to_cpu(out->mad_hdr.status);
}

static void pc_do(struct kunit *test, struct ib_device *dev, u8 method,
		  u16 select, struct ib_pma_portcounters *pc)
{
	struct ib_pma_mad *out = new_pma(test), *in = new_pma(test);
	struct ib_pma_portcounters *req = (void *)in->data;

	req->port_select = 1;
	req->counter_select = cpu_to_be16(select);
	KUNIT_ASSERT_EQ(test, pma_call(test, dev, 1, method,
				       IB_PMA_PORT_COUNTERS, 0, in->data, out),
			RES_REPLY);
	KUNIT_ASSERT_EQ(test, be16_to_cpu(out->mad_hdr.status), 0);
	memcpy(pc, out->data, sizeof(*pc));
	KUNIT_EXPECT_EQ(test, pc->port_select, 1);
}

static void pcx_do(struct kunit *test, struct ib_device *dev, u8 method,
		   u16 select, struct ib_pma_portcounters_ext *x)
{
	struct ib_pma_mad *out = new_pma(test), *in = new_pma(test);
	struct ib_pma_portcounters_ext *req = (void *)in->data;

	req->port_select = 1;
	req->counter_select = cpu_to_be16(select);
	KUNIT_ASSERT_EQ(test, pma_call(test, dev, 1, method,
				       IB_PMA_PORT_COUNTERS_EXT, 0, in->data,
				       out),
			RES_REPLY);
	KUNIT_ASSERT_EQ(test, be16_to_cpu(out->mad_hdr.status), 0);
	memcpy(x, out->data, sizeof(*x));
	KUNIT_EXPECT_EQ(test, x->port_select, 1);
}

/* The eight extended counters of @dev, in enum rvt_pma_counter order. */
struct ctrs {
	u64	v[RVT_PMA_NCOUNTERS];
};

static void read_ctrs(struct kunit *test, struct ib_device *dev,
		      struct ctrs *c)
{
	struct ib_pma_portcounters_ext x;

	pcx_do(test, dev, IB_MGMT_METHOD_GET, 0, &x);
	c->v[RVT_PMA_XMIT_DATA] = be64_to_cpu(x.port_xmit_data);
	c->v[RVT_PMA_RCV_DATA] = be64_to_cpu(x.port_rcv_data);
	c->v[RVT_PMA_XMIT_PKTS] = be64_to_cpu(x.port_xmit_packets);
	c->v[RVT_PMA_RCV_PKTS] = be64_to_cpu(x.port_rcv_packets);
	c->v[RVT_PMA_UNICAST_XMIT] = be64_to_cpu(x.port_unicast_xmit_packets);
	c->v[RVT_PMA_UNICAST_RCV] = be64_to_cpu(x.port_unicast_rcv_packets);
	c->v[RVT_PMA_MCAST_XMIT] = be64_to_cpu(x.port_multicast_xmit_packets);
	c->v[RVT_PMA_MCAST_RCV] = be64_to_cpu(x.port_multicast_rcv_packets);
}

/*
 * The counters of @dev are exactly: @xw words and @xp packets sent, @rw
 * and @rp received, @mx and @mr of the packets multicast.
 */
static void expect_ctrs(struct kunit *test, struct ib_device *dev, u64 xw,
			u64 xp, u64 rw, u64 rp, u64 mx, u64 mr)
{
	struct ctrs c;

	read_ctrs(test, dev, &c);
	KUNIT_EXPECT_EQ(test, c.v[RVT_PMA_XMIT_DATA], xw);
	KUNIT_EXPECT_EQ(test, c.v[RVT_PMA_XMIT_PKTS], xp);
	KUNIT_EXPECT_EQ(test, c.v[RVT_PMA_RCV_DATA], rw);
	KUNIT_EXPECT_EQ(test, c.v[RVT_PMA_RCV_PKTS], rp);
	KUNIT_EXPECT_EQ(test, c.v[RVT_PMA_UNICAST_XMIT], xp - mx);
	KUNIT_EXPECT_EQ(test, c.v[RVT_PMA_UNICAST_RCV], rp - mr);
	KUNIT_EXPECT_EQ(test, c.v[RVT_PMA_MCAST_XMIT], mx);
	KUNIT_EXPECT_EQ(test, c.v[RVT_PMA_MCAST_RCV], mr);
}

/* Clear every counter of @dev, through both attributes. */
static void clear_ctrs(struct kunit *test, struct ib_device *dev)
{
	struct ib_pma_portcounters_ext x;
	struct ib_pma_portcounters pc;

	pcx_do(test, dev, IB_MGMT_METHOD_SET, 0xff, &x);
	pc_do(test, dev, IB_MGMT_METHOD_SET, 0xffff, &pc);
	expect_ctrs(test, dev, 0, 0, 0, 0, 0, 0);
}

/* ------------------------------------------------------------------
 * Traffic
 */

struct qpc {
	struct ib_qp	*qp;
	struct ib_cq	*cq;
	struct ib_pd	*pd;
};

static struct qpc *new_qpc(struct kunit *test, struct kt_vt *vt,
			   enum ib_qp_type type, struct ib_pd *pd)
{
	struct qpc *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	struct ib_qp_init_attr init = {
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 16, .max_recv_wr = 16,
			.max_send_sge = 1, .max_recv_sge = 1,
		},
		.port_num = 1,
	};
	struct ib_qp *qp;

	KUNIT_ASSERT_NOT_NULL(test, q);
	q->pd = pd ?: vt->pd;
	q->cq = kt_new_direct_cq(test, vt);
	init.send_cq = q->cq;
	init.recv_cq = q->cq;
	qp = ib_create_qp(q->pd, &init);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_qp, qp),
			0);
	q->qp = qp;
	return q;
}

static struct qpc *new_ud(struct kunit *test, struct kt_vt *vt)
{
	struct qpc *q = new_qpc(test, vt, IB_QPT_UD, NULL);
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qkey = QKEY,
	};

	KUNIT_ASSERT_EQ(test, ib_modify_qp(q->qp, &a, IB_QP_STATE |
					   IB_QP_PORT | IB_QP_QKEY |
					   IB_QP_PKEY_INDEX), 0);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(q->qp, &a, IB_QP_STATE), 0);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(q->qp, &a, IB_QP_STATE |
					   IB_QP_SQ_PSN), 0);
	return q;
}

static u8 *new_buf(struct kunit *test, size_t len)
{
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

/* Post a receive of @len bytes at @buf on @q, completing in @t. */
static void post_recv(struct kunit *test, struct qpc *q, struct kt_tcqe *t,
		      u8 *buf, u32 len)
{
	struct ib_sge sge = kt_sge_of(q->pd, buf, len);
	struct ib_recv_wr wr = {
		.wr_cqe = &t->cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};

	KUNIT_ASSERT_EQ(test, ib_post_recv(q->qp, &wr, NULL), 0);
}

/* Post a datagram of @len bytes from @q through @ah to QP @dqpn. */
static void post_ud(struct kunit *test, struct qpc *q, struct kt_tcqe *t,
		    struct ib_ah *ah, u32 dqpn, u8 *buf, u32 len, bool imm)
{
	struct ib_sge sge = kt_sge_of(q->pd, buf, len);
	struct ib_ud_wr wr = {
		.wr = {
			.wr_cqe = &t->cqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = imm ? IB_WR_SEND_WITH_IMM : IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.ah = ah,
		.remote_qpn = dqpn,
		.remote_qkey = QKEY,
	};

	KUNIT_ASSERT_EQ(test, ib_post_send(q->qp, &wr.wr, NULL), 0);
}

/* An AH of @vt to @dlid, with a GRH towards @dgid when it is not NULL. */
static struct ib_ah *new_ah(struct kunit *test, struct kt_vt *vt, u32 dlid,
			    union ib_gid *dgid)
{
	struct rdma_ah_attr attr = {};
	struct ib_ah *ah;

	attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&attr, dlid);
	rdma_ah_set_port_num(&attr, 1);
	if (dgid)
		rdma_ah_set_grh(&attr, dgid, 0, 0, 1, 0);
	ah = rdma_create_ah(vt->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_ah, ah),
			0);
	return ah;
}

/*
 * The devices are the suite's (made by its suite_init, removed by its
 * suite_exit), each case taking them in turn and clearing the counters
 * it checks: making and removing a loop device took longer than most
 * cases.  What a case makes on them (QPs, CQs, AHs, PDs) goes with it.
 */
#define PMA_DEVS	3
static struct kt_vt pma_vt[PMA_DEVS];
static int pma_taken;

static struct kt_vt *new_vt(struct kunit *test)
{
	struct kt_vt *vt;

	KUNIT_ASSERT_LT(test, pma_taken, PMA_DEVS);
	vt = &pma_vt[pma_taken++];
	KUNIT_ASSERT_NOT_NULL(test, vt->dev);
	return vt;
}

static void pma_suite_exit(struct kunit_suite *suite)
{
	int i;

	for (i = 0; i < PMA_DEVS; i++) {
		if (pma_vt[i].pd)
			ib_dealloc_pd(pma_vt[i].pd);
		if (pma_vt[i].dev)
			rdma_loop_remove_device(pma_vt[i].dev);
		pma_vt[i].pd = NULL;
		pma_vt[i].dev = NULL;
	}
}

static int pma_suite_init(struct kunit_suite *suite)
{
	struct ib_device *dev;
	struct ib_pd *pd;
	int i;

	for (i = 0; i < PMA_DEVS; i++) {
		dev = rdma_loop_add_device("kupma%d");
		if (IS_ERR_OR_NULL(dev))
			goto fail;
		pma_vt[i].dev = dev;
		pd = ib_alloc_pd(dev, 0);
		if (IS_ERR(pd))
			goto fail;
		pma_vt[i].pd = pd;
	}
	return 0;
fail:
	pma_suite_exit(suite);
	return -ENODEV;
}

static int pma_init(struct kunit *test)
{
	pma_taken = 0;
	return 0;
}

/* ------------------------------------------------------------------ */

/* ClassPortInfo: extended counters with all fields, nothing else. */
static void rvt_pma_classportinfo(struct kunit *test)
{
	struct kt_vt *vt = new_vt(test);
	struct ib_pma_mad *out = new_pma(test);
	struct ib_class_port_info *cpi = (struct ib_class_port_info *)out->data;

	KUNIT_ASSERT_EQ(test, pma_call(test, vt->dev, 1, IB_MGMT_METHOD_GET,
				       IB_PMA_CLASS_PORT_INFO, 0, NULL, out),
			RES_REPLY);
	KUNIT_EXPECT_EQ(test, out->mad_hdr.method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(out->mad_hdr.status), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(out->mad_hdr.tid), 0xfeedULL);
	KUNIT_EXPECT_EQ(test, cpi->base_version, 1);
	KUNIT_EXPECT_EQ(test, cpi->class_version, 1);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cpi->capability_mask), 0x0200);
	KUNIT_EXPECT_EQ(test, ib_get_cpi_capmask2(cpi), 0);
	KUNIT_EXPECT_EQ(test, ib_get_cpi_resp_time(cpi), 18);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cpi->redirect_lid), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(cpi->redirect_qp), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cpi->trap_lid), 0);
	KUNIT_EXPECT_EQ(test, pma_status(test, vt->dev, IB_MGMT_METHOD_GET,
					 IB_PMA_CLASS_PORT_INFO, 1, NULL),
			ST_INVALID);
}

/*
 * Five datagrams from A to B: exactly five packets and their words sent
 * by A and received by B, in both attributes, the error counters 0;
 * then one with a GRH and immediate data.
 */
static void rvt_pma_ud_counts(struct kunit *test)
{
	struct kt_vt *a = new_vt(test), *b = new_vt(test);
	struct qpc *qa = new_ud(test, a), *qb = new_ud(test, b);
	struct ib_ah *ah = new_ah(test, a, rdma_loop_port_lid(b->dev), NULL);
	struct kt_tcqe *s = kt_new_tcqes(test, 6), *r = kt_new_tcqes(test, 6);
	u8 *sbuf = new_buf(test, 100), *rbuf = new_buf(test, 6 * 140);
	u32 w = UD_WORDS(100, false, false), wg = UD_WORDS(30, true, true);
	struct ib_pma_portcounters pc;
	union ib_gid bgid;
	int i;

	KUNIT_EXPECT_EQ(test, w, 33);
	KUNIT_EXPECT_EQ(test, wg, 27);
	clear_ctrs(test, a->dev);
	clear_ctrs(test, b->dev);
	for (i = 0; i < 5; i++) {
		post_recv(test, qb, &r[i], rbuf + i * 140, 140);
		post_ud(test, qa, &s[i], ah, qb->qp->qp_num, sbuf, 100, false);
	}
	for (i = 0; i < 5; i++) {
		KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qa->cq, &s[i]));
		KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qb->cq, &r[i]));
		KUNIT_EXPECT_EQ(test, r[i].wc.status, IB_WC_SUCCESS);
	}
	expect_ctrs(test, a->dev, 5 * w, 5, 0, 0, 0, 0);
	expect_ctrs(test, b->dev, 0, 0, 5 * w, 5, 0, 0);

	pc_do(test, a->dev, IB_MGMT_METHOD_GET, 0, &pc);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_data), 5 * w);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_packets), 5);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_rcv_data), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_rcv_packets), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(pc.symbol_error_counter), 0);
	KUNIT_EXPECT_EQ(test, pc.link_error_recovery_counter, 0);
	KUNIT_EXPECT_EQ(test, pc.link_downed_counter, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(pc.port_rcv_errors), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(pc.port_xmit_discards), 0);
	KUNIT_EXPECT_EQ(test, pc.link_overrun_errors, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(pc.vl15_dropped), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_wait), 0);
	pc_do(test, b->dev, IB_MGMT_METHOD_GET, 0, &pc);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_rcv_data), 5 * w);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_rcv_packets), 5);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_packets), 0);

	/* a GRH (40 bytes) and immediate data (4) */
	KUNIT_ASSERT_EQ(test, rdma_query_gid(b->dev, 1, 0, &bgid), 0);
	ah = new_ah(test, a, rdma_loop_port_lid(b->dev), &bgid);
	post_recv(test, qb, &r[5], rbuf + 5 * 140, 140);
	post_ud(test, qa, &s[5], ah, qb->qp->qp_num, sbuf, 30, true);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qa->cq, &s[5]));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qb->cq, &r[5]));
	KUNIT_EXPECT_TRUE(test, r[5].wc.wc_flags & IB_WC_GRH);
	expect_ctrs(test, a->dev, 5 * w + wg, 6, 0, 0, 0, 0);
	expect_ctrs(test, b->dev, 0, 0, 5 * w + wg, 6, 0, 0);
}

/* An RC pair A -> B with path MTU 256; B's PD has a global rkey. */
struct rcpair {
	struct kt_vt	*a, *b;
	struct qpc	*qa, *qb;
	struct ib_pd	*bpd;
};

static struct rcpair *new_rcpair(struct kunit *test, u8 rnr_retry)
{
	struct rcpair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct rdma_loop_conn ca = {
		.access = IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE,
		.rnr_retry = rnr_retry,
		.mtu = IB_MTU_256,
	};
	struct rdma_loop_conn cb = ca;

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->a = new_vt(test);
	p->b = new_vt(test);
	p->bpd = ib_alloc_pd(p->b->dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->bpd);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dealloc_pd,
							p->bpd), 0);
	p->qa = new_qpc(test, p->a, IB_QPT_RC, NULL);
	p->qb = new_qpc(test, p->b, IB_QPT_RC, p->bpd);
	ca.dqpn = p->qb->qp->qp_num;
	ca.dlid = rdma_loop_port_lid(p->b->dev);
	cb.dqpn = p->qa->qp->qp_num;
	cb.dlid = rdma_loop_port_lid(p->a->dev);
	KUNIT_ASSERT_EQ(test, rdma_loop_connect_qp(p->qa->qp, &ca,
						   IB_QPS_RTS), 0);
	KUNIT_ASSERT_EQ(test, rdma_loop_connect_qp(p->qb->qp, &cb,
						   IB_QPS_RTS), 0);
	clear_ctrs(test, p->a->dev);
	clear_ctrs(test, p->b->dev);
	return p;
}

/* One RDMA request of @op and @len bytes from A to B's @rbuf. */
static void rc_rdma(struct kunit *test, struct rcpair *p, enum ib_wr_opcode op,
		    u8 *lbuf, u8 *rbuf, u32 len)
{
	struct kt_tcqe *s = kt_new_tcqe(test);
	struct ib_sge sge = kt_sge_of(p->qa->pd, lbuf, len);
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &s->cqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = op,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = ib_dma_map_single(p->b->dev, rbuf, len,
						 DMA_BIDIRECTIONAL),
		.rkey = p->bpd->unsafe_global_rkey,
	};

	KUNIT_ASSERT_EQ(test, ib_post_send(p->qa->qp, &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->qa->cq, s));
	KUNIT_EXPECT_EQ(test, s->wc.status, IB_WC_SUCCESS);
}

/* One SEND of @len bytes from A; @recv: B has a receive posted. */
static enum ib_wc_status rc_send(struct kunit *test, struct rcpair *p,
				 u32 len, bool recv)
{
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	u8 *sbuf = new_buf(test, len), *rbuf = new_buf(test, len);
	struct ib_sge sge = kt_sge_of(p->qa->pd, sbuf, len);
	struct ib_send_wr wr = {
		.wr_cqe = &s->cqe,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};

	if (recv)
		post_recv(test, p->qb, r, rbuf, len);
	KUNIT_EXPECT_EQ(test, ib_post_send(p->qa->qp, &wr, NULL), 0);
	KUNIT_EXPECT_TRUE(test, kt_tcqe_wait(p->qa->cq, s));
	if (recv) {
		KUNIT_EXPECT_TRUE(test, kt_tcqe_wait(p->qb->cq, r));
		KUNIT_EXPECT_EQ(test, r->wc.status, IB_WC_SUCCESS);
	}
	return s->wc.status;
}

/*
 * RC with path MTU 256: a SEND of 1000 bytes is 4 packets and one ACK,
 * an RDMA WRITE of 300 bytes 2 packets (RETH in the first) and an ACK,
 * an RDMA READ of 600 bytes 1 request and 3 response packets (AETH in
 * the first and the last).
 */
static void rvt_pma_rc_counts(struct kunit *test)
{
	struct rcpair *p = new_rcpair(test, 7);
	u8 *lbuf = new_buf(test, 600), *rbuf = new_buf(test, 600);

	KUNIT_ASSERT_EQ(test, rc_send(test, p, 1000, true), IB_WC_SUCCESS);
	/* 4 x (LRH 8 + BTH 12 + ICRC 4) + 1000 = 1096 bytes */
	expect_ctrs(test, p->a->dev, 274, 4, ACK_WORDS, 1, 0, 0);
	expect_ctrs(test, p->b->dev, ACK_WORDS, 1, 274, 4, 0, 0);

	clear_ctrs(test, p->a->dev);
	clear_ctrs(test, p->b->dev);
	rc_rdma(test, p, IB_WR_RDMA_WRITE, lbuf, rbuf, 300);
	/* 2 x 24 + RETH 16 + 300 = 364 bytes */
	expect_ctrs(test, p->a->dev, 91, 2, ACK_WORDS, 1, 0, 0);
	expect_ctrs(test, p->b->dev, ACK_WORDS, 1, 91, 2, 0, 0);

	clear_ctrs(test, p->a->dev);
	clear_ctrs(test, p->b->dev);
	rc_rdma(test, p, IB_WR_RDMA_READ, lbuf, rbuf, 600);
	/* request 24 + RETH 16; response 3 x 24 + 2 x AETH 4 + 600 */
	expect_ctrs(test, p->a->dev, 10, 1, 170, 3, 0, 0);
	expect_ctrs(test, p->b->dev, 170, 3, 10, 1, 0, 0);
}

/* An RNR NAK is a packet back; no RNR retries: one try only. */
static void rvt_pma_rnr_nak(struct kunit *test)
{
	struct rcpair *p = new_rcpair(test, 0);

	KUNIT_EXPECT_EQ(test, rc_send(test, p, 8, false),
			IB_WC_RNR_RETRY_EXC_ERR);
	/* 24 + 8 bytes out, a NAK of 28 back */
	expect_ctrs(test, p->a->dev, 8, 1, ACK_WORDS, 1, 0, 0);
	expect_ctrs(test, p->b->dev, ACK_WORDS, 1, 8, 1, 0, 0);
}

/*
 * CounterSelect clears the counters it names and only those; both
 * attributes show the same counters.
 */
static void rvt_pma_counter_select(struct kunit *test)
{
	struct kt_vt *a = new_vt(test), *b = new_vt(test);
	struct qpc *qa = new_ud(test, a), *qb = new_ud(test, b);
	struct ib_ah *ah = new_ah(test, a, rdma_loop_port_lid(b->dev), NULL);
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	u8 *sbuf = new_buf(test, 100), *rbuf = new_buf(test, 140);
	u32 w = UD_WORDS(100, false, false);
	struct ib_pma_portcounters_ext x;
	struct ib_pma_portcounters pc;

	clear_ctrs(test, a->dev);
	clear_ctrs(test, b->dev);
	post_recv(test, qb, r, rbuf, 140);
	post_ud(test, qa, s, ah, qb->qp->qp_num, sbuf, 100, false);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qa->cq, s));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qb->cq, r));
	expect_ctrs(test, a->dev, w, 1, 0, 0, 0, 0);

	/* PortCounters: PortXmitData only; the answer is after the clear */
	pc_do(test, a->dev, IB_MGMT_METHOD_SET,
	      be16_to_cpu(IB_PMA_SEL_PORT_XMIT_DATA), &pc);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_data), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_packets), 1);
	pcx_do(test, a->dev, IB_MGMT_METHOD_GET, 0, &x);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(x.port_xmit_data), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(x.port_xmit_packets), 1);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(x.port_unicast_xmit_packets), 1);

	/* PortCountersExtended: unicast sent only */
	pcx_do(test, a->dev, IB_MGMT_METHOD_SET,
	       be16_to_cpu(IB_PMA_SELX_PORT_UNI_XMIT_PACKETS), &x);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(x.port_unicast_xmit_packets), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(x.port_xmit_packets), 1);
	/* PortCounters: packets sent */
	pc_do(test, a->dev, IB_MGMT_METHOD_SET,
	      be16_to_cpu(IB_PMA_SEL_PORT_XMIT_PACKETS), &pc);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_packets), 0);
	expect_ctrs(test, a->dev, 0, 0, 0, 0, 0, 0);
	/* B's counters were not touched */
	expect_ctrs(test, b->dev, 0, 0, w, 1, 0, 0);
	/* a Set with no CounterSelect clears nothing */
	pcx_do(test, b->dev, IB_MGMT_METHOD_SET, 0, &x);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(x.port_rcv_packets), 1);
}

/*
 * PortCounters' 32-bit fields stop at 0xFFFFFFFF; the extended ones go
 * on.  Counters are preloaded near their limits.
 */
static void rvt_pma_saturation(struct kunit *test)
{
	struct kt_vt *a = new_vt(test), *b = new_vt(test);
	struct qpc *qa = new_ud(test, a), *qb = new_ud(test, b);
	struct ib_ah *ah = new_ah(test, a, rdma_loop_port_lid(b->dev), NULL);
	struct rvt_ibport *pa = ib_to_rvt(a->dev)->ports[0];
	struct rvt_ibport *pb = ib_to_rvt(b->dev)->ports[0];
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	u8 *sbuf = new_buf(test, 100), *rbuf = new_buf(test, 140);
	u32 w = UD_WORDS(100, false, false);
	struct ib_pma_portcounters_ext x;
	struct ib_pma_portcounters pc;

	clear_ctrs(test, a->dev);
	clear_ctrs(test, b->dev);
	rvt_pma_preload(pa, RVT_PMA_XMIT_DATA, 0xfffffff0ULL);
	rvt_pma_preload(pa, RVT_PMA_XMIT_PKTS, 0xffffffffULL);
	rvt_pma_preload(pb, RVT_PMA_RCV_DATA, 0x123456789ULL);
	pc_do(test, a->dev, IB_MGMT_METHOD_GET, 0, &pc);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_data), 0xfffffff0U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_packets), 0xffffffffU);

	post_recv(test, qb, r, rbuf, 140);
	post_ud(test, qa, s, ah, qb->qp->qp_num, sbuf, 100, false);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qa->cq, s));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qb->cq, r));

	pc_do(test, a->dev, IB_MGMT_METHOD_GET, 0, &pc);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_data), 0xffffffffU);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_packets), 0xffffffffU);
	pcx_do(test, a->dev, IB_MGMT_METHOD_GET, 0, &x);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(x.port_xmit_data),
			0xfffffff0ULL + w);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(x.port_xmit_packets),
			0x100000000ULL);
	pc_do(test, b->dev, IB_MGMT_METHOD_GET, 0, &pc);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_rcv_data), 0xffffffffU);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_rcv_packets), 1);
	pcx_do(test, b->dev, IB_MGMT_METHOD_GET, 0, &x);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(x.port_rcv_data),
			0x123456789ULL + w);

	/* cleared, they count from 0 again */
	pc_do(test, a->dev, IB_MGMT_METHOD_SET,
	      be16_to_cpu(IB_PMA_SEL_PORT_XMIT_DATA |
			  IB_PMA_SEL_PORT_XMIT_PACKETS), &pc);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_data), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc.port_xmit_packets), 0);
}

/*
 * A multicast datagram counts once, as multicast, at its sender, and at
 * each other port with a member; not at a port without one, nor at the
 * sender's own port, whose member gets it all the same.
 */
static void rvt_pma_multicast(struct kunit *test)
{
	struct kt_vt *a = new_vt(test), *b = new_vt(test), *c = new_vt(test);
	struct qpc *qa = new_ud(test, a), *qa2 = new_ud(test, a);
	struct qpc *qb = new_ud(test, b);
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqes(test, 2);
	u8 *sbuf = new_buf(test, 64), *rbuf = new_buf(test, 2 * 104);
	u32 w = UD_WORDS(64, true, false);
	union ib_gid mgid = { .raw = { 0xff, 0x12, 0x40, 0x1b,
				       [15] = 0x44 } };
	struct ib_ah *ah = new_ah(test, a, MLID, &mgid);

	KUNIT_ASSERT_EQ(test, ib_attach_mcast(qb->qp, &mgid, MLID), 0);
	KUNIT_ASSERT_EQ(test, ib_attach_mcast(qa2->qp, &mgid, MLID), 0);
	clear_ctrs(test, a->dev);
	clear_ctrs(test, b->dev);
	clear_ctrs(test, c->dev);
	post_recv(test, qb, &r[0], rbuf, 104);
	post_recv(test, qa2, &r[1], rbuf + 104, 104);
	post_ud(test, qa, s, ah, 0xffffff, sbuf, 64, false);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qa->cq, s));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qb->cq, &r[0]));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(qa2->cq, &r[1]));
	expect_ctrs(test, a->dev, w, 1, 0, 0, 1, 0);
	expect_ctrs(test, b->dev, 0, 0, w, 1, 0, 1);
	expect_ctrs(test, c->dev, 0, 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(qb->qp, &mgid, MLID), 0);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(qa2->qp, &mgid, MLID), 0);
}

/* Datagrams between QPs of one port never reach the link. */
static void rvt_pma_loopback(struct kunit *test)
{
	struct kt_vt *a = new_vt(test);
	struct qpc *q1 = new_ud(test, a), *q2 = new_ud(test, a);
	struct ib_ah *ah = new_ah(test, a, rdma_loop_port_lid(a->dev), NULL);
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	u8 *sbuf = new_buf(test, 100), *rbuf = new_buf(test, 140);

	clear_ctrs(test, a->dev);
	post_recv(test, q2, r, rbuf, 140);
	post_ud(test, q1, s, ah, q2->qp->qp_num, sbuf, 100, false);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(q1->cq, s));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(q2->cq, r));
	KUNIT_EXPECT_EQ(test, r->wc.status, IB_WC_SUCCESS);
	expect_ctrs(test, a->dev, 0, 0, 0, 0, 0, 0);
}

/* What the PMA does not answer, and with which status. */
static void rvt_pma_unsupported(struct kunit *test)
{
	struct kt_vt *vt = new_vt(test);
	struct ib_pma_mad *out = new_pma(test), *in = new_pma(test);
	struct ib_pma_portcounters *req = (void *)in->data;

	req->port_select = 1;
	KUNIT_EXPECT_EQ(test, pma_status(test, vt->dev, IB_MGMT_METHOD_GET,
					 IB_PMA_PORT_SAMPLES_CONTROL, 0, NULL),
			ST_UNSUP_ATTR);
	KUNIT_EXPECT_EQ(test, pma_status(test, vt->dev, IB_MGMT_METHOD_GET,
					 IB_PMA_PORT_SAMPLES_RESULT, 0, NULL),
			ST_UNSUP_ATTR);
	KUNIT_EXPECT_EQ(test, pma_status(test, vt->dev, IB_MGMT_METHOD_SET,
					 IB_PMA_CLASS_PORT_INFO, 0, NULL),
			ST_UNSUP_ATTR);
	KUNIT_EXPECT_EQ(test, pma_status(test, vt->dev, IB_MGMT_METHOD_SEND,
					 IB_PMA_PORT_COUNTERS, 0, in->data),
			ST_UNSUP_METHOD);
	KUNIT_EXPECT_EQ(test, pma_status(test, vt->dev, 0x14,
					 IB_PMA_PORT_COUNTERS, 0, in->data),
			ST_UNSUP_METHOD);
	/* PortSelect of a port the device does not have, attr_mod not 0 */
	req->port_select = 2;
	KUNIT_EXPECT_EQ(test, pma_status(test, vt->dev, IB_MGMT_METHOD_GET,
					 IB_PMA_PORT_COUNTERS, 0, in->data),
			ST_INVALID);
	KUNIT_EXPECT_EQ(test, pma_status(test, vt->dev, IB_MGMT_METHOD_GET,
					 IB_PMA_PORT_COUNTERS_EXT, 0, in->data),
			ST_INVALID);
	req->port_select = 0;
	KUNIT_EXPECT_EQ(test, pma_status(test, vt->dev, IB_MGMT_METHOD_SET,
					 IB_PMA_PORT_COUNTERS, 0, in->data),
			ST_INVALID);
	req->port_select = 1;
	KUNIT_EXPECT_EQ(test, pma_status(test, vt->dev, IB_MGMT_METHOD_GET,
					 IB_PMA_PORT_COUNTERS, 1, in->data),
			ST_INVALID);
	/* class version 2 */
	KUNIT_EXPECT_EQ(test, pma_call(test, vt->dev, 2, IB_MGMT_METHOD_GET,
				       IB_PMA_PORT_COUNTERS, 0, in->data, out),
			RES_REPLY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(out->mad_hdr.status),
			ST_BAD_VERSION);
	/* a response is for a performance manager, not the agent */
	KUNIT_EXPECT_EQ(test, pma_call(test, vt->dev, 1,
				       IB_MGMT_METHOD_GET_RESP,
				       IB_PMA_PORT_COUNTERS, 0, in->data, out),
			IB_MAD_RESULT_SUCCESS);
}

static struct kunit_case rdma_rvt_pma_cases[] = {
	KUNIT_CASE(rvt_pma_classportinfo),
	KUNIT_CASE(rvt_pma_ud_counts),
	KUNIT_CASE(rvt_pma_rc_counts),
	KUNIT_CASE(rvt_pma_rnr_nak),
	KUNIT_CASE(rvt_pma_counter_select),
	KUNIT_CASE(rvt_pma_saturation),
	KUNIT_CASE(rvt_pma_multicast),
	KUNIT_CASE(rvt_pma_loopback),
	KUNIT_CASE(rvt_pma_unsupported),
	{}
};

static struct kunit_suite rdma_rvt_pma_suite = {
	.name = "rdma_rvt_pma",
	.test_cases = rdma_rvt_pma_cases,
	.suite_init = pma_suite_init,
	.suite_exit = pma_suite_exit,
	.init = pma_init,
};

kunit_test_suite(rdma_rvt_pma_suite);

MODULE_DESCRIPTION("KUnit tests of rdmavt's performance management agent on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
