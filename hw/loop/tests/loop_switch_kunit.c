// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite rdma_loop_switch: the loop fabric's emulated switch seen
 * through the MAD layer.  SMPs built by hand leave an agent on QP0 of a
 * loop device and cross the switch by directed route (answered by the
 * switch's SMA or by the device cabled to the port the path names) or
 * by LID once the LinearForwardingTable is written.  Each case starts
 * and ends with the switch as at module load (rdma_loop_switch_reset()).
 */

#include <kunit/test.h>
#include <kunit/rdma_mad.h>
#include <kunit/rdma_verbs.h>
#include <kunit/visibility.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>
#include <linux/unaligned.h>
#include <rdma/ib_smi.h>

#include "../loop.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KU_CLASS	0x0a
#define KU_ATTR		cpu_to_be16(0x0123)
#define KU_WAIT		(10 * HZ)
/*
 * How long a MAD the switch is to lose waits for an answer: a loop
 * device answers within milliseconds, so one the switch let through
 * would be answered well within it (answered sends wait up to 2 s).
 */
#define KU_LOST_MS	100
#define SW_GUID		0x02fa4e0200000001ULL
/* SwitchInfo byte 11 and the byte offsets opensm reads */
#define SI_LIFE_STATE	11
#define SI_PSC		0x04

struct rec {
	struct ib_mad_agent	*agent;
	spinlock_t		lock;	/* the counters and @last */
	int			recvs;
	int			responses;
	int			sends;
	bool			answer;
	struct ib_mad		last;
	struct ib_wc		last_wc;
	enum ib_wc_status	last_status;
	struct completion	done;
};

static void rec_reset(struct rec *r)
{
	spin_lock(&r->lock);
	r->recvs = 0;
	r->responses = 0;
	r->sends = 0;
	spin_unlock(&r->lock);
	reinit_completion(&r->done);
}

static void ku_send_handler(struct ib_mad_agent *agent,
			    struct ib_mad_send_wc *wc)
{
	struct rec *r = agent->context;
	struct ib_mad_send_buf *sb = wc->send_buf;

	if (kt_mad_is_reply(sb)) {
		kt_mad_reply_free(sb);
		return;
	}
	spin_lock(&r->lock);
	r->sends++;
	r->last_status = wc->status;
	spin_unlock(&r->lock);
	rdma_destroy_ah(sb->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(sb);
	complete(&r->done);
}

static void ku_recv_handler(struct ib_mad_agent *agent,
			    struct ib_mad_send_buf *send_buf,
			    struct ib_mad_recv_wc *rwc)
{
	struct rec *r = agent->context;
	bool request = !ib_response_mad(&rwc->recv_buf.mad->mad_hdr);

	spin_lock(&r->lock);
	r->recvs++;
	r->responses += !!send_buf;
	r->last = *rwc->recv_buf.mad;
	r->last_wc = *rwc->wc;
	spin_unlock(&r->lock);
	if (request && r->answer &&
	    rwc->recv_buf.mad->mad_hdr.method == IB_MGMT_METHOD_GET)
		kt_mad_answer_get(agent, rwc);
	ib_free_recv_mad(rwc);
	complete(&r->done);
}

static struct rec *new_rec(struct kunit *test)
{
	struct rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	spin_lock_init(&r->lock);
	init_completion(&r->done);
	return r;
}

/* An agent of @dev on QP @qpt (@req: the requests it takes, or none) */
static struct rec *reg_agent(struct kunit *test, struct ib_device *dev,
			     enum ib_qp_type qpt, struct ib_mad_reg_req *req)
{
	struct rec *r = new_rec(test);

	r->agent = ib_register_mad_agent(dev, 1, qpt, req, 0,
					 ku_send_handler, ku_recv_handler, r,
					 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r->agent);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_unregister_agent,
							r->agent), 0);
	return r;
}

/* An agent of @dev on QP0 (SMI) or, with @gsi, on QP1 for KU_CLASS Gets */
static struct rec *new_agent(struct kunit *test, struct ib_device *dev,
			     bool gsi)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = KU_CLASS,
		.mgmt_class_version = 1,
	};

	__set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	return reg_agent(test, dev, gsi ? IB_QPT_GSI : IB_QPT_SMI,
			 gsi ? &req : NULL);
}

/* Wait until @r counted @n sends; false after KU_WAIT */
static bool wait_sends(struct rec *r, int n)
{
	unsigned long end = jiffies + KU_WAIT;

	while (time_before(jiffies, end)) {
		if (READ_ONCE(r->sends) >= n)
			return true;
		wait_for_completion_timeout(&r->done, HZ / 10);
		reinit_completion(&r->done);
	}
	return READ_ONCE(r->sends) >= n;
}

/* A send buffer of @r's agent to @dlid, QP @dqpn, class @cls */
static struct ib_mad_send_buf *ku_buf(struct kunit *test, struct rec *r,
				      u32 dlid, u32 dqpn, u8 cls, u8 method,
				      int timeout_ms)
{
	struct rdma_ah_attr attr = {};
	struct ib_mad_send_buf *sb;
	struct ib_mad *mad;
	struct ib_ah *ah;
	static u32 tid;

	attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_port_num(&attr, 1);
	rdma_ah_set_dlid(&attr, dlid);
	ah = rdma_create_ah(r->agent->qp->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	sb = ib_create_send_mad(r->agent, dqpn, 0, 0, IB_MGMT_MAD_HDR,
				IB_MGMT_MAD_DATA, GFP_KERNEL,
				IB_MGMT_BASE_VERSION);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb);
	mad = sb->mad;
	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = cls;
	mad->mad_hdr.class_version = 1;
	mad->mad_hdr.method = method;
	mad->mad_hdr.attr_id = KU_ATTR;
	mad->mad_hdr.tid = cpu_to_be64((u64)r->agent->hi_tid << 32 | ++tid);
	sb->ah = ah;
	sb->timeout_ms = timeout_ms;
	sb->retries = 0;
	return sb;
}

/*
 * A directed-route SMP from @r: @hops hops along @path (path[0] is the
 * sender's port, 1), permissive DrSLID and DrDLID.
 */
static struct ib_mad_send_buf *dr_smp(struct kunit *test, struct rec *r,
				      u8 method, __be16 attr, u32 mod,
				      const u8 *path, u8 hops, int timeout_ms)
{
	struct ib_mad_send_buf *sb;
	struct ib_smp *smp;

	sb = ku_buf(test, r, be16_to_cpu(IB_LID_PERMISSIVE), 0,
		    IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, method, timeout_ms);
	smp = sb->mad;
	memset(smp->data, 0, sizeof(smp->data));
	smp->attr_id = attr;
	smp->attr_mod = cpu_to_be32(mod);
	smp->hop_cnt = hops;
	smp->hop_ptr = 0;
	smp->dr_slid = IB_LID_PERMISSIVE;
	smp->dr_dlid = IB_LID_PERMISSIVE;
	memcpy(&smp->initial_path[1], path, hops);
	return sb;
}

/* Send @sb and wait for its completion; 0 or the send's status. */
static int ku_send(struct kunit *test, struct rec *r,
		   struct ib_mad_send_buf *sb)
{
	int n = READ_ONCE(r->sends);

	KUNIT_ASSERT_EQ(test, ib_post_send_mad(sb, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wait_sends(r, n + 1));
	return r->last_status;
}

/* A DR Get or Set through @path; the answer's SMP (asserted to come) */
static struct ib_smp *dr_do(struct kunit *test, struct rec *r, u8 method,
			    __be16 attr, u32 mod, const u8 *path, u8 hops,
			    const void *data, size_t len)
{
	struct ib_mad_send_buf *sb;

	sb = dr_smp(test, r, method, attr, mod, path, hops, 2000);
	if (data)
		memcpy(((struct ib_smp *)sb->mad)->data, data, len);
	rec_reset(r);
	KUNIT_ASSERT_EQ(test, ku_send(test, r, sb), IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, r->responses, 1);
	return (struct ib_smp *)&r->last;
}

static void sw_reset(void *unused)
{
	rdma_loop_switch_reset();
}

static int sw_init(struct kunit *test)
{
	rdma_loop_switch_reset();
	return kunit_add_action_or_reset(test, sw_reset, NULL);
}

/* The status of an answer without the direction bit */
static u16 st(const struct ib_smp *smp)
{
	return be16_to_cpu(smp->status) & 0x7fff;
}

/* PortState and PortPhysicalState of a PortInfo answer */
static u8 pi_state(const struct ib_smp *smp)
{
	return ((const struct ib_port_info *)smp->data)->linkspeed_portstate &
	       0xf;
}

static u8 pi_phys(const struct ib_smp *smp)
{
	return ((const struct ib_port_info *)smp->data)->portphysstate_linkdown >>
	       4;
}

/* A free external port of a switch of @nports ports, 0 for none */
static u8 free_port(u8 nports, u8 used1, u8 used2)
{
	u8 p;

	for (p = nports; p >= 1; p--)
		if (p != used1 && p != used2)
			return p;
	return 0;
}

/*
 * Hop 1 ends at the switch: NodeInfo as a switch, its GUID, the port of
 * the cable as LocalPortNum; the answer came back along the return path.
 */
static void sw_nodeinfo_hop1(struct kunit *test)
{
	struct kt_vt *va = kt_new_vt_flags(test, "kusw%d", RDMA_LOOP_MANAGED);
	struct rec *a = new_agent(test, va->dev, false);
	u8 pa = rdma_loop_switch_port(va->dev);
	const u8 path[] = { 1 };
	struct ib_node_info *ni;
	struct ib_smp *smp;

	KUNIT_ASSERT_GE(test, pa, 1);
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_NODE_INFO, 0,
		    path, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, smp->method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(smp->status), 0x8000);
	KUNIT_EXPECT_EQ(test, smp->hop_ptr, 0);
	KUNIT_EXPECT_EQ(test, smp->return_path[1], pa);
	KUNIT_EXPECT_EQ(test, a->last_wc.slid, 0xffff);
	ni = (struct ib_node_info *)smp->data;
	KUNIT_EXPECT_EQ(test, ni->node_type, RDMA_NODE_IB_SWITCH);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->node_guid), SW_GUID);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->port_guid), SW_GUID);
	KUNIT_EXPECT_EQ(test, ni->local_port_num, pa);
	KUNIT_EXPECT_GE(test, ni->num_ports, pa);

	/* NodeDescription */
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_NODE_DESC, 0,
		    path, 1, NULL, 0);
	KUNIT_EXPECT_STREQ(test, (char *)smp->data, "rdma_loop switch");
}

/*
 * Hop 2 through switch port k answers as the device cabled there, and
 * the switch's PortInfo shows the cabled ports LinkUp in INIT.
 */
static void sw_nodeinfo_hop2(struct kunit *test)
{
	struct kt_vt *va = kt_new_vt_flags(test, "kusw%d", RDMA_LOOP_MANAGED);
	struct kt_vt *vb = kt_new_vt_flags(test, "kusw%d", RDMA_LOOP_MANAGED);
	struct rec *a = new_agent(test, va->dev, false);
	u8 pa = rdma_loop_switch_port(va->dev);
	u8 pb = rdma_loop_switch_port(vb->dev);
	u8 path[] = { 1, pb };
	struct ib_port_info *pi;
	struct ib_node_info *ni;
	struct ib_smp *smp;

	KUNIT_ASSERT_GE(test, pb, 1);
	KUNIT_ASSERT_NE(test, pa, pb);
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_NODE_INFO, 0,
		    path, 2, NULL, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(smp->status), 0x8000);
	KUNIT_EXPECT_EQ(test, smp->hop_ptr, 0);
	KUNIT_EXPECT_EQ(test, smp->return_path[1], pa);
	KUNIT_EXPECT_EQ(test, smp->return_path[2], 1);
	ni = (struct ib_node_info *)smp->data;
	KUNIT_EXPECT_EQ(test, ni->node_type, RDMA_NODE_IB_CA);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->node_guid),
			be64_to_cpu(vb->dev->node_guid));
	KUNIT_EXPECT_EQ(test, ni->local_port_num, 1);

	/* PortInfo of switch port pb, asked through pa */
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_PORT_INFO, pb,
		    path, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, st(smp), 0);
	pi = (struct ib_port_info *)smp->data;
	KUNIT_EXPECT_EQ(test, pi->local_port_num, pa);
	KUNIT_EXPECT_EQ(test, pi->linkspeed_portstate & 0xf, IB_PORT_INIT);
	KUNIT_EXPECT_EQ(test, pi->portphysstate_linkdown >> 4,
			IB_PORT_PHYS_STATE_LINK_UP);
	KUNIT_EXPECT_EQ(test, pi->link_width_active, IB_WIDTH_4X);
	KUNIT_EXPECT_EQ(test, pi->inittypereply_mtucap & 0xf, IB_MTU_4096);

	/* port 0: no LID before an SM gives one; ports beyond: refused */
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_PORT_INFO, 0,
		    path, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, st(smp), 0);
	pi = (struct ib_port_info *)smp->data;
	KUNIT_EXPECT_EQ(test, be16_to_cpu(pi->lid), 0);
	KUNIT_EXPECT_EQ(test, pi->linkspeed_portstate & 0xf, IB_PORT_INIT);
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_PORT_INFO, 0xff,
		    path, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, st(smp), IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE);
}

/*
 * A path naming a switch port without a cable, or one the switch does
 * not have, loses the SMP: the sender times out.
 */
static void sw_dr_no_cable(struct kunit *test)
{
	struct kt_vt *va = kt_new_vt_flags(test, "kusw%d", RDMA_LOOP_MANAGED);
	struct rec *a = new_agent(test, va->dev, false);
	u8 pa = rdma_loop_switch_port(va->dev);
	u8 path[] = { 1, 0 };
	struct ib_node_info *ni;
	struct ib_smp *smp;
	u8 n;

	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_NODE_INFO, 0,
		    path, 1, NULL, 0);
	ni = (struct ib_node_info *)smp->data;
	n = ni->num_ports;
	path[1] = free_port(n, pa, 0);
	KUNIT_ASSERT_GE(test, path[1], 1);

	rec_reset(a);
	KUNIT_EXPECT_EQ(test, ku_send(test, a,
				      dr_smp(test, a, IB_MGMT_METHOD_GET,
					     IB_SMP_ATTR_NODE_INFO, 0, path,
					     2, KU_LOST_MS)),
			IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, a->recvs, 0);

	path[1] = n + 1;
	rec_reset(a);
	KUNIT_EXPECT_EQ(test, ku_send(test, a,
				      dr_smp(test, a, IB_MGMT_METHOD_GET,
					     IB_SMP_ATTR_NODE_INFO, 0, path,
					     2, KU_LOST_MS)),
			IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, a->recvs, 0);
}

/* Bring switch port @p to ACTIVE through @path (one hop) */
static void sw_port_active(struct kunit *test, struct rec *r, const u8 *path,
			   u8 p)
{
	struct ib_port_info pi = {};
	struct ib_smp *smp;

	pi.linkspeed_portstate = IB_PORT_ARMED;
	smp = dr_do(test, r, IB_MGMT_METHOD_SET, IB_SMP_ATTR_PORT_INFO, p,
		    path, 1, &pi, sizeof(pi));
	KUNIT_ASSERT_EQ(test, st(smp), 0);
	KUNIT_ASSERT_EQ(test, pi_state(smp),
			IB_PORT_ARMED);
	pi.linkspeed_portstate = IB_PORT_ACTIVE;
	smp = dr_do(test, r, IB_MGMT_METHOD_SET, IB_SMP_ATTR_PORT_INFO, p,
		    path, 1, &pi, sizeof(pi));
	KUNIT_ASSERT_EQ(test, st(smp), 0);
	KUNIT_ASSERT_EQ(test, pi_state(smp),
			IB_PORT_ACTIVE);
}

/* Write the LFT entry of @lid to @port (block of 64 read, changed, set) */
static void sw_lft_set(struct kunit *test, struct rec *r, const u8 *path,
		       u32 lid, u8 port)
{
	u8 block[64];
	struct ib_smp *smp;

	smp = dr_do(test, r, IB_MGMT_METHOD_GET,
		    IB_SMP_ATTR_LINEAR_FORWARD_TABLE, lid / 64, path, 1, NULL,
		    0);
	KUNIT_ASSERT_EQ(test, st(smp), 0);
	memcpy(block, smp->data, sizeof(block));
	block[lid % 64] = port;
	smp = dr_do(test, r, IB_MGMT_METHOD_SET,
		    IB_SMP_ATTR_LINEAR_FORWARD_TABLE, lid / 64, path, 1, block,
		    sizeof(block));
	KUNIT_ASSERT_EQ(test, st(smp), 0);
	KUNIT_EXPECT_EQ(test, smp->data[lid % 64], port);
}

/* A KU_CLASS Get from @a to @dlid on QP1 waiting @ms; the send's status */
static int gmp_get_ms(struct kunit *test, struct rec *a, u32 dlid, int ms)
{
	rec_reset(a);
	return ku_send(test, a, ku_buf(test, a, dlid, 1, KU_CLASS,
				       IB_MGMT_METHOD_GET, ms));
}

/* A KU_CLASS Get to be answered */
static int gmp_get(struct kunit *test, struct rec *a, u32 dlid)
{
	return gmp_get_ms(test, a, dlid, 300);
}

/* A KU_CLASS Get to be lost, or not to be answered */
static int gmp_lost(struct kunit *test, struct rec *a, u32 dlid)
{
	return gmp_get_ms(test, a, dlid, KU_LOST_MS);
}

/*
 * LID routing through the LinearForwardingTable: a GMP crosses the
 * switch while both entries name ACTIVE ports, and is lost without the
 * destination's entry, or when its port is not ACTIVE.
 */
static void sw_lft_routing(struct kunit *test)
{
	struct kt_vt *va = kt_new_vt_named(test, "kusw%d");
	struct kt_vt *vb = kt_new_vt_named(test, "kusw%d");
	struct rec *sa = new_agent(test, va->dev, false);
	struct rec *ga = new_agent(test, va->dev, true);
	struct rec *gb = new_agent(test, vb->dev, true);
	u8 pa = rdma_loop_switch_port(va->dev);
	u8 pb = rdma_loop_switch_port(vb->dev);
	u32 la = rdma_loop_port_lid(va->dev);
	u32 lb = rdma_loop_port_lid(vb->dev);
	const u8 path[] = { 1 };
	struct ib_port_info pi = {};
	struct ib_smp *smp;

	gb->answer = true;
	/* before any LFT: delivered by LID directly */
	KUNIT_ASSERT_EQ(test, gmp_get(test, ga, lb), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, ga->responses, 1);

	sw_port_active(test, sa, path, pa);
	sw_port_active(test, sa, path, pb);
	sw_lft_set(test, sa, path, la, pa);
	sw_lft_set(test, sa, path, lb, pb);
	KUNIT_EXPECT_EQ(test, gmp_get(test, ga, lb), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, ga->responses, 1);
	KUNIT_EXPECT_EQ(test, ga->last.data[0], 0xab);
	KUNIT_EXPECT_EQ(test, ga->last_wc.slid, lb);

	/* b's entry gone: dropped */
	sw_lft_set(test, sa, path, lb, 0xff);
	KUNIT_EXPECT_EQ(test, gmp_lost(test, ga, lb), IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, ga->recvs, 0);

	/* back, but b's switch port taken DOWN (it retrains to INIT) */
	sw_lft_set(test, sa, path, lb, pb);
	KUNIT_EXPECT_EQ(test, gmp_get(test, ga, lb), IB_WC_SUCCESS);
	pi.linkspeed_portstate = IB_PORT_DOWN;
	smp = dr_do(test, sa, IB_MGMT_METHOD_SET, IB_SMP_ATTR_PORT_INFO, pb,
		    path, 1, &pi, sizeof(pi));
	KUNIT_EXPECT_EQ(test, st(smp), 0);
	KUNIT_EXPECT_EQ(test, pi_state(smp),
			IB_PORT_INIT);
	KUNIT_EXPECT_EQ(test, gmp_lost(test, ga, lb), IB_WC_RESP_TIMEOUT_ERR);

	/* an entry naming a port without a device of that LID */
	sw_port_active(test, sa, path, pb);
	sw_lft_set(test, sa, path, lb, pa);
	KUNIT_EXPECT_EQ(test, gmp_lost(test, ga, lb), IB_WC_RESP_TIMEOUT_ERR);
}

/*
 * Port 0 gets a LID from a PortInfo Set; a LID-routed SMP to it is
 * answered by the switch, from that LID.
 */
static void sw_lid_routed_smp(struct kunit *test)
{
	struct kt_vt *va = kt_new_vt_named(test, "kusw%d");
	struct rec *a = new_agent(test, va->dev, false);
	const u8 path[] = { 1 };
	struct ib_port_info pi = {};
	struct ib_mad_send_buf *sb;
	struct ib_node_info *ni;
	struct ib_smp *smp;

	pi.lid = cpu_to_be16(0x1234);
	pi.sm_lid = cpu_to_be16(rdma_loop_port_lid(va->dev));
	smp = dr_do(test, a, IB_MGMT_METHOD_SET, IB_SMP_ATTR_PORT_INFO, 0,
		    path, 1, &pi, sizeof(pi));
	KUNIT_ASSERT_EQ(test, st(smp), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(((struct ib_port_info *)
					  smp->data)->lid), 0x1234);

	sb = ku_buf(test, a, 0x1234, 0, IB_MGMT_CLASS_SUBN_LID_ROUTED,
		    IB_MGMT_METHOD_GET, 2000);
	smp = sb->mad;
	memset(smp->data, 0, sizeof(smp->data));
	smp->attr_id = IB_SMP_ATTR_NODE_INFO;
	rec_reset(a);
	KUNIT_ASSERT_EQ(test, ku_send(test, a, sb), IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, a->responses, 1);
	KUNIT_EXPECT_EQ(test, a->last_wc.slid, 0x1234);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(a->last.mad_hdr.status), 0);
	ni = (struct ib_node_info *)((struct ib_smp *)&a->last)->data;
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->node_guid), SW_GUID);
}

/* SwitchInfo:PortStateChange follows cables, a Set writing 1 clears it */
static void sw_port_state_change(struct kunit *test)
{
	struct kt_vt *va = kt_new_vt_flags(test, "kusw%d", RDMA_LOOP_MANAGED);
	struct rec *a = new_agent(test, va->dev, false);
	const u8 path[] = { 1 };
	u8 si[64] = {};
	struct ib_device *c;
	struct ib_smp *smp;
	u8 pc;

	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_SWITCH_INFO, 0,
		    path, 1, NULL, 0);
	KUNIT_ASSERT_EQ(test, st(smp), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&smp->data[0]), 0xc000);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&smp->data[4]), 256);
	/* a's own cable went in after the reset */
	KUNIT_EXPECT_EQ(test, smp->data[SI_LIFE_STATE] & SI_PSC, SI_PSC);
	memcpy(si, smp->data, sizeof(si));
	smp = dr_do(test, a, IB_MGMT_METHOD_SET, IB_SMP_ATTR_SWITCH_INFO, 0,
		    path, 1, si, sizeof(si));
	KUNIT_EXPECT_EQ(test, st(smp), 0);
	KUNIT_EXPECT_EQ(test, smp->data[SI_LIFE_STATE] & SI_PSC, 0);
	/* LifeTimeValue kept */
	KUNIT_EXPECT_EQ(test, smp->data[SI_LIFE_STATE] >> 3, 18);

	c = rdma_loop_add_device_flags("kusw%d", RDMA_LOOP_MANAGED);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	pc = rdma_loop_switch_port(c);
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_SWITCH_INFO, 0,
		    path, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, smp->data[SI_LIFE_STATE] & SI_PSC, SI_PSC);

	/* a Set writing 0 leaves it, one writing 1 clears it */
	memcpy(si, smp->data, sizeof(si));
	si[SI_LIFE_STATE] &= ~SI_PSC;
	smp = dr_do(test, a, IB_MGMT_METHOD_SET, IB_SMP_ATTR_SWITCH_INFO, 0,
		    path, 1, si, sizeof(si));
	KUNIT_EXPECT_EQ(test, smp->data[SI_LIFE_STATE] & SI_PSC, SI_PSC);
	si[SI_LIFE_STATE] |= SI_PSC;
	smp = dr_do(test, a, IB_MGMT_METHOD_SET, IB_SMP_ATTR_SWITCH_INFO, 0,
		    path, 1, si, sizeof(si));
	KUNIT_EXPECT_EQ(test, st(smp), 0);
	KUNIT_EXPECT_EQ(test, smp->data[SI_LIFE_STATE] & SI_PSC, 0);

	rdma_loop_remove_device(c);
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_SWITCH_INFO, 0,
		    path, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, smp->data[SI_LIFE_STATE] & SI_PSC, SI_PSC);
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_PORT_INFO, pc,
		    path, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, pi_state(smp),
			IB_PORT_DOWN);
	KUNIT_EXPECT_EQ(test, pi_phys(smp),
			IB_PORT_PHYS_STATE_POLLING);
}

/*
 * A device removed while SMPs cross the switch to it: every send
 * completes, answered or timed out, and the fabric goes on.
 */
static void sw_remove_under_smps(struct kunit *test)
{
	struct kt_vt *va = kt_new_vt_flags(test, "kusw%d", RDMA_LOOP_MANAGED);
	struct rec *a = new_agent(test, va->dev, false);
	struct ib_device *b;
	u8 path[] = { 1, 0 };
	struct ib_smp *smp;
	int i, n = 32;

	b = rdma_loop_add_device_flags("kusw%d", RDMA_LOOP_MANAGED);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	path[1] = rdma_loop_switch_port(b);
	rec_reset(a);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test,
				ib_post_send_mad(dr_smp(test, a,
							IB_MGMT_METHOD_GET,
							IB_SMP_ATTR_NODE_INFO,
							0, path, 2, 500),
						 NULL), 0);
	rdma_loop_remove_device(b);
	KUNIT_ASSERT_TRUE(test, wait_sends(a, n));
	KUNIT_EXPECT_EQ(test, a->sends, n);
	KUNIT_EXPECT_LE(test, a->responses, n);

	/* the switch still answers */
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_NODE_INFO, 0,
		    path, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, ((struct ib_node_info *)smp->data)->node_type,
			RDMA_NODE_IB_SWITCH);
}

/* PortInfo bytes 62 (LinkSpeedExtActive, Supported) and 63 (Enabled) */
#define PI_EXT_ACTIVE_SUP	62
#define PI_EXT_ENABLED		63

/* Set LinkSpeedExtEnabled @lsee on switch port @p; the answer */
static struct ib_smp *sw_set_lsee(struct kunit *test, struct rec *r,
				  const u8 *path, u8 p, u8 lsee)
{
	u8 pi[64] = {};
	struct ib_smp *smp;

	pi[PI_EXT_ENABLED] = lsee;
	smp = dr_do(test, r, IB_MGMT_METHOD_SET, IB_SMP_ATTR_PORT_INFO, p,
		    path, 1, pi, sizeof(pi));
	KUNIT_EXPECT_EQ(test, st(smp), 0);
	return smp;
}

/*
 * The extended speeds: port 0's CapabilityMask has
 * IsExtendedSpeedsSupported, a cabled port runs EDR as the device at its
 * other end does (opensm and ibnetdiscover compare both ends), an empty
 * one none; LinkSpeedExtEnabled is written as a device's (0 keeps, 0x1f
 * all, 0x1e none).
 */
static void sw_ext_speeds(struct kunit *test)
{
	struct kt_vt *va = kt_new_vt_flags(test, "kusw%d", RDMA_LOOP_MANAGED);
	struct rec *a = new_agent(test, va->dev, false);
	u8 pa = rdma_loop_switch_port(va->dev);
	const u8 path[] = { 1 };
	struct ib_port_info *pi;
	struct ib_smp *smp;
	u8 raw[64] = {};
	u8 empty, ca_ext;

	KUNIT_ASSERT_GE(test, pa, 1);
	/* the device's own PortInfo, 0 hops */
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_PORT_INFO, 0,
		    path, 0, NULL, 0);
	KUNIT_ASSERT_EQ(test, st(smp), 0);
	ca_ext = smp->data[PI_EXT_ACTIVE_SUP];
	KUNIT_EXPECT_EQ(test, ca_ext >> 4, 2);

	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_PORT_INFO, 0,
		    path, 1, NULL, 0);
	KUNIT_ASSERT_EQ(test, st(smp), 0);
	pi = (struct ib_port_info *)smp->data;
	KUNIT_EXPECT_TRUE(test, be32_to_cpu(pi->cap_mask) &
			  IB_PORT_EXTENDED_SPEEDS_SUP);

	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_PORT_INFO, pa,
		    path, 1, NULL, 0);
	KUNIT_ASSERT_EQ(test, st(smp), 0);
	/* EDR active, FDR and EDR supported and enabled: as the device */
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ACTIVE_SUP], 0x23);
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ACTIVE_SUP], ca_ext);
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ENABLED], 0x3);

	/* a port without a cable has no speed active */
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_NODE_INFO, 0,
		    path, 1, NULL, 0);
	empty = free_port(((struct ib_node_info *)smp->data)->num_ports, pa, 0);
	KUNIT_ASSERT_GE(test, empty, 1);
	smp = dr_do(test, a, IB_MGMT_METHOD_GET, IB_SMP_ATTR_PORT_INFO, empty,
		    path, 1, NULL, 0);
	KUNIT_EXPECT_EQ(test, st(smp), 0);
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ACTIVE_SUP], 0x03);

	smp = sw_set_lsee(test, a, path, pa, 0x1e);
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ACTIVE_SUP], 0x03);
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ENABLED], 0x1e);
	smp = sw_set_lsee(test, a, path, pa, 0x1);
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ACTIVE_SUP], 0x13);
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ENABLED], 0x1);
	smp = sw_set_lsee(test, a, path, pa, 0);
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ENABLED], 0x1);
	smp = sw_set_lsee(test, a, path, pa, 0x1f);
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ACTIVE_SUP], 0x23);
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ENABLED], 0x3);

	/*
	 * opensm's Sets carry SMSupportsExtendedSpeeds (attribute
	 * modifier bit 31) beside the port number
	 */
	raw[PI_EXT_ENABLED] = 0x1;
	smp = dr_do(test, a, IB_MGMT_METHOD_SET, IB_SMP_ATTR_PORT_INFO,
		    BIT(31) | pa, path, 1, raw, sizeof(raw));
	KUNIT_EXPECT_EQ(test, st(smp), 0);
	KUNIT_EXPECT_EQ(test, smp->data[PI_EXT_ENABLED], 0x1);
	pi = (struct ib_port_info *)smp->data;
	KUNIT_EXPECT_EQ(test, pi->local_port_num, pa);
}

/* An agent of @dev on QP1 that sends PMA requests and gets the answers */
static struct rec *new_pm(struct kunit *test, struct ib_device *dev)
{
	return reg_agent(test, dev, IB_QPT_GSI, NULL);
}

/* A PMA request from @pm to @lid; its answer, asserted to come */
static struct ib_pma_mad *pma_do(struct kunit *test, struct rec *pm, u32 lid,
				 u8 method, __be16 attr, u8 cls_version,
				 u8 port, u16 counter_select)
{
	struct ib_mad_send_buf *sb;
	struct ib_pma_mad *pmp;

	sb = ku_buf(test, pm, lid, 1, IB_MGMT_CLASS_PERF_MGMT, method, 2000);
	pmp = sb->mad;
	memset(pmp->data, 0, sizeof(pmp->data));
	pmp->mad_hdr.attr_id = attr;
	pmp->mad_hdr.class_version = cls_version;
	/* PortSelect and CounterSelect: bytes 1 and 2..3 of both attributes */
	pmp->data[1] = port;
	put_unaligned_be16(counter_select, &pmp->data[2]);
	rec_reset(pm);
	KUNIT_ASSERT_EQ(test, ku_send(test, pm, sb), IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, pm->responses, 1);
	pmp = (struct ib_pma_mad *)&pm->last;
	KUNIT_EXPECT_EQ(test, pmp->mad_hdr.method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, pm->last_wc.slid, lid);
	return pmp;
}

static u16 pma_st(const struct ib_pma_mad *pmp)
{
	return be16_to_cpu(pmp->mad_hdr.status);
}

/* PortCountersExtended of switch port @p, into @v (enum rvt_pma_counter) */
static void pma_ext(struct kunit *test, struct rec *pm, u32 lid, u8 p,
		    u64 *v)
{
	struct ib_pma_portcounters_ext *pc;
	struct ib_pma_mad *pmp;

	pmp = pma_do(test, pm, lid, IB_MGMT_METHOD_GET,
		     IB_PMA_PORT_COUNTERS_EXT, 1, p, 0);
	KUNIT_ASSERT_EQ(test, pma_st(pmp), 0);
	pc = (struct ib_pma_portcounters_ext *)pmp->data;
	KUNIT_EXPECT_EQ(test, pc->port_select, p);
	v[RVT_PMA_XMIT_DATA] = be64_to_cpu(pc->port_xmit_data);
	v[RVT_PMA_RCV_DATA] = be64_to_cpu(pc->port_rcv_data);
	v[RVT_PMA_XMIT_PKTS] = be64_to_cpu(pc->port_xmit_packets);
	v[RVT_PMA_RCV_PKTS] = be64_to_cpu(pc->port_rcv_packets);
	v[RVT_PMA_UNICAST_XMIT] = be64_to_cpu(pc->port_unicast_xmit_packets);
	v[RVT_PMA_UNICAST_RCV] = be64_to_cpu(pc->port_unicast_rcv_packets);
	v[RVT_PMA_MCAST_XMIT] = be64_to_cpu(pc->port_multicast_xmit_packets);
	v[RVT_PMA_MCAST_RCV] = be64_to_cpu(pc->port_multicast_rcv_packets);
}

/* the words of one MAD on the wire: LRH, BTH, DETH, 256 bytes, ICRC */
#define MAD_WORDS	((8 + 12 + 8 + 256 + 4) / 4)

/*
 * The switch's PMA at its LID: ClassPortInfo; the counters of switch
 * port A, which are A's device's own with sent and received swapped
 * (exact: K Gets answered, plus the PMA's own request and answer
 * around them; then Gets one way only); a Set clears them; PortCounters; the refusals; a GMP
 * coming in on a port that is not ACTIVE is lost.
 */
static void sw_pma(struct kunit *test)
{
	struct kt_vt *va = kt_new_vt_named(test, "kusw%d");
	struct kt_vt *vb = kt_new_vt_named(test, "kusw%d");
	struct rec *sa = new_agent(test, va->dev, false);
	struct rec *ga = new_agent(test, va->dev, true);
	struct rec *gb = new_agent(test, vb->dev, true);
	struct rec *pm = new_pm(test, va->dev);
	u8 pa = rdma_loop_switch_port(va->dev);
	u8 pb = rdma_loop_switch_port(vb->dev);
	u32 la = rdma_loop_port_lid(va->dev);
	u32 lb = rdma_loop_port_lid(vb->dev);
	u64 v0[RVT_PMA_NCOUNTERS], v1[RVT_PMA_NCOUNTERS];
	const u32 lid = 0x1235, k = 5;
	const u8 path[] = { 1 };
	struct ib_pma_portcounters *pc;
	struct ib_class_port_info *cpi;
	struct ib_port_info pi = {};
	struct ib_pma_mad *pmp;
	struct ib_smp *smp;
	u8 nports, empty;
	u32 i;

	KUNIT_ASSERT_GE(test, pa, 1);
	KUNIT_ASSERT_GE(test, pb, 1);
	gb->answer = true;
	pi.lid = cpu_to_be16(lid);
	smp = dr_do(test, sa, IB_MGMT_METHOD_SET, IB_SMP_ATTR_PORT_INFO, 0,
		    path, 1, &pi, sizeof(pi));
	KUNIT_ASSERT_EQ(test, st(smp), 0);
	smp = dr_do(test, sa, IB_MGMT_METHOD_GET, IB_SMP_ATTR_NODE_INFO, 0,
		    path, 1, NULL, 0);
	nports = ((struct ib_node_info *)smp->data)->num_ports;
	empty = free_port(nports, pa, pb);
	sw_port_active(test, sa, path, pa);

	pmp = pma_do(test, pm, lid, IB_MGMT_METHOD_GET,
		     IB_PMA_CLASS_PORT_INFO, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, pma_st(pmp), 0);
	cpi = (struct ib_class_port_info *)pmp->data;
	KUNIT_EXPECT_EQ(test, cpi->class_version, 1);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cpi->capability_mask),
			be16_to_cpu(IB_PMA_CLASS_CAP_EXT_WIDTH));

	/* A's Gets to B and their answers cross switch port A */
	pma_ext(test, pm, lid, pa, v0);
	for (i = 0; i < k; i++) {
		KUNIT_ASSERT_EQ(test, gmp_get(test, ga, lb), IB_WC_SUCCESS);
		KUNIT_ASSERT_EQ(test, ga->responses, 1);
	}
	pma_ext(test, pm, lid, pa, v1);
	/* and the first read's request (counted once it left) and answer */
	KUNIT_EXPECT_EQ(test, v1[RVT_PMA_RCV_PKTS] - v0[RVT_PMA_RCV_PKTS],
			(u64)k + 1);
	KUNIT_EXPECT_EQ(test, v1[RVT_PMA_XMIT_PKTS] - v0[RVT_PMA_XMIT_PKTS],
			(u64)k + 1);
	KUNIT_EXPECT_EQ(test, v1[RVT_PMA_RCV_DATA] - v0[RVT_PMA_RCV_DATA],
			(u64)(k + 1) * MAD_WORDS);
	KUNIT_EXPECT_EQ(test, v1[RVT_PMA_XMIT_DATA] - v0[RVT_PMA_XMIT_DATA],
			(u64)(k + 1) * MAD_WORDS);
	KUNIT_EXPECT_EQ(test,
			v1[RVT_PMA_UNICAST_RCV] - v0[RVT_PMA_UNICAST_RCV],
			(u64)k + 1);
	KUNIT_EXPECT_EQ(test, v1[RVT_PMA_MCAST_RCV], v0[RVT_PMA_MCAST_RCV]);

	/*
	 * One way only: B's Gets to A, which does not answer, leave switch
	 * port A toward A (sent, for the switch), none come back
	 */
	ga->answer = false;
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, gmp_lost(test, gb, la),
				IB_WC_RESP_TIMEOUT_ERR);
	pma_ext(test, pm, lid, pa, v0);
	/* the last read's request and answer, and the three */
	KUNIT_EXPECT_EQ(test, v0[RVT_PMA_XMIT_PKTS] - v1[RVT_PMA_XMIT_PKTS],
			4);
	KUNIT_EXPECT_EQ(test, v0[RVT_PMA_RCV_PKTS] - v1[RVT_PMA_RCV_PKTS],
			1);

	/* a Set clears what CounterSelect names: all eight here */
	pmp = pma_do(test, pm, lid, IB_MGMT_METHOD_SET,
		     IB_PMA_PORT_COUNTERS_EXT, 1, pa, 0xff);
	KUNIT_EXPECT_EQ(test, pma_st(pmp), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(((struct ib_pma_portcounters_ext *)
					   pmp->data)->port_rcv_packets), 0);
	pma_ext(test, pm, lid, pa, v1);
	for (i = 0; i < RVT_PMA_NCOUNTERS; i++) {
		u64 want = i == RVT_PMA_XMIT_DATA || i == RVT_PMA_RCV_DATA ?
			   MAD_WORDS : 1;

		if (i == RVT_PMA_MCAST_XMIT || i == RVT_PMA_MCAST_RCV)
			want = 0;
		KUNIT_EXPECT_EQ_MSG(test, v1[i], want, "counter %u", i);
	}

	/* PortCounters: the same, in 32 bits */
	pmp = pma_do(test, pm, lid, IB_MGMT_METHOD_GET, IB_PMA_PORT_COUNTERS,
		     1, pa, 0);
	KUNIT_EXPECT_EQ(test, pma_st(pmp), 0);
	pc = (struct ib_pma_portcounters *)pmp->data;
	KUNIT_EXPECT_EQ(test, pc->port_select, pa);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc->port_rcv_packets), 2);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc->port_xmit_packets), 2);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc->port_rcv_data), 2 * MAD_WORDS);

	/* a port without a cable counts nothing */
	if (empty) {
		pma_ext(test, pm, lid, empty, v1);
		for (i = 0; i < RVT_PMA_NCOUNTERS; i++)
			KUNIT_EXPECT_EQ(test, v1[i], 0);
	}

	/* refusals */
	pmp = pma_do(test, pm, lid, IB_MGMT_METHOD_GET, IB_PMA_PORT_COUNTERS,
		     1, 0, 0);
	KUNIT_EXPECT_EQ(test, pma_st(pmp),
			IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE);
	pmp = pma_do(test, pm, lid, IB_MGMT_METHOD_GET,
		     IB_PMA_PORT_COUNTERS_EXT, 1, nports + 1, 0);
	KUNIT_EXPECT_EQ(test, pma_st(pmp),
			IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE);
	pmp = pma_do(test, pm, lid, IB_MGMT_METHOD_GET, cpu_to_be16(0x0099),
		     1, pa, 0);
	KUNIT_EXPECT_EQ(test, pma_st(pmp),
			IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
	pmp = pma_do(test, pm, lid, IB_MGMT_METHOD_SET,
		     IB_PMA_CLASS_PORT_INFO, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, pma_st(pmp),
			IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
	pmp = pma_do(test, pm, lid, IB_MGMT_METHOD_GET, IB_PMA_PORT_COUNTERS,
		     2, pa, 0);
	KUNIT_EXPECT_EQ(test, pma_st(pmp), IB_MGMT_MAD_STATUS_BAD_VERSION);

	/* switch port A not ACTIVE: the request is lost there */
	pi.lid = 0;
	pi.linkspeed_portstate = IB_PORT_DOWN;
	smp = dr_do(test, sa, IB_MGMT_METHOD_SET, IB_SMP_ATTR_PORT_INFO, pa,
		    path, 1, &pi, sizeof(pi));
	KUNIT_EXPECT_EQ(test, st(smp), 0);
	KUNIT_EXPECT_EQ(test, pi_state(smp), IB_PORT_INIT);
	rec_reset(pm);
	KUNIT_EXPECT_EQ(test,
			ku_send(test, pm, ku_buf(test, pm, lid, 1,
						 IB_MGMT_CLASS_PERF_MGMT,
						 IB_MGMT_METHOD_GET,
						 KU_LOST_MS)),
			IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, pm->recvs, 0);
}

static struct kunit_case rdma_loop_switch_cases[] = {
	KUNIT_CASE(sw_nodeinfo_hop1),
	KUNIT_CASE(sw_nodeinfo_hop2),
	KUNIT_CASE(sw_dr_no_cable),
	KUNIT_CASE(sw_lft_routing),
	KUNIT_CASE(sw_lid_routed_smp),
	KUNIT_CASE(sw_port_state_change),
	KUNIT_CASE(sw_remove_under_smps),
	KUNIT_CASE(sw_ext_speeds),
	KUNIT_CASE(sw_pma),
	{}
};

static struct kunit_suite rdma_loop_switch_suite = {
	.name = "rdma_loop_switch",
	.init = sw_init,
	.test_cases = rdma_loop_switch_cases,
};

kunit_test_suite(rdma_loop_switch_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_loop's emulated switch");
MODULE_LICENSE("Dual BSD/GPL");
