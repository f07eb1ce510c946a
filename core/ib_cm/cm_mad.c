// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Sending CM messages: the address a CM ID's messages go to (from a path
 * record, or back along a received work completion), the send buffers
 * of CM IDs and of answers that belong to no CM ID, the MAD header, and
 * the MAD layer's send completions, where the counters of sent messages
 * and retries are kept and a message that got no answer becomes the
 * consumer's *_ERROR event.
 */

#include <linux/slab.h>
#include <rdma/ib_cache.h>

#include "cm_priv.h"
#include "cm_trace.h"

/*
 * Milliseconds of 4.096 us * 2^@iba_time, roughly (2^(x - 8) ms), and at
 * least 1.
 */
int cm_convert_to_ms(int iba_time)
{
	return 1 << max(iba_time - 8, 0);
}

/*
 * The local ACK timeout of a path: the CA's ACK delay plus twice the
 * packet life time, as one exponent.  The larger of the two terms, one
 * step up when the other is within a factor of two of it.
 */
u8 cm_ack_timeout(u8 ca_ack_delay, u8 packet_life_time)
{
	int t = packet_life_time + 1;

	if (t >= ca_ack_delay)
		t += ca_ack_delay >= t - 1;
	else
		t = ca_ack_delay + (t >= ca_ack_delay - 1);
	return min(31, t);
}

/* Point @av at @port, moving the reference to its device */
void cm_set_av_port(struct cm_av *av, struct cm_port *port)
{
	struct cm_port *old = av->port;

	if (old == port)
		return;
	av->port = port;
	if (old)
		cm_device_put(old->cm_dev);
	if (port)
		kref_get(&port->cm_dev->kref);
}

/* @av answers the sender of @wc on @port */
int cm_init_av_for_response(struct cm_port *port, struct ib_wc *wc,
			    struct ib_grh *grh, struct cm_av *av)
{
	cm_set_av_port(av, port);
	av->pkey_index = wc->pkey_index;
	return ib_init_ah_attr_from_wc(port->cm_dev->ib_device, port->port_num,
				       wc, grh, &av->ah_attr);
}

/*
 * The CM port a path leaves from: the port of @attr, or the port whose
 * GID table holds the path's SGID.
 */
static struct cm_port *cm_port_of_path(struct sa_path_rec *path,
				       const struct ib_gid_attr *attr)
{
	struct cm_device *cm_dev;
	struct cm_port *port = NULL;
	unsigned long flags;

	read_lock_irqsave(&ibcm.device_lock, flags);
	list_for_each_entry(cm_dev, &ibcm.device_list, list) {
		if (attr) {
			if (cm_dev->ib_device == attr->device) {
				port = cm_dev->port[attr->port_num - 1];
				break;
			}
			continue;
		}
		attr = rdma_find_gid(cm_dev->ib_device, &path->sgid,
				     sa_conv_pathrec_to_gid_type(path), NULL);
		if (!IS_ERR(attr)) {
			port = cm_dev->port[attr->port_num - 1];
			rdma_put_gid_attr(attr);
			break;
		}
		attr = NULL;
	}
	read_unlock_irqrestore(&ibcm.device_lock, flags);
	return port;
}

/*
 * @av from @path: its port, P_Key index and address.  @av is changed
 * only on success (a failed REQ still answers along the old one).
 */
int cm_init_av_by_path(struct sa_path_rec *path,
		       const struct ib_gid_attr *sgid_attr, struct cm_av *av)
{
	struct rdma_ah_attr ah_attr;
	struct cm_port *port;
	u16 pkey_index;
	int ret;

	port = cm_port_of_path(path, sgid_attr);
	if (!port)
		return -EINVAL;
	ret = ib_find_cached_pkey(port->cm_dev->ib_device, port->port_num,
				  be16_to_cpu(path->pkey), &pkey_index);
	if (ret)
		return ret;
	ret = ib_init_ah_attr_from_path(port->cm_dev->ib_device,
					port->port_num, path, &ah_attr,
					sgid_attr);
	if (ret)
		return ret;
	av->pkey_index = pkey_index;
	cm_set_av_port(av, port);
	av->timeout = path->packet_life_time + 1;
	rdma_move_ah_attr(&av->ah_attr, &ah_attr);
	return 0;
}

/* Move what cm_init_av_by_path() made in @src into @dest */
void cm_move_av_from_path(struct cm_av *dest, struct cm_av *src)
{
	cm_set_av_port(dest, src->port);
	cm_set_av_port(src, NULL);
	dest->pkey_index = src->pkey_index;
	rdma_move_ah_attr(&dest->ah_attr, &src->ah_attr);
	dest->timeout = src->timeout;
}

void cm_destroy_av(struct cm_av *av)
{
	rdma_destroy_ah_attr(&av->ah_attr);
	cm_set_av_port(av, NULL);
}

/*
 * A send buffer for a message of @priv to its peer, with an address
 * handle, @priv's retries, and a reference to @priv (context[0]).
 * Called with @priv's lock held.
 */
struct ib_mad_send_buf *cm_alloc_msg(struct cm_id_private *priv)
{
	struct ib_mad_agent *agent;
	struct ib_mad_send_buf *m;
	struct ib_ah *ah;

	lockdep_assert_held(&priv->lock);
	if (!priv->av.port)
		return ERR_PTR(-EINVAL);

	read_lock(&priv->av.port->cm_dev->mad_agent_lock);
	agent = priv->av.port->mad_agent;
	if (!agent) {
		m = ERR_PTR(-EINVAL);
		goto out;
	}
	ah = rdma_create_ah(agent->qp->pd, &priv->av.ah_attr, 0);
	if (IS_ERR(ah)) {
		m = ERR_CAST(ah);
		goto out;
	}
	m = ib_create_send_mad(agent, priv->id.remote_cm_qpn,
			       priv->av.pkey_index, 0, IB_MGMT_MAD_HDR,
			       IB_MGMT_MAD_DATA, GFP_ATOMIC,
			       IB_MGMT_BASE_VERSION);
	if (IS_ERR(m)) {
		rdma_destroy_ah(ah, 0);
		goto out;
	}
	m->ah = ah;
	m->retries = priv->max_cm_retries;
	refcount_inc(&priv->refcount);
	m->context[0] = priv;
out:
	read_unlock(&priv->av.port->cm_dev->mad_agent_lock);
	return m;
}

/*
 * A send buffer for the message of @priv that awaits an answer
 * (priv->msg); @state is the state the answer is awaited in, which the
 * send completion compares.  Called with @priv's lock held.
 */
struct ib_mad_send_buf *cm_alloc_priv_msg(struct cm_id_private *priv,
					  enum ib_cm_state state)
{
	struct ib_mad_send_buf *msg = cm_alloc_msg(priv);

	if (IS_ERR(msg))
		return msg;
	priv->msg = msg;
	msg->context[1] = (void *)(unsigned long)state;
	return msg;
}

void cm_free_msg(struct ib_mad_send_buf *msg)
{
	struct cm_id_private *priv = msg->context[0];

	if (msg->ah)
		rdma_destroy_ah(msg->ah, 0);
	cm_deref_id(priv);
	ib_free_send_mad(msg);
}

/* Free @priv's awaited message; @priv's lock is held */
void cm_free_priv_msg(struct ib_mad_send_buf *msg)
{
	struct cm_id_private *priv = msg->context[0];

	lockdep_assert_held(&priv->lock);
	if (!WARN_ON(priv->msg != msg))
		priv->msg = NULL;
	cm_free_msg(msg);
}

/* A send buffer that answers @rwc, still without an address handle */
struct ib_mad_send_buf *cm_alloc_response_msg_no_ah(struct cm_port *port,
						    struct ib_mad_recv_wc *rwc)
{
	return ib_create_send_mad(port->mad_agent, 1, rwc->wc->pkey_index, 0,
				  IB_MGMT_MAD_HDR, IB_MGMT_MAD_DATA,
				  GFP_ATOMIC, IB_MGMT_BASE_VERSION);
}

/* The address handle back to the sender of @rwc (process context) */
int cm_create_response_msg_ah(struct cm_port *port,
			      struct ib_mad_recv_wc *rwc,
			      struct ib_mad_send_buf *msg)
{
	struct ib_ah *ah;

	ah = ib_create_ah_from_wc(port->mad_agent->qp->pd, rwc->wc,
				  rwc->recv_buf.grh, port->port_num);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	msg->ah = ah;
	return 0;
}

/* A send buffer that answers @rwc and belongs to no CM ID */
int cm_alloc_response_msg(struct cm_port *port, struct ib_mad_recv_wc *rwc,
			  struct ib_mad_send_buf **msg)
{
	struct ib_mad_send_buf *m;
	int ret;

	m = cm_alloc_response_msg_no_ah(port, rwc);
	if (IS_ERR(m))
		return PTR_ERR(m);
	ret = cm_create_response_msg_ah(port, rwc, m);
	if (ret) {
		ib_free_send_mad(m);
		return ret;
	}
	*msg = m;
	return 0;
}

/*
 * A message of type @attr_id answering @rwc outside any CM ID (a REJ or
 * DREP for a connection we do not know): the received message's
 * transaction and its communication IDs swapped.  Free with
 * cm_free_response_msg() if it is not posted.
 */
int cm_alloc_stateless_reply(struct cm_port *port, struct ib_mad_recv_wc *rwc,
			     __be16 attr_id, struct ib_mad_send_buf **msg)
{
	struct cm_msg *rcv = (struct cm_msg *)rwc->recv_buf.mad, *reply;
	int ret;

	ret = cm_alloc_response_msg(port, rwc, msg);
	if (ret)
		return ret;
	reply = (struct cm_msg *)(*msg)->mad;
	cm_format_mad_hdr(&reply->hdr, attr_id, rcv->hdr.tid);
	cm_set(reply, CMF_REMOTE_COMM_ID, cm_get(rcv, CMF_LOCAL_COMM_ID));
	cm_set(reply, CMF_LOCAL_COMM_ID, cm_get(rcv, CMF_REMOTE_COMM_ID));
	return 0;
}

void cm_free_response_msg(struct ib_mad_send_buf *msg)
{
	if (msg->ah)
		rdma_destroy_ah(msg->ah, 0);
	ib_free_send_mad(msg);
}

/* Post @msg, a CM message; traced here */
int cm_post(struct ib_mad_send_buf *msg)
{
	struct ib_mad_agent *agent = msg->mad_agent;

	trace_ibcm_send(agent->device, agent->port_num, msg->mad);
	return ib_post_send_mad(msg, NULL);
}

/*
 * A copy of private data to keep, NULL for none, ERR_PTR(-EINVAL) when
 * it is longer than @max (the message's field), ERR_PTR(-ENOMEM).
 */
void *cm_copy_private_data(const void *data, u8 len, u8 max)
{
	void *copy;

	if (!data || !len)
		return NULL;
	if (len > max)
		return ERR_PTR(-EINVAL);
	copy = kmemdup(data, len, GFP_KERNEL);
	return copy ?: ERR_PTR(-ENOMEM);
}

/* Keep @data (from cm_copy_private_data()) for resends of @priv */
void cm_set_private_data(struct cm_id_private *priv, void *data, u8 len)
{
	kfree(priv->private_data);
	priv->private_data = data;
	priv->private_data_len = len;
}

/*
 * A new transaction ID of @priv: the agent's high 32 bits and the local
 * ID.  @priv's lock is held.
 */
__be64 cm_form_tid(struct cm_id_private *priv)
{
	u64 hi = 0, lo = (__force u32)priv->id.local_id;

	lockdep_assert_held(&priv->lock);
	if (!priv->av.port)
		return cpu_to_be64(lo);
	read_lock(&priv->av.port->cm_dev->mad_agent_lock);
	if (priv->av.port->mad_agent)
		hi = (u64)priv->av.port->mad_agent->hi_tid << 32;
	read_unlock(&priv->av.port->cm_dev->mad_agent_lock);
	return cpu_to_be64(hi | lo);
}

void cm_format_mad_hdr(struct ib_mad_hdr *hdr, __be16 attr_id, __be64 tid)
{
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = IB_MGMT_CLASS_CM;
	hdr->class_version = IB_CM_CLASS_VERSION;
	hdr->method = IB_MGMT_METHOD_SEND;
	hdr->attr_id = attr_id;
	hdr->tid = tid;
}

/* The header of a message with ECE options (their attr_mod part) */
void cm_format_mad_ece_hdr(struct ib_mad_hdr *hdr, __be16 attr_id,
			   __be64 tid, u32 attr_mod)
{
	cm_format_mad_hdr(hdr, attr_id, tid);
	hdr->attr_mod = cpu_to_be32(attr_mod);
}

/* The P_Key in the BTH of the MAD @work carries, 0 when unknown */
u16 cm_get_bth_pkey(struct cm_work *work)
{
	struct ib_device *dev = work->port->cm_dev->ib_device;
	u16 index = work->mad_recv_wc->wc->pkey_index, pkey;
	int ret;

	ret = ib_get_cached_pkey(dev, work->port->port_num, index, &pkey);
	if (ret) {
		ibdev_warn_ratelimited(dev,
				       "ib_cm: no P_Key at index %u of port %u: %d\n",
				       index, work->port->port_num, ret);
		return 0;
	}
	return pkey;
}

/*
 * A message of @priv that awaited an answer finished: freed, and when it
 * got none (timeout after its retries) while @priv is still in the state
 * it was sent in, the consumer hears of it.
 */
static void cm_process_send_error(struct cm_id_private *priv,
				  struct ib_mad_send_buf *msg,
				  enum ib_cm_state state,
				  enum ib_wc_status status)
{
	struct ib_cm_event event = {};
	int ret;

	spin_lock_irq(&priv->lock);
	if (msg != priv->msg) {
		/* an old one, or one that awaits nothing */
		spin_unlock_irq(&priv->lock);
		cm_free_msg(msg);
		return;
	}
	cm_free_priv_msg(msg);
	if (state != priv->id.state || status == IB_WC_SUCCESS ||
	    status == IB_WC_WR_FLUSH_ERR)
		goto unlock;

	switch (state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
		cm_reset_to_idle(priv);
		event.event = IB_CM_REQ_ERROR;
		break;
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		cm_reset_to_idle(priv);
		event.event = IB_CM_REP_ERROR;
		break;
	case IB_CM_DREQ_SENT:
		cm_enter_timewait(priv);
		event.event = IB_CM_DREQ_ERROR;
		break;
	case IB_CM_SIDR_REQ_SENT:
		cm_set_state(priv, IB_CM_IDLE);
		event.event = IB_CM_SIDR_REQ_ERROR;
		break;
	default:
		goto unlock;
	}
	spin_unlock_irq(&priv->lock);
	event.param.send_status = status;

	/* nothing else can happen to the CM ID now */
	ret = priv->id.cm_handler(&priv->id, &event);
	trace_ibcm_event(&priv->id, event.event, ret);
	if (ret)
		ib_destroy_cm_id(&priv->id);
	return;
unlock:
	spin_unlock_irq(&priv->lock);
}

/*
 * The MAD layer's send completion (process context).  A message sent
 * with a CM ID counts once plus its retries; an answer without one (a
 * duplicate's answer, a REJ or DREP to an unknown connection) counts as
 * resent, except a REJ.
 */
void cm_send_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_wc *send_wc)
{
	struct ib_mad_send_buf *msg = send_wc->send_buf;
	struct cm_id_private *priv = msg->context[0];
	enum ib_cm_state state = (unsigned long)msg->context[1];
	struct cm_port *port = agent->context;
	struct ib_mad_hdr *hdr = msg->mad;
	u16 index = be16_to_cpu(hdr->attr_id) - CM_ATTR_ID_OFFSET;

	trace_ibcm_send_done(hdr, send_wc->status, msg->retries);
	if (!priv && index != CM_REJ_COUNTER)
		msg->retries = 1;
	atomic_long_add(1 + msg->retries, &port->counters[CM_XMIT][index]);
	if (msg->retries)
		atomic_long_add(msg->retries,
				&port->counters[CM_XMIT_RETRIES][index]);
	if (priv)
		cm_process_send_error(priv, msg, state, send_wc->status);
	else
		cm_free_response_msg(msg);
}
