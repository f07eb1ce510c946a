// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm over iWARP (struct cma_transport cma_iw_transport): each
 * connection or listener has an iw_cm_id; its events become rdma_cm
 * events here.
 *
 * What rdma_cm needs of iw_cm: iw_destroy_cm_id() returns only when no
 * cm_handler call for the id runs any more and none will follow.  Then an
 * rdma_cm id is never used after rdma_destroy_id() freed it.
 */

#include <net/ipv6.h>
#include <rdma/iw_cm.h>

#include "cma_priv.h"
#include "cma_trace.h"

/* Events of an established or connecting id. */
static int cma_iw_handler(struct iw_cm_id *iw_id, struct iw_cm_event *iw_event)
{
	struct rdma_id_private *id_priv = iw_id->context;
	struct rdma_cm_event event = {};
	int ret = 0;

	mutex_lock(&id_priv->handler_mutex);
	if (READ_ONCE(id_priv->state) != RDMA_CM_CONNECT)
		goto out;

	switch (iw_event->event) {
	case IW_CM_EVENT_CLOSE:
		event.event = RDMA_CM_EVENT_DISCONNECTED;
		break;
	case IW_CM_EVENT_CONNECT_REPLY:
		memcpy(cma_src_addr(id_priv), &iw_event->local_addr,
		       rdma_addr_size((struct sockaddr *)&iw_event->local_addr));
		memcpy(cma_dst_addr(id_priv), &iw_event->remote_addr,
		       rdma_addr_size((struct sockaddr *)&iw_event->remote_addr));
		switch (iw_event->status) {
		case 0:
			event.event = RDMA_CM_EVENT_ESTABLISHED;
			event.param.conn.initiator_depth = iw_event->ird;
			event.param.conn.responder_resources = iw_event->ord;
			break;
		case -ECONNRESET:
		case -ECONNREFUSED:
			event.event = RDMA_CM_EVENT_REJECTED;
			break;
		case -ETIMEDOUT:
			event.event = RDMA_CM_EVENT_UNREACHABLE;
			break;
		default:
			event.event = RDMA_CM_EVENT_CONNECT_ERROR;
			break;
		}
		break;
	case IW_CM_EVENT_ESTABLISHED:
		event.event = RDMA_CM_EVENT_ESTABLISHED;
		event.param.conn.initiator_depth = iw_event->ird;
		event.param.conn.responder_resources = iw_event->ord;
		break;
	default:
		goto out;
	}

	event.status = iw_event->status;
	event.param.conn.private_data = iw_event->private_data;
	event.param.conn.private_data_len = iw_event->private_data_len;
	ret = cma_deliver_event(id_priv, &event);
	if (ret) {
		/* a non-zero return makes iw_cm destroy its id itself */
		id_priv->cm_id.iw = NULL;
		cma_destroy_id_handler_unlock(id_priv);
		return ret;
	}
out:
	mutex_unlock(&id_priv->handler_mutex);
	return ret;
}

/*
 * An IPv4 connection on an IPv6 wildcard listener that is not afonly
 * comes with IPv4-mapped IPv6 addresses (the dual-stack socket's view);
 * the connection is IPv4 and its id gets IPv4 addresses, as one on
 * rdma_cm's IB path does, which rdma_translate_ip() can resolve.
 */
static void cma_iw_unmap_v4(struct sockaddr_storage *ss)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;
	struct sockaddr_in sin = { .sin_family = AF_INET };

	if (ss->ss_family != AF_INET6 ||
	    !ipv6_addr_v4mapped(&sin6->sin6_addr))
		return;
	sin.sin_port = sin6->sin6_port;
	sin.sin_addr.s_addr = sin6->sin6_addr.s6_addr32[3];
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, &sin, sizeof(sin));
}

/* A connection request on a listener: a new id for the owner. */
static int cma_iw_conn_req_handler(struct iw_cm_id *cm_id,
				   struct iw_cm_event *iw_event)
{
	struct rdma_id_private *listen_id = cm_id->context;
	struct rdma_id_private *owner = listen_id->parent ?: listen_id;
	struct sockaddr_storage laddr = iw_event->local_addr;
	struct sockaddr_storage raddr = iw_event->remote_addr;
	struct rdma_cm_event event = {};
	struct rdma_id_private *conn_id;
	int ret;

	cma_iw_unmap_v4(&laddr);
	cma_iw_unmap_v4(&raddr);
	mutex_lock(&listen_id->handler_mutex);
	trace_cm_req_handler(listen_id, iw_event->event);
	if (READ_ONCE(listen_id->state) != RDMA_CM_LISTEN) {
		ret = -ECONNABORTED;
		goto out;
	}

	conn_id = cma_create_id(cma_net(listen_id), owner->id.event_handler,
				owner->id.context, listen_id->id.ps,
				IB_QPT_RC, owner->res.kern_name, false);
	if (IS_ERR(conn_id)) {
		ret = -ENOMEM;
		goto out;
	}
	rdma_restrack_parent_name(&conn_id->res, &owner->res);
	mutex_lock_nested(&conn_id->handler_mutex, SINGLE_DEPTH_NESTING);
	conn_id->state = RDMA_CM_CONNECT;

	ret = rdma_translate_ip((struct sockaddr *)&laddr,
				&conn_id->id.route.addr.dev_addr);
	if (ret)
		goto err_conn;
	ret = cma_attach_checked(conn_id, listen_id->cma_dev,
				 listen_id->id.port_num, NULL);
	if (ret)
		goto err_conn;
	memcpy(cma_src_addr(conn_id), &laddr, sizeof(laddr));
	memcpy(cma_dst_addr(conn_id), &raddr, sizeof(raddr));
	conn_id->tos = listen_id->tos;
	conn_id->tos_set = listen_id->tos_set;
	conn_id->cm_id.iw = cm_id;
	cm_id->context = conn_id;
	cm_id->cm_handler = cma_iw_handler;

	event.event = RDMA_CM_EVENT_CONNECT_REQUEST;
	event.param.conn.private_data = iw_event->private_data;
	event.param.conn.private_data_len = iw_event->private_data_len;
	event.param.conn.initiator_depth = iw_event->ird;
	event.param.conn.responder_resources = iw_event->ord;
	ret = cma_deliver_event(conn_id, &event);
	if (ret) {
		/* iw_cm destroys its id after our non-zero return */
		conn_id->cm_id.iw = NULL;
		mutex_unlock(&listen_id->handler_mutex);
		cma_destroy_id_handler_unlock(conn_id);
		return ret;
	}
	mutex_unlock(&conn_id->handler_mutex);
	goto out;

err_conn:
	mutex_unlock(&listen_id->handler_mutex);
	cma_destroy_id_handler_unlock(conn_id);
	return ret;
out:
	mutex_unlock(&listen_id->handler_mutex);
	return ret;
}

static void cma_iw_set_tos(struct rdma_id_private *id_priv,
			   struct iw_cm_id *cm_id)
{
	mutex_lock(&id_priv->qp_mutex);
	cm_id->tos = id_priv->tos;
	cm_id->tos_set = id_priv->tos_set;
	mutex_unlock(&id_priv->qp_mutex);
	cm_id->afonly = id_priv->afonly;
}

static int cma_iw_listen(struct rdma_id_private *id_priv)
{
	struct iw_cm_id *cm_id;
	int ret;

	cm_id = iw_create_cm_id(id_priv->id.device, cma_iw_conn_req_handler,
				id_priv);
	if (IS_ERR(cm_id))
		return PTR_ERR(cm_id);
	cma_iw_set_tos(id_priv, cm_id);
	memcpy(&cm_id->local_addr, cma_src_addr(id_priv),
	       rdma_addr_size(cma_src_addr(id_priv)));
	id_priv->cm_id.iw = cm_id;
	ret = iw_cm_listen(cm_id, id_priv->backlog);
	if (ret) {
		iw_destroy_cm_id(cm_id);
		id_priv->cm_id.iw = NULL;
	}
	return ret;
}

static int cma_iw_connect(struct rdma_id_private *id_priv,
			  struct rdma_conn_param *conn_param)
{
	struct iw_cm_conn_param iw_param = {};
	struct iw_cm_id *cm_id;
	int ret;

	cm_id = iw_create_cm_id(id_priv->id.device, cma_iw_handler, id_priv);
	if (IS_ERR(cm_id))
		return PTR_ERR(cm_id);
	cma_iw_set_tos(id_priv, cm_id);
	id_priv->cm_id.iw = cm_id;
	memcpy(&cm_id->local_addr, cma_src_addr(id_priv),
	       rdma_addr_size(cma_src_addr(id_priv)));
	memcpy(&cm_id->remote_addr, cma_dst_addr(id_priv),
	       rdma_addr_size(cma_dst_addr(id_priv)));

	ret = cma_modify_qp_rtr(id_priv, conn_param);
	if (ret)
		goto err;
	if (conn_param) {
		iw_param.ord = conn_param->initiator_depth;
		iw_param.ird = conn_param->responder_resources;
		iw_param.private_data = conn_param->private_data;
		iw_param.private_data_len = conn_param->private_data_len;
	}
	iw_param.qpn = id_priv->qp_num;
	trace_cm_send_req(id_priv);
	ret = iw_cm_connect(cm_id, &iw_param);
	if (ret)
		goto err;
	return 0;

err:
	iw_destroy_cm_id(cm_id);
	id_priv->cm_id.iw = NULL;
	return ret;
}

static int cma_iw_accept(struct rdma_id_private *id_priv,
			 struct rdma_conn_param *conn_param)
{
	struct iw_cm_conn_param iw_param = {};
	int ret;

	if (!conn_param)
		return -EINVAL;
	ret = cma_modify_qp_rtr(id_priv, conn_param);
	if (ret)
		return ret;
	iw_param.ord = conn_param->initiator_depth;
	iw_param.ird = conn_param->responder_resources;
	iw_param.private_data = conn_param->private_data;
	iw_param.private_data_len = conn_param->private_data_len;
	iw_param.qpn = id_priv->qp_num;
	trace_cm_send_rep(id_priv);
	return iw_cm_accept(id_priv->cm_id.iw, &iw_param);
}

/* @reason is IB's: iWARP's MPA reject carries private data only. */
static int cma_iw_reject(struct rdma_id_private *id_priv,
			 const void *private_data, u8 private_data_len,
			 u8 reason)
{
	return iw_cm_reject(id_priv->cm_id.iw, private_data, private_data_len);
}

static int cma_iw_disconnect(struct rdma_id_private *id_priv)
{
	return iw_cm_disconnect(id_priv->cm_id.iw, 0);
}

/* Without a connection yet: INIT, no remote access. */
static int cma_iw_init_qp_attr(struct rdma_id_private *id_priv,
			       struct ib_qp_attr *qp_attr, int *qp_attr_mask)
{
	int ret = 0;

	if (!id_priv->cm_id.iw) {
		qp_attr->qp_access_flags = 0;
		*qp_attr_mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS;
	} else {
		ret = iw_cm_init_qp_attr(id_priv->cm_id.iw, qp_attr,
					 qp_attr_mask);
	}
	qp_attr->port_num = id_priv->id.port_num;
	*qp_attr_mask |= IB_QP_PORT;
	return ret;
}

/* Nothing to tell iw_cm: the QP's events reach the driver directly. */
static int cma_iw_notify(struct rdma_id_private *id_priv,
			 enum ib_event_type event)
{
	return 0;
}

/* The route is the one the address resolution found: nothing to ask. */
static int cma_iw_resolve_route(struct rdma_id_private *id_priv,
				unsigned long timeout_ms)
{
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_ROUTE_RESOLVED };

	return cma_queue_event(id_priv, RDMA_CM_ROUTE_QUERY,
			       RDMA_CM_ROUTE_RESOLVED, &event);
}

/* iWARP has no multicast (upstream's answer). */
static int cma_iw_join_multicast(struct rdma_id_private *id_priv,
				 struct cma_multicast *mc)
{
	return -ENOSYS;
}

/* never joined */
static void cma_iw_leave_multicast(struct rdma_id_private *id_priv,
				   struct cma_multicast *mc)
{
}

static void cma_iw_destroy(struct rdma_id_private *id_priv)
{
	if (id_priv->cm_id.iw) {
		iw_destroy_cm_id(id_priv->cm_id.iw);
		id_priv->cm_id.iw = NULL;
	}
}

static const char *cma_iw_reject_msg(int reason)
{
	return iwcm_reject_msg(reason);
}

/* A refusal by the peer's owner comes as -ECONNREFUSED. */
static bool cma_iw_consumer_reject(int reason)
{
	return reason == -ECONNREFUSED;
}

const struct cma_transport cma_iw_transport = {
	.name		 = "iw_cm",
	.listen		 = cma_iw_listen,
	.connect	 = cma_iw_connect,
	.accept		 = cma_iw_accept,
	.reject		 = cma_iw_reject,
	.disconnect	 = cma_iw_disconnect,
	.init_qp_attr	 = cma_iw_init_qp_attr,
	.notify		 = cma_iw_notify,
	.destroy	 = cma_iw_destroy,
	.resolve_route	 = cma_iw_resolve_route,
	.join_multicast	 = cma_iw_join_multicast,
	.leave_multicast = cma_iw_leave_multicast,
	.reject_msg	 = cma_iw_reject_msg,
	.consumer_reject = cma_iw_consumer_reject,
};
