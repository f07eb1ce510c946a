/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit helpers of the suites that run ib_core's SA client against a
 * fake SA on rdma_loop devices (rdma_sa, rdma_sa_mcast): the subnet
 * manager's part (a port's SM LID and SL set with SubnSet(PortInfo), its
 * P_Key table with SubnSet(P_KeyTable), both through the device's
 * process_mad, and the wait for the SA address handle that follows),
 * the fake SA's answer to a request, and a round trip to the SA that
 * shows everything sent before it was handled.
 *
 * Include it after core/ib_core/sa/sa_priv.h (kt_wait_sm_ah() reads the SA address
 * handle through ib_sa_test.sm_ah_attr(), visible to KUnit only).
 */
#ifndef KUNIT_RDMA_SA_H
#define KUNIT_RDMA_SA_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_smi.h>
#include <rdma/rdma_loop.h>

#define KT_KSA_WAIT_MS	10000

/* A SubnGet/SubnSet of @attr_id (modifier @mod) to port 1 of @dev's SMA. */
static inline int kt_ksa_smp_call(struct ib_device *dev, u8 method, __be16 attr_id,
				  u32 mod, struct ib_smp *in, struct ib_smp *out)
{
	size_t size = sizeof(struct ib_mad);
	u16 pkey_index = 0;

	in->base_version = IB_MGMT_BASE_VERSION;
	in->mgmt_class = IB_MGMT_CLASS_SUBN_LID_ROUTED;
	in->class_version = 1;
	in->method = method;
	in->tid = cpu_to_be64(0x5a0001);
	in->attr_id = attr_id;
	in->attr_mod = cpu_to_be32(mod);
	return dev->ops.process_mad(dev, 0, 1, NULL, NULL,
				    (const struct ib_mad *)in,
				    (struct ib_mad *)out, &size, &pkey_index);
}

static inline int kt_pi_call(struct ib_device *dev, u8 method, struct ib_smp *in,
			     struct ib_smp *out)
{
	return kt_ksa_smp_call(dev, method, IB_SMP_ATTR_PORT_INFO, 0, in, out);
}

/*
 * SubnSet(P_KeyTable) of block 0 of port 1 of @dev: @n P_Keys from
 * index 0, the rest of the block 0 (invalid).  The SMA raises
 * PKEY_CHANGE when the table changed.
 */
static inline void kt_set_pkeys(struct kunit *test, struct ib_device *dev,
				const u16 *pkeys, unsigned int n)
{
	struct ib_smp *in = kunit_kzalloc(test, sizeof(*in), GFP_KERNEL);
	struct ib_smp *out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	__be16 *p = (__be16 *)in->data;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < n; i++)
		p[i] = cpu_to_be16(pkeys[i]);
	KUNIT_ASSERT_EQ(test, kt_ksa_smp_call(dev, IB_MGMT_METHOD_SET,
					      IB_SMP_ATTR_PKEY_TABLE, 0, in, out),
			IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY);
	KUNIT_ASSERT_EQ(test, be16_to_cpu(out->status), 0);
}

/*
 * SubnSet(PortInfo) of port 1 of @dev: SM LID @sm_lid, SM SL @sm_sl.
 * Return: 0, -ENOMEM, or -EIO when the SMA refused the Get or the Set.
 * For a suite_init, which has no case to fail; cases use kt_set_sm().
 */
static inline int kt_ksa_set_sm(struct ib_device *dev, u16 sm_lid, u8 sm_sl)
{
	struct ib_smp *in = kzalloc(sizeof(*in), GFP_KERNEL);
	struct ib_smp *out = kzalloc(sizeof(*out), GFP_KERNEL);
	struct ib_port_info *pi;
	int ret = -ENOMEM;

	if (!in || !out)
		goto out;
	ret = -EIO;
	if (kt_pi_call(dev, IB_MGMT_METHOD_GET, in, out) !=
	    (IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY) || out->status)
		goto out;
	memcpy(in->data, out->data, IB_SMP_DATA_SIZE);
	pi = (struct ib_port_info *)in->data;
	/* PortState and PortPhysicalState: no change */
	pi->linkspeed_portstate &= 0xf0;
	pi->portphysstate_linkdown &= 0x0f;
	pi->sm_lid = cpu_to_be16(sm_lid);
	pi->neighbormtu_mastersmsl = (pi->neighbormtu_mastersmsl & 0xf0) |
				     (sm_sl & 0xf);
	if (kt_pi_call(dev, IB_MGMT_METHOD_SET, in, out) !=
	    (IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY) || out->status)
		goto out;
	ret = 0;
out:
	kfree(out);
	kfree(in);
	return ret;
}

/* SubnSet(PortInfo) of port 1 of @dev: SM LID @sm_lid, SM SL @sm_sl. */
static inline void kt_set_sm(struct kunit *test, struct ib_device *dev,
			     u16 sm_lid, u8 sm_sl)
{
	KUNIT_ASSERT_EQ(test, kt_ksa_set_sm(dev, sm_lid, sm_sl), 0);
}

/* Wait until port 1's SA address handle goes to @lid; its attributes out. */
static inline bool kt_wait_sm_ah(struct ib_device *dev, u16 lid,
				 struct rdma_ah_attr *attr)
{
	unsigned long end = jiffies + msecs_to_jiffies(KT_KSA_WAIT_MS);

	do {
		if (!ib_sa_test.sm_ah_attr(dev, 1, attr) &&
		    rdma_ah_get_dlid(attr) == lid)
			return true;
		msleep(20);
	} while (time_before(jiffies, end));
	return false;
}

/* What the first answer of a kt_ksa_round_trip() said. */
struct kt_ksa_round_trip {
	atomic_t		calls;
	int			status;
	struct completion	done;
};

static inline void kt_ksa_round_trip_cb(int status,
					struct ib_sa_guidinfo_rec *rec,
					void *context)
{
	struct kt_ksa_round_trip *rt = context;

	/* all: both the round trip and the end of the case wait for it */
	if (atomic_inc_return(&rt->calls) == 1) {
		rt->status = status;
		complete_all(&rt->done);
	}
}

/*
 * At the end of the case: freed once its query answered (it ends within
 * its timeout of 60 s), or left allocated should it not.
 */
static inline void kt_ksa_round_trip_free(void *p)
{
	struct kt_ksa_round_trip *rt = p;

	if (wait_for_completion_timeout(&rt->done, msecs_to_jiffies(70000)))
		kfree(rt);
}

/*
 * A round trip from port 1 of @dev to its SA and back, for @client: a
 * GUIDInfoRecord of method @method the fake SA did not register, which
 * the SA's MAD layer answers "unsupported" itself (-EINVAL), whatever
 * the fake SA does and without touching its counters.  A QP1 sends in
 * the order of the posts and handles its receives in the order they
 * came: once the answer is in, the SA has handled every MAD @dev posted
 * before the request, and @dev every MAD the SA posted before its
 * answer.  False when that did not happen within KT_KSA_WAIT_MS (which
 * includes a wait for the SA's address handle a port event dropped).
 */
static inline bool kt_ksa_round_trip(struct kunit *test,
				     struct ib_sa_client *client,
				     struct ib_device *dev, u8 method)
{
	struct kt_ksa_round_trip *rt = kzalloc(sizeof(*rt), GFP_KERNEL);
	unsigned long end = jiffies + msecs_to_jiffies(KT_KSA_WAIT_MS);
	struct ib_sa_guidinfo_rec grec = {};
	struct ib_sa_query *q;
	int ret;

	if (!rt)
		return false;
	init_completion(&rt->done);
	grec.lid = cpu_to_be16(rdma_loop_port_lid(dev));
	/* after a port event, until the SA's address handle is back */
	while ((ret = ib_sa_guid_info_rec_query(client, dev, 1, &grec,
						IB_SA_GUIDINFO_REC_LID, method,
						60000, GFP_KERNEL,
						kt_ksa_round_trip_cb, rt,
						&q)) == -EAGAIN &&
	       time_before(jiffies, end))
		msleep(20);
	if (ret < 0) {
		kfree(rt);
		return false;
	}
	if (kunit_add_action_or_reset(test, kt_ksa_round_trip_free, rt))
		return false;
	return wait_for_completion_timeout(&rt->done,
					   msecs_to_jiffies(KT_KSA_WAIT_MS)) &&
	       rt->status == -EINVAL;
}

/*
 * The fake SA's answer to @req (which came as @wc) on @agent: the
 * request's headers with @method and @status (host order), @len bytes
 * of @data.  The send buffer's context[0] is the address handle:
 * kt_ksa_reply_done() frees both when the send ended.  Returns 0, or the
 * error of the step that failed (nothing is sent then, and no send
 * ends: a waiting case can say why instead of timing out).
 */
static inline int kt_ksa_reply(struct ib_mad_agent *agent,
			       const struct ib_sa_mad *req,
			       const struct ib_wc *wc, u8 method, u16 status,
			       const void *data, size_t len)
{
	struct ib_mad_send_buf *sb;
	struct ib_sa_mad *resp;
	struct ib_ah *ah;
	int ret;

	ah = ib_create_ah_from_wc(agent->qp->pd, wc, NULL, 1);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	sb = ib_create_send_mad(agent, wc->src_qp, wc->pkey_index, 0,
				IB_MGMT_SA_HDR, IB_MGMT_SA_DATA, GFP_KERNEL,
				IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return PTR_ERR(sb);
	}
	resp = sb->mad;
	*resp = *req;
	resp->mad_hdr.method = method;
	resp->mad_hdr.status = cpu_to_be16(status);
	memset(resp->data, 0, sizeof(resp->data));
	memcpy(resp->data, data, min(len, sizeof(resp->data)));
	sb->ah = ah;
	sb->context[0] = ah;
	ret = ib_post_send_mad(sb, NULL);
	if (ret) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		ib_free_send_mad(sb);
	}
	return ret;
}

/* The send of a kt_ksa_reply() answer ended: free it. */
static inline void kt_ksa_reply_done(struct ib_mad_send_wc *wc)
{
	rdma_destroy_ah(wc->send_buf->context[0], RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(wc->send_buf);
}

#endif /* KUNIT_RDMA_SA_H */
