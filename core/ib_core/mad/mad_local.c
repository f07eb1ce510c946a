// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Directed-route SMPs that never reach the wire: those whose route ends
 * at the sending port itself (hop count 0, or the return trip's last
 * hop).  The local device's process_mad answers them; the reply, or the
 * SMP itself when the device leaves it to an agent of this port, is
 * delivered from the agent's local_work, then the send completes.
 */

#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "mad_priv.h"
#include "mad_trace.h"
#include "smi.h"

/**
 * struct ib_mad_local_private - a send the local device handled
 * @list: on the sending agent's local_list
 * @mad_priv: what to deliver (the reply, or the SMP for a local agent),
 *	or NULL for nothing
 * @recv_agent: the agent @mad_priv goes to, referenced
 * @mad_send_wr: the send
 */
struct ib_mad_local_private {
	struct list_head		list;
	struct ib_mad_private		*mad_priv;
	struct ib_mad_agent_private	*recv_agent;
	struct ib_mad_send_wr_private	*mad_send_wr;
};

/* The work completion of an SMP "received" from the local port. */
static void mad_local_wc(struct ib_wc *wc, struct ib_qp *qp,
			 struct ib_cqe *cqe, u16 slid, u16 pkey_index,
			 u32 port_num)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_cqe = cqe;
	wc->status = IB_WC_SUCCESS;
	wc->opcode = IB_WC_RECV;
	wc->pkey_index = pkey_index;
	wc->byte_len = sizeof(struct ib_mad) + sizeof(struct ib_grh);
	wc->src_qp = IB_QP0;
	wc->qp = qp;
	wc->slid = slid;
	wc->port_num = port_num;
}

/**
 * ib_mad_handle_outgoing_dr_smp - directed-route handling of a send
 * @priv: the sending agent
 * @mad_send_wr: the SMP
 *
 * Advances the SMP's hop pointer where its route starts here (a
 * permissive DR LID on the side it travels from), and hands it to the
 * local device when it ends here.
 *
 * Context: Any context; takes the agent's lock.
 * Return: 1 when the local device took it (the send completes from
 * local_work), 0 when it goes to the wire, -EINVAL for a route IBTA
 * says to drop or an answer the device could not give, -ENOMEM.
 */
int ib_mad_handle_outgoing_dr_smp(struct ib_mad_agent_private *priv,
				  struct ib_mad_send_wr_private *mad_send_wr)
{
	struct ib_mad_send_wr_private *wr = mad_send_wr;
	struct ib_device *dev = priv->agent.device;
	struct ib_smp *smp = wr->send_buf.mad;
	struct ib_mad_local_private *local;
	struct ib_mad_private *mad_priv;
	size_t mad_size = sizeof(struct ib_mad);
	u32 port_num = priv->agent.port_num;
	u16 out_pkey_index = 0;
	bool is_switch = rdma_cap_ib_switch(dev);
	unsigned long flags;
	struct ib_wc wc;
	int ret;

	if (is_switch)
		port_num = wr->send_wr.port_num;
	trace_ib_mad_handle_out_ib_smi(dev, port_num, smp);

	/* the LID-routed part of the route is behind us (IBTA 14.2.2) */
	if ((ib_get_smp_direction(smp) ? smp->dr_dlid : smp->dr_slid) ==
	    IB_LID_PERMISSIVE &&
	    smi_handle_dr_smp_send(smp, is_switch, port_num) ==
	    IB_SMI_DISCARD) {
		ibdev_dbg(dev, "MAD: invalid directed route, SMP dropped\n");
		return -EINVAL;
	}
	if (smi_check_local_smp(smp, dev) == IB_SMI_DISCARD &&
	    smi_check_local_returning_smp(smp, dev) == IB_SMI_DISCARD)
		return 0;

	local = kzalloc(sizeof(*local), GFP_ATOMIC);
	if (!local)
		return -ENOMEM;
	mad_priv = ib_mad_alloc_private(mad_size, GFP_ATOMIC);
	if (!mad_priv) {
		kfree(local);
		return -ENOMEM;
	}

	mad_local_wc(&wc, priv->agent.qp, wr->send_wr.wr.wr_cqe,
		     be16_to_cpu(smp->dr_slid), wr->send_wr.pkey_index,
		     port_num);
	/* a directed-route SMP has no GRH */
	ret = dev->ops.process_mad(dev, 0, port_num, &wc, NULL,
				   (const struct ib_mad *)smp,
				   (struct ib_mad *)mad_priv->mad, &mad_size,
				   &out_pkey_index);
	switch (ret) {
	case IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY:
		/* the reply goes back to the sender */
		if (ib_response_mad((struct ib_mad_hdr *)mad_priv->mad) &&
		    priv->agent.recv_handler) {
			local->mad_priv = mad_priv;
			local->recv_agent = priv;
			ib_mad_agent_get(priv);
		} else {
			kfree(mad_priv);
		}
		break;
	case IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_CONSUMED:
		kfree(mad_priv);
		break;
	case IB_MAD_RESULT_SUCCESS:
		/* the device leaves it to an agent of this port, if any */
		memcpy(mad_priv->mad, smp, mad_size);
		local->recv_agent =
			ib_mad_find_agent(priv->port_priv,
					  (struct ib_mad_hdr *)mad_priv->mad);
		if (local->recv_agent)
			local->mad_priv = mad_priv;
		else
			kfree(mad_priv);
		break;
	default:
		kfree(mad_priv);
		kfree(local);
		return -EINVAL;
	}

	local->mad_send_wr = wr;
	/* for the send's completion */
	ib_mad_agent_get(priv);
	spin_lock_irqsave(&priv->lock, flags);
	list_add_tail(&local->list, &priv->local_list);
	spin_unlock_irqrestore(&priv->lock, flags);
	queue_work(priv->port_priv->wq, &priv->local_work);
	return 1;
}

/* Hand @local's MAD to its agent (the reply first, then the send). */
static void mad_local_deliver(struct ib_mad_agent_private *sender,
			      struct ib_mad_local_private *local)
{
	struct ib_mad_agent_private *to = local->recv_agent;
	struct ib_mad_private *mp = local->mad_priv;
	struct ib_mad_recv_wc *rwc = &mp->recv_wc;
	struct ib_mad_send_wr_private *wr = local->mad_send_wr;

	mad_local_wc(&mp->wc, to->agent.qp, wr->send_wr.wr.wr_cqe,
		     be16_to_cpu(IB_LID_PERMISSIVE), wr->send_wr.pkey_index,
		     to->agent.port_num);
	rwc->wc = &mp->wc;
	rwc->mad_len = sizeof(struct ib_mad);
	rwc->mad_seg_size = sizeof(struct ib_mad);
	rwc->recv_buf.mad = (struct ib_mad *)mp->mad;
	rwc->recv_buf.grh = NULL;
	INIT_LIST_HEAD(&rwc->rmpp_list);
	list_add(&rwc->recv_buf.list, &rwc->rmpp_list);

	/* a reply answers the send; a request to a local agent does not */
	to->agent.recv_handler(&to->agent,
			       to == sender ? &wr->send_buf : NULL, rwc);
	ib_mad_agent_put(to);
}

/**
 * ib_mad_local_completions - deliver what the local device answered
 * @work: the agent's local_work
 *
 * Context: The port's workqueue; takes the agent's lock.
 */
void ib_mad_local_completions(struct work_struct *work)
{
	struct ib_mad_agent_private *priv =
		container_of(work, struct ib_mad_agent_private, local_work);
	struct ib_mad_local_private *local;
	struct ib_mad_send_wc swc;

	spin_lock_irq(&priv->lock);
	while ((local = list_first_entry_or_null(&priv->local_list,
						 struct ib_mad_local_private,
						 list))) {
		list_del(&local->list);
		spin_unlock_irq(&priv->lock);

		if (local->mad_priv)
			mad_local_deliver(priv, local);

		swc.send_buf = &local->mad_send_wr->send_buf;
		swc.status = IB_WC_SUCCESS;
		swc.vendor_err = 0;
		priv->agent.send_handler(&priv->agent, &swc);
		kfree(local);
		ib_mad_agent_put(priv);

		spin_lock_irq(&priv->lock);
	}
	spin_unlock_irq(&priv->lock);
}

/**
 * ib_mad_cancel_local - let an agent's local completions run out
 * @priv: the agent, being unregistered
 *
 * Local answers are delivered rather than dropped (their sends complete
 * successfully, as they did complete).
 *
 * Context: Process context; sleeps.
 */
void ib_mad_cancel_local(struct ib_mad_agent_private *priv)
{
	flush_work(&priv->local_work);
}
