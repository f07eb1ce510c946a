// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MAD agents: registration and unregistration, and which agent a received
 * MAD goes to.
 *
 * A response goes to the agent whose ID is the upper half of its
 * transaction ID (@hi_tid; senders put it there).  A request goes to the
 * agent registered for its class version, class and method on the port
 * (for vendor classes of range 2 also for its OUI): each port keeps an
 * xarray from that tuple to the agent, written under the port's
 * reg_mutex and read under RCU.
 */

#include <linux/export.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "mad_priv.h"
#include "mad_trace.h"

/*
 * Agent IDs, the upper 32 bits of the TIDs of an agent's requests.  The
 * top byte stays clear: some drivers use it to tell virtual functions
 * apart.  ID 0 is never used.
 */
static DEFINE_XARRAY_ALLOC1(ib_mad_clients);
static u32 ib_mad_client_next;

/* Classes below this may be registered (plus the directed-route one). */
#define MAD_MAX_CLASS	0x50

/* The directed-route class shares the table row of class 0 (reserved). */
static u8 mad_class_index(u8 mgmt_class)
{
	return mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE ? 0 :
								 mgmt_class;
}

/*
 * The key of one (class version, class, OUI slot, method) in a port's
 * table: method in bits 0-6, class index 7-13, version 14-16, OUI slot
 * plus one (0: no OUI) from bit 17.  Fits 32 bits.
 */
static unsigned long mad_method_key(u8 version, u8 mgmt_class, int oui_slot,
				    u8 method)
{
	return ((unsigned long)(oui_slot + 1) << 17) |
	       ((unsigned long)version << 14) |
	       ((unsigned long)mad_class_index(mgmt_class) << 7) |
	       (method & ~IB_MGMT_METHOD_RESP);
}

/* The slot of @oui on the port, or -1.  Under reg_mutex or RCU. */
static int mad_oui_slot(struct ib_mad_port_private *pp, const u8 *oui)
{
	int i;

	for (i = 0; i < IB_MAD_MAX_OUI; i++)
		if (READ_ONCE(pp->oui_users[i]) && !memcmp(pp->oui[i], oui, 3))
			return i;
	return -1;
}

/* Take a slot for @oui (an existing one, else a free one); reg_mutex. */
static int mad_oui_get(struct ib_mad_port_private *pp, const u8 *oui)
{
	int i = mad_oui_slot(pp, oui);

	if (i >= 0) {
		pp->oui_users[i]++;
		return i;
	}
	for (i = 0; i < IB_MAD_MAX_OUI; i++) {
		if (!pp->oui_users[i]) {
			memcpy(pp->oui[i], oui, 3);
			/* readers check the count before the OUI */
			smp_store_release(&pp->oui_users[i], 1);
			return i;
		}
	}
	return -ENOMEM;
}

static void mad_oui_put(struct ib_mad_port_private *pp, int slot)
{
	if (slot >= 0)
		WRITE_ONCE(pp->oui_users[slot], pp->oui_users[slot] - 1);
}

/* Remove the methods of @req owned by @priv from the table; reg_mutex. */
static void mad_remove_methods(struct ib_mad_port_private *pp,
			       struct ib_mad_agent_private *priv,
			       const struct ib_mad_reg_req *req, int slot)
{
	unsigned int m;

	for_each_set_bit(m, req->method_mask, IB_MGMT_MAX_METHODS)
		xa_cmpxchg(&pp->methods,
			   mad_method_key(req->mgmt_class_version,
					  req->mgmt_class, slot, m),
			   priv, NULL, GFP_KERNEL);
}

/*
 * Enter every method of the registration, or none: a method another
 * agent has already is a conflict (-EINVAL, as upstream).  reg_mutex.
 */
static int mad_add_methods(struct ib_mad_port_private *pp,
			   struct ib_mad_agent_private *priv)
{
	const struct ib_mad_reg_req *req = priv->reg_req;
	int slot = -1, ret;
	unsigned int m;

	if (ib_mad_class_is_vendor2(req->mgmt_class)) {
		slot = mad_oui_get(pp, req->oui);
		if (slot < 0) {
			dev_dbg(&pp->device->dev,
				"MAD: port %u has no room for another OUI\n",
				pp->port_num);
			return slot;
		}
	}

	for_each_set_bit(m, req->method_mask, IB_MGMT_MAX_METHODS) {
		ret = xa_insert(&pp->methods,
				mad_method_key(req->mgmt_class_version,
					       req->mgmt_class, slot, m),
				priv, GFP_KERNEL);
		if (ret) {
			dev_dbg(&pp->device->dev,
				"MAD: class 0x%x version %u method 0x%x already registered on port %u\n",
				req->mgmt_class, req->mgmt_class_version, m,
				pp->port_num);
			if (ret == -EBUSY)
				ret = -EINVAL;
			goto undo;
		}
	}
	return 0;

undo:
	mad_remove_methods(pp, priv, req, slot);
	mad_oui_put(pp, slot);
	return ret;
}

/* Checks of ib_register_mad_agent() that need no port; 0 or -EINVAL. */
static int mad_check_registration(struct ib_device *device,
				  enum ib_qp_type qp_type,
				  const struct ib_mad_reg_req *req,
				  u8 rmpp_version, ib_mad_send_handler send,
				  ib_mad_recv_handler recv, u32 flags)
{
	bool smi_class, on_qp0;

	if (qp_type != IB_QPT_SMI && qp_type != IB_QPT_GSI)
		return -EINVAL;
	if (rmpp_version && rmpp_version != IB_MGMT_RMPP_VERSION)
		return -EINVAL;
	if (!req) {
		/* an agent that only sends needs to hear how it went */
		if (!send || (flags & IB_MAD_USER_RMPP))
			return -EINVAL;
		return 0;
	}
	if (req->mgmt_class_version >= IB_MAD_MAX_VERSION || !recv)
		return -EINVAL;
	if (req->mgmt_class >= MAD_MAX_CLASS) {
		if (req->mgmt_class != IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
			return -EINVAL;
	} else if (!req->mgmt_class) {
		/* reserved: the directed-route class's row */
		return -EINVAL;
	} else if (ib_mad_class_is_vendor2(req->mgmt_class) &&
		   !(req->oui[0] | req->oui[1] | req->oui[2])) {
		return -EINVAL;
	}
	if (rmpp_version && !ib_is_mad_class_rmpp(req->mgmt_class))
		return -EINVAL;
	smi_class = req->mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
		    req->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	on_qp0 = qp_type == IB_QPT_SMI;
	/* SMPs on QP0 only, everything else on QP1 only */
	if (smi_class != on_qp0)
		return -EINVAL;
	return 0;
}

/**
 * ib_register_mad_agent - become a user of a port's QP0 or QP1
 * @device: the device
 * @port_num: the port
 * @qp_type: IB_QPT_SMI (QP0) or IB_QPT_GSI (QP1)
 * @mad_reg_req: the unsolicited MADs to receive (class, version, OUI for
 *	vendor classes of range 2, methods), or NULL to only send requests
 *	and receive their responses
 * @rmpp_version: IB_MGMT_RMPP_VERSION for an RMPP class, else 0
 * @send_handler: called when a send is over
 * @recv_handler: called with each MAD received for the agent
 * @context: stored in the agent for the handlers
 * @registration_flags: IB_MAD_USER_RMPP: the agent segments and
 *	reassembles RMPP itself
 *
 * A method can have one agent per class version on a port: registering
 * a method another agent has is refused.  The agent's requests must
 * carry its @hi_tid in the upper 32 bits of their TIDs for the responses
 * to find it.
 *
 * Context: Process context; may sleep.  Takes the port's reg_mutex.
 * Return: the agent, or an ERR_PTR(): -EINVAL for a bad or conflicting
 * registration, -EPROTONOSUPPORT when the port has no such QP (QP0 of a
 * RoCE port), -ENODEV for a port without the MAD layer, -ENOMEM.
 */
struct ib_mad_agent *ib_register_mad_agent(struct ib_device *device,
					   u32 port_num,
					   enum ib_qp_type qp_type,
					   struct ib_mad_reg_req *mad_reg_req,
					   u8 rmpp_version,
					   ib_mad_send_handler send_handler,
					   ib_mad_recv_handler recv_handler,
					   void *context,
					   u32 registration_flags)
{
	struct ib_mad_agent_private *priv;
	struct ib_mad_port_private *pp;
	int qpn, ret;

	if (!rdma_is_port_valid(device, port_num))
		return ERR_PTR(-ENODEV);
	if ((qp_type == IB_QPT_SMI && !rdma_cap_ib_smi(device, port_num)) ||
	    (qp_type == IB_QPT_GSI && !rdma_cap_ib_cm(device, port_num)))
		return ERR_PTR(-EPROTONOSUPPORT);
	ret = mad_check_registration(device, qp_type, mad_reg_req,
				     rmpp_version, send_handler, recv_handler,
				     registration_flags);
	if (ret) {
		dev_dbg_ratelimited(&device->dev,
				    "MAD: invalid agent registration on port %u\n",
				    port_num);
		return ERR_PTR(ret);
	}

	pp = ib_mad_get_port(device, port_num);
	if (!pp)
		return ERR_PTR(-ENODEV);
	qpn = qp_type == IB_QPT_SMI ? 0 : 1;
	if (!pp->qp_info[qpn].qp)
		return ERR_PTR(-EPROTONOSUPPORT);

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);
	if (mad_reg_req) {
		priv->reg_req = kmemdup(mad_reg_req, sizeof(*mad_reg_req),
					GFP_KERNEL);
		if (!priv->reg_req) {
			ret = -ENOMEM;
			goto err_free;
		}
	}

	priv->qp_info = &pp->qp_info[qpn];
	priv->port_priv = pp;
	priv->agent.device = device;
	priv->agent.qp = priv->qp_info->qp;
	priv->agent.port_num = port_num;
	priv->agent.rmpp_version = rmpp_version;
	priv->agent.send_handler = send_handler;
	priv->agent.recv_handler = recv_handler;
	priv->agent.context = context;
	priv->agent.flags = registration_flags;
	priv->agent.smp_allowed = true;
	INIT_LIST_HEAD(&priv->agent.mad_agent_sec_list);
	spin_lock_init(&priv->lock);
	INIT_LIST_HEAD(&priv->send_list);
	INIT_LIST_HEAD(&priv->wait_list);
	INIT_LIST_HEAD(&priv->local_list);
	INIT_LIST_HEAD(&priv->rmpp_list);
	INIT_DELAYED_WORK(&priv->timed_work, ib_mad_timeout_sends);
	INIT_WORK(&priv->local_work, ib_mad_local_completions);
	refcount_set(&priv->refcount, 1);
	init_completion(&priv->comp);

	ret = xa_alloc_cyclic(&ib_mad_clients, &priv->agent.hi_tid, priv,
			      XA_LIMIT(0, (1 << 24) - 1), &ib_mad_client_next,
			      GFP_KERNEL);
	if (ret < 0)
		goto err_free_req;

	if (priv->reg_req) {
		mutex_lock(&pp->reg_mutex);
		ret = mad_add_methods(pp, priv);
		mutex_unlock(&pp->reg_mutex);
		if (ret)
			goto err_id;
	}
	trace_ib_mad_create_agent(priv);
	return &priv->agent;

err_id:
	xa_erase(&ib_mad_clients, priv->agent.hi_tid);
err_free_req:
	kfree(priv->reg_req);
err_free:
	kfree(priv);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_register_mad_agent);

/**
 * ib_mad_agent_put - drop a reference to an agent
 * @priv: the agent
 *
 * Context: Any context.
 */
void ib_mad_agent_put(struct ib_mad_agent_private *priv)
{
	if (refcount_dec_and_test(&priv->refcount))
		complete(&priv->comp);
}

/**
 * ib_unregister_mad_agent - stop being a user of a port's QP
 * @mad_agent: the agent
 *
 * The agent receives nothing more; its sends still outstanding complete
 * with IB_WC_WR_FLUSH_ERR (their send handlers run before this returns).
 * It then waits until no handler of the agent runs and every send buffer
 * of the agent is freed: the caller frees what it still holds from its
 * send handler, never after this call.
 *
 * Context: Process context; sleeps.  Takes the port's reg_mutex.
 */
void ib_unregister_mad_agent(struct ib_mad_agent *mad_agent)
{
	struct ib_mad_agent_private *priv = to_agent_priv(mad_agent);
	struct ib_mad_port_private *pp = priv->port_priv;

	trace_ib_mad_unregister_agent(priv);
	spin_lock_irq(&priv->lock);
	priv->unregistering = true;
	spin_unlock_irq(&priv->lock);

	/* no new MAD finds the agent ... */
	if (priv->reg_req) {
		int slot = -1;

		mutex_lock(&pp->reg_mutex);
		if (ib_mad_class_is_vendor2(priv->reg_req->mgmt_class))
			slot = mad_oui_slot(pp, priv->reg_req->oui);
		mad_remove_methods(pp, priv, priv->reg_req, slot);
		mad_oui_put(pp, slot);
		mutex_unlock(&pp->reg_mutex);
	}
	xa_erase(&ib_mad_clients, mad_agent->hi_tid);

	/* ... and what it has outstanding ends */
	ib_mad_cancel_sends(priv);
	ib_cancel_rmpp_recvs(priv);
	ib_mad_cancel_local(priv);

	ib_mad_agent_put(priv);
	wait_for_completion(&priv->comp);
	/* the works hold no reference: wait for a last run of theirs */
	cancel_delayed_work_sync(&priv->timed_work);
	cancel_work_sync(&priv->local_work);

	kfree(priv->reg_req);
	/* lookups under RCU may still look at it */
	kfree_rcu(priv, rcu);
}
EXPORT_SYMBOL(ib_unregister_mad_agent);

/* The agent of a response: by the upper half of its TID. */
static struct ib_mad_agent_private *
mad_find_response_agent(struct ib_mad_port_private *pp,
			const struct ib_mad_hdr *hdr)
{
	struct ib_mad_agent_private *priv;
	u32 hi_tid = be64_to_cpu(hdr->tid) >> 32;

	rcu_read_lock();
	priv = xa_load(&ib_mad_clients, hi_tid);
	/* an agent of another port did not send the request */
	if (priv && (priv->port_priv != pp ||
		     !refcount_inc_not_zero(&priv->refcount)))
		priv = NULL;
	rcu_read_unlock();
	return priv;
}

/* The agent of an unsolicited MAD: by version, class, OUI and method. */
static struct ib_mad_agent_private *
mad_find_request_agent(struct ib_mad_port_private *pp,
		       const struct ib_mad_hdr *hdr)
{
	struct ib_mad_agent_private *priv = NULL;
	int slot = -1;

	if (hdr->class_version >= IB_MAD_MAX_VERSION)
		return NULL;
	if (hdr->mgmt_class >= MAD_MAX_CLASS &&
	    hdr->mgmt_class != IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return NULL;

	rcu_read_lock();
	if (ib_mad_class_is_vendor2(hdr->mgmt_class)) {
		const struct ib_vendor_mad *vmad = (const void *)hdr;

		slot = mad_oui_slot(pp, vmad->oui);
		if (slot < 0)
			goto out;
	}
	priv = xa_load(&pp->methods,
		       mad_method_key(hdr->class_version, hdr->mgmt_class,
				      slot, hdr->method));
	if (priv && !refcount_inc_not_zero(&priv->refcount))
		priv = NULL;
out:
	rcu_read_unlock();
	return priv;
}

/**
 * ib_mad_find_agent - the agent a received MAD is for
 * @pp: the port it arrived on
 * @hdr: its header
 *
 * Context: Any context.
 * Return: the agent, referenced, or NULL when nobody takes the MAD.
 */
struct ib_mad_agent_private *ib_mad_find_agent(struct ib_mad_port_private *pp,
					       const struct ib_mad_hdr *hdr)
{
	struct ib_mad_agent_private *priv;

	if (ib_response_mad(hdr))
		priv = mad_find_response_agent(pp, hdr);
	else
		priv = mad_find_request_agent(pp, hdr);
	if (priv && !priv->agent.recv_handler) {
		ib_mad_agent_put(priv);
		priv = NULL;
	}
	return priv;
}
